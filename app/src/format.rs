//! Small text helpers shared by the views: numbers, counts, values and money for people, and
//! highlighted text.

use tally_types::value::UnitChoice;

/// "1,234", "700", "2.5", "0.125": thousands separated, at most three decimals, no trailing zeros.
pub fn number(value: f64) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    // Past what a u64 holds, in powers of ten rather than a saturated "18,446,744,…".
    if value.abs() >= 1e18 {
        return format!("{value:e}");
    }
    let rounded = (value * 1000.0).round() / 1000.0;
    let negative = rounded < 0.0;
    let abs = rounded.abs();
    let whole = abs.trunc() as u64;
    let fraction = abs - abs.trunc();
    let digits = whole.to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let mut out = if negative {
        format!("-{grouped}")
    } else {
        grouped
    };
    if fraction > 0.0005 {
        let decimals = format!("{fraction:.3}");
        out.push_str(decimals.trim_start_matches('0').trim_end_matches('0'));
    }
    out
}

/// A measured value as people write it: three significant figures below 100 ("2.01", "6.58",
/// "26.2", "0.00123"), whole numbers from 100 on ("330", "1,083"); a measurement is not known
/// to the millimetre because a unit conversion printed three decimals.
pub fn measured(value: f64) -> String {
    if !value.is_finite() || value == 0.0 {
        return number(value);
    }
    let magnitude = value.abs().log10().floor() as i32;
    if magnitude >= 2 {
        return number(value.round());
    }
    let decimals = (2 - magnitude) as usize;
    let text = format!("{value:.decimals$}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        &text
    };
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// A length in feet under 10 (a person's height, a room's) as feet and inches: "6 ft 7 in",
/// "5 ft"; `None` for other lengths.
pub fn feet_and_inches(feet: f64) -> Option<String> {
    if !(0.0..10.0).contains(&feet) {
        return None;
    }
    let mut whole = feet.trunc();
    let mut inches = ((feet - whole) * 12.0).round();
    if inches >= 12.0 {
        whole += 1.0;
        inches = 0.0;
    }
    Some(if inches == 0.0 {
        format!("{whole} ft")
    } else {
        format!("{whole} ft {inches} in")
    })
}

/// "1 snippet", "2 snippets": a count with its noun, singular for one.
pub fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{} {}", number(n as f64), plural(noun))
    }
}

/// The plural of a noun or a unit's name as people write it: "metres", "feet", "kilometres per
/// hour", "degrees Celsius", "square feet", "horsepower".
pub fn plural(name: &str) -> String {
    // The counted word: the one before "per"/"of" ("miles per hour"), the first of "degree …",
    // else the last.
    let words: Vec<&str> = name.split(' ').collect();
    let head = match words.iter().position(|w| matches!(*w, "per" | "of")) {
        Some(at) if at > 0 => at - 1,
        _ if words.first() == Some(&"degree") => 0,
        _ => words.len() - 1,
    };
    let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    out[head] = plural_word(words[head]);
    out.join(" ")
}

fn plural_word(word: &str) -> String {
    const SAME: [&str; 8] = [
        "horsepower",
        "percent",
        "hertz",
        "lux",
        "celsius",
        "fahrenheit",
        "kelvin",
        "people",
    ];
    const IRREGULAR: [(&str, &str); 5] = [
        ("foot", "feet"),
        ("millennium", "millennia"),
        ("person", "people"),
        ("child", "children"),
        ("man", "men"),
    ];
    if SAME.contains(&word) || word.is_empty() {
        return word.to_string();
    }
    if let Some((_, plural)) = IRREGULAR.iter().find(|(one, _)| *one == word) {
        return (*plural).to_string();
    }
    if ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|end| word.ends_with(end))
    {
        return format!("{word}es");
    }
    if let Some(stem) = word.strip_suffix('y') {
        if !stem.ends_with(['a', 'e', 'i', 'o', 'u']) {
            return format!("{stem}ies");
        }
    }
    format!("{word}s")
}

/// A count, or a value in `unit`, written as the value page writes it ("£95", "330 m", "12").
/// A value a person gave keeps its digits ("324.5 m", not the three figures of a measurement).
pub fn count_or_value(value: f64, unit: Option<&UnitChoice>) -> String {
    let shown = number(value);
    match unit {
        Some(unit) if unit.currency => money(value, unit),
        Some(UnitChoice {
            symbol: Some(symbol),
            ..
        }) => format!("{shown} {symbol}"),
        Some(unit) if shown == "1" => format!("1 {}", unit.unit),
        Some(unit) => format!("{shown} {}", plural(&unit.unit)),
        None => shown,
    }
}

/// An amount of money as people write it: the symbol first, whole amounts without cents, others
/// with two decimals ("£320", "£4.50", "CHF 12"); the currency's name after it where it has no
/// symbol ("320 Kenyan shillings").
pub fn money(value: f64, currency: &UnitChoice) -> String {
    let amount = if value.fract().abs() < 0.005 {
        number(value.round())
    } else {
        let cents = number(value.trunc());
        format!(
            "{cents}.{:02}",
            ((value.fract().abs()) * 100.0).round() as u64
        )
    };
    match currency.symbol.as_deref() {
        // Letters are set apart from the number ("CHF 12"), signs are not ("£12").
        Some(symbol) if symbol.ends_with(|c: char| c.is_alphabetic() || c == '.') => {
            format!("{symbol} {amount}")
        }
        Some(symbol) => format!("{symbol}{amount}"),
        None if amount == "1" => format!("1 {}", currency.unit),
        None => format!("{amount} {}", plural(&currency.unit)),
    }
}

