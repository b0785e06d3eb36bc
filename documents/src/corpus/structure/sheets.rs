//! Excel (`.xlsx`, `.xls`) and OpenDocument (`.ods`) spreadsheets read with `calamine`: each sheet
//! a table of typed cells under the sheet's name, its first row naming the columns when it names
//! them (as a CSV file's does), each row at its place ("sheet 'Fares', row 7"). A formula is read
//! as the value the file saved for it, never as its text; a date as a date. An `.xlsx` sheet is
//! read cell by cell within the table bounds, so a sheet that claims a billion cells costs only
//! the cells it holds.

use std::collections::BTreeMap;
use std::io::Cursor;

use calamine::{Data, DataRef, DataType, Reader, Xlsx};

use super::markdown::push_headed_table;
use super::sheet_formats::{self, CellMap, Merge, SheetFormats};
use super::{Outline, OutlineBuilder, Record};
use crate::corpus::archive::check_archive;
use crate::corpus::budget::{
    bounded_context_part, ReadBudget, ReadRefused, TableSize, MAX_TABLE_COLUMNS,
};
use crate::corpus::format::Format;

/// A sheet's rows that hold something, each with its number as the spreadsheet shows it (from 1).
type SheetRows = Vec<(u32, Vec<String>)>;

pub(crate) fn outline(
    bytes: &[u8],
    format: Format,
    budget: &ReadBudget,
) -> Result<Outline, ReadRefused> {
    let what = match format {
        Format::Ods => "an OpenDocument spreadsheet",
        _ => "an Excel workbook",
    };
    if format != Format::Xls {
        check_archive(bytes, what, budget)?;
    }
    if format == Format::Ods {
        check_ods_cells(bytes, budget)?;
    }
    let damaged = |e: calamine::Error| ReadRefused::damaged(what, e);
    let mut builder = OutlineBuilder::new(budget);
    if format == Format::Xlsx {
        let mut workbook: Xlsx<_> = Xlsx::new(Cursor::new(bytes)).map_err(|e| damaged(e.into()))?;
        for name in workbook.sheet_names() {
            let rows = xlsx_rows(&mut workbook, &name, budget).map_err(|e| match e {
                SheetError::Refused(why) => why,
                SheetError::Damaged(e) => damaged(e.into()),
            })?;
            push_sheet(&mut builder, &name, rows)?;
        }
    } else {
        let mut workbook =
            calamine::open_workbook_auto_from_rs(Cursor::new(bytes)).map_err(|e| match e {
                calamine::Error::Xls(calamine::XlsError::Password) => ReadRefused::Unreadable(
                    "it is encrypted (password-protected); save a copy without a password".into(),
                ),
                other => damaged(other),
            })?;
        let names = workbook.sheet_names();
        let ods_sheets = if format == Format::Ods {
            sheet_formats::ods_formats(bytes)
        } else {
            Vec::new()
        };
        for (sheet, name) in names.into_iter().enumerate() {
            budget.check()?;
            let range = workbook.worksheet_range(&name).map_err(damaged)?;
            let (top, left) = range.start().unwrap_or((0, 0));
            let mut size = TableSize::default();
            let mut cells = CellMap::new();
            for (n, row) in range.rows().enumerate() {
                size.add_row(row.len())?;
                for (c, cell) in row.iter().enumerate() {
                    let text = cell_text(cell);
                    if !text.is_empty() {
                        cells
                            .entry(top + n as u32)
                            .or_default()
                            .insert(left + c as u32, text);
                    }
                }
            }
            if let Some(formats) = ods_sheets.get(sheet) {
                sheet_formats::apply(&mut cells, formats);
            }
            push_sheet(&mut builder, &name, rows_of(cells, 0))?;
        }
    }
    builder.finish()
}

