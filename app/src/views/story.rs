//! Which evidence an answer page tells its story with (issue 87): the passages the answer rests
//! on before the others, and only the count phrases of the thing counted in its groups.

use tally_types::count::{Cnp, CnpClass, CnpGroups, SnippetAnswer};

/// The groups' count phrases that name the counted thing (`head`, singular: "island"), so that a
/// page about islands does not list "700 languages" as a part of them; all of them when the
/// question names nothing to count.
pub fn of_the_counted(groups: CnpGroups, head: &str) -> CnpGroups {
    let head = head.trim().to_lowercase();
    // Four letters reach the plural and most inflections ("island" → "islands").
    let stem: String = head
        .chars()
        .take(head.chars().count().clamp(0, 4).max(3))
        .collect();
    if stem.chars().count() < 3 {
        return groups;
    }
    let names = |cnps: Vec<Cnp>| -> Vec<Cnp> {
        cnps.into_iter()
            .filter(|c| c.text.to_lowercase().contains(&stem))
            .collect()
    };
    CnpGroups {
        synonyms: names(groups.synonyms),
        subgroups: names(groups.subgroups),
        incomparables: names(groups.incomparables),
    }
}

/// The snippets an answer rests on and the others, in their order: the passage a structured
/// reading read, or those whose chosen count phrase counts the same thing as the answer (every
/// snippet when none does, so that nothing is hidden behind a fold for no reason).
pub fn rests_on(
    snippets: Vec<SnippetAnswer>,
    structured: Option<&str>,
) -> (Vec<SnippetAnswer>, Vec<SnippetAnswer>) {
    let rests = |s: &SnippetAnswer| match structured {
        Some(id) => s.id == id,
        None => s.spans.iter().any(|span| {
            span.chosen
                && span.used
                && matches!(
                    span.cnp_class,
                    Some(CnpClass::Representative) | Some(CnpClass::Synonym)
                )
        }),
    };
    if !snippets.iter().any(rests) {
        return (snippets, Vec::new());
    }
    snippets.into_iter().partition(|s| rests(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cnp(text: &str) -> Cnp {
        Cnp {
            snippet_id: "s".into(),
            text: text.into(),
            count: 1.0,
            confidence: 0.5,
        }
    }

    #[test]
    fn groups_keep_the_count_phrases_of_the_counted_thing() {
        let groups = CnpGroups {
            synonyms: vec![cnp("more than 17,000 islands")],
            subgroups: vec![cnp("about 700 languages"), cnp("6,000 inhabited islands")],
            incomparables: vec![cnp("38 provinces")],
        };
        let kept = of_the_counted(groups, "island");
        assert_eq!(kept.synonyms.len(), 1);
        assert_eq!(kept.subgroups, vec![cnp("6,000 inhabited islands")]);
        assert!(kept.incomparables.is_empty());
    }
}
