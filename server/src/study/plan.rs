//! A participant's sequence of tasks, planned once when the session starts and stored with it.
//!
//! Judgements come first, so that a count is judged before the participant has seen it with more
//! evidence in a preference pair. Question order, the mode of each judgement and the pair of each
//! preference rotate from an offset drawn from the session id: each participant sees every mode
//! about equally often, and across participants every question meets every mode.

use tally_text::random::SplitMix64;
use tally_types::study::StudyTask;
use uuid::Uuid;

use super::definition::StudyDefinition;

/// The tasks of session `session` of `study`.
pub(crate) fn plan_tasks(study: &StudyDefinition, session: Uuid) -> Vec<StudyTask> {
    let mut random = SplitMix64::new(session.as_u64_pair().0 ^ session.as_u64_pair().1);
    let questions = shuffled(study.questions.len(), &mut random);
    let modes = &study.modes;
    let judgement_offset = random.below(modes.len());
    let mut tasks: Vec<StudyTask> = (0..study.judgement_tasks())
        .map(|i| StudyTask::Judgement {
            question: questions[i % questions.len()],
            mode: modes[(judgement_offset + i) % modes.len()],
        })
        .collect();
    let pairs: Vec<(usize, usize)> = (0..modes.len())
        .flat_map(|a| (a + 1..modes.len()).map(move |b| (a, b)))
        .collect();
    if !pairs.is_empty() {
        let pair_offset = random.below(pairs.len());
        let first = study.judgement_tasks();
        tasks.extend((0..study.preference_tasks()).map(|i| {
            let (a, b) = pairs[(pair_offset + i) % pairs.len()];
            // Which side a mode appears on is random, so position cannot explain a preference.
            let (left, right) = if random.next_u64() & 1 == 0 {
                (modes[a], modes[b])
            } else {
                (modes[b], modes[a])
            };
            StudyTask::Preference {
                question: questions[(first + i) % questions.len()],
                left,
                right,
            }
        }));
    }
    tasks
}

/// `0..n` in a random order (Fisher–Yates).
fn shuffled(n: usize, random: &mut SplitMix64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, random.below(i + 1));
    }
    order
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use tally_types::study::ExplanationMode;

    use super::*;

    #[test]
    fn plans_are_reproducible_balanced_and_judge_first() {
        let study = StudyDefinition::builtin(true);
        let session = Uuid::new_v4();
        let tasks = plan_tasks(&study, session);
        assert_eq!(tasks, plan_tasks(&study, session));
        assert_eq!(tasks.len(), study.task_count());
        let first_preference = tasks.iter().position(|t| t.kind() == "preference").unwrap();
        assert!(tasks[..first_preference]
            .iter()
            .all(|t| t.kind() == "judgement"));
        assert!(tasks[first_preference..]
            .iter()
            .all(|t| t.kind() == "preference"));
        // Six judgements over five modes: every mode at least once, and every question once.
        let mut per_mode: HashMap<ExplanationMode, usize> = HashMap::new();
        for t in &tasks[..first_preference] {
            if let StudyTask::Judgement { mode, .. } = t {
                *per_mode.entry(*mode).or_default() += 1;
            }
        }
        assert_eq!(per_mode.len(), 5);
        let mut judged: Vec<usize> = tasks[..first_preference]
            .iter()
            .map(StudyTask::question)
            .collect();
        judged.sort();
        assert_eq!(judged, (0..study.questions.len()).collect::<Vec<_>>());
        for t in &tasks[first_preference..] {
            if let StudyTask::Preference { left, right, .. } = t {
                assert_ne!(left, right);
            }
        }
    }

    #[test]
    fn many_sessions_cover_every_question_mode_pairing() {
        let study = StudyDefinition::builtin(false);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200 {
            for task in plan_tasks(&study, Uuid::new_v4()) {
                if let StudyTask::Judgement { question, mode } = task {
                    seen.insert((question, mode));
                }
            }
        }
        assert_eq!(seen.len(), study.questions.len() * study.modes.len());
    }
}