/// An OpenDocument sheet says "this row, 100,000 times" and "this cell, 1,000 times" in a few
/// bytes, and `calamine` writes out every repetition (a 2 KB file took 4.2 GB and 12.6 s): the
/// grid each sheet spans is measured from `content.xml` first, streaming, and a sheet past the
/// table bounds, or whose cells with content would produce more than the file's budget, is
/// refused before it is read. The grid runs to the last row and column that hold something:
/// empty cells repeated before a cell with content are part of it (issue 84: a 1,630-byte file
/// of empty repeated cells grew the server by 2.9 GB), the empty rest of the grid a spreadsheet
/// saves after its content is not.
fn check_ods_cells(bytes: &[u8], budget: &ReadBudget) -> Result<(), ReadRefused> {
    use quick_xml::events::Event;
    const WHAT: &str = "an OpenDocument spreadsheet";
    let mut archive =
        zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| ReadRefused::damaged(WHAT, e))?;
    let content = archive
        .by_name("content.xml")
        .map_err(|e| ReadRefused::damaged(WHAT, e))?;
    let mut reader = quick_xml::Reader::from_reader(std::io::BufReader::new(content));
    let repeated = |e: &quick_xml::events::BytesStart<'_>, name: &str| -> u64 {
        e.attributes()
            .flatten()
            .find(|a| a.key.local_name().as_ref() == name)
            .and_then(|a| a.value.trim().parse().ok())
            .unwrap_or(1)
    };
    let valued = |e: &quick_xml::events::BytesStart<'_>| {
        e.attributes()
            .flatten()
            .any(|a| a.key.local_name().as_ref() == "value-type")
    };
    let too_large = |why: String| Err(ReadRefused::TooLarge(why));
    let max_cells = crate::corpus::budget::MAX_TABLE_CELLS as u64;
    // A cell with content writes at least this many bytes of passage (its text, its column, the
    // row's record).
    const BYTES_PER_CELL: u64 = 8;
    let max_valued = budget.max_output() as u64 / BYTES_PER_CELL;
    // The sheet's rows so far, the row after the last one with content, its widest extent.
    let (mut rows, mut rows_used, mut width) = (0u64, 0u64, 0u64);
    // This row: its repetition, the cells so far, the extent to its last cell with content.
    let (mut row_repeat, mut row_columns, mut row_extent, mut row_valued) =
        (1u64, 0u64, 0u64, 0u64);
    let (mut grid, mut valued_cells) = (0u64, 0u64);
    let mut buffer = Vec::new();
    loop {
        let event = reader
            .read_event_into(&mut buffer)
            .map_err(|e| ReadRefused::damaged(WHAT, e))?;
        match &event {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "table" => {
                (rows, rows_used, width) = (0, 0, 0);
            }
            Event::End(e) if e.local_name().as_ref() == "table" => {
                grid = grid.saturating_add(rows_used.saturating_mul(width));
            }
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "table-row" => {
                row_repeat = repeated(e, "number-rows-repeated");
                (row_columns, row_extent, row_valued) = (0, 0, 0);
                if matches!(event, Event::Empty(_)) {
                    rows = rows.saturating_add(row_repeat);
                }
            }
            Event::Start(e) | Event::Empty(e)
                if matches!(e.local_name().as_ref(), "table-cell" | "covered-table-cell") =>
            {
                let columns = repeated(e, "number-columns-repeated");
                row_columns = row_columns.saturating_add(columns);
                // A cell with content (a value, or text inside it) is read for each repetition.
                if valued(e) || matches!(event, Event::Start(_)) {
                    row_extent = row_columns;
                    row_valued = row_valued.saturating_add(columns);
                }
            }
            Event::End(e) if e.local_name().as_ref() == "table-row" => {
                rows = rows.saturating_add(row_repeat);
                if row_extent > 0 {
                    rows_used = rows;
                    width = width.max(row_extent);
                }
                valued_cells = valued_cells.saturating_add(row_repeat.saturating_mul(row_valued));
                if grid.saturating_add(rows_used.saturating_mul(width)) > max_cells {
                    return too_large(format!(
                        "its sheets span more than {max_cells} cells once their repeated rows \
                         and cells are written out"
                    ));
                }
                if valued_cells > max_valued {
                    return too_large(format!(
                        "its sheets repeat cells with content {valued_cells} times, more than a \
                         file of its size holds (at most {max_valued})"
                    ));
                }
            }
            Event::Eof => return Ok(()),
            _ => {}
        }
        buffer.clear();
    }
}

