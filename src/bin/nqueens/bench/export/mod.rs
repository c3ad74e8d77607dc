//! Exports like hyperfine's: each format is a tiny [`Exporter`], and [`Export`] writes one file.

mod csv;
mod json;
mod markdown;
pub mod svg;

use std::path::PathBuf;

pub use self::csv::Csv;
pub use self::json::Json;
pub use self::markdown::Markdown;
pub use self::svg::Svg;
use super::{Bench, Error};

/// Turns a benchmark into the bytes of one file format.
pub trait Exporter {
    /// The whole file.
    fn serialize(&self, bench: &Bench) -> Result<Vec<u8>, Error>;
}

/// The export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Everything, as one JSON object.
    Json,
    /// One line per thread count.
    Csv,
    /// The header and the summary table, ready to paste.
    Markdown,
    /// A chart of speedup against threads.
    Svg,
}

impl Format {
    /// The exporter of this format.
    pub fn exporter(self) -> &'static dyn Exporter {
        match self {
            Format::Json => &Json,
            Format::Csv => &Csv,
            Format::Markdown => &Markdown,
            Format::Svg => &Svg,
        }
    }

    /// The format's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "JSON",
            Format::Csv => "CSV",
            Format::Markdown => "Markdown",
            Format::Svg => "SVG",
        }
    }
}

/// One file to write in one format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Export {
    /// The format.
    pub format: Format,
    /// Where.
    pub path: PathBuf,
}

impl Export {
    /// Writes `bench` to the file with [`nqueens::util::files::write`]: a reader never sees half a file,
    /// and a link or a device is written through.
    pub fn write(&self, bench: &Bench) -> Result<(), Error> {
        let bytes = self.format.exporter().serialize(bench)?;
        nqueens::util::files::write(&self.path, &bytes).map_err(|source| Error::Write {
            path: self.path.clone(),
            source,
        })
    }

    /// Checks that the file can be written, before anything is measured (the calibration
    /// included).
    pub fn check(&self) -> Result<(), Error> {
        nqueens::util::files::check_writable(&self.path).map_err(|source| Error::Write {
            path: self.path.clone(),
            source,
        })
    }
}

/// The error of a format's serializer.
pub(crate) fn failed(format: Format, reason: impl std::fmt::Display) -> Error {
    Error::Format {
        format: format.name(),
        reason: reason.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::result::tests::example;

    #[test]
    fn text_exports_are_pinned() {
        for format in [Format::Json, Format::Csv, Format::Markdown] {
            let bytes = format.exporter().serialize(&example()).unwrap();
            insta::assert_snapshot!(format.name(), String::from_utf8(bytes).unwrap());
        }
    }

    /// Before any thread count is timed, the CSV export is its header (the one serde writes
    /// with the lines), never an empty file: a full disk then leaves nothing, as for the others.
    #[test]
    fn a_csv_export_without_lines_is_its_header() {
        let full =
            String::from_utf8(Format::Csv.exporter().serialize(&example()).unwrap()).unwrap();
        let mut empty = example();
        empty.results.clear();
        let header = Format::Csv.exporter().serialize(&empty).unwrap();
        assert_eq!(
            String::from_utf8(header).unwrap(),
            full.lines().next().unwrap().to_string() + "\n"
        );
    }
}
