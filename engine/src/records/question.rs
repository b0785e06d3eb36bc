//! A question read as an aggregation: what is computed (a count of rows, a sum, an average, the
//! largest or smallest), the conditions on the rows ("more than 4 platforms", "after 1990",
//! "over £5"), and the question's words that name the rows and the columns.

use std::sync::OnceLock;

use regex::Regex;
use tally_types::count::Operation;

use crate::count::clause::stem;
use tally_text::quantity::{parse_query, Condition, Constraint};

/// A question as an aggregation over a table.
#[derive(Debug, Clone, PartialEq)]
pub struct AggregationQuestion {
    /// The operation asked for.
    pub operation: Operation,
    /// Whether it asks "how many" or "the number of" (a count when nothing is added up).
    pub asks_how_many: bool,
    /// Its content words, stemmed, without the words that say the operation or a condition.
    pub words: Vec<String>,
    /// Its content words outside its conditions' phrases ("won" in "teams that won fewer than
    /// 8 matches"): what names a condition's column when the condition's noun does not.
    pub free_words: Vec<String>,
    /// The conditions it puts on the rows.
    pub conditions: Vec<AskedCondition>,
    /// A number after a word that may name a column ("zone 2": ("zone", 2, "2")).
    pub equalities: Vec<(String, f64, String)>,
    /// The measure a superlative names ("longest": length, "cheapest": money, "oldest": year).
    pub measure_hint: Option<&'static str>,
    /// The noun "how many" counts, stemmed ("passengers": "passeng"): when a column of numbers
    /// is named by it, the rows' numbers are added up, not the rows counted (issue 86: "how
    /// many passengers landed from 2021 to 2025").
    pub counted: Option<String>,
    /// The question in lower case, as asked: a value whose words say too little of it
    /// (`back\slash`, `*`, `''`) is looked for as it is written (issue 97).
    pub text: String,
}

/// A condition the question puts on the rows.
#[derive(Debug, Clone, PartialEq)]
pub enum AskedCondition {
    /// A quantity: "more than 4 platforms", "over £5", "heavier than 2 kg".
    Quantity {
        /// The bound the quantity must meet.
        constraint: Constraint,
        /// The counted noun's words, stemmed (["platform"], ["snow", "day"]), when the
        /// quantity names one.
        noun: Option<Vec<String>>,
        /// As the question says it.
        text: String,
    },
    /// A year: "after 1990", "between 2015 and 2019".
    Year {
        /// How the year is compared (after, before, in, between).
        condition: Condition,
        /// The year named first.
        low: f64,
        /// The second year of a range ("between 2015 and 2019").
        high: Option<f64>,
        /// As the question says it.
        text: String,
    },
}

impl AskedCondition {
    /// The condition as the question says it.
    pub fn text(&self) -> &str {
        match self {
            AskedCondition::Quantity { text, .. } | AskedCondition::Year { text, .. } => text,
        }
    }
}

/// Words that say which operation, not what is asked about.
const OPERATION_WORDS: &[&str] = &[
    "how",
    "many",
    "much",
    "number",
    "total",
    "in",
    "altogether",
    "combined",
    "across",
    "all",
    "together",
    "sum",
    "average",
    "mean",
    "overall",
    "which",
    "what",
    "who",
    "is",
    "are",
    "was",
    "were",
    "the",
    "a",
    "an",
    "of",
    "did",
    "does",
    "do",
    "has",
    "have",
    "had",
    "there",
    "with",
    "on",
    "for",
    "to",
    "at",
    "by",
    "and",
    "or",
    "that",
    "than",
    "more",
    "less",
    "fewer",
    "over",
    "under",
    "above",
    "below",
    "least",
    "most",
    "between",
    "after",
    "before",
    "since",
    "until",
    "from",
    "it",
    "its",
    "their",
    "they",
    "be",
    "been",
    "this",
    "these",
    "those",
    "per",
    "each",
    "every",
    "exactly",
    "at",
    "about",
    "name",
];

