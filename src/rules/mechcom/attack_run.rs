//! The attack run (§4 "The engagements volley plays", §7): one attacker against an
//! inert target, round after round, until the target is destroyed or the round cap.
//!
//! Procedure (rulings `NON_SPATIAL`, `ATTACK_RUN_TARGET_INERT`, `REPEAT_ACTIONS`,
//! `END_OF_TURN`, `ACTION_POLICY`):
//! 1. Each round the attacker has its Energy (Stunned at the start: half of it, rounded
//!    down, is lost in round 1) and makes floor(Energy / 3) attacks.
//! 2. Each attack uses the weapon the run's [`RunPolicy`] ranks best among those that
//!    reach the range (unarmed included at melee range) and have Ammo left, ranked
//!    against the target's starting conditions; ties go to the earlier weapon. The
//!    default policy takes the highest expected Integrity loss per ⚡. The plan is
//!    therefore fixed in advance (Ammo runs out across rounds), which makes the exact
//!    chain possible. The attacker's Blinded and Shocked spoil round 1 only.
//!    Spot tokens on the target are used up (§1 `SPOT_TOKENS_SHARED`, `SPOT_POLICY`):
//!    each attack consumes what its weapon consumes (one, all with Sniper, one without
//!    bonus with Artillery, none in melee) from the tokens the earlier attacks left, and
//!    none decays (`NON_SPATIAL`). When nothing places tokens the tokens before each
//!    attack are fixed by the plan; the policy ranks weapons with the tokens left
//!    (Artillery stops when none is left). An attacker whose Spot action pays in some
//!    state (`SPOT_ACTION`) or whose Tracker weapon fires places tokens: its run is the
//!    token automaton of [`super::token_run`], as duels play those rules.
//! 3. Each attack's outcome is drawn from its exact joint law given the target's
//!    current conditions: Integrity lost at once (destroyed below 1), then Condition X
//!    (>= 1 hit) and Critical condition X (>= 1 crit) land on the target.
//! 4. At the end of each round the target activates: Burned costs it 1 Integrity
//!    (`DIRECT_DAMAGE_IGNORES_ARMOUR`; a kill this way counts on that round and on the
//!    last attack made so far, if any), and its Shocked ends.
//! 5. A target alive after the round cap is censored: counted, never dropped.
//!
//! State: the target's Integrity and its conditions among Burned, Corroded (−1 Armour)
//! and Shocked (−1 Strength in melee). An attacker that plays Heat
//! ([`super::heat::plays_heat`]: `HEAT_PLAYED` and Programming with a Superheated
//! weapon, Searing Wave, or a Malfunctioning start) has no fixed plan: its rounds follow
//! its Heat automaton ([`super::heat`]), `plan` is then its likeliest path, and the
//! exact chain and the Monte Carlo carry its state (it places no Spot token: a model
//! that plays Heat does not spot, and its Tracker hits are noted). Not played: Backfire
//! on the attacker; a run lists such perks in [`AttackRun::not_modelled`]. With `HEAT_PLAYED` off, Heat is not played either and a
//! Programming attacker whose plan reaches 6 Heat is noted with the attack it would
//! become Malfunctioning on.

use std::collections::HashMap;

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::dice::SamplingTable;
use crate::dice::uniform::roll;
use crate::engine::Kernel;
use crate::stats::TtkTally;

use super::conditions::{Condition, Conditions};
use super::energy::ATTACK_ENERGY;
use super::heat::{self, Act, MALFUNCTION_CLEARS_ON, Mind, Planner, Program, Scored};
use super::hot::Hot;
use super::mech::Model;
use super::notes;
use super::odds::compile_attack;
use super::options::{Options, SpotAction};
use super::roll::{CRIT, HIT};
use super::run_policy::RunPolicy;
use super::situation::Situation;
use super::spot::{MAX_SPOT_TOKENS, Spotting, spot_dice};
use super::stability::NoAttack;
use super::weapon::{Perk, Weapon};

use super::run_laws::{Laws, Outcome, Struck};
use super::token_run::{Move, Pick, Setup, TokenRun};
use super::tracked::STATES;
pub use super::tracked::TRACKED;
/// Largest accepted round cap.
pub const MAX_ROUNDS_LIMIT: u32 = 1000;
/// Most attacks a plan may hold (attack numbers are u16 in the hot loop).
pub const MAX_PLAN_ATTACKS: usize = 60_000;

