//! The battle's tables under other modifiers than the side's scenario conditions, as
//! data: what [`TcGame`](super::game::TcGame) holds. [`super::variants`] compiles them
//! and plays the shots that read them.

use super::omega::Omega;
use super::specials::Specials;
use super::tables::Tables;

/// The battle's tables under other modifiers ([`super::variants`]); each `None` when no
/// unit of the battle can make those shots.
#[derive(Debug, Clone, Default)]
pub struct Variants {
    /// Special attacks at a dug-in target.
    pub specials_dug: Option<Specials>,
    /// Omega Overrides at a dug-in target.
    pub omega_dug: Option<Omega>,
    /// Shots from an offload at a dug-in target.
    pub offload_dug: Option<Tables>,
    /// Rallied Assault shots (stationary), and at a dug-in target.
    pub assault: Option<Tables>,
    pub assault_dug: Option<Tables>,
    /// An overrun's follow-up shot (full move), and at a dug-in target.
    pub overrun_fire: Option<Tables>,
    pub overrun_fire_dug: Option<Tables>,
}
