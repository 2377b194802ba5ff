//! Every Ruling of `shared/rules/shellshock.md` as a named runtime option with its
//! documented default, plus the engagement switches of §5 and §8.
//!
//! Options are declared once on the kit's option table ([`Options::pairs`] goes into
//! manifests and cell keys) and read through typed accessors when a kernel is compiled
//! (never in a hot loop). Each option lists the values it takes; a value the kernels do not play yet is
//! refused by [`Options::validate`] with the reason, never silently ignored.

use crate::rules::kit::options::{AutoOr, Pick};

/// How the d6 damage dice are rolled (`DAMAGE_DICE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DamageDice {
    Pool,
    Multiply,
    BellD12,
}

crate::option_choices! {
    DamageDice { Pool = "POOL", Multiply = "MULTIPLY", BellD12 = "BELL_D12" }
}

/// Which weapons one gunner may fire together (`FIRING_LIMITS`, "Weapons Selection").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FiringLimits {
    /// The book: a missile, mini-mortar, grenade launcher or rocket pod fires one at a
    /// time alongside other weapons, or two together with nothing else (any two of the
    /// four classes: the sentence names them as one group).
    Book,
    /// As `Book`, but a pair fired alone must be of one class.
    SameClassPairs,
    /// No limit: every weapon in range fires.
    Off,
}

crate::option_choices! {
    FiringLimits { Book = "BOOK", SameClassPairs = "SAME_CLASS_PAIRS", Off = "OFF" }
}

