//! What every count is held to: the published counts ([`known`]), a textbook solver the tests
//! check every engine against ([`reference`]), and a count's result, which says whether it
//! matches them ([`counts`]).

pub(crate) mod counts;
pub mod known;
pub mod reference;
