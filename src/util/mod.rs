//! Small helpers every part uses, and the program with them: writing a whole file without
//! destroying what it replaces ([`files`]), a seeded random stream (`rng`), and how text is
//! written: excerpts of a file safe to quote in an error, lists and plurals ([`text`]).

pub mod files;
pub(crate) mod rng;
pub mod text;
