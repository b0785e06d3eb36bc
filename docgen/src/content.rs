//! The generator's content: a document drawn from a seed, in one of several domains (clubs,
//! libraries, ferries, schools, water mains, allotments, a choir, a bus company), with tables
//! that exercise what trips readers (a title row, a two-row header, a unit in the header, Total
//! and subtotal rows, notes, cells merged down, money, percents, dates, wide and long tables),
//! prose with words a typesetter hyphenates or joins with ligatures and note markers, lists
//! with and without a lead, `Label: value` lines, and a site's menu and footer full of numbers.
//! Names and figures are invented from general knowledge; the same seed gives the same
//! document.

use chrono::NaiveDate;
use tally_text::random::SplitMix64 as Random;

use crate::model::{
    Block, Boilerplate, Cell, Document, HeaderCell, Row, RowKind, Table, Value, Word,
};

/// A domain: what its tables are about and the words its documents use.
struct Domain {
    name: &'static str,
    title: &'static str,
    /// The thing a row is ("Branch") and names for rows.
    label: &'static str,
    names: &'static [&'static str],
    /// A text column whose cells group rows (merged down) and its values.
    group: (&'static str, &'static [&'static str]),
    /// Number columns.
    columns: &'static [(&'static str, Kind)],
    /// A measure split by two seasons under one merged header.
    split: (&'static str, Kind),
    notes: &'static [&'static str],
    items: (&'static str, &'static [&'static str]),
}

#[derive(Clone, Copy)]
enum Kind {
    Count(i64, i64),
    Money(i64, i64),
    Percent,
    Decimal(i64, i64),
    Date,
}

const PLACES: &[&str] = &[
    "Hartley Road",
    "Mill Lane",
    "Castle Street",
    "Fenwick Green",
    "Orchard Rise",
    "Station Yard",
    "Kiln Hill",
    "Bramble Way",
    "Quayside",
    "Long Acre",
    "Northgate",
    "Ashby Fields",
    "Rowan Close",
    "Westbrook",
    "Copper Beech",
    "Harbour View",
    "St Anne's",
    "Elm Park",
];

const DOMAINS: &[Domain] = &[
    Domain {
        name: "libraries",
        title: "Branch libraries annual return",
        label: "Branch",
        names: PLACES,
        group: ("Area", &["North", "South", "East"]),
        columns: &[
            ("Staff", Kind::Count(2, 40)),
            ("Visits", Kind::Count(1_000, 90_000)),
            ("Budget", Kind::Money(20_000, 400_000)),
            ("Satisfaction", Kind::Percent),
            ("Opened", Kind::Date),
            ("Floor area (m²)", Kind::Decimal(80, 2_000)),
        ],
        split: ("Loans", Kind::Count(500, 60_000)),
        notes: &[
            "Visits are counted at the door.",
            "Budgets exclude building costs.",
        ],
        items: (
            "Services offered",
            &[
                "Home delivery",
                "Study rooms",
                "Code club",
                "Film nights",
                "Local history desk",
            ],
        ),
    },
    Domain {
        name: "ferries",
        title: "Island ferry services",
        label: "Vessel",
        names: &[
            "Skerry Dawn",
            "Isle Rover",
            "Northern Star",
            "Puffin",
            "Kittiwake",
            "Loch Mhor",
            "Sound of Barra",
            "Merlin",
            "Cape Wrath",
            "Seal Bay",
            "Tern",
            "Fulmar",
            "Heron",
            "Osprey",
            "Gannet",
            "Curlew",
        ],
        group: (
            "Route",
            &["Oban–Mull", "Ullapool–Stornoway", "Largs–Cumbrae"],
        ),
        columns: &[
            ("Cars", Kind::Count(10, 140)),
            ("Passengers", Kind::Count(100, 1_000)),
            ("Crossing time (min)", Kind::Count(10, 180)),
            ("Fare", Kind::Money(3, 90)),
            ("On time", Kind::Percent),
            ("Length (m)", Kind::Decimal(30, 120)),
            ("Entered service", Kind::Date),
        ],
        split: ("Sailings", Kind::Count(200, 3_000)),
        notes: &[
            "Fares are single, per adult.",
            "Figures for the summer timetable.",
        ],
        items: (
            "On board",
            &["Café", "Pet lounge", "Wi-Fi", "Quiet room", "Sun deck"],
        ),
    },
    Domain {
        name: "clubs",
        title: "Sports clubs in the league",
        label: "Club",
        names: &[
            "Millbeck Anglers",
            "Pennock Vale",
            "Ashby Rovers",
            "Kilbrae Harriers",
            "Fenwick Tennis",
            "Rowan Bowls",
            "Quayside Rowing",
            "Castle Fencing",
            "Orchard Cricket",
            "Elm Park Hockey",
            "Northgate Netball",
            "Harbour Sailing",
            "Bramble Cycling",
            "Westbrook Squash",
        ],
        group: ("Division", &["Premier", "First", "Second"]),
        columns: &[
            ("Members", Kind::Count(20, 900)),
            ("Teams", Kind::Count(1, 14)),
            ("Annual fee", Kind::Money(30, 400)),
            ("Win rate", Kind::Percent),
            ("Founded", Kind::Date),
            ("Courts", Kind::Count(1, 12)),
        ],
        split: ("Matches", Kind::Count(4, 40)),
        notes: &[
            "Fees are per adult member.",
            "Junior sections are counted separately.",
        ],
        items: (
            "Facilities",
            &[
                "Clubhouse",
                "Floodlights",
                "Changing rooms",
                "Car park",
                "Bar",
            ],
        ),
    },
    Domain {
        name: "schools",
        title: "Primary schools of the trust",
        label: "School",
        names: PLACES,
        group: ("Phase", &["Infant", "Junior", "Primary"]),
        columns: &[
            ("Pupils", Kind::Count(40, 700)),
            ("Teachers", Kind::Count(3, 40)),
            ("Attendance", Kind::Percent),
            ("Meal price", Kind::Money(2, 4)),
            ("Inspected", Kind::Date),
            ("Field (ha)", Kind::Decimal(0, 6)),
        ],
        split: ("Spending (£)", Kind::Count(90_000, 900_000)),
        notes: &[
            "Pupil numbers are from the January census.",
            "Attendance is for the autumn term.",
        ],
        items: (
            "Clubs after school",
            &["Chess", "Choir", "Football", "Gardening", "Drama"],
        ),
    },
    Domain {
        name: "water",
        title: "Water mains bursts by week",
        label: "Week",
        names: &[],
        group: ("District", &["Upper", "Lower", "Coast"]),
        columns: &[
            ("Bursts", Kind::Count(0, 9)),
            ("Repairs", Kind::Count(0, 12)),
            ("Cost", Kind::Money(500, 40_000)),
            ("Customers affected", Kind::Count(0, 5_000)),
            ("Fixed in a day", Kind::Percent),
            ("Pipe replaced (km)", Kind::Decimal(0, 9)),
            ("Reported", Kind::Date),
        ],
        split: ("Volunteer hours", Kind::Count(0, 300)),
        notes: &[
            "A burst is counted once, however many repairs it needs.",
            "Costs include contractors.",
        ],
        items: (
            "Causes recorded",
            &[
                "Frost",
                "Ground movement",
                "Third-party damage",
                "Corrosion",
            ],
        ),
    },
    Domain {
        name: "allotments",
        title: "Allotment sites and plots",
        label: "Site",
        names: PLACES,
        group: ("Ward", &["Central", "Riverside", "Hillside"]),
        columns: &[
            ("Plots", Kind::Count(8, 160)),
            ("Waiting list", Kind::Count(0, 90)),
            ("Rent", Kind::Money(20, 120)),
            ("Let", Kind::Percent),
            ("Water taps", Kind::Count(1, 12)),
            ("Area (ha)", Kind::Decimal(0, 8)),
            ("Inspected", Kind::Date),
        ],
        split: ("Tenants", Kind::Count(5, 150)),
        notes: &["Rents are per full plot per year.", "Half plots pay half."],
        items: (
            "Rules",
            &[
                "No bonfires in summer",
                "Dogs on leads",
                "Paths kept clear",
                "No hosepipes",
            ],
        ),
    },
    Domain {
        name: "choir",
        title: "Concert season of the city choir",
        label: "Concert",
        names: &[
            "Spring Gala",
            "Messiah",
            "Carols by Candlelight",
            "Summer Serenade",
            "Requiem",
            "Last Night",
            "Folk Songs",
            "Harvest Praise",
            "Jubilate",
            "Evensong",
            "Gospel Night",
            "Madrigals",
            "Opera Choruses",
            "Young Voices",
        ],
        group: ("Venue", &["Cathedral", "Town Hall", "Corn Exchange"]),
        columns: &[
            ("Singers", Kind::Count(20, 120)),
            ("Tickets sold", Kind::Count(80, 900)),
            ("Ticket price", Kind::Money(8, 35)),
            ("Seats filled", Kind::Percent),
            ("Date", Kind::Date),
            ("Running time (h)", Kind::Decimal(1, 3)),
        ],
        split: ("Rehearsals", Kind::Count(2, 20)),
        notes: &[
            "Prices are for adult tickets.",
            "Children under 12 go free.",
        ],
        items: (
            "Present at the meeting",
            &[
                "Ann Hollis",
                "Ben Okafor",
                "Cy Marsh",
                "Dee Patel",
                "Eve Lund",
            ],
        ),
    },
    Domain {
        name: "buses",
        title: "Bus routes of the county network",
        label: "Route",
        names: &[
            "1 Town Circular",
            "2 Hospital",
            "3 University",
            "5 Airport",
            "7 Coast",
            "9 Park and Ride",
            "11 Villages",
            "12 Night",
            "14 Market",
            "16 Retail Park",
            "18 Station",
            "21 Moor",
        ],
        group: (
            "Operator",
            &["Greenline", "County Coaches", "Harbour Buses"],
        ),
        columns: &[
            ("Buses", Kind::Count(1, 20)),
            ("Journeys a day", Kind::Count(8, 120)),
            ("Day ticket", Kind::Money(3, 9)),
            ("On time", Kind::Percent),
            ("Length (km)", Kind::Decimal(4, 60)),
            ("Started", Kind::Date),
        ],
        split: ("Passengers (thousands)", Kind::Count(10, 900)),
        notes: &[
            "Journeys are for a weekday.",
            "Night buses run Friday and Saturday only.",
        ],
        items: (
            "Ticket types",
            &["Single", "Return", "Day", "Weekly", "Student"],
        ),
    },
];

/// Words of running text; the long ones may be hyphenated, some have ligatures.
const SENTENCES: &[&str] = &[
    "The committee reviewed the figures at its final meeting of the year",
    "Our office staff thank every volunteer for the difficult winter",
    "Five new members joined after the summer open day",
    "The official inspection found the buildings in good condition",
    "Flights of steps at the older sites still need attention",
    "Membership numbers rose again despite the effect of higher fees",
    "The treasurer confirmed that the accounts were signed off without qualification",
    "Community fundraising covered the refurbishment of the kitchen",
    "Efficient scheduling meant fewer cancellations than in previous seasons",
    "Applications for the apprenticeship programme reopen in the autumn",
];

/// Draws the document of `seed`.
pub fn document(seed: u64) -> Document {
    let mut random = Random::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x85);
    let domain = &DOMAINS[random.below(DOMAINS.len())];
    let mut blocks = vec![paragraph(&mut random)];
    let (list_title, list_items) = domain.items;
    // An infobox of `Label: value` lines.
    blocks.push(Block::KeyValues {
        pairs: vec![
            ("Secretary".into(), "J. Hollis".into()),
            ("Founded".into(), (1900 + random.below(120)).to_string()),
            (
                "Contact".into(),
                format!("0161 {:03} {:04}", random.below(1000), random.below(10_000)),
            ),
        ],
    });
    let tables = 1 + random.below(2);
    for n in 0..tables {
        let heading = if n == 0 {
            format!("{} {}", capital(domain.name), 2024 + random.below(3))
        } else {
            format!("More about the {}", domain.name)
        };
        blocks.push(Block::Heading {
            level: 1,
            text: heading,
        });
        if random.unit() < 0.6 {
            blocks.push(paragraph(&mut random));
        }
        blocks.push(Block::Table(table(domain, &mut random)));
    }
    blocks.push(Block::Heading {
        level: 1,
        text: list_title.to_string(),
    });
    let mut items: Vec<String> = list_items.iter().map(|s| s.to_string()).collect();
    random.shuffle(&mut items);
    items.truncate(3 + random.below(items.len() - 2));
    let lead = (random.unit() < 0.5).then(|| format!("{list_title}:"));
    blocks.push(Block::List { lead, items });
    blocks.push(paragraph(&mut random));
    let members = 1_000 + random.below(8) * 500;
    Document {
        name: format!("s{seed:03}-{}", domain.name),
        seed,
        title: domain.title.to_string(),
        blocks,
        boilerplate: Boilerplate {
            menu: vec![
                "Home".into(),
                "About us".into(),
                format!("Jobs ({} vacancies)", 2 + random.below(7)),
                format!("Events ({} this month)", 3 + random.below(9)),
                "Contact".into(),
            ],
            banner: format!(
                "Join {} members today",
                crate::model::grouped(members as i64)
            ),
            footer: vec![
                format!("Registered charity {}", 1_000_000 + random.below(99_999)),
                format!("© {} {}", 2020 + random.below(7), domain.title),
                format!("Open {} days a week", 5 + random.below(3)),
            ],
            running_header: format!(
                "Spring {} · Issue {}",
                2024 + random.below(3),
                10 + random.below(60)
            ),
        },
    }
}

