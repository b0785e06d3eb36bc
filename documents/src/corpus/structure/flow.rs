//! A document given as a flow of typed pieces — headings, paragraphs, list items, tables — as
//! the PDF, Word and PowerPoint readers give them, read into an outline the way the Markdown
//! reader reads the same pieces: consecutive list items are one list, introduced by the
//! paragraph before them when it ends with a colon (and so are short one-line paragraphs after
//! such a paragraph: "Present:", then a name a paragraph); a paragraph's lines are read as
//! plain text lines are (`Label: value`, dated entries, speaker turns); a table's header row
//! names its columns.

use super::led_lists::list_line;
use super::lines::push_grid;
use super::lines::read_group;
use super::markdown::{push_headed_table, push_items};
use super::{clean, Block, Outline, OutlineBuilder, Record};
use crate::corpus::budget::{bounded_context_part, ReadBudget, ReadRefused};

pub(super) struct Flow {
    builder: OutlineBuilder,
    items: Vec<String>,
    /// Where the list being read started: a list that runs onto the next page is one list, at
    /// the page it starts on.
    list_place: Option<String>,
    /// The last paragraph when it ends with a colon: the lead of a list after it.
    lead: Option<String>,
    pieces: usize,
}

impl Flow {
    pub(super) fn new(budget: &ReadBudget) -> Self {
        Self {
            builder: OutlineBuilder::new(budget),
            items: Vec::new(),
            list_place: None,
            lead: None,
            pieces: 0,
        }
    }

    /// Where the pieces read from now on are ("page 2", "slide 3").
    pub(super) fn at(&mut self, place: Option<String>) {
        self.builder.place = place;
    }

    /// Whether the pieces read from now on were read by OCR (their tables' columns are mended
    /// of OCR's slips).
    pub(super) fn set_read_by_ocr(&mut self, by_ocr: bool) {
        self.builder.read_by_ocr = by_ocr;
        self.builder.some_page_by_ocr |= by_ocr;
    }

    /// The document's title, when its file names one (a PDF's or a Word file's properties).
    pub(super) fn title(&mut self, title: Option<String>) {
        let title = title
            .map(|t| bounded_context_part(&clean(&t)))
            .filter(|t| !t.is_empty());
        if self.builder.outline.title.is_none() {
            self.builder.outline.title = title;
        }
    }

    pub(super) fn heading(&mut self, level: usize, text: &str) -> Result<(), ReadRefused> {
        self.end_list()?;
        self.end_lead()?;
        // The file's title said again as its first heading is the title, not a section.
        let title = self.builder.outline.title.as_deref();
        let heading = bounded_context_part(&clean(text));
        if self.builder.outline.blocks.is_empty() && title == Some(heading.as_str()) {
            return Ok(());
        }
        self.builder.heading(level.max(1), text);
        Ok(())
    }

    pub(super) fn paragraph(&mut self, text: &str) -> Result<(), ReadRefused> {
        // Short one-line paragraphs after a lead are its list ("Present:", a name a paragraph).
        if self.lead.is_some() && !text.trim().contains('\n') && list_line(text) {
            return self.list_item(text.trim());
        }
        self.tick()?;
        self.end_list()?;
        self.end_lead()?;
        let text = text.trim();
        if text.is_empty() {
            return Ok(());
        }
        let split = label_lines(text);
        let lines: Vec<&str> = split.lines().filter(|l| !l.trim().is_empty()).collect();
        if lines.len() == 1 && text.ends_with(':') {
            self.lead = Some(clean(text.trim_end_matches(':')));
            return Ok(());
        }
        read_group(&mut self.builder, &lines, None)
    }

    /// Lines laid out as a plain text's lines are (a scanned page's group of lines, its words at
    /// their columns): read as the plain text reader reads a group.
    pub(super) fn lines(&mut self, lines: &[String]) -> Result<(), ReadRefused> {
        self.tick()?;
        self.end_list()?;
        self.end_lead()?;
        let lines: Vec<&str> = lines
            .iter()
            .map(String::as_str)
            .filter(|l| !l.trim().is_empty())
            .collect();
        if lines.is_empty() {
            return Ok(());
        }
        read_group(&mut self.builder, &lines, None)
    }

    pub(super) fn list_item(&mut self, text: &str) -> Result<(), ReadRefused> {
        self.tick()?;
        if !text.trim().is_empty() {
            if self.items.is_empty() {
                self.list_place = self.builder.place.clone();
            }
            self.items.push(text.to_string());
        }
        Ok(())
    }

    /// A table's rows, the first a header when `has_header` (the file marks it so).
    pub(super) fn table(
        &mut self,
        rows: Vec<Vec<String>>,
        has_header: bool,
    ) -> Result<(), ReadRefused> {
        self.tick()?;
        self.end_list()?;
        self.end_lead()?;
        let rows: Vec<Vec<String>> = rows
            .into_iter()
            .map(|row| row.iter().map(|cell| clean(cell)).collect())
            .collect();
        // Two columns with no header row are an infobox, whatever its first row says
        // ("County | Caddingshire" names no columns).
        if !has_header && rows.iter().all(|row| row.len() == 2) {
            for row in rows {
                let [label, value] = <[String; 2]>::try_from(row).unwrap_or_default();
                if !label.is_empty() || !value.is_empty() {
                    self.builder.push(Record::KeyValue { label, value });
                }
            }
            return Ok(());
        }
        push_headed_table(&mut self.builder, rows, has_header)
    }

