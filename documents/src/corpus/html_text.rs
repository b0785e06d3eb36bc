//! HTML laid out as text by html2text, within what reading one document may spend (issue 70):
//! the page's shape checked before it is laid out, nested tables flattened, its title read.

use std::io::Read;

use super::budget::{indents_its_lines, within_html_bounds, ReadBudget, ReadRefused};

/// The width HTML is laid out at. A table's cell is as wide as its longest line up to this
/// width and every line of its row is padded to it: at 100,000 a cell of 1,000 paragraphs (50 KB)
/// laid out 86 MB in 4.4 s (issue 70); at 1,000, 2 MB in 0.15 s. A sentence or a row longer than
/// this wraps onto the next line, which the line reader joins back for prose.
const LAYOUT_WIDTH: usize = 1_000;

/// The narrowest a cell is squeezed to beside a wide one (a short label is not cut mid-word).
const MIN_CELL_WIDTH: usize = 40;

/// Bytes handed to the HTML parser at a time, between looks at the budget.
const HTML_CHUNK: usize = 4096;

/// A reader that fails once its budget is spent: the HTML parser reads its input a chunk at a
/// time and does its work per chunk, so it stops soon after.
pub(crate) struct Budgeted<'b, R> {
    pub(crate) inner: R,
    pub(crate) budget: &'b ReadBudget,
}

impl<R: Read> Read for Budgeted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.budget.check().map_err(std::io::Error::other)?;
        let n = buf.len().min(HTML_CHUNK);
        self.inner.read(&mut buf[..n])
    }
}

/// HTML laid out as text by `config`, within `budget`: parsed a chunk at a time, then its tree's
/// shape checked ([`check_html_shape`]) before the layout, whose work grows with the nesting
/// faster than the square (`<b><i><table><tr><td>` 1,000 times, 21 KB, took 46 s and 477 MB
/// after the parse).
fn lay_out<D: html2text::render::TextDecorator>(
    config: html2text::config::Config<D>,
    html: &str,
    budget: &ReadBudget,
) -> Result<String, ReadRefused> {
    let input = Budgeted {
        inner: html.as_bytes(),
        budget,
    };
    let dom = match config.parse_html(input) {
        Ok(dom) => dom,
        Err(_) => {
            budget.check()?;
            // Nothing else fails on text held in memory.
            return Ok(String::new());
        }
    };
    check_html_shape(&dom, budget)?;
    flatten_nested_tables(&dom);
    // An empty page has no render tree.
    let Ok(tree) = config.dom_to_render_tree(&dom) else {
        return Ok(String::new());
    };
    budget.check()?;
    let text = config
        .allow_width_overflow()
        .min_wrap_width(MIN_CELL_WIDTH)
        .render_to_string(tree, LAYOUT_WIDTH)
        .unwrap_or_default();
    budget.check()?;
    Ok(text)
}

/// Refuses a page nested deeper than [`MAX_HTML_DEPTH`](crate::corpus::budget::MAX_HTML_DEPTH), with lists and quotes nested more than
/// [`MAX_HTML_INDENTS`](crate::corpus::budget::MAX_HTML_INDENTS) deep, or with more than [`MAX_HTML_ELEMENTS`](crate::corpus::budget::MAX_HTML_ELEMENTS) elements: with
/// [`flatten_nested_tables`] and [`LAYOUT_WIDTH`], the bounds that keep its layout's work
/// within a constant times its text.
fn check_html_shape(dom: &html2text::RcDom, budget: &ReadBudget) -> Result<(), ReadRefused> {
    let mut stack = vec![(dom.document.clone(), 0usize, 0usize)];
    let mut elements = 0usize;
    while let Some((node, depth, indents)) = stack.pop() {
        let (depth, indents) = match &node.data {
            html2text::Element { name, .. } => {
                elements += 1;
                if elements.is_multiple_of(4096) {
                    budget.check()?;
                }
                (
                    depth + 1,
                    indents + usize::from(indents_its_lines(&name.local)),
                )
            }
            _ => (depth, indents),
        };
        within_html_bounds(depth, indents, elements)?;
        for child in node.children.borrow().iter() {
            stack.push((child.clone(), depth, indents));
        }
    }
    Ok(())
}

