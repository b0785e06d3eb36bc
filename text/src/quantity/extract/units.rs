//! Reading units: currencies before or after the number, the unit table's surfaces, "per" units, and the counted noun after a number.

use super::*;

/// The most tokens a unit's surface spans.
const MAX_UNIT_TOKENS: usize = 6;

impl<'t> Scan<'t> {
    /// A currency symbol or code right before token `first` ("$", "US$", "US $", "EUR", "Rs.").
    pub(super) fn currency_before(&self, first: usize) -> Option<(usize, &'static Unit)> {
        for k in (1..=3).rev() {
            if first < k {
                continue;
            }
            let from = first - k;
            if self.kind(from) == Some(Kind::Num) || !self.tight(from, first + 1) {
                continue;
            }
            let surface = &self.text[self.toks[from].start..self.toks[first - 1].end];
            let mut found = self.table.lookup_symbol(surface);
            // "$NZ 3m", "$A 40": the country mark after the dollar sign ("NZ$" in the table).
            if let Some(mark) = surface.strip_prefix('$').map(str::trim) {
                if found.is_empty()
                    && (1..=3).contains(&mark.len())
                    && mark.chars().all(|c| c.is_ascii_uppercase())
                {
                    found = self.table.lookup_symbol(&format!("{mark}$"));
                }
            }
            if found.is_empty() {
                let squeezed: String = surface.split_whitespace().collect();
                found = self.table.lookup_symbol(&squeezed);
                // Lower-cased text: "c $", "hk $" (only next to a currency sign).
                let article = matches!(self.low(from), "a" | "an");
                if found.is_empty() && !article && squeezed.contains(['$', '£', '¥', '€']) {
                    found = self.table.lookup_symbol(&squeezed.to_uppercase());
                }
            }
            // "KM 82,000", "CF 7.9 billion": signs that are words or other units elsewhere,
            // only before an amount written as money, apart from it ("CF 303 form", "MT6752"
            // are codes).
            if found.is_empty() && !self.glued(first) && self.money_like(first) {
                found = self.table.lookup_sign_before(surface);
            }
            // "R15.20", "R3bn": the rand's one-letter sign, only glued to an amount of money.
            if found.is_empty()
                && surface == "R"
                && k == 1
                && self.glued(first)
                && self.money_like(first)
            {
                found = self.table.get("zar").into_iter().collect();
            }
            // "PS2.7m", "Y=5,000": the ASCII stand-ins that transliterated news text carries
            // for "£" and "¥", before an amount written as money ("PS5" is a console).
            // ("PS" is also metric horsepower, after a number.)
            let stand_in = match surface {
                "PS" => Some("gbp"),
                "Y=" | "Y =" => Some("jpy"),
                _ => None,
            };
            if let Some(id) = stand_in {
                if !found.iter().any(|u| u.dimension == "currency") && self.money_like(first) {
                    found = self.table.get(id).into_iter().collect();
                }
            }
            if let Some(unit) = found.into_iter().find(|u| u.dimension == "currency") {
                // A code written as a word must stand apart from other letters ("CHF5" is fine,
                // "ACHF" is not a token boundary issue because tokens are whole words).
                return Some((from, unit));
            }
        }
        None
    }

    /// Digits written the way amounts of money are: "15.20", "1,500", "3bn", "2 million".
    pub(super) fn money_like(&self, first: usize) -> bool {
        let raw = self.raw(first);
        let cents = raw
            .split_once('.')
            .is_some_and(|(_, decimals)| decimals.len() == 2);
        let next = self.low(first + 1);
        cents
            || raw.contains(',')
            || self
                .raw_if_any(first + 1)
                .is_some_and(|w| lexicon::glued_scale(w).is_some())
            || lexicon::scale_word(next).is_some()
            || (self.glued(first + 1) && matches!(next, "m" | "b"))
    }