/// One attack of the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlanStep {
    /// Index into [`AttackRun::weapons`].
    pub weapon: u8,
    /// 0-based round.
    pub round: u16,
    /// 0-based attack number.
    pub attack: u16,
    /// Index of the step's law: its weapon, the attacker's phase (round 1 with its
    /// starting conditions, or later) and the Spot tokens it consumes.
    law: u16,
}

/// Whether attacks with `weapons` can change the target's conditions or the attacker's
/// own state (Condition X, Critical condition X, Backfire).
fn changes_state<'w>(mut weapons: impl Iterator<Item = &'w Weapon>) -> bool {
    weapons.any(|w| w.on_hit().next().is_some() || w.on_crit().next().is_some() || w.backfire() > 0)
}

/// A compiled attack run.
#[derive(Debug, Clone, PartialEq)]
pub struct AttackRun {
    /// The weapons the plan uses (names for reports).
    pub weapons: Vec<String>,
    pub plan: Vec<PlanStep>,
    /// The plan steps of each round, as `start..end` indices (empty when nothing fires).
    pub rounds: Vec<(usize, usize)>,
    pub max_rounds: u32,
    pub integrity: u32,
    /// Perks and states of the plan's weapons that the run does not play.
    pub not_modelled: Vec<String>,
    /// Whether the plan can change the target's conditions or the attacker's own state
    /// (Condition X, Critical condition X, Backfire): then a duel's sides interact.
    pub changes_state: bool,
    /// Indexed by [`PlanStep`]'s law.
    pub(super) laws: Vec<Laws>,
    /// Per law: E[Integrity lost] by one attack against the target's starting state.
    law_means: Vec<f64>,
    pub(super) start_state: u8,
    hot: Option<Hot>,
    /// The attacker's Heat automaton ([`super::heat`]), when the run plays Heat; then
    /// `plan` and `rounds` are its likeliest path (each round the likelier variant).
    pub program: Option<Program>,
    /// The token automaton ([`super::token_run`]), when the attacker places Spot tokens
    /// (a Spot action that pays, a Tracker weapon that fires); then `plan` and `rounds`
    /// are its likeliest path ([`TokenRun::path`]).
    pub tokens: Option<TokenRun>,
}

fn state_bits(c: Conditions) -> u8 {
    TRACKED.iter().enumerate().fold(0, |s, (i, &t)| s | ((c.has(t) as u8) << i))
}

fn with_state(base: Conditions, bits: u8) -> Conditions {
    let mut c = base;
    for (i, &t) in TRACKED.iter().enumerate() {
        if bits & (1 << i) != 0 {
            c.set(t);
        } else {
            c.clear(t);
        }
    }
    c
}

/// Conditions on the attacker after its first activation (`END_OF_TURN`).
fn after_first_activation(c: Conditions) -> Conditions {
    let mut c = c;
    for x in [Condition::Blinded, Condition::Shocked, Condition::Stunned] {
        c.clear(x);
    }
    c
}

/// Perks of `weapon` the run does not play, one sentence each (`weapon: perk (why)`).
/// Tracker is among them unless `tracker_played` (a run with a token automaton).
fn perk_notes(weapon: &Weapon, tracker_played: bool) -> Vec<String> {
    weapon
        .perks
        .iter()
        .filter_map(|p| match p {
            Perk::Backfire(x) => Some(format!("Backfire {x} (the attacker's Integrity is not played)")),
            Perk::Tracker if !tracker_played => {
                Some("Tracker (its Spot tokens are not played in this run)".to_string())
            }
            Perk::Blast => Some("Blast (no map: no fire)".to_string()),
            _ => None,
        })
        .map(|n| format!("{}: {n}", weapon.name))
        .collect()
}

/// The index of `x` in `v`, pushed at the end when absent.
fn position_or_push<T: PartialEq>(v: &mut Vec<T>, x: T) -> usize {
    v.iter().position(|k| *k == x).unwrap_or_else(|| {
        v.push(x);
        v.len() - 1
    })
}

