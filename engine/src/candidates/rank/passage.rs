//! A passage's features for the ranker (issue 99): how the passage and the sentence holding
//! a stated number meet the question — its words around the number, a label before it, the
//! thing counted after it, the question's numbers and the measure's dimension.

use std::collections::BTreeSet;

use super::super::asked::Asked;
use super::super::plan::numbers_in;
use super::super::{normalized, PassageReading};
use super::{dimension_features, numbers_named_features, Features};

/// How a passage meets the question: the share of the question's words its heading and its
/// text hold, and for a number it states, the words around the number ("9 were vacant" against
/// "how many plots were vacant") and whether the thing counted follows it.
pub(super) fn passage_features(
    f: &mut Features,
    asked: &Asked,
    context: &str,
    text: &str,
    what: PassageReading,
    value: f64,
) {
    f.add("passage context named", asked.names(context));
    let share_of_question = |words: &str| -> f32 {
        let held: BTreeSet<&str> = words.split(' ').collect();
        let named = asked
            .words
            .iter()
            .filter(|w| held.contains(w.as_str()))
            .count();
        named as f32 / asked.words.len().max(1) as f32
    };
    let whole = normalized(&format!("{context} {text}"));
    f.add("passage covers question", share_of_question(&whole));
    if what == PassageReading::Items {
        return;
    }
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let Some(at) = tokens
        .iter()
        .position(|t| numbers_in(t).iter().any(|n| (n - value).abs() < 1e-9))
    else {
        f.flag("passage number in words");
        return;
    };
    let around = normalized(&tokens[at.saturating_sub(6)..(at + 7).min(tokens.len())].join(" "));
    f.add(
        "passage near number covers question",
        share_of_question(&around),
    );
    // The sentence the number is in: from the last full stop before it to the next one.
    let ends_sentence = |t: &&str| t.ends_with(['.', '!', '?', ';']);
    let start = tokens[..at]
        .iter()
        .rposition(ends_sentence)
        .map_or(0, |i| i + 1);
    let end = tokens[at..]
        .iter()
        .position(ends_sentence)
        .map_or(tokens.len(), |i| at + i + 1);
    let written = tokens[start..end].join(" ");
    numbers_named_features(f, asked, &written);
    let unit = tally_text::quantity::extract(&written)
        .into_iter()
        .find(|q| matches!(q.value, tally_text::quantity::Value::Single(v) if (v - value).abs() < 1e-9))
        .map(|q| q.unit.and_then(|u| u.dimension));
    if let Some(dimension) = unit {
        dimension_features(f, asked, "", dimension.as_deref());
    }
    let sentence = normalized(&written);
    f.add(
        "passage sentence covers question",
        share_of_question(&sentence),
    );
    label_features(f, asked, &tokens, at);
    // A dated entry names its year once, at its head ("1985 — A second shop opens … Staff: 9."):
    // the question's numbers anywhere before the number in the passage.
    if !asked.numbers.is_empty() {
        let before = numbers_in(&tokens[..at].join(" "));
        let held = asked
            .numbers
            .iter()
            .all(|n| before.iter().any(|h| (h - n).abs() < 1e-9));
        f.flag(if held {
            "passage question numbers before number"
        } else {
            "passage question numbers not before number"
        });
    }
    // Words of the question neither the heading nor the sentence holds ("year 6", "finally"):
    // a sentence that answers a neighbouring question.
    let read = normalized(&format!("{context} {written}"));
    let missing = 1.0 - share_of_question(&read);
    f.add("passage question words missing", missing);
    if missing > 0.0 {
        f.flag("passage some question word missing");
    }
    let nearest = tokens
        .iter()
        .enumerate()
        .filter(|(i, t)| *i != at && normalized(t).split(' ').any(|w| asked.words.contains(w)))
        .map(|(i, _)| i.abs_diff(at))
        .min();
    f.add(
        "passage nearest question word",
        nearest.map_or(0.0, |d| 1.0 / d as f32),
    );
    let after =
        normalized(&tokens[(at + 1).min(tokens.len())..(at + 4).min(tokens.len())].join(" "));
    if let Some(counted) = &asked.counted {
        let flag = if after.split(' ').any(|w| w == counted) {
            "passage counted follows number"
        } else if around.split(' ').any(|w| w == counted) {
            "passage counted near number"
        } else {
            "passage counted not near number"
        };
        f.flag(flag);
    }
    let first = tokens
        .iter()
        .position(|t| !numbers_in(t).is_empty())
        .is_some_and(|first| first == at);
    f.flag(if first {
        "passage first number"
    } else {
        "passage later number"
    });
}

/// The words right before and after a stated number: a label ("Fleet: 44", "Height: 58 cm")
/// the question names, and a word beside it that the question names loosely ("winning 21" for
/// "how many matches did … win").
fn label_features(f: &mut Features, asked: &Asked, tokens: &[&str], at: usize) {
    let label_end = at.checked_sub(1).filter(|&i| tokens[i].ends_with(':'));
    if let Some(end) = label_end {
        let start = tokens[..end]
            .iter()
            .rposition(|t| t.ends_with(['.', ';', ':', '!', '?']))
            .map_or(0, |i| i + 1);
        let label = tokens[start..=end].join(" ");
        let named = asked.names_loosely(&label);
        f.flag(if named > 0.0 {
            "passage label named"
        } else {
            "passage label not named"
        });
        f.add("passage label named share", named);
    }
    let beside = tokens[at.saturating_sub(2)..(at + 3).min(tokens.len())]
        .iter()
        .enumerate()
        .filter(|(i, _)| at.saturating_sub(2) + i != at)
        .flat_map(|(_, t)| {
            normalized(t)
                .split(' ')
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .any(|w| {
            w.len() >= 3
                && asked.words.iter().any(|q| {
                    q.len() >= 3 && asked.counted.as_ref().is_none_or(|c| c != q) && {
                        let stem: String = q.chars().take(4).collect();
                        w.starts_with(&stem) || q.starts_with(&w)
                    }
                })
        });
    if beside {
        f.flag("passage word beside number named");
    }
}