/// Superlatives: the operation they ask for and the measure they name, if any.
const SUPERLATIVES: &[(&str, Operation, Option<&str>)] = &[
    ("most", Operation::Largest, None),
    ("largest", Operation::Largest, None),
    ("highest", Operation::Largest, None),
    ("biggest", Operation::Largest, None),
    ("greatest", Operation::Largest, None),
    ("maximum", Operation::Largest, None),
    ("busiest", Operation::Largest, None),
    ("longest", Operation::Largest, Some("length")),
    ("tallest", Operation::Largest, Some("length")),
    ("widest", Operation::Largest, Some("length")),
    ("deepest", Operation::Largest, Some("length")),
    ("heaviest", Operation::Largest, Some("mass")),
    ("fastest", Operation::Largest, Some("speed")),
    ("wettest", Operation::Largest, None),
    ("warmest", Operation::Largest, Some("temperature")),
    ("hottest", Operation::Largest, Some("temperature")),
    ("priciest", Operation::Largest, Some("money")),
    ("dearest", Operation::Largest, Some("money")),
    ("newest", Operation::Largest, Some("year")),
    ("latest", Operation::Largest, Some("year")),
    ("least", Operation::Smallest, None),
    ("fewest", Operation::Smallest, None),
    ("smallest", Operation::Smallest, None),
    ("lowest", Operation::Smallest, None),
    ("minimum", Operation::Smallest, None),
    ("shortest", Operation::Smallest, Some("length")),
    ("narrowest", Operation::Smallest, Some("length")),
    ("shallowest", Operation::Smallest, Some("length")),
    ("lightest", Operation::Smallest, Some("mass")),
    ("slowest", Operation::Smallest, Some("speed")),
    ("coldest", Operation::Smallest, Some("temperature")),
    ("coolest", Operation::Smallest, Some("temperature")),
    ("driest", Operation::Smallest, None),
    ("cheapest", Operation::Smallest, Some("money")),
    ("oldest", Operation::Smallest, Some("year")),
    ("earliest", Operation::Smallest, Some("year")),
];

/// Words that name money without a symbol ("the most expensive ticket").
const MONEY_WORDS: &[&str] = &[
    "expensive",
    "cost",
    "costs",
    "price",
    "priced",
    "fare",
    "fares",
    "fee",
    "fees",
    "cheap",
];

/// Reads `question` as an aggregation; `None` when it asks for none (no operation, or a count
/// without a condition: "how many stations are there" is answered by what the text states).
pub fn read_question(question: &str) -> Option<AggregationQuestion> {
    let lower = question.to_lowercase();
    let tokens: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .collect();
    let has = |word: &str| tokens.contains(&word);
    let has_pair = |a: &str, b: &str| tokens.windows(2).any(|w| w[0] == a && w[1] == b);
    let asks_how_many = has_pair("how", "many") || has_pair("number", "of");
    let picks = matches!(
        tokens.first().copied(),
        Some("which" | "what" | "who" | "name")
    ) || has_pair("the", "most")
        || has_pair("the", "least")
        || has_pair("the", "fewest");
    let superlative = SUPERLATIVES
        .iter()
        .find(|(word, _, _)| tokens.contains(word));
    let money = tokens.iter().any(|t| MONEY_WORDS.contains(t));
    let conditions = conditions_of(question);
    let equalities = equalities_of(&lower, &conditions);
    let (operation, measure_hint) = if let (Some((_, operation, hint)), true, false) =
        (superlative, picks, asks_how_many && !conditions.is_empty())
    {
        (*operation, hint.or(money.then_some("money")))
    } else if has("average") || has("mean") {
        (Operation::Average, money.then_some("money"))
    } else if has("total")
        || has("altogether")
        || has("combined")
        || has_pair("all", "together")
        || has_pair("across", "all")
        || has_pair("sum", "of")
    {
        (Operation::Sum, None)
    } else if asks_how_many {
        // A count planned without any condition is not an aggregation (the plan drops it):
        // "how many stations are there" is answered by what the text states.
        (Operation::Count, None)
    } else {
        return None;
    };
    let condition_words: Vec<String> = conditions.iter().flat_map(|c| words_of(c.text())).collect();
    let words = words_of(&lower)
        .into_iter()
        .filter(|w| !condition_words.contains(w) || is_noun_of(&conditions, w))
        .filter(|w| !SUPERLATIVES.iter().any(|(s, _, _)| stem(s) == *w))
        .collect();
    let mut outside = lower.clone();
    for condition in &conditions {
        outside = outside.replace(&condition.text().to_lowercase(), " ");
    }
    let free_words = words_of(&outside);
    let counted = tokens
        .windows(3)
        .find(|w| (w[0] == "how" && w[1] == "many") || (w[0] == "number" && w[1] == "of"))
        .and_then(|w| words_of(w[2]).into_iter().next());
    Some(AggregationQuestion {
        counted,
        operation,
        asks_how_many,
        words,
        free_words,
        conditions,
        equalities,
        measure_hint,
        text: lower.clone(),
    })
}

