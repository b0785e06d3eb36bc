//! The questions the pages offer as examples. The demo corpus, loaded beside any data set, holds
//! the facts each needs, so every example answers right on every server (a test asks each one
//! through the API, `tests/integration/examples.rs`).

/// Count questions the demo snippets answer. ("how many countries took part in the 2016 summer
/// olympics" is not one: over the data sets it answers 87, not 206.)
pub const COUNT_EXAMPLES: [&str; 3] = [
    "how many languages are spoken in indonesia",
    "how many moons does mars have",
    "how many studio albums did the beatles release",
];

/// Value questions the demo sentences answer. ("what is the capacity of wembley stadium" is
/// not one: over the data sets no observation converts to one unit.)
pub const VALUE_EXAMPLES: [&str; 3] = [
    "how tall is the eiffel tower",
    "how long is the main span of the golden gate bridge",
    "how tall was the great pyramid of giza",
];

/// Quantity conditions some demo sentences meet.
pub const QUANTITY_EXAMPLES: [&str; 3] = [
    "phones with a battery above 4000 mAh",
    "stadiums with a capacity of more than 85000",
    "electric cars with a range above 400 km",
];
