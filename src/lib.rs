//! volley: exact odds and Monte Carlo engagements for tabletop wargame rules.
//!
//! Layers, each depending only on the ones after it:
//! `cli` → `sweep` → `engine` → `rules` → `model`. `stats` is a leaf used by all.

pub mod catalogue;
pub mod charts;
pub mod cli;
pub mod dice;
pub mod engine;
pub mod output;
pub mod rules;
pub mod stats;
pub mod sweep;
