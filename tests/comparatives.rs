//! Conditions written with comparatives, generated: adjectives × dimensions × units × negation,
//! with a fixed seed (issue 33). Each case is a query such as "bridges wider than 40 m" or
//! "laptops not more expensive than €500" and the condition a person means by it. The cases are
//! split by a hash into a half that may be looked at while building the reader of comparatives
//! (its failures are printed) and a half that is only scored (its rate is printed, never its
//! cases). The lists below were written from English usage before the reader, not from it.

use tally_text::parse_query;
use tally_text::quantity::Condition;

/// (dimension, units as written, comparatives meaning "more of it", comparatives meaning "less").
type Dimension = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
    &'static [&'static str],
);

const DIMENSIONS: &[Dimension] = &[
    (
        "length",
        &["m", "metres", "km", "feet", "ft", "miles", "cm", "inches"],
        &[
            "longer",
            "taller",
            "higher",
            "wider",
            "deeper",
            "thicker",
            "broader",
            "bigger",
            "larger",
            "farther",
            "further",
            "more distant",
            "more than",
            "greater than",
        ],
        &[
            "shorter",
            "narrower",
            "shallower",
            "thinner",
            "smaller",
            "lower",
            "closer",
            "nearer",
            "less wide",
            "less than",
        ],
    ),
    (
        "mass",
        &["kg", "kilograms", "pounds", "lbs", "tonnes", "grams", "g"],
        &["heavier", "bigger", "larger", "more than", "weightier"],
        &["lighter", "smaller", "less heavy", "less than"],
    ),
    (
        "duration",
        &["hours", "minutes", "seconds", "h", "min", "days", "weeks"],
        &["longer", "slower", "more than", "lengthier"],
        &[
            "shorter",
            "faster",
            "quicker",
            "less than",
            "speedier",
            "briefer",
        ],
    ),
    (
        "age",
        &["years"],
        &["older", "more than"],
        &["younger", "newer", "less than"],
    ),
    (
        "speed",
        &["km/h", "mph", "m/s", "knots"],
        &["faster", "quicker", "speedier", "more than", "swifter"],
        &["slower", "less than"],
    ),
    (
        "temperature",
        &["°C", "degrees Celsius", "°F", "degrees Fahrenheit"],
        &["warmer", "hotter", "higher", "more than"],
        &["colder", "cooler", "lower", "less than", "chillier"],
    ),
    (
        "price",
        &["$", "€", "£", "dollars", "euros"],
        &[
            "more expensive",
            "pricier",
            "costlier",
            "dearer",
            "more than",
            "more costly",
        ],
        &[
            "cheaper",
            "less expensive",
            "less than",
            "more affordable",
            "less costly",
        ],
    ),
    (
        "area",
        &[
            "square metres",
            "m2",
            "acres",
            "hectares",
            "square feet",
            "km2",
        ],
        &["bigger", "larger", "roomier", "more spacious", "more than"],
        &["smaller", "less than", "tinier"],
    ),
    (
        "power",
        &["hp", "kW", "watts", "W", "horsepower"],
        &["more powerful", "stronger", "more than", "higher"],
        &["weaker", "less powerful", "less than", "lower"],
    ),
    (
        "data",
        &["GB", "TB", "MB", "gigabytes"],
        &["bigger", "larger", "more than"],
        &["smaller", "less than"],
    ),
    (
        "sound",
        &["dB", "decibels"],
        &["louder", "noisier", "more than", "higher"],
        &["quieter", "softer", "less than", "lower"],
    ),
];

/// Things asked about, any dimension (the condition, not the noun, is under test).
const NOUNS: &[&str] = &["items", "things", "results", "entries", "models"];

/// A small fixed-seed generator (xorshift64*), so the cases never change between runs.
struct Seeded(u64);

impl Seeded {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next() % items.len() as u64) as usize]
    }
}

/// One generated query and the condition it means.
struct Case {
    query: String,
    expected: Condition,
}

fn phrase(comparative: &str) -> String {
    // "more than" and "less than" are complete; an adjective takes its "than".
    if comparative.ends_with(" than") {
        comparative.to_string()
    } else {
        format!("{comparative} than")
    }
}

fn cases() -> Vec<Case> {
    let mut seeded = Seeded(0x7a11_c0de_2026_1124);
    let mut cases = Vec::new();
    for (_, units, more, less) in DIMENSIONS {
        for (comparatives, greater) in [(*more, true), (*less, false)] {
            for comparative in comparatives {
                for negation in ["", "not ", "no "] {
                    // "no more than" and "not less than" are fixed phrases; "no" before an
                    // adjective reads as well ("no heavier than"). Both are generated.
                    let unit = *seeded.pick(units);
                    let number = 2 + seeded.next() % 9_000;
                    let noun = *seeded.pick(NOUNS);
                    let amount = if matches!(unit, "$" | "€" | "£") {
                        format!("{unit}{number}")
                    } else {
                        format!("{number} {unit}")
                    };
                    let query = format!("{noun} {negation}{} {amount}", phrase(comparative));
                    let expected = match (greater, negation.is_empty()) {
                        (true, true) => Condition::Greater,
                        (false, true) => Condition::Less,
                        (true, false) => Condition::AtMost,
                        (false, false) => Condition::AtLeast,
                    };
                    cases.push(Case { query, expected });
                }
            }
        }
    }
    cases
}

/// Which half a case is in: by a stable hash of its query (FNV-1a), about half each.
fn scored_only(case: &Case) -> bool {
    let hash = case.query.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    hash % 2 == 1
}

/// The condition the query is read as, and whether it is the one meant.
fn read_right(case: &Case) -> (bool, String) {
    let parsed = parse_query(&case.query);
    let got = parsed.constraints.first().map(|c| c.condition);
    (
        parsed.constraints.len() == 1 && got == Some(case.expected),
        format!("{got:?}"),
    )
}

#[test]
fn comparatives_are_read_with_their_direction_and_negation() {
    let cases = cases();
    let (scored, looked): (Vec<&Case>, Vec<&Case>) = cases.iter().partition(|c| scored_only(c));
    let mut wrong_looked = Vec::new();
    for case in &looked {
        let (right, got) = read_right(case);
        if !right {
            wrong_looked.push(format!(
                "{}: read {got}, meant {:?}",
                case.query, case.expected
            ));
        }
    }
    let scored_right = scored.iter().filter(|c| read_right(c).0).count();
    let looked_rate = 1.0 - wrong_looked.len() as f64 / looked.len() as f64;
    let scored_rate = scored_right as f64 / scored.len() as f64;
    // The looked-at half's misreadings are shown; the scored half's never are.
    for wrong in &wrong_looked {
        println!("misread: {wrong}");
    }
    println!(
        "comparatives: looked-at half {:.1}% of {}, scored half {:.1}% of {}",
        100.0 * looked_rate,
        looked.len(),
        100.0 * scored_rate,
        scored.len()
    );
    assert!(
        looked_rate >= 0.95,
        "the looked-at half reads {:.1}% right:\n{}",
        100.0 * looked_rate,
        wrong_looked.join("\n")
    );
    assert!(
        scored_rate >= 0.95,
        "the scored half reads {:.1}% right",
        100.0 * scored_rate
    );
}
