//! Every ruling of `shared/rules/mechcom.md` as a runtime option with its documented
//! default, so a run can record and switch them (manifest, cell key).
//!
//! Field names are the rulings' names in lower case. Rulings the one-attack maths and
//! attack runs consult are marked *consulted*; the others are carried for the engagements
//! that will need them (duels, squads, catalogue validation) and change nothing yet.
//! [`Options::validate`] rejects the alternatives that are not implemented.
//! [`Options::pairs`] gives the canonical `NAME=value` pairs (the rulings' names as the
//! rules document spells them) for manifests and cell keys; [`Options::set`] switches one.

use serde::{Deserialize, Serialize};

/// Which Spot tokens an attacker consumes (§1 `SPOT_POLICY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SpotPolicy {
    /// One token whenever one is there; all of them with a Sniper weapon (default).
    ConsumeOne,
    /// Never consume (Artillery still must consume one to fire).
    Never,
}

/// Order of the numbers in a weapon's "[a-b-c]" (§3 `WEAPON_BRACKET`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WeaponBracket {
    /// Range-Damage-Attacks, the order in which "Arsenal" defines the stats (default).
    RangeDamageAttacks,
    /// Range-Attacks-Damage.
    RangeAttacksDamage,
}

/// Reading of an ability's "[a/b]" (§3 `ABILITY_BRACKET`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AbilityBracket {
    /// Energy cost / Limit (default: Searing Wave is 1⚡, Limit 5).
    CostLimit,
    /// Limit / Energy cost (Limit 1 at 5⚡).
    LimitCost,
}

/// How a Multi weapon splits its dice (§3 `MULTI_POLICY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MultiPolicy {
    /// Every die at one target (default).
    OneTarget,
}

/// When a destroyed model explodes (§2 `EXPLOSION_TIMING`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExplosionTiming {
    /// At the end of the next activation after the destruction; in the End phase if no
    /// activation is left that round (default).
    EndOfNextActivation,
    /// At once, when destroyed.
    Immediately,
}

/// Which conditions a model clears with leftover Energy (§2 `CLEAR_POLICY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClearPolicy {
    /// Spend leftover ⚡ after attacks on clearing, Burned first (default).
    LeftoverBurnedFirst,
    /// Never clear.
    Never,
}

/// What a model does with its Energy in a duel (§4 `ACTION_POLICY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ActionPolicy {
    /// The attack with the highest expected Integrity loss per ⚡, then the clear policy,
    /// then Barrage dice with any leftover ⚡ (default).
    BestExpectedLossPerEnergy,
}

/// Which enemy a model attacks (§4 `TARGET_POLICY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TargetPolicy {
    /// Lowest remaining Integrity, ties to the highest cost (default).
    LowestIntegrity,
}

/// Which of its models a player activates next (§4 `ACTIVATION_ORDER`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ActivationOrder {
    /// The most expensive model first (default).
    MostExpensiveFirst,
}