enum SheetError {
    Refused(ReadRefused),
    Damaged(calamine::XlsxError),
}

impl From<ReadRefused> for SheetError {
    fn from(why: ReadRefused) -> Self {
        SheetError::Refused(why)
    }
}

/// An `.xlsx` sheet's rows, read cell by cell.
fn xlsx_rows(
    workbook: &mut Xlsx<Cursor<&[u8]>>,
    name: &str,
    budget: &ReadBudget,
) -> Result<SheetRows, SheetError> {
    let mut reader = workbook
        .worksheet_cells_reader(name)
        .map_err(SheetError::Damaged)?;
    let mut rows: BTreeMap<u32, BTreeMap<u32, String>> = BTreeMap::new();
    let mut cells = 0usize;
    while let Some(cell) = reader.next_cell().map_err(SheetError::Damaged)? {
        let (row, column) = cell.get_position();
        let text = cell_ref_text(cell.get_value());
        if text.is_empty() {
            continue;
        }
        if column as usize >= MAX_TABLE_COLUMNS {
            return Err(ReadRefused::TooLarge(format!(
                "sheet '{name}' has a cell past column {MAX_TABLE_COLUMNS}; at most \
                 {MAX_TABLE_COLUMNS} columns are read"
            ))
            .into());
        }
        cells += 1;
        if cells.is_multiple_of(4096) {
            budget.check()?;
        }
        if cells > crate::corpus::budget::MAX_TABLE_CELLS {
            return Err(ReadRefused::TooLarge(format!(
                "sheet '{name}' has more than {} cells",
                crate::corpus::budget::MAX_TABLE_CELLS
            ))
            .into());
        }
        rows.entry(row).or_default().insert(column, text);
    }
    drop(reader);
    let formats = xlsx_formats(workbook, name, &rows, budget)?;
    sheet_formats::apply(&mut rows, &formats);
    let left = rows
        .values()
        .filter_map(|r| r.keys().next().copied())
        .min()
        .unwrap_or(0);
    Ok(rows_of(rows, left))
}

/// A sheet's cells as rows numbered as the spreadsheet shows them (from 1), each from column
/// `left`.
fn rows_of(cells: CellMap, left: u32) -> SheetRows {
    cells
        .into_iter()
        .filter(|(_, cells)| cells.values().any(|c| !c.is_empty()))
        .map(|(row, cells)| {
            let width = cells.keys().last().map_or(0, |c| c + 1);
            let mut out = vec![String::new(); width.saturating_sub(left) as usize];
            for (column, text) in cells {
                if column >= left {
                    out[(column - left) as usize] = text;
                }
            }
            (row + 1, out)
        })
        .collect()
}

/// An `.xlsx` sheet's number formats for the cells read (its cells' style ids, streamed once
/// more within the table bounds) and its merged regions.
fn xlsx_formats(
    workbook: &mut Xlsx<Cursor<&[u8]>>,
    name: &str,
    cells: &CellMap,
    budget: &ReadBudget,
) -> Result<SheetFormats, SheetError> {
    let mut formats = SheetFormats::default();
    let mut reader = workbook
        .worksheet_cells_reader(name)
        .map_err(SheetError::Damaged)?;
    let mut seen = 0usize;
    while let Some((row, column, id)) = reader.next_style_id().map_err(SheetError::Damaged)? {
        seen += 1;
        if seen.is_multiple_of(4096) {
            budget.check()?;
        }
        if seen > crate::corpus::budget::MAX_TABLE_CELLS {
            break;
        }
        let Some(text) = cells.get(&row).and_then(|r| r.get(&column)) else {
            continue;
        };
        if text.parse::<f64>().is_err() {
            continue;
        }
        let shown = reader
            .styles()
            .get(id)
            .and_then(|style| style.number_format.as_ref())
            .and_then(|format| sheet_formats::shown_by_format_code(&format.format_code));
        if let Some(shown) = shown {
            formats.shown.insert((row, column), shown);
        }
    }
    drop(reader);
    if let Ok(merges) = workbook.merge_cells_by_sheet_name(name) {
        formats.merges = merges
            .into_iter()
            .take(200_000)
            .map(|d| Merge {
                top: d.start.0,
                left: d.start.1,
                bottom: d.end.0,
                right: d.end.1,
            })
            .collect();
    }
    Ok(formats)
}

