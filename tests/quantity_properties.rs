//! Property tests of the quantity module: any input is handled in bounded time without a panic,
//! formatted numbers read back to themselves, and unit conversion is invertible.

use proptest::prelude::*;
use tally_text::quantity::NumberKind;
use tally_text::{extract, parse_query, UnitTable, Value};

/// 1234567 → "1,234,567".
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_text_never_panics_and_spans_are_valid(text in "\\PC{0,200}") {
        for q in extract(&text) {
            prop_assert!(q.span.start <= q.span.end && q.span.end <= text.len());
            prop_assert!(text.is_char_boundary(q.span.start) && text.is_char_boundary(q.span.end));
            prop_assert!(!q.value.low().is_nan());
        }
        let parsed = parse_query(&text);
        for c in parsed.constraints {
            prop_assert!(c.span.end <= text.len());
        }
    }

    #[test]
    fn number_like_text_never_panics(text in "[0-9a-zA-Z $€£%.,/:+\\-^×eE]{0,80}") {
        let _ = extract(&text);
        let _ = parse_query(&text);
    }

    #[test]
    fn formatted_integers_read_back(n in 1u64..1_000_000_000_000, unit in prop::sample::select(vec!["kg", "km", "people", "dollars"])) {
        let text = format!("about {} {unit} in total", with_commas(n));
        let found: Vec<_> = extract(&text)
            .into_iter()
            .filter(|q| q.kind == NumberKind::Cardinal)
            .collect();
        prop_assert_eq!(found.len(), 1, "{}", text);
        prop_assert_eq!(found[0].value, Value::Single(n as f64));
    }

    #[test]
    fn decimals_read_back(whole in 0u32..100_000, frac in 1u32..1000) {
        let literal = format!("{whole}.{frac:03}");
        let text = format!("it measured {literal} mm");
        let found = extract(&text);
        prop_assert_eq!(found.len(), 1, "{}", text);
        let expected: f64 = literal.parse().unwrap();
        prop_assert_eq!(found[0].value, Value::Single(expected));
    }

    #[test]
    fn conversion_is_invertible(value in -1e9f64..1e9, index_a in 0usize..500, index_b in 0usize..500) {
        let table = UnitTable::builtin();
        let units = table.units();
        let a = &units[index_a % units.len()];
        let b = &units[index_b % units.len()];
        if let Ok(there) = table.convert(value, a, b) {
            let back = table.convert(there, b, a).unwrap();
            prop_assert!((back - value).abs() <= 1e-9 * value.abs().max(1.0), "{} {} → {} → {}", value, a.id, b.id, back);
        }
    }
}

#[test]
fn pathological_inputs_return_in_bounded_time() {
    // A 10 MB line of digits, words and symbols; numbers far beyond f64.
    let unit = "about 1,200 km or 5e3 kg, 3/4 of $5m ~ twenty-five ";
    let line: String = unit.repeat((10 << 20) / unit.len());
    let started = std::time::Instant::now();
    let found = extract(&line);
    assert!(found.len() > 100_000);
    // Generous bound for a debug build; the release build runs this in well under a second.
    assert!(started.elapsed().as_secs() < 120);

    let digits = "9".repeat(1 << 20);
    let found = extract(&digits);
    assert_eq!(found.len(), 1);
    assert!(found[0].overflow, "a million nines is flagged as overflow");

    for text in [
        "1e999",
        "1e-999 m",
        "999999999999999999999999 km",
        "-0",
        "0/0",
        "1/0",
        "½½½",
        "٣٤ كم",
    ] {
        let _ = extract(text);
        let _ = parse_query(text);
    }
}
