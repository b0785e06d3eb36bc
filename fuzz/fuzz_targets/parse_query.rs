//! `cargo +nightly fuzz run parse_query`: the query parser on arbitrary UTF-8.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let parsed = tally_text::parse_query(text);
        for c in &parsed.constraints {
            assert!(c.span.end <= text.len());
        }
    }
});