/// "73%" for a share in [0, 1].
pub fn percent(share: f64) -> String {
    let value = (share * 100.0).clamp(0.0, 100.0);
    if value > 0.0 && value < 0.5 {
        "<1%".to_string()
    } else {
        format!("{value:.0}%")
    }
}

/// How likely the reader finds it that a count phrase gives the count asked for, in words: "73%
/// likely the count asked for" (the reader's probabilities are calibrated: of the phrases it gives
/// 73%, about 73% are).
pub fn likely(confidence: f64) -> String {
    format!("{} likely the count asked for", percent(confidence))
}

/// "12 ms", "1.4 s".
pub fn duration_ms(ms: f64) -> String {
    if ms >= 1000.0 {
        format!("{:.1} s", ms / 1000.0)
    } else if ms >= 10.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{ms:.1} ms")
    }
}

/// A marked stretch of text: character offsets, a CSS class and a label for people.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    /// The first character's offset.
    pub start: usize,
    /// The offset just past the last character.
    pub end: usize,
    /// The CSS class.
    pub class: String,
    /// The label for people.
    pub label: String,
}

/// A piece of text, marked or not.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    /// The text.
    pub text: String,
    /// Its mark, when marked.
    pub mark: Option<Mark>,
}

/// Cuts `text` into plain and marked pieces. Offsets are in characters; marks that overlap an
/// earlier one (by start) or fall outside the text are left out.
pub fn highlight(text: &str, mut marks: Vec<Mark>) -> Vec<Piece> {
    let chars: Vec<char> = text.chars().collect();
    marks.sort_by_key(|m| (m.start, std::cmp::Reverse(m.end)));
    let mut pieces = Vec::new();
    let mut at = 0;
    for mark in marks {
        if mark.start < at || mark.end <= mark.start || mark.end > chars.len() {
            continue;
        }
        if mark.start > at {
            pieces.push(Piece {
                text: chars[at..mark.start].iter().collect(),
                mark: None,
            });
        }
        pieces.push(Piece {
            text: chars[mark.start..mark.end].iter().collect(),
            mark: Some(mark.clone()),
        });
        at = mark.end;
    }
    if at < chars.len() {
        pieces.push(Piece {
            text: chars[at..].iter().collect(),
            mark: None,
        });
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals_as_people_write_them() {
        assert_eq!(plural("metre"), "metres");
        assert_eq!(plural("foot"), "feet");
        assert_eq!(plural("square foot"), "square feet");
        assert_eq!(plural("kilometre per hour"), "kilometres per hour");
        assert_eq!(plural("degree celsius"), "degrees celsius");
        assert_eq!(plural("inch"), "inches");
        assert_eq!(plural("century"), "centuries");
        assert_eq!(plural("horsepower"), "horsepower");
        assert_eq!(plural("seat"), "seats");
        assert_eq!(counted(1, "snippet"), "1 snippet");
        assert_eq!(counted(1200, "snippet"), "1,200 snippets");
    }

    fn mark(start: usize, end: usize) -> Mark {
        Mark {
            start,
            end,
            class: "m".into(),
            label: String::new(),
        }
    }

    #[test]
    fn measurements_keep_three_significant_figures_and_feet_take_inches() {
        assert_eq!(measured(2.007), "2.01");
        assert_eq!(measured(6.583), "6.58");
        assert_eq!(measured(26.2188), "26.2");
        assert_eq!(measured(42.0), "42");
        assert_eq!(measured(330.4), "330");
        assert_eq!(measured(1082.68), "1,083");
        assert_eq!(measured(0.001234), "0.00123");
        assert_eq!(measured(-3.25159), "-3.25");
        assert_eq!(measured(0.0), "0");
        assert_eq!(feet_and_inches(6.583), Some("6 ft 7 in".to_string()));
        assert_eq!(feet_and_inches(5.0), Some("5 ft".to_string()));
        assert_eq!(feet_and_inches(5.99), Some("6 ft".to_string()));
        assert_eq!(feet_and_inches(1083.0), None);
    }

    #[test]
    fn numbers_for_people() {
        assert_eq!(number(700.0), "700");
        assert_eq!(number(1234567.0), "1,234,567");
        assert_eq!(number(2.5), "2.5");
        assert_eq!(number(-0.125), "-0.125");
        assert_eq!(number(99354.0004), "99,354");
        // Issue 70: 1e300 read "18,446,744,073,709,551,615" (a u64 saturated).
        assert_eq!(number(1e15), "1,000,000,000,000,000");
        assert_eq!(number(1e300), "1e300");
        assert_eq!(percent(0.734), "73%");
        assert_eq!(percent(0.001), "<1%");
        assert_eq!(percent(0.0), "0%");
        assert_eq!(duration_ms(1520.0), "1.5 s");
    }

    #[test]
    fn highlighting_uses_character_offsets_and_skips_overlaps() {
        let pieces = highlight(
            "Café has 73 songs",
            vec![mark(9, 17), mark(10, 12), mark(0, 4)],
        );
        let texts: Vec<(&str, bool)> = pieces
            .iter()
            .map(|p| (p.text.as_str(), p.mark.is_some()))
            .collect();
        assert_eq!(
            texts,
            vec![("Café", true), (" has ", false), ("73 songs", true)]
        );
        // Out-of-range marks are ignored rather than panicking.
        assert_eq!(highlight("ab", vec![mark(1, 9)]).len(), 1);
    }
}
