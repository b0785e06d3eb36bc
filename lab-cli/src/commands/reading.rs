//! `tally eval reading`: generated documents in every format, read back and scored cell by cell
//! (issue 85), or written to a directory with their truth.

use anyhow::{bail, Context};

use crate::cli::EvalReadingArgs;
use tally_docgen::render::Format;
use tally_lab::reading::{converted, evaluate, print, receipts, scans, web_tables, write};

/// Runs `tally eval reading`.
pub(crate) fn eval(args: &EvalReadingArgs) -> anyhow::Result<()> {
    let formats = if args.formats.is_empty() {
        Format::ALL.to_vec()
    } else {
        let mut formats = Vec::new();
        for name in &args.formats {
            match Format::parse(name) {
                Some(format) => formats.push(format),
                None => bail!(
                    "'{name}' is not a format the generator writes (one of: {})",
                    Format::ALL.map(Format::extension).join(", ")
                ),
            }
        }
        formats
    };
    if args.web_tables {
        let report = web_tables::evaluate(&args.wtq, args.part, args.limit)?;
        if args.json {
            println!("{}", serde_json::to_string_pretty(&report)?);
        } else {
            web_tables::print(args.part, &report);
        }
        return Ok(());
    }
    let seeds = args.part.seeds(args.seeds);
    if let Some(dir) = &args.write_converted {
        let written = converted::write_converted(dir, seeds)?;
        println!("LibreOffice wrote {written} files to {}", dir.display());
        return Ok(());
    }
    if let Some(dir) = &args.files {
        let report = converted::evaluate_files(dir, seeds);
        if report.formats.is_empty() {
            bail!(
                "no converted file of the {:?} part's documents in {}",
                args.part,
                dir.display()
            );
        }
        if args.json {
            println!("{}", serde_json::to_string_pretty(&report)?);
        } else {
            println!(
                "reading files LibreOffice made from the generator's documents, {:?} part\n",
                args.part
            );
            print(&report);
        }
        return Ok(());
    }
    let conditions = if args.conditions.is_empty() {
        tally_docgen::scan::Condition::ALL.to_vec()
    } else {
        args.conditions.clone()
    };
    if args.receipts {
        if let Some(dir) = &args.write {
            let written =
                tally_docgen::receipt::write_receipt_scans(&args.scan_files, &conditions, dir)?;
            println!("wrote {written} receipts to {}", dir.display());
            return Ok(());
        }
        let scores = receipts::evaluate(seeds, &conditions)?;
        if args.json {
            println!("{}", serde_json::to_string_pretty(&scores)?);
        } else {
            println!(
                "reading till receipts by OCR, {:?} part ({} receipts)\n",
                args.part, args.seeds
            );
            receipts::print_scores(&scores);
        }
        return Ok(());
    }
    if args.scans {
        if let Some(dir) = &args.write {
            let written = tally_docgen::scan::write_scans(&args.scan_files, &conditions, dir)?;
            println!("wrote {written} scanned files to {}", dir.display());
            return Ok(());
        }
        let scores = scans::evaluate(seeds, &conditions)?;
        if args.json {
            println!("{}", serde_json::to_string_pretty(&scores)?);
        } else {
            println!(
                "reading scanned pages by OCR, {:?} part ({} documents)\n",
                args.part, args.seeds
            );
            scans::print_scores(&scores);
        }
        return Ok(());
    }
    if let Some(dir) = &args.write {
        let written = write(dir, seeds, &formats)
            .with_context(|| format!("cannot write the documents to {}", dir.display()))?;
        println!("wrote {written} files and their truth to {}", dir.display());
        return Ok(());
    }
    let report = evaluate(seeds, &formats);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "reading, {:?} part ({} documents per format)\n",
            args.part, args.seeds
        );
        print(&report);
    }
    Ok(())
}
