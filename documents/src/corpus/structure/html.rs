//! An HTML page read from its DOM (html5ever through `scraper`, issue 71): its `<title>`, its
//! headings (`h1`–`h6`), paragraphs, lists (`ul`, `ol`) with the line that introduces them,
//! tables (`th` and `td`: each row's cells under its columns), definition lists (`dt` and
//! `dd`), and dated entries (a list item or paragraph that starts with a `<time>`). Text inside
//! a paragraph is read as plain text lines are (a `Label: value` line is a spec line).

use html5ever::tendril::TendrilSink;
use scraper::{ElementRef, Html, HtmlTreeSink, Node};

use super::grid::SpanGrid;
use super::{clean, lines, Outline, OutlineBuilder, Record};
use crate::corpus::budget::{
    bounded_context_part, indents_its_lines, within_html_bounds, ReadBudget, ReadRefused,
};
use crate::corpus::html_text::Budgeted;

/// The outline of an HTML page; refused past `budget` (see [`ReadBudget`]) or past the bounds of
/// a page's shape (its nesting, its number of elements).
pub fn outline(html: &str, budget: &ReadBudget) -> Result<Outline, ReadRefused> {
    // Parsed a chunk at a time, looking at the budget between chunks: deep nesting makes the
    // parser's work grow with the square of the page.
    let parser = html5ever::driver::parse_document(
        HtmlTreeSink::new(Html::new_document()),
        Default::default(),
    );
    let mut input = Budgeted {
        inner: html.as_bytes(),
        budget,
    };
    let page = match parser.from_utf8().read_from(&mut input) {
        Ok(page) => page,
        Err(_) => {
            budget.check()?;
            // Nothing else fails on text held in memory.
            return Ok(Outline::default());
        }
    };
    budget.check()?;
    check_shape(&page, budget)?;
    let mut reader = PageReader {
        builder: OutlineBuilder::new(budget),
        line: String::new(),
        lines: Vec::new(),
        lead: None,
        seen: 0,
    };
    let title = page
        .root_element()
        .descendent_elements()
        .find(|e| e.value().name() == "title")
        .map(|e| bounded_context_part(&text_of(e)))
        .filter(|t| !t.is_empty());
    // A page that marks its content (`<main>`, or one element with `role="main"`) is read
    // there; the site's menu, banner and footer around it are not the page's text.
    let main: Vec<ElementRef<'_>> = page
        .root_element()
        .descendent_elements()
        .filter(|e| e.value().name() == "main" || e.value().attr("role") == Some("main"))
        .collect();
    match main.as_slice() {
        [content] => reader.block(*content)?,
        _ => reader.block(page.root_element())?,
    }
    reader.settle()?;
    let mut outline = reader.builder.finish()?;
    // The page's `<title>` names it; its first heading is then the section of what follows.
    if let Some(title) = title {
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

/// Refuses a page nested deeper than [`MAX_HTML_DEPTH`](crate::corpus::budget::MAX_HTML_DEPTH), with lists and quotes nested more than
/// [`MAX_HTML_INDENTS`](crate::corpus::budget::MAX_HTML_INDENTS) deep, or with more than [`MAX_HTML_ELEMENTS`](crate::corpus::budget::MAX_HTML_ELEMENTS) elements (issue 70's
/// bounds, kept for every reader of a page).
fn check_shape(page: &Html, budget: &ReadBudget) -> Result<(), ReadRefused> {
    let mut stack = vec![(page.tree.root(), 0usize, 0usize)];
    let mut elements = 0usize;
    while let Some((node, depth, indents)) = stack.pop() {
        let (depth, indents) = match node.value() {
            Node::Element(element) => {
                elements += 1;
                if elements.is_multiple_of(4096) {
                    budget.check()?;
                }
                (
                    depth + 1,
                    indents + usize::from(indents_its_lines(element.name())),
                )
            }
            _ => (depth, indents),
        };
        within_html_bounds(depth, indents, elements)?;
        for child in node.children() {
            stack.push((child, depth, indents));
        }
    }
    Ok(())
}

/// Elements whose content is not shown.
const HIDDEN: &[&str] = &[
    "head", "script", "style", "noscript", "template", "svg", "iframe", "object",
];

/// Elements that start and end a block of text of their own.
const BLOCKS: &[&str] = &[
    "p",
    "div",
    "section",
    "article",
    "main",
    "header",
    "footer",
    "aside",
    "nav",
    "blockquote",
    "figure",
    "figcaption",
    "address",
    "pre",
    "form",
    "fieldset",
    "caption",
    "details",
    "summary",
    "hr",
];

/// Walks a page's elements into an outline: running text is gathered line by line (`<br>` ends
/// a line) and read when a block ends.
struct PageReader {
    builder: OutlineBuilder,
    /// The line being gathered.
    line: String,
    /// The lines of the block being gathered.
    lines: Vec<String>,
    /// A line that ends with a colon, held for the list it may introduce.
    lead: Option<String>,
    /// Elements walked, for looks at the budget.
    seen: usize,
}

impl PageReader {
    fn block(&mut self, element: ElementRef<'_>) -> Result<(), ReadRefused> {
        self.seen += 1;
        if self.seen.is_multiple_of(1024) {
            self.builder.budget.check()?;
        }
        let name = element.value().name();
        if unseen(element) || is_boilerplate(element) {
            return Ok(());
        }
        match name {
            "sup" => {
                self.line
                    .push_str(&superscript(&self.line, &text_of(element)));
                return Ok(());
            }
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                self.settle()?;
                let level = usize::from(name.as_bytes()[1] - b'0');
                self.builder.heading(level, &text_of(element));
                return Ok(());
            }
            "ul" | "ol" | "menu" => {
                self.list(element)?;
                return Ok(());
            }
            "table" => {
                self.settle()?;
                self.table(element)?;
                return Ok(());
            }
            "dl" => {
                self.settle()?;
                self.definitions(element);
                return Ok(());
            }
            "br" => {
                self.end_line();
                return Ok(());
            }
            "p" if starts_with_time(element) => {
                self.settle()?;
                self.dated(element);
                return Ok(());
            }
            _ => {}
        }
        let is_block = BLOCKS.contains(&name);
        if is_block {
            self.flush()?;
        }
        for child in element.children() {
            match child.value() {
                Node::Text(text) => self.line.push_str(text),
                Node::Element(_) => {
                    if let Some(child) = ElementRef::wrap(child) {
                        self.block(child)?;
                    }
                }
                _ => {}
            }
        }
        if is_block {
            self.flush()?;
        }
        Ok(())
    }

    fn end_line(&mut self) {
        let line = clean(&self.line);
        if !line.is_empty() {
            self.lines.push(line);
        }
        self.line.clear();
    }

    /// Reads the gathered lines as plain text lines are read; a block that is one line ending
    /// with a colon ("Our committee:") is held for the list it may introduce.
    fn flush(&mut self) -> Result<(), ReadRefused> {
        self.end_line();
        if self.lines.is_empty() {
            return Ok(());
        }
        self.release_lead()?;
        let lines = std::mem::take(&mut self.lines);
        if let [only] = lines.as_slice() {
            if only.ends_with(':') {
                self.lead = Some(only.clone());
                return Ok(());
            }
        }
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        lines::read_group(&mut self.builder, &lines, None)
    }

    /// Reads a held lead that introduced no list as the line it is.
    fn release_lead(&mut self) -> Result<(), ReadRefused> {
        match self.lead.take() {
            Some(lead) => lines::read_group(&mut self.builder, &[lead.as_str()], None),
            None => Ok(()),
        }
    }

    /// Ends what was gathered before a block of another kind.
    fn settle(&mut self) -> Result<(), ReadRefused> {
        self.flush()?;
        self.release_lead()
    }

    /// A list: its items' own text (a list inside an item is a list of its own, introduced by
    /// the item), introduced by the paragraph before it when that ends with a colon; a list of
    /// items that each start with a `<time>` is a run of dated entries.
    fn list(&mut self, list: ElementRef<'_>) -> Result<(), ReadRefused> {
        self.flush()?;
        let lead = self
            .lead
            .take()
            .map(|lead| lead.trim_end_matches(':').trim().to_string());
        let items: Vec<ElementRef<'_>> = list
            .children()
            .filter_map(ElementRef::wrap)
            .filter(|e| e.value().name() == "li")
            .collect();
        if !items.is_empty() && items.iter().all(|item| starts_with_time(*item)) {
            for item in items {
                self.dated(item);
            }
            return Ok(());
        }
        let mut texts = Vec::new();
        let mut inner = Vec::new();
        for item in &items {
            let own = own_text(*item);
            for nested in item
                .children()
                .filter_map(ElementRef::wrap)
                .filter(|e| matches!(e.value().name(), "ul" | "ol"))
            {
                inner.push((own.clone(), nested));
            }
            if !own.is_empty() {
                texts.push(own);
            }
        }
        if !texts.is_empty() {
            self.builder.push(Record::List { lead, items: texts });
        }
        for (item, nested) in inner {
            self.lead = Some(format!("{}:", item.trim_end_matches(':')));
            self.list(nested)?;
        }
        Ok(())
    }

    /// A table's rows under its header: the first row when every cell of it is a `th` (or it
    /// sits in `thead`), each row's cells in order. A table inside a cell is read after its
    /// table, in reading order.
    fn table(&mut self, table: ElementRef<'_>) -> Result<(), ReadRefused> {
        let mut nested = Vec::new();
        // Cells placed by their `colspan` and `rowspan` (issue 85): a timetable's session
        // spanning two days lands on both, a group header over its sub-columns.
        let mut spans = SpanGrid::default();
        let mut heading_rows = true;
        let mut row_index = 0;
        for row in rows_of(table) {
            let cells: Vec<ElementRef<'_>> = row
                .children()
                .filter_map(ElementRef::wrap)
                .filter(|c| matches!(c.value().name(), "td" | "th"))
                .collect();
            if cells.is_empty() {
                continue;
            }
            let all_th = cells.iter().all(|c| c.value().name() == "th");
            let in_head = row
                .parent()
                .and_then(ElementRef::wrap)
                .is_some_and(|p| p.value().name() == "thead");
            heading_rows &= all_th || in_head;
            if heading_rows {
                spans.header_rows = row_index + 1;
            }
            for cell in cells {
                let mut text = String::new();
                text_outside_tables(cell, &mut text, &mut nested);
                let span = |name: &str| {
                    cell.value()
                        .attr(name)
                        .and_then(|v| v.trim().parse::<usize>().ok())
                        .unwrap_or(1)
                };
                spans.place(
                    row_index,
                    &clean(&text),
                    span("colspan"),
                    span("rowspan"),
                    heading_rows,
                )?;
            }
            row_index += 1;
        }
        if let Some(caption) = table
            .children()
            .filter_map(ElementRef::wrap)
            .find(|c| c.value().name() == "caption")
            .map(text_of)
            .filter(|c| !c.is_empty())
        {
            self.builder.heading(6, &caption);
        }
        lines::push_spans(&mut self.builder, spans)?;
        for inner in nested {
            self.table(inner)?;
        }
        Ok(())
    }

    /// A definition list: each term with its descriptions, as `Label: value` records.
    fn definitions(&mut self, list: ElementRef<'_>) {
        let mut term: Option<String> = None;
        let mut values: Vec<String> = Vec::new();
        let mut push = |term: &mut Option<String>, values: &mut Vec<String>| {
            if let Some(label) = term.take().filter(|t| !t.is_empty()) {
                if !values.is_empty() {
                    self.builder.push(Record::KeyValue {
                        label,
                        value: values.join("; "),
                    });
                }
            }
            values.clear();
        };
        // `dt` and `dd` may sit inside `div`s (as HTML allows).
        for element in list.descendent_elements() {
            match element.value().name() {
                "dt" => {
                    push(&mut term, &mut values);
                    term = Some(text_of(element));
                }
                "dd" => values.push(text_of(element)),
                _ => {}
            }
        }
        push(&mut term, &mut values);
    }

    /// An entry that starts with a `<time>`: the time's text is its date, the rest its text.
    fn dated(&mut self, element: ElementRef<'_>) {
        let time = element
            .descendent_elements()
            .find(|e| e.value().name() == "time");
        let date = time.map(text_of).unwrap_or_default();
        let whole = text_of(element);
        let text = whole
            .strip_prefix(date.as_str())
            .unwrap_or(&whole)
            .trim_start_matches([' ', '—', '–', '-', ':', ','])
            .trim()
            .to_string();
        if date.is_empty() {
            self.lines.push(whole);
        } else if !text.is_empty() {
            self.builder.push(Record::Dated { date, text });
        }
    }
}

/// The rows of a table (in `thead`, `tbody`, `tfoot` or directly in it), not those of a table
/// inside one of its cells.
fn rows_of<'a>(table: ElementRef<'a>) -> Vec<ElementRef<'a>> {
    let mut rows = Vec::new();
    for child in table.children().filter_map(ElementRef::wrap) {
        match child.value().name() {
            "tr" => rows.push(child),
            "thead" | "tbody" | "tfoot" => rows.extend(
                child
                    .children()
                    .filter_map(ElementRef::wrap)
                    .filter(|r| r.value().name() == "tr"),
            ),
            _ => {}
        }
    }
    rows
}

