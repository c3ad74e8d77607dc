//! Fundamental counts against a brute force over every solution's 8 images.

use std::collections::HashSet;

use nqueens::{reference, Options};

/// The 8 images of a solution (column of each row's queen).
fn images(x: &[u8]) -> Vec<Vec<u8>> {
    let n = x.len();
    let m = n as u8 - 1;
    let turn = |x: &[u8]| {
        let mut y = vec![0; n];
        for (r, &c) in x.iter().enumerate() {
            y[usize::from(c)] = m - r as u8;
        }
        y
    };
    let mirror = |x: &[u8]| x.iter().map(|&c| m - c).collect::<Vec<u8>>();
    let mut out = vec![x.to_vec()];
    for _ in 0..3 {
        let next = turn(out.last().unwrap());
        out.push(next);
    }
    let mirrored: Vec<Vec<u8>> = out.iter().map(|y| mirror(y)).collect();
    out.extend(mirrored);
    out
}

#[test]
fn unique_counts_equal_a_brute_force_over_canonical_forms() {
    for n in 1..=10usize {
        let all = reference::solutions(n);
        let classes: HashSet<Vec<u8>> = all
            .iter()
            .map(|x| images(x).into_iter().min().unwrap())
            .collect();
        for engine in nqueens::Engine::ALL {
            let options = Options::default().with_engine(Some(engine));
            let c = nqueens::count(n as u32, &options).unwrap();
            assert_eq!(c.total, all.len() as u128, "{engine} n = {n}");
            assert_eq!(c.unique, Some(classes.len() as u128), "{engine} n = {n}");
        }
    }
}
