//! Choosing among the readings of an ambiguous unit surface from its context.
//!
//! The rule, in order:
//! 1. **The number itself**: a scale word ("3 million pounds") makes money of "pound".
//! 2. **Other quantities in the same text**: a reading whose dimension another, unambiguous
//!    quantity already has wins ("40 C" next to "104 °F" is a temperature; "£5 … 2 pounds" money).
//! 3. **Cue words anywhere in the text**: temperature words ("temperature", "warm", "degrees")
//!    for `C`/`F`; money words ("price", "paid", "worth") against weight words ("weighs",
//!    "heavy") for "pound".
//! 4. Otherwise the table's first reading (the most common one: `C` is Celsius, `pound` is mass,
//!    `$` is the US dollar).

use std::collections::HashSet;

use super::lexicon;
use crate::units::Unit;

/// What the whole text says about likely dimensions; built once per text, on first need.
#[derive(Debug, Default, Clone)]
pub(crate) struct TextCues {
    temperature: usize,
    celsius: usize,
    fahrenheit: usize,
    money: usize,
    mass: usize,
    electric: usize,
    astronomy: usize,
    /// Dimensions (and currencies) of the text's unambiguous quantities.
    pub dimensions: HashSet<String>,
}

impl TextCues {
    /// Temperature symbols written out ("°F") count for their scale.
    pub(crate) fn add_symbols(&mut self, text: &str) {
        if text.contains("°C") || text.contains('℃') {
            self.celsius += 1;
        }
        if text.contains("°F") || text.contains('℉') {
            self.fahrenheit += 1;
        }
    }

    /// Counts the cue words among `words`.
    pub(crate) fn from_words<'w>(words: impl Iterator<Item = &'w str>) -> Self {
        let mut cues = TextCues::default();
        for word in words {
            if lexicon::temperature_cue(word) {
                cues.temperature += 1;
            }
            match word {
                "celsius" | "centigrade" => cues.celsius += 1,
                "fahrenheit" => cues.fahrenheit += 1,
                _ => {}
            }
            if lexicon::money_cue(word) {
                cues.money += 1;
            }
            if lexicon::mass_cue(word) {
                cues.mass += 1;
            }
            if matches!(
                word,
                "star"
                    | "stars"
                    | "galaxy"
                    | "galaxies"
                    | "parsec"
                    | "parsecs"
                    | "astronomer"
                    | "astronomers"
                    | "telescope"
                    | "universe"
                    | "cosmic"
                    | "nebula"
            ) {
                cues.astronomy += 1;
            }
            if matches!(
                word,
                "charge"
                    | "capacitor"
                    | "capacitance"
                    | "coulomb"
                    | "farad"
                    | "circuit"
                    | "voltage"
            ) {
                cues.electric += 1;
            }
        }
        cues
    }
}

/// Picks one reading of `candidates` (non-empty, most common first).
pub(crate) fn choose<'u>(candidates: &[&'u Unit], scaled: bool, cues: &TextCues) -> &'u Unit {
    let first = candidates[0];
    if candidates.len() == 1 {
        return first;
    }
    if scaled {
        if let Some(money) = candidates.iter().find(|u| u.dimension == "currency") {
            return money;
        }
    }
    let seen: Vec<&&Unit> = candidates
        .iter()
        .filter(|u| cues.dimensions.contains(&u.dimension))
        .collect();
    if seen.len() == 1 {
        return seen[0];
    }
    let score = |unit: &Unit| -> isize {
        match unit.dimension.as_str() {
            // A temperature scale needs its own cue: "98 degrees" stays degrees, because guessing
            // Celsius or Fahrenheit would change what the number means.
            "temperature" if unit.id == "fahrenheit" => {
                cues.fahrenheit as isize * (1 + cues.temperature as isize)
            }
            "temperature" => cues.celsius as isize * (1 + cues.temperature as isize),
            "currency" => cues.money as isize - cues.mass as isize,
            "mass" => cues.mass as isize - cues.money as isize,
            "charge" | "capacitance" => cues.electric as isize,
            // "pc": percent, unless the text is about astronomy (parsec).
            "ratio" => 1,
            "length" if unit.id == "parsec" => 2 * cues.astronomy as isize,
            _ => 0,
        }
    };
    // Highest score; ties keep table order (max_by_key would keep the last).
    let mut best = first;
    let mut best_score = score(first);
    for &unit in &candidates[1..] {
        let s = score(unit);
        if s > best_score {
            best = unit;
            best_score = s;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::UnitTable;

    fn pick(surface: &str, scaled: bool, text: &str) -> String {
        let candidates = UnitTable::builtin().lookup(surface);
        let cues = TextCues::from_words(text.split_whitespace());
        choose(&candidates, scaled, &cues).id.clone()
    }

    #[test]
    fn pound_is_money_with_a_scale_or_money_words() {
        assert_eq!(pick("pounds", true, "a 3 million pounds deal"), "gbp");
        assert_eq!(pick("pounds", false, "the price was 40 pounds"), "gbp");
        assert_eq!(pick("pounds", false, "the baby weighs 8 pounds"), "pound");
        assert_eq!(pick("pounds", false, "8 pounds"), "pound");
    }

    #[test]
    fn c_is_celsius_unless_the_text_is_about_charge() {
        assert_eq!(pick("C", false, "it was 40 C outside"), "celsius");
        assert_eq!(
            pick("C", false, "a charge of 5 C on the capacitor"),
            "coulomb"
        );
    }

    #[test]
    fn pc_is_percent_unless_the_text_is_about_stars() {
        assert_eq!(pick("pc", false, "a rate of 1.38 pc"), "percent");
        assert_eq!(
            pick("pc", false, "the galaxy is 5 pc from the star"),
            "parsec"
        );
    }
}