impl AttackRun {
    /// Compiles the run of `attacker` against `target` in `sit` for at most
    /// `max_rounds` rounds, choosing weapons by `policy`.
    ///
    /// # Errors
    /// A message when the round cap is out of range, options are unplayable, the
    /// attacker is Malfunctioning while `HEAT_PLAYED` is off (its AI table is then not
    /// played), or its Heat automaton exceeds [`heat::MAX_MINDS`] states.
    pub fn new(
        attacker: &Model,
        target: &Model,
        sit: &Situation,
        o: &Options,
        policy: RunPolicy,
        max_rounds: u32,
    ) -> Result<AttackRun, String> {
        if !(1..=MAX_ROUNDS_LIMIT).contains(&max_rounds) {
            return Err(format!("max rounds must be between 1 and {MAX_ROUNDS_LIMIT}, got {max_rounds}"));
        }
        o.validate()?;
        let plays_heat = heat::plays_heat(attacker, o);
        if attacker.conditions.has(Condition::Malfunctioning) && !plays_heat {
            return Err("a Malfunctioning attacker (HERAKLES AI table) is played only with HEAT_PLAYED=true".into());
        }
        let mut arsenal: Vec<Weapon> = attacker.mech.weapons.clone();
        let sheet_weapons = arsenal.len();
        arsenal.push(Weapon::unarmed());
        let wave = (plays_heat && attacker.mech.abilities.contains(&super::mech::Ability::SearingWave)).then(|| {
            arsenal.push(heat::searing_wave());
            arsenal.len() - 1
        });
        let phases = [attacker.clone(), attacker.clone().with_conditions(after_first_activation(attacker.conditions))];
        let start = state_bits(target.conditions);
        // Spot tokens are used up (`SPOT_TOKENS_SHARED`, `SPOT_POLICY`): nothing in a run
        // places new ones (no Spot action, no Tracker, `NON_SPATIAL`: none decays), so the
        // tokens left before each attack are fixed by the plan, and so is each attack's
        // law. The policy ranks each weapon by phase and tokens left.
        let mut scores: HashMap<(usize, usize, u32), Option<Scored>> = HashMap::new();
        let mut score = |w: usize, phase: usize, tokens: u32| -> Result<Option<Scored>, String> {
            if let Some(&s) = scores.get(&(w, phase, tokens)) {
                return Ok(s);
            }
            let at = Situation { spot_tokens: tokens, ..*sit };
            let s = match super::odds::attack_odds(&phases[phase], &arsenal[w], target, &at, o) {
                Ok(odds) => Some(Scored {
                    score: policy.score(arsenal[w].attacks, odds.expected_integrity_loss),
                    consumed: odds.spot_tokens_consumed,
                    mean: odds.expected_integrity_loss,
                }),
                Err(NoAttack::Options(e)) => return Err(e),
                Err(_) => None,
            };
            scores.insert((w, phase, tokens), s);
            Ok(s)
        };
        if plays_heat {
            return Self::with_heat(
                attacker,
                target,
                sit,
                o,
                policy,
                max_rounds,
                &arsenal,
                sheet_weapons,
                wave,
                &phases,
                &mut score,
            );
        }
        let mut token_notes = Vec::new();
        if let Some(run) =
            Self::with_tokens(attacker, target, sit, o, max_rounds, &arsenal, &phases, &mut score, &mut token_notes)?
        {
            return Ok(run);
        }
        let mut ammo: Vec<Option<u32>> = arsenal.iter().map(Weapon::ammo).collect();
        let mut tokens = sit.spot_tokens;
        let mut plan = Vec::new();
        let mut used: Vec<usize> = Vec::new();
        // Per law: (arsenal weapon, phase, spot tokens consumed), and E[loss].
        let mut law_keys: Vec<(usize, usize, u32)> = Vec::new();
        let mut law_means: Vec<f64> = Vec::new();
        let mut rounds = Vec::new();
        for round in 0..max_rounds {
            let first = plan.len();
            let phase = (round > 0) as usize;
            let mut energy = attacker.mech.energy;
            if round == 0 && attacker.conditions.has(Condition::Stunned) {
                energy -= energy / 2;
            }
            for _ in 0..energy / ATTACK_ENERGY {
                let mut best: Option<(usize, Scored)> = None;
                for (w, &left) in ammo.iter().enumerate() {
                    if left == Some(0) {
                        continue;
                    }
                    let Some(s) = score(w, phase, tokens)? else { continue };
                    if best.is_none_or(|(_, b)| b.score < s.score) {
                        best = Some((w, s));
                    }
                }
                let Some((w, s)) = best else { break };
                if let Some(a) = ammo[w].as_mut() {
                    *a -= 1;
                }
                tokens -= s.consumed;
                let slot = used.iter().position(|&u| u == w).unwrap_or_else(|| {
                    used.push(w);
                    used.len() - 1
                });
                let key = (w, phase, s.consumed);
                let law = law_keys.iter().position(|&k| k == key).unwrap_or_else(|| {
                    law_keys.push(key);
                    law_means.push(s.mean);
                    law_keys.len() - 1
                });
                plan.push(PlanStep {
                    weapon: slot as u8,
                    round: round as u16,
                    attack: plan.len() as u16,
                    law: law as u16,
                });
            }
            rounds.push((first, plan.len()));
            if plan.len() > MAX_PLAN_ATTACKS {
                return Err(format!(
                    "an attack run makes at most {MAX_PLAN_ATTACKS} attacks: lower the round cap ({max_rounds})"
                ));
            }
        }
        let integrity = target.mech.integrity;
        let mut laws = Vec::new();
        for &(w, phase, consumed) in &law_keys {
            // The law depends on the tokens only through those the attack consumes.
            let at = Situation { spot_tokens: consumed, ..*sit };
            laws.push(Self::laws(&phases[phase], &arsenal[w], target, &at, o, integrity)?);
        }
        let mut not_modelled = token_notes;
        for &w in &used {
            let weapon = &arsenal[w];
            if !o.heat_played {
                not_modelled.extend(notes::superheated(attacker, weapon));
            }
            not_modelled.extend(perk_notes(weapon, false));
        }
        let heat: Vec<(u16, u32)> = plan
            .iter()
            .filter(|s| arsenal[used[s.weapon as usize]].has(Perk::Superheated))
            .map(|s| (s.attack, u32::from(s.round) + 1))
            .collect();
        if !o.heat_played {
            not_modelled.extend(notes::programming_in_plan(attacker, &heat));
        }
        let changes_state = changes_state(used.iter().map(|&w| &arsenal[w]));
        let mut run = AttackRun {
            changes_state,
            weapons: used.iter().map(|&w| arsenal[w].name.clone()).collect(),
            plan,
            rounds,
            max_rounds,
            integrity,
            not_modelled,
            laws,
            law_means,
            start_state: start,
            hot: None,
            program: None,
            tokens: None,
        };
        let steps: Vec<(usize, u16)> = run.plan.iter().map(|s| (run.law_index(s), s.attack)).collect();
        run.hot = Hot::new(run.tables(), &run.rounds, &steps, integrity, start);
        Ok(run)
    }

