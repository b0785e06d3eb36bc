//! How sure Tally is of an answer, said the same way under every kind (issue 87): the line
//! under an answer ("Tally's estimate: 72% likely right …"), and the reason of a "Not sure"
//! headline without the headline the page already shows.

use leptos::prelude::*;
use tally_types::count::Abstention;
use tally_types::Certainty;

/// The line under an answer's headline with its probability of being right, shown when it
/// agrees with the headline (`given_as_sure`: the answer is given, not "Not sure"); an answer
/// another rule found unsure says why instead.
pub fn certainty_line(certainty: Option<Certainty>, given_as_sure: bool) -> Option<AnyView> {
    let certainty = certainty.filter(|c| c.is_sure() == given_as_sure)?;
    let class = if given_as_sure {
        "certainty muted small"
    } else {
        "certainty unsure small"
    };
    Some(
        view! {
            <p class=class id="certainty" data-probability=format!("{:.3}", certainty.probability)>
                {format!("Tally's estimate: {}.", certainty.sentence())}
            </p>
        }
        .into_any(),
    )
}

/// The probability line of an answer not given as sure, unless its reason says the
/// probability already (in the same words: one scale of doubt, said once).
pub fn unsure_line(certainty: Option<Certainty>, reason: Option<&str>) -> Option<AnyView> {
    if reason.is_some_and(|r| r.contains(tally_types::certainty::LIKELY_RIGHT)) {
        return None;
    }
    certainty_line(certainty, false)
}

/// A declined answer's sentence without the headline ("No reliable answer in this corpus: the
/// closest reading gives 4, …" → "The closest reading gives 4, …").
pub fn without_headline(sentence: &str) -> String {
    let rest = sentence
        .strip_prefix(Abstention::HEADLINE)
        .map_or(sentence, |rest| rest.trim_start_matches([':', '.', ' ']));
    let mut chars = rest.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_headline_is_said_once() {
        assert_eq!(
            without_headline(
                "No reliable answer in this corpus: the closest reading gives 4, 41% likely right (Tally is sure from 60%)."
            ),
            "The closest reading gives 4, 41% likely right (Tally is sure from 60%)."
        );
        assert_eq!(without_headline("none of the rows"), "None of the rows");
    }
}