crate::rule_options! {
    "Shellshock";
    /// The options' values, in the order of `shellshock.md`. An option marked `fixed`
    /// takes other values that the kernels do not play yet: [`Options::validate`]
    /// refuses them.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct Options {
        explode: Pick = Pick("PER_DIE"), choice("PER_DIE"), "§1: a d10 showing 10 is rerolled and added, per die, without limit";
        natural: Pick = Pick("FIRST_ROLL"), choice("FIRST_ROLL"), "§1: auto-miss and natural 20 look at the two dice as first rolled only";
        double_stacks: bool = false, switch, "§1: a roll doubling in two ways doubles once (false) or once per way (true: x4)";
        second_20_destroys: bool = true, switch, "§1: a natural 20 whose two rerolls are both 10 destroys the target";
        range_step: u32 = 12, int(1, 1000), "§2: +1 to the TN per this many full hexes of range";
        point_blank_round: Pick = Pick("FLOOR"), choice("FLOOR", "CEIL"), "§2: halving a DV at point blank rounds down (FLOOR) or up";
        dice_ladder: Pick = Pick("D10+D4,D10+D6,D10+D8,2D10"), choice("D10+D4,D10+D6,D10+D8,2D10"), "§2: the dice levels (the `dice` axis picks a level directly)";
        immobile_tn: Pick = Pick("STEALTH_RANGE"), choice("STEALTH_RANGE"), "§2: an immobile target's TN is its stealth + the range modifier";
        facing_map: Pick = Pick("HEXSIDES"), choice("HEXSIDES"), "§2: front/rear hexsides hit Front/Rear, the four others a Side (the `facing` axis)";
        indirect_min_range: u32 = 12, int(0, 1000), "§2: weapons of type I do not fire under this many hexes";
        damage_dice: DamageDice = DamageDice::Pool, choice, "§3: roll every d6 (POOL), n x 1d6 (MULTIPLY) or n x the bell d12 1,2,2,3,3,3,4,4,4,5,5,6";
        chart_wraps: bool = true, switch, "§3: marking goes on at line 01 after 100 (full-chart model only)", fixed;
        hits_once_per_range: bool = true, switch, "§3: an item takes X hits once per Internal hit (full-chart model only)", fixed;
        locomotion_lines: Pick = Pick("MARKED_NOT_DESTROYED"), choice("MARKED_NOT_DESTROYED"), "§3: locomotion lines are marked but the item is never destroyed (full-chart model only)";
        sympathetic_per_item: bool = true, switch, "§3: one opposed d10 roll per fuel or ammunition item hit (full-chart model only)", fixed;
        engine_loss_immobilises: bool = true, switch, "§3: every engine destroyed makes max speed 0 (full-chart model only)", fixed;
        sequential_bookkeeping: bool = true, switch, "§3: gunners resolve in card order, armour and lines update at once, losses in (Aftermath)", fixed;
        out_of_action: Pick = Pick("CARD_FREE"), choice("CARD_FREE", "FULL"), "§3: destroyed on (a) Dead box, (b) second 20, (d) 100 lines marked (CARD_FREE); MODEL=FULL_CHART plays (a)-(f) whatever this says", fixed;
        model: Pick = Pick("CARD_FREE"), choice("CARD_FREE", "FULL_CHART"), "§3: the card-free model (lines counted) or the full 100-line chart model (equipment, sympathetic explosions, locomotion; out of action (a)-(f); Monte Carlo only, every die rolled)";
        engagement_movement: Pick = Pick("NONE"), choice("NONE"), "§5: engagements fix range and aspect; no initiative or movement";
        all_weapons_bear: bool = true, switch, "§5: every weapon in range bears on the target", fixed;
        ammo: Pick = Pick("CARD"), choice("CARD", "UNLIMITED"), "§5 (Aftermath) \"mark off used ammunition\": a weapon with `ammo = N` fires in at most N turns, one round a turn (CARD); a weapon without a count never runs dry. UNLIMITED ignores every count. The gunner fires its best set each turn while rounds last (no rounds are saved for later); MODEL=FULL_CHART refuses counts";
        dodge: Pick = Pick("NEVER"), choice("NEVER", "ALWAYS"), "§2 (Dodging): a unit may declare it dodges; the book leaves when to the player. NEVER (default, the rules document's engagement ruling): nobody dodges. ALWAYS: every unit under fire dodges every turn (an attack run's target; both sides of a duel; every battle unit), unless immobile: units firing at it lose two dice levels (DICE_LADDER) and add its pilot's Piloting (unit key `piloting`, else SKILL_DEFAULT) to their TN; its pilot (unit key `pilot`, a gunner number; none: a driver) fires nothing, its other gunners lose two dice levels and add that Piloting to their own TNs. Losses stack (dodging at a dodging unit: four levels; the ladder stops at d10+d4)";
        spread: u32 = 0, int(0, 10), "§2: spreadfire level of every gunner whose weapons in range can all spread (others fire at 0)";
        skill_default: i32 = 0, int(-10, 20), "§4: Gunnery of a gunner whose catalogue entry gives no skill";
        ecv_from_card: bool = true, switch, "§4: every ECV is catalogue data; volley never derives one", fixed;
        half: Pick = Pick("FLOOR"), choice("FLOOR"), "§6: halves round down (punching without a hand)";
        ram_rolls_to_hit: bool = true, switch, "§6: a ram rolls to hit against the P DV (rams are not played, Ruling RAM_NOT_PLAYED: ram damage is hexes moved times Body multipliers and engagements do not move; the one ram a fixed range allows, adjacent with 1 hex moved, costs the rammer floor(1/2) = 0, a free attack; the book prints no Body multipliers: docs/shellshock.md)", fixed;
        opt_expanding_shock: bool = false, switch, "§6: optional rule, off (one target only)", fixed;
        opt_chaingun_switch: bool = false, switch, "§6: optional rule, off (the catalogue marks no chainguns)", fixed;
        exact_depth: AutoOr = AutoOr::Auto, auto_or_int(1, 60), "§8: rerolls kept per d10 in exact maths; AUTO = the least depth that is exact for the TNs asked";
        mc_explode: Pick = Pick("UNBOUNDED"), choice("UNBOUNDED"), "§8: Monte Carlo rerolls a d10 while it shows 10, without cap";
        mc_sampler: Pick = Pick("TABLE"), choice("TABLE", "DICE"), "§8: Monte Carlo draws a gunner's whole step from one exact table (TABLE) or rolls every die (DICE)";
        ecv_budget: u32 = 0, int(0, 1_000_000), "§4/§5: each force's ECV budget in battles (a force's own `budget` key wins); 0 = the larger of the two forces' ECV";
        ecv_tolerance: u32 = 0, int(0, 100), "§4/§5: a battle force may fall short of its budget, and the two forces' ECV differ, by at most this percent (0: the book's same ECV; 100: the book's unequal historical sides)";
        battle_max_turns: u32 = 50, int(1, 1000), "§5: turn cap of a force-against-force battle (a draw there) unless --max-turns gives one";
        firing_limits: FiringLimits = FiringLimits::Book, choice, "§5 \"Weapons Selection\": weapons of class missile, mini-mortar, grenade-launcher or rocket-pod fire one at a time with other weapons, or two together alone (BOOK: any two of them; SAME_CLASS_PAIRS: two of one class); OFF fires every weapon in range. Each weapon fires at most once a turn. When the limit binds, each gunner fires the allowed set with the best one-turn value against the untouched target: P(destroyed) + expected lines marked/100 + expected armour removed/(100 x (armour+1)), ties to card order";
        physical: Pick = Pick("BOOK"), choice("BOOK", "OFF"), "§6 \"Physical Attacks\": a weapon of type P (punch, kick: the card's Weapon column or beside its Legs) is a physical attack: only at range 0-1, never with other weapons of its gunner in that turn, and one per unit per turn (BOOK; the unit's gunner with the most to gain over its best fire makes it, by the FIRING_LIMITS value). OFF fires type P like any weapon. Not played: rams (Ruling RAM_NOT_PLAYED, see RAM_ROLLS_TO_HIT and docs/shellshock.md: engagements do not move, so no hexes moved) and mule kicks, a handless punch's own damage and limbs (the catalogue has no hands or limbs)";
    }
}