    /// The run of an attacker that plays Heat ([`super::heat`]): the automaton of its
    /// minds, its laws, its likeliest path as `plan`, no compact loop.
    #[allow(clippy::too_many_arguments)]
    fn with_heat(
        attacker: &Model,
        target: &Model,
        sit: &Situation,
        o: &Options,
        policy: RunPolicy,
        max_rounds: u32,
        arsenal: &[Weapon],
        sheet_weapons: usize,
        wave: Option<usize>,
        phases: &[Model; 2],
        score: &mut dyn FnMut(usize, usize, u32) -> Result<Option<Scored>, String>,
    ) -> Result<AttackRun, String> {
        let mut planner = Planner::new(attacker, arsenal, sheet_weapons, wave, o);
        planner.per_energy = policy == RunPolicy::BestPerEnergy;
        let uses = heat::ability_cost_limit(o).1;
        let start = Mind {
            later: false,
            heat: 0,
            malfunctioning: attacker.conditions.has(Condition::Malfunctioning),
            waves: uses,
            vents: uses,
            tokens: sit.spot_tokens,
            ammo: arsenal.iter().map(Weapon::ammo).collect(),
        };
        // Laws by (weapon, phase, tokens consumed); weapon slots by (weapon, AI table).
        let mut law_keys: Vec<(usize, usize, u32)> = Vec::new();
        let mut slots: Vec<(usize, bool)> = Vec::new();
        let mut step = |a: &Act| {
            let key = (a.weapon, a.phase, a.consumed);
            let law = law_keys.iter().position(|&k| k == key).unwrap_or_else(|| {
                law_keys.push(key);
                law_keys.len() - 1
            });
            let slot = slots.iter().position(|&k| k == (a.weapon, a.ai)).unwrap_or_else(|| {
                slots.push((a.weapon, a.ai));
                slots.len() - 1
            });
            (law as u16, slot as u8)
        };
        let program = heat::build(&planner, start, max_rounds, score, &mut step)?;
        if program.max_attacks > MAX_PLAN_ATTACKS || law_keys.len() > usize::from(u16::MAX) || slots.len() > 255 {
            return Err(format!(
                "an attack run makes at most {MAX_PLAN_ATTACKS} attacks: lower the round cap ({max_rounds})"
            ));
        }
        let integrity = target.mech.integrity;
        let (laws, law_means) = Self::keyed_laws(&law_keys, phases, arsenal, target, sit, o)?;
        // The likeliest path, for the plan report.
        let (mut plan, mut rounds, mut mind) = (Vec::new(), Vec::new(), program.start);
        for round in 0..max_rounds {
            let v = program.minds[mind].iter().max_by_key(|v| v.sixths).expect("a variant");
            let first = plan.len();
            for &(law, weapon) in &v.steps {
                plan.push(PlanStep { weapon, round: round as u16, attack: plan.len() as u16, law });
            }
            rounds.push((first, plan.len()));
            mind = v.next;
        }
        let mut not_modelled = Vec::new();
        let mut weapons = Vec::new();
        for &(w, ai) in &slots {
            let weapon = &arsenal[w];
            weapons.push(if ai { format!("{} (AI table)", weapon.name) } else { weapon.name.clone() });
            for n in perk_notes(weapon, false) {
                if !not_modelled.contains(&n) {
                    not_modelled.push(n);
                }
            }
        }
        let changes_state = changes_state(slots.iter().map(|&(w, _)| &arsenal[w]));
        Ok(AttackRun {
            changes_state,
            weapons,
            plan,
            rounds,
            max_rounds,
            integrity,
            not_modelled,
            laws,
            law_means,
            start_state: state_bits(target.conditions),
            hot: None,
            program: Some(program),
            tokens: None,
        })
    }