/// The text of a table's cell without the tables inside it, which go to `nested`.
fn text_outside_tables<'a>(
    element: ElementRef<'a>,
    text: &mut String,
    nested: &mut Vec<ElementRef<'a>>,
) {
    visible_text(element, text, &mut Some(nested));
}

/// An element's text as a browser shows it (issue 100, Wikipedia's tables): inline elements
/// run on without a space ("Lurcy-<a>Lévis</a>", "km<sup>2</sup>"), a block or a line break
/// parts words, what is not shown is left out (a sort key, a citation marker, a note marker
/// in `<sup>`), and tables inside go to `nested` when it is given, else are read as text.
fn visible_text<'a>(
    element: ElementRef<'a>,
    text: &mut String,
    nested: &mut Option<&mut Vec<ElementRef<'a>>>,
) {
    for child in element.children() {
        match child.value() {
            Node::Text(t) => text.push_str(t),
            Node::Element(_) => {
                if let Some(child) = ElementRef::wrap(child) {
                    visible_element(child, text, nested);
                }
            }
            _ => {}
        }
    }
}

/// One element's text as a browser shows it, added to `text` (see [`visible_text`]).
fn visible_element<'a>(
    child: ElementRef<'a>,
    text: &mut String,
    nested: &mut Option<&mut Vec<ElementRef<'a>>>,
) {
    if unseen(child) {
        return;
    }
    let name = child.value().name();
    match name {
        "table" if nested.is_some() => {
            if let Some(nested) = nested.as_deref_mut() {
                nested.push(child);
            }
        }
        "sup" => {
            let mut sup = String::new();
            visible_text(child, &mut sup, nested);
            let written = superscript(text, &sup);
            text.push_str(&written);
        }
        "br" => text.push(' '),
        _ if BLOCKS.contains(&name) || INLINE_BREAKS.contains(&name) => {
            text.push(' ');
            visible_text(child, text, nested);
            text.push(' ');
        }
        _ => visible_text(child, text, nested),
    }
}

