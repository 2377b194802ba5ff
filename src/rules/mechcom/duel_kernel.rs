//! The Monte Carlo duel (§4 "The engagements volley plays"): two models attack each other
//! round after round until one is destroyed or the round cap.
//!
//! Procedure, each round (rulings in capitals, `shared/rules/mechcom.md`):
//! 1. Start phase: `ROLL_OFF` picks who activates first. Each player rolls 1d6, ties
//!    roll again, so with two players each goes first with probability exactly 1/2: one
//!    random bit. Energy refills (`ENERGY_RESET_AT_START_PHASE`). The initiative split
//!    counts the winner of round 1's roll-off as the side that acted first.
//! 2. Activations alternate (one model a side, so `ACTIVATION_ORDER`,
//!    `ALTERNATION_RUNOUT` and `TARGET_POLICY` have one choice each). In its activation
//!    a model has its Energy (Stunned: half of it, rounded down, lost) and, while it has
//!    3⚡ and a weapon in reach with Ammo, attacks with the weapon of highest expected
//!    Integrity loss per ⚡ given both models' *current* conditions (`ACTION_POLICY`, as
//!    in attack runs: ties to the earlier weapon; `REPEAT_ACTIONS`).
//! 3. Each attack draws its outcome from the exact joint law of (Integrity lost, hit,
//!    crit) for the current conditions; the loss applies at once, then Condition X
//!    (>= 1 hit) and Critical condition X (>= 1 crit) land on the target; then Backfire X
//!    costs the attacker X Integrity (`DIRECT_DAMAGE_IGNORES_ARMOUR`).
//! 4. After its attacks the model spends leftover ⚡ by `CLEAR_POLICY` (default: 2⚡ to
//!    clear Burned, then 2⚡ to clear Corroded). At the end of its activation Burned costs
//!    it 1 Integrity ("List of Conditions": "at the end of its own activation"), and its
//!    Blinded, Shocked and Stunned end (`END_OF_TURN`).
//! 5. A model whose Integrity falls below 1 is destroyed, and the other player, alone
//!    with models left, wins at once ("Victory": "before anything else resolves"). The
//!    death explosion (`EXPLOSION_TIMING`): with the default (end of the next
//!    activation) it never resolves in a one-model duel, since the game is over first;
//!    with `immediately` it resolves at the destruction, against the other model when
//!    the two are in melee range (`MELEE_RANGE_HEXES`, at most 1 level apart;
//!    `EXPLOSION_ABSTRACT_TARGETS`), and if that destroys it too the duel is a draw by
//!    mutual kill.
//! 6. Both alive after the round cap: a draw by timeout.
//!
//! Heat (`HEAT_PLAYED`): a side with Programming, Red-Hot Reactor or Searing Wave, or
//! starting Malfunctioning, activates by `DuelKernel::activate_hot` instead of
//! step 2 (the rulings of [`super::heat`], move by move): a Malfunctioning side rolls
//! 1d6 from its own stream (a 6 clears it and its Heat) or makes the AI table's one
//! attack; otherwise `HEAT_POLICY` ranks its attacks and Searing Wave by expected loss
//! per ⚡, vents before 6 Heat, and a side reaching 6 ends its activation
//! Malfunctioning. Each attack on a side with Red-Hot Reactor and Programming adds one
//! Heat per crit of its roll. The exact chain does not carry Heat: such duels are Monte
//! Carlo only.
//!
//! Conditions tracked per model: Burned, Corroded, Shocked, Blinded, Stunned (see
//! [`super::duel_side`]). Hacked, Immobilized and Tethered change nothing without a map
//! and are ignored; what else is not played is refused by [`DuelKernel::new`].
//! Spot tokens: each model starts with the situation's on it, and the other's attacks use
//! them up as in attack runs (§1 `SPOT_TOKENS_SHARED`, `SPOT_POLICY`): each attack
//! consumes what its weapon consumes (one, all with Sniper, one without bonus with
//! Artillery, none in melee) from the tokens left, and the policy ranks the weapons that
//! can fire with the tokens left (Artillery stops when none is left). Tokens are placed
//! by the Spot action and by Tracker hits ([`super::spot`]): a side that does not play
//! Heat takes the Spot action instead of its best attack when `SPOT_ACTION` says it pays
//! ([`Side::choose`]); its roll is one uniform of its side's stream, mapped to the
//! number of sixes; a Tracker attack adds the Integrity it took to the tokens left. At
//! `SPOT_ACTION=never` and without Tracker a duel draws what it drew before.

