//! Heat in attack runs (§2 "Heat", rulings `HEAT_PLAYED`, `HEAT_POLICY`,
//! `MALFUNCTION_ONE_ACTION`, `SEARING_WAVE_AS_SHOOTING`, `ABILITY_BRACKET`): the
//! attacker's own state as a small automaton, compiled before the first roll.
//!
//! # What the book says (Typhon sheet, "List of Perks", "List of Conditions", AI table)
//! - Superheated: after attacking with the weapon, its wielder gains 1 Heat token.
//! - Searing Wave [1/5]: a ranged attack (2d6, Damage 2) against each enemy within 3;
//!   the model gains 2 Heat. Vent Coolant [1/5]: clears all Heat.
//! - Programming: at 6 or more Heat the model *immediately* becomes Malfunctioning;
//!   when it clears Malfunctioning, all its Heat is removed.
//! - Malfunctioning: instead of taking actions as usual, the model acts by the HERAKLES
//!   AI table; at the start of its activation it rolls 1d6, and a 6 removes the
//!   condition.
//! - AI table: no enemy within Sensors: move in a random direction; an enemy within
//!   Sensors but none in weapon range: move toward it; else attack with the weapon that
//!   is in range.
//!
//! # Rulings where the book stops short (each with its reason)
//! - Becoming Malfunctioning in its own activation ends that activation (§4
//!   `MALFUNCTION_ONE_ACTION`'s text: "instead of taking actions as usual").
//! - A model that rolls its 6 acts normally in that activation, with no Heat (§4): the
//!   roll is "at the start of this model's activation", before any action.
//! - The AI table's action (`MALFUNCTION_ONE_ACTION` = one per activation): without a
//!   map (`NON_SPATIAL`) every enemy is within Sensors, so the model attacks when one of
//!   its sheet's weapons reaches the range, with the one of highest expected Integrity
//!   loss (ties to the earlier weapon), paying 3⚡; "the weapon" is a weapon of the
//!   sheet, so neither unarmed melee nor an ability is an AI-table attack. With no
//!   weapon in range it would move, which changes nothing at a fixed range. Its Heat no
//!   longer matters (it is Malfunctioning already, and clearing removes it all).
//! - Vent Coolant cannot clear Heat while Malfunctioning: the AI table replaces every
//!   action and names no ability.
//! - Searing Wave is an attack (`SEARING_WAVE_AS_SHOOTING`): counted as one in the run's
//!   attacks, its own ⚡ and Limit (`ABILITY_BRACKET`, `TYPHON_ABILITY_COST`,
//!   `TYPHON_ABILITY_LIMIT`), within 3 hexes.
//! - Heat only matters through Programming: a model without it never vents; Searing
//!   Wave is used by any model that has it (`HEAT_POLICY` = vent-before-overheat).
//! - Red-Hot Reactor gives Heat to the *target* of an attack; the target of an attack
//!   run never acts, so its Heat changes nothing there.
//!
//! # The automaton
//! A *mind* is the attacker's state at the start of a round: first round or later (its
//! starting Blinded, Shocked, Stunned spoil the first only), Heat, Malfunctioning, uses
//! of Searing Wave and Vent Coolant left, Spot tokens left on the target and Ammo left.
//! Given a mind, a round is deterministic (Heat does not depend on the dice), except
//! for the Malfunctioning roll: a Malfunctioning mind has two variants, cleared (1/6:
//! a normal round from no Heat) and not (5/6: the AI table). Each variant is the list of
//! the round's attacks and the mind it leaves. The run's exact chain carries (mind,
//! attacks made) with the target's (Integrity, conditions); the Monte Carlo draws one
//! d6 (`crate::dice::roll`) per round that starts Malfunctioning, and nothing else
//! beyond the plain run's draws.

use std::collections::{BTreeMap, HashMap, VecDeque};

