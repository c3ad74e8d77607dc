//! The integration tests: one binary, one module per concern.

mod cli;
mod counts;
mod kernel;
mod solve;
mod util;