/// Elements inside a block's text that still part its words (a cell's list items, its
/// paragraphs, an image's place).
const INLINE_BREAKS: &[&str] = &["li", "ul", "ol", "dd", "dt", "td", "th", "tr", "img", "hr"];

/// Whether an element is not shown: a hidden element's kind, `hidden`, `display: none`, a
/// table's sort key, or a citation marker (`<sup class="reference">`).
fn unseen(element: ElementRef<'_>) -> bool {
    let value = element.value();
    if HIDDEN.contains(&value.name()) || value.attr("hidden").is_some() {
        return true;
    }
    let style_hides = value.attr("style").is_some_and(|style| {
        let style: String = style.chars().filter(|c| !c.is_whitespace()).collect();
        style.to_lowercase().contains("display:none")
    });
    // "reference" only on `<sup>`: documentation generators put it on every link.
    let citation = value.name() == "sup" && value.classes().any(|class| class == "reference");
    style_hides
        || citation
        || value
            .classes()
            .any(|class| matches!(class, "sortkey" | "noprint" | "mw-editsection"))
}

/// Whether an element's first words are a `<time>`.
fn starts_with_time(element: ElementRef<'_>) -> bool {
    for child in element.children() {
        match child.value() {
            Node::Text(text) if text.trim().is_empty() => continue,
            Node::Element(e) if e.name() == "time" => return true,
            Node::Element(e) if matches!(e.name(), "strong" | "b" | "span" | "em") => {
                return ElementRef::wrap(child).is_some_and(starts_with_time)
            }
            _ => return false,
        }
    }
    false
}

