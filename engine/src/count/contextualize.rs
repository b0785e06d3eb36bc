//! Answer contextualization (CoQEx Algorithm 2): the representative count phrase (CNP_rep) and
//! every other candidate as a synonym, a subgroup or an incomparable of it.

pub(crate) use tally_types::count::answer::CnpClass;
pub(crate) use tally_types::count::settings::ContextSettings;

use tally_encoder::cosine;

/// A candidate as Algorithm 2 sees it: its count, confidence and phrase embedding.
#[derive(Debug, Clone, Copy)]
pub struct CnpInput<'a> {
    /// The candidate's count.
    pub count: f64,
    /// The candidate's confidence.
    pub confidence: f64,
    /// The embedding of its count phrase.
    pub embedding: &'a [f32],
}

/// The index of CNP_rep: the highest-confidence candidate whose count equals the prediction (or,
/// when none does, the one closest to it).
pub fn representative(candidates: &[CnpInput<'_>], prediction: f64) -> Option<usize> {
    let exact = (0..candidates.len())
        .filter(|&i| candidates[i].count == prediction)
        .max_by(|&a, &b| {
            candidates[a]
                .confidence
                .total_cmp(&candidates[b].confidence)
        });
    exact.or_else(|| {
        (0..candidates.len()).min_by(|&a, &b| {
            let da = (candidates[a].count - prediction).abs();
            let db = (candidates[b].count - prediction).abs();
            da.total_cmp(&db).then(
                candidates[b]
                    .confidence
                    .total_cmp(&candidates[a].confidence),
            )
        })
    })
}

/// Classifies every candidate against the prediction (Algorithm 2).
pub fn classify(
    candidates: &[CnpInput<'_>],
    prediction: f64,
    settings: &ContextSettings,
) -> Vec<CnpClass> {
    let Some(rep) = representative(candidates, prediction) else {
        return Vec::new();
    };
    let rep_embedding = candidates[rep].embedding;
    candidates
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if i == rep {
                return CnpClass::Representative;
            }
            let similarity = cosine(c.embedding, rep_embedding);
            if similarity <= settings.incomparable_cosine {
                CnpClass::Incomparable
            } else if (c.count - prediction).abs() <= settings.theta * prediction {
                CnpClass::Synonym
            } else if c.count < prediction * (1.0 - settings.theta) {
                CnpClass::Subgroup
            } else if settings
                .larger_synonym_cosine
                .is_some_and(|t| similarity > t)
            {
                CnpClass::Synonym
            } else {
                CnpClass::Incomparable
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn algorithm_two() {
        let same = [1.0, 0.0];
        let close = [0.8, 0.6];
        let opposite = [-1.0, 0.0];
        let c = [
            CnpInput {
                count: 700.0,
                confidence: 0.9,
                embedding: &same,
            },
            CnpInput {
                count: 700.0,
                confidence: 0.5,
                embedding: &close,
            },
            CnpInput {
                count: 650.0,
                confidence: 0.8,
                embedding: &close,
            },
            CnpInput {
                count: 17.0,
                confidence: 0.7,
                embedding: &close,
            },
            CnpInput {
                count: 300.0,
                confidence: 0.7,
                embedding: &opposite,
            },
            CnpInput {
                count: 2000.0,
                confidence: 0.6,
                embedding: &close,
            },
            CnpInput {
                count: 2000.0,
                confidence: 0.6,
                embedding: &[0.3, 0.95],
            },
        ];
        let with_larger = ContextSettings {
            larger_synonym_cosine: Some(0.5),
            ..ContextSettings::default()
        };
        let classes = classify(&c, 700.0, &with_larger);
        assert_eq!(
            classes,
            vec![
                CnpClass::Representative,
                CnpClass::Synonym,
                CnpClass::Synonym,
                CnpClass::Subgroup,
                CnpClass::Incomparable,
                // Larger count: a synonym only when its phrase is close to CNP_rep's.
                CnpClass::Synonym,
                CnpClass::Incomparable,
            ]
        );
        assert_eq!(
            classify(&c, 700.0, &ContextSettings::default())[5],
            CnpClass::Incomparable
        );
    }

    #[test]
    fn representative_is_the_most_confident_exact_count() {
        let e = [1.0];
        let c = [
            CnpInput {
                count: 5.0,
                confidence: 0.4,
                embedding: &e,
            },
            CnpInput {
                count: 5.0,
                confidence: 0.8,
                embedding: &e,
            },
            CnpInput {
                count: 6.0,
                confidence: 0.99,
                embedding: &e,
            },
        ];
        assert_eq!(representative(&c, 5.0), Some(1));
        // A median between counts has no exact match: the closest one stands for it.
        assert_eq!(representative(&c, 5.4), Some(1));
        assert_eq!(representative(&[], 5.0), None);
    }
}
