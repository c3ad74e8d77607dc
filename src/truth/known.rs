//! Known solution counts for n = 1..=27: the truth every engine is held to.
//!
//! `total` is OEIS A000170 (all solutions), `unique` is OEIS A002562 (solutions distinct up to
//! rotation and reflection). n = 27 is the largest value computed to date (Q27 project, 2016).

/// Known counts of one board size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Known {
    /// Board size.
    pub n: u32,
    /// All solutions (OEIS A000170).
    pub total: u128,
    /// Fundamental solutions, distinct up to the 8 symmetries of the square (OEIS A002562).
    pub unique: u128,
}

/// The table, indexed by `n - 1`.
const TABLE: [Known; 27] = [
    Known {
        n: 1,
        total: 1,
        unique: 1,
    },
    Known {
        n: 2,
        total: 0,
        unique: 0,
    },
    Known {
        n: 3,
        total: 0,
        unique: 0,
    },
    Known {
        n: 4,
        total: 2,
        unique: 1,
    },
    Known {
        n: 5,
        total: 10,
        unique: 2,
    },
    Known {
        n: 6,
        total: 4,
        unique: 1,
    },
    Known {
        n: 7,
        total: 40,
        unique: 6,
    },
    Known {
        n: 8,
        total: 92,
        unique: 12,
    },
    Known {
        n: 9,
        total: 352,
        unique: 46,
    },
    Known {
        n: 10,
        total: 724,
        unique: 92,
    },
    Known {
        n: 11,
        total: 2_680,
        unique: 341,
    },
    Known {
        n: 12,
        total: 14_200,
        unique: 1_787,
    },
    Known {
        n: 13,
        total: 73_712,
        unique: 9_233,
    },
    Known {
        n: 14,
        total: 365_596,
        unique: 45_752,
    },
    Known {
        n: 15,
        total: 2_279_184,
        unique: 285_053,
    },
    Known {
        n: 16,
        total: 14_772_512,
        unique: 1_846_955,
    },
    Known {
        n: 17,
        total: 95_815_104,
        unique: 11_977_939,
    },
    Known {
        n: 18,
        total: 666_090_624,
        unique: 83_263_591,
    },
    Known {
        n: 19,
        total: 4_968_057_848,
        unique: 621_012_754,
    },
    Known {
        n: 20,
        total: 39_029_188_884,
        unique: 4_878_666_808,
    },
    Known {
        n: 21,
        total: 314_666_222_712,
        unique: 39_333_324_973,
    },
    Known {
        n: 22,
        total: 2_691_008_701_644,
        unique: 336_376_244_042,
    },
    Known {
        n: 23,
        total: 24_233_937_684_440,
        unique: 3_029_242_658_210,
    },
    Known {
        n: 24,
        total: 227_514_171_973_736,
        unique: 28_439_272_956_934,
    },
    Known {
        n: 25,
        total: 2_207_893_435_808_352,
        unique: 275_986_683_743_434,
    },
    Known {
        n: 26,
        total: 22_317_699_616_364_044,
        unique: 2_789_712_466_510_289,
    },
    Known {
        n: 27,
        total: 234_907_967_154_122_528,
        unique: 29_363_495_934_315_694,
    },
];

/// The known counts for `n`, or `None` when nobody has computed them yet (n > 27) or n is 0.
pub fn known(n: u32) -> Option<Known> {
    TABLE.get((n as usize).checked_sub(1)?).copied()
}

/// Whether both counts are right for `n`: `None` when no value is known. A `unique` of `None`
/// (it could not be derived) is never right.
pub fn verify(n: u32, total: u128, unique: Option<u128>) -> Option<bool> {
    known(n).map(|k| k.total == total && unique == Some(k.unique))
}

/// Every known entry, from n = 1 up.
pub fn table() -> &'static [Known] {
    &TABLE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_indexed_by_n() {
        for (i, k) in table().iter().enumerate() {
            assert_eq!(k.n as usize, i + 1);
        }
        assert_eq!(known(0), None);
        assert_eq!(known(28), None);
        assert_eq!(known(8).unwrap().total, 92);
        assert_eq!(verify(8, 92, Some(12)), Some(true));
        assert_eq!(verify(8, 93, Some(12)), Some(false));
        assert_eq!(verify(30, 1, Some(1)), None);
        assert_eq!(verify(8, 92, Some(12)), Some(true));
        assert_eq!(verify(8, 92, Some(11)), Some(false));
        assert_eq!(verify(8, 92, None), Some(false));
    }
}