/// Whether an element is a site's furniture rather than the page's text (issue 85): a menu, a
/// footer, a sidebar, a page header holding a menu, a block named so by its class or id
/// ("site-menu", "footer", "breadcrumb", "cookie-banner"), or a block of three or more links
/// that are most of its text.
fn is_boilerplate(element: ElementRef<'_>) -> bool {
    let value = element.value();
    let name = value.name();
    if matches!(name, "nav" | "footer" | "aside") {
        return true;
    }
    if matches!(
        value.attr("role"),
        Some("navigation" | "banner" | "contentinfo" | "complementary")
    ) {
        return true;
    }
    let has = |tag: &str| {
        element
            .descendent_elements()
            .any(|e| e.value().name() == tag)
    };
    if name == "header" && has("nav") {
        return true;
    }
    if !matches!(name, "div" | "section" | "header" | "ul" | "ol" | "p") {
        return false;
    }
    let named = [value.attr("class"), value.attr("id")]
        .into_iter()
        .flatten()
        .flat_map(|names| names.split(|c: char| c.is_whitespace() || c == '-' || c == '_'))
        .any(|word| {
            matches!(
                word.to_lowercase().as_str(),
                "nav"
                    | "navbar"
                    | "navigation"
                    | "menu"
                    | "footer"
                    | "breadcrumb"
                    | "breadcrumbs"
                    | "sidebar"
                    | "cookie"
                    | "cookies"
                    | "banner"
                    | "promo"
                    | "masthead"
            )
        });
    if named {
        return true;
    }
    if matches!(name, "ul" | "ol" | "p") {
        return false;
    }
    let links: Vec<ElementRef<'_>> = element
        .descendent_elements()
        .filter(|e| e.value().name() == "a")
        .collect();
    if links.len() < 3 || has("table") || has("h1") || has("h2") {
        return false;
    }
    let linked: usize = links.iter().map(|a| text_of(*a).len()).sum();
    let all = text_of(element).len().max(1);
    linked * 10 >= all * 8
}