/// The rulings MECHCOM is played by. `Options::default()` is the documented reading.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE", deny_unknown_fields)]
pub struct Options {
    /// §1 `SIX_ALWAYS_CRITS` (consulted): a natural 6 is a crit (2 hits) whatever the
    /// effective Stability, so S >= 7 plays as S = 6. Off: a 6 hits only when 6 >= S.
    pub six_always_crits: bool,
    /// §1 `NO_AUTOMATIC_MISS` (consulted): with S <= 1 every die hits. Off: a natural 1
    /// always misses.
    pub no_automatic_miss: bool,
    /// §1 `MODIFIERS_MOVE_STABILITY` (consulted): spot-token bonuses change S, never a
    /// die face, so only a natural 6 crits. Off: each bonus adds 1 to the die, and a
    /// modified 6 or more is a crit.
    pub modifiers_move_stability: bool,
    /// §1 `ATTACKS_FROM_WEAPON`: the dice rolled are the weapon's Attacks. No other
    /// reading is implemented (a mech has no Attacks stat).
    pub attacks_from_weapon: bool,
    /// §1 `SOFT_COVER_IS_HALF_COVER` (consulted): soft cover (forest, dense snow,
    /// swimming) gives the +2 of half cover. Off: soft cover gives nothing.
    pub soft_cover_is_half_cover: bool,
    /// §1 `COVER_STACKS` (consulted): off, cover gives +2 at most even from two sources
    /// (the scenario's cover and a Submerged target). On: each source adds +2.
    pub cover_stacks: bool,
    /// §1 `HEAVY_MOVED_STABILITY` (consulted): Stability change for a Heavy weapon whose
    /// wielder moved this turn (+2: worse).
    pub heavy_moved_stability: i32,
    /// §1 `HEIGHT_STABILITY_PER_2_LEVELS` (consulted): Stability change per full 2 levels
    /// the shooter is above the target (−1: better).
    pub height_stability_per_2_levels: i32,
    /// §1 `MELEE_RANGE_HEXES` (consulted): melee range in hexes (adjacent); at this range
    /// or less, melee weapons can attack and shooting takes +2.
    pub melee_range_hexes: u32,
    /// §1 `SPOT_TOKENS_SHARED`: any enemy attacker may consume the Spot tokens on a model.
    pub spot_tokens_shared: bool,
    /// §1 `SPOT_POLICY` (consulted): which tokens an attack consumes.
    pub spot_policy: SpotPolicy,
    /// §1 `MELEE_TIES_FAIL` (consulted): "beats" means strictly greater. Off: ties win.
    pub melee_ties_fail: bool,
    /// §1 `MELEE_ARMOUR_ROLL` (consulted): off, melee has no armour roll. On: each winning
    /// die must also pass the target's armour roll.
    pub melee_armour_roll: bool,
    /// §1 `MELEE_CRIT` (consulted): a winning melee die with a natural 6 is a crit (on-crit
    /// effects, Flurry); never worth two. Off: melee never crits.
    pub melee_crit: bool,
    /// §1 `UNARMED_D3_PER_DIE` (consulted): an unarmed attack rolls 1d3 per winning die.
    /// Off: one d3 for the attack, times the winning dice (the same with one die).
    pub unarmed_d3_per_die: bool,
    /// §2 `FLURRY_ALWAYS_ROLLS` (consulted): Flurry's optional extra die is always rolled.
    /// Off: never rolled.
    pub flurry_always_rolls: bool,
    /// §2 `REACTOR_COUNTS_FLURRY_CRITS` (consulted): Red-Hot Reactor counts crits of
    /// Flurry dice too. Off: only crits of the first roll.
    pub reactor_counts_flurry_crits: bool,
    /// §2 `HIT_MEANS_ATTACK_ROLL_HIT` (consulted): "hit" (Condition X) is a hit of the
    /// attack roll, blocked or not. Off: only hits that cost Integrity count, and a crit
    /// counts for Critical condition X only when one of its armour rolls fails.
    pub hit_means_attack_roll_hit: bool,
    /// §2 `BLAST_MISS` (consulted): Blast's "misses" is an attack roll with zero hits.
    pub blast_miss: bool,
    /// §2 `ARMOUR_NO_AUTOMATIC_RESULT` (consulted): A <= 1 means every hit costs
    /// Integrity, A >= 7 none does. Off: a natural 6 always costs and a natural 1 never.
    pub armour_no_automatic_result: bool,
    /// §2 `DIRECT_DAMAGE_IGNORES_ARMOUR` (consulted by attack runs): "suffers X damage"
    /// (Burned, Backfire) removes X Integrity with no roll.
    pub direct_damage_ignores_armour: bool,
    /// §2 `EXPLOSION_TIMING`.
    pub explosion_timing: ExplosionTiming,
    /// §2 `EXPLOSION_AS_SHOOTING` (consulted): the death explosion is rolled as Shooting at
    /// a fixed S = 2 with no Stability modifiers; the target's Armour applies.
    pub explosion_as_shooting: bool,
    /// §2 `EXPLOSION_ABSTRACT_TARGETS`: without a map an explosion hits only models in
    /// melee with the destroyed one.
    pub explosion_abstract_targets: bool,
    /// §2 `END_OF_TURN` (consulted by attack runs): "end of turn" is the end of the
    /// afflicted model's own next activation, so Blinded, Shocked and Stunned spoil one.
    pub end_of_turn: bool,
    /// §2 `CONDITIONS_DONT_STACK` (consulted): a condition is on or off.
    pub conditions_dont_stack: bool,
    /// §2 `NO_END_IS_PERMANENT` (consulted by attack runs): Immobilized and Invisible last
    /// for the rest of the engagement.
    pub no_end_is_permanent: bool,
    /// §2 `CLEAR_POLICY`.
    pub clear_policy: ClearPolicy,
    /// §3 `WEAPON_BRACKET`: how the catalogue reads "[a-b-c]".
    pub weapon_bracket: WeaponBracket,
    /// §3 `DEPLOYABLE_ACTION_FREE`: the parent's 1⚡ covers the deployable's action.
    pub deployable_action_free: bool,
    /// §3 `ACES_MERCS_UNIQUE`: at most one of each Ace or Mercenary card per squad.
    pub aces_mercs_unique: bool,
    /// §3 `COST_IS_PRINTED`: a unit's cost is its printed points.
    pub cost_is_printed: bool,
    /// §3 `ABILITY_BRACKET`.
    pub ability_bracket: AbilityBracket,
    /// §3 `TYPHON_ABILITY_COST`: ⚡ of Searing Wave and Vent Coolant.
    pub typhon_ability_cost: u32,
    /// §3 `TYPHON_ABILITY_LIMIT`: uses per game of Searing Wave and Vent Coolant.
    pub typhon_ability_limit: u32,
    /// §3 `CONDITION_LIST_SPLIT`: "Condition: Burned, Superheated" is two perks.
    pub condition_list_split: bool,
    /// §3 `MULTI_POLICY`.
    pub multi_policy: MultiPolicy,
    /// §4 `ROLL_OFF`: each player rolls 1d6, highest first, ties roll again; with two
    /// players each goes first with probability 1/2, every round.
    pub roll_off: bool,
    /// §4 `ALTERNATION_RUNOUT`: a player with no model left to activate passes.
    pub alternation_runout: bool,
    /// §4 `REPEAT_ACTIONS` (consulted by attack runs): the same weapon may fire again in
    /// one activation; Ammo X is the only per-weapon limit.
    pub repeat_actions: bool,
    /// §4 `MOVE_REPEATS`: a second Move costs another 2⚡.
    pub move_repeats: bool,
    /// §4 `ENERGY_RESET_AT_START_PHASE`: Energy refills in the Start phase.
    pub energy_reset_at_start_phase: bool,
    /// §4 `MAX_ROUNDS`: rounds before a battle is recorded as undecided.
    pub max_rounds: u32,
    /// §4 `MALFUNCTION_ONE_ACTION`: one AI-table action per activation.
    pub malfunction_one_action: bool,
    /// §4 `NON_SPATIAL` (consulted): no map; every model sees every enemy, range is the
    /// engagement's, and range <= melee range means melee distance.
    pub non_spatial: bool,
    /// §4 `ATTACK_RUN_TARGET_INERT` (consulted by attack runs): the target acts after the
    /// attacker, takes no action and never clears a condition.
    pub attack_run_target_inert: bool,
    /// §4 `ACTION_POLICY` (consulted by attack runs: the best attack per ⚡).
    pub action_policy: ActionPolicy,
    /// §4 `TARGET_POLICY`.
    pub target_policy: TargetPolicy,
    /// §4 `ACTIVATION_ORDER`.
    pub activation_order: ActivationOrder,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            six_always_crits: true,
            no_automatic_miss: true,
            modifiers_move_stability: true,
            attacks_from_weapon: true,
            soft_cover_is_half_cover: true,
            cover_stacks: false,
            heavy_moved_stability: 2,
            height_stability_per_2_levels: -1,
            melee_range_hexes: 1,
            spot_tokens_shared: true,
            spot_policy: SpotPolicy::ConsumeOne,
            melee_ties_fail: true,
            melee_armour_roll: false,
            melee_crit: true,
            unarmed_d3_per_die: true,
            flurry_always_rolls: true,
            reactor_counts_flurry_crits: true,
            hit_means_attack_roll_hit: true,
            blast_miss: true,
            armour_no_automatic_result: true,
            direct_damage_ignores_armour: true,
            explosion_timing: ExplosionTiming::EndOfNextActivation,
            explosion_as_shooting: true,
            explosion_abstract_targets: true,
            end_of_turn: true,
            conditions_dont_stack: true,
            no_end_is_permanent: true,
            clear_policy: ClearPolicy::LeftoverBurnedFirst,
            weapon_bracket: WeaponBracket::RangeDamageAttacks,
            deployable_action_free: true,
            aces_mercs_unique: true,
            cost_is_printed: true,
            ability_bracket: AbilityBracket::CostLimit,
            typhon_ability_cost: 1,
            typhon_ability_limit: 5,
            condition_list_split: true,
            multi_policy: MultiPolicy::OneTarget,
            roll_off: true,
            alternation_runout: true,
            repeat_actions: true,
            move_repeats: true,
            energy_reset_at_start_phase: true,
            max_rounds: 50,
            malfunction_one_action: true,
            non_spatial: true,
            attack_run_target_inert: true,
            action_policy: ActionPolicy::BestExpectedLossPerEnergy,
            target_policy: TargetPolicy::LowestIntegrity,
            activation_order: ActivationOrder::MostExpensiveFirst,
        }
    }
}