/// A sheet's rows as a table under the sheet's name, each row at its place.
fn push_sheet(
    builder: &mut OutlineBuilder,
    name: &str,
    rows: SheetRows,
) -> Result<(), ReadRefused> {
    if rows.is_empty() {
        return Ok(());
    }
    let sheet = format!("sheet '{}'", bounded_context_part(name));
    builder.place = Some(sheet.clone());
    // "Sheet1" names no subject; a sheet called "Fares" heads its rows (as a section, never
    // as the workbook's title: the file's name is its title, as a CSV file's is).
    builder.headings.clear();
    if !is_default_name(name) {
        builder
            .headings
            .push((2, bounded_context_part(&super::clean(name))));
    }
    let first = builder.outline.blocks.len();
    let numbers: Vec<u32> = rows.iter().map(|(n, _)| *n).collect();
    let width = rows.iter().map(|(_, r)| r.len()).max().unwrap_or(0);
    let cells: Vec<Vec<String>> = rows
        .into_iter()
        .map(|(_, mut r)| {
            r.resize(width, String::new());
            r
        })
        .collect();
    push_headed_table(builder, cells, false)?;
    // The rows pushed are the sheet's rows after its header, if it has one.
    let pushed = &mut builder.outline.blocks[first..];
    let row_blocks = pushed.iter().filter(|b| is_body_row(&b.kind)).count();
    let skip = numbers.len().saturating_sub(row_blocks);
    let mut numbers = numbers.into_iter().skip(skip);
    for block in pushed {
        if is_body_row(&block.kind) {
            if let Some(n) = numbers.next() {
                block.place = Some(format!("{sheet}, row {n}"));
            }
        }
    }
    builder.place = None;
    Ok(())
}

/// Whether a block pushed for a sheet is one of its body rows (a row, a Total row, a
/// `Label: value` row or a note across the table), each at its own row of the sheet.
fn is_body_row(record: &Record) -> bool {
    matches!(
        record,
        Record::TableRow { .. }
            | Record::TotalRow { .. }
            | Record::KeyValue { .. }
            | Record::Paragraph(_)
    )
}

fn is_default_name(name: &str) -> bool {
    let lower = name.trim().to_lowercase();
    let stem = lower.trim_end_matches(|c: char| c.is_ascii_digit()).trim();
    matches!(
        stem,
        "sheet" | "tabelle" | "feuil" | "hoja" | "foglio" | "blad" | "ark"
    )
}

/// A cell as text: a number as written without a trailing `.0`, a date as a date, a formula as
/// its saved value, an error cell as nothing.
fn cell_text(cell: &Data) -> String {
    match cell {
        Data::Int(n) => n.to_string(),
        Data::Float(f) => number_text(*f),
        Data::String(s) => s.trim().to_string(),
        Data::Bool(b) => if *b { "yes" } else { "no" }.to_string(),
        Data::DateTime(_) | Data::DateTimeIso(_) => date_text(cell),
        Data::DurationIso(s) => s.clone(),
        Data::Error(_) | Data::Empty => String::new(),
    }
}

