//! The English words the extractor knows: number words, scales, fractions, ordinals, months,
//! condition phrases and the small closed classes that end a noun phrase. Lookups take the
//! lower-cased word.

use super::Change;

/// "zero" … "nineteen".
pub(crate) fn unit_word(word: &str) -> Option<u32> {
    Some(match word {
        "zero" => 0,
        "one" => 1,
        "two" => 2,
        "three" => 3,
        "four" => 4,
        "five" => 5,
        "six" => 6,
        "seven" => 7,
        "eight" => 8,
        "nine" => 9,
        "ten" => 10,
        "eleven" => 11,
        "twelve" => 12,
        "thirteen" => 13,
        "fourteen" => 14,
        "fifteen" => 15,
        "sixteen" => 16,
        "seventeen" => 17,
        "eighteen" => 18,
        "nineteen" => 19,
        _ => return None,
    })
}

/// "twenty" … "ninety".
pub(crate) fn tens_word(word: &str) -> Option<u32> {
    Some(match word {
        "twenty" => 20,
        "thirty" => 30,
        "forty" => 40,
        "fourty" => 40,
        "fifty" => 50,
        "sixty" => 60,
        "seventy" => 70,
        "eighty" => 80,
        "ninety" => 90,
        _ => return None,
    })
}

/// Multipliers written as words ("hundred", "million", "lakh") or abbreviations ("bn").
pub(crate) fn scale_word(word: &str) -> Option<f64> {
    Some(match word {
        "hundred" => 1e2,
        "thousand" => 1e3,
        "lakh" | "lakhs" | "lac" => 1e5,
        "million" | "mn" | "mln" | "mio" => 1e6,
        "crore" | "crores" => 1e7,
        "billion" | "bn" | "bln" => 1e9,
        "trillion" | "tn" | "trn" => 1e12,
        "quadrillion" => 1e15,
        _ => return None,
    })
}

/// Scale suffixes glued to digits ("138k", "2.5bn"); "m" is handled by the caller (million or
/// metre depends on a currency before the number).
pub(crate) fn glued_scale(word: &str) -> Option<f64> {
    Some(match word {
        "k" | "K" => 1e3,
        "mn" | "mln" | "MN" => 1e6,
        "bn" | "Bn" | "BN" | "bln" => 1e9,
        "tn" | "trn" | "Tn" | "TN" => 1e12,
        _ => return None,
    })
}

/// Multiplicative counts: "twice", "thrice", and a number word made "-fold" ("threefold",
/// "ten-fold", "twentyfold", "hundredfold"); "manifold" and "scaffold" are not numbers.
pub(crate) fn multiplier_word(word: &str) -> Option<u32> {
    match word {
        "twice" => return Some(2),
        "thrice" => return Some(3),
        _ => {}
    }
    let stem = word.strip_suffix("fold")?;
    let stem = stem.strip_suffix('-').unwrap_or(stem);
    unit_word(stem)
        .or_else(|| tens_word(stem))
        .or(match stem {
            "hundred" => Some(100),
            "thousand" => Some(1000),
            _ => None,
        })
        .filter(|n| *n >= 2)
}

/// Fraction words after a count: "a third", "two thirds", "three quarters".
pub(crate) fn fraction_word(word: &str) -> Option<f64> {
    Some(match word {
        "half" | "halves" => 2.0,
        "third" | "thirds" => 3.0,
        "quarter" | "quarters" | "fourth" | "fourths" => 4.0,
        "fifth" | "fifths" => 5.0,
        "sixth" | "sixths" => 6.0,
        "eighth" | "eighths" => 8.0,
        "tenth" | "tenths" => 10.0,
        _ => return None,
    })
}

/// Vulgar-fraction characters.
pub(crate) fn fraction_char(c: &str) -> Option<f64> {
    Some(match c {
        "½" => 0.5,
        "⅓" => 1.0 / 3.0,
        "⅔" => 2.0 / 3.0,
        "¼" => 0.25,
        "¾" => 0.75,
        "⅕" => 0.2,
        "⅛" => 0.125,
        _ => return None,
    })
}

/// Ordinal words ("first" … "twentieth", "hundredth").
pub(crate) fn ordinal_word(word: &str) -> Option<u32> {
    Some(match word {
        "first" => 1,
        "second" => 2,
        "third" => 3,
        "fourth" => 4,
        "fifth" => 5,
        "sixth" => 6,
        "seventh" => 7,
        "eighth" => 8,
        "ninth" => 9,
        "tenth" => 10,
        "eleventh" => 11,
        "twelfth" => 12,
        "thirteenth" => 13,
        "fourteenth" => 14,
        "fifteenth" => 15,
        "sixteenth" => 16,
        "seventeenth" => 17,
        "eighteenth" => 18,
        "nineteenth" => 19,
        "twentieth" => 20,
        "thirtieth" => 30,
        "fortieth" => 40,
        "fiftieth" => 50,
        "hundredth" => 100,
        "thousandth" => 1000,
        "millionth" => 1_000_000,
        _ => return None,
    })
}

