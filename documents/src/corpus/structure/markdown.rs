//! Markdown read with pulldown-cmark: headings, lists (a bullet that is a `Label: value` line
//! is a spec line; a task list is a table of its items and their status), GFM tables with
//! their header row; a paragraph's lines are read as plain text lines are (a block of
//! `Label: value` lines, dated entries, speaker turns).

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

use super::led_lists::list_line;
use super::lines::{push_grid, push_table, read_group};
use super::tasks::task_rows;
use super::{clean, Outline, OutlineBuilder, Record};
use crate::corpus::budget::{ReadBudget, ReadRefused, MAX_TABLE_COLUMNS};

/// What is being collected between a start and an end tag.
#[derive(Default)]
struct Collecting {
    /// The text of the innermost text block (paragraph, heading, item, cell).
    text: String,
    /// The items of the list being read (nested lists add to the outermost).
    items: Vec<String>,
    lists_open: usize,
    /// A table's rows (the header first when it has one) and the row being read.
    rows: Vec<Vec<String>>,
    row: Vec<String>,
    has_header: bool,
    /// The last paragraph when it ends with a colon: the lead of a list after it.
    lead: Option<String>,
    /// Short one-line paragraphs after that lead: its list ("Present:", a name a paragraph).
    led: Vec<String>,
}

impl Collecting {
    /// The list of short paragraphs after a lead, when there is one, pushed.
    fn end_led(&mut self, builder: &mut OutlineBuilder) -> Result<(), ReadRefused> {
        if self.led.is_empty() {
            return Ok(());
        }
        push_items(builder, std::mem::take(&mut self.led), self.lead.take())
    }
}

/// The outline of a Markdown text, within `budget`.
pub(crate) fn outline(text: &str, budget: &ReadBudget) -> Result<Outline, ReadRefused> {
    let mut builder = OutlineBuilder::new(budget);
    let mut c = Collecting::default();
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    for (n, event) in Parser::new_ext(text, options).enumerate() {
        if n.is_multiple_of(4096) {
            budget.check()?;
        }
        match event {
            Event::Start(Tag::Heading { .. } | Tag::Paragraph | Tag::TableCell)
                if c.lists_open == 0 =>
            {
                c.text.clear()
            }
            Event::Start(Tag::List(_)) => {
                if c.lists_open == 0 {
                    c.end_led(&mut builder)?;
                    c.items.clear();
                }
                c.lists_open += 1;
            }
            Event::Start(Tag::Item) => c.text.clear(),
            Event::Start(Tag::Table(_)) => {
                c.end_led(&mut builder)?;
                c.rows.clear();
                c.has_header = false;
            }
            Event::Start(Tag::TableHead | Tag::TableRow) => c.row.clear(),
            Event::Text(t) | Event::Code(t) => c.text.push_str(&t),
            // A task's box, written as plain text writes it, for the task list's reader.
            Event::TaskListMarker(done) => c.text.push_str(if done { "[x] " } else { "[ ] " }),
            Event::SoftBreak => c.text.push('\n'),
            Event::HardBreak => c.text.push('\n'),
            Event::End(TagEnd::Heading(level)) => {
                c.end_led(&mut builder)?;
                builder.heading(level as usize, &c.text);
                c.lead = None;
            }
            Event::End(TagEnd::Paragraph) if c.lists_open == 0 => {
                let trimmed = c.text.trim_end().to_string();
                let lines: Vec<&str> = trimmed.lines().collect();
                if c.lead.is_some() && lines.len() == 1 && list_line(&trimmed) {
                    c.led.push(trimmed.clone());
                    continue;
                }
                c.end_led(&mut builder)?;
                if lines.len() == 1 && trimmed.ends_with(':') {
                    c.lead = Some(clean(trimmed.trim_end_matches(':')));
                } else {
                    read_group(&mut builder, &lines, None)?;
                    c.lead = None;
                }
            }
            Event::End(TagEnd::Item) => {
                let item = std::mem::take(&mut c.text);
                if !item.trim().is_empty() {
                    c.items.push(item);
                }
            }
            Event::End(TagEnd::List(_)) => {
                c.lists_open -= 1;
                if c.lists_open == 0 {
                    push_items(&mut builder, std::mem::take(&mut c.items), c.lead.take())?;
                }
            }
            Event::End(TagEnd::TableCell) => {
                // A GFM row has as many cells as its header, written or not: a wide header is
                // refused at its first row, before its width is repeated in every row.
                if c.row.len() == MAX_TABLE_COLUMNS {
                    return Err(ReadRefused::TooLarge(format!(
                        "a table has more than {MAX_TABLE_COLUMNS} columns; at most \
                         {MAX_TABLE_COLUMNS} are read"
                    )));
                }
                c.row.push(clean(&c.text))
            }
            Event::End(TagEnd::TableHead) => {
                c.rows.push(std::mem::take(&mut c.row));
                c.has_header = true;
            }
            Event::End(TagEnd::TableRow) => c.rows.push(std::mem::take(&mut c.row)),
            Event::End(TagEnd::Table) => push_markdown_table(&mut builder, &mut c)?,
            _ => {}
        }
    }
    c.end_led(&mut builder)?;
    builder.finish()
}

