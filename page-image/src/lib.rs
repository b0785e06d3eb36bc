//! A page image's marks found by their pixels, before and after OCR reads its words (issues 89
//! and 100): the rules of a ruled table as straight lines ([`rulings`]) and the grid of cells
//! they draw ([`rule_grid`]), the page's light evened out where part of it is far darker than
//! its paper ([`page_light`]), and the ink no word read by OCR covers ([`unread_ink`]). Pixels
//! in, lines and boxes out: it knows no OCR, no outline and no other Tally crate.

pub mod page_light;
pub mod rule_grid;
pub mod rulings;
pub mod unread_ink;