/// Suffixes that make digits an ordinal ("1st", "22nd").
pub(crate) fn is_ordinal_suffix(word: &str) -> bool {
    matches!(word, "st" | "nd" | "rd" | "th" | "ST" | "ND" | "RD" | "TH")
}

/// Month names; `strict` ones are also ordinary words and count only when capitalised.
pub(crate) fn month(word_raw: &str) -> bool {
    let lower = word_raw.to_ascii_lowercase();
    match lower.as_str() {
        "march" | "may" | "mar" => word_raw.starts_with(|c: char| c.is_uppercase()),
        other => crate::calendar::is_month(other),
    }
}

/// Words after which a bare four-digit number is a year ("in 1988", "since 2016").
pub(crate) fn year_cue(word: &str) -> bool {
    matches!(
        word,
        "in" | "since"
            | "during"
            | "until"
            | "till"
            | "by"
            | "from"
            | "after"
            | "before"
            | "circa"
            | "year"
            | "years"
            | "summer"
            | "winter"
            | "spring"
            | "autumn"
            | "season"
            | "early"
            | "late"
            | "mid"
            | "end"
            | "through"
            | "throughout"
            | "in-"
            | "fiscal"
            | "fy"
            | "class"
            | "born"
            | "founded"
            | "established"
            | "vintage"
            | "model"
            | "the"
            | "this"
            | "that"
            | "its"
            | "his"
            | "her"
            | "their"
            | "and"
            | "or"
            | "to"
    )
}

/// After these a word is no longer part of a count noun ("22 goals in all").
pub fn is_function_word(word: &str) -> bool {
    matches!(
        word,
        "the"
            | "a"
            | "an"
            | "of"
            | "in"
            | "on"
            | "at"
            | "to"
            | "for"
            | "from"
            | "with"
            | "by"
            | "as"
            | "than"
            | "and"
            | "or"
            | "but"
            | "nor"
            | "that"
            | "which"
            | "who"
            | "whom"
            | "whose"
            | "this"
            | "these"
            | "those"
            | "it"
            | "its"
            | "their"
            | "his"
            | "her"
            | "our"
            | "your"
            | "my"
            | "they"
            | "them"
            | "he"
            | "she"
            | "we"
            | "you"
            | "i"
            | "was"
            | "were"
            | "is"
            | "are"
            | "be"
            | "been"
            | "being"
            | "has"
            | "have"
            | "had"
            | "will"
            | "would"
            | "could"
            | "should"
            | "can"
            | "may"
            | "might"
            | "must"
            | "shall"
            | "do"
            | "does"
            | "did"
            | "not"
            | "no"
            | "so"
            | "if"
            | "when"
            | "while"
            | "where"
            | "after"
            | "before"
            | "since"
            | "until"
            | "during"
            | "over"
            | "under"
            | "above"
            | "below"
            | "about"
            | "into"
            | "out"
            | "up"
            | "down"
            | "off"
            | "per"
            | "each"
            | "every"
            | "all"
            | "some"
            | "any"
            | "more"
            | "most"
            | "less"
            | "least"
            | "only"
            | "just"
            | "also"
            | "very"
            | "too"
            | "there"
            | "here"
            | "then"
            | "now"
            | "ago"
            | "later"
            | "earlier"
            | "such"
            | "what"
            | "how"
            | "why"
            | "between"
            | "through"
            | "against"
            | "among"
            | "around"
            | "within"
            | "without"
            | "across"
            | "behind"
            | "beyond"
            | "toward"
            | "towards"
            | "via"
            | "plus"
            | "minus"
            | "versus"
            | "vs"
            | "respectively"
            | "including"
            | "according"
            | "said"
            | "says"
            | "say"
            | "told"
            | "got"
            | "get"
            | "make"
            | "made"
            | "take"
            | "took"
            | "went"
            | "go"
            | "come"
            | "came"
            | "gave"
            | "give"
            | "left"
            | "became"
            | "become"
            | "remain"
            | "remains"
            | "both"
            | "either"
            | "neither"
            | "other"
            | "another"
            | "same"
            | "own"
            | "again"
            | "ever"
            | "never"
            | "already"
            | "still"
            | "yet"
            | "even"
            | "because"
            | "though"
            | "although"
            | "whether"
            | "instead"
            | "respective"
            | "apiece"
            | "ahead"
            | "away"
            | "back"
            | "like"
            | "unlike"
            | "near"
            | "once"
            | "twice"
            | "thanks"
            | "last"
            | "next"
            | "past"
    )
}

