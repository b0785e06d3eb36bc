//! Lists a lead introduces without bullets (issue 100): the names under "Present:" written one
//! a line, or one a paragraph as a word processor keeps them. A short line ending with a colon
//! leads the short lines after it; each reader (plain text, Markdown, the flow of PDF and Office
//! pieces) asks [`list_line`] whether a line is such an item.

use super::clean;
use super::line_forms::{bullet, dated, unquote, MAX_LABEL_WORDS};

/// The most words of a line read as an item of a list a lead introduced.
const MAX_ITEM_WORDS: usize = 8;

/// Whether a line reads as one item of a list a lead introduced ("Ann Hale (chair)", "2 eggs"):
/// short, no sentence, no `Label: value`, no heading in capitals, no new lead.
pub(super) fn list_line(line: &str) -> bool {
    let line = unquote(line).trim();
    let words = line.split_whitespace().count();
    let shouting = line.chars().filter(|c| c.is_alphabetic()).count() > 3
        && !line.chars().any(char::is_lowercase);
    (1..=MAX_ITEM_WORDS).contains(&words)
        && line.chars().any(char::is_alphanumeric)
        && !line.ends_with(['.', '!', '?', ':', ';'])
        && !line.contains(": ")
        && !shouting
        && bullet(line).is_none()
        && dated(line).is_none()
}

/// The lead of a list given in the same group as its items: a short line ending with a colon
/// followed by at least two [`list_line`]s ("Present:" / "Ann Hale" / "Ben Ode"), and how many
/// items follow it.
pub(super) fn lead_of_lines(lines: &[&str]) -> Option<(String, usize)> {
    let (first, rest) = lines.split_first()?;
    let lead = unquote(first).trim().strip_suffix(':')?;
    let items = rest.iter().take_while(|l| list_line(l)).count();
    let short = (1..=MAX_LABEL_WORDS).contains(&lead.split_whitespace().count());
    (short && items >= 2).then(|| (clean(lead), items))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::corpus::budget::ReadBudget;
    use crate::corpus::structure::lines::outline;
    use crate::corpus::structure::Record;

    fn kinds(text: &str) -> Vec<Record> {
        outline(text, &ReadBudget::default())
            .unwrap()
            .blocks
            .into_iter()
            .map(|b| b.kind)
            .collect()
    }

    /// Issue 100: the names under "Present:" one a paragraph, or one a line, are its list; a
    /// task list is a table of its items and their status.
    #[test]
    fn lists_a_person_sees_as_lists() {
        let list = |lead: &str, items: &[&str]| Record::List {
            lead: Some(lead.into()),
            items: items.iter().map(|i| i.to_string()).collect(),
        };
        let blocks = kinds(
            "Minutes of the AGM\n\nPresent:\n\nAnn Hale (chair)\n\nBen Ode\n\nCy Dunn\n\n\
             The meeting opened at 7pm.\n",
        );
        assert_eq!(
            blocks[0],
            list("Present", &["Ann Hale (chair)", "Ben Ode", "Cy Dunn"])
        );
        assert!(matches!(&blocks[1], Record::Paragraph(p) if p.starts_with("The meeting")));
        let blocks = kinds("Notes\n\nApologies:\nDan Roe\nEve Sim\nThe chair welcomed all.\n");
        assert_eq!(blocks[0], list("Apologies", &["Dan Roe", "Eve Sim"]));
        assert!(matches!(&blocks[1], Record::Paragraph(_)));
        // A heading in capitals after the names is no name.
        let blocks = kinds("Present:\n\nAnn Hale\n\nBen Ode\n\nFINANCE\n\nFunds are low.\n");
        assert_eq!(blocks[0], list("Present", &["Ann Hale", "Ben Ode"]));
        let rows =
            kinds("Actions:\n- [ ] Book the hall\n- [x] Pay the deposit\n- [ ] Order chairs\n");
        let header: Arc<[String]> = vec!["Actions".to_string(), "Status".to_string()].into();
        assert_eq!(
            rows[0],
            Record::TableRow {
                header: header.clone(),
                cells: vec!["Book the hall".into(), "open".into()]
            }
        );
        assert_eq!(
            rows[1],
            Record::TableRow {
                header,
                cells: vec!["Pay the deposit".into(), "done".into()]
            }
        );
    }
}
