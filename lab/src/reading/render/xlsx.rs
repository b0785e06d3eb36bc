//! xlsx (being written).

use super::super::model::Document;

pub(super) fn render(_document: &Document) -> Vec<u8> {
    Vec::new()
}
