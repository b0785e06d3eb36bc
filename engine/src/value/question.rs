//! Reading a value question: its words, the dimension it implies, the unit it asks for and the
//! year it is about.

use tally_text::quantity::is_function_word;
use tally_text::UnitTable;

pub(crate) use tally_types::value::ValueQuestion;

/// Words that imply a dimension, and which.
/// The dimension money is read as (the unit table's name for amounts of a currency).
pub const MONEY_DIMENSION: &str = "currency";

const DIMENSION_CUES: &[(&[&str], &str)] = &[
    (
        &[
            "tall", "height", "high", "long", "length", "distance", "far", "wide", "width", "deep",
            "depth",
        ],
        "length",
    ),
    (&["heavy", "weigh", "weighs", "weight", "mass"], "mass"),
    (
        &[
            "cost", "costs", "price", "revenue", "revenues", "worth", "salary", "spend", "spent",
            "paid", "pay", "fee", "budget", "profit", "sales", "rent", "fare", "fares", "turnover",
            "takings", "fees", "money", "charge", "charges",
        ],
        MONEY_DIMENSION,
    ),
    (&["power", "wattage"], "power"),
    (&["fast", "speed"], "speed"),
    (&["hot", "cold", "temperature"], "temperature"),
    (&["area"], "area"),
    (&["old", "age"], "time"),
];

/// Words after "how long" that ask for a time, not a length ("how long does it take", "how
/// long should the dough be proved"), and words that name a time anywhere in the question.
const DURATION_AFTER_LONG: &[&str] = &[
    "do", "does", "did", "should", "will", "would", "can", "could", "must", "to", "has", "have",
    "had",
];
const DURATION_WORDS: &[&str] = &[
    "take", "takes", "took", "last", "lasts", "lasted", "life", "bake", "baked", "cook", "cooked",
    "prove", "proved", "rest", "rested", "roast", "simmer", "boil", "chill", "wait", "run", "ran",
    "stay", "stayed", "play", "played", "charge", "trip", "journey", "flight", "drive", "walk",
    "ride", "strike", "warranty",
];

/// Dimension words that are adjectives: after "how" they ask for a measure ("how cold"), before
/// a noun they name a thing ("the cold room", "the old mill", "the high street").
const ADJECTIVE_CUES: &[&str] = &[
    "tall", "high", "long", "wide", "deep", "far", "heavy", "fast", "hot", "cold", "old",
];

/// The word that says which dimension a question asks for, and the dimension: the first that
/// asks — a noun or a verb ("cost", "height", "weigh"), or an adjective after "how" — else the
/// first dimension word at all ("what did the new cold room cost": "cost", not "cold").
fn dimension_cue(tokens: &[&str]) -> Option<(String, String)> {
    let cues: Vec<(usize, &str, &str)> = tokens
        .iter()
        .enumerate()
        .filter_map(|(at, word)| {
            DIMENSION_CUES
                .iter()
                .find(|(words, _)| words.contains(word))
                .map(|(_, dimension)| (at, *word, *dimension))
        })
        .collect();
    let asks = |&&(at, word, _): &&(usize, &str, &str)| {
        !ADJECTIVE_CUES.contains(&word) || (at > 0 && tokens[at - 1] == "how")
    };
    let (_, word, dimension) = cues.iter().find(asks).or(cues.first())?;
    Some((word.to_string(), dimension.to_string()))
}

/// The words that make a question ask for a duration ("how long … take"), when they do.
fn asks_duration(tokens: &[&str]) -> Option<String> {
    let at = tokens.windows(2).position(|w| w == ["how", "long"])?;
    let next = tokens.get(at + 2).copied().unwrap_or_default();
    let timed =
        DURATION_AFTER_LONG.contains(&next) || tokens.iter().any(|w| DURATION_WORDS.contains(w));
    timed.then(|| "how long".to_string())
}

/// Words that ask how big something is: its area ("how large is Yellowstone"), unless the
/// question names the measure ("how large is the population of Lagos").
const SIZE_WORDS: &[&str] = &["large", "big", "vast", "size"];

/// Nouns that name a measured quantity, with or without an implied unit ("capacity" may be
/// seats or litres): "capacity of Wembley Stadium", "Tesla deliveries 2020".
const MEASURE_NOUNS: &[&str] = &[
    "height",
    "length",
    "distance",
    "width",
    "depth",
    "elevation",
    "altitude",
    "weight",
    "mass",
    "cost",
    "price",
    "revenue",
    "revenues",
    "salary",
    "budget",
    "profit",
    "sales",
    "income",
    "speed",
    "temperature",
    "area",
    "age",
    "capacity",
    "population",
    "deliveries",
    "attendance",
    "circulation",
    "enrollment",
    "enrolment",
    "employees",
    "volume",
    "range",
    "duration",
    "runtime",
    "production",
    "output",
    "gdp",
    "value",
    "size",
    "diameter",
    "radius",
];