use std::convert::Infallible;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::dice::uniform::roll;
use crate::engine::Kernel;
use crate::stats::DuelTally;

use super::attack_run::MAX_ROUNDS_LIMIT;
use super::conditions::Condition;
use super::duel_side::{
    Action, BURNED, CORRODED, ENDS_WITH_ACTIVATION, MAX_WEAPONS, SHOCKED, STUNNED, Side, SideWeapon, UNLIMITED,
    clear_leftover, law_at, view,
};
use super::energy::{ATTACK_ENERGY, CLEAR_ENERGY};
use super::heat::{HeatMove, MALFUNCTION_CLEARS_ON};
use super::mech::Model;
use super::notes::PROGRAMMING_HEAT;
use super::options::{ClearPolicy, ExplosionTiming, Options};
use super::situation::Situation;
use super::spot::SPOT_ENERGY;
use super::stability::effective_levels;

/// Who won a duel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Winner {
    A,
    B,
    /// A mutual kill, or both alive at the round cap.
    Draw,
}

/// The outcome of one duel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DuelOutcome {
    pub winner: Winner,
    /// Both destroyed (a death explosion took the other with it); a draw.
    pub mutual_kill: bool,
    /// Both alive after the round cap; a draw.
    pub timeout: bool,
    /// The round the duel ended in, 1-based (the cap for a timeout).
    pub rounds: u32,
    /// Whether A won round 1's roll-off (activated first): what the initiative split
    /// counts.
    pub a_first: bool,
}

/// How an activation ended the duel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    /// Side 0 (A) or 1 (B) alone is left.
    Win(usize),
    Mutual,
}

/// A compiled MECHCOM duel: `sides[0]` is A attacking B, `sides[1]` B attacking A.
#[derive(Debug, Clone, PartialEq)]
pub struct DuelKernel {
    pub(super) sides: [Side; 2],
    pub max_rounds: u32,
    /// Whether a destroyed model's explosion reaches the other (`EXPLOSION_TIMING` =
    /// immediately, in melee range).
    pub explosions: bool,
    /// `CLEAR_POLICY` = leftover-burned-first (else never).
    pub(super) clear: bool,
    /// Perks in reach that change nothing in a duel, per side, "weapon: perk".
    pub not_modelled: [Vec<String>; 2],
    /// Whether neither side can change the other's state (then the two-attack-run
    /// formula [`super::duel::exact_duel`] applies too).
    pub independent: bool,
    /// The duel's models, situation and options, as compiled.
    pub(super) inputs: Box<(Model, Model, Situation, Options)>,
}

