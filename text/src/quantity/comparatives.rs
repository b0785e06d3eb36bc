//! Comparatives in conditions: "wider than 40 m", "more expensive than €500", "quicker than 3
//! hours", "less heavy than 2 kg". The direction comes from what the adjective means in the
//! quantity's dimension: a quicker time is a smaller one, a quicker speed a larger one. A
//! comparative is read back to its adjective ("wider" → wide, "heavier" → heavy, "bigger" → big,
//! "farther" → far), so that one entry serves every form.

use super::Change;

/// Adjectives that mean "more of the quantity" (+1) or "less of it" (−1), with the dimensions
/// they say so in (empty: any dimension). Listed per adjective, not per comparative form.
const POLARITY: &[(&str, &[&str], i8)] = &[
    // Size in any dimension.
    ("big", &[], 1),
    ("large", &[], 1),
    ("great", &[], 1),
    ("high", &[], 1),
    ("small", &[], -1),
    ("little", &[], -1),
    ("low", &[], -1),
    ("tiny", &[], -1),
    ("many", &[], 1),
    ("much", &[], 1),
    ("few", &[], -1),
    // Length and distance.
    ("long", &["length", "time"], 1),
    ("tall", &["length"], 1),
    ("wide", &["length", "area"], 1),
    ("broad", &["length", "area"], 1),
    ("deep", &["length"], 1),
    ("thick", &["length"], 1),
    ("far", &["length"], 1),
    ("distant", &["length"], 1),
    ("lengthy", &["length", "time"], 1),
    ("short", &["length", "time"], -1),
    ("narrow", &["length", "area"], -1),
    ("shallow", &["length"], -1),
    ("thin", &["length"], -1),
    ("close", &["length"], -1),
    ("near", &["length"], -1),
    ("brief", &["time"], -1),
    // Age and durations: "older than 30 years"; a quicker run takes less time.
    ("old", &["time"], 1),
    ("young", &["time"], -1),
    ("new", &["time"], -1),
    ("slow", &["time"], 1),
    ("fast", &["time"], -1),
    ("quick", &["time"], -1),
    ("speedy", &["time"], -1),
    ("swift", &["time"], -1),
    ("rapid", &["time"], -1),
    // Speeds and rates: a quicker car goes more km/h.
    ("fast", &["speed", "data_rate", "frequency", "rotation"], 1),
    ("quick", &["speed", "data_rate", "frequency", "rotation"], 1),
    ("speedy", &["speed", "data_rate"], 1),
    ("swift", &["speed"], 1),
    ("rapid", &["speed", "data_rate"], 1),
    ("slow", &["speed", "data_rate", "frequency", "rotation"], -1),
    // Weight.
    ("heavy", &["mass", "force"], 1),
    ("weighty", &["mass"], 1),
    ("light", &["mass"], -1),
    // Temperature.
    ("hot", &["temperature"], 1),
    ("warm", &["temperature"], 1),
    ("cold", &["temperature"], -1),
    ("cool", &["temperature"], -1),
    ("chilly", &["temperature"], -1),
    // Price.
    ("expensive", &["currency"], 1),
    ("costly", &["currency"], 1),
    ("pricey", &["currency"], 1),
    ("pricy", &["currency"], 1),
    ("dear", &["currency"], 1),
    ("cheap", &["currency"], -1),
    ("inexpensive", &["currency"], -1),
    ("affordable", &["currency"], -1),
    // Space.
    ("roomy", &["area", "volume"], 1),
    ("spacious", &["area", "volume"], 1),
    // Power and strength.
    ("powerful", &["power", "energy", "force", "torque"], 1),
    ("strong", &["power", "energy", "force", "torque"], 1),
    ("weak", &["power", "energy", "force", "torque"], -1),
    // Sound.
    ("loud", &["sound_level"], 1),
    ("noisy", &["sound_level"], 1),
    ("quiet", &["sound_level"], -1),
    ("soft", &["sound_level"], -1),
    // Light.
    (
        "bright",
        &["luminous_flux", "illuminance", "luminous_intensity"],
        1,
    ),
    (
        "dim",
        &["luminous_flux", "illuminance", "luminous_intensity"],
        -1,
    ),
];

/// Comparative forms that are not the adjective with "-er".
const IRREGULAR: &[(&str, &str)] = &[
    ("farther", "far"),
    ("further", "far"),
    ("elder", "old"),
    ("better", "good"),
    ("worse", "bad"),
    ("less", "little"),
    ("fewer", "few"),
    ("more", "much"),
];

