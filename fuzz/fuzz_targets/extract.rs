//! `cargo +nightly fuzz run extract`: the extractor on arbitrary UTF-8; spans must stay valid.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        for q in tally_text::extract(text) {
            assert!(q.span.start <= q.span.end && q.span.end <= text.len());
            assert!(text.is_char_boundary(q.span.start) && text.is_char_boundary(q.span.end));
            assert!(!q.value.low().is_nan());
        }
    }
});
