//! The 8 symmetries of the square, acting on solutions written as column vectors.
//!
//! A solution `cols` has its queens on the squares `(r, cols[r])`. Each symmetry maps the square
//! `(r, c)` to another square of the board, and maps a solution to a solution: its *image*. The
//! images of a solution form its symmetry class; its *canonical* form is the lexicographically
//! smallest image, so two solutions are symmetric exactly when their canonical forms are equal.
//! The number of classes of an n-board is the fundamental count (OEIS A002562).
//!
//! The functions expect a permutation of `0..n` (one queen per row and per column), which every
//! solution is; `n` is `cols.len()`, at most 32.

pub(crate) mod burnside;

/// One of the 8 symmetries of the square: a rotation by a multiple of 90°, optionally followed by
/// the left-right reflection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Symmetry {
    /// Clockwise quarter turns, 0 to 3.
    pub quarter_turns: u8,
    /// Then reflect in the vertical axis (column c ↦ n - 1 - c).
    pub reflect: bool,
}

impl Symmetry {
    /// The identity first, then the other 7.
    pub(crate) const ALL: [Symmetry; 8] = {
        let mut all = [Symmetry {
            quarter_turns: 0,
            reflect: false,
        }; 8];
        let mut i = 0;
        while i < 8 {
            all[i] = Symmetry {
                quarter_turns: (i % 4) as u8,
                reflect: i >= 4,
            };
            i += 1;
        }
        all
    };

    /// Where the square `(r, c)` of an `n`-board goes.
    #[inline]
    pub(crate) fn map(self, n: usize, r: usize, c: usize) -> (usize, usize) {
        let m = n - 1;
        let (r, c) = match self.quarter_turns % 4 {
            0 => (r, c),
            1 => (c, m - r),
            2 => (m - r, m - c),
            _ => (m - c, r),
        };
        if self.reflect {
            (r, m - c)
        } else {
            (r, c)
        }
    }

    /// Writes the image of `cols` into `out[..cols.len()]`.
    #[inline]
    pub(crate) fn apply_into(self, cols: &[u8], out: &mut [u8]) {
        let n = cols.len();
        for (r, &c) in cols.iter().enumerate() {
            let (r2, c2) = self.map(n, r, usize::from(c));
            out[r2] = c2 as u8;
        }
    }
}