/// Words that, right before "one", make it a pronoun rather than a count ("each one", "the one").
pub(crate) fn pronoun_one_cue(word: &str) -> bool {
    matches!(
        word,
        "the"
            | "each"
            | "this"
            | "that"
            | "every"
            | "any"
            | "no"
            | "which"
            | "another"
            | "some"
            | "someone"
            | "anyone"
            | "everyone"
            | "no-one"
            | "little"
            | "big"
            | "new"
            | "old"
            | "right"
            | "wrong"
            | "last"
            | "first"
            | "next"
            | "only"
            | "latest"
            | "best"
            | "worst"
            | "good"
            | "bad"
            | "such"
    )
}

/// Condition phrases before a number, longest first within each entry's class. Each is a list of
/// lower-cased words that must end right before the number (fillers aside, see `is_filler`).
pub(crate) const PREFIX_CONDITIONS: &[(&[&str], Change)] = &[
    // Bounds.
    (&["more", "than"], Change::Above),
    (&["greater", "than"], Change::Above),
    (&["higher", "than"], Change::Above),
    (&["larger", "than"], Change::Above),
    (&["bigger", "than"], Change::Above),
    (&["longer", "than"], Change::Above),
    (&["older", "than"], Change::Above),
    (&["over", "than"], Change::Above),
    (&["in", "excess", "of"], Change::Above),
    (&["upwards", "of"], Change::Above),
    (&["upward", "of"], Change::Above),
    (&["north", "of"], Change::Above),
    (&["well", "over"], Change::Above),
    (&["just", "over"], Change::Above),
    (&["over"], Change::Above),
    (&["above"], Change::Above),
    (&["exceeding"], Change::Above),
    (&["exceeds"], Change::Above),
    (&["exceeded"], Change::Above),
    (&["exceed"], Change::Above),
    (&["surpassed"], Change::Above),
    (&["surpassing"], Change::Above),
    (&["topping"], Change::Above),
    (&["beyond"], Change::Above),
    (&[">"], Change::Above),
    (&["at", "least"], Change::AtLeast),
    (&["no", "less", "than"], Change::AtLeast),
    (&["no", "fewer", "than"], Change::AtLeast),
    (&["not", "less", "than"], Change::AtLeast),
    (&["a", "minimum", "of"], Change::AtLeast),
    (&["minimum", "of"], Change::AtLeast),
    (&["minimum"], Change::AtLeast),
    (&["≥"], Change::AtLeast),
    (&[">", "="], Change::AtLeast),
    (&["no", "more", "than"], Change::AtMost),
    (&["not", "more", "than"], Change::AtMost),
    (&["a", "maximum", "of"], Change::AtMost),
    (&["maximum", "of"], Change::AtMost),
    (&["maximum"], Change::AtMost),
    (&["at", "most"], Change::AtMost),
    (&["up", "to"], Change::AtMost),
    (&["as", "many", "as"], Change::AtMost),
    (&["as", "much", "as"], Change::AtMost),
    (&["≤"], Change::AtMost),
    (&["<", "="], Change::AtMost),
    (&["less", "than"], Change::Below),
    (&["fewer", "than"], Change::Below),
    (&["lower", "than"], Change::Below),
    (&["smaller", "than"], Change::Below),
    (&["shorter", "than"], Change::Below),
    (&["cheaper", "than"], Change::Below),
    (&["younger", "than"], Change::Below),
    (&["just", "under"], Change::Below),
    (&["just", "below"], Change::Below),
    (&["shy", "of"], Change::Below),
    (&["short", "of"], Change::Below),
    (&["under"], Change::Below),
    (&["below"], Change::Below),
    (&["beneath"], Change::Below),
    (&["<"], Change::Below),
    // Approximation.
    (&["close", "to"], Change::Approx),
    (&["more", "or", "less"], Change::Approx),
    (&["in", "the", "region", "of"], Change::Approx),
    (&["on", "the", "order", "of"], Change::Approx),
    (&["an", "estimated"], Change::Approx),
    (&["estimated"], Change::Approx),
    (&["about"], Change::Approx),
    (&["around"], Change::Approx),
    (&["approximately"], Change::Approx),
    (&["approx"], Change::Approx),
    (&["roughly"], Change::Approx),
    (&["nearly"], Change::Approx),
    (&["almost"], Change::Approx),
    (&["circa"], Change::Approx),
    (&["ca"], Change::Approx),
    (&["some"], Change::Approx),
    (&["approaching"], Change::Approx),
    (&["~"], Change::Approx),
    (&["≈"], Change::Approx),
    (&["∼"], Change::Approx),
    // The level a movement reached ("edged up to 4.1%"), as "rose to": the value, not a bound.
    (&["edged", "up", "to"], Change::Equal),
    (&["ticked", "up", "to"], Change::Equal),
    (&["crept", "up", "to"], Change::Equal),
    (&["moved", "up", "to"], Change::Equal),
    // Change over time.
    (&["edged", "up"], Change::Up),
    (&["ticked", "up"], Change::Up),
    (&["up"], Change::Up),
    (&["rose"], Change::Up),
    (&["rise"], Change::Up),
    (&["rises"], Change::Up),
    (&["rising"], Change::Up),
    (&["risen"], Change::Up),
    (&["increased"], Change::Up),
    (&["increase"], Change::Up),
    (&["increases"], Change::Up),
    (&["increasing"], Change::Up),
    (&["gained"], Change::Up),
    (&["added"], Change::Up),
    (&["adds"], Change::Up),
    (&["adding"], Change::Up),
    (&["advancing"], Change::Up),
    (&["rallying"], Change::Up),
    (&["rallies"], Change::Up),
    (&["recovered"], Change::Up),
    (&["gain"], Change::Up),
    (&["gains"], Change::Up),
    (&["gaining"], Change::Up),
    (&["jumped"], Change::Up),
    (&["jump"], Change::Up),
    (&["jumps"], Change::Up),
    (&["climbed"], Change::Up),
    (&["climbs"], Change::Up),
    (&["climbing"], Change::Up),
    (&["grew"], Change::Up),
    (&["grown"], Change::Up),
    (&["grows"], Change::Up),
    (&["growth"], Change::Up),
    (&["advanced"], Change::Up),
    (&["advances"], Change::Up),
    (&["soared"], Change::Up),
    (&["surged"], Change::Up),
    (&["rallied"], Change::Up),
    (&["boosted"], Change::Up),
    (&["spiked"], Change::Up),
    (&["upped"], Change::Up),
    (&["strengthened"], Change::Up),
    (&["firmed"], Change::Up),
    (&["rebounded"], Change::Up),
    (&["soaring"], Change::Up),
    (&["surging"], Change::Up),
    (&["jumping"], Change::Up),
    (&["edged", "down"], Change::Down),
    (&["ticked", "down"], Change::Down),
    (&["down"], Change::Down),
    (&["fell"], Change::Down),
    (&["fall"], Change::Down),
    (&["falls"], Change::Down),
    (&["falling"], Change::Down),
    (&["fallen"], Change::Down),
    (&["dropped"], Change::Down),
    (&["drop"], Change::Down),
    (&["drops"], Change::Down),
    (&["dropping"], Change::Down),
    (&["declined"], Change::Down),
    (&["decline"], Change::Down),
    (&["declines"], Change::Down),
    (&["declining"], Change::Down),
    (&["decreased"], Change::Down),
    (&["decrease"], Change::Down),
    (&["decreases"], Change::Down),
    (&["lost"], Change::Down),
    (&["lose"], Change::Down),
    (&["loses"], Change::Down),
    (&["losing"], Change::Down),
    (&["slid"], Change::Down),
    (&["slides"], Change::Down),
    (&["slipped"], Change::Down),
    (&["slips"], Change::Down),
    (&["plunged"], Change::Down),
    (&["plummeted"], Change::Down),
    (&["plummeting"], Change::Down),
    (&["tumbled"], Change::Down),
    (&["sank"], Change::Down),
    (&["sunk"], Change::Down),
    (&["dipped"], Change::Down),
    (&["dips"], Change::Down),
    (&["shed"], Change::Down),
    (&["sheds"], Change::Down),
    (&["eased"], Change::Down),
    (&["retreated"], Change::Down),
    (&["slumped"], Change::Down),
    (&["shrank"], Change::Down),
    (&["shrunk"], Change::Down),
    (&["contracted"], Change::Down),
    (&["cut"], Change::Down),
    (&["reduced"], Change::Down),
    (&["lowered"], Change::Down),
    (&["weakened"], Change::Down),
    (&["softened"], Change::Down),
    (&["skidded"], Change::Down),
    (&["tumbling"], Change::Down),
    (&["tumbles"], Change::Down),
    (&["plunges"], Change::Down),
    (&["slipping"], Change::Down),
    (&["sliding"], Change::Down),
    (&["shedding"], Change::Down),
    (&["sagged"], Change::Down),
    (&["retreating"], Change::Down),
    (&["dipping"], Change::Down),
    (&["weakening"], Change::Down),
    (&["sinking"], Change::Down),
    (&["slumping"], Change::Down),
    (&["sliding"], Change::Down),
    (&["slumping"], Change::Down),
];