/// A `<sup>`'s text after `before`: an exponent of a unit ("m" + "2" → "m²") as a superscript
/// digit, a note marker ("seats" + "3", "£38,500" + "1") left out: a marker glued to a number
/// makes another number.
fn superscript(before: &str, sup: &str) -> String {
    if let Some(exponent) = super::unit_exponent(before, sup) {
        return exponent.to_string();
    }
    let sup = sup.trim();
    let marker = sup.chars().count() <= 3
        && sup
            .chars()
            .all(|c| c.is_ascii_digit() || "*†‡§,abcdefghij".contains(c));
    if marker {
        String::new()
    } else {
        sup.to_string()
    }
}

/// The visible text of an element, on one line.
fn text_of(element: ElementRef<'_>) -> String {
    let mut text = String::new();
    visible_text(element, &mut text, &mut None);
    clean(&text)
}

/// An element's text outside the lists it holds (a list item's own words).
fn own_text(element: ElementRef<'_>) -> String {
    let mut out = String::new();
    for child in element.children() {
        match child.value() {
            Node::Text(text) => out.push_str(text),
            Node::Element(e) if matches!(e.name(), "ul" | "ol") => out.push(' '),
            Node::Element(_) => {
                if let Some(child) = ElementRef::wrap(child) {
                    visible_element(child, &mut out, &mut None);
                }
            }
            _ => {}
        }
    }
    clean(&out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn read(page: &str) -> Outline {
        outline(page, &ReadBudget::default()).expect("read in time")
    }

    /// Issue 100: a Wikipedia table's cells as a browser shows them — sort keys and citation
    /// markers hidden, inline links and exponents run on without a space.
    #[test]
    fn a_wikipedia_cell_is_read_as_it_is_shown() {
        let page = "<table class=\"wikitable\"><tr><th>Commune</th><th>Area (km<sup>2</sup>)\
            <sup class=\"reference\"><a href=\"#n\">[9]</a></sup></th><th>Founded</th></tr>\
            <tr><td>Lurcy-<a href=\"/w\">L\u{e9}vis</a></td><td>27.6</td><td>\
            <span class=\"sortkey\" style=\"display:none\">1982-07-08 !</span>July 8, 1982</td></tr>\
            <tr><td>\"<a href=\"/m\">Memo</a>\" (with <i>Tosh</i>)</td><td>3.3</td>\
            <td><span style=\"display: none\">x</span>May 1, 1990</td></tr></table>";
        let kinds: Vec<Record> = read(page).blocks.into_iter().map(|b| b.kind).collect();
        let Record::TableRow { header, cells } = &kinds[0] else {
            panic!("{kinds:?}");
        };
        assert_eq!(header[1], "Area (km²)");
        assert_eq!(cells, &["Lurcy-L\u{e9}vis", "27.6", "July 8, 1982"]);
        let Record::TableRow { cells, .. } = &kinds[1] else {
            panic!("{kinds:?}");
        };
        assert_eq!(cells[0], "\"Memo\" (with Tosh)");
        assert_eq!(cells[2], "May 1, 1990");
    }

    #[test]
    fn headings_tables_lists_and_definitions_of_a_page() {
        let page = "<html><head><title>Games</title></head><body><h1>Spring Games results</h1>\
            <p>Held in <b>May</b>.</p><h2>Medal table</h2><table><tr><th>Team</th><th>Players</th>\
            <th>Gold</th></tr><tr><td>Falcon</td><td>64</td><td>8</td></tr><tr><td>Harrier Blue</td>\
            <td>12</td><td>3</td></tr></table><ul><li>One thing</li><li>Another</li></ul>\
            <dl><dt>Battery</dt><dd>3200 mAh</dd></dl></body></html>";
        let outline = read(page);
        assert_eq!(outline.title.as_deref(), Some("Games"));
        let kinds: Vec<&Record> = outline.blocks.iter().map(|b| &b.kind).collect();
        assert_eq!(kinds[0], &Record::Paragraph("Held in May.".into()));
        assert_eq!(
            kinds[1],
            &Record::TableRow {
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
        // The table's first column, as the list of its teams.
        assert!(
            matches!(kinds[3], Record::RowNames { column, names } if column == "Team" && names.len() == 2)
        );
        assert!(matches!(kinds[4], Record::List { items, .. } if items.len() == 2));
        assert_eq!(
            kinds[5],
            &Record::KeyValue {
                label: "Battery".into(),
                value: "3200 mAh".into()
            }
        );
    }

    /// Issue 85: the site's menu, banner and footer are not the page's text; a note marker in
    /// `<sup>` is not a digit of its number, an exponent is kept; spans are written out.
    #[test]
    fn a_page_without_its_furniture_and_a_timetable_with_spans() {
        let outline = read(
            "<html><head><title>Club</title></head><body>\
             <div class=\"site-menu\"><ul><li><a href=\"/\">Home</a></li><li><a href=\"/j\">Jobs (5 vacancies)</a></li><li><a href=\"/e\">Events (8)</a></li></ul></div>\
             <header><nav><a href=\"/\">Join 3,000+ members</a></nav></header>\
             <p>The appeal raised £38,500<sup>1</sup> for a pitch of 6,000 m<sup>2</sup>.</p>\
             <table><thead><tr><th rowspan=\"2\">Session</th><th colspan=\"2\">Day</th></tr>\
             <tr><th>Monday</th><th>Tuesday</th></tr></thead>\
             <tbody><tr><td>Swim</td><td colspan=\"2\">Both days, 18:00</td></tr>\
             <tr><td rowspan=\"2\">Gym</td><td>9</td><td>10</td></tr><tr><td>11</td><td>12</td></tr></tbody></table>\
             <footer><p>Registered charity 1045213</p></footer></body></html>",
        );
        let texts: Vec<String> = outline
            .blocks
            .iter()
            .map(|b| format!("{:?}", b.kind))
            .collect();
        let all = texts.join("\n");
        for furniture in ["vacancies", "Join 3,000", "charity"] {
            assert!(!all.contains(furniture), "{furniture} read: {all}");
        }
        assert!(all.contains("£38,500 for a pitch of 6,000 m²."), "{all}");
        let rows: Vec<&Record> = outline
            .blocks
            .iter()
            .map(|b| &b.kind)
            .filter(|k| matches!(k, Record::TableRow { .. }))
            .collect();
        let header: Arc<[String]> = vec![
            "Session".to_string(),
            "Day › Monday".into(),
            "Day › Tuesday".into(),
        ]
        .into();
        assert_eq!(
            rows[2],
            &Record::TableRow {
                header,
                cells: vec!["Gym".into(), "11".into(), "12".into()]
            }
        );
    }

    #[test]
    fn a_list_keeps_its_lead_and_dated_items_are_entries() {
        let page = "<title>Club</title><h2>Committee</h2><p>Our committee:</p>\
            <ul><li>Ann Hale (chair)</li><li>Ben Ode</li><li>Cy Dunn</li></ul>\
            <h2>News</h2><ul><li><time datetime=\"2024-03-01\">1 March 2024</time> — \
            The new courts opened.</li><li><time>2023</time>: 12 new members.</li></ul>\
            <table><thead><tr><td>Ticket</td><td>Adult</td></tr></thead>\
            <tbody><tr><th>Single</th><td>£4.50</td></tr></tbody></table>";
        let kinds: Vec<Record> = read(page).blocks.into_iter().map(|b| b.kind).collect();
        assert_eq!(
            kinds[0],
            Record::List {
                lead: Some("Our committee".into()),
                items: vec![
                    "Ann Hale (chair)".into(),
                    "Ben Ode".into(),
                    "Cy Dunn".into()
                ]
            }
        );
        assert_eq!(
            kinds[1],
            Record::Dated {
                date: "1 March 2024".into(),
                text: "The new courts opened.".into()
            }
        );
        assert_eq!(
            kinds[2],
            Record::Dated {
                date: "2023".into(),
                text: "12 new members.".into()
            }
        );
        assert_eq!(kinds[3].row(), Some(("Single", vec![("Adult", "£4.50")])));
    }

    #[test]
    fn a_page_nested_past_the_bounds_is_refused() {
        let deep = "<div>".repeat(crate::corpus::budget::MAX_HTML_DEPTH + 2);
        assert!(matches!(
            outline(&deep, &ReadBudget::default()),
            Err(ReadRefused::TooLarge(_))
        ));
    }
}