use super::conditions::Condition;
use super::energy::ATTACK_ENERGY;
use super::mech::{Ability, Model};
use super::notes::PROGRAMMING_HEAT;
use super::options::{AbilityBracket, HeatPolicy, Options};
use super::weapon::{Damage, Perk, Weapon};

/// Heat Searing Wave adds (Typhon sheet: "gains 2 heat tokens").
pub const SEARING_WAVE_HEAT: u32 = 2;
/// Searing Wave reaches every enemy within this many hexes (Typhon sheet).
pub const SEARING_WAVE_RANGE: u32 = 3;
/// The face of the start-of-activation d6 that clears Malfunctioning ("On a 6").
pub const MALFUNCTION_CLEARS_ON: u64 = 6;
/// Most minds a run's automaton may hold.
pub const MAX_MINDS: usize = 20_000;

/// Searing Wave's attack as a weapon (`SEARING_WAVE_AS_SHOOTING`): Range 3, Damage 2,
/// Attacks 2, no perk.
pub fn searing_wave() -> Weapon {
    Weapon::ranged("Searing Wave", SEARING_WAVE_RANGE, Damage::Fixed(2), 2, &[])
}

/// Whether an attack run of `attacker` plays Heat: `HEAT_PLAYED` and the attacker starts
/// Malfunctioning, has Searing Wave, or has Programming and a Superheated weapon.
/// Otherwise its run is the plain fixed plan.
pub fn plays_heat(attacker: &Model, o: &Options) -> bool {
    let abilities = &attacker.mech.abilities;
    o.heat_played
        && (attacker.conditions.has(Condition::Malfunctioning)
            || abilities.contains(&Ability::SearingWave)
            || (abilities.contains(&Ability::Programming)
                && attacker.mech.weapons.iter().any(|w| w.has(Perk::Superheated))))
}

/// (⚡ cost, uses per game) of Searing Wave and Vent Coolant: "[1/5]" read by
/// `ABILITY_BRACKET` (cost-limit: `TYPHON_ABILITY_COST` ⚡, `TYPHON_ABILITY_LIMIT`
/// uses; limit-cost: the other way round).
pub fn ability_cost_limit(o: &Options) -> (u32, u32) {
    match o.ability_bracket {
        AbilityBracket::CostLimit => (o.typhon_ability_cost, o.typhon_ability_limit),
        AbilityBracket::LimitCost => (o.typhon_ability_limit, o.typhon_ability_cost),
    }
}

/// A weapon as a policy sees it before one attack.
#[derive(Debug, Clone, Copy)]
pub(super) struct Scored {
    pub(super) score: (f64, f64),
    /// Spot tokens the attack consumes.
    pub(super) consumed: u32,
    /// E[Integrity lost] against the target's starting state.
    pub(super) mean: f64,
}

/// A side's Heat rules as the choice of its next move reads them: attack runs'
/// [`Planner`], and duels' and battles' [`super::duel_side::HeatRules`].
#[derive(Debug, Clone, Copy)]
pub struct HeatKnobs<'a> {
    /// Per action (weapon, or Searing Wave): Heat it adds.
    pub gain: &'a [u32],
    /// Index of Searing Wave among the actions, when the side uses it.
    pub wave: Option<usize>,
    pub programming: bool,
    pub vent: bool,
    /// `HEAT_POLICY` = vent-before-overheat.
    pub use_abilities: bool,
    /// ⚡ of Searing Wave and Vent Coolant.
    pub ability_cost: u32,
}

/// The next move of a side that plays Heat and is not Malfunctioning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeatMove {
    /// Vent Coolant: clears all Heat, costs [`HeatKnobs::ability_cost`] ⚡ and a use.
    Vent,
    /// Attack with (or use) action `w`.
    Attack(usize),
}

