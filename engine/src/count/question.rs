//! Question analysis without external NLP services: full questions ("how many songs did Lennon
//! write?") and keyword queries ("songs by lennon") → the answer type (head noun with its
//! modifiers, singular), the other content phrases (entities), content terms, and the "how many
//! X" → "which X" rewrite used to look for instances.

pub(crate) use tally_types::count::answer::QuestionAnalysis;

use tally_text::quantity::{is_function_word, singular};

/// Phrases that introduce the counted noun.
const COUNT_CUES: &[&[&str]] = &[
    &["how", "many"],
    &["how", "much"],
    &["total", "number", "of"],
    &["number", "of"],
    &["count", "of"],
];

/// Words that end a noun phrase and are never content terms: the extractor's function words
/// plus the words questions add ("how many", "exist", "currently").
pub fn is_stop(word: &str) -> bool {
    is_function_word(word)
        || matches!(
            word,
            "many"
                | "much"
                | "total"
                | "number"
                | "exist"
                | "exists"
                | "currently"
                | "finally"
                | "originally"
                | "eventually"
                | "still"
                | "altogether"
                | "right"
                | "far"
        )
}

/// Lower-case words of a text, apostrophes kept inside words ("don't").
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .map(|w| w.trim_matches(|c| c == '\'' || c == '-').to_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

/// Analyses a question or keyword query.
pub fn analyse(question: &str) -> QuestionAnalysis {
    let question = question.trim();
    let w = words(question);
    let cue = find_cue(&w);
    let (type_start, has_count_cue) = match cue {
        Some((start, len)) => (start + len, true),
        None => (0, false),
    };
    // The answer type: content words right after the cue (for a keyword query, the first content
    // words), stopping at a function word, a verb-like word or the end.
    let mut start = type_start;
    while start < w.len() && is_stop(&w[start]) {
        start += 1;
    }
    let mut end = start;
    // The question's verb, when the words say where it is: it is no part of the subject.
    let mut verb: Option<usize> = None;
    while end < w.len() && !is_stop(&w[end]) && (end == start || !is_participle(&w[end])) {
        end += 1;
        // Questions put the head noun right before an auxiliary; keyword queries before a
        // preposition. More than four words is no longer a noun phrase.
        if end - start >= 4 {
            break;
        }
        // A plural noun followed by a content word that is not one ends the type: that word is
        // the question's verb ("how many streams feed lake morrow", "volunteers help …").
        let this = &w[end - 1];
        if let Some(next) = w.get(end) {
            if is_plural(this) && !is_stop(next) && !is_plural(next) {
                verb = Some(end);
                break;
            }
        }
    }
    if has_count_cue && verb.is_none() {
        verb = verb_after_subject(&w, end);
    }
    let type_words = &w[start..end];
    let answer_type = type_words.join(" ");
    let head = type_words.last().map(|h| singular(h)).unwrap_or_default();
    let answer_type_singular = match type_words.split_last() {
        Some((_, mods)) if !mods.is_empty() => format!("{} {head}", mods.join(" ")),
        _ => head.clone(),
    };

    let mut entities = Vec::new();
    let mut phrase: Vec<&str> = Vec::new();
    for (i, word) in w.iter().enumerate() {
        let in_cue = cue.is_some_and(|(s, l)| i >= s && i < s + l);
        let is_verb = verb == Some(i) || is_verb_like(word);
        if (start..end).contains(&i) || in_cue || is_stop(word) || is_verb {
            if !phrase.is_empty() {
                entities.push(phrase.join(" "));
                phrase.clear();
            }
        } else {
            phrase.push(word);
        }
    }
    if !phrase.is_empty() {
        entities.push(phrase.join(" "));
    }
    // A lone verb is not an entity ("write", "spoken").
    entities.retain(|e| e.contains(' ') || !is_verb_like(e));

    let terms = w.iter().filter(|x| !is_stop(x)).cloned().collect();
    let which_question = match cue {
        Some((s, l)) => {
            let rest = w[s + l..].join(" ");
            let before = w[..s].join(" ");
            format!("{before} which {rest}").trim().to_string()
        }
        None => format!("which {}", w.join(" ")),
    };
    QuestionAnalysis {
        question: question.to_string(),
        has_count_cue,
        answer_type,
        answer_type_singular,
        head,
        entities,
        terms,
        which_question,
    }
}

/// Auxiliaries that put the subject before the question's verb ("how many ferries does Tessar
/// Lines operate"). Forms of "be" and "have" are left out: "how many pupils are on roll", "how
/// many albums has Adele released" (a participle, found as such).
const AUXILIARIES: &[&str] = &[
    "do", "does", "did", "can", "could", "will", "would", "should", "may", "might", "must",
];

/// The verb of "how many ‹type› ‹auxiliary› ‹subject› ‹verb› …": the last word of the run of
/// content words after the auxiliary, when the run holds at least two ("tessar lines operate",
/// "whinstead water trust receive in q3"). A verb read into the subject made passages about
/// Tessar Lines look unrelated to the question, since none of them says "operate".
fn verb_after_subject(w: &[String], type_end: usize) -> Option<usize> {
    let aux = type_end
        + w[type_end..]
            .iter()
            .position(|x| !is_stop(x) || is_aux(x))?;
    if !is_aux(&w[aux]) {
        return None;
    }
    let start = aux + 1 + w[aux + 1..].iter().position(|x| !is_stop(x))?;
    let end = start + w[start..].iter().take_while(|x| !is_stop(x)).count();
    // "does the Eiffel Tower have": the verb is the word after the run.
    let verb_follows = w
        .get(end)
        .is_some_and(|next| VERB_STOPS.contains(&next.as_str()));
    (end - start >= 2 && !verb_follows).then_some(end - 1)
}

/// Function words that are the question's verb when they follow its subject.
const VERB_STOPS: &[&str] = &[
    "have", "has", "had", "do", "does", "did", "be", "is", "are", "was", "were", "been", "get",
    "got",
];

fn is_aux(word: &str) -> bool {
    AUXILIARIES.contains(&word)
}

/// Whether a word is a plural noun ("streams", "people").
fn is_plural(word: &str) -> bool {
    singular(word) != word || matches!(word, "people" | "children" | "men" | "women" | "staff")
}

fn find_cue(w: &[String]) -> Option<(usize, usize)> {
    (0..w.len()).find_map(|i| {
        COUNT_CUES
            .iter()
            .find(|cue| w.len() >= i + cue.len() && cue.iter().zip(&w[i..]).all(|(a, b)| a == b))
            .map(|cue| (i, cue.len()))
    })
}

/// Past participles and -ing forms end the answer type in keyword queries ("languages spoken").
fn is_participle(word: &str) -> bool {
    (word.len() > 4 && (word.ends_with("ed") || word.ends_with("ing")))
        || matches!(
            word,
            "spoken" | "written" | "made" | "sold" | "won" | "built"
        )
}

fn is_verb_like(word: &str) -> bool {
    is_participle(word)
        || matches!(
            word,
            "write"
                | "wrote"
                | "speak"
                | "play"
                | "played"
                | "sing"
                | "make"
                | "win"
                | "live"
                | "attend"
                | "paint"
                | "held"
                | "sent"
                | "go"
                | "going"
                | "elected"
                | "compose"
                | "approve"
                | "participated"
                | "translated"
                | "get"
                | "got"
                | "own"
                | "use"
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_question() {
        let a = analyse("how many songs did paul mccartney write for the beatles ");
        assert!(a.has_count_cue);
        assert_eq!(a.answer_type, "songs");
        assert_eq!(a.head, "song");
        assert_eq!(a.entities, vec!["paul mccartney", "beatles"]);
        assert_eq!(
            a.which_question,
            "which songs did paul mccartney write for the beatles"
        );
    }

    #[test]
    fn modifiers_and_singular() {
        let a = analyse("How many Indian elephants are there in the world?");
        assert_eq!(a.answer_type, "indian elephants");
        assert_eq!(a.answer_type_singular, "indian elephant");
        assert_eq!(a.head, "elephant");
        assert_eq!(a.entities, vec!["world"]);
        let a = analyse("As of 2009, how many people lived in Somalia?");
        assert_eq!(a.head, "people");
        assert_eq!(a.which_question, "as of 2009 which people lived in somalia");
    }

    #[test]
    fn the_verb_after_the_subject_is_no_part_of_it() {
        let entities = |q: &str| analyse(q).entities;
        assert_eq!(
            entities("how many ferries does Tessar Lines operate"),
            vec!["tessar lines"]
        );
        assert_eq!(
            entities("how many written complaints did whinstead water trust receive in q3 2024"),
            vec!["whinstead water trust", "q3 2024"]
        );
        assert_eq!(
            entities("how many apprentices work at wrenfield buses"),
            vec!["wrenfield buses"]
        );
        assert_eq!(
            entities("how many streams feed lake morrow"),
            vec!["lake morrow"]
        );
        // A one-word subject before a verb-like stop word stays as it is.
        assert_eq!(
            entities("how many moons does jupiter have"),
            vec!["jupiter"]
        );
        assert_eq!(
            entities("how many steps does the Eiffel Tower have"),
            vec!["eiffel tower"]
        );
    }

    #[test]
    fn keyword_queries() {
        let a = analyse("songs by lennon");
        assert!(!a.has_count_cue);
        assert_eq!(a.answer_type, "songs");
        assert_eq!(a.entities, vec!["lennon"]);
        assert_eq!(a.which_question, "which songs by lennon");
        let a = analyse("languages spoken in indonesia");
        assert_eq!(a.answer_type, "languages");
        assert_eq!(a.entities, vec!["indonesia"]);
        let a = analyse("number of countries in africa");
        assert!(a.has_count_cue);
        assert_eq!(a.head, "country");
    }
}
