//! The integration tests: one binary, one module per concern.

mod bench;
mod blocks;
mod campaigns;
mod cli;
mod counts;
mod docs;
mod estimate;
mod help;
mod join;
mod layout;
mod limits;
mod longrun;
mod parsers;
mod readme;
mod shard;
mod smallprint;
mod solve;
mod status;
mod streams;
mod symmetry;
mod util;
