//! The integration tests: one binary, one module per concern.

mod cli;
mod counts;
mod join;
mod kernel;
mod util;
