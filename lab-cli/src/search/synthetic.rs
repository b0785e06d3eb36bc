//! The benchmark corpus: real sentences from the shared data, plus generated sentences with
//! realistic units and value distributions (log-uniform values over each quantity's usual range,
//! rounded as people write them) to reach a million and more.

use std::path::Path;

use anyhow::Context;
use tally_documents::corpus::sentences::{read_documents, DATASET_DOCUMENTS};
use tally_documents::sentence_store::Document;
use tally_lab::search::eval::JudgedCollection;
use tally_text::random::SplitMix64;

/// Real documents from the data directory (none without one).
pub(super) fn real_documents(data: Option<&Path>) -> anyhow::Result<Vec<Document>> {
    let mut documents = Vec::new();
    let Some(dir) = data else {
        return Ok(documents);
    };
    for (_, rel, format) in DATASET_DOCUMENTS {
        let path = dir.join(rel);
        if path.is_file() {
            documents.extend(
                read_documents(&path, *format)
                    .with_context(|| format!("{} could not be read", path.display()))?,
            );
        }
    }
    Ok(documents)
}

/// The fixed query set: the Qsearch dev queries when the data has them, and queries over the
/// generated sentences.
pub(super) fn bench_queries(data: Option<&Path>) -> Vec<String> {
    let mut queries: Vec<String> = data
        .map(|d| d.join(tally_documents::corpus::catalogue::QSEARCH.path))
        .and_then(|p| JudgedCollection::load(&p).ok())
        .map(|c| c.queries.into_iter().map(|q| q.query).collect())
        .unwrap_or_default();
    queries.extend(
        [
            "phones under $300 with at least 128 GB",
            "phones with a battery above 4000 mAh",
            "electric cars with a range of more than 400 km",
            "companies with revenue between 1 and 5 billion dollars",
            "stadiums with a capacity of more than 80000 people",
            "power plants generating more than 1000 MW",
            "bridges longer than 2 km",
            "cities with a population between 1 and 2 million",
            "marathon runners faster than 2 hours 10 minutes",
            "laptops weighing less than 1.5 kg",
        ]
        .map(String::from),
    );
    queries
}

/// The benchmark corpus's generator: the same corpus on every run (a fixed SplitMix64 seed).
pub(super) struct Generator {
    random: SplitMix64,
}

const FIRST: &[&str] = &[
    "Anna", "Luis", "Mei", "Omar", "Sofia", "Kofi", "Elena", "Ravi", "Jonas", "Amara", "Yuki",
    "Carlos", "Ingrid", "Tariq", "Lena", "Mateo", "Aisha", "Pavel", "Nora", "Diego",
];
const LAST: &[&str] = &[
    "Okafor",
    "Lindqvist",
    "Tanaka",
    "Moreau",
    "Haddad",
    "Novak",
    "Silva",
    "Kowalski",
    "Mensah",
    "Ferrari",
    "Nguyen",
    "Schmidt",
    "Patel",
    "Costa",
    "Ivanova",
    "Brennan",
    "Adeyemi",
    "Larsen",
];
const PLACES: &[&str] = &[
    "Riverside",
    "Northgate",
    "Lakeview",
    "Port Ellis",
    "San Marco",
    "Eastbrook",
    "Highfield",
    "Westmoor",
    "Kingsport",
    "Redcliff",
    "Ashford",
    "Belmont",
    "Marlow",
    "Crestwood",
    "Dunmore",
];
const BRANDS: &[&str] = &[
    "Nova", "Orion", "Vertex", "Zephyr", "Helix", "Apex", "Lumen", "Quasar", "Strata", "Pulse",
];
const COMPANIES: &[&str] = &[
    "Northwind",
    "Globex",
    "Initech",
    "Umbrella",
    "Stark Industries",
    "Wayne Enterprises",
    "Cyberdyne",
    "Soylent",
    "Tyrell",
    "Hooli",
    "Vandelay",
    "Acme",
];

impl Generator {
    pub(super) fn new(seed: u64) -> Self {
        Generator {
            random: SplitMix64::new(seed),
        }
    }

    fn next(&mut self) -> u64 {
        self.random.next_u64()
    }

