//! Numbers that are not quantities: ages, years, ordinary words, phone numbers' neighbours and the like.

use super::*;

impl<'t> Scan<'t> {
    pub(super) fn is_not_a_quantity(&self, m: &Mention) -> bool {
        if !m.value.is_nan() && m.kind == NumberKind::Ordinal {
            return false;
        }
        if m.value.is_nan() {
            return true;
        }
        if m.in_words {
            return false;
        }
        if m.glued_tail {
            return true; // "5G", "3D", "1080p"
        }
        let has_table_unit = m.unit.as_ref().is_some_and(|u| !u.candidates.is_empty());
        if m.currency.is_some() {
            return false;
        }
        let p = m.first; // token after the candidate's left context
        if p > 0 {
            let prev = p - 1;
            // Letters glued before the digits: "PS5", "S23", "cac40", "H1N1".
            if self.is_word(prev) && self.glued(p) {
                return true;
            }
            // "COVID-19", "F-150", "TA-35", "mid-2019".
            if self.raw_if_sym(prev) == Some("-")
                && self.glued(p)
                && prev > 0
                && self.glued(prev)
                && self.is_word(prev - 1)
            {
                return true;
            }
            // Ranks: "#1", "No. 1", "number 1".
            if self.raw_if_sym(prev) == Some("#") {
                return true;
            }
            if self.raw_if_sym(prev) == Some(".")
                && prev > 0
                && matches!(self.low(prev - 1), "no" | "nos")
            {
                return true;
            }
            // Dates: "March 29", "Oct. 31", "Mar 9 2018".
            let loose_month =
                matches!(self.low(prev), "may" | "march") && !has_table_unit && m.unit.is_none();
            let month_before = lexicon::month(self.raw(prev))
                || loose_month
                || (self.raw_if_sym(prev) == Some(".")
                    && prev > 0
                    && lexicon::month(self.raw(prev - 1)));
            if month_before && (m.value <= 31.0 || self.year_like(m)) && m.value.fract() == 0.0 {
                return true;
            }
            // Identifiers: "iPhone 11", "Windows 10", "Section 427", "S P 500".
            if self.is_capitalised(prev)
                && !has_table_unit
                && !m.has_comma
                && !self.is_ordinary_word(self.low(prev))
            {
                return true;
            }
            if matches!(
                self.low(prev),
                "number"
                    | "no"
                    | "room"
                    | "route"
                    | "page"
                    | "chapter"
                    | "version"
                    | "episode"
                    | "season"
                    | "level"
                    | "grade"
                    | "article"
                    | "section"
                    | "rule"
                    | "flight"
                    | "highway"
                    | "exit"
                    | "interstate"
                    | "channel"
                    | "platform"
                    | "gate"
                    | "terminal"
                    | "model"
                    | "bus"
                    | "category"
                    | "phase"
                    | "stage"
                    | "tier"
                    | "type"
                    | "size"
            ) && !has_table_unit
            {
                return true;
            }
        }
        // Clock times with a time zone: "0930 GMT", "1600 ET".
        if let Some(digits) = m.plain_digits {
            let zone = matches!(
                self.raw_if_any(m.last),
                Some(
                    "GMT"
                        | "UTC"
                        | "ET"
                        | "EST"
                        | "EDT"
                        | "BST"
                        | "CET"
                        | "CEST"
                        | "PT"
                        | "PST"
                        | "PDT"
                        | "JST"
                        | "HKT"
                        | "SGT"
                        | "IST"
                )
            ) || (self.low(m.last) == "local" && self.low(m.last + 1) == "time");
            let clock = (3..=4).contains(&digits) && m.value < 2400.0 && m.value % 100.0 < 60.0;
            if zone && clock {
                return true;
            }
        }
        // List markers: "(3)" alone in brackets.
        if p > 0
            && self.raw_if_sym(p - 1) == Some("(")
            && self.raw_if_sym(m.last) == Some(")")
            && m.unit.is_none()
            && m.plain_digits.is_some_and(|d| d <= 2)
        {
            return true;
        }
        // Street addresses: "123 Random Street".
        if let Some(unit) = &m.unit {
            let last_word = unit.surface.rsplit(' ').next().unwrap_or("");
            if unit.noun.is_some()
                && matches!(
                    last_word.to_lowercase().as_str(),
                    "street"
                        | "st"
                        | "avenue"
                        | "ave"
                        | "road"
                        | "rd"
                        | "boulevard"
                        | "blvd"
                        | "lane"
                        | "drive"
                        | "way"
                        | "place"
                )
            {
                return true;
            }
        }
        // "29 March", "5 May".
        if m.value <= 31.0
            && m.value.fract() == 0.0
            && self.is_word(m.last)
            && lexicon::month(self.raw(m.last))
        {
            return true;
        }
        if self.is_clock(m.last) || (self.low(m.last) == "o" && self.low(m.last + 2) == "clock") {
            return true;
        }
        if self.year_like(m) {
            return self.is_year(m);
        }
        false
    }

