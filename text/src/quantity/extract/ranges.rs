//! Changes and ranges: "up 5%", "from 3 to 5", scores and restatements, and amounts made of two numbers.

use super::*;
use crate::quantity::comparatives::comparative_before_than;

impl<'t> Scan<'t> {
    /// The condition in the few words before the quantity (longest phrase wins), else after it.
    pub(super) fn change_of(&self, m: &Mention) -> Change {
        // "-0.4%", "+2.3%": a signed ratio is a movement.
        let signed = self.raw_if_sym(m.first).and_then(|sign| match sign {
            "+" => Some(Change::Up),
            "-" | "−" => Some(Change::Down),
            _ => None,
        });
        let ratio = m
            .unit
            .as_ref()
            .is_some_and(|u| u.candidates.first().is_some_and(|c| c.dimension == "ratio"));
        if let (Some(direction), true) = (signed, ratio) {
            return direction;
        }
        let first = m.currency.map_or(m.first, |(from, _)| from);
        // "wider than 40 m", "more expensive than €500": the adjective's direction in the
        // quantity's dimension.
        if first >= 2 && self.low(first - 1) == "than" {
            let dimension = match (m.currency, &m.unit) {
                (Some(_), _) => Some("currency"),
                (None, Some(unit)) => unit.candidates.first().map(|u| u.dimension.as_str()),
                (None, None) => None,
            };
            let mut words: Vec<&str> = Vec::new();
            let mut k = first - 1;
            while k > 0 && words.len() < 2 && self.is_word(k - 1) {
                k -= 1;
                words.insert(0, self.low(k));
            }
            if let Some((_, change)) = comparative_before_than(&words, dimension) {
                return change;
            }
        }
        let mut p = first;
        let mut skipped = 0;
        while p > 0 {
            let end = p - 1;
            let mut best: Option<(usize, Change)> = None;
            for (pattern, change) in PREFIX_CONDITIONS {
                if self.phrase_ends_at(pattern, end)
                    && best.is_none_or(|(len, _)| pattern.len() > len)
                {
                    best = Some((pattern.len(), *change));
                }
            }
            if let Some((len, change)) = best {
                let trigger_start = end + 1 - len;
                let bare_direction = len == 1 && matches!(change, Change::Up | Change::Down);
                // "gave up 517 yards", "signed up 40 users": a particle, not a movement.
                if bare_direction
                    && trigger_start > 0
                    && is_particle_verb(self.low(trigger_start - 1))
                {
                    return Change::Equal;
                }
                // "up from 2.4 million": the old value of a movement is just a value.
                if bare_direction && self.low(end + 1) == "from" {
                    return Change::Equal;
                }
                return change;
            }
            if skipped < 2 && self.is_word(end) && lexicon::is_filler(self.low(end)) {
                p -= 1;
                skipped += 1;
                continue;
            }
            break;
        }
        let after = m.end.max(m.last);
        if self.raw_if_sym(m.last) == Some("+") && self.glued(m.last) {
            return Change::AtLeast;
        }
        for (pattern, change) in SUFFIX_CONDITIONS {
            if self.phrase_starts_at(pattern, after) {
                return *change;
            }
        }
        Change::Equal
    }

    /// The quantity restates the previous one in other units: "100 km (60 miles)",
    /// "224 kW / 300 PS", "lost 190 points, or 0.6%". It shares its condition.
    pub(super) fn restates(&self, previous: &Mention, m: &Mention) -> bool {
        let first = m.currency.map_or(m.first, |(from, _)| from);
        let gap_start = previous.end.max(previous.last);
        if first <= gap_start {
            return false;
        }
        let gap: Vec<&str> = (gap_start..first).map(|k| self.low(k)).collect();
        matches!(gap.as_slice(), ["("] | ["/"] | [",", "or"] | ["(", "or"])
    }

    pub(super) fn phrase_ends_at(&self, pattern: &[&str], end: usize) -> bool {
        if end + 1 < pattern.len() {
            return false;
        }
        let start = end + 1 - pattern.len();
        pattern
            .iter()
            .enumerate()
            .all(|(j, w)| self.low(start + j) == *w)
    }

    pub(super) fn phrase_starts_at(&self, pattern: &[&str], start: usize) -> bool {
        pattern
            .iter()
            .enumerate()
            .all(|(j, w)| self.low(start + j) == *w)
    }