impl Options {
    pub fn double_stacks(&self) -> bool {
        self.double_stacks
    }
    pub fn second_20_destroys(&self) -> bool {
        self.second_20_destroys
    }
    /// Hexes per +1 of range modifier, >= 1.
    pub fn range_step(&self) -> u32 {
        self.range_step
    }
    /// Whether point-blank halving rounds up.
    pub fn point_blank_ceil(&self) -> bool {
        self.point_blank_round == Pick("CEIL")
    }
    pub fn indirect_min_range(&self) -> u32 {
        self.indirect_min_range
    }
    pub fn damage_dice(&self) -> DamageDice {
        self.damage_dice
    }
    /// The spreadfire level, 0..=10.
    pub fn spread(&self) -> u32 {
        self.spread
    }
    pub fn skill_default(&self) -> i32 {
        self.skill_default
    }
    /// `None` = AUTO.
    pub fn exact_depth(&self) -> Option<u32> {
        match self.exact_depth {
            AutoOr::Auto => None,
            AutoOr::Int(n) => Some(n as u32),
        }
    }
    /// Whether the full chart model is played (`MODEL = FULL_CHART`).
    pub fn full_chart(&self) -> bool {
        self.model == Pick("FULL_CHART")
    }
    /// A battle force's ECV budget when it names none; `None` (0) = the larger of the
    /// two forces' ECV.
    pub fn ecv_budget(&self) -> Option<f64> {
        (self.ecv_budget > 0).then_some(f64::from(self.ecv_budget))
    }
    /// How far below its budget a battle force, and apart the two forces, may be:
    /// percent, 0..=100.
    pub fn ecv_tolerance(&self) -> u32 {
        self.ecv_tolerance
    }
    /// Turn cap of a battle, 1..=1000.
    pub fn battle_max_turns(&self) -> u32 {
        self.battle_max_turns
    }
    /// Which weapons a gunner may fire together.
    pub fn firing_limits(&self) -> FiringLimits {
        self.firing_limits
    }
    /// Whether ammunition counts are played (`AMMO = CARD`).
    pub fn ammo_counted(&self) -> bool {
        self.ammo == Pick("CARD")
    }
    /// Whether every unit under fire dodges (`DODGE = ALWAYS`).
    pub fn dodge_always(&self) -> bool {
        self.dodge == Pick("ALWAYS")
    }
    /// Whether type P weapons are physical attacks (`PHYSICAL = BOOK`).
    pub fn physical(&self) -> bool {
        self.physical == Pick("BOOK")
    }
    /// Whether Monte Carlo rolls every die (`MC_SAMPLER = DICE`).
    pub fn mc_dice(&self) -> bool {
        self.mc_sampler == Pick("DICE")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_documented_rulings_and_switch_by_name() {
        let mut o = Options::default();
        assert!(o.second_20_destroys());
        assert_eq!(o.range_step(), 12);
        assert_eq!(o.damage_dice(), DamageDice::Pool);
        assert!(o.validate().is_ok());
        o.set("damage_dice", "bell_d12").unwrap();
        assert_eq!(o.damage_dice(), DamageDice::BellD12);
        assert!(o.set("RANGE_STEP", "0").is_err());
        assert!(o.set("RANGE_STEPS", "3").unwrap_err().to_string().contains("RANGE_STEP"));
        o.set("MODEL", "FULL_CHART").unwrap();
        assert!(o.validate().is_ok() && o.full_chart());
        o.set("SYMPATHETIC_PER_ITEM", "false").unwrap();
        assert!(o.validate().unwrap_err().to_string().contains("SYMPATHETIC_PER_ITEM=false"));
        assert_eq!(o.pairs().len(), 38);
    }
}