impl Options {
    /// Checks that every switched ruling has an implemented alternative.
    ///
    /// # Errors
    /// The name of each ruling switched to a reading volley does not play, in one message.
    pub fn validate(&self) -> Result<(), String> {
        let unsupported = [
            ("ATTACKS_FROM_WEAPON", !self.attacks_from_weapon),
            ("BLAST_MISS", !self.blast_miss),
            ("DIRECT_DAMAGE_IGNORES_ARMOUR", !self.direct_damage_ignores_armour),
            ("EXPLOSION_AS_SHOOTING", !self.explosion_as_shooting),
            ("END_OF_TURN", !self.end_of_turn),
            ("CONDITIONS_DONT_STACK", !self.conditions_dont_stack),
            ("NO_END_IS_PERMANENT", !self.no_end_is_permanent),
            ("NON_SPATIAL", !self.non_spatial),
            ("ATTACK_RUN_TARGET_INERT", !self.attack_run_target_inert),
            ("REPEAT_ACTIONS", !self.repeat_actions),
        ];
        let off: Vec<&str> = unsupported.iter().filter(|(_, bad)| *bad).map(|(name, _)| *name).collect();
        if !off.is_empty() {
            return Err(format!("MECHCOM rulings with no other reading implemented: {}", off.join(", ")));
        }
        if self.melee_range_hexes == 0 {
            return Err("MELEE_RANGE_HEXES must be at least 1".into());
        }
        if self.max_rounds == 0 {
            return Err("MAX_ROUNDS must be at least 1".into());
        }
        Ok(())
    }
}

