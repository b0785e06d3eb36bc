//! The questions the pages offer as examples. The demo corpus, loaded beside any data set, holds
//! the facts each needs, so every example answers right on every server (a test asks each one
//! through the API, `tests/integration/examples.rs`).

/// Count questions the demo snippets answer.
pub const COUNT_EXAMPLES: [&str; 4] = [
    "how many languages are spoken in indonesia",
    "how many moons does mars have",
    "how many studio albums did the beatles release",
    "how many countries took part in the 2016 summer olympics",
];

/// Value questions the demo sentences answer.
pub const VALUE_EXAMPLES: [&str; 3] = [
    "how tall is the eiffel tower",
    "what is the capacity of wembley stadium",
    "how long is the main span of the golden gate bridge",
];

/// Quantity conditions some demo sentences meet.
pub const QUANTITY_EXAMPLES: [&str; 3] = [
    "phones with a battery above 4000 mAh",
    "stadiums with a capacity of more than 85000",
    "electric cars with a range above 400 km",
];
