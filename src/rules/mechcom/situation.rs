//! The situation of one attack: what the scenario and the table decide (§1, §4).

/// Cover between attacker and target (§1, "Elevation", "Special terrain").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Cover {
    #[default]
    None,
    /// Terrain 1 level above the higher model, or a deployable between: +2 Stability.
    Half,
    /// Target in forest, dense snow or swimming: +2 (`SOFT_COVER_IS_HALF_COVER`).
    Soft,
    /// Terrain >= 2 levels above the higher model or another mech between: no shot
    /// (Artillery exempt).
    Total,
}

/// Everything about one attack that is not a stat of the models.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Situation {
    /// Hexes between the models; <= `MELEE_RANGE_HEXES` is melee distance.
    pub range: u32,
    pub cover: Cover,
    /// The shooter is within melee range of some enemy (also implied by `range`).
    pub engaged: bool,
    /// Levels the attacker stands above the target (negative: below).
    pub levels_above: i32,
    /// Spot tokens on the target (`SPOT_TOKENS_SHARED`).
    pub spot_tokens: u32,
    /// The wielder moved this turn (matters for Heavy weapons).
    pub heavy_moved: bool,
    /// Extra dice bought with Barrage (1⚡ each); only with a Barrage weapon.
    pub barrage_dice: u32,
}

/// Range 2 (outside melee range, within most weapons), nothing else going on.
impl Default for Situation {
    fn default() -> Situation {
        Situation {
            range: 2,
            cover: Cover::None,
            engaged: false,
            levels_above: 0,
            spot_tokens: 0,
            heavy_moved: false,
            barrage_dice: 0,
        }
    }
}

impl Situation {
    /// A situation at `range` hexes with nothing else going on.
    pub fn at_range(range: u32) -> Situation {
        Situation { range, ..Situation::default() }
    }
}