    fn unit(&mut self) -> f64 {
        self.random.unit()
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.random.below(items.len())]
    }

    /// Log-uniform in [low, high].
    fn value(&mut self, low: f64, high: f64) -> f64 {
        (low.ln() + self.unit() * (high.ln() - low.ln())).exp()
    }

    /// A whole number with the precision people write: 3 significant digits.
    fn round_number(&mut self, low: f64, high: f64) -> String {
        let v = self.value(low, high);
        let scale = 10f64.powi((v.log10().floor() as i32 - 2).max(0));
        with_commas(((v / scale).round() * scale) as u64)
    }

    fn decimal(&mut self, low: f64, high: f64, places: usize) -> String {
        format!("{:.*}", places, self.value(low, high))
    }

    fn person(&mut self) -> String {
        format!("{} {}", self.pick(FIRST), self.pick(LAST))
    }

    /// The `n`-th generated sentence, as a one-sentence document.
    pub(super) fn document(&mut self, n: usize) -> Document {
        let text = self.sentence();
        Document {
            id: format!("generated-{n}"),
            text,
            source: "generated".into(),
            entity: None,
        }
    }

    fn sentence(&mut self) -> String {
        let place = self.pick(PLACES);
        let brand = self.pick(BRANDS);
        let company = self.pick(COMPANIES);
        let model = self.next() % 90 + 10;
        match self.next() % 14 {
            0 => format!(
                "The {place} Stadium has a capacity of {} people.",
                self.round_number(5_000.0, 120_000.0)
            ),
            1 => format!(
                "The {brand} X{model} phone costs ${} and comes with {} GB of storage.",
                self.round_number(99.0, 1_500.0),
                [32, 64, 128, 256, 512][(self.next() % 5) as usize]
            ),
            2 => format!(
                "The {brand} S{model} has a {} mAh battery and a {}-inch screen.",
                self.round_number(1_800.0, 6_500.0),
                self.decimal(4.7, 7.2, 1)
            ),
            3 => format!(
                "{} finished the {place} Marathon in {} hours {} minutes.",
                self.person(),
                2 + self.next() % 3,
                self.next() % 60
            ),
            4 => format!(
                "The {brand} EV{model} has a range of {} km on one charge.",
                self.round_number(120.0, 700.0)
            ),
            5 => format!(
                "The {brand} E{model} sedan covers {} miles per charge and costs €{}.",
                self.round_number(80.0, 420.0),
                self.round_number(18_000.0, 120_000.0)
            ),
            6 => format!(
                "{company} reported revenue of ${} billion last year.",
                self.decimal(0.2, 400.0, 1)
            ),
            7 => format!(
                "The {place} power station generates {} MW of electricity.",
                self.round_number(20.0, 8_000.0)
            ),
            8 => format!(
                "The {place} Bridge is {} metres long.",
                self.round_number(80.0, 6_000.0)
            ),
            9 => format!(
                "{} lifted {} kg in the clean and jerk.",
                self.person(),
                self.round_number(90.0, 265.0)
            ),
            10 => format!(
                "{place} has a population of about {}.",
                self.round_number(2_000.0, 9_000_000.0)
            ),
            11 => format!(
                "The {brand} Book {model} laptop weighs {} kg and its battery lasts {} hours.",
                self.decimal(0.9, 3.2, 2),
                self.round_number(4.0, 22.0)
            ),
            12 => format!(
                "{} ran the 100 metres in {} seconds in {place}.",
                self.person(),
                self.decimal(9.6, 11.5, 2)
            ),
            _ => format!(
                "{company} spent £{} million on its new headquarters in {place}.",
                self.round_number(5.0, 900.0)
            ),
        }
    }
}

fn with_commas(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_sentences_are_deterministic_and_carry_quantities() {
        let mut a = Generator::new(7);
        let mut b = Generator::new(7);
        for n in 0..200 {
            let (x, y) = (a.document(n), b.document(n));
            assert_eq!(x, y);
            assert!(
                !tally_text::extract(&x.text).is_empty(),
                "no quantity in {}",
                x.text
            );
        }
        assert_eq!(with_commas(1234567), "1,234,567");
    }
}
