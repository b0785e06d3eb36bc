//! A page image's marks found by their pixels, before and after OCR reads its words (issues 89
//! and 100): the rules of a ruled table as straight lines ([`rulings`]) and the grid of cells
//! they draw ([`rule_grid`]), the page's light evened out where part of it is far darker than
//! its paper ([`page_light`]), the ink no word read by OCR covers ([`unread_ink`]), and the page
//! kept small and cut into the crops shown beside evidence read by OCR ([`evidence`]). Pixels
//! in, lines, boxes and crops out: it knows no OCR, no outline and no other Tally crate.

pub mod evidence;
pub mod page_light;
pub mod rule_grid;
pub mod rulings;
pub mod unread_ink;
