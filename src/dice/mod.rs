//! Dice primitives shared by every ruleset: unbiased uniform integers, exact discrete
//! distributions over a finite outcome set (integer counts where they fit, `f64`
//! otherwise), and integer tables that sample such a distribution with one draw.
//!
//! Nothing here knows a rule: a ruleset says what a face means, these modules count.

pub mod dist;
pub mod guide;
pub mod table;
pub mod uniform;

pub use dist::{Dist, Weight, chain, pool};
pub use guide::GuidedThresholds;
pub use table::SamplingTable;
pub use uniform::{accepted_word, uniform_below, word_at_least};