/// Condition phrases after a quantity ("50 or more", "20 kg or less").
pub(crate) const SUFFIX_CONDITIONS: &[(&[&str], Change)] = &[
    (&["or", "more"], Change::AtLeast),
    (&["or", "above"], Change::AtLeast),
    (&["or", "higher"], Change::AtLeast),
    (&["or", "greater"], Change::AtLeast),
    (&["or", "over"], Change::AtLeast),
    (&["and", "above"], Change::AtLeast),
    (&["and", "up"], Change::AtLeast),
    (&["and", "over"], Change::AtLeast),
    (&["at", "least"], Change::AtLeast),
    (&["plus"], Change::AtLeast),
    (&["+"], Change::AtLeast),
    (&["or", "less"], Change::AtMost),
    (&["or", "fewer"], Change::AtMost),
    (&["or", "below"], Change::AtMost),
    (&["or", "lower"], Change::AtMost),
    (&["or", "under"], Change::AtMost),
    (&["and", "below"], Change::AtMost),
    (&["and", "under"], Change::AtMost),
    (&["at", "most"], Change::AtMost),
    (&["or", "so"], Change::Approx),
];

/// Words skipped between a condition and its number ("rose by just 3%").
pub(crate) fn is_filler(word: &str) -> bool {
    matches!(
        word,
        "by" | "just"
            | "only"
            | "a"
            | "an"
            | "average"
            | "total"
            | "of"
            | "sharply"
            | "slightly"
            | "from"
    )
}

