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
        let crops = match &args.crops {
            Some(dir) => write_crops(dir, &name, &read)?,
            None => Vec::new(),
        };
        let crop_of = |d: usize, n: usize| {
            crops
                .iter()
                .find(|(at, _)| *at == (d, n))
                .map(|(_, path)| path.display().to_string())
        };
        if args.json {
            println!(
                "{}",
                serde_json::to_string(&as_json(&name, format, &read, &crop_of))?
            );
            continue;
        }
        println!("{name} ({}): {} document(s)", format.name(), read.len());
        for (d, document) in read.iter().enumerate() {
            let mut context = String::new();
            for (n, passage) in passages_of(&document.text, &document.source)
                .into_iter()
                .enumerate()
            {
                if passage.context != context {
                    println!("\n[{}]", passage.context);
                    context = passage.context.clone();
                }
                let kind = passage.record.as_deref().map_or("paragraph", record_kind);
                println!("  {kind}: {}", passage.text);
                if let Some(path) = crop_of(d, n) {
                    println!("    as scanned: {path}");
                }
            }
        }
    }
    Ok(())
}

/// Writes the crop of each passage of `read` that has one into `dir` as `NAME-D-N.png`; where
/// each went, by document and passage (from 0).
fn write_crops(
    dir: &std::path::Path,
    name: &str,
    read: &[tally_documents::sentence_store::index::Document],
) -> anyhow::Result<Vec<((usize, usize), std::path::PathBuf)>> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("the folder {} could not be made", dir.display()))?;
    let mut written = Vec::new();
    for (d, document) in read.iter().enumerate() {
        for (n, passage) in passages_of(&document.text, &document.source)
            .iter()
            .enumerate()
        {
            let Some(crop) = &passage.crop else {
                continue;
            };
            let path = dir.join(format!("{name}-{}-{}.png", d + 1, n + 1));
            std::fs::write(&path, crop)
                .with_context(|| format!("{} could not be written", path.display()))?;
            written.push(((d, n), path));
        }
    }
    Ok(written)
}

/// What a file becomes, as JSON: each document's passages (context, kind, text, record, the
/// size of its crop and where `--crops` wrote it) and its tables as grids (the header paths,
/// each row's cells and kind).
fn as_json(
    name: &str,
    format: tally_documents::corpus::Format,
    read: &[tally_documents::sentence_store::index::Document],
    crop_of: &dyn Fn(usize, usize) -> Option<String>,
) -> serde_json::Value {
    let documents: Vec<serde_json::Value> = read
        .iter()
        .enumerate()
        .map(|(d, document)| {
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
                .enumerate()
                .map(|(n, p)| {
                    let mut passage = serde_json::json!({
                        "context": p.context,
                        "kind": p.record.as_deref().map_or("paragraph", record_kind),
                        "text": p.text,
                        "record": p.record.as_deref(),
                    });
                    // A scanned page's crop kept as the passage's evidence: its size, and the
                    // file `--crops` wrote it to.
                    if let Some(crop) = &p.crop {
                        passage["crop_bytes"] = crop.len().into();
                    }
                    if let Some(file) = crop_of(d, n) {
                        passage["crop_file"] = file.into();
                    }
                    passage
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