fn cell_ref_text(cell: &DataRef<'_>) -> String {
    match cell {
        DataRef::SharedString(s) => s.trim().to_string(),
        DataRef::String(s) => s.trim().to_string(),
        DataRef::Int(n) => n.to_string(),
        DataRef::Float(f) => number_text(*f),
        DataRef::Bool(b) => if *b { "yes" } else { "no" }.to_string(),
        DataRef::DateTime(_) | DataRef::DateTimeIso(_) => date_text(cell),
        DataRef::DurationIso(s) => s.clone(),
        DataRef::Error(_) | DataRef::Empty => String::new(),
    }
}

fn date_text(cell: &impl DataType) -> String {
    match cell.as_datetime() {
        Some(at) if at.time() == chrono::NaiveTime::MIN => at.format("%Y-%m-%d").to_string(),
        Some(at) => at.format("%Y-%m-%d %H:%M").to_string(),
        // An OpenDocument date ("2026-03-14", "2026-03-14T09:30:00") that is not read as a
        // date-time is its ISO text, never nothing.
        None => cell
            .as_string()
            .or_else(|| cell.get_datetime_iso().map(str::to_string))
            .unwrap_or_default(),
    }
}

/// 17 → "17", 32.5 → "32.5", 0.1 + 0.2 → "0.3" (at most 10 significant decimals).
fn number_text(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 1e15 {
        return format!("{}", f as i64);
    }
    let text = format!("{f:.10}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::archive::tests::zip_of;

    /// An `.xlsx` workbook of one sheet named `name` whose `<sheetData>` is `data`.
    fn xlsx_of(name: &str, dimension: &str, data: &str) -> Vec<u8> {
        let content_types = r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>"#;
        let rels = r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#;
        let workbook = format!(
            r#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="{name}" sheetId="1" r:id="rId1"/></sheets></workbook>"#
        );
        let workbook_rels = r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>"#;
        let sheet = format!(
            r#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="{dimension}"/><sheetData>{data}</sheetData></worksheet>"#
        );
        zip_of(&[
            ("[Content_Types].xml", content_types.as_bytes()),
            ("_rels/.rels", rels.as_bytes()),
            ("xl/workbook.xml", workbook.as_bytes()),
            ("xl/_rels/workbook.xml.rels", workbook_rels.as_bytes()),
            ("xl/worksheets/sheet1.xml", sheet.as_bytes()),
        ])
    }

    fn text_cell(at: &str, text: &str) -> String {
        format!(r#"<c r="{at}" t="inlineStr"><is><t>{text}</t></is></c>"#)
    }

    #[test]
    fn a_sheet_is_a_table_its_formulas_their_saved_values_each_row_at_its_place() {
        let data = format!(
            r#"<row r="1">{}{}{}</row><row r="2">{}<c r="B2"><v>4</v></c><c r="C2"><f>B2*2.5</f><v>10</v></c></row><row r="3">{}<c r="B3"><v>2</v></c><c r="C3"><f>B3*2.5</f><v>5</v></c></row>"#,
            text_cell("A1", "Station"),
            text_cell("B1", "Platforms"),
            text_cell("C1", "Fare (£)"),
            text_cell("A2", "Port Astley"),
            text_cell("A3", "Quayhead"),
        );
        let outline = outline(
            &xlsx_of("Stations", "A1:C3", &data),
            Format::Xlsx,
            &ReadBudget::default(),
        )
        .unwrap();
        let rows: Vec<(&Record, Option<&str>)> = outline
            .blocks
            .iter()
            .map(|b| (&b.kind, b.place.as_deref()))
            .collect();
        assert_eq!(
            rows[0],
            (
                &Record::TableRow {
                    header: vec!["Station".into(), "Platforms".into(), "Fare (£)".into()].into(),
                    cells: vec!["Port Astley".into(), "4".into(), "10".into()],
                },
                Some("sheet 'Stations', row 2")
            )
        );
        assert_eq!(rows[1].1, Some("sheet 'Stations', row 3"));
        assert_eq!(outline.blocks[0].sections, ["Stations"]);
    }

    #[test]
    fn a_sheet_claiming_a_billion_cells_costs_only_the_cells_it_holds() {
        // The dimension says 17 billion cells, and two are written, a million rows apart.
        let data = format!(
            r#"<row r="1">{}</row><row r="1048576">{}</row>"#,
            text_cell("A1", "Total"),
            text_cell("A1048576", "End of sheet"),
        );
        let read = outline(
            &xlsx_of("Sheet1", "A1:XFD1048576", &data),
            Format::Xlsx,
            &ReadBudget::default(),
        )
        .unwrap();
        assert_eq!(read.blocks.len(), 2, "{:?}", read.blocks);
        // A cell far past the columns a table may have is refused with a sentence.
        let wide = format!(r#"<row r="1">{}</row>"#, text_cell("XFD1", "far away"));
        let refused = outline(
            &xlsx_of("Wide", "A1:XFD1", &wide),
            Format::Xlsx,
            &ReadBudget::default(),
        )
        .unwrap_err();
        assert!(refused.to_string().contains("column"), "{refused}");
    }
}

#[cfg(test)]
mod ods_bounds {
    use super::*;
    use crate::corpus::archive::tests::zip_of;

    fn ods_of(rows: &str) -> Vec<u8> {
        let content = format!(
            r#"<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:spreadsheet><table:table table:name="Fees">{rows}</table:table></office:spreadsheet></office:body></office:document-content>"#
        );
        zip_of(&[
            (
                "mimetype",
                b"application/vnd.oasis.opendocument.spreadsheet",
            ),
            ("content.xml", content.as_bytes()),
            ("META-INF/manifest.xml", br#"<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>"#),
        ])
    }

    /// Issue 85: a merged title above the header is the table's caption, a date cell is a
    /// date, money and percents keep their sign, a Total row and a note are not data rows.
    #[test]
    fn a_sheet_is_read_as_its_owner_sees_it() {
        let cell = |kind: &str, value: &str, shown: &str| {
            format!(
                r#"<table:table-cell office:value-type="{kind}" {value}><text:p>{shown}</text:p></table:table-cell>"#
            )
        };
        let text = |t: &str| cell("string", "", t);
        let row =
            |cells: &[String]| format!("<table:table-row>{}</table:table-row>", cells.concat());
        let trip = |name: &str, date: &str, fee: &str, full: &str| {
            row(&[
                text(name),
                cell("date", &format!(r#"office:date-value="{date}""#), date),
                cell(
                    "currency",
                    &format!(r#"office:currency="GBP" office:value="{fee}""#),
                    fee,
                ),
                cell("percentage", &format!(r#"office:value="{full}""#), full),
            ])
        };
        let sheet = [
            row(&[
                r#"<table:table-cell table:number-columns-spanned="4" office:value-type="string"><text:p>Club trips, 2026</text:p></table:table-cell>"#.to_string(),
                "<table:covered-table-cell/>".repeat(3),
            ]),
            row(&[text("Trip"), text("Date"), text("Fee"), text("Seats filled")]),
            trip("Malham Cove", "2026-03-14", "45", "0.91"),
            trip("Whitby", "2026-05-02", "38.5", "0.75"),
            row(&[text("Total"), text(""), cell("currency", r#"office:currency="GBP" office:value="83.5""#, "83.5"), text("")]),
            row(&[
                r#"<table:table-cell table:number-columns-spanned="4" office:value-type="string"><text:p>Fees are per member and include the coach.</text:p></table:table-cell>"#.to_string(),
                "<table:covered-table-cell/>".repeat(3),
            ]),
        ]
        .concat();
        let outline = outline(&ods_of(&sheet), Format::Ods, &ReadBudget::default()).unwrap();
        let kinds: Vec<&Record> = outline.blocks.iter().map(|b| &b.kind).collect();
        let header: std::sync::Arc<[String]> = vec![
            "Trip".into(),
            "Date".into(),
            "Fee".into(),
            "Seats filled".into(),
        ]
        .into();
        assert_eq!(
            kinds[0],
            &Record::TableRow {
                header: header.clone(),
                cells: vec![
                    "Malham Cove".into(),
                    "2026-03-14".into(),
                    "£45.00".into(),
                    "91%".into()
                ]
            }
        );
        assert!(matches!(kinds[2], Record::TotalRow { cells, .. } if cells[2] == "£83.50"));
        assert!(matches!(kinds[3], Record::Paragraph(p) if p.starts_with("Fees are per member")));
        assert!(outline.blocks[0]
            .sections
            .iter()
            .any(|s| s == "Club trips, 2026"));
        assert_eq!(
            outline.blocks[1].place.as_deref(),
            Some("sheet 'Fees', row 4")
        );
    }

    #[test]
    fn repeated_cells_are_counted_before_the_sheet_is_read() {
        // 100,000 rows of 1,000 cells in a few hundred bytes: calamine would write out all
        // 100 million (4.2 GB in a trial).
        let bomb = ods_of(
            r#"<table:table-row table:number-rows-repeated="100000"><table:table-cell table:number-columns-repeated="1000" office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>"#,
        );
        let budget = ReadBudget::for_bytes(bomb.len());
        let refused = check_ods_cells(&bomb, &budget).unwrap_err();
        assert!(refused.to_string().contains("span more than"), "{refused}");
        // The empty rest of a saved grid is not counted.
        let saved = ods_of(
            r#"<table:table-row><table:table-cell office:value-type="string"><text:p>Adult</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="285"><text:p>285</text:p></table:table-cell><table:table-cell table:number-columns-repeated="1022"/></table:table-row><table:table-row table:number-rows-repeated="1048575"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>"#,
        );
        assert!(check_ods_cells(&saved, &ReadBudget::for_bytes(saved.len())).is_ok());
    }

    #[test]
    fn empty_cells_repeated_before_content_are_part_of_the_grid() {
        // Issue 84: empty self-closing cells 16,000 wide before one value, 100,000 rows.
        let bomb = ods_of(
            r#"<table:table-row table:number-rows-repeated="100000"><table:table-cell table:number-columns-repeated="16000"/><table:table-cell office:value-type="float" office:value="7"><text:p>7</text:p></table:table-cell></table:table-row>"#,
        );
        assert!(bomb.len() < 2_000, "{}", bomb.len());
        let refused = check_ods_cells(&bomb, &ReadBudget::for_bytes(bomb.len())).unwrap_err();
        assert!(refused.to_string().contains("span more than"), "{refused}");
    }

    #[test]
    fn a_small_file_may_not_repeat_one_value_a_million_times() {
        // Issue 84: 1.6 KB, one cell over 1,048,575 rows: a million rows stored, 1.57 GB.
        let rows = r#"<table:table-row table:number-rows-repeated="1048575"><table:table-cell office:value-type="float" office:value="7"><text:p>7</text:p></table:table-cell></table:table-row>"#;
        let bomb = ods_of(rows);
        let refused = check_ods_cells(&bomb, &ReadBudget::for_bytes(bomb.len())).unwrap_err();
        assert!(
            refused.to_string().contains("more than a file of its size"),
            "{refused}"
        );
        // Through the reader, as an upload is read: refused before calamine writes it out.
        let refused = outline(&bomb, Format::Ods, &ReadBudget::for_bytes(bomb.len()));
        assert!(
            matches!(refused, Err(ReadRefused::TooLarge(_))),
            "{refused:?}"
        );
        // A sheet of a few thousand rows, as people keep, is within any file's budget.
        let kept = ods_of(
            r#"<table:table-row table:number-rows-repeated="5000"><table:table-cell office:value-type="float" office:value="7"><text:p>7</text:p></table:table-cell></table:table-row>"#,
        );
        assert!(check_ods_cells(&kept, &ReadBudget::for_bytes(kept.len())).is_ok());
    }
}