    pub(super) fn read_unit(&self, mention: &mut Mention) {
        if mention.kind == NumberKind::Ordinal {
            return;
        }
        let start = mention.first;
        if let Some((from, unit)) = self.currency_before(start) {
            mention.currency = Some((from, unit));
            // "$58.24 per barrel", "$5 a month"; "NOK 30 (US$2.80) per share": the rate
            // after a conversion in brackets is the amount's too, and the conversion's.
            let (per, end) = match self.per_unit(mention.last, true) {
                (None, end) => match self.bracket_close_after(mention.last) {
                    Some(close) => (self.per_unit(close + 1, true).0, end),
                    None if self.raw_if_sym(mention.last) == Some(")") => {
                        (self.per_unit(mention.last + 1, true).0, end)
                    }
                    None => (None, end),
                },
                found => found,
            };
            mention.unit = Some(UnitReading {
                surface: self.text[self.toks[from].start..self.toks[start - 1].end].to_string(),
                candidates: vec![unit],
                noun: None,
                noun_unit: None,
                per,
            });
            mention.end = end;
            return;
        }
        let e = mention.last;
        // "3-inch", "10-year-old": a hyphen between the number and its unit.
        let at = if self.raw_if_sym(e) == Some("-")
            && self.glued(e)
            && self.is_word(e + 1)
            && self.glued(e + 1)
        {
            e + 1
        } else {
            e
        };
        // "24703L202", "24703 m212", "24703 L-202": letters and digits of a code, not a unit.
        if self.is_word(at) {
            let digits_after = (self.kind(at + 1) == Some(Kind::Num) && self.glued(at + 1))
                || (self.raw_if_sym(at + 1) == Some("-")
                    && self.glued(at + 1)
                    && self.kind(at + 2) == Some(Kind::Num)
                    && self.glued(at + 2));
            // "450 ft2", "300 mm3": a square or cube written without its superscript is a
            // symbol of the table, not a code.
            let plain_power = || {
                matches!(self.raw_if_any(at + 1), Some("2" | "3"))
                    && self.table_unit(at).is_some_and(|(_, end)| end >= at + 2)
            };
            if digits_after && !plain_power() {
                mention.glued_tail = true;
                return;
            }
        }
        // "20 (kg)", "20 [kg]".
        if let Some(close) = match self.raw_if_sym(at) {
            Some("(") => Some(")"),
            Some("[") => Some("]"),
            Some("{") => Some("}"),
            Some("<") => Some(">"),
            _ => None,
        } {
            if let Some((reading, end)) = self.table_unit(at + 1) {
                if self.raw_if_sym(end) == Some(close) {
                    mention.unit = Some(reading);
                    mention.end = end + 1;
                    return;
                }
            }
        }
        if let Some((mut reading, end)) = self.table_unit(at) {
            let currency = reading.candidates.iter().any(|u| u.dimension == "currency");
            let (per, end) = match self.per_unit(end, currency) {
                (None, _) => self.per_after_material(end, currency),
                found => found,
            };
            reading.per = per;
            mention.unit = Some(reading);
            mention.end = end;
            return;
        }
        if self.is_word(e) && self.glued(e) {
            mention.glued_tail = true;
            return;
        }
        if self.is_word(e) && is_modifier(self.low(e)) && !self.glued(e) {
            if let Some((reading, end)) = self.table_unit(e + 1) {
                mention.unit = Some(reading);
                mention.end = end;
                return;
            }
        }
        if let Some((reading, end)) = self.noun_after(mention) {
            mention.unit = Some(reading);
            mention.end = end;
            return;
        }
        if self.is_age(mention) {
            if let Some(year) = self.table.get("year") {
                mention.unit = Some(UnitReading {
                    surface: String::new(),
                    candidates: vec![year],
                    noun: None,
                    noun_unit: None,
                    per: None,
                });
            }
        }
    }