impl DuelKernel {
    /// Compiles the duel of `a` and `b` at `sit` for at most `max_rounds` rounds.
    ///
    /// # Errors
    /// A message when the round cap is outside 1..=1000, options are unplayable
    /// (including `ROLL_OFF` or `EXPLOSION_ABSTRACT_TARGETS` switched off: no other
    /// reading), a model starts Malfunctioning (the HERAKLES AI table is not played), or
    /// as [`Side::new`].
    pub fn new(a: &Model, b: &Model, sit: &Situation, o: &Options, max_rounds: u32) -> Result<DuelKernel, String> {
        if !(1..=MAX_ROUNDS_LIMIT).contains(&max_rounds) {
            return Err(format!("max rounds must be between 1 and {MAX_ROUNDS_LIMIT}, got {max_rounds}"));
        }
        o.validate()?;
        let off: Vec<&str> = [("ROLL_OFF", o.roll_off), ("EXPLOSION_ABSTRACT_TARGETS", o.explosion_abstract_targets)]
            .iter()
            .filter(|(_, on)| !on)
            .map(|(name, _)| *name)
            .collect();
        if !off.is_empty() {
            return Err(format!("MECHCOM duels play no other reading of: {}", off.join(", ")));
        }
        for m in [a, b] {
            if m.conditions.has(Condition::Malfunctioning) && !super::duel_side::plays_heat(m, o) {
                return Err(format!(
                    "{} starts Malfunctioning: the HERAKLES AI table is not played in duels",
                    m.mech.name
                ));
            }
        }
        let sides = [Side::new(a, b, sit, o)?, Side::new(b, a, sit, o)?];
        let in_melee = sit.range <= o.melee_range_hexes && effective_levels(a, b, sit).abs() <= 1;
        let explosions = in_melee && o.explosion_timing == ExplosionTiming::Immediately;
        let clear = o.clear_policy == ClearPolicy::LeftoverBurnedFirst;
        let independent = !explosions
            && sides.iter().all(|s| s.heat.is_none())
            && (0..2).all(|s| {
                let (me, foe) = (&sides[s], &sides[1 - s]);
                let adds = me.weapons.iter().any(|w| w.laws.iter().any(|l| l.slots.iter().any(|&(_, b)| b != 0)));
                let backfire = me.weapons.iter().any(|w| w.backfire > 0);
                let ticks = me.start & (BURNED | STUNNED) != 0;
                // A Shocked defender's Strength matters to the other's melee until its
                // own activation ends, which the roll-off orders.
                let shocked = me.start & SHOCKED != 0 && foe.weapons.iter().any(SideWeapon::sees_shocked_target);
                let clears = clear && me.start & CORRODED != 0 && me.energy >= CLEAR_ENERGY;
                // The attack-run formula places no Spot token.
                let places = me.spotting.is_some() || me.weapons.iter().any(|w| w.tracker);
                !(adds || backfire || ticks || shocked || clears || places)
            });
        Ok(DuelKernel {
            not_modelled: [sides[0].not_modelled.clone(), sides[1].not_modelled.clone()],
            sides,
            max_rounds,
            explosions,
            clear,
            independent,
            inputs: Box::new((a.clone(), b.clone(), *sit, o.clone())),
        })
    }

    /// The weapons each side can fire at this range, in arsenal order (unarmed last).
    pub fn weapons(&self, side: usize) -> impl Iterator<Item = &str> {
        self.sides[side].weapons.iter().map(|w| w.name.as_str())
    }

    /// Plays one duel from the trial generator `rng`, which gives exactly three u64:
    /// the seeds of one generator per role ([`TrialStreams`]). Roll-offs come from
    /// their own stream (one bit a round), and each side's attacks and explosion from its
    /// side's stream (one uniform per attack, mapped to the outcome through slots
    /// ordered by Integrity lost), so two duels played from the same trial generator
    /// (common random numbers: A against X and B against X) share every roll-off and
    /// each side's k-th attack sees the same uniform, with comonotone losses.
    pub fn play_one(&self, rng: &mut Xoshiro256PlusPlus) -> DuelOutcome {
        let mut streams = TrialStreams::next(rng);
        let mut life = [self.sides[0].integrity as i32, self.sides[1].integrity as i32];
        let mut state = [self.sides[0].start, self.sides[1].start];
        let mut ammo = [self.sides[0].ammo, self.sides[1].ammo];
        let mut minds = [HeatMind::of(&self.sides[0]), HeatMind::of(&self.sides[1])];
        let mut spot = [self.sides[0].spot, self.sides[1].spot];
        let mut bits = 0u64;
        let mut a_first = false;
        for round in 1..=self.max_rounds {
            let bit = (round - 1) % u64::BITS;
            if bit == 0 {
                bits = streams.roll_off.next_u64();
            }
            let first = (bits >> bit & 1) as usize;
            if round == 1 {
                a_first = first == 0;
            }
            for who in [first, 1 - first] {
                let end = if self.sides[who].heat.is_some() {
                    self.activate_hot(who, &mut life, &mut state, &mut ammo, &mut minds, &mut spot, &mut streams.sides)
                } else {
                    self.activate(who, &mut life, &mut state, &mut ammo, &mut minds, &mut spot, &mut streams.sides)
                };
                if let Some(end) = end {
                    let (winner, mutual_kill) = match end {
                        End::Win(0) => (Winner::A, false),
                        End::Win(_) => (Winner::B, false),
                        End::Mutual => (Winner::Draw, true),
                    };
                    return DuelOutcome { winner, mutual_kill, timeout: false, rounds: round, a_first };
                }
            }
        }
        DuelOutcome { winner: Winner::Draw, mutual_kill: false, timeout: true, rounds: self.max_rounds, a_first }
    }