impl HeatKnobs<'_> {
    /// ⚡ of action `w`: Searing Wave's ability cost, else [`ATTACK_ENERGY`].
    #[inline(always)]
    pub fn cost(&self, w: usize) -> u32 {
        if Some(w) == self.wave { self.ability_cost } else { ATTACK_ENERGY }
    }

    /// The next move by `HEAT_POLICY` (the module's rulings) of a side with `heat` Heat,
    /// `vents` uses of Vent Coolant left and `energy` ⚡: among the actions `energy`
    /// affords that `rank` ranks (`None`: not ready), the highest (ties to the earlier);
    /// when it would bring Programming to [`PROGRAMMING_HEAT`], a vent first if one is
    /// left, there is Heat to clear and ⚡ for both, else the best action that stays
    /// below. `None`: no action is ready.
    ///
    /// # Errors
    /// The first error of `rank`.
    #[inline(always)]
    pub fn next_move<R: PartialOrd + Copy, E>(
        &self,
        heat: u32,
        vents: u32,
        energy: u32,
        mut rank: impl FnMut(usize) -> Result<Option<R>, E>,
    ) -> Result<Option<HeatMove>, E> {
        let mut best: Option<(usize, R)> = None;
        let mut safe: Option<(usize, R)> = None;
        for w in 0..self.gain.len() {
            if energy < self.cost(w) {
                continue;
            }
            let Some(r) = rank(w)? else { continue };
            if best.is_none_or(|(_, b)| b < r) {
                best = Some((w, r));
            }
            let stays = !self.programming || heat + self.gain[w] < PROGRAMMING_HEAT;
            if stays && safe.is_none_or(|(_, b)| b < r) {
                safe = Some((w, r));
            }
        }
        let Some((mut w, _)) = best else { return Ok(None) };
        if self.programming && self.use_abilities && heat + self.gain[w] >= PROGRAMMING_HEAT {
            let can_vent = self.vent
                && vents > 0
                && heat > 0
                && self.gain[w] < PROGRAMMING_HEAT
                && energy >= self.ability_cost + self.cost(w);
            if can_vent {
                return Ok(Some(HeatMove::Vent));
            }
            if let Some((s, _)) = safe {
                w = s;
            }
        }
        Ok(Some(HeatMove::Attack(w)))
    }
}

/// The attacker's state at the start of a round (module docs, "The automaton").
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Mind {
    pub(super) later: bool,
    pub(super) heat: u32,
    pub(super) malfunctioning: bool,
    pub(super) waves: u32,
    pub(super) vents: u32,
    pub(super) tokens: u32,
    pub(super) ammo: Vec<Option<u32>>,
}

/// One attack of a round: arsenal weapon, phase (0: first round), Spot tokens consumed,
/// and whether the AI table chose it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Act {
    pub(super) weapon: usize,
    pub(super) phase: usize,
    pub(super) consumed: u32,
    pub(super) ai: bool,
}

/// What the planner knows about the attacker.
pub(super) struct Planner {
    /// Per arsenal weapon: Heat it adds.
    pub(super) heat_gain: Vec<u32>,
    /// Arsenal index of Searing Wave, when the attacker has it.
    pub(super) wave: Option<usize>,
    /// Arsenal indices below this are the sheet's weapons (the AI table's).
    pub(super) sheet_weapons: usize,
    /// ⚡ per round, by phase.
    pub(super) energy: [u32; 2],
    pub(super) programming: bool,
    pub(super) vent: bool,
    pub(super) use_abilities: bool,
    /// ⚡ of Searing Wave and Vent Coolant.
    pub(super) ability_cost: u32,
    pub(super) one_action: bool,
    /// Whether the run policy ranks by expected loss per ⚡ (else by dice first).
    pub(super) per_energy: bool,
}

type ScoreFn<'a> = dyn FnMut(usize, usize, u32) -> Result<Option<Scored>, String> + 'a;

