//! Small helpers every part uses: a seeded random stream (`rng`) and how text is written:
//! excerpts of a file safe to quote in an error, lists and plurals ([`text`]), which the
//! program shares.

pub(crate) mod rng;
pub mod text;