/// A list's items as one list block, each `Label: value` item as a spec line of its own; a
/// task list as a table of its items and their status.
pub(super) fn push_items(
    builder: &mut OutlineBuilder,
    items: Vec<String>,
    lead: Option<String>,
) -> Result<(), ReadRefused> {
    let cleaned: Vec<String> = items.iter().map(|item| clean(item)).collect();
    if let Some(rows) = task_rows(lead.as_deref(), &cleaned) {
        return push_grid(builder, rows, 1);
    }
    let mut plain = Vec::new();
    for item in items {
        let item = clean(&item);
        let mut one = OutlineBuilder::new(&builder.budget);
        read_group(&mut one, &[item.as_str()], None)?;
        let read = one.finish()?;
        match read.blocks.as_slice() {
            [block] if matches!(block.kind, Record::KeyValue { .. }) => {
                builder.push(block.kind.clone())
            }
            _ => plain.push(item),
        }
    }
    if !plain.is_empty() {
        builder.push(Record::List { lead, items: plain });
    }
    Ok(())
}

/// A GFM table: its header row names the columns (an empty header row means none).
fn push_markdown_table(
    builder: &mut OutlineBuilder,
    c: &mut Collecting,
) -> Result<(), ReadRefused> {
    push_headed_table(builder, std::mem::take(&mut c.rows), c.has_header)
}

/// A table whose file says whether its first row is a header (a GFM table, a Word table's
/// header row, a PDF table's header): the header names the columns, except an empty one and
/// the first row of a two-column table, which is an infobox's first line.
pub(super) fn push_headed_table(
    builder: &mut OutlineBuilder,
    mut rows: Vec<Vec<String>>,
    has_header: bool,
) -> Result<(), ReadRefused> {
    if has_header && !rows.is_empty() {
        let header = rows.remove(0);
        let header_empty = header.iter().all(|h| h.is_empty());
        if header_empty || (header.len() == 2 && rows.iter().all(|r| r.len() == 2)) {
            // An infobox written as a two-column table: its "header" is its first row.
            if !header_empty {
                rows.insert(0, header);
            }
            return push_table(builder, rows);
        }
        rows.insert(0, header);
        return push_grid(builder, rows, 1);
    }
    push_table(builder, rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_lists_spec_bullets_and_tables() {
        let outline = outline(
            "# Carn Mheall\n\n| | |\n|---|---|\n| Highest point | Carn Mheall, 412 m |\n\
             | Population (2021) | 3,480 |\n\n## Geography\n\nThe cliffs rise to 120 m.\n\n\
             Supported languages:\n\n- English\n- Welsh\n\nSpecs:\n\n- Screen: 6.1 in\n\n\
             | Team | Gold | Silver |\n|---|---|---|\n| Falcon | 8 | 5 |\n",
            &ReadBudget::default(),
        )
        .unwrap();
        assert_eq!(outline.title.as_deref(), Some("Carn Mheall"));
        let kinds: Vec<&Record> = outline.blocks.iter().map(|b| &b.kind).collect();
        assert_eq!(
            kinds[0],
            &Record::KeyValue {
                label: "Highest point".into(),
                value: "Carn Mheall, 412 m".into()
            }
        );
        assert_eq!(outline.blocks[2].sections, vec!["Geography".to_string()]);
        assert_eq!(
            kinds[3],
            &Record::List {
                lead: Some("Supported languages".into()),
                items: vec!["English".into(), "Welsh".into()]
            }
        );
        assert!(matches!(kinds[4], Record::KeyValue { label, .. } if label == "Screen"));
        assert_eq!(
            kinds[5],
            &Record::TableRow {
                header: vec!["Team".into(), "Gold".into(), "Silver".into()].into(),
                cells: vec!["Falcon".into(), "8".into(), "5".into()]
            }
        );
    }

    /// Issue 100: a name a paragraph under "Present:", and a GFM task list as its items' status.
    #[test]
    fn led_paragraphs_and_task_lists() {
        let outline = outline(
            "# AGM\n\nPresent:\n\nAnn Hale\n\nBen Ode\n\n## Actions\n\n- [ ] Book the hall\n\
             - [x] Pay the deposit\n",
            &ReadBudget::default(),
        )
        .unwrap();
        let kinds: Vec<&Record> = outline.blocks.iter().map(|b| &b.kind).collect();
        assert_eq!(
            kinds[0],
            &Record::List {
                lead: Some("Present".into()),
                items: vec!["Ann Hale".into(), "Ben Ode".into()]
            }
        );
        assert!(
            matches!(kinds[1], Record::TableRow { header, cells } if header[1] == "Status" && cells[1] == "open"),
            "{kinds:?}"
        );
    }
}

#[cfg(test)]
mod bounds {
    use super::*;

    /// Issue 70: the bound on a table's width holds for Markdown tables too, whose rows GFM
    /// pads to the header's width.
    #[test]
    fn a_wide_markdown_table_is_refused() {
        let header = format!("|{}|\n|{}|\n", "h|".repeat(5_000), "-|".repeat(5_000));
        let text = format!("{header}{}", "|5|\n".repeat(200));
        let refused = outline(&text, &ReadBudget::default()).unwrap_err();
        assert!(matches!(refused, ReadRefused::TooLarge(_)), "{refused}");
    }
}