    /// Side `who`'s activation (module docs, steps 2-4); `Some` when the duel ends.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn activate(
        &self,
        who: usize,
        life: &mut [i32; 2],
        state: &mut [u8; 2],
        ammo: &mut [[u32; MAX_WEAPONS]; 2],
        minds: &mut [HeatMind; 2],
        spot: &mut [u32; 2],
        rngs: &mut [Xoshiro256PlusPlus; 2],
    ) -> Option<End> {
        let me = &self.sides[who];
        let foe = 1 - who;
        let mut energy = me.energy;
        if state[who] & STUNNED != 0 {
            energy -= energy / 2;
        }
        while energy >= ATTACK_ENERGY {
            let v = view(state[who], state[foe]);
            let w = match me.choose(spot[who], v, |w| ammo[who][w] > 0) {
                None => break,
                Some(Action::Spot) => {
                    energy -= SPOT_ENERGY;
                    let law = &me.spotting.as_ref().expect("a side that spots").law;
                    spot[who] = (spot[who] + law.draw(&mut rngs[who]).0).min(me.cap);
                    continue;
                }
                Some(Action::Attack(w)) => w,
            };
            energy -= ATTACK_ENERGY;
            if ammo[who][w] != UNLIMITED {
                ammo[who][w] -= 1;
            }
            if let Some(end) = self.attack(who, w, v, life, state, minds, spot, rngs) {
                return Some(end);
            }
        }
        self.end_activation(who, energy, true, life, state, rngs)
    }

    /// The end of side `who`'s activation with `energy` ⚡ left: `CLEAR_POLICY` when
    /// `may_clear`, Burned costs 1 Integrity, Shocked, Blinded and Stunned end; `Some`
    /// when the duel ends.
    #[inline(always)]
    fn end_activation(
        &self,
        who: usize,
        energy: u32,
        may_clear: bool,
        life: &mut [i32; 2],
        state: &mut [u8; 2],
        rngs: &mut [Xoshiro256PlusPlus; 2],
    ) -> Option<End> {
        if self.clear && may_clear {
            clear_leftover(&mut state[who], energy);
        }
        if state[who] & BURNED != 0 {
            life[who] -= 1;
            if life[who] <= 0 {
                return Some(self.destroyed(who, life, state, &mut rngs[who]));
            }
        }
        state[who] &= !ENDS_WITH_ACTIVATION;
        None
    }

    /// Side `who` attacks with weapon `w` in view `v`, with the Spot tokens left on the
    /// other model (it uses up what the weapon consumes): the loss and conditions land,
    /// Tracker adds the loss to the tokens left (up to the side's cap), a
    /// Red-Hot Reactor target with Programming gains a Heat per crit of the roll (at 6 it
    /// is Malfunctioning), then Backfire; `Some` when the duel ends.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn attack(
        &self,
        who: usize,
        w: usize,
        v: usize,
        life: &mut [i32; 2],
        state: &mut [u8; 2],
        minds: &mut [HeatMind; 2],
        spot: &mut [u32; 2],
        rngs: &mut [Xoshiro256PlusPlus; 2],
    ) -> Option<End> {
        let foe = 1 - who;
        let weapon = &self.sides[who].weapons[w];
        let tokens = spot[who];
        let law = &weapon.laws[law_at(tokens, v)];
        spot[who] = tokens - weapon.spends[tokens as usize].expect("a weapon that fires");
        let slot = law.draw_slot(&mut rngs[who]);
        let (loss, adds) = law.slots[slot];
        life[foe] -= loss as i32;
        state[foe] |= adds;
        if life[foe] <= 0 {
            return Some(self.destroyed(foe, life, state, &mut rngs[foe]));
        }
        if weapon.tracker {
            spot[who] = (spot[who] + loss).min(self.sides[who].cap);
        }
        if let Some(&crits) = law.crits.get(slot) {
            minds[foe].heat += u32::from(crits);
            if minds[foe].heat >= PROGRAMMING_HEAT {
                minds[foe] = HeatMind { heat: 0, malfunctioning: true, ..minds[foe] };
            }
        }
        if weapon.backfire > 0 {
            life[who] -= weapon.backfire as i32;
            if life[who] <= 0 {
                return Some(self.destroyed(who, life, state, &mut rngs[who]));
            }
        }
        None
    }

    /// The activation of a side that plays Heat (the rulings of [`super::heat`], move by
    /// move): a Malfunctioning side rolls its d6 (a 6 clears it and its Heat) or makes
    /// the AI table's attack; otherwise `HEAT_POLICY` ranks its attacks and Searing Wave
    /// by expected loss per ⚡ for the current conditions, vents before an attack would
    /// bring Programming to 6 Heat, and a side that reaches 6 ends its activation
    /// Malfunctioning. Then `CLEAR_POLICY` (not while Malfunctioning), Burned and the
    /// end of Shocked, Blinded, Stunned, as in [`Self::activate`].
    #[allow(clippy::needless_range_loop, clippy::too_many_arguments)]
    fn activate_hot(
        &self,
        who: usize,
        life: &mut [i32; 2],
        state: &mut [u8; 2],
        ammo: &mut [[u32; MAX_WEAPONS]; 2],
        minds: &mut [HeatMind; 2],
        spot: &mut [u32; 2],
        rngs: &mut [Xoshiro256PlusPlus; 2],
    ) -> Option<End> {
        let me = &self.sides[who];
        let h = me.heat.as_ref().expect("a side with Heat");
        let foe = 1 - who;
        let mut energy = me.energy;
        if state[who] & STUNNED != 0 {
            energy -= energy / 2;
        }
        if minds[who].malfunctioning && roll(&mut rngs[who], 6) == MALFUNCTION_CLEARS_ON {
            minds[who] = HeatMind { heat: 0, malfunctioning: false, ..minds[who] };
        }
        if minds[who].malfunctioning {
            // The AI table: the sheet's weapon in reach of highest expected loss.
            while energy >= ATTACK_ENERGY {
                let v = view(state[who], state[foe]);
                let at = law_at(spot[who], v);
                let mut best: Option<usize> = None;
                for w in 0..me.weapons.len() {
                    let better = best.is_none_or(|b| me.weapons[b].laws[at].mean < me.weapons[w].laws[at].mean);
                    if h.sheet[w] && ammo[who][w] > 0 && me.fires(w, spot[who]) && better {
                        best = Some(w);
                    }
                }
                let Some(w) = best else { break };
                energy -= ATTACK_ENERGY;
                if ammo[who][w] != UNLIMITED {
                    ammo[who][w] -= 1;
                }
                if let Some(end) = self.attack(who, w, v, life, state, minds, spot, rngs) {
                    return Some(end);
                }
                if h.one_action {
                    break;
                }
            }
        } else {
            let knobs = h.knobs(me.weapons.len());
            let rank = |w: usize, mean: f64| match (Some(w) == h.wave, h.ability_cost) {
                (false, _) => mean,
                (true, 0) => f64::INFINITY,
                (true, c) => mean * f64::from(ATTACK_ENERGY) / f64::from(c),
            };
            loop {
                let v = view(state[who], state[foe]);
                let m = minds[who];
                let Ok(next) = knobs.next_move(m.heat, m.vents, energy, |w| -> Result<_, Infallible> {
                    let ready = if Some(w) == h.wave { m.waves > 0 } else { ammo[who][w] > 0 };
                    let at = law_at(spot[who], v);
                    Ok((ready && me.fires(w, spot[who])).then(|| rank(w, me.weapons[w].laws[at].mean)))
                });
                let w = match next {
                    None => break,
                    Some(HeatMove::Vent) => {
                        minds[who] = HeatMind { heat: 0, vents: m.vents - 1, ..m };
                        energy -= h.ability_cost;
                        continue;
                    }
                    Some(HeatMove::Attack(w)) => w,
                };
                energy -= knobs.cost(w);
                if Some(w) == h.wave {
                    minds[who].waves -= 1;
                } else if ammo[who][w] != UNLIMITED {
                    ammo[who][w] -= 1;
                }
                if let Some(end) = self.attack(who, w, v, life, state, minds, spot, rngs) {
                    return Some(end);
                }
                minds[who].heat += h.gain[w];
                if h.programming && minds[who].heat >= PROGRAMMING_HEAT {
                    minds[who] = HeatMind { heat: 0, malfunctioning: true, ..minds[who] };
                    break;
                }
            }
        }
        // Not while Malfunctioning: the AI table replaces every action.
        self.end_activation(who, energy, !minds[who].malfunctioning, life, state, rngs)
    }

    /// Side `dead` was destroyed: the other wins, unless its explosion (drawn from `rng`,
    /// the destroyed side's stream) destroys the other too (module docs, step 5).
    fn destroyed(&self, dead: usize, life: &mut [i32; 2], state: &[u8; 2], rng: &mut Xoshiro256PlusPlus) -> End {
        let other = 1 - dead;
        if self.explosions {
            let law = &self.sides[other].blast[(state[other] & CORRODED != 0) as usize];
            life[other] -= law.draw(rng).0 as i32;
            if life[other] <= 0 {
                return End::Mutual;
            }
        }
        End::Win(other)
    }
}

