//! volley: exact odds and Monte Carlo engagements for tabletop wargame rules.
//!
//! Layers, each depending only on the ones after it:
//! `cli` → `request` → `sweep` → `engine` → `rules` → `catalogue`; `stats` is a leaf used by
//! all, and `error` is the library's one error type.

pub mod catalogue;
pub mod charts;
pub mod cli;
pub mod dice;
pub mod engine;
pub mod error;
pub mod output;
pub mod request;
pub mod rules;
pub mod stats;
pub mod sweep;