fn capital(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A paragraph of one or two sentences, with a stated figure carrying a note marker.
fn paragraph(random: &mut Random) -> Block {
    let mut words = Vec::new();
    for _ in 0..1 + random.below(2) {
        let sentence = random.pick(SENTENCES);
        let count = sentence.split_whitespace().count();
        for (n, text) in sentence.split_whitespace().enumerate() {
            let mut text = text.to_string();
            if n + 1 == count {
                text.push('.');
            }
            words.push(word(&text));
        }
    }
    let figure = format!(
        "£{}",
        crate::model::grouped(1_000 + random.below(90) as i64 * 500)
    );
    for text in ["The", "appeal", "raised"] {
        words.push(word(text));
    }
    words.push(Word {
        text: format!("{figure}."),
        hyphen_at: None,
        note: Some(1 + random.below(4) as u8),
    });
    Block::Paragraph { words }
}

/// A word; a word of nine or more letters may be hyphenated after its first syllable-ish part.
fn word(text: &str) -> Word {
    let letters = text.chars().filter(|c| c.is_ascii_alphabetic()).count();
    let hyphen_at =
        (letters >= 9 && text.is_ascii() && text.chars().all(|c| c.is_ascii_alphabetic()))
            .then(|| {
                // After the first vowel–consonant pair past the third letter ("mem|bership").
                let bytes = text.as_bytes();
                (3..text.len() - 3)
                    .find(|&i| is_vowel(bytes[i - 1]) && !is_vowel(bytes[i]))
                    .map(|i| i + 1)
                    .filter(|&i| i < text.len() - 2)
            })
            .flatten();
    Word {
        text: text.to_string(),
        hyphen_at,
        note: None,
    }
}

fn is_vowel(b: u8) -> bool {
    matches!(b.to_ascii_lowercase(), b'a' | b'e' | b'i' | b'o' | b'u')
}

/// A table of the domain with features drawn at random.
fn table(domain: &Domain, random: &mut Random) -> Table {
    let mut features = Vec::new();
    let long = random.unit() < 0.15;
    let wide = !long && random.unit() < 0.2;
    let grouped = random.unit() < 0.3;
    let two_rows = random.unit() < 0.35;
    let totals = random.unit() < 0.45;
    let subtotals = grouped && totals && random.unit() < 0.5;
    let note = random.unit() < 0.4;
    let title = random.unit() < 0.4;
    let rows = if long {
        35 + random.below(30)
    } else {
        4 + random.below(6)
    };
    // Row labels.
    let labels: Vec<String> = if domain.names.is_empty() || long {
        let thing = if domain.names.is_empty() {
            "Week"
        } else {
            domain.label
        };
        (1..=rows).map(|n| format!("{thing} {n}")).collect()
    } else {
        let mut names: Vec<String> = domain.names.iter().map(|s| s.to_string()).collect();
        random.shuffle(&mut names);
        names.truncate(rows.min(names.len()));
        names
    };
    // Columns.
    let mut columns: Vec<(String, Kind)> = domain
        .columns
        .iter()
        .map(|(h, k)| (h.to_string(), *k))
        .collect();
    random.shuffle(&mut columns);
    let keep = if wide {
        columns.len()
    } else {
        2 + random.below(3)
    };
    columns.truncate(keep);
    if wide {
        features.push("wide table");
        for extra in ["Q1", "Q2", "Q3", "Q4"] {
            columns.push((format!("{} {extra}", domain.split.0), domain.split.1));
        }
    }
    let (header, mut kinds) = header_of(domain, &columns, grouped, two_rows);
    if two_rows {
        features.push("two-row header");
    }
    kinds.extend(columns.iter().map(|(_, k)| *k));
    if columns.iter().any(|(h, _)| h.contains('(')) || domain.split.0.contains('(') && two_rows {
        features.push("unit in header");
    }
    let lead = if grouped { 2 } else { 1 };
    let (mut body, sums) = body_of(domain, &labels, &kinds, grouped, subtotals, random);
    if subtotals {
        features.push("subtotal rows");
    } else if grouped {
        features.push("merged down");
    }
    if totals {
        features.push("total row");
        body.push(total_row("Total", lead, &kinds, &sums));
    }
    if note {
        features.push("note row");
        let text = random.pick(domain.notes).to_string();
        body.push(Row {
            kind: RowKind::Note,
            cells: vec![Cell {
                value: Value::Text { text },
                rowspan: 1,
            }],
        });
    }
    if title {
        features.push("title row");
    }
    if long {
        features.push("long table");
    }
    for kind in &kinds {
        let name = match kind {
            Kind::Money(..) => "currency",
            Kind::Percent => "percent",
            Kind::Date => "date",
            _ => continue,
        };
        if !features.contains(&name) {
            features.push(name);
        }
    }
    if features.is_empty() {
        features.push("plain");
    }
    Table {
        title_row: title.then(|| {
            format!(
                "{} by {}",
                capital(domain.name),
                domain.label.to_lowercase()
            )
        }),
        header,
        rows: body,
        features,
    }
}

/// The data rows of a table (with Subtotal rows under each group when `subtotals`, whose group
/// column is then not merged) and the sums of its columns.
fn body_of(
    domain: &Domain,
    labels: &[String],
    kinds: &[Kind],
    grouped: bool,
    subtotals: bool,
    random: &mut Random,
) -> (Vec<Row>, Vec<f64>) {
    let rows = labels.len();
    let lead = if grouped { 2 } else { 1 };
    let groups = domain.group.1;
    let per_group = rows.div_ceil(groups.len()).max(1);
    let mut body: Vec<Row> = Vec::new();
    let mut sums = vec![0.0; kinds.len()];
    let mut group_sums = vec![0.0; kinds.len()];
    for (n, label) in labels.iter().enumerate() {
        let mut cells = vec![Cell {
            value: Value::Text {
                text: label.clone(),
            },
            rowspan: 1,
        }];
        if grouped {
            let g = n / per_group;
            let first = n % per_group == 0;
            let span = per_group.min(rows - g * per_group);
            cells.push(if first {
                Cell {
                    value: Value::Text {
                        text: groups[g].to_string(),
                    },
                    rowspan: span,
                }
            } else {
                Cell {
                    value: Value::Covered,
                    rowspan: 1,
                }
            });
        }
        for (c, kind) in kinds.iter().enumerate() {
            let value = draw(*kind, random);
            if let Some(x) = value.number() {
                sums[c] += x;
                group_sums[c] += x;
            }
            cells.push(Cell { value, rowspan: 1 });
        }
        body.push(Row {
            kind: RowKind::Data,
            cells,
        });
        let group_ends = grouped && (n % per_group == per_group - 1 || n + 1 == rows);
        if subtotals && group_ends {
            body.push(total_row("Subtotal", lead, kinds, &group_sums));
            group_sums.iter_mut().for_each(|s| *s = 0.0);
        }
    }
    if subtotals {
        // A subtotal row between merged cells would split the merge: the group column is not
        // merged in a table with subtotals.
        for row in &mut body {
            if row.kind == RowKind::Data {
                row.cells[1].rowspan = 1;
            }
        }
        let mut last = String::new();
        for row in &mut body {
            if row.kind != RowKind::Data {
                continue;
            }
            match &row.cells[1].value {
                Value::Text { text } => last = text.clone(),
                Value::Covered => row.cells[1].value = Value::Text { text: last.clone() },
                _ => {}
            }
        }
    }
    (body, sums)
}

/// The header rows of a table of `columns` (a label column, a group column when `grouped`, a
/// measure split over two seasons under a merged cell when `two_rows`) and the kinds of its
/// value columns.
fn header_of(
    domain: &Domain,
    columns: &[(String, Kind)],
    grouped: bool,
    two_rows: bool,
) -> (Vec<Vec<HeaderCell>>, Vec<Kind>) {
    let mut header: Vec<Vec<HeaderCell>> = Vec::new();
    let cell = |text: &str, colspan: usize, rowspan: usize| HeaderCell {
        text: text.to_string(),
        colspan,
        rowspan,
    };
    let mut kinds: Vec<Kind> = Vec::new();
    if two_rows {
        let seasons = ["2024–25", "2025–26"];
        let mut top = vec![cell(domain.label, 1, 2)];
        if grouped {
            top.push(cell(domain.group.0, 1, 2));
        }
        top.push(cell(domain.split.0, 2, 1));
        for (h, _) in columns {
            top.push(cell(h, 1, 2));
        }
        let mut lower: Vec<HeaderCell> = seasons.iter().map(|s| cell(s, 1, 1)).collect();
        header.push(std::mem::take(&mut top));
        header.push(std::mem::take(&mut lower));
        kinds.extend([domain.split.1, domain.split.1]);
    } else {
        let mut top = vec![cell(domain.label, 1, 1)];
        if grouped {
            top.push(cell(domain.group.0, 1, 1));
        }
        for (h, _) in columns {
            top.push(cell(h, 1, 1));
        }
        header.push(top);
    }
    (header, kinds)
}

/// A Total or Subtotal row: the label, blank group cell, and the sums of the columns that are
/// summed (counts and money; percents, dates and decimals left blank).
fn total_row(label: &str, lead: usize, kinds: &[Kind], sums: &[f64]) -> Row {
    let mut cells = vec![Cell {
        value: Value::Text { text: label.into() },
        rowspan: 1,
    }];
    if lead == 2 {
        cells.push(Cell {
            value: Value::Text {
                text: String::new(),
            },
            rowspan: 1,
        });
    }
    for (kind, sum) in kinds.iter().zip(sums) {
        let value = match kind {
            Kind::Count(..) => Value::Integer { n: *sum as i64 },
            Kind::Money(..) => Value::Money { amount: *sum },
            _ => Value::Text {
                text: String::new(),
            },
        };
        cells.push(Cell { value, rowspan: 1 });
    }
    Row {
        kind: RowKind::Total,
        cells,
    }
}

fn draw(kind: Kind, random: &mut Random) -> Value {
    let between = |random: &mut Random, low: i64, high: i64| {
        low + random.below((high - low + 1) as usize) as i64
    };
    match kind {
        Kind::Count(low, high) => Value::Integer {
            n: between(random, low, high),
        },
        Kind::Money(low, high) => {
            let pounds = between(random, low, high) as f64;
            let pence = if high < 100 {
                [0.0, 0.5, 0.25, 0.75][random.below(4)]
            } else {
                0.0
            };
            Value::Money {
                amount: pounds + pence,
            }
        }
        Kind::Percent => Value::Percent {
            fraction: between(random, 40, 99) as f64 / 100.0,
        },
        Kind::Decimal(low, high) => Value::Decimal {
            x: between(random, low * 10, high * 10 + 9) as f64 / 10.0,
            places: 1,
        },
        Kind::Date => Value::Date {
            date: NaiveDate::from_ymd_opt(
                1990 + between(random, 0, 35) as i32,
                1 + random.below(12) as u32,
                1 + random.below(28) as u32,
            )
            .unwrap_or_default(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_draws_the_same_document_and_headers_span_the_table() {
        for seed in 0..40 {
            let a = document(seed);
            let b = document(seed);
            assert_eq!(
                serde_json::to_string(&a).unwrap(),
                serde_json::to_string(&b).unwrap()
            );
            for block in &a.blocks {
                if let Block::Table(table) = block {
                    let width = table.width();
                    for row in &table.header {
                        let _ = row;
                    }
                    assert_eq!(table.header_paths().len(), width);
                    for row in &table.rows {
                        if row.kind != RowKind::Note {
                            assert_eq!(row.cells.len(), width, "seed {seed}");
                        }
                    }
                }
            }
        }
    }
}
