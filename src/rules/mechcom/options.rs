//! Every ruling of `shared/rules/mechcom.md` as a runtime option with its documented
//! default, so a run can record and switch them (manifest, cell key).
//!
//! Field names are the rulings' names in lower case. Rulings the one-attack maths and
//! attack runs consult are marked *consulted*; the others are carried for the engagements
//! that will need them (duels, squads, catalogue validation) and change nothing yet.
//! Declared once on the kit's option table; [`Options::validate`] rejects the alternatives
//! that are not implemented (the options marked `fixed`).
//! [`Options::pairs`] gives the canonical `NAME=value` pairs (the rulings' names as the
//! rules document spells them) for manifests and cell keys; [`Options::set`] switches one.

/// Which Spot tokens an attacker consumes (§1 `SPOT_POLICY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpotPolicy {
    /// One token whenever one is there; all of them with a Sniper weapon (default).
    ConsumeOne,
    /// Never consume (Artillery still must consume one to fire).
    Never,
}

/// Order of the numbers in a weapon's "[a-b-c]" (§3 `WEAPON_BRACKET`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeaponBracket {
    /// Range-Damage-Attacks, the order in which "Arsenal" defines the stats (default).
    RangeDamageAttacks,
    /// Range-Attacks-Damage.
    RangeAttacksDamage,
}

/// Reading of an ability's "[a/b]" (§3 `ABILITY_BRACKET`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AbilityBracket {
    /// Energy cost / Limit (default: Searing Wave is 1⚡, Limit 5).
    CostLimit,
    /// Limit / Energy cost (Limit 1 at 5⚡).
    LimitCost,
}

/// How a Multi weapon splits its dice (§3 `MULTI_POLICY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MultiPolicy {
    /// Every die at one target.
    OneTarget,
    /// The dice split among the valid targets, one die at a time to the target where it
    /// adds the most expected Integrity taken, capped at each target's Integrity left
    /// (default; see [`Options::multi_policy`]).
    Split,
}

/// When a destroyed model explodes (§2 `EXPLOSION_TIMING`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExplosionTiming {
    /// At the end of the next activation after the destruction; in the End phase if no
    /// activation is left that round (default).
    EndOfNextActivation,
    /// At once, when destroyed.
    Immediately,
}

/// Which conditions a model clears with leftover Energy (§2 `CLEAR_POLICY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClearPolicy {
    /// Spend leftover ⚡ after attacks on clearing, Burned first (default).
    LeftoverBurnedFirst,
    /// Never clear.
    Never,
}

/// What a model does with its Energy in a duel (§4 `ACTION_POLICY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActionPolicy {
    /// The attack with the highest expected Integrity loss per ⚡, then the clear policy,
    /// then Barrage dice with any leftover ⚡ (default).
    BestExpectedLossPerEnergy,
}

/// How a model with Heat spends its Energy (§4 `HEAT_POLICY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeatPolicy {
    /// `ACTION_POLICY` with the Typhon's abilities as actions: Searing Wave ranked as an
    /// attack by its expected loss per ⚡; before an action that would bring a
    /// Programming model to 6 Heat, Vent Coolant when a use and the ⚡ for both are
    /// left, else the best action that stays below 6, else the action anyway (default).
    VentBeforeOverheat,
    /// Attacks only, as `ACTION_POLICY` ranks them: never Searing Wave nor Vent Coolant;
    /// Heat and Malfunctioning are still played.
    IgnoreHeat,
}

/// Which enemy a model attacks (§4 `TARGET_POLICY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetPolicy {
    /// Lowest remaining Integrity, ties to the highest cost (default).
    LowestIntegrity,
}

/// Which of its models a player activates next (§4 `ACTIVATION_ORDER`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActivationOrder {
    /// The most expensive model first (default).
    MostExpensiveFirst,
}

/// When a model takes the Spot action (§1 "Spotting (3⚡)", §4 `SPOT_ACTION`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpotAction {
    /// Spot when the expected gain of the spotted tokens, per ⚡, beats the best attack's
    /// expected Integrity loss per ⚡ (default; see [`Options::spot_action`]).
    WhenItPays,
    /// Never spot: Spot tokens come only from the scenario and from Tracker.
    Never,
}

