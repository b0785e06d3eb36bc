//! `tally-lab convert`: part of the own-documents collection written in the formats people keep
//! documents in (PDF, Word, PowerPoint, Excel, OpenDocument, e-mail, EPUB) by the generator's
//! renderers, the one writer of each format (issues 72 and 102).

use std::path::PathBuf;

use anyhow::Context;

/// Where the collection is and where its converted files go.
#[derive(Debug, clap::Args)]
pub(crate) struct ConvertArgs {
    /// The collection whose `documents/` are converted.
    #[arg(long, default_value = "tests/fixtures/own-documents")]
    pub(crate) collection: PathBuf,
    /// The folder the files are written into (default: the collection's `converted/`).
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
}

/// Writes the converted files and lists them with their sizes.
pub(crate) fn convert(args: &ConvertArgs) -> anyhow::Result<()> {
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| args.collection.join("converted"));
    let written = tally_docgen::convert::convert_collection(&args.collection, &out)
        .with_context(|| format!("converting {}", args.collection.display()))?;
    for path in written {
        let size = std::fs::metadata(&path).map_or(0, |m| m.len());
        println!("{size:8}  {}", path.display());
    }
    Ok(())
}