    /// Capitalised words that do not name things: sentence-initial "About", "Over", "Some".
    pub(super) fn is_ordinary_word(&self, word: &str) -> bool {
        lexicon::is_function_word(word)
            || lexicon::unit_word(word).is_some()
            || lexicon::tens_word(word).is_some()
            || PREFIX_CONDITIONS
                .iter()
                .any(|(p, _)| p.len() == 1 && p[0] == word)
            || matches!(
                word,
                "only"
                    | "nearly"
                    | "almost"
                    | "about"
                    | "roughly"
                    | "just"
                    | "at"
                    | "by"
                    | "with"
                    | "some"
                    | "around"
                    | "approximately"
                    | "estimated"
                    | "total"
                    | "and"
                    | "or"
            )
    }

    pub(super) fn year_like(&self, m: &Mention) -> bool {
        m.plain_digits == Some(4) && m.currency.is_none() && (1000.0..=2100.0).contains(&m.value)
    }

    /// A four-digit number that is a year unless a unit or plural noun follows or a quantity
    /// word comes before ("an average of 1500", "more than 2000 people").
    pub(super) fn is_year(&self, m: &Mention) -> bool {
        let p = m.first;
        let prev = if p > 0 { self.low(p - 1) } else { "" };
        let prev_raw = if p > 0 { self.raw(p - 1) } else { "" };
        let before_prev = if p >= 2 { self.low(p - 2) } else { "" };
        if m.unit.as_ref().is_some_and(|u| !u.candidates.is_empty()) {
            return false; // "the 1000 hp barrier"
        }
        if lexicon::year_cue(prev)
            || lexicon::month(prev_raw)
            || matches!(prev, "," | "'" | "’" | "(" | "-" | "–" | "/")
            || (prev == "." && matches!(before_prev, "d" | "c"))
            || (prev == "of"
                && !matches!(
                    before_prev,
                    "average" | "total" | "sum" | "maximum" | "minimum" | "excess"
                ))
        {
            return true;
        }
        if let Some(unit) = &m.unit {
            if !unit.candidates.is_empty() {
                return false;
            }
            if let Some(noun) = &unit.noun {
                let last_word = unit.surface.split_whitespace().last().unwrap_or("");
                let capitalised = unit.surface.starts_with(|c: char| c.is_uppercase());
                if !capitalised && (is_plural(&last_word.to_lowercase()) || noun == "people") {
                    return false;
                }
            }
        }
        let quantity_word = PREFIX_CONDITIONS
            .iter()
            .any(|(pattern, _)| pattern.last() == Some(&prev))
            || matches!(
                prev,
                "of" | "than"
                    | "about"
                    | "total"
                    | "average"
                    | "nearly"
                    | "some"
                    | "hire"
                    | "employs"
            );
        !quantity_word
    }

    // ----- conditions -----------------------------------------------------------------------
}
