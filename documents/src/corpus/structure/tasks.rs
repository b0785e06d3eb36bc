//! A task list (issue 100): items marked open or done (`- [ ] Book the hall`, `- [x] Pay the
//! deposit`, a Word file's `☐` and `☒`), read as a table of the items and their status, so
//! that "how many actions are still open" is a count of rows whose Status is open, computed
//! from the records like any other count with a condition.

/// The status column's name and its two values.
pub const STATUS: &str = "Status";
/// An item not yet done.
pub const OPEN: &str = "open";
/// An item done.
pub const DONE: &str = "done";

/// An item's text without its box, and whether the box is ticked; `None` for an item with no
/// box.
fn task(item: &str) -> Option<(&str, bool)> {
    let item = item.trim_start();
    for (mark, done) in [
        ("[ ]", false),
        ("[x]", true),
        ("[X]", true),
        ("☐", false),
        ("☑", true),
        ("☒", true),
        ("✅", true),
    ] {
        if let Some(rest) = item.strip_prefix(mark) {
            let rest = rest.trim();
            if !rest.is_empty() {
                return Some((rest, done));
            }
        }
    }
    None
}

/// The rows of a task list (a header row, then each item with its status) when most of its
/// items have a box; `None` for a plain list. The lead names the items' column ("Actions"),
/// or "Task" when there is none.
pub(super) fn task_rows(lead: Option<&str>, items: &[String]) -> Option<Vec<Vec<String>>> {
    let boxed = items.iter().filter(|i| task(i).is_some()).count();
    if boxed == 0 || boxed * 2 < items.len() {
        return None;
    }
    let header = vec![lead.unwrap_or("Task").to_string(), STATUS.to_string()];
    let rows = items.iter().map(|item| match task(item) {
        Some((text, done)) => vec![text.to_string(), if done { DONE } else { OPEN }.into()],
        None => vec![item.trim().to_string(), String::new()],
    });
    Some(std::iter::once(header).chain(rows).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxed_items_are_rows_with_their_status() {
        let items: Vec<String> = ["[ ] Book the hall", "[x] Pay the deposit", "☐ Order chairs"]
            .map(String::from)
            .to_vec();
        let rows = task_rows(Some("Actions"), &items).unwrap();
        assert_eq!(rows[0], ["Actions", "Status"]);
        assert_eq!(rows[1], ["Book the hall", "open"]);
        assert_eq!(rows[2], ["Pay the deposit", "done"]);
        assert_eq!(rows[3], ["Order chairs", "open"]);
        // A list with no boxes, or one box among many items, is a plain list.
        let plain: Vec<String> = ["eggs", "[x] flour", "milk"].map(String::from).to_vec();
        assert_eq!(task_rows(None, &plain), None);
        assert_eq!(task_rows(None, &["[ ]".to_string()]), None);
    }
}
