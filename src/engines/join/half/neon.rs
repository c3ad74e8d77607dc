//! The quadrant joins on aarch64: the portable loops. NEON is aarch64's baseline, so the
//! compiler vectorizes them already, and two-lane versions by hand (made and tested side by
//! side, stored lane by lane: NEON has no compress) executed as many instructions for
//! `keep_part` and 9% more for `candidates`, under qemu at n = 16.

pub(super) use super::portable::{candidates, fill, keep_clear, keep_part};
