//! The bitboard backtrack of the mirror and symmetry engines and the solver: the kernel that
//! completes a board ([`kernel`]), the subproblems it starts from ([`subproblem`]), and the
//! price of one, Knuth's estimate of its search tree ([`cost`]).

pub(crate) mod cost;
pub(crate) mod kernel;
pub(crate) mod subproblem;