impl Planner {
    /// The planner of `attacker` under `o`; `sheet_weapons` and `wave` as in the fields.
    pub(super) fn new(
        attacker: &Model,
        arsenal: &[Weapon],
        sheet_weapons: usize,
        wave: Option<usize>,
        o: &Options,
    ) -> Planner {
        let abilities = &attacker.mech.abilities;
        let energy = attacker.mech.energy;
        let first = if attacker.conditions.has(Condition::Stunned) { energy - energy / 2 } else { energy };
        Planner {
            heat_gain: arsenal
                .iter()
                .enumerate()
                .map(|(i, w)| if Some(i) == wave { SEARING_WAVE_HEAT } else { w.has(Perk::Superheated) as u32 })
                .collect(),
            wave,
            sheet_weapons,
            energy: [first, energy],
            programming: abilities.contains(&Ability::Programming),
            vent: abilities.contains(&Ability::VentCoolant),
            use_abilities: o.heat_policy == HeatPolicy::VentBeforeOverheat,
            ability_cost: ability_cost_limit(o).0,
            one_action: o.malfunction_one_action,
            per_energy: true,
        }
    }

    fn knobs(&self) -> HeatKnobs<'_> {
        HeatKnobs {
            gain: &self.heat_gain,
            wave: self.wave,
            programming: self.programming,
            vent: self.vent,
            use_abilities: self.use_abilities,
            ability_cost: self.ability_cost,
        }
    }

    /// The policy's score of `w`, per ⚡ spent when the policy ranks by expected loss
    /// (an attack's score is per 3⚡, so Searing Wave's is scaled by 3 / its cost).
    fn rank(&self, w: usize, s: &Scored) -> (f64, f64) {
        if Some(w) != self.wave || !self.per_energy {
            return s.score;
        }
        match self.ability_cost {
            0 => (f64::INFINITY, s.mean),
            c => (s.score.0 * f64::from(ATTACK_ENERGY) / f64::from(c), s.score.1),
        }
    }

    /// A normal round from mind `m` (not Malfunctioning): its attacks and the mind after.
    fn normal_round(&self, m: &Mind, score: &mut ScoreFn) -> Result<(Vec<Act>, Mind), String> {
        let phase = m.later as usize;
        let mut m = m.clone();
        let mut energy = self.energy[phase];
        let mut acts = Vec::new();
        let knobs = self.knobs();
        loop {
            let next = knobs.next_move(m.heat, m.vents, energy, |w| -> Result<_, String> {
                let ready = if Some(w) == self.wave { self.use_abilities && m.waves > 0 } else { m.ammo[w] != Some(0) };
                if !ready {
                    return Ok(None);
                }
                Ok(score(w, phase, m.tokens)?.map(|s| self.rank(w, &s)))
            })?;
            let w = match next {
                None => break,
                Some(HeatMove::Vent) => {
                    m.heat = 0;
                    m.vents -= 1;
                    energy -= self.ability_cost;
                    continue;
                }
                Some(HeatMove::Attack(w)) => w,
            };
            let s = score(w, phase, m.tokens)?.expect("the chosen action was scored");
            energy -= knobs.cost(w);
            m.tokens -= s.consumed;
            if Some(w) == self.wave {
                m.waves -= 1;
            } else if let Some(a) = m.ammo[w].as_mut() {
                *a -= 1;
            }
            m.heat += self.heat_gain[w];
            acts.push(Act { weapon: w, phase, consumed: s.consumed, ai: false });
            if self.programming && m.heat >= PROGRAMMING_HEAT {
                m.malfunctioning = true;
                m.heat = 0;
                break;
            }
        }
        m.later = true;
        Ok((acts, m))
    }

    /// A round by the AI table from a Malfunctioning mind that did not roll its 6.
    fn ai_round(&self, m: &Mind, score: &mut ScoreFn) -> Result<(Vec<Act>, Mind), String> {
        let phase = m.later as usize;
        let mut m = m.clone();
        let mut energy = self.energy[phase];
        let mut acts = Vec::new();
        while energy >= ATTACK_ENERGY {
            let mut best: Option<(usize, Scored)> = None;
            for w in 0..self.sheet_weapons {
                if m.ammo[w] == Some(0) {
                    continue;
                }
                let Some(s) = score(w, phase, m.tokens)? else { continue };
                if best.is_none_or(|(_, b)| b.mean < s.mean) {
                    best = Some((w, s));
                }
            }
            let Some((w, s)) = best else { break };
            energy -= ATTACK_ENERGY;
            m.tokens -= s.consumed;
            if let Some(a) = m.ammo[w].as_mut() {
                *a -= 1;
            }
            acts.push(Act { weapon: w, phase, consumed: s.consumed, ai: true });
            if self.one_action {
                break;
            }
        }
        m.later = true;
        Ok((acts, m))
    }
}