/// The generators of one duel, one per role, seeded from three u64 of the trial
/// generator (SplitMix64 seeding, as the engine's streams).
#[derive(Debug, Clone)]
pub struct TrialStreams {
    /// Roll-offs: one bit a round, 64 rounds per u64.
    pub roll_off: Xoshiro256PlusPlus,
    /// Side A's and side B's attacks and death explosions.
    pub sides: [Xoshiro256PlusPlus; 2],
}

impl TrialStreams {
    /// Seeds the next trial's roles from `rng`: exactly three u64.
    #[inline(always)]
    pub fn next(rng: &mut Xoshiro256PlusPlus) -> TrialStreams {
        let roll_off = seeded(rng.next_u64());
        let a = seeded(rng.next_u64());
        let b = seeded(rng.next_u64());
        TrialStreams { roll_off, sides: [a, b] }
    }
}

/// SplitMix64's increment (Steele, Lea & Flood 2014).
const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// A generator whose 256-bit state is the first four SplitMix64 outputs from `seed`
/// (the recommended seeding of the xoshiro family), written here so that it inlines
/// into the hot loop (the rules room does not reach into the engine's seeding).
#[inline(always)]
fn seeded(seed: u64) -> Xoshiro256PlusPlus {
    let mut state = seed;
    let mut bytes = [0u8; 32];
    for chunk in bytes.chunks_exact_mut(8) {
        state = state.wrapping_add(GOLDEN_GAMMA);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        chunk.copy_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    Xoshiro256PlusPlus::from_seed(bytes)
}

/// A side's Heat state between its activations (zero for a side without Heat).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeatMind {
    pub heat: u32,
    pub malfunctioning: bool,
    /// Uses of Searing Wave and Vent Coolant left.
    pub waves: u32,
    pub vents: u32,
}