    /// The run of an attacker that places Spot tokens ([`super::token_run`]): `None`
    /// when it places none (no Spot pays in a reachable state, no Tracker weapon fires),
    /// or when its automaton exceeds [`super::token_run::MAX_TOKEN_NODES`] nodes (then a
    /// sentence in `notes`, and the run keeps its fixed plan).
    #[allow(clippy::too_many_arguments)]
    fn with_tokens(
        attacker: &Model,
        target: &Model,
        sit: &Situation,
        o: &Options,
        max_rounds: u32,
        arsenal: &[Weapon],
        phases: &[Model; 2],
        score: &mut dyn FnMut(usize, usize, u32) -> Result<Option<Scored>, String>,
        notes: &mut Vec<String>,
    ) -> Result<Option<AttackRun>, String> {
        let spotting = (o.spot_action == SpotAction::WhenItPays)
            .then(|| spot_dice(attacker, target, sit, o))
            .flatten()
            .map(Spotting::new);
        let tracker: Vec<bool> = arsenal.iter().map(|w| w.has(Perk::Tracker)).collect();
        if spotting.is_none() && !tracker.contains(&true) {
            return Ok(None);
        }
        let cap = MAX_SPOT_TOKENS.max(sit.spot_tokens);
        let energy = attacker.mech.energy;
        let first = if attacker.conditions.has(Condition::Stunned) { energy - energy / 2 } else { energy };
        let setup = Setup {
            tokens: sit.spot_tokens,
            cap,
            ammo: arsenal.iter().map(Weapon::ammo).collect(),
            tracker,
            spotting: spotting.clone(),
            actions: [first / ATTACK_ENERGY, energy / ATTACK_ENERGY],
            max_rounds,
            integrity: target.mech.integrity,
        };
        // The policy's best weapon with `t` tokens left (ties to the earlier), as the
        // fixed plan picks it.
        let mut best_at = |phase: usize, t: u32, ammo: &[Option<u32>]| -> Result<Option<(usize, Scored)>, String> {
            let mut best: Option<(usize, Scored)> = None;
            for (w, &left) in ammo.iter().enumerate() {
                if left == Some(0) {
                    continue;
                }
                let Some(s) = score(w, phase, t)? else { continue };
                if best.is_none_or(|(_, b)| b.score < s.score) {
                    best = Some((w, s));
                }
            }
            Ok(best)
        };
        let mut choose = |phase: usize, tokens: u32, ammo: &[Option<u32>]| -> Result<Pick, String> {
            let attack = best_at(phase, tokens, ammo)?;
            if let Some(sp) = &spotting
                && tokens < cap
            {
                let means = (0..=cap)
                    .map(|t| Ok(best_at(phase, t, ammo)?.map_or(0.0, |b| b.1.mean)))
                    .collect::<Result<Vec<f64>, String>>()?;
                if sp.pays(tokens, cap, attack.map_or(0.0, |b| b.1.mean), |t| means[t as usize]) {
                    return Ok(Pick::Spot);
                }
            }
            Ok(attack.map_or(Pick::Pass, |(w, s)| Pick::Attack(w, s.consumed)))
        };
        let mut law_keys: Vec<(usize, usize, u32)> = Vec::new();
        let mut used: Vec<usize> = Vec::new();
        let mut index = |w: usize, phase: usize, consumed: u32| -> Result<(u16, u8), String> {
            let law = position_or_push(&mut law_keys, (w, phase, consumed));
            let slot = position_or_push(&mut used, w);
            Ok((law as u16, slot as u8))
        };
        let Some(automaton) = TokenRun::build(setup, &mut choose, &mut index)? else {
            notes.push(format!(
                "Spot action and Tracker (more than {} states of Spot tokens and Ammo: the run keeps its fixed plan)",
                super::token_run::MAX_TOKEN_NODES
            ));
            return Ok(None);
        };
        if !automaton.places_tokens() {
            return Ok(None);
        }
        if automaton.max_attacks() > MAX_PLAN_ATTACKS {
            return Err(format!(
                "an attack run makes at most {MAX_PLAN_ATTACKS} attacks: lower the round cap ({max_rounds})"
            ));
        }
        let integrity = target.mech.integrity;
        let (laws, law_means) = Self::keyed_laws(&law_keys, phases, arsenal, target, sit, o)?;
        let start_state = state_bits(target.conditions);
        let (mut plan, mut rounds) = (Vec::new(), Vec::new());
        for (round, steps) in automaton.path(&laws, start_state).into_iter().enumerate() {
            let first = plan.len();
            for (law, weapon) in steps {
                plan.push(PlanStep { weapon, round: round as u16, attack: plan.len() as u16, law });
            }
            rounds.push((first, plan.len()));
        }
        let mut not_modelled = Vec::new();
        for &w in &used {
            if !o.heat_played {
                not_modelled.extend(notes::superheated(attacker, &arsenal[w]));
            }
            not_modelled.extend(perk_notes(&arsenal[w], true));
        }
        let changes_state = changes_state(used.iter().map(|&w| &arsenal[w]));
        debug_assert!(automaton.nodes.iter().all(|n| match n.act {
            Move::Attack { law, .. } => (law as usize) < laws.len(),
            _ => true,
        }));
        Ok(Some(AttackRun {
            changes_state,
            weapons: used.iter().map(|&w| arsenal[w].name.clone()).collect(),
            plan,
            rounds,
            max_rounds,
            integrity,
            not_modelled,
            laws,
            law_means,
            start_state,
            hot: None,
            program: None,
            tokens: Some(automaton),
        }))
    }