/// Whether `word` is the noun a quantity condition counts (kept among the words: "platforms"
/// names the column).
fn is_noun_of(conditions: &[AskedCondition], word: &str) -> bool {
    conditions.iter().any(|c| match c {
        AskedCondition::Quantity { noun, .. } => {
            noun.as_ref().is_some_and(|n| n.iter().any(|w| w == word))
        }
        AskedCondition::Year { .. } => false,
    })
}

/// The content words of `text`, stemmed, without the operation's words and numbers.
pub(crate) fn words_of(text: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for word in text
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 1 && !w.chars().all(|c| c.is_ascii_digit()))
        .filter(|w| !OPERATION_WORDS.contains(w))
    {
        let stemmed = stem(word);
        if !words.contains(&stemmed) {
            words.push(stemmed);
        }
    }
    words
}

/// Numbers right after a word ("zone 2", "grade 3"), outside the conditions, that are not
/// years: what "in zone 2" asks of a column named "Zone".
fn equalities_of(lower: &str, conditions: &[AskedCondition]) -> Vec<(String, f64, String)> {
    static NAMED: OnceLock<Regex> = OnceLock::new();
    let pattern = NAMED.get_or_init(|| {
        Regex::new(r"\b([a-z]+)\s+(\d{1,3}(?:\.\d+)?)\b(?:\s*$|\s+[a-z])")
            .expect("the named-number pattern is valid")
    });
    pattern
        .captures_iter(lower)
        .filter_map(|caps| {
            let word = caps.get(1)?.as_str();
            let number = caps.get(2)?;
            if OPERATION_WORDS.contains(&word)
                || conditions
                    .iter()
                    .any(|c| c.text().to_lowercase().contains(number.as_str()))
            {
                return None;
            }
            Some((
                stem(word),
                number.as_str().parse().ok()?,
                number.as_str().to_string(),
            ))
        })
        .collect()
}

/// The conditions of a question: its quantity constraints (through quantity search's query
/// parser) and its year conditions.
fn conditions_of(question: &str) -> Vec<AskedCondition> {
    let mut conditions: Vec<AskedCondition> = parse_query(question)
        .constraints
        .into_iter()
        .filter(|c| {
            matches!(
                c.condition,
                Condition::Less
                    | Condition::AtMost
                    | Condition::Greater
                    | Condition::AtLeast
                    | Condition::Range
            )
        })
        .map(|constraint| {
            let text = question
                .get(constraint.span.clone())
                .unwrap_or_default()
                .trim()
                .to_string();
            let noun = constraint
                .unit
                .as_ref()
                .filter(|u| u.unit_id.is_none() || u.dimension.as_deref() == Some("count"))
                .map(|u| words_of(&u.name))
                .filter(|words| !words.is_empty());
            AskedCondition::Quantity {
                constraint,
                noun,
                text,
            }
        })
        .collect();
    conditions.extend(year_conditions(question));
    conditions
}

