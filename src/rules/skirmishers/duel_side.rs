//! One side of a compiled duel and who moves first: what the duel ([`super::duel`]) and
//! its Monte Carlo tables ([`super::lanes`]) both read.

use super::graph::Graph;

/// Who moves first (Ruling `FIRST_SIDE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum First {
    A,
    B,
    Random,
}

/// One side of a duel: its card under the opponent's laws, and how it fires.
#[derive(Debug, Clone, PartialEq)]
pub struct DuelSide {
    pub name: String,
    /// Its duel weapon; `None` when no weapon of it reaches (it never fires).
    pub weapon: Option<String>,
    /// This side's card under the opponent's laws.
    pub graph: Graph,
    /// `fire[col]`: the law (in the opponent's graph) this side fires at column `col`;
    /// `None` when its AP cannot pay the attack.
    pub fire: Vec<Option<u8>>,
}
