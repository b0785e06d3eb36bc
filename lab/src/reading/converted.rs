//! Files an office suite made (issue 100): the generator's Word and Excel files converted by
//! LibreOffice — Word to PDF, Excel to OpenDocument, Excel to CSV with `;` between fields in a
//! German locale (decimal commas, thousands dots) — read by Tally and scored against the
//! generator's truth, as `eval reading` scores the generator's own files. Tally's readers never
//! saw these writers. The tests read the converted files kept in `tests/fixtures/libreoffice`;
//! `tally-lab eval reading --write-converted DIR` makes them again where LibreOffice is
//! installed.

use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context};

use tally_docgen::content;
use tally_docgen::render::{render, Format};

use super::{file_name, ReadingReport};

/// Each conversion: the generator's format, the format LibreOffice writes and its filter.
pub const CONVERSIONS: [(Format, Format, &str); 3] = [
    (Format::Docx, Format::Pdf, "pdf"),
    (Format::Xlsx, Format::Ods, "ods"),
    // Separator 59 (`;`), text delimiter 34 (`"`), UTF-8 (76), from line 1, German (1031),
    // cells as shown: what a spreadsheet in Germany exports.
    (
        Format::Xlsx,
        Format::Csv,
        "csv:Text - txt - csv (StarCalc):59,34,76,1,,1031,false,false,true",
    ),
];

/// The LibreOffice settings the conversions run under: the locale of Germany, so that the
/// CSV export writes decimal commas and thousands dots.
const GERMAN_PROFILE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Setup/L10N"><prop oor:name="ooSetupSystemLocale" oor:op="fuse"><value>de-DE</value></prop></item>
</oor:items>
"#;

/// Scores the converted files in `dir` (`NAME.pdf`, `NAME.ods`, `NAME.csv` for each seed's
/// document) against the generator's truth; a seed whose file is missing is left out.
pub fn evaluate_files(dir: &Path, seeds: impl Iterator<Item = u64>) -> ReadingReport {
    let mut report = ReadingReport::default();
    for seed in seeds {
        let document = content::document(seed);
        for (_, format, _) in CONVERSIONS {
            let name = file_name(&document, format);
            let Ok(bytes) = std::fs::read(dir.join(&name)) else {
                continue;
            };
            report.read_and_score(&document, format, &name, &bytes);
        }
    }
    report
}

/// Writes each seed's document as Word and Excel, converts them with LibreOffice (`soffice`)
/// into `dir`, and returns how many files were written.
pub fn write_converted(dir: &Path, seeds: impl Iterator<Item = u64>) -> anyhow::Result<usize> {
    std::fs::create_dir_all(dir)?;
    let scratch = tempfile::tempdir()?;
    let profile = scratch.path().join("profile");
    std::fs::create_dir_all(profile.join("user"))?;
    std::fs::write(
        profile.join("user/registrymodifications.xcu"),
        GERMAN_PROFILE,
    )?;
    let sources = scratch.path().join("sources");
    std::fs::create_dir_all(&sources)?;
    let mut written = 0;
    for seed in seeds {
        let document = content::document(seed);
        for (from, to, filter) in CONVERSIONS {
            let source = sources.join(file_name(&document, from));
            std::fs::write(&source, render(&document, from))?;
            let out = Command::new("soffice")
                .arg(format!(
                    "-env:UserInstallation=file://{}",
                    profile.display()
                ))
                .args(["--headless", "--convert-to", filter, "--outdir"])
                .arg(dir)
                .arg(&source)
                .output()
                .context("LibreOffice (soffice) could not be started; is it installed?")?;
            if !out.status.success() || !dir.join(file_name(&document, to)).exists() {
                bail!(
                    "LibreOffice did not convert {}: {}",
                    source.display(),
                    String::from_utf8_lossy(&out.stderr)
                );
            }
            written += 1;
        }
    }
    Ok(written)
}