impl HeatMind {
    /// The starting state of `side`.
    pub fn of(side: &Side) -> HeatMind {
        match &side.heat {
            Some(h) => HeatMind { heat: 0, malfunctioning: h.malfunctioning, waves: h.uses, vents: h.uses },
            None => HeatMind { heat: 0, malfunctioning: false, waves: 0, vents: 0 },
        }
    }
}

impl Kernel for DuelKernel {
    type Tally = DuelTally;

    fn new_tally(&self) -> DuelTally {
        DuelTally::new(self.max_rounds as usize)
    }

    /// Plays `trials` duels, one [`DuelKernel::play_one`] after another on `rng`.
    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut DuelTally) {
        tally.trials += trials as u64;
        for _ in 0..trials {
            let out = self.play_one(rng);
            tally.count_first(out.a_first, !out.timeout && out.winner == Winner::A);
            let r = out.rounds as usize - 1;
            match out.winner {
                _ if out.timeout => tally.timeouts += 1,
                Winner::A => tally.a_wins_by_turn[r] += 1,
                Winner::B => tally.b_wins_by_turn[r] += 1,
                Winner::Draw => tally.mutual_by_turn[r] += 1,
            }
        }
    }
}

impl crate::rules::kit::replay_paired::Replayable for DuelKernel {
    fn a_wins(&self, rng: &mut Xoshiro256PlusPlus) -> bool {
        self.play_one(rng).winner == Winner::A
    }
}