/// Measure nouns that name what is counted or paid: a sentence answers only when its
/// description says the same noun, since a dimension alone does not pin them down (the price of
/// a Tesla is not "Tesla deliveries"; a discount on an Apple laptop is not "Apple's revenue").
const NAMED_MEASURES: &[&str] = &[
    "revenue",
    "revenues",
    "sales",
    "profit",
    "income",
    "budget",
    "salary",
    "deliveries",
    "population",
    "attendance",
    "employees",
    "enrollment",
    "enrolment",
    "circulation",
    "production",
    "output",
    "gdp",
];

/// The named measure the question asks for ([`NAMED_MEASURES`]), normalised, if any.
pub fn named_measure(question: &ValueQuestion) -> Option<String> {
    question
        .words
        .iter()
        .find(|w| NAMED_MEASURES.contains(&w.as_str()))
        .map(|w| super::normalise(w))
}

/// Why a question asks for one value, when it does: the word that says so. "How" with a
/// dimension word ("how tall", "how much did … cost"), or a measure noun about something named,
/// dated or asked with "what" ("capacity of Wembley Stadium", "Tesla deliveries 2020"). Count
/// cues ("how many") and quantity conditions are read before this (see `detect_kind`).
pub fn value_cue(question: &ValueQuestion) -> Option<String> {
    let lower = question.text.to_lowercase();
    let tokens: Vec<&str> = super::raw_words(&lower).collect();
    let first = tokens.first().copied()?;
    if first == "how" {
        if let Some(cue) = &question.dimension_cue {
            return Some(cue.clone());
        }
    }
    let noun = tokens.iter().find(|w| MEASURE_NOUNS.contains(w))?;
    let about_something = matches!(first, "what" | "which")
        || tokens.contains(&"of")
        || question.year.is_some()
        || !subject_of(question).is_empty();
    about_something.then(|| noun.to_string())
}

/// Whether a question's word asks for a measure rather than naming what is measured: a
/// dimension word ("tall", "cost", "how long … take"), a measure noun ("height", "capacity") or
/// a size word.
pub(crate) fn is_measure_word(word: &str) -> bool {
    DIMENSION_CUES
        .iter()
        .any(|(words, _)| words.contains(&word))
        || DURATION_WORDS.contains(&word)
        || MEASURE_NOUNS.contains(&word)
        || SIZE_WORDS.contains(&word)
        || is_question_word(word)
}

/// Words that ask, not say what is asked about.
fn is_question_word(word: &str) -> bool {
    matches!(
        word,
        "how"
            | "what"
            | "which"
            | "when"
            | "much"
            | "many"
            | "big"
            | "large"
            | "does"
            | "did"
            | "do"
            | "is"
            | "was"
            | "are"
            | "were"
            | "s"
    )
}

/// Reads a value question.
pub fn parse_question(text: &str) -> ValueQuestion {
    {
        let lower = text.to_lowercase();
        let tokens: Vec<&str> = super::raw_words(&lower).collect();
        let table = UnitTable::builtin();
        // "… in feet", "… in km": the unit asked for, at the end.
        let mut unit = None;
        let mut unit_tokens = 0;
        if let Some(at) = tokens.iter().rposition(|w| *w == "in") {
            let rest = tokens[at + 1..].join(" ");
            let found = table
                .lookup(&rest)
                .into_iter()
                .find(|u| u.dimension != "count");
            if let Some(u) = found {
                unit = Some(u);
                unit_tokens = tokens.len() - at;
            }
        }
        let year = tokens
            .iter()
            .filter(|w| w.len() == 4)
            .filter_map(|w| w.parse::<i32>().ok())
            .find(|y| (1900..=2100).contains(y));
        let cue = asks_duration(&tokens)
            .map(|w| (w, "time".to_string()))
            .or_else(|| dimension_cue(&tokens));
        let size = tokens.iter().find(|w| SIZE_WORDS.contains(w));
        let names_measure = tokens
            .iter()
            .any(|w| MEASURE_NOUNS.contains(w) && !SIZE_WORDS.contains(w));
        let (dimension, dimension_cue) = match (unit, cue, size) {
            (Some(u), _, _) => (Some(u.dimension.clone()), Some(format!("in {}", u.name()))),
            (None, Some((word, dim)), _) => (Some(dim), Some(word)),
            (None, None, Some(word)) if !names_measure => {
                (Some("area".to_string()), Some(word.to_string()))
            }
            (None, None, Some(word)) => (None, Some(word.to_string())),
            (None, None, None) => (None, None),
        };
        let words = tokens[..tokens.len() - unit_tokens]
            .iter()
            .filter(|w| !is_function_word(w) && !is_question_word(w))
            .filter(|w| year.is_none_or(|y| **w != y.to_string()))
            .map(|w| w.to_string())
            .collect();
        ValueQuestion {
            text: text.to_string(),
            words,
            dimension,
            dimension_cue,
            unit: unit.map(|u| u.id.clone()),
            year,
        }
    }
}