fn is_table(node: &html2text::Handle) -> bool {
    matches!(&node.data, html2text::Element { name, .. } if &*name.local == "table")
}

/// Moves every table that sits inside another table to just after the outermost one, in reading
/// order. html2text lays a table out by laying out its cells more than once, so nested tables
/// cost time exponential in their depth (issue 70: six deep around 100 KB of text took 104 s,
/// `<b><i><table><tr><td>` 1,000 times 46 s); a table's rows keep their cells, and a table that
/// lays out a page keeps the tables it held, after it.
fn flatten_nested_tables(dom: &html2text::RcDom) {
    // The outermost tables with their parents.
    let mut outermost = Vec::new();
    let mut stack = vec![dom.document.clone()];
    while let Some(node) = stack.pop() {
        for child in node.children.borrow().iter() {
            if is_table(child) {
                outermost.push((child.clone(), node.clone()));
            } else {
                stack.push(child.clone());
            }
        }
    }
    for (table, parent) in outermost {
        // The tables inside it, each with its parent, in reading order (pre-order).
        let mut inner = Vec::new();
        let mut stack: Vec<_> = table
            .children
            .borrow()
            .iter()
            .rev()
            .map(|child| (child.clone(), table.clone()))
            .collect();
        while let Some((node, holder)) = stack.pop() {
            if is_table(&node) {
                inner.push((node.clone(), holder));
            }
            for child in node.children.borrow().iter().rev() {
                stack.push((child.clone(), node.clone()));
            }
        }
        let Some(at) = position_of(&parent, &table) else {
            continue;
        };
        for (after, (nested, holder)) in (at + 1..).zip(inner) {
            if let Some(i) = position_of(&holder, &nested) {
                holder.children.borrow_mut().remove(i);
            }
            nested.parent.set(Some(std::rc::Rc::downgrade(&parent)));
            parent.children.borrow_mut().insert(after, nested);
        }
    }
}

/// Where `child` is among `parent`'s children.
fn position_of(parent: &html2text::Handle, child: &html2text::Handle) -> Option<usize> {
    parent
        .children
        .borrow()
        .iter()
        .position(|c| std::rc::Rc::ptr_eq(c, child))
}

/// HTML (a page or a fragment) as the text a browser shows: tags dropped, character references
/// read; within `budget`.
fn plain_text(html: &str, budget: &ReadBudget) -> Result<String, ReadRefused> {
    lay_out(html2text::config::plain_no_decorate(), html, budget)
}

/// An HTML page as text that keeps its layout, for the document reader (issue 58): headings
/// marked with `#`, list items with `*`, tables drawn with `│` between cells, a definition's
/// term in `*…*` above its indented description; within `budget`.
pub fn html_layout(html: &str, budget: &ReadBudget) -> Result<String, ReadRefused> {
    lay_out(
        html2text::config::plain().link_footnotes(false),
        html,
        budget,
    )
}

/// An HTML page's `<title>` and visible text (paragraphs separated by blank lines), read
/// within a [`ReadBudget`] of its own.
pub fn html_to_text(html: &str) -> Result<(Option<String>, String), ReadRefused> {
    let budget = ReadBudget::default();
    Ok((html_title(html, &budget), plain_text(html, &budget)?))
}

/// An HTML page's `<title>`, as the page shows it ("&lt;" is "<"), read by `until`.
pub fn html_title(html: &str, budget: &ReadBudget) -> Option<String> {
    let lower = html.to_ascii_lowercase();
    let start = lower.find("<title")?;
    let open_end = start + lower[start..].find('>')? + 1;
    let close = open_end + lower[open_end..].find("</title")?;
    let title = plain_text(&html[open_end..close], budget)
        .ok()?
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    (!title.is_empty()).then_some(title)
}