    pub(super) fn condition_word_before(&self, i: usize) -> bool {
        i > 0
            && PREFIX_CONDITIONS
                .iter()
                .any(|(pattern, _)| self.phrase_ends_at(pattern, i - 1))
    }

    // ----- ranges -----------------------------------------------------------------------------

    /// "between 50 and 60 km", "from 5 to 10 kg", "50-60 km", "1 to 1.5 degrees"; the unit of
    /// "eight or nine euros" shared by both numbers; "13 dollars and 45 cents" as one amount.
    /// One pass: each mention is compared with the last one kept.
    pub(super) fn join_ranges(&self, mentions: &mut Vec<Mention>) {
        let mut kept: Vec<Mention> = Vec::with_capacity(mentions.len());
        // A range is complete once joined: "5 to 10 to 15" does not chain.
        let mut last_is_range = false;
        for b in mentions.drain(..) {
            let join = match kept.last() {
                Some(a) if !last_is_range => self.join_of(a, &b),
                _ => Join::Apart,
            };
            let Some(a) = kept.last_mut() else {
                kept.push(b);
                continue;
            };
            match join {
                Join::Score => {
                    kept.pop();
                }
                Join::Compound(smaller) => {
                    a.value += smaller;
                    a.end = b.end.max(b.last);
                }
                Join::Range => {
                    a.value = scaled_like(a, &b);
                    a.range_to = Some(b.value);
                    // "fell from $61 to $48.20": the range is the movement.
                    if let Some(direction) = self.movement_from(a, b.value) {
                        a.change = direction;
                    }
                    let b_has_per = b.unit.as_ref().is_some_and(|u| u.per.is_some());
                    let a_has_per = a.unit.as_ref().is_some_and(|u| u.per.is_some());
                    if a.unit.is_none()
                        || (b_has_per && !a_has_per)
                        || (a.currency.is_none()
                            && b.unit.as_ref().is_some_and(|u| !u.candidates.is_empty()))
                    {
                        a.unit = b.unit;
                        a.currency = a.currency.or(borrowed(b.currency, a.first));
                    }
                    a.end = b.end.max(b.last);
                    last_is_range = true;
                }
                Join::ShareUnit => {
                    a.value = scaled_like(a, &b);
                    a.unit = b.unit.clone();
                    a.currency = borrowed(b.currency, a.first);
                    kept.push(b);
                    last_is_range = false;
                }
                Join::Apart => {
                    kept.push(b);
                    last_is_range = false;
                }
            }
        }
        *mentions = kept;
    }

    /// "a 3-3 draw", "won 2-1", "ended 2-2 on aggregate": two small whole numbers joined by a
    /// dash, next to a word of a match result.
    pub(super) fn is_score(&self, a: &Mention, b: &Mention, before_a: &str) -> bool {
        let small = |m: &Mention| {
            m.plain_digits.is_some_and(|d| d <= 2)
                && m.currency.is_none()
                && m.change == Change::Equal
        };
        if !small(a) || !small(b) || a.unit.is_some() {
            return false;
        }
        let result_noun = |w: &str| {
            matches!(
                w,
                "draw"
                    | "win"
                    | "victory"
                    | "defeat"
                    | "loss"
                    | "lead"
                    | "scoreline"
                    | "triumph"
                    | "thrashing"
                    | "aggregate"
                    | "home"
                    | "away"
                    | "result"
                    | "score"
            )
        };
        let noun_after = match &b.unit {
            None => false,
            Some(u) => u
                .noun
                .as_deref()
                .is_some_and(|n| n.split_whitespace().next().is_some_and(result_noun)),
        };
        let after = b.end.max(b.last);
        let words_after = noun_after
            || (b.unit.is_none()
                && (result_noun(self.low(after))
                    || (self.low(after) == "on" && self.low(after + 1) == "aggregate")));
        let verb_before = matches!(
            before_a,
            "won"
                | "win"
                | "wins"
                | "lost"
                | "lose"
                | "drew"
                | "draw"
                | "ended"
                | "finished"
                | "beat"
                | "beating"
                | "trailed"
                | "trailing"
                | "led"
                | "leading"
                | "winning"
                | "losing"
        );
        words_after || (verb_before && b.unit.is_none())
    }

