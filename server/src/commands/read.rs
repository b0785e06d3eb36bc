//! `tally read FILE…`: what Tally reads in a person's documents, without storing anything —
//! each passage under its context (title, section path, page, sheet and row, slide), with the
//! kind of record it is, as the indexes would hold it.

use anyhow::Context;
use tally_documents::corpus::budget::ReadBudget;
use tally_documents::corpus::documents;
use tally_documents::corpus::structure::{passages_of, without_place, Record};

use super::ingest::file_format;
use crate::cli::ReadArgs;

/// `tally read FILE…`: what Tally reads in each file, passage by passage with its place.
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
        if args.json {
            println!("{}", serde_json::to_string(&as_json(&name, format, &read))?);
            continue;
        }
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

/// What a file becomes, as JSON: each document's passages (context, kind, text, record) and its
/// tables as grids (the header paths, each row's cells and kind).
fn as_json(
    name: &str,
    format: tally_documents::corpus::Format,
    read: &[tally_documents::sentence_store::index::Document],
) -> serde_json::Value {
    let documents: Vec<serde_json::Value> = read
        .iter()
        .map(|document| {
            let passages = passages_of(&document.text, &document.source);
            let mut tables: Vec<serde_json::Value> = Vec::new();
            let mut last: Option<(&str, &[String])> = None;
            for passage in &passages {
                let (header, cells, kind) = match passage.record.as_deref() {
                    Some(Record::TableRow { header, cells }) => (header, cells, "data"),
                    Some(Record::TotalRow { header, cells }) => (header, cells, "total"),
                    _ => continue,
                };
                let key = (without_place(&passage.context), &header[..]);
                if last != Some(key) {
                    tables.push(serde_json::json!({
                        "context": passage.context,
                        "header": header.to_vec(),
                        "rows": [],
                    }));
                    last = Some(key);
                }
                if let Some(rows) = tables.last_mut().and_then(|t| t["rows"].as_array_mut()) {
                    rows.push(serde_json::json!({ "kind": kind, "cells": cells }));
                }
            }
            let passages: Vec<serde_json::Value> = passages
                .iter()
                .map(|p| {
                    serde_json::json!({
                        "context": p.context,
                        "kind": p.record.as_deref().map_or("paragraph", record_kind),
                        "text": p.text,
                        "record": p.record.as_deref(),
                        // The size of the scanned page's crop kept as its evidence.
                        "crop_bytes": p.crop.as_ref().map(|c| c.len()),
                    })
                })
                .collect();
            serde_json::json!({
                "source": document.source,
                "passages": passages,
                "tables": tables,
            })
        })
        .collect();
    serde_json::json!({ "file": name, "format": format, "documents": documents })
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
