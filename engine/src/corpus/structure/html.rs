//! An HTML page read through html2text's layout-keeping text (headings, list items, tables
//! drawn with `│`, definition lists), then as plain text lines are; its `<title>` names the
//! page, and its first heading is the section of what follows it.

use std::sync::LazyLock;

use regex::Regex;

use super::{lines, Outline};
use crate::corpus::budget::{ReadBudget, ReadRefused};
use crate::corpus::documents::{html_layout, html_title};

static DEFINITION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^\*([^*\n]+)\*\n[ \t]+(\S[^\n]*)$").expect("definition pattern")
});

/// The outline of an HTML page; refused past `budget` (see [`ReadBudget`]).
pub fn outline(html: &str, budget: &ReadBudget) -> Result<Outline, ReadRefused> {
    let layout = html_layout(html, budget)?;
    // A definition (`<dt>` above its indented `<dd>`) reads as a `Label: value` line.
    let layout = DEFINITION.replace_all(&layout, "$1: $2");
    let mut outline = lines::outline(&layout, budget)?;
    // The page's `<title>` names it; its first heading is then the section of what follows.
    if let Some(title) = html_title(html, budget) {
        if let Some(first) = outline.title.replace(title.clone()) {
            if first != title {
                for block in &mut outline.blocks {
                    block.sections.insert(0, first.clone());
                }
            }
        }
    }
    Ok(outline)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::structure::BlockKind;

    #[test]
    fn headings_tables_lists_and_definitions_of_a_page() {
        let page = "<html><head><title>Games</title></head><body><h1>Spring Games results</h1>\
            <p>Held in <b>May</b>.</p><h2>Medal table</h2><table><tr><th>Team</th><th>Players</th>\
            <th>Gold</th></tr><tr><td>Falcon</td><td>64</td><td>8</td></tr><tr><td>Harrier Blue</td>\
            <td>12</td><td>3</td></tr></table><ul><li>One thing</li><li>Another</li></ul>\
            <dl><dt>Battery</dt><dd>3200 mAh</dd></dl></body></html>";
        let outline = outline(page, &ReadBudget::default()).expect("read in time");
        assert_eq!(outline.title.as_deref(), Some("Games"));
        let kinds: Vec<&BlockKind> = outline.blocks.iter().map(|b| &b.kind).collect();
        assert_eq!(kinds[0], &BlockKind::Paragraph("Held in May.".into()));
        assert_eq!(
            kinds[1],
            &BlockKind::TableRow {
                header: vec!["Team".into(), "Players".into(), "Gold".into()].into(),
                cells: vec!["Falcon".into(), "64".into(), "8".into()]
            }
        );
        assert_eq!(
            outline.blocks[1].sections,
            vec![
                "Spring Games results".to_string(),
                "Medal table".to_string()
            ]
        );
        assert!(matches!(kinds[3], BlockKind::List { items, .. } if items.len() == 2));
        assert_eq!(
            kinds[4],
            &BlockKind::KeyValue {
                label: "Battery".into(),
                value: "3200 mAh".into()
            }
        );
    }
}
