//! The JSON export: the whole [`Bench`], every field.

use super::{failed, Exporter, Format};
use crate::bench::{Bench, Error};

/// Pretty-printed JSON of the whole benchmark.
pub struct Json;

impl Exporter for Json {
    fn serialize(&self, bench: &Bench) -> Result<Vec<u8>, Error> {
        let mut bytes = serde_json::to_vec_pretty(bench).map_err(|e| failed(Format::Json, e))?;
        bytes.push(b'\n');
        Ok(bytes)
    }
}