/// One way a round goes from a mind: with probability `sixths`/6, these attacks (law
/// index, weapon slot in [`super::AttackRun::weapons`]), then mind `next`.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    pub sixths: u32,
    pub steps: Vec<(u16, u8)>,
    pub next: usize,
}

/// The compiled automaton: per mind, one variant (6/6), or two when it starts
/// Malfunctioning (cleared 1/6 first, then not 5/6).
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    pub minds: Vec<Vec<Variant>>,
    pub start: usize,
    /// The most attacks any run can make within the round cap.
    pub max_attacks: usize,
}

/// Builds the automaton from `start` with `planner`; `score(w, phase, tokens)` scores an
/// arsenal weapon; `step(act)` gives an act's (law index, weapon slot).
pub(super) fn build(
    planner: &Planner,
    start: Mind,
    max_rounds: u32,
    score: &mut ScoreFn,
    step: &mut dyn FnMut(&Act) -> (u16, u8),
) -> Result<Program, String> {
    let mut index: HashMap<Mind, usize> = HashMap::new();
    let mut minds: Vec<Mind> = vec![start.clone()];
    index.insert(start, 0);
    let mut out: Vec<Vec<Variant>> = Vec::new();
    let mut queue: VecDeque<usize> = VecDeque::from([0]);
    while let Some(i) = queue.pop_front() {
        let m = minds[i].clone();
        let rounds = if m.malfunctioning {
            let cleared = Mind { malfunctioning: false, heat: 0, ..m.clone() };
            vec![(1, planner.normal_round(&cleared, score)?), (5, planner.ai_round(&m, score)?)]
        } else {
            vec![(6, planner.normal_round(&m, score)?)]
        };
        let mut variants = Vec::new();
        for (sixths, (acts, next)) in rounds {
            let id = match index.get(&next) {
                Some(&id) => id,
                None => {
                    if minds.len() >= MAX_MINDS {
                        return Err(format!("an attack run with Heat holds at most {MAX_MINDS} attacker states"));
                    }
                    minds.push(next.clone());
                    index.insert(next, minds.len() - 1);
                    queue.push_back(minds.len() - 1);
                    minds.len() - 1
                }
            };
            variants.push(Variant { sixths, steps: acts.iter().map(&mut *step).collect(), next: id });
        }
        if out.len() <= i {
            out.resize(i + 1, Vec::new());
        }
        out[i] = variants;
    }
    // The most attacks within the cap: the longest path, round by round.
    let mut most: BTreeMap<usize, usize> = BTreeMap::from([(0, 0)]);
    let mut max_attacks = 0;
    for _ in 0..max_rounds {
        let mut next: BTreeMap<usize, usize> = BTreeMap::new();
        for (&i, &a) in &most {
            for v in &out[i] {
                let n = a + v.steps.len();
                max_attacks = max_attacks.max(n);
                let e = next.entry(v.next).or_insert(0);
                *e = (*e).max(n);
            }
        }
        most = next;
    }
    Ok(Program { minds: out, start: 0, max_attacks })
}