/// Whether `adjective` means more (+1) or less (−1) of a quantity of `dimension` (`None`: its
/// dimension is unknown, and only the adjectives of any dimension, or of exactly one, count).
pub(crate) fn polarity(adjective: &str, dimension: Option<&str>) -> Option<i8> {
    let mut found = POLARITY
        .iter()
        .filter(|(word, _, _)| *word == adjective)
        .filter(|(_, dims, _)| dims.is_empty() || dimension.is_none_or(|d| dims.contains(&d)))
        .map(|(_, _, sign)| *sign);
    let first = found.next()?;
    // Without a dimension an adjective whose meaning depends on it ("fast") says nothing.
    found.all(|sign| sign == first).then_some(first)
}

/// The adjectives a comparative form may come from: "wider" → wide, "heavier" → heavy,
/// "bigger" → big, "longer" → long, "farther" → far.
fn adjectives_of(comparative: &str) -> Vec<String> {
    if let Some((_, adjective)) = IRREGULAR.iter().find(|(form, _)| *form == comparative) {
        return vec![(*adjective).to_string()];
    }
    let Some(stem) = comparative.strip_suffix("er") else {
        return Vec::new();
    };
    let mut candidates = vec![stem.to_string(), format!("{stem}e")];
    if let Some(y) = stem.strip_suffix('i') {
        candidates.push(format!("{y}y"));
        candidates.push(format!("{y}ey"));
    }
    let bytes = stem.as_bytes();
    if bytes.len() >= 2 && bytes[bytes.len() - 1] == bytes[bytes.len() - 2] {
        candidates.push(stem[..stem.len() - 1].to_string());
    }
    candidates
}

/// Phrases read as plain bounds elsewhere (the lexicon's "more than", "less than"), not as a
/// comparative of an adjective.
fn is_bound_word(word: &str) -> bool {
    matches!(
        word,
        "more" | "less" | "fewer" | "greater" | "rather" | "other" | "no" | "not"
    )
}

/// The direction of a comparative that ends right before "than", given the words before "than"
/// (nearest last): "… wider" or "… more expensive" / "… less heavy". Returns how many words it
/// takes ("than" not counted) and the change; `None` when they are no comparative read here.
pub(crate) fn comparative_before_than(
    words: &[&str],
    dimension: Option<&str>,
) -> Option<(usize, Change)> {
    let (&last, before) = words.split_last()?;
    let direction = |sign: i8| {
        if sign > 0 {
            Change::Above
        } else {
            Change::Below
        }
    };
    // "more expensive than", "less heavy than": the adjective's own direction, or its reverse.
    if let Some(&degree) = before.last() {
        let sign = match degree {
            "more" => Some(1),
            "less" => Some(-1),
            _ => None,
        };
        if let (Some(sign), false) = (sign, is_bound_word(last)) {
            // An adjective not listed: "more" still says more ("more durable than").
            let adjective = polarity(last, dimension).unwrap_or(1);
            return Some((2, direction(sign * adjective)));
        }
    }
    if is_bound_word(last) {
        return None;
    }
    let sign = adjectives_of(last)
        .iter()
        .find_map(|adjective| polarity(adjective, dimension))?;
    Some((1, direction(sign)))
}

/// Whether `word` can be part of a comparative before "than" (for finding where a query's
/// condition starts).
pub(crate) fn is_comparative_word(word: &str) -> bool {
    matches!(word, "more" | "less" | "than")
        || POLARITY.iter().any(|(adjective, _, _)| *adjective == word)
        || adjectives_of(word)
            .iter()
            .any(|a| POLARITY.iter().any(|(adjective, _, _)| adjective == a))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comparative_is_read_back_to_its_adjective_in_its_dimension() {
        let read = |words: &[&str], dimension| comparative_before_than(words, Some(dimension));
        assert_eq!(read(&["wider"], "length"), Some((1, Change::Above)));
        assert_eq!(read(&["heavier"], "mass"), Some((1, Change::Above)));
        assert_eq!(read(&["bigger"], "area"), Some((1, Change::Above)));
        assert_eq!(read(&["farther"], "length"), Some((1, Change::Above)));
        assert_eq!(read(&["pricier"], "currency"), Some((1, Change::Above)));
        // What "quicker" means depends on what is measured.
        assert_eq!(read(&["quicker"], "time"), Some((1, Change::Below)));
        assert_eq!(read(&["quicker"], "speed"), Some((1, Change::Above)));
        assert_eq!(
            read(&["more", "expensive"], "currency"),
            Some((2, Change::Above))
        );
        assert_eq!(read(&["less", "heavy"], "mass"), Some((2, Change::Below)));
        assert_eq!(
            read(&["more", "affordable"], "currency"),
            Some((2, Change::Below))
        );
        // Plain bounds are the lexicon's; unknown words are nothing.
        assert_eq!(read(&["more"], "mass"), None);
        assert_eq!(read(&["rather"], "mass"), None);
        assert_eq!(read(&["bluer"], "mass"), None);
        assert_eq!(comparative_before_than(&["faster"], None), None);
    }
}