    /// A bare whole number that is a person's age: "aged 52", "at the age of 52", "Ms Ortiz,
    /// 52, said", "Nick Hague 44 has", "who was 10".
    pub(super) fn is_age(&self, m: &Mention) -> bool {
        let whole = m.value.fract() == 0.0 && (1.0..=120.0).contains(&m.value);
        if !whole || m.in_words || m.plain_digits.is_none() || m.first == 0 {
            return false;
        }
        let (p, next) = (m.first, m.last);
        let prev = self.low(p - 1);
        let before = |k: usize| if p > k { self.low(p - 1 - k) } else { "" };
        let clause_ends = |k: usize| {
            k >= self.toks.len() || matches!(self.low(k), "," | "." | ";" | ")" | "and" | "when")
        };
        let age_word = |w: &str| matches!(w, "aged" | "age");
        if age_word(prev) || (prev == "of" && before(1) == "age") {
            return true;
        }
        // The second end of "aged 25 to 40", "aged between 25 and 40".
        if matches!(prev, "to" | "and" | "-" | "–")
            && p >= 2
            && self.kind(p - 2) == Some(Kind::Num)
            && (age_word(before(2)) || (before(2) == "between" && age_word(before(3))))
        {
            return true;
        }
        // "who was 10,", "when she was 52."
        if matches!(prev, "was" | "is" | "turned" | "turns")
            && matches!(before(1), "who" | "he" | "she")
            && clause_ends(next)
        {
            return true;
        }
        let title_case = |k: usize| {
            self.is_word(k) && {
                let w = self.raw(k);
                w.starts_with(|c: char| c.is_uppercase())
                    && w.chars().skip(1).any(char::is_lowercase)
                    && !lexicon::month(w)
                    && !crate::calendar::is_day(&w.to_lowercase())
            }
        };
        // Apposition: "Ms Ortiz, 52, said", "Smith, 44."
        if prev == ","
            && p >= 2
            && title_case(p - 2)
            && clause_ends(next)
            && self.low(next) != "and"
        {
            return true;
        }
        // "Nick Hague 44 has spent": a name of two title-case words, then a verb or a comma.
        p >= 2
            && title_case(p - 1)
            && title_case(p - 2)
            && !self.glued(p)
            && m.value >= 15.0
            && matches!(
                self.low(next),
                "," | "has" | "had" | "is" | "was" | "said" | "says" | "told" | "who" | "will"
            )
    }

    /// The longest unit surface of the table starting at token `at` (up to six tokens: "Bosnia
    /// and Herzegovina convertible marks", "UK gunter's chains").
    pub(super) fn table_unit(&self, at: usize) -> Option<(UnitReading, usize)> {
        if at >= self.toks.len() || self.kind(at) == Some(Kind::Num) {
            return None;
        }
        if let Some(dotted) = self.dotted_unit(at) {
            return Some(dotted);
        }
        for n in (1..=MAX_UNIT_TOKENS).rev() {
            let end = at + n;
            if end > self.toks.len() || !self.tight(at, end) {
                continue;
            }
            // A unit ends at a word boundary: "5 mg" but not the "m" of "5 mgx".
            if self.glued(end)
                && self.kind(end) == Some(Kind::Word)
                && self.kind(end - 1) == Some(Kind::Word)
            {
                continue;
            }
            let surface = &self.text[self.toks[at].start..self.toks[end - 1].end];
            if n == 1 && self.blocked(at, surface) {
                continue;
            }
            let mut candidates: Vec<&'static Unit> = self
                .table
                .lookup(surface)
                .into_iter()
                .filter(|u| u.dimension != "count")
                .collect();
            if candidates.is_empty() {
                continue;
            }
            // "degrees" alone: an angle, or a temperature when the text is about temperature.
            let lower = surface.to_lowercase();
            if matches!(lower.as_str(), "degree" | "degrees" | "deg" | "°") {
                for id in ["celsius", "fahrenheit"] {
                    if let Some(t) = self.table.get(id) {
                        candidates.push(t);
                    }
                }
            }
            return Some((
                UnitReading {
                    surface: surface.to_string(),
                    candidates,
                    noun: None,
                    noun_unit: None,
                    per: None,
                },
                end,
            ));
        }
        None
    }

