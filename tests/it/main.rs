//! The integration tests: one binary, one module per concern.

mod cli;
mod counts;
mod kernel;
mod longrun;
mod util;
