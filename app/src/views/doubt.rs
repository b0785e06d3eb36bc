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
                "No reliable answer in this corpus: the closest reading gives 4, but answers like it are right only 41% of the time."
            ),
            "The closest reading gives 4, but answers like it are right only 41% of the time."
        );
        assert_eq!(without_headline("none of the rows"), "None of the rows");
    }
}