/// Whether `cols` is the canonical member of its class, without allocating.
pub(crate) fn is_canonical(cols: &[u8]) -> bool {
    let mut image = [0u8; 32];
    let image = &mut image[..cols.len()];
    Symmetry::ALL[1..].iter().all(|s| {
        s.apply_into(cols, image);
        cols <= &*image
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The 8 images of `cols`, in the order of [`Symmetry::ALL`] (the first is `cols` itself).
    /// Symmetric solutions repeat: a solution has 8, 4 or 2 distinct images.
    pub(crate) fn images(cols: &[u8]) -> [Vec<u8>; 8] {
        Symmetry::ALL.map(|s| s.apply(cols))
    }

    /// The lexicographically smallest image of `cols`: the same for every member of its class.
    pub(crate) fn canonical(cols: &[u8]) -> Vec<u8> {
        images(cols).into_iter().min().expect("8 images")
    }

    impl Symmetry {
        /// The image of `cols`.
        pub(crate) fn apply(self, cols: &[u8]) -> Vec<u8> {
            let mut out = vec![0; cols.len()];
            self.apply_into(cols, &mut out);
            out
        }
    }

    /// The solution turned a quarter clockwise: the queen on `(r, c)` goes to `(c, n - 1 - r)`.
    fn rotate90(cols: &[u8]) -> Vec<u8> {
        Symmetry {
            quarter_turns: 1,
            reflect: false,
        }
        .apply(cols)
    }

    /// The solution reflected in the vertical axis: column `c` becomes `n - 1 - c`.
    fn reflect(cols: &[u8]) -> Vec<u8> {
        Symmetry {
            quarter_turns: 0,
            reflect: true,
        }
        .apply(cols)
    }

    use crate::truth::reference;

    /// The squares of a placement, as a sorted list.
    fn squares(cols: &[u8]) -> Vec<(usize, usize)> {
        let mut s: Vec<_> = cols
            .iter()
            .enumerate()
            .map(|(r, &c)| (r, usize::from(c)))
            .collect();
        s.sort();
        s
    }

    #[test]
    fn rotate_and_reflect_by_hand() {
        // Q....      ....Q
        // ..Q..      .Q...
        // ....Q  ->  ...Q.   (a quarter turn clockwise)
        // .Q...      Q....
        // ...Q.      ..Q..
        assert_eq!(rotate90(&[0, 2, 4, 1, 3]), vec![4, 1, 3, 0, 2]);
        // The 4-queens solution is its own quarter turn, but not its own mirror.
        assert_eq!(rotate90(&[1, 3, 0, 2]), vec![1, 3, 0, 2]);
        assert_eq!(reflect(&[1, 3, 0, 2]), vec![2, 0, 3, 1]);
        assert_eq!(reflect(&[0, 2, 4, 1, 3]), vec![4, 2, 0, 3, 1]);
    }

    #[test]
    fn four_quarter_turns_and_two_reflections_are_the_identity() {
        for s in reference::solutions(8) {
            let r4 = rotate90(&rotate90(&rotate90(&rotate90(&s))));
            assert_eq!(r4, s);
            assert_eq!(reflect(&reflect(&s)), s);
        }
    }

    #[test]
    fn the_symmetries_are_the_eight_of_the_square() {
        // Each maps the board onto itself, and they are pairwise different maps.
        let n = 5;
        let maps: Vec<Vec<(usize, usize)>> = Symmetry::ALL
            .iter()
            .map(|s| {
                (0..n * n)
                    .map(|i| s.map(n, i / n, i % n))
                    .collect::<Vec<_>>()
            })
            .collect();
        for m in &maps {
            let mut sorted = m.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), n * n);
        }
        for i in 0..8 {
            for j in i + 1..8 {
                assert_ne!(maps[i], maps[j], "{i} and {j}");
            }
        }
        // Image i is the reflection of the i-th rotation, quarter turn by quarter turn.
        let s = [1u8, 3, 0, 2, 4];
        let mut turned = s.to_vec();
        for (i, img) in images(&s)[..4].iter().enumerate() {
            assert_eq!(img, &turned, "{i} quarter turns");
            assert_eq!(images(&s)[i + 4], reflect(&turned));
            turned = rotate90(&turned);
        }
    }

    #[test]
    fn images_of_a_solution_are_solutions_with_the_same_squares_moved() {
        for s in reference::solutions(8) {
            let all = reference::solutions(8);
            for (img, sym) in images(&s).iter().zip(Symmetry::ALL) {
                assert!(all.contains(img));
                let moved: Vec<_> = squares(&s)
                    .into_iter()
                    .map(|(r, c)| sym.map(8, r, c))
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect();
                assert_eq!(squares(img), moved);
            }
        }
    }

    #[test]
    fn canonical_forms_count_the_classes() {
        for n in 1..=9usize {
            let all = reference::solutions(n);
            let mut classes: Vec<_> = all.iter().map(|s| canonical(s)).collect();
            classes.sort();
            classes.dedup();
            let fundamental = crate::truth::known::known(n as u32).unwrap().unique;
            assert_eq!(classes.len() as u128, fundamental, "n = {n}");
            let canonical_members = all.iter().filter(|s| is_canonical(s)).count();
            assert_eq!(canonical_members, classes.len(), "n = {n}");
            for s in &all {
                let c = canonical(s);
                assert!(is_canonical(&c));
                assert!(images(s).contains(&c));
                assert_eq!(is_canonical(s), *s == c);
            }
        }
    }
}