    /// A table's rows with its merged cells written out ([`super::grid::SpanGrid`]), the first
    /// `header_rows` marked as header by the file.
    pub(super) fn grid(
        &mut self,
        rows: Vec<Vec<String>>,
        header_rows: usize,
    ) -> Result<(), ReadRefused> {
        if header_rows <= 1 {
            return self.table(rows, header_rows == 1);
        }
        self.tick()?;
        self.end_list()?;
        self.end_lead()?;
        let rows: Vec<Vec<String>> = rows
            .into_iter()
            .map(|row| row.iter().map(|cell| clean(cell)).collect())
            .collect();
        push_grid(&mut self.builder, rows, header_rows)
    }

    /// How many blocks are read so far (a list still being read is not yet one).
    pub(super) fn blocks_read(&self) -> usize {
        self.builder.outline.blocks.len()
    }

    /// The blocks read since there were `first`.
    pub(super) fn blocks_since(&mut self, first: usize) -> &mut [Block] {
        let blocks = &mut self.builder.outline.blocks;
        let first = first.min(blocks.len());
        &mut blocks[first..]
    }

    pub(super) fn finish(mut self) -> Result<Outline, ReadRefused> {
        self.end_list()?;
        self.end_lead()?;
        self.builder.finish()
    }

    fn tick(&mut self) -> Result<(), ReadRefused> {
        self.pieces += 1;
        if self.pieces.is_multiple_of(256) {
            self.builder.budget.check()?;
        }
        Ok(())
    }

    fn end_list(&mut self) -> Result<(), ReadRefused> {
        if self.items.is_empty() {
            return Ok(());
        }
        let items = std::mem::take(&mut self.items);
        let place = std::mem::replace(&mut self.builder.place, self.list_place.take());
        let pushed = push_items(&mut self.builder, items, self.lead.take());
        self.builder.place = place;
        pushed
    }

    /// A paragraph that ended with a colon and led no list is a paragraph after all.
    fn end_lead(&mut self) -> Result<(), ReadRefused> {
        match self.lead.take() {
            Some(lead) => read_group(&mut self.builder, &[format!("{lead}:").as_str()], None),
            None => Ok(()),
        }
    }
}

