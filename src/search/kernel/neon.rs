//! The backtrack on aarch64: its scalar loop has no use for vectors, and the baseline already
//! has the bit instructions it needs (`rbit` and `clz`), so it is the portable build.

pub(super) use super::portable::search;
