//! The PDF renderer read back by the reader ingestion uses.

use tally_docgen::model::{
    Block, Boilerplate, Cell, Document, HeaderCell, Row, RowKind, Table, Value, Word,
};
use tally_docgen::render::{render, Format};
use tally_documents::corpus::budget::ReadBudget;
use tally_documents::corpus::documents::read_file;
use tally_documents::corpus::format::Format as ReadFormat;

fn word(text: &str, hyphen_at: Option<usize>, note: Option<u8>) -> Word {
    Word {
        text: text.into(),
        hyphen_at,
        note,
    }
}

fn text(text: &str) -> Value {
    Value::Text { text: text.into() }
}

fn row(kind: RowKind, values: Vec<Value>) -> Row {
    let cells = values
        .into_iter()
        .map(|value| Cell { value, rowspan: 1 })
        .collect();
    Row { kind, cells }
}

/// A small document of every block, its table with a title row, a two-row header, a Total
/// and a note; `long` adds a table of 80 rows.
fn sample(seed: u64, long: bool) -> Document {
    let mut words: Vec<Word> = "The club has more members than ever and five new teams"
        .split(' ')
        .map(|w| word(w, (w == "members").then_some(3), None))
        .collect();
    words.push(word("played", None, Some(3)));
    words.push(word("this season.", None, None));
    let header = |t: &str, colspan, rowspan| HeaderCell {
        text: t.into(),
        colspan,
        rowspan,
    };
    let mut blocks = vec![
        Block::Heading {
            level: 1,
            text: "Our season".into(),
        },
        Block::Paragraph { words },
        Block::List {
            lead: Some("Present:".into()),
            items: vec!["J. Hollis".into(), "A. Patel".into()],
        },
        Block::KeyValues {
            pairs: vec![("Secretary".into(), "J. Hollis".into())],
        },
        Block::Table(Table {
            title_row: Some("Fees by team".into()),
            header: vec![vec![header("Team", 1, 2), header("Fees (£)", 1, 2)], vec![]],
            rows: vec![],
            features: vec![],
        }),
    ];
    let table = Table {
        title_row: Some("Fees by team".into()),
        header: vec![
            vec![
                header("Team", 1, 2),
                header("Fees (£)", 1, 2),
                header("Share", 2, 1),
            ],
            vec![header("2024–25", 1, 1), header("Players", 1, 1)],
        ],
        rows: vec![
            row(
                RowKind::Data,
                vec![
                    text("Kestrels"),
                    Value::Money { amount: 1250.5 },
                    Value::Percent { fraction: 0.91 },
                    Value::Integer { n: 1204 },
                ],
            ),
            row(
                RowKind::Data,
                vec![
                    text("Otters"),
                    Value::Money { amount: 980.0 },
                    Value::Percent { fraction: 0.5 },
                    Value::Integer { n: 77 },
                ],
            ),
            row(
                RowKind::Total,
                vec![
                    text("Total"),
                    Value::Money { amount: 2230.5 },
                    text(""),
                    text(""),
                ],
            ),
            row(RowKind::Note, vec![text("Fees are per term.")]),
        ],
        features: vec![],
    };
    blocks[4] = Block::Table(table);
    if long {
        let rows = (1..=80)
            .map(|n| {
                let values = vec![text(&format!("Week {n}")), Value::Integer { n: 100 + n }];
                row(RowKind::Data, values)
            })
            .collect();
        blocks.push(Block::Heading {
            level: 1,
            text: "Attendance".into(),
        });
        blocks.push(Block::Table(Table {
            title_row: None,
            header: vec![vec![header("Week", 1, 1), header("Visitors", 1, 1)]],
            rows,
            features: vec![],
        }));
    }
    Document {
        name: "t-sample".into(),
        seed,
        title: "Millbeck Anglers annual report".into(),
        blocks,
        boilerplate: Boilerplate {
            running_header: "Spring 2026 · Issue 41".into(),
            ..Boilerplate::default()
        },
    }
}

#[test]
fn the_reader_reads_the_pdf_and_its_table() {
    // Ruled, aligned and two-column.
    for seed in [2, 1, 3] {
        let bytes = render(&sample(seed, true), Format::Pdf);
        let read = read_file(&bytes, ReadFormat::Pdf, "t.pdf", &ReadBudget::default());
        let read = read.unwrap_or_else(|e| panic!("seed {seed}: refused: {e}"));
        let text: String = read.iter().map(|d| d.text.as_str()).collect();
        eprintln!("--- seed {seed}\n{text}");
        assert!(text.contains("Week 80"), "seed {seed}");
    }
}