crate::option_choices! {
    SpotAction { WhenItPays = "when-it-pays", Never = "never" }
    SpotPolicy { ConsumeOne = "consume-one", Never = "never" }
    WeaponBracket { RangeDamageAttacks = "range-damage-attacks", RangeAttacksDamage = "range-attacks-damage" }
    AbilityBracket { CostLimit = "cost-limit", LimitCost = "limit-cost" }
    MultiPolicy { OneTarget = "one-target", Split = "split" }
    ExplosionTiming { EndOfNextActivation = "end-of-next-activation", Immediately = "immediately" }
    ClearPolicy { LeftoverBurnedFirst = "leftover-burned-first", Never = "never" }
    ActionPolicy { BestExpectedLossPerEnergy = "best-expected-loss-per-energy" }
    TargetPolicy { LowestIntegrity = "lowest-integrity" }
    ActivationOrder { MostExpensiveFirst = "most-expensive-first" }
    HeatPolicy { VentBeforeOverheat = "vent-before-overheat", IgnoreHeat = "ignore-heat" }
}

crate::rule_options! {
    "MECHCOM";
    /// The rulings MECHCOM is played by. `Options::default()` is the documented reading.
    #[derive(Debug, Clone, PartialEq)]
    pub struct Options {
        /// §1 `SIX_ALWAYS_CRITS` (consulted): a natural 6 is a crit (2 hits) whatever the
        /// effective Stability, so S >= 7 plays as S = 6. Off: a 6 hits only when 6 >= S.
        six_always_crits: bool = true, switch, "§1 a natural 6 is a crit (2 hits) whatever the effective Stability, so S >= 7 plays as S = 6. Off: a 6 hits only when 6 >= S.";
        /// §1 `NO_AUTOMATIC_MISS` (consulted): with S <= 1 every die hits. Off: a natural 1
        /// always misses.
        no_automatic_miss: bool = true, switch, "§1 with S <= 1 every die hits. Off: a natural 1 always misses.";
        /// §1 `MODIFIERS_MOVE_STABILITY` (consulted): spot-token bonuses change S, never a
        /// die face, so only a natural 6 crits. Off: each bonus adds 1 to the die, and a
        /// modified 6 or more is a crit.
        modifiers_move_stability: bool = true, switch, "§1 spot-token bonuses change S, never a die face, so only a natural 6 crits. Off: each bonus adds 1 to the die, and a modified 6 or more is a crit.";
        /// §1 `ATTACKS_FROM_WEAPON`: the dice rolled are the weapon's Attacks. No other
        /// reading is implemented (a mech has no Attacks stat).
        attacks_from_weapon: bool = true, switch, "§1 the dice rolled are the weapon's Attacks. No other reading is implemented (a mech has no Attacks stat).", fixed;
        /// §1 `SOFT_COVER_IS_HALF_COVER` (consulted): soft cover (forest, dense snow,
        /// swimming) gives the +2 of half cover. Off: soft cover gives nothing.
        soft_cover_is_half_cover: bool = true, switch, "§1 soft cover (forest, dense snow, swimming) gives the +2 of half cover. Off: soft cover gives nothing.";
        /// §1 `COVER_STACKS` (consulted): off, cover gives +2 at most even from two sources
        /// (the scenario's cover and a Submerged target). On: each source adds +2.
        cover_stacks: bool = false, switch, "§1 off, cover gives +2 at most even from two sources (the scenario's cover and a Submerged target). On: each source adds +2.";
        /// §1 `HEAVY_MOVED_STABILITY` (consulted): Stability change for a Heavy weapon whose
        /// wielder moved this turn (+2: worse).
        heavy_moved_stability: i32 = 2, int(-20, 20), "§1 Stability change for a Heavy weapon whose wielder moved this turn (+2: worse).";
        /// §1 `HEIGHT_STABILITY_PER_2_LEVELS` (consulted): Stability change per full 2 levels
        /// the shooter is above the target (−1: better).
        height_stability_per_2_levels: i32 = -1, int(-20, 20), "§1 Stability change per full 2 levels the shooter is above the target (−1: better).";
        /// §1 `MELEE_RANGE_HEXES` (consulted): melee range in hexes (adjacent); at this range
        /// or less, melee weapons can attack and shooting takes +2.
        melee_range_hexes: u32 = 1, int(1, 100), "§1 melee range in hexes (adjacent); at this range or less, melee weapons can attack and shooting takes +2.";
        /// §1 `SPOT_TOKENS_SHARED`: any enemy attacker may consume the Spot tokens on a model.
        spot_tokens_shared: bool = true, switch, "§1 any enemy attacker may consume the Spot tokens on a model.";
        /// §1 `SPOT_POLICY` (consulted): which tokens an attack consumes.
        spot_policy: SpotPolicy = SpotPolicy::ConsumeOne, choice, "§1 which Spot tokens an attack consumes: consume-one (default; all of them with a Sniper weapon) or never (Artillery still consumes one)";
        /// §1 `MELEE_TIES_FAIL` (consulted): "beats" means strictly greater. Off: ties win.
        melee_ties_fail: bool = true, switch, "§1 \"beats\" means strictly greater. Off: ties win.";
        /// §1 `MELEE_ARMOUR_ROLL` (consulted): off, melee has no armour roll. On: each winning
        /// die must also pass the target's armour roll.
        melee_armour_roll: bool = false, switch, "§1 off, melee has no armour roll. On: each winning die must also pass the target's armour roll.";
        /// §1 `MELEE_CRIT` (consulted): a winning melee die with a natural 6 is a crit (on-crit
        /// effects, Flurry); never worth two. Off: melee never crits.
        melee_crit: bool = true, switch, "§1 a winning melee die with a natural 6 is a crit (on-crit effects, Flurry); never worth two. Off: melee never crits.";
        /// §1 `UNARMED_D3_PER_DIE` (consulted): an unarmed attack rolls 1d3 per winning die.
        /// Off: one d3 for the attack, times the winning dice (the same with one die).
        unarmed_d3_per_die: bool = true, switch, "§1 an unarmed attack rolls 1d3 per winning die. Off: one d3 for the attack, times the winning dice (the same with one die).";
        /// §2 `FLURRY_ALWAYS_ROLLS` (consulted): Flurry's optional extra die is always rolled.
        /// Off: never rolled.
        flurry_always_rolls: bool = true, switch, "§2 Flurry's optional extra die is always rolled. Off: never rolled.";
        /// §2 `REACTOR_COUNTS_FLURRY_CRITS` (consulted): Red-Hot Reactor counts crits of
        /// Flurry dice too. Off: only crits of the first roll.
        reactor_counts_flurry_crits: bool = true, switch, "§2 Red-Hot Reactor counts crits of Flurry dice too. Off: only crits of the first roll.";
        /// §2 `HIT_MEANS_ATTACK_ROLL_HIT` (consulted): "hit" (Condition X) is a hit of the
        /// attack roll, blocked or not. Off: only hits that cost Integrity count, and a crit
        /// counts for Critical condition X only when one of its armour rolls fails.
        hit_means_attack_roll_hit: bool = true, switch, "§2 \"hit\" (Condition X) is a hit of the attack roll, blocked or not. Off: only hits that cost Integrity count, and a crit counts for Critical condition X only when one of its armour rolls fails.";
        /// §2 `BLAST_MISS` (consulted): Blast's "misses" is an attack roll with zero hits.
        blast_miss: bool = true, switch, "§2 Blast's \"misses\" is an attack roll with zero hits.", fixed;
        /// §2 `ARMOUR_NO_AUTOMATIC_RESULT` (consulted): A <= 1 means every hit costs
        /// Integrity, A >= 7 none does. Off: a natural 6 always costs and a natural 1 never.
        armour_no_automatic_result: bool = true, switch, "§2 A <= 1 means every hit costs Integrity, A >= 7 none does. Off: a natural 6 always costs and a natural 1 never.";
        /// §2 `DIRECT_DAMAGE_IGNORES_ARMOUR` (consulted by attack runs): "suffers X damage"
        /// (Burned, Backfire) removes X Integrity with no roll.
        direct_damage_ignores_armour: bool = true, switch, "§2 (consulted by attack runs): \"suffers X damage\" (Burned, Backfire) removes X Integrity with no roll.", fixed;
        /// §2 `EXPLOSION_TIMING`.
        explosion_timing: ExplosionTiming = ExplosionTiming::EndOfNextActivation, choice, "§2 when a destroyed model explodes: end-of-next-activation (default; in a duel victory comes first) or immediately";
        /// §2 `EXPLOSION_AS_SHOOTING` (consulted): the death explosion is rolled as Shooting at
        /// a fixed S = 2 with no Stability modifiers; the target's Armour applies.
        explosion_as_shooting: bool = true, switch, "§2 the death explosion is rolled as Shooting at a fixed S = 2 with no Stability modifiers; the target's Armour applies.", fixed;
        /// §2 `EXPLOSION_ABSTRACT_TARGETS`: without a map an explosion hits only models in
        /// melee with the destroyed one.
        explosion_abstract_targets: bool = true, switch, "§2 without a map an explosion hits only models in melee with the destroyed one.";
        /// §2 `END_OF_TURN` (consulted by attack runs): "end of turn" is the end of the
        /// afflicted model's own next activation, so Blinded, Shocked and Stunned spoil one.
        end_of_turn: bool = true, switch, "§2 (consulted by attack runs): \"end of turn\" is the end of the afflicted model's own next activation, so Blinded, Shocked and Stunned spoil one.", fixed;
        /// §2 `CONDITIONS_DONT_STACK` (consulted): a condition is on or off.
        conditions_dont_stack: bool = true, switch, "§2 a condition is on or off.", fixed;
        /// §2 `NO_END_IS_PERMANENT` (consulted by attack runs): Immobilized and Invisible last
        /// for the rest of the engagement.
        no_end_is_permanent: bool = true, switch, "§2 (consulted by attack runs): Immobilized and Invisible last for the rest of the engagement.", fixed;
        /// §2 `CLEAR_POLICY`.
        clear_policy: ClearPolicy = ClearPolicy::LeftoverBurnedFirst, choice, "§2 which conditions a model clears with leftover Energy: leftover-burned-first (default, Burned then Corroded) or never";
        /// §3 `WEAPON_BRACKET`: how the catalogue reads "[a-b-c]".
        weapon_bracket: WeaponBracket = WeaponBracket::RangeDamageAttacks, choice, "§3 order of a weapon's [a-b-c]: range-damage-attacks (default, as Arsenal defines them) or range-attacks-damage";
        /// §3 `DEPLOYABLE_ACTION_FREE`: the parent's 1⚡ covers the deployable's action.
        deployable_action_free: bool = true, switch, "§3 the parent's 1⚡ covers the deployable's action.";
        /// §3 `ACES_MERCS_UNIQUE`: at most one of each Ace or Mercenary card per squad.
        aces_mercs_unique: bool = true, switch, "§3 at most one of each Ace or Mercenary card per squad.";
        /// §3 `COST_IS_PRINTED`: a unit's cost is its printed points.
        cost_is_printed: bool = true, switch, "§3 a unit's cost is its printed points.";
        /// §3 `ABILITY_BRACKET`.
        ability_bracket: AbilityBracket = AbilityBracket::CostLimit, choice, "§3 reading of an ability's [a/b]: cost-limit (default: Searing Wave 1 Energy, Limit 5) or limit-cost";
        /// §3 `TYPHON_ABILITY_COST`: ⚡ of Searing Wave and Vent Coolant.
        typhon_ability_cost: u32 = 1, int(0, 100), "§3 ⚡ of Searing Wave and Vent Coolant.";
        /// §3 `TYPHON_ABILITY_LIMIT`: uses per game of Searing Wave and Vent Coolant.
        typhon_ability_limit: u32 = 5, int(0, 100), "§3 uses per game of Searing Wave and Vent Coolant.";
        /// §3 `CONDITION_LIST_SPLIT`: "Condition: Burned, Superheated" is two perks.
        condition_list_split: bool = true, switch, "§3 \"Condition: Burned, Superheated\" is two perks.";
        /// §3 `MULTI_POLICY` (consulted by battles): how a Multi weapon's dice are split
        /// ("its dice may be split among any number of valid targets. This must be
        /// declared before rolling"). `split` (default, the book's reading): the weapon
        /// is chosen as `ACTION_POLICY` chooses it at the `TARGET_POLICY` target, then its
        /// dice (Barrage's included) go one at a time, before any is rolled, to the
        /// living enemy where that die adds the most to the expected Integrity taken,
        /// each target's loss capped at its Integrity left (ties: the target the policy
        /// picked, then slot order); a valid target is one the weapon reaches and may fire
        /// at (Artillery: with a Spot token on it). Each target's dice are one attack roll
        /// against it (its Stability, Spot tokens consumed, Armour, conditions, Tracker,
        /// Red-Hot Reactor), rolled in slot order; Ammo, Backfire and Heat count once for
        /// the attack. Why: the book allows any split and prices nothing but damage, and
        /// the greedy split is the action policy's expected loss, die by die; the cap is
        /// what makes a split pay (dice beyond a kill are wasted). Duels have one enemy, so
        /// nothing splits there; a model that plays Heat fires at one target (its
        /// `HEAT_POLICY` moves). `one-target`: every die at the policy's target, as played
        /// before.
        multi_policy: MultiPolicy = MultiPolicy::Split, choice, "§3 how a Multi weapon's dice are split in battles: split (default: one die at a time to the living enemy where it adds the most expected Integrity taken, each target's loss capped at its Integrity left; each target's dice one attack roll) or one-target (every die at the target the policy picks)";
        /// §4 `ROLL_OFF`: each player rolls 1d6, highest first, ties roll again; with two
        /// players each goes first with probability 1/2, every round.
        roll_off: bool = true, switch, "§4 each player rolls 1d6, highest first, ties roll again; with two players each goes first with probability 1/2, every round.";
        /// §4 `ALTERNATION_RUNOUT`: a player with no model left to activate passes.
        alternation_runout: bool = true, switch, "§4 a player with no model left to activate passes.";
        /// §4 `REPEAT_ACTIONS` (consulted by attack runs): the same weapon may fire again in
        /// one activation; Ammo X is the only per-weapon limit.
        repeat_actions: bool = true, switch, "§4 (consulted by attack runs): the same weapon may fire again in one activation; Ammo X is the only per-weapon limit.", fixed;
        /// §4 `MOVE_REPEATS`: a second Move costs another 2⚡.
        move_repeats: bool = true, switch, "§4 a second Move costs another 2⚡.";
        /// §4 `ENERGY_RESET_AT_START_PHASE`: Energy refills in the Start phase.
        energy_reset_at_start_phase: bool = true, switch, "§4 Energy refills in the Start phase.";
        /// §4 `MAX_ROUNDS`: rounds before a battle is recorded as undecided.
        max_rounds: u32 = 50, int(1, 10_000), "§4 rounds before a battle is recorded as undecided.";
        /// §4 `MALFUNCTION_ONE_ACTION`: one AI-table action per activation.
        malfunction_one_action: bool = true, switch, "§4 one AI-table action per activation: one attack with the weapon in range of highest expected Integrity loss. Off: that attack repeated while Energy allows.";
        /// §2 `HEAT_PLAYED` (consulted by attack runs, duels and battles): Heat is played. Superheated adds 1
        /// after each attack, Searing Wave 2; Programming makes the model Malfunctioning
        /// at 6 Heat, which ends its activation; a Malfunctioning model rolls 1d6 at the
        /// start of each activation (a 6 clears it, and Programming then removes all
        /// Heat) and otherwise acts by the HERAKLES AI table. Off: Heat is not played
        /// (each run notes it) and a Malfunctioning attacker is refused.
        heat_played: bool = true, switch, "§2 Heat is played (attack runs, duels, battles): Superheated +1 and Searing Wave +2 Heat, Red-Hot Reactor +1 per crit taken, Programming makes the model Malfunctioning at 6 Heat (its activation ends), a Malfunctioning model rolls 1d6 at the start of each activation (a 6 clears it and all Heat) and otherwise acts by the HERAKLES AI table. Off: Heat is not played (noted in runs; refused in duels and battles).";
        /// §4 `HEAT_POLICY` (consulted by attack runs, duels and battles).
        heat_policy: HeatPolicy = HeatPolicy::VentBeforeOverheat, choice, "§4 how a model with Heat spends its Energy: vent-before-overheat (default: Searing Wave ranked as an attack by expected loss per Energy; before an action that would reach 6 Heat under Programming, Vent Coolant if a use and the Energy for both are left, else the best action that stays below 6, else the action anyway) or ignore-heat (attacks only, never Searing Wave nor Vent Coolant; Heat still played)";
        /// §3 `SEARING_WAVE_AS_SHOOTING`: Searing Wave's "ranged attack (2d6, damage 2)"
        /// against each enemy within 3 is rolled as a Shooting attack of the model (its
        /// Stability with every modifier, crits, the target's Armour, Spot tokens as any
        /// shot) with a weapon of Range 3, Damage 2, Attacks 2 and no perk.
        searing_wave_as_shooting: bool = true, switch, "§3 Searing Wave's ranged attack (2d6, Damage 2, within 3) is rolled as a Shooting attack of the model: its Stability and modifiers, crits, the target's Armour, Spot tokens as any shot; no perk.", fixed;
        /// §4 `NON_SPATIAL` (consulted): no map; every model sees every enemy, range is the
        /// engagement's, and range <= melee range means melee distance.
        non_spatial: bool = true, switch, "§4 no map; every model sees every enemy, range is the engagement's, and range <= melee range means melee distance.", fixed;
        /// §4 `ATTACK_RUN_TARGET_INERT` (consulted by attack runs): the target acts after the
        /// attacker, takes no action and never clears a condition.
        attack_run_target_inert: bool = true, switch, "§4 (consulted by attack runs): the target acts after the attacker, takes no action and never clears a condition.", fixed;
        /// §4 `ACTION_POLICY` (consulted by attack runs: the best attack per ⚡).
        action_policy: ActionPolicy = ActionPolicy::BestExpectedLossPerEnergy, choice, "§4 what a model does with its Energy: best-expected-loss-per-energy (the attack with the highest expected Integrity loss per Energy, then clearing, then Barrage dice)";
        /// §4 `TARGET_POLICY`.
        target_policy: TargetPolicy = TargetPolicy::LowestIntegrity, choice, "§4 which enemy a model attacks: lowest-integrity (ties to the highest cost; the only reading played)";
        /// §4 `ACTIVATION_ORDER`.
        activation_order: ActivationOrder = ActivationOrder::MostExpensiveFirst, choice, "§4 which model a player activates next: most-expensive-first (the only reading played)";
        /// §4 `SPOT_ACTION` (consulted by attack runs, duels and battles): when a model spends 3⚡ on
        /// the Spot action (roll 3d6, −1 die across half cover, +1 per full 2 levels above;
        /// each 6 puts a Spot token on the target; no Spot on an Invisible target or
        /// through total cover). `when-it-pays` (default) prices it as `ACTION_POLICY`
        /// prices an attack, by expected Integrity loss per ⚡: the Spot's expected loss
        /// is what the tokens it places add to the next attack at that target, E over
        /// the sixes k of [best(t + k) − best(t)], where best(t) is the expected loss of
        /// the best ready attack with t tokens on the target (in a battle: the best of
        /// any living friendly model's, since tokens are shared, `SPOT_TOKENS_SHARED`);
        /// the model spots when that beats its own best attack at the target (ties to
        /// the attack), so it spots for Artillery, which cannot fire without a token, and
        /// for a Sniper far from its best Stability, and never where an attack is as good.
        /// Why: the book prices nothing but Energy, and the action policy already ranks
        /// actions by expected loss per ⚡; counting the tokens' worth in the next attack
        /// only is that policy's one-step look-ahead. A model that plays Heat does not
        /// spot (`HEAT_POLICY` ranks its attacks and abilities). `never`: no Spot action,
        /// as volley played before.
        spot_action: SpotAction = SpotAction::WhenItPays, choice, "§4 when a model spends 3 Energy on the Spot action (3d6, each 6 a Spot token on the target): when-it-pays (default: when the expected gain of the tokens to the next attack at that target (any living friend's best attack, in battles) beats the model's own best attack, both in expected Integrity loss per Energy; never for a model playing Heat) or never";
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ruling_has_a_pair_and_round_trips() {
        let d = Options::default();
        let pairs = d.pairs();
        assert_eq!(pairs.len(), 53);
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
        assert!(o.set("SIX_ALWAYS_CRIT", "false").unwrap_err().to_string().contains("SIX_ALWAYS_CRITS"));
        assert!(o.set("MAX_ROUNDS", "many").is_err());
    }

    #[test]
    fn defaults_validate_and_unplayable_switches_are_named() {
        assert_eq!(Options::default().validate(), Ok(()));
        let o = Options { non_spatial: false, blast_miss: false, ..Options::default() };
        let e = o.validate().unwrap_err().to_string();
        assert!(e.contains("BLAST_MISS") && e.contains("NON_SPATIAL"), "{e}");
    }
}
