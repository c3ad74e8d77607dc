//! The bitboard kernel against the textbook solver.

use nqueens::kernel::{self, Partial};
use nqueens::reference;
use proptest::prelude::*;

use crate::util::is_solution;

#[test]
fn kernel_agrees_with_the_textbook_solver_for_small_boards() {
    for n in 1..=10usize {
        let slow = reference::solutions(n);
        assert!(slow.iter().all(|s| is_solution(s)));
        assert_eq!(
            kernel::count(n as u32, Partial::EMPTY),
            slow.len() as u64,
            "n = {n}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn kernel_agrees_on_random_prefixes(n in 1usize..=11, prefix in prop::collection::vec(0u8..11, 0..6)) {
        let prefix: Vec<u8> = prefix.into_iter().take(n).collect();
        let slow = reference::solutions_from(n, &prefix).len() as u64;
        let fast = Partial::from_queens(n as u32, &prefix).map_or(0, |p| kernel::count(n as u32, p));
        prop_assert_eq!(fast, slow);
    }

    /// Wide boards, where the look-ahead's shifts and masks reach the top of the word: a random
    /// prefix, each queen on a square left free, until seven rows are left or a row has none.
    #[test]
    fn kernel_agrees_on_deep_prefixes_of_wide_boards(
        n in 24usize..=32,
        picks in prop::collection::vec(any::<u32>(), 32),
    ) {
        let (mut prefix, mut board) = (Vec::new(), Partial::EMPTY);
        for pick in picks.into_iter().take(n - 7) {
            let mut free = board.free(n as u32);
            if free == 0 {
                break;
            }
            for _ in 0..pick % free.count_ones() {
                free &= free - 1;
            }
            prefix.push(free.trailing_zeros() as u8);
            board = board.place(free.trailing_zeros());
        }
        let slow = reference::solutions_from(n, &prefix).len() as u64;
        prop_assert_eq!(kernel::count(n as u32, board), slow);
    }
}