/// Words that mark a temperature reading nearby, for "degrees" and "C"/"F".
pub(crate) fn temperature_cue(word: &str) -> bool {
    matches!(
        word,
        "temperature"
            | "temperatures"
            | "weather"
            | "hot"
            | "cold"
            | "warm"
            | "warmer"
            | "cooler"
            | "colder"
            | "hotter"
            | "heat"
            | "heatwave"
            | "freezing"
            | "celsius"
            | "fahrenheit"
            | "centigrade"
            | "thermometer"
            | "climate"
            | "warming"
            | "oven"
            | "fever"
            | "frost"
            | "highs"
            | "lows"
    )
}

/// Words that make "pound(s)" money rather than weight.
pub(crate) fn money_cue(word: &str) -> bool {
    matches!(
        word,
        "price"
            | "prices"
            | "share"
            | "shares"
            | "stock"
            | "stocks"
            | "cost"
            | "costs"
            | "paid"
            | "pay"
            | "pays"
            | "worth"
            | "sold"
            | "bought"
            | "buy"
            | "fund"
            | "funds"
            | "funding"
            | "budget"
            | "salary"
            | "wage"
            | "wages"
            | "sterling"
            | "bank"
            | "banks"
            | "deal"
            | "fine"
            | "fined"
            | "profit"
            | "profits"
            | "revenue"
            | "revenues"
            | "investment"
            | "invest"
            | "invested"
            | "spend"
            | "spent"
            | "spending"
            | "raise"
            | "raised"
            | "tax"
            | "taxes"
            | "debt"
            | "loan"
            | "loans"
            | "bonus"
            | "fee"
            | "fees"
            | "earn"
            | "earned"
            | "earnings"
            | "sales"
            | "contract"
            | "valued"
            | "valuation"
            | "uk"
            | "britain"
            | "british"
            | "london"
            | "england"
    )
}

/// Words that make "pound(s)" a weight.
pub(crate) fn mass_cue(word: &str) -> bool {
    matches!(
        word,
        "weigh"
            | "weighs"
            | "weighed"
            | "weighing"
            | "weight"
            | "weights"
            | "heavy"
            | "heavier"
            | "lighter"
            | "mass"
            | "lose"
            | "lost"
            | "gained"
            | "kg"
            | "kilograms"
            | "ounces"
            | "tons"
            | "tonnes"
            | "beef"
            | "meat"
            | "fish"
            | "flour"
            | "sugar"
            | "butter"
            | "cargo"
            | "payload"
            | "baby"
            | "body"
    )
}
