//! `tally read FILE…`: what Tally reads in a person's documents, without storing anything —
//! each passage under its context (title, section path, page, sheet and row, slide), with the
//! kind of record it is, as the indexes would hold it.

use anyhow::Context;
use tally_documents::corpus::budget::ReadBudget;
use tally_documents::corpus::documents;
use tally_documents::corpus::structure::{passages_of, Record};

use super::ingest::file_format;
use crate::cli::ReadArgs;

pub fn read(args: &ReadArgs) -> anyhow::Result<()> {
    for file in &args.files {
        let format = file_format(file, args.format)?;
        let bytes =
            std::fs::read(file).with_context(|| format!("{} could not be read", file.display()))?;
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let read =
            documents::read_file(&bytes, format, &name, &ReadBudget::for_bytes(bytes.len()))?;
        println!("{name} ({}): {} document(s)", format.name(), read.len());
        for document in &read {
            let mut context = String::new();
            for passage in passages_of(&document.text, &document.source) {
                if passage.context != context {
                    println!("\n[{}]", passage.context);
                    context = passage.context.clone();
                }
                let kind = passage.record.as_deref().map_or("paragraph", record_kind);
                println!("  {kind}: {}", passage.text);
            }
        }
    }
    Ok(())
}

/// The kind of a record, as the listing names it.
fn record_kind(record: &Record) -> &'static str {
    match record {
        Record::Paragraph(_) => "paragraph",
        Record::List { .. } => "list",
        Record::RowNames { .. } => "column",
        Record::KeyValue { .. } => "key-value",
        Record::TableRow { .. } => "row",
        Record::TotalRow { .. } => "total",
        Record::Turn { .. } => "turn",
        Record::Dated { .. } => "dated",
    }
}