/// "after 1990", "since 1990", "before 1990", "until 1990", "between 2015 and 2019", "from 2015
/// to 2019". A plain "in 2019" is not a condition: it names a row ("how many ships called in
/// 2019" is a cell).
fn year_conditions(question: &str) -> Vec<AskedCondition> {
    static YEAR: OnceLock<Regex> = OnceLock::new();
    let pattern = YEAR.get_or_init(|| {
        Regex::new(
            r"(?i)\b(after|since|before|until|till|by|between|from)\s+(\d{4})(?:\s*(?:and|to|-|–)\s*(\d{4}))?\b",
        )
        .expect("the year pattern is valid")
    });
    pattern
        .captures_iter(question)
        .filter_map(|caps| {
            let word = caps.get(1)?.as_str().to_lowercase();
            let low: f64 = caps.get(2)?.as_str().parse().ok()?;
            let high: Option<f64> = caps.get(3).and_then(|h| h.as_str().parse().ok());
            if !(1000.0..=2200.0).contains(&low) {
                return None;
            }
            let condition = match (word.as_str(), high) {
                ("between" | "from", Some(_)) => Condition::Range,
                ("between", None) => return None,
                ("after", _) => Condition::Greater,
                ("since" | "from", _) => Condition::AtLeast,
                ("before", _) => Condition::Less,
                _ => Condition::AtMost,
            };
            Some(AskedCondition::Year {
                condition,
                low,
                high: high.filter(|_| condition == Condition::Range),
                text: caps.get(0)?.as_str().to_string(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_reads_its_condition() {
        let q = read_question("how many stations have more than 4 platforms").unwrap();
        assert_eq!(q.operation, Operation::Count);
        assert!(q.words.contains(&stem("stations")));
        assert!(q.words.contains(&stem("platforms")));
        let [AskedCondition::Quantity {
            constraint, noun, ..
        }] = q.conditions.as_slice()
        else {
            panic!("one quantity condition: {:?}", q.conditions);
        };
        assert_eq!(constraint.condition, Condition::Greater);
        assert_eq!(constraint.value, 4.0);
        assert_eq!(noun.as_deref(), Some(&[stem("platform")][..]));
    }

    #[test]
    fn years_are_conditions_but_a_plain_in_year_is_not() {
        let q = read_question("how many stations opened after 1990").unwrap();
        assert!(matches!(
            q.conditions.as_slice(),
            [AskedCondition::Year { condition: Condition::Greater, low, .. }] if *low == 1990.0
        ));
        let q = read_question("how many releases came out between 2015 and 2019").unwrap();
        assert!(matches!(
            q.conditions.as_slice(),
            [AskedCondition::Year { condition: Condition::Range, high: Some(h), .. }] if *h == 2019.0
        ));
        let q = read_question("how many ships called in 2019").unwrap();
        assert!(q.conditions.is_empty() && q.equalities.is_empty(), "{q:?}");
    }

    #[test]
    fn operations_are_read_from_their_words() {
        let op = |q: &str| read_question(q).map(|q| q.operation);
        assert_eq!(
            op("how many members are there in total"),
            Some(Operation::Sum)
        );
        assert_eq!(
            op("how many bugs were fixed across all releases"),
            Some(Operation::Sum)
        );
        assert_eq!(op("what is the average fare"), Some(Operation::Average));
        assert_eq!(
            op("which station has the most platforms"),
            Some(Operation::Largest)
        );
        assert_eq!(
            op("which is the cheapest ticket"),
            Some(Operation::Smallest)
        );
        assert_eq!(
            op("how many ticket types cost more than £5"),
            Some(Operation::Count)
        );
    }
}