/// A paragraph that starts with a run of `Label: value` lines joined into one line by a layout
/// that does not keep line breaks (a PDF's spec block: "Berths: 3 Doors: 2 Poles: 3"), split
/// back into its lines; prose the layout joined after the last value ("… Water tank: 6,800
/// litres Cycling the valley has …") becomes a line of its own, from its first capitalised word
/// after the value. Any other paragraph as it is. At least three labels, each value short.
fn label_lines(text: &str) -> std::borrow::Cow<'_, str> {
    static LABEL: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?:^|\s)([A-Z][A-Za-z]*(?: [a-z][A-Za-z]*){0,3}(?: \([^)]{1,20}\))?): \S",
        )
        .expect("the label pattern is valid")
    });
    let starts: Vec<usize> = LABEL
        .captures_iter(text)
        .filter_map(|c| c.get(1).map(|m| m.start()))
        .collect();
    let keep = std::borrow::Cow::Borrowed(text);
    if starts.len() < 3 || starts[0] != 0 || text.contains('\n') {
        return keep;
    }
    let segments: Vec<&str> = starts
        .iter()
        .enumerate()
        .map(|(n, start)| text[*start..starts.get(n + 1).copied().unwrap_or(text.len())].trim())
        .collect();
    let (last, lines) = segments.split_last().expect("three segments");
    // A value is short and ends no sentence ("No. 4417 Minnow" is no sentence's end).
    let short = |line: &&str| line.split_whitespace().count() <= 12 && !line.ends_with('.');
    if !lines.iter().all(short) {
        return keep;
    }
    let mut out = lines.join("\n");
    out.push('\n');
    // The last value ends where prose starts: a capitalised word after the value's first word,
    // followed by at least four more.
    let words: Vec<&str> = last.split_whitespace().collect();
    let label_words = last
        .split_once(": ")
        .map_or(0, |(l, _)| l.split_whitespace().count());
    let value_start = label_words + 1;
    let prose = (value_start + 1..words.len())
        .find(|&n| words[n].starts_with(|c: char| c.is_uppercase()) && words.len() - n >= 5);
    match prose {
        Some(n) => {
            out.push_str(&words[..n].join(" "));
            out.push('\n');
            out.push_str(&words[n..].join(" "));
        }
        None if short(last) => out.push_str(last),
        None => return keep,
    }
    out.push('\n');
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::{label_lines, Flow};
    use crate::corpus::budget::ReadBudget;
    use crate::corpus::structure::Record;

    /// Issue 100: a Word file keeps "Present:" and each name as paragraphs of their own.
    #[test]
    fn names_a_paragraph_each_after_a_lead_are_its_list() {
        let mut flow = Flow::new(&ReadBudget::default());
        for paragraph in [
            "Present:",
            "Ann Hale",
            "Ben Ode",
            "Cy Dunn",
            "The meeting opened.",
        ] {
            flow.paragraph(paragraph).unwrap();
        }
        let blocks = flow.finish().unwrap().blocks;
        assert_eq!(
            blocks[0].kind,
            Record::List {
                lead: Some("Present".into()),
                items: vec!["Ann Hale".into(), "Ben Ode".into(), "Cy Dunn".into()]
            }
        );
        assert!(matches!(&blocks[1].kind, Record::Paragraph(p) if p == "The meeting opened."));
    }

    /// Issue 100: a long table drawn again under its header on the next page is one table.
    #[test]
    fn a_table_continued_on_the_next_page_is_one_table() {
        let row = |cells: &[&str]| cells.iter().map(|c| c.to_string()).collect::<Vec<_>>();
        let mut flow = Flow::new(&ReadBudget::default());
        flow.at(Some("page 1".into()));
        let first = vec![
            row(&["Branch", "Area", "Loans"]),
            row(&["Kirkby", "North", "120"]),
            row(&["Moss Side", "North", "80"]),
        ];
        flow.table(first.clone(), true).unwrap();
        flow.at(Some("page 2".into()));
        let second = vec![
            row(&["Branch", "Area", "Loans"]),
            row(&["Ashton", "East", "95"]),
            row(&["Brook", "South", "60"]),
        ];
        flow.table(second, true).unwrap();
        // The same header again on the same page is another table.
        flow.table(first, true).unwrap();
        let blocks = flow.finish().unwrap().blocks;
        let kinds: Vec<&Record> = blocks.iter().map(|b| &b.kind).collect();
        let rows = |from: usize| {
            kinds[from..]
                .iter()
                .take_while(|k| matches!(k, Record::TableRow { .. }))
                .count()
        };
        assert_eq!(rows(0), 4, "{kinds:?}");
        assert_eq!(blocks[3].place.as_deref(), Some("page 2"));
        assert_eq!(
            kinds[4],
            &Record::RowNames {
                column: "Branch".into(),
                names: vec![
                    "Kirkby".into(),
                    "Moss Side".into(),
                    "Ashton".into(),
                    "Brook".into()
                ]
            }
        );
        assert!(
            matches!(kinds[5], Record::RowNames { column, names } if column == "Area" && names.len() == 3)
        );
        assert_eq!(rows(6), 2, "the table after it stays its own: {kinds:?}");
    }

    /// An office suite draws a table's caption again over its part on the next page: still one
    /// table; another paragraph between the parts makes two.
    #[test]
    fn a_tables_caption_drawn_again_on_the_next_page_keeps_it_one_table() {
        let row = |cells: &[&str]| cells.iter().map(|c| c.to_string()).collect::<Vec<_>>();
        let part = |names: [&str; 2]| {
            vec![
                row(&["Branch", "Loans"]),
                row(&[names[0], "120"]),
                row(&[names[1], "80"]),
            ]
        };
        let read = |between: &str| {
            let mut flow = Flow::new(&ReadBudget::default());
            flow.at(Some("page 1".into()));
            flow.paragraph("Libraries by branch").unwrap();
            flow.table(part(["Kirkby", "Moss Side"]), true).unwrap();
            flow.at(Some("page 2".into()));
            flow.paragraph(between).unwrap();
            flow.table(part(["Ashton", "Brook"]), true).unwrap();
            let blocks = flow.finish().unwrap().blocks;
            blocks
                .iter()
                .filter(|b| matches!(b.kind, Record::Paragraph(_)))
                .count()
        };
        assert_eq!(read("Libraries by branch"), 1);
        assert_eq!(read("The branches closed in May."), 2);
    }

    #[test]
    fn a_run_of_label_lines_joined_by_a_layout_is_split_back() {
        assert_eq!(
            label_lines("Berths: 3 Doors: 2 Packed weight: 2.45 kg Packed size: 46 x 17 cm"),
            "Berths: 3\nDoors: 2\nPacked weight: 2.45 kg\nPacked size: 46 x 17 cm\n"
        );
        // Prose joined after the last value is a line of its own.
        assert_eq!(
            label_lines("Seats: 248 Bicycles carried: 12 Water tank: 6,800 litres Cycling the valley has never been more popular."),
            "Seats: 248\nBicycles carried: 12\nWater tank: 6,800 litres\nCycling the valley has never been more popular.\n"
        );
        // A sentence with colons is a sentence.
        let sentence = "Note: the ferry sails at 9. Return: at 5 pm. Fare: £4.";
        assert_eq!(label_lines(sentence), sentence);
        assert_eq!(label_lines("Open: daily"), "Open: daily");
    }
}