    /// A unit written as a dotted abbreviation, single letters each with its full stop
    /// ("k.p.h.", "m.p.h.", "c.c."): style guides' way of writing a symbol, read as the symbol
    /// without its dots ("kph"). Two letters at least: "5 a.m." has one.
    fn dotted_unit(&self, at: usize) -> Option<(UnitReading, usize)> {
        let mut letters = String::new();
        let mut k = at;
        while self.is_word(k)
            && self.raw(k).chars().count() == 1
            && self.raw_if_sym(k + 1) == Some(".")
            && self.glued(k + 1)
            && (k == at || self.glued(k))
        {
            letters.push_str(self.raw(k));
            k += 2;
        }
        // "5 p.m.", "5 a.m.": times of day, not picometres.
        if letters.chars().count() < 2 || matches!(letters.to_lowercase().as_str(), "am" | "pm") {
            return None;
        }
        let candidates: Vec<&'static Unit> = self
            .table
            .lookup(&letters)
            .into_iter()
            .filter(|u| u.dimension != "count")
            .collect();
        if candidates.is_empty() {
            return None;
        }
        Some((
            UnitReading {
                surface: self.text[self.toks[at].start..self.toks[k - 1].end].to_string(),
                candidates,
                noun: None,
                noun_unit: None,
                per: None,
            },
            k,
        ))
    }

    /// Unit symbols that are also common words or letters, accepted only glued to the number
    /// ("5h", "40C") or, for capital letters, when no word follows ("40 C.").
    pub(super) fn blocked(&self, at: usize, surface: &str) -> bool {
        match surface {
            "s" => true,
            // "in" is inches only in heights such as "6 ft 2 in".
            "in" => !(at >= 2 && matches!(self.low(at - 2), "ft" | "feet" | "foot" | "'" | "′")),
            "a" | "an" | "at" | "are" | "is" | "as" | "c" | "d" | "h" | "t" | "u" | "p" | "q"
            | "b" | "st" | "gr" | "pt" | "pc" | "mo" | "cd" | "Da" | "ha" | "hand" | "hands"
            | "chain" | "chains" | "rod" | "rods" | "gray" | "grain" | "grains" | "gross"
            | "league" | "leagues" | "slug" | "slugs" | "real" | "sol" | "mil" | "thou" | "erg"
            | "kip" | "lei" | "lev" | "leu" | "Br" | "Ft" | "K" | "TL" | "SR" | "LE" | "DA"
            | "DT" | "BD" | "KD" | "JD" | "QR" | "Tk" | "RM" | "Rp" | "Dh" | "sun" | "bit"
            | "bits" => {
                // "45 000 t", "12,000 t of cargo", "0.5 ha.": a tonne or a hectare when no
                // other word follows.
                let ends_quantity =
                    !self.is_word(at + 1) || matches!(self.low(at + 1), "of" | "in" | "and");
                let symbol_alone = matches!(surface, "t" | "ha") && ends_quantity;
                (self.toks[at].spaced && !symbol_alone) || surface == "a" || surface == "are"
            }
            "A" | "B" | "G" | "T" | "P" | "N" | "J" | "S" | "L" | "V" | "W" | "H" | "M" => {
                self.toks[at].spaced && self.is_word(at + 1)
            }
            _ => false,
        }
    }

    /// "40 litres of water per minute", "500 tonnes of grain each month": the rate after what
    /// the unit measures (one or two words after "of").
    fn per_after_material(&self, at: usize, currency: bool) -> (Option<PerUnit>, usize) {
        if self.low(at) != "of" {
            return (None, at);
        }
        for words in 1..=2 {
            let material = at + 1..at + 1 + words;
            let plain = material.clone().all(|k| {
                self.is_word(k)
                    && !lexicon::is_function_word(self.low(k))
                    && self.table_unit(k).is_none()
            });
            if !plain {
                break;
            }
            if let (Some(per), end) = self.per_unit(material.end, currency) {
                return (Some(per), end);
            }
        }
        (None, at)
    }

