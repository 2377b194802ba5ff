//! The mutable state of one TechCommander battle ([`State`]): fixed arrays by unit
//! slot, and the bit masks of the units standing and on the field that the policy's
//! scans walk.

use crate::engine::battle::slots::mask_of;
use crate::engine::battle::{MAX_SIDES, MAX_UNITS};
use crate::rules::techcommander::compiled::MAX_SYSTEMS;

/// The mutable state of one battle, in fixed arrays indexed by unit slot (slots at or
/// past the battle's unit count are unused): no allocation, no length to load.
#[derive(Debug, Clone)]
pub struct State {
    pub life: [i32; MAX_UNITS],
    /// On the field (not removed; escaped-crew slots: escaped; passengers: offloaded or
    /// escaped). A passenger aboard is not on the field: it is never targeted and acts
    /// only through its carrier's [`Action::Offload`](super::game::Action::Offload).
    pub present: [bool; MAX_UNITS],
    /// A passenger still aboard its carrier.
    pub aboard: [bool; MAX_UNITS],
    pub actions: [u32; MAX_UNITS],
    /// Systems fired this turn (bit per system).
    pub used: [u32; MAX_UNITS],
    pub rounds: [[u16; MAX_SYSTEMS]; MAX_UNITS],
    /// Systems out of rounds (bit per system): kept with `rounds`.
    pub dry: [u32; MAX_UNITS],
    pub smoke_rounds: [u32; MAX_UNITS],
    pub smoked: [bool; MAX_UNITS],
    /// Defensive gear offline for the rest of the turn (after the unit's Omega Override).
    pub offline: [bool; MAX_UNITS],
    /// The unit whose action first took this unit to 0 or below (`KILL_CREDIT`).
    pub credit: [u8; MAX_UNITS],
    /// This turn's jury-rig result: 0 not rolled, 1 kept fire control, 2 lost it.
    pub jury: [u8; MAX_UNITS],
    /// Player actions left this turn (base + command), as the policies see them.
    pub left: [u32; MAX_SIDES],
    pub budget: [[u32; 2]; MAX_SIDES],
    pub group_acted: [bool; MAX_SIDES],
    /// Deathmatch: each unit was at full life when the current step began.
    pub full: [bool; MAX_UNITS],
    /// Deathmatch: the unit was taken from full life to 0 or below in one step.
    pub one_action: [bool; MAX_UNITS],
    /// Deathmatch: cap, kill chips in hand and kills per player.
    pub cap: [u32; MAX_SIDES],
    pub chips: [u32; MAX_SIDES],
    pub kills_side: [u32; MAX_SIDES],
    /// Infiltrated and not revealed (§2.4 "infiltrate"): untargetable.
    pub hidden: [bool; MAX_UNITS],
    /// The side last in this turn's initiative order (keeps infiltration when acting).
    pub last_side: u8,
    /// Dug in until Reset (`POLICY_DIG_IN`).
    pub dug_in: [bool; MAX_UNITS],
    /// A dug-in unit's one return attack is still ready.
    pub return_ready: [bool; MAX_UNITS],
    /// The life of the bubble shield covering each unit (0: none; [`super::shield`]).
    pub cover: [u8; MAX_UNITS],
    /// Bubble shields each unit has left to drop.
    pub spare: [u8; MAX_UNITS],
    /// The unit dropped, lost or left a shield this turn: it drops no other before Reset.
    pub settled: [bool; MAX_UNITS],
    /// Bit per slot: on the field with life above 0 (`present` and `life > 0`), the
    /// units that may be targeted. Kept with `present` and `life` by [`State::stand`]
    /// after every write to either, so the policy's scans skip the fallen.
    pub up: u64,
    /// Bit per slot: `present` (a unit at 0 life or less acts until removed). Kept by
    /// [`State::stand`] with [`State::up`].
    pub field: u64,
}

impl State {
    /// Brings bit `u` of [`State::up`] and [`State::field`] in line with `present[u]`
    /// and `life[u]`; call it after writing either.
    #[inline(always)]
    pub fn stand(&mut self, u: usize) {
        let bit = 1u64 << u;
        let (on, up) = (self.present[u], self.present[u] && self.life[u] > 0);
        self.field = if on { self.field | bit } else { self.field & !bit };
        self.up = if up { self.up | bit } else { self.up & !bit };
    }

    /// ([`State::up`], [`State::field`]) as `present` and `life` give them now (the
    /// invariant [`State::stand`] keeps).
    pub fn standing(&self) -> (u64, u64) {
        let up = mask_of((0..MAX_UNITS).filter(|&u| self.present[u] && self.life[u] > 0));
        (up, mask_of((0..MAX_UNITS).filter(|&u| self.present[u])))
    }
}