    /// "rose from", "fell from" right before the first number: the direction of the movement.
    pub(super) fn movement_from(&self, a: &Mention, to: f64) -> Option<Change> {
        let a_first = a.currency.map_or(a.first, |(from, _)| from);
        if a_first < 2 || self.low(a_first - 1) != "from" {
            return None;
        }
        let verb_end = a_first - 2;
        // "went from 70 kilos to 64": a verb of movement with no direction of its own moves
        // the way the values go.
        if matches!(
            self.low(verb_end),
            "went" | "moved" | "changed" | "shifted" | "swung"
        ) && to != a.value
        {
            return Some(if to < a.value {
                Change::Down
            } else {
                Change::Up
            });
        }
        PREFIX_CONDITIONS
            .iter()
            .filter(|(pattern, change)| {
                pattern.len() == 1
                    && matches!(change, Change::Up | Change::Down)
                    && self.phrase_ends_at(pattern, verb_end)
            })
            .map(|(_, change)| *change)
            .next()
            .filter(|_| verb_end == 0 || !is_particle_verb(self.low(verb_end - 1)))
    }

    pub(super) fn join_of(&self, a: &Mention, b: &Mention) -> Join {
        let countable = |m: &Mention| matches!(m.kind, NumberKind::Cardinal | NumberKind::Fraction);
        if !countable(a) || !countable(b) {
            return Join::Apart;
        }
        let gap_start = a.end.max(a.last);
        let b_first = b.currency.map_or(b.first, |(from, _)| from);
        if let Some(smaller) = self.compound_amount(a, b, gap_start, b_first) {
            return Join::Compound(smaller);
        }
        if b_first <= gap_start || b_first - gap_start != 1 {
            return Join::Apart;
        }
        let connector = self.low(gap_start);
        let a_first = a.currency.map_or(a.first, |(from, _)| from);
        let before_a = self.word_before(a_first);
        let same_unit = match (&a.unit, &b.unit) {
            (None, _) => true,
            (Some(x), Some(y)) => {
                x.surface.to_lowercase() == y.surface.to_lowercase()
                    || (!x.candidates.is_empty()
                        && !y.candidates.is_empty()
                        && x.candidates[0].id == y.candidates[0].id)
            }
            (Some(_), None) => a.currency.is_some(),
        };
        let dash = matches!(connector, "-" | "–" | "—");
        if dash && self.is_score(a, b, before_a) {
            return Join::Score;
        }
        let is_range = match connector {
            "and" => before_a == "between",
            "to" => {
                before_a == "from"
                    || (same_unit
                        && !(a.unit.is_some() && matches!(a.change, Change::Up | Change::Down)))
            }
            _ => dash && same_unit,
        };
        if is_range {
            Join::Range
        } else if matches!(connector, "or" | "and") && a.unit.is_none() && b.unit.is_some() {
            Join::ShareUnit
        } else {
            Join::Apart
        }
    }

    /// "13 dollars and 45 cents", "6 ft 2 in": `b` in `a`'s unit, when `b` is a smaller unit of
    /// the same kind right after `a`.
    pub(super) fn compound_amount(
        &self,
        a: &Mention,
        b: &Mention,
        gap_start: usize,
        b_first: usize,
    ) -> Option<f64> {
        if b_first < gap_start || a.range_to.is_some() || b.range_to.is_some() {
            return None;
        }
        let gap: Vec<&str> = (gap_start..b_first).map(|k| self.low(k)).collect();
        if !matches!(gap.as_slice(), [] | ["and"]) {
            return None;
        }
        let big = a.unit.as_ref()?.candidates.first()?;
        let small = b.unit.as_ref()?.candidates.first()?;
        // Money, lengths and weights; listed durations ("3 years, 2 months") stay separate.
        let same_kind = big.dimension == small.dimension
            && big.currency == small.currency
            && matches!(big.dimension.as_str(), "currency" | "length" | "mass");
        if !same_kind
            || small.factor >= big.factor
            || a.unit.as_ref()?.per.is_some()
            || b.value < 0.0
        {
            return None;
        }
        // Only smaller units that complete the larger one: feet+inches, dollars+cents.
        let part = small.to_base(b.value) - small.offset;
        let whole = big.factor;
        (part < whole).then(|| part / whole)
    }

    // ----- output ----------------------------------------------------------------------------
}

/// Another mention's currency, lent to the mention starting at token `first`: its unit, not
/// its place ("30 and £115": the first span still starts at "30", not after it).
fn borrowed(
    currency: Option<(usize, &'static Unit)>,
    first: usize,
) -> Option<(usize, &'static Unit)> {
    currency.map(|(_, unit)| (first, unit))
}