    /// Round 1's expected Integrity taken per action that may be an attack, for a run
    /// with a token automaton ([`TokenRun::round_one`]); `None` for a fixed plan.
    pub fn token_round_one(&self) -> Option<Vec<f64>> {
        self.tokens.as_ref().map(|t| t.round_one(&self.laws, &self.law_means, self.start_state))
    }

    /// What the run plays beyond the cards: the Spot action and Tracker hits when its
    /// token automaton places tokens, one sentence each.
    pub fn played(&self) -> Vec<String> {
        let Some(t) = &self.tokens else { return Vec::new() };
        let mut v = Vec::new();
        if let Some(sp) = t.spotting.as_ref().filter(|_| t.spots()) {
            v.push(format!(
                "the Spot action (SPOT_ACTION=when-it-pays): 3 Energy on {}d6 at the target, a Spot token per six, \
                 taken in place of an attack when the tokens' expected gain to the next attack beats it",
                sp.dice
            ));
        }
        if t.nodes.iter().any(|n| matches!(n.act, Move::Attack { tracker: true, .. })) {
            v.push(
                "Tracker: a hit places as many Spot tokens as the Integrity it took, for later attacks (SPOT_POLICY)"
                    .into(),
            );
        }
        v
    }

    /// The laws of `keys` (arsenal weapon, phase, Spot tokens the attack consumes) and
    /// their E[Integrity lost], in order.
    fn keyed_laws(
        keys: &[(usize, usize, u32)],
        phases: &[Model; 2],
        arsenal: &[Weapon],
        target: &Model,
        sit: &Situation,
        o: &Options,
    ) -> Result<(Vec<Laws>, Vec<f64>), String> {
        let (mut laws, mut means) = (Vec::new(), Vec::new());
        for &(w, phase, consumed) in keys {
            let at = Situation { spot_tokens: consumed, ..*sit };
            laws.push(Self::laws(&phases[phase], &arsenal[w], target, &at, o, target.mech.integrity)?);
            let odds =
                super::odds::attack_odds(&phases[phase], &arsenal[w], target, &at, o).map_err(|e| e.to_string())?;
            means.push(odds.expected_integrity_loss);
        }
        Ok((laws, means))
    }