    /// The closing bracket of a conversion right after an amount: "NOK 30 (US$2.80)" → the
    /// ")" (at most six tokens on).
    fn bracket_close_after(&self, at: usize) -> Option<usize> {
        if self.raw_if_sym(at) != Some("(") {
            return None;
        }
        (at + 1..(at + 8).min(self.toks.len())).find(|&k| self.raw_if_sym(k) == Some(")"))
    }

    /// "per barrel", "a month", "/kg", "per share" after a unit (or a currency amount).
    pub(super) fn per_unit(&self, at: usize, currency: bool) -> (Option<PerUnit>, usize) {
        let none = (None, at);
        // "$15-an-hour", "a $2.80-per-share dividend": the rate hyphenated as a modifier.
        let hyphen_at =
            |k: usize| self.raw_if_sym(k) == Some("-") && self.glued(k) && self.glued(k + 1);
        let hyphenated = hyphen_at(at);
        let at = if hyphenated { at + 1 } else { at };
        let word = self.low(at);
        let slash = self.raw_if_sym(at) == Some("/");
        if !(matches!(word, "per" | "a" | "an" | "each") || (slash && !hyphenated)) {
            return none;
        }
        let k = if hyphenated && hyphen_at(at + 1) {
            at + 2
        } else {
            at + 1
        };
        if k >= self.toks.len() || self.kind(k) != Some(Kind::Word) {
            return none;
        }
        if let Some((reading, end)) = self.table_unit(k) {
            let unit = reading.candidates[0];
            // "a year earlier", "a month ago" say when, not how often.
            // "a year on" says when too, but "a day on Monday" is a rate and a day.
            let when = matches!(
                self.low(end),
                "earlier" | "ago" | "later" | "before" | "after" | "from" | "since"
            ) || (self.low(end) == "on" && !self.is_capitalised(end + 1));
            let time_like = unit.dimension == "time" && !when;
            // "$64 a tonne", "$3 a gallon": a price per unit.
            let price_per = currency && unit.dimension != "time";
            if word == "per" || slash || time_like || price_per {
                return (
                    Some(PerUnit {
                        name: unit.name().to_string(),
                        unit_id: Some(unit.id.clone()),
                    }),
                    end,
                );
            }
            return none;
        }
        // "25.3 points per game", "7 rebounds a game": a count per event or per person.
        let counted_per = !currency
            && (word == "per"
                || matches!(
                    self.low(k),
                    "game" | "match" | "season" | "night" | "person" | "head" | "share" | "capita"
                ));
        if (currency || counted_per) && (word == "per" || word == "a" || word == "an") {
            let noun = self.low(k);
            if !lexicon::is_function_word(noun) && noun.chars().all(char::is_alphabetic) {
                let name = singular(noun);
                let unit_id = self.table.lookup(&name).first().map(|u| u.id.clone());
                return (Some(PerUnit { name, unit_id }), k + 1);
            }
        }
        none
    }

    /// Where the counted noun may start: after the number, or after "of the" in "one of the
    /// students" (a number in words followed by "of" and anything else counts no noun).
    fn after_partitive_of(&self, mention: &Mention) -> Option<usize> {
        let k = mention.last;
        if !(mention.in_words && self.low(k) == "of") {
            return Some(k);
        }
        matches!(
            self.low(k + 1),
            "the" | "his" | "her" | "its" | "their" | "our" | "my" | "your" | "those" | "these"
        )
        .then_some(k + 2)
    }

