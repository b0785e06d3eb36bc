//! Values looked up in tables (issue 71): the cell of the row the question names and the column
//! it names, read from the snippets' typed records, before the vote of the sentences' values.
//! "How much is the junior annual fee at Pellinghurst" is the cell of row "Junior" × column
//! "Annual fee", not the adult fee or the locker charge beside it, however well those sentences
//! match the question's other words.

use std::collections::HashSet;
use tally_documents::DocumentsError;

use super::answer::{answer, answer_in_corpus, ValueAnswer, ValueSettings};
use super::{normalise, raw_words};
use tally_documents::corpus::datasets::Snippet;
use tally_documents::corpus::structure::Record;
use tally_documents::sentence_store::index::{Document, SentenceIndex};
use tally_documents::sentence_store::observations::ObservationIndex;
use tally_documents::snippet_index::SnippetIndex;
use tally_text::quantity::is_function_word;
use tally_types::value::ValueQuestion;

/// Snippets read for a question's table cells.
const CELL_SNIPPETS: usize = 40;

/// The least share of a column's words the question must say for its cells to be read.
const COLUMN_SAID: f64 = 0.5;

/// A cell the question names: its sentence ("Junior, Annual fee: £95"), its context, and how
/// fully the question names its column (share of the column's words) and its row (names said).
#[derive(Debug, Clone, PartialEq)]
struct NamedCell {
    sentence: String,
    context: String,
    column_said: f64,
    row_said: usize,
}

/// The matching words of a text (lower-cased, normalised, function words out; numbers kept:
/// a row may be a year or a version).
fn words_of(text: &str) -> Vec<String> {
    raw_words(text)
        .map(normalise)
        .filter(|w| !w.is_empty() && !is_function_word(w))
        .collect()
}

/// The cells of `snippets`' table rows whose row and column the question names: the row by one
/// of its names (its first cell or a cell of words) said whole, the column by at least half of
/// its words; of those, the cells whose column is named most fully, then whose row is.
fn named_cells(question: &ValueQuestion, snippets: &[Snippet]) -> Vec<NamedCell> {
    let asked: HashSet<String> = words_of(&question.text).into_iter().collect();
    let said_whole = |name: &str| {
        let words = words_of(name);
        !words.is_empty() && words.iter().all(|w| asked.contains(w))
    };
    let mut cells = Vec::new();
    for snippet in snippets {
        let Some((names, values)) = snippet.record.as_deref().and_then(Record::row_values) else {
            continue;
        };
        let row_said = names.iter().filter(|n| said_whole(n)).count();
        if row_said == 0 {
            continue;
        }
        for value in values {
            let words = words_of(&value.column);
            if words.is_empty() {
                continue;
            }
            let said = words.iter().filter(|w| asked.contains(*w)).count();
            let column_said = said as f64 / words.len() as f64;
            if column_said < COLUMN_SAID {
                continue;
            }
            cells.push(NamedCell {
                sentence: value.sentence,
                context: snippet.source.clone(),
                column_said,
                row_said,
            });
        }
    }
    let Some(best) = cells
        .iter()
        .map(|c| (c.column_said, c.row_said))
        .max_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
    else {
        return Vec::new();
    };
    cells.retain(|c| (c.column_said, c.row_said) == best);
    cells
}

/// Answers a value question from the table cells it names when there are some (read as a
/// corpus of their own, so the answer shows them as its evidence), else from `observations`.
/// `snippets` is searched within `corpus` when one is given.
pub fn answer_with_tables(
    question: &ValueQuestion,
    snippets: &SnippetIndex,
    corpus: Option<&str>,
    observations: &ObservationIndex,
    settings: &ValueSettings,
) -> Result<ValueAnswer, DocumentsError> {
    // A snippet index that cannot be read leaves the sentences' answer, which still stands.
    let found = snippets
        .search_in(&question.text, CELL_SNIPPETS, corpus)
        .map(|hits| hits.into_iter().map(|h| h.snippet).collect::<Vec<_>>())
        .unwrap_or_default();
    let cells = named_cells(question, &found);
    if !cells.is_empty() {
        let tables = SentenceIndex::in_memory()?;
        let documents: Vec<Document> = cells
            .into_iter()
            .enumerate()
            .map(|(n, cell)| Document {
                id: format!("cell#{n}"),
                text: cell.sentence,
                source: cell.context.clone(),
                entity: Some(cell.context),
            })
            .collect();
        tables.add_unsplit_in("tables", &documents)?;
        let from_cells = answer(question, tables.observations(), settings)?;
        if from_cells.value.is_some() {
            return Ok(from_cells);
        }
    }
    answer_in_corpus(question, observations, settings, corpus)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::parse_question;
    use tally_documents::corpus::structure::{passages, Block, Outline};

    fn fee_table() -> Vec<Snippet> {
        let header: std::sync::Arc<[String]> =
            vec!["Membership".into(), "Annual fee".into(), "Locker".into()].into();
        let rows = [["Adult", "£320", "£40"], ["Junior", "£95", "£25"]];
        let outline = Outline {
            title: Some("Brackwell Rowing Club".into()),
            blocks: rows
                .iter()
                .map(|cells| Block {
                    kind: Record::TableRow {
                        header: header.clone(),
                        cells: cells.iter().map(|c| c.to_string()).collect(),
                    },
                    sections: vec!["Fees".into()],
                    place: None,
                    crop: None,
                })
                .collect(),
        };
        passages(&outline, "club.html")
            .into_iter()
            .map(|p| Snippet {
                id: String::new(),
                text: p.text,
                source: p.context,
                answers: Vec::new(),
                record: p.record,
            })
            .collect()
    }

    #[test]
    fn the_cell_of_the_row_and_column_the_question_names() {
        let snippets = fee_table();
        let cells = named_cells(
            &parse_question("how much is the junior annual fee at brackwell rowing club"),
            &snippets,
        );
        let sentences: Vec<&str> = cells.iter().map(|c| c.sentence.as_str()).collect();
        assert_eq!(sentences, ["Junior, Annual fee: £95"]);
        // A row the table does not have: no cell (the sentences' vote decides, or declines).
        assert!(named_cells(
            &parse_question("how much is the family annual fee at brackwell rowing club"),
            &snippets
        )
        .is_empty());
    }

    #[test]
    fn a_value_is_answered_from_the_named_cell_not_its_neighbours() {
        let index = SnippetIndex::in_memory().expect("index");
        let set = tally_documents::corpus::datasets::QuerySnippets {
            qid: String::new(),
            question: String::new(),
            snippets: fee_table(),
        };
        index.add("club", &[set]).expect("added");
        let sentences = SentenceIndex::in_memory().expect("index");
        let answer = answer_with_tables(
            &parse_question("how much is the junior annual fee at brackwell rowing club"),
            &index,
            Some("club"),
            sentences.observations(),
            &ValueSettings::default(),
        )
        .expect("answered");
        assert_eq!(answer.value, Some(95.0), "{answer:?}");
    }
}