    fn laws(
        attacker: &Model,
        weapon: &Weapon,
        target: &Model,
        sit: &Situation,
        o: &Options,
        integrity: u32,
    ) -> Result<Laws, String> {
        let hit_bits = state_bits(Conditions::of(&weapon.on_hit().collect::<Vec<_>>()));
        let crit_bits = hit_bits | state_bits(Conditions::of(&weapon.on_crit().collect::<Vec<_>>()));
        let (hit_bits, crit_bits) = if target.takes_conditions() { (hit_bits, crit_bits) } else { (0, 0) };
        let mut outcomes: [Vec<Outcome>; STATES] = Default::default();
        let mut tables = Vec::new();
        let mut slots: [Vec<(u32, u8)>; STATES] = Default::default();
        for s in 0..STATES {
            let t = target.clone().with_conditions(with_state(target.conditions, s as u8));
            let (roll, _) = compile_attack(attacker, weapon, &t, sit, o).map_err(|e| e.to_string())?;
            let joint = roll.joint(integrity, o);
            // Merge the joint law by (loss, condition bits added).
            let mut keys: Vec<(u32, u8)> = Vec::new();
            let mut index = vec![0usize; joint.probs.len()];
            for (i, slot) in index.iter_mut().enumerate() {
                let (flag, loss) = joint.split(i);
                let adds = if flag >= CRIT {
                    crit_bits
                } else if flag >= HIT {
                    hit_bits
                } else {
                    0
                };
                *slot = keys.iter().position(|&k| k == (loss, adds)).unwrap_or_else(|| {
                    keys.push((loss, adds));
                    keys.len() - 1
                });
            }
            let merged_p = joint.probs.map(keys.len(), |i| index[i]);
            outcomes[s] = keys
                .iter()
                .enumerate()
                .filter(|&(k, _)| merged_p.weights[k] > 0.0)
                .map(|(k, &(loss, adds))| Outcome { loss, adds, p: merged_p.prob(k) })
                .collect();
            let table = match &joint.exact {
                Some(e) => SamplingTable::new(&e.map(keys.len(), |i| index[i])),
                None => SamplingTable::new(&merged_p),
            };
            slots[s] = table.outcomes.iter().map(|&k| keys[k]).collect();
            tables.push(table);
        }
        let tables: [SamplingTable; STATES] = tables.try_into().expect("one table per state");
        Ok(Laws { outcomes, tables, slots })
    }