    /// The noun a bare number counts: "73 songs", "three course meal", "one of the students".
    pub(super) fn noun_after(&self, mention: &Mention) -> Option<(UnitReading, usize)> {
        let mut k = self.after_partitive_of(mention)?;
        // "the most spectacular catches", "eight more picks": markers that are not the noun.
        if (matches!(self.low(k), "most" | "least") && k > mention.last)
            || (matches!(self.low(k), "more" | "other") && self.is_word(k + 1))
        {
            k += 1;
        }
        // "three-point", "12-page": the word after the hyphen is the unit.
        let hyphenated = k == mention.last
            && self.raw_if_sym(k) == Some("-")
            && self.glued(k)
            && self.is_word(k + 1)
            && self.glued(k + 1);
        if hyphenated {
            k += 1;
        }
        let start = k;
        let mut words: Vec<String> = Vec::new();
        // The token after each word.
        let mut word_ends: Vec<usize> = Vec::new();
        let longest = if hyphenated { 1 } else { 3 };
        while k < self.toks.len() && words.len() < longest {
            if !self.is_word(k) || (self.glued(k) && k != start) {
                break;
            }
            let w = self.low(k);
            if lexicon::is_function_word(w)
                || lexicon::unit_word(w).is_some()
                || lexicon::tens_word(w).is_some()
                || lexicon::scale_word(w).is_some()
                || lexicon::month(self.raw(k))
                || lexicon::multiplier_word(w).is_some()
            {
                break;
            }
            // A comparative: "40k cheaper than".
            if self.low(k + 1) == "than" {
                break;
            }
            if w.ends_with("ly") || (w.ends_with("ed") && !words.is_empty()) {
                break;
            }
            let mut word = w.to_string();
            let mut next = k + 1;
            // Hyphenated compounds: "first-team".
            if self.raw_if_sym(next) == Some("-")
                && self.glued(next)
                && self.is_word(next + 1)
                && self.glued(next + 1)
            {
                word = format!("{word}-{}", self.low(next + 1));
                next += 2;
            }
            // "police officers": a collective noun used as a modifier.
            let modifier_of_plural = matches!(word.as_str(), "police" | "staff")
                && self.is_word(next)
                && is_plural(self.low(next));
            let plural = is_plural(&word) && !modifier_of_plural;
            words.push(word);
            word_ends.push(next);
            k = next;
            if plural {
                break;
            }
        }
        // Leading participles and modifiers are not the counted thing: "300 recorded songs",
        // "400 charging stations", "50 previous years", "eight more picks".
        while words.len() > 1 && is_modifier(&words[0]) {
            words.remove(0);
            word_ends.remove(0);
        }
        if words.is_empty() {
            return None;
        }
        // "a 12 page document", "a 3 cylinder engine": after a number above one, a singular noun
        // followed by another singular noun is a compound modifier, and the number counts it.
        // (Also before a plural head, "1,100 public housing properties" → "public": keeping the
        // whole phrase read the news gold better but lowered count answering, whose ranker
        // learned these nouns; see docs/experiments.md.)
        if mention.value > 1.0 && words.len() >= 2 && !is_plural(&words[0]) && !is_plural(&words[1])
        {
            words.truncate(1);
            k = word_ends[0];
        }
        // A lone verb form: "5 killed", "3 remaining".
        if words.len() == 1 && (words[0].ends_with("ed") || words[0].ends_with("ing")) {
            return None;
        }
        let last = words.len() - 1;
        words[last] = singular(&words[last]);
        let head = &words[last];
        let noun_unit = self
            .table
            .lookup(head)
            .into_iter()
            .find(|u| u.dimension == "count");
        let surface = self.text[self.toks[start].start..self.toks[k - 1].end].to_string();
        // "78,000 times a minute", "5 visits per day".
        let (per, end) = self.per_unit(k, false);
        Some((
            UnitReading {
                surface,
                candidates: Vec::new(),
                noun: Some(words.join(" ")),
                noun_unit,
                per,
            },
            end,
        ))
    }

    // ----- what is not a quantity ----------------------------------------------------------------
}