/// What the question is about, as written with capitals ("Eiffel Tower", "Wembley Stadium"):
/// lower-case singular words, question words and the first word left out.
pub fn subject_of(question: &ValueQuestion) -> Vec<String> {
    {
        let mut subject = Vec::new();
        for (i, word) in super::raw_words(&question.text).enumerate() {
            let lower = word.to_lowercase();
            let capitalised = word.starts_with(|c: char| c.is_uppercase());
            if i == 0 || !capitalised || is_function_word(&lower) || is_question_word(&lower) {
                continue;
            }
            let lower = super::normalise(&lower);
            if !subject.contains(&lower) {
                subject.push(lower);
            }
        }
        subject
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimension_unit_and_year_come_from_the_question() {
        let q = parse_question("How tall is the Eiffel Tower?");
        assert_eq!(q.dimension.as_deref(), Some("length"));
        assert_eq!(q.dimension_cue.as_deref(), Some("tall"));
        assert_eq!(q.words, ["tall", "eiffel", "tower"]);
        let q = parse_question("How long is the Danube in km");
        assert_eq!(q.unit.as_deref(), Some("kilometre"));
        assert_eq!(q.dimension.as_deref(), Some("length"));
        assert_eq!(q.words, ["long", "danube"]);
        let q = parse_question("What was Apple's revenue in 2019?");
        assert_eq!(q.dimension.as_deref(), Some("currency"));
        assert_eq!(q.year, Some(2019));
        assert_eq!(q.words, ["apple", "revenue"]);
        let q = parse_question("How large is Yellowstone National Park?");
        assert_eq!(q.dimension.as_deref(), Some("area"));
        assert_eq!(value_cue(&q).as_deref(), Some("large"));
        let q = parse_question("how big is the population of Lagos");
        assert_eq!(q.dimension, None);
        assert_eq!(value_cue(&q).as_deref(), Some("big"));
        let q = parse_question("capacity of Wembley Stadium");
        assert_eq!(subject_of(&q), ["wembley", "stadium"]);
        assert_eq!(value_cue(&q).as_deref(), Some("capacity"));
        assert_eq!(q.dimension, None);
        assert_eq!(q.words, ["capacity", "wembley", "stadium"]);
    }
}

#[cfg(test)]
mod cue_tests {
    use super::*;

    fn cue(text: &str) -> Option<String> {
        value_cue(&parse_question(text))
    }

    #[test]
    fn an_adjective_before_a_noun_names_a_thing_and_asks_for_nothing() {
        let q =
            parse_question("what did the new cold room at brackenfold village shop cost to fit");
        assert_eq!(q.dimension.as_deref(), Some(MONEY_DIMENSION));
        assert_eq!(q.dimension_cue.as_deref(), Some("cost"));
        let q = parse_question("how cold is the cold room");
        assert_eq!(q.dimension.as_deref(), Some("temperature"));
        // Alone, an adjective is still the question's measure.
        let q = parse_question("tall eiffel tower");
        assert_eq!(q.dimension.as_deref(), Some("length"));
        let q = parse_question("what is the rent of the old mill");
        assert_eq!(q.dimension.as_deref(), Some(MONEY_DIMENSION));
    }

    #[test]
    fn value_questions_have_a_cue_and_other_text_has_none() {
        assert_eq!(
            cue("How tall is the Eiffel Tower?").as_deref(),
            Some("tall")
        );
        assert_eq!(
            cue("how much did the Burj Khalifa cost").as_deref(),
            Some("cost")
        );
        assert_eq!(
            cue("How long is the Danube in km").as_deref(),
            Some("in kilometre")
        );
        assert_eq!(cue("Tesla deliveries 2020").as_deref(), Some("deliveries"));
        assert_eq!(
            cue("what was Apple's revenue in 2019").as_deref(),
            Some("revenue")
        );
        assert_eq!(cue("population of Berlin").as_deref(), Some("population"));
        // No measure, or a measure word about nothing in particular.
        assert_eq!(cue("history of the Rose Bowl"), None);
        assert_eq!(cue("songs by lennon"), None);
        assert_eq!(cue("a long walk in the park"), None);
        // A time asked with "how long" and a verb, a length without one.
        for timed in [
            "how long should the dough be proved",
            "how long did the strike at the mill last",
            "how long does the charge take",
        ] {
            assert_eq!(
                parse_question(timed).dimension.as_deref(),
                Some("time"),
                "{timed}"
            );
        }
        assert_eq!(
            parse_question("how long is the Danube")
                .dimension
                .as_deref(),
            Some("length")
        );
        assert_eq!(cue("price"), None);
        let named = |text: &str| named_measure(&parse_question(text));
        assert_eq!(named("Tesla deliveries 2020").as_deref(), Some("delivery"));
        assert_eq!(named("how tall is the Eiffel Tower"), None);
    }
}