impl Options {
    /// Every ruling as (`NAME`, value) in declaration order: booleans `true`/`false`,
    /// numbers in decimal, choices in kebab-case (e.g. `SPOT_POLICY=consume-one`).
    pub fn pairs(&self) -> Vec<(String, String)> {
        crate::rules::named::pairs(self)
    }

    /// Every ruling as `NAME=value`, joined by `,`: canonical, so equal options give
    /// equal strings.
    pub fn canonical(&self) -> String {
        self.pairs().iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",")
    }

    /// Switches ruling `name` (case-insensitive) to `value` (as [`Options::pairs`]
    /// writes it).
    ///
    /// # Errors
    /// An unknown ruling (with the nearest name), or a value of the wrong kind.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        crate::rules::named::set(self, name, value, "MECHCOM ruling")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ruling_has_a_pair_and_round_trips() {
        let d = Options::default();
        let pairs = d.pairs();
        assert_eq!(pairs.len(), 49);
        assert_eq!(pairs[0], ("SIX_ALWAYS_CRITS".to_string(), "true".to_string()));
        assert!(d.canonical().contains("SPOT_POLICY=consume-one,"));
        let mut o = Options::default();
        for (k, v) in &pairs {
            o.set(k, v).unwrap();
        }
        assert_eq!(o, d);
        o.set("heavy-moved-stability", "-2").unwrap();
        assert_eq!(o.heavy_moved_stability, -2);
        o.set("SPOT_POLICY", "never").unwrap();
        assert_eq!(o.spot_policy, SpotPolicy::Never);
        assert!(o.set("SIX_ALWAYS_CRIT", "false").unwrap_err().contains("SIX_ALWAYS_CRITS"));
        assert!(o.set("MAX_ROUNDS", "many").is_err());
    }

    #[test]
    fn defaults_validate_and_unplayable_switches_are_named() {
        assert_eq!(Options::default().validate(), Ok(()));
        let o = Options { non_spatial: false, blast_miss: false, ..Options::default() };
        let e = o.validate().unwrap_err();
        assert!(e.contains("BLAST_MISS") && e.contains("NON_SPATIAL"), "{e}");
    }
}