    pub(super) fn law_index(&self, step: &PlanStep) -> usize {
        step.law as usize
    }

    pub(super) fn law(&self, step: &PlanStep) -> &Laws {
        &self.laws[self.law_index(step)]
    }

    /// Every sampling table with its slots' (loss, condition bits), law by law and
    /// state by state (index = law * STATES + state).
    pub(super) fn tables(&self) -> impl Iterator<Item = (&SamplingTable, &[(u32, u8)])> {
        self.laws.iter().flat_map(|l| l.tables.iter().zip(l.slots.iter().map(Vec::as_slice)))
    }

    /// Whether the Monte Carlo kernel runs the compact side-by-side loop (one draw per
    /// step, every node within `hot::HOT_SLOTS` outcomes and `hot::HOT_NODES` nodes)
    /// rather than the general one (one draw per attack).
    pub fn is_compact(&self) -> bool {
        self.hot.is_some()
    }

    /// E[Integrity lost] by the attack of `step` against the target's starting state
    /// (with the attacker's conditions of its round and the Spot tokens it consumes).
    pub fn expected_loss(&self, step: &PlanStep) -> f64 {
        self.law_means[self.law_index(step)]
    }

    /// Attacks in the plan (the most a run can make).
    pub fn max_attacks(&self) -> usize {
        match (&self.program, &self.tokens) {
            (Some(p), _) => p.max_attacks,
            (None, Some(t)) => t.max_attacks(),
            (None, None) => self.plan.len(),
        }
    }
}

impl Kernel for AttackRun {
    type Tally = TtkTally;

    fn new_tally(&self) -> TtkTally {
        TtkTally::new(self.max_rounds as usize, self.max_attacks())
    }

    /// Plays `trials` runs. Each attack draws one unbiased integer and reads its
    /// outcome from the exact table of the target's current conditions.
    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut TtkTally) {
        tally.trials += trials as u64;
        let full = self.integrity as i32;
        if let Some(program) = &self.program {
            return self.play_heat(program, rng, trials, tally);
        }
        if let Some(t) = &self.tokens {
            return t.play(&self.laws, self.integrity, self.start_state, rng, trials, tally);
        }
        if let Some(hot) = &self.hot {
            return hot.play(rng, trials, tally);
        }
        'run: for _ in 0..trials {
            let mut target = Struck { life: full, state: self.start_state };
            for (round, &(start, end)) in self.rounds.iter().enumerate() {
                for step in &self.plan[start..end] {
                    target.attack(self.law(step), rng);
                    if target.life <= 0 {
                        tally.kills_by_turn[round] += 1;
                        tally.kills_by_action[step.attack as usize] += 1;
                        continue 'run;
                    }
                }
                if target.end_round(round, end, tally) {
                    continue 'run;
                }
            }
        }
    }
}

impl AttackRun {
    /// Plays `trials` runs of an attacker with Heat ([`super::heat`]): per round one d6
    /// when the attacker starts it Malfunctioning, then one draw per attack from the law
    /// of the target's conditions.
    fn play_heat(&self, prog: &Program, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut TtkTally) {
        let full = self.integrity as i32;
        'run: for _ in 0..trials {
            let mut target = Struck { life: full, state: self.start_state };
            let mut mind = prog.start;
            let mut made = 0usize;
            for round in 0..self.max_rounds as usize {
                let variants = &prog.minds[mind];
                let v = if variants.len() == 2 {
                    &variants[(roll(rng, 6) != MALFUNCTION_CLEARS_ON) as usize]
                } else {
                    &variants[0]
                };
                for &(law, _) in &v.steps {
                    target.attack(&self.laws[law as usize], rng);
                    if target.life <= 0 {
                        tally.kills_by_turn[round] += 1;
                        tally.kills_by_action[made] += 1;
                        continue 'run;
                    }
                    made += 1;
                }
                if target.end_round(round, made, tally) {
                    continue 'run;
                }
                mind = v.next;
            }
        }
    }
}
