//! One side of a Monte Carlo duel, compiled: its weapons' exact attack laws against the
//! other model for every combination of the conditions that change them, the weapon
//! ranking of each such state (`ACTION_POLICY`), its Ammo, and the death explosion's
//! law against it. Built once by [`super::duel_kernel::DuelKernel::new`]; read by the
//! hot loop with no allocation.
//!
//! # Condition bits
//! A model's state is a `u8` of the conditions a duel changes: [`BURNED`],
//! [`CORRODED`], [`SHOCKED`], [`BLINDED`], [`STUNNED`]. An attack's law depends on the
//! attacker's Blinded and Shocked (Stability, Strength) and on the target's Corroded and
//! Shocked (Armour, melee defence): a *view* of 4 × 4 = 16 states. It depends too on the
//! Spot tokens left on the target, which the side's own attacks use up and its Spot
//! actions and Tracker hits place ([`super::spot`]): laws are compiled per (tokens
//! left, view), [`law_at`], for 0..=[`Side::cap`] tokens.

use crate::dice::{Dist, SamplingTable};

use super::conditions::{Condition, Conditions};
use super::energy::CLEAR_ENERGY;
use super::mech::{Ability, Model};
use super::notes::{PROGRAMMING_HEAT, superheated};
use super::odds::{attack_odds, compile_attack, explosion_odds};
use super::options::Options;
use super::roll::{CRIT, HIT};
use super::situation::Situation;
use super::stability::NoAttack;
use super::weapon::{Perk, Weapon};

/// Loses 1 Integrity at the end of its own activation; cleared for 2⚡.
pub const BURNED: u8 = 1;
/// −1 Armour; cleared for 2⚡.
pub const CORRODED: u8 = 2;
/// +1 Stability, −1 Strength; ends with its own next activation (`END_OF_TURN`).
pub const SHOCKED: u8 = 4;
/// +2 Stability; ends with its own next activation.
pub const BLINDED: u8 = 8;
/// Its next activation has half its Energy (rounded down) less; ends with it.
pub const STUNNED: u8 = 16;
/// The conditions behind each bit, in bit order.
pub const DUEL_TRACKED: [Condition; 5] =
    [Condition::Burned, Condition::Corroded, Condition::Shocked, Condition::Blinded, Condition::Stunned];
/// Conditions that end at the end of the carrier's own activation (`END_OF_TURN`).
pub const ENDS_WITH_ACTIVATION: u8 = SHOCKED | BLINDED | STUNNED;
/// Attack laws per weapon: 4 attacker states × 4 target states.
pub const VIEWS: usize = 16;
/// Most weapons (unarmed included) a duel side may have in reach.
pub const MAX_WEAPONS: usize = 16;
pub use super::spot::MAX_SPOT_TOKENS;
/// Ammo of a weapon without the Ammo perk.
pub const UNLIMITED: u32 = u32::MAX;

/// The view index of an attack by a model in state `me` on a model in state `foe`.
#[inline(always)]
pub fn view(me: u8, foe: u8) -> usize {
    let a = ((me & BLINDED != 0) as usize) | (((me & SHOCKED != 0) as usize) << 1);
    let t = ((foe & CORRODED != 0) as usize) | (((foe & SHOCKED != 0) as usize) << 1);
    a * 4 + t
}

/// `CLEAR_POLICY` = leftover-burned-first at the end of an activation: with `energy` ⚡
/// left, [`CLEAR_ENERGY`] to clear Burned, then [`CLEAR_ENERGY`] to clear Corroded, from
/// the model's state bits `state`.
#[inline(always)]
pub fn clear_leftover(state: &mut u8, mut energy: u32) {
    for c in [BURNED, CORRODED] {
        if *state & c != 0 && energy >= CLEAR_ENERGY {
            *state &= !c;
            energy -= CLEAR_ENERGY;
        }
    }
}

/// The index of the law of an attack with `tokens` Spot tokens left on its target, in
/// view `v`, in [`SideWeapon::laws`].
#[inline(always)]
pub fn law_at(tokens: u32, v: usize) -> usize {
    tokens as usize * VIEWS + v
}

/// The duel state bits of a set of conditions.
pub fn bits_of(c: Conditions) -> u8 {
    DUEL_TRACKED.iter().enumerate().fold(0, |s, (i, &t)| s | ((c.has(t) as u8) << i))
}

pub use super::law::Law;

/// A weapon the side can fire at this range.
#[derive(Debug, Clone, PartialEq)]
pub struct SideWeapon {
    pub name: String,
    /// Integrity the wielder loses after attacking (Backfire X).
    pub backfire: u32,
    /// Indexed by [`law_at`] (Spot tokens left on the target, [`view`]).
    pub laws: Vec<Law>,
    /// Per Spot tokens left on the target (0..=[`Side::cap`]): the tokens an attack
    /// consumes (`SPOT_POLICY`: one, all with Sniper, one without bonus with Artillery),
    /// or `None` when it cannot fire (Artillery with none left; its laws there repeat
    /// those of the fewest tokens it fires with, and are never drawn).
    pub spends: Vec<Option<u32>>,
    /// Tracker: after the attack the target gets Spot tokens equal to the Integrity it
    /// lost ([`super::spot`]).
    pub tracker: bool,
    /// `MULTI_POLICY` = split, a Multi weapon of n > 1 dice (Barrage's included):
    /// `multi[k − 1]` holds the laws of k of its dice (k in 1..n, Barrage's none apart),
    /// indexed as `laws`; empty otherwise. Battles split the dice among targets with it.
    pub multi: Vec<Vec<Law>>,
}

impl SideWeapon {
    /// The dice the weapon rolls in one attack when split: `multi.len() + 1`.
    #[inline(always)]
    pub fn dice(&self) -> usize {
        self.multi.len() + 1
    }

    /// The law of `k` of its dice (1..=[`Self::dice`]) at [`law_at`] index `at`.
    #[inline(always)]
    pub fn law_of(&self, k: usize, at: usize) -> &Law {
        if k >= self.dice() { &self.laws[at] } else { &self.multi[k - 1][at] }
    }
}

impl SideWeapon {
    /// Whether the target's Shocked changes this weapon's law (melee: its Strength).
    pub fn sees_shocked_target(&self) -> bool {
        self.laws.chunks(VIEWS).any(|l| (0..4).any(|a| (0..2).any(|c| l[a * 4 + c] != l[a * 4 + c + 2])))
    }
}

/// What a side that plays Heat needs (`HEAT_PLAYED`; [`super::heat`] rules it for
/// attack runs, and duels play the same rulings move by move).
#[derive(Debug, Clone, PartialEq)]
pub struct HeatRules {
    pub programming: bool,
    /// Red-Hot Reactor with Programming: the crits of attacks on it add Heat.
    pub reactor: bool,
    pub vent: bool,
    /// Index in `weapons` of Searing Wave, when in reach and the policy uses it.
    pub wave: Option<usize>,
    /// Per weapon: Heat it adds after attacking.
    pub gain: [u32; MAX_WEAPONS],
    /// Per weapon: a weapon of the sheet (the AI table's; not unarmed, not the wave).
    pub sheet: [bool; MAX_WEAPONS],
    /// ⚡ of Searing Wave and Vent Coolant; their uses per game.
    pub ability_cost: u32,
    pub uses: u32,
    /// `HEAT_POLICY` = vent-before-overheat.
    pub use_abilities: bool,
    /// `MALFUNCTION_ONE_ACTION`.
    pub one_action: bool,
    /// Starts Malfunctioning.
    pub malfunctioning: bool,
}

impl HeatRules {
    /// The rules the choice of the next move reads, for a side of `weapons` weapons.
    #[inline(always)]
    pub fn knobs(&self, weapons: usize) -> super::heat::HeatKnobs<'_> {
        super::heat::HeatKnobs {
            gain: &self.gain[..weapons],
            wave: self.wave,
            programming: self.programming,
            vent: self.vent,
            use_abilities: self.use_abilities,
            ability_cost: self.ability_cost,
        }
    }
}

/// A compiled side: `me` attacking `foe`.
#[derive(Debug, Clone, PartialEq)]
pub struct Side {
    pub name: String,
    pub integrity: u32,
    pub energy: u32,
    pub start: u8,
    /// Spot tokens on the other model at the start (the situation's); this side's
    /// attacks use them up (`SPOT_TOKENS_SHARED`, `SPOT_POLICY`), its Spot actions and
    /// Tracker hits place more, up to `cap`.
    pub spot: u32,
    /// The most Spot tokens the laws are compiled for: `spot` when nothing of this side
    /// places tokens, else [`MAX_SPOT_TOKENS`] (tokens beyond it are not placed).
    pub cap: u32,
    /// Its Spot roll at the other model, when `SPOT_ACTION` may spot (`None`: it never
    /// spots; [`Side::choose`]).
    pub spotting: Option<super::spot::Spotting>,
    pub weapons: Vec<SideWeapon>,
    /// Per [`law_at`] (Spot tokens left, view): the indices of the weapons that can fire,
    /// best expected loss per ⚡ first (ties: the earlier weapon, as in attack runs); the
    /// first `ranked[tokens left]` are valid.
    pub ranking: Vec<[u8; MAX_WEAPONS]>,
    pub ranked: Vec<u8>,
    /// Starting Ammo per weapon ([`UNLIMITED`] without the perk).
    pub ammo: [u32; MAX_WEAPONS],
    /// The other model's death explosion against this one, by this one's Corroded bit.
    pub blast: [Law; 2],
    /// Perks in reach that the duel does not play (reported, changing nothing).
    pub not_modelled: Vec<String>,
    /// Its Heat, when it plays Heat ([`plays_heat`]).
    pub heat: Option<HeatRules>,
}

impl Side {
    /// The weapons that can fire with `tokens` Spot tokens left on the other model, in
    /// view `v`, best first.
    #[inline(always)]
    pub fn ranked(&self, tokens: u32, v: usize) -> &[u8] {
        &self.ranking[law_at(tokens, v)][..self.ranked[tokens as usize] as usize]
    }

    /// Whether weapon `w` can fire with `tokens` Spot tokens left (Artillery needs one).
    #[inline(always)]
    pub fn fires(&self, w: usize, tokens: u32) -> bool {
        self.weapons[w].spends[tokens as usize].is_some()
    }

    /// The best ready weapon (`ACTION_POLICY`'s first in [`Side::ranked`] for which
    /// `loaded`) with `tokens` left in view `v`, and its expected loss.
    #[inline(always)]
    pub fn best(&self, tokens: u32, v: usize, loaded: impl Fn(usize) -> bool) -> Option<(usize, f64)> {
        let w = *self.ranked(tokens, v).iter().find(|&&w| loaded(w as usize))? as usize;
        Some((w, self.weapons[w].laws[law_at(tokens, v)].mean))
    }

    /// The next 3⚡ action of a side that does not play Heat, with `tokens` Spot tokens
    /// on the other model, in view `v`, with `loaded` telling which weapons have Ammo:
    /// the best ready attack (`ACTION_POLICY`), or the Spot action when it pays
    /// (`SPOT_ACTION`, [`super::spot::Spotting::pays`]); `None` when neither is possible.
    #[inline(always)]
    pub fn choose(&self, tokens: u32, v: usize, loaded: impl Fn(usize) -> bool) -> Option<Action> {
        let attack = self.best(tokens, v, &loaded);
        if let Some(sp) = &self.spotting {
            let best = |t: u32| self.best(t, v, &loaded).map_or(0.0, |b| b.1);
            if sp.pays(tokens, self.cap, attack.map_or(0.0, |b| b.1), best) {
                return Some(Action::Spot);
            }
        }
        attack.map(|b| Action::Attack(b.0))
    }

    /// Whether [`Side::choose`] picks the Spot action in some state: any tokens left,
    /// any view, any set of weapons out of Ammo (assumed when more than 10 weapons
    /// have Ammo).
    pub fn may_spot(&self) -> bool {
        if self.spotting.is_none() {
            return false;
        }
        let limited: Vec<usize> = (0..self.weapons.len()).filter(|&w| self.ammo[w] != UNLIMITED).collect();
        if limited.len() > 10 {
            return true;
        }
        (0..1u32 << limited.len()).any(|empty| {
            let loaded = |w: usize| limited.iter().position(|&l| l == w).is_none_or(|i| empty >> i & 1 == 0);
            (0..=self.cap).any(|t| (0..VIEWS).any(|v| self.choose(t, v, loaded) == Some(Action::Spot)))
        })
    }
}

/// A 3⚡ action of a side that does not play Heat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Attack with this weapon (index in [`Side::weapons`]).
    Attack(usize),
    /// The Spot action ([`super::spot`]).
    Spot,
}

/// Whether `me` plays Heat in a duel against `foe`: `HEAT_PLAYED` and it starts
/// Malfunctioning, has Searing Wave, or has Programming and a way to gain Heat
/// (a Superheated weapon, or Red-Hot Reactor).
pub fn plays_heat(me: &Model, o: &Options) -> bool {
    let abilities = &me.mech.abilities;
    super::heat::plays_heat(me, o)
        || (o.heat_played && abilities.contains(&Ability::Programming) && abilities.contains(&Ability::RedHotReactor))
}

fn with_bits(m: &Model, bits: u8, which: &[(u8, Condition)]) -> Model {
    let mut c = m.conditions;
    for &(bit, cond) in which {
        if bits & bit != 0 { c.set(cond) } else { c.clear(cond) }
    }
    m.clone().with_conditions(c)
}

/// The attacker of view `v`, and its target.
fn view_models(me: &Model, foe: &Model, v: usize) -> (Model, Model) {
    let a = (v / 4) as u8;
    let t = (v % 4) as u8;
    let attacker = with_bits(me, a, &[(1, Condition::Blinded), (2, Condition::Shocked)]);
    let target = with_bits(foe, t, &[(1, Condition::Corroded), (2, Condition::Shocked)]);
    (attacker, target)
}

/// Conditions a weapon may put on an enemy that a duel cannot play.
const UNPLAYED_CONDITIONS: [Condition; 3] = [Condition::Invisible, Condition::Submerged, Condition::Malfunctioning];

impl Side {
    /// Compiles `me` attacking `foe` at `sit`.
    ///
    /// # Errors
    /// A message for what the duel does not play: a weapon in reach putting Invisible,
    /// Submerged or Malfunctioning on the enemy; a model with
    /// Programming that can gain Heat (Superheated in reach, or Red-Hot Reactor); more
    /// than [`MAX_WEAPONS`] weapons in reach; unplayable options.
    pub fn new(me: &Model, foe: &Model, sit: &Situation, o: &Options) -> Result<Side, String> {
        Side::with_tokens(me, foe, sit, o, false)
    }

    /// [`Side::new`], with the laws compiled up to [`MAX_SPOT_TOKENS`] when `shared`
    /// (battles where some model may place tokens: its Spot or Tracker places tokens
    /// every attacker of that target uses), and the Spot roll kept whenever the model
    /// can spot (a battle prices it with the friends' attacks too). Otherwise the
    /// Spot roll is kept only when [`Side::may_spot`], and the laws go up to
    /// [`MAX_SPOT_TOKENS`] only when this side places tokens.
    ///
    /// # Errors
    /// As [`Side::new`].
    pub fn with_tokens(me: &Model, foe: &Model, sit: &Situation, o: &Options, shared: bool) -> Result<Side, String> {
        let hot = plays_heat(me, o);
        let spotting = (o.spot_action == super::options::SpotAction::WhenItPays && !hot)
            .then(|| super::spot::spot_dice(me, foe, sit, o))
            .flatten()
            .map(super::spot::Spotting::new);
        if shared {
            return Side::build(me, foe, sit, o, MAX_SPOT_TOKENS.max(sit.spot_tokens), spotting);
        }
        let tracks = me.mech.weapons.iter().any(|w| w.has(Perk::Tracker));
        if spotting.is_some() || tracks {
            let mut side = Side::build(me, foe, sit, o, MAX_SPOT_TOKENS.max(sit.spot_tokens), spotting)?;
            if !side.may_spot() {
                side.spotting = None;
            }
            if side.spotting.is_some() || side.weapons.iter().any(|w| w.tracker) {
                return Ok(side);
            }
        }
        Side::build(me, foe, sit, o, sit.spot_tokens, None)
    }

    /// The side with laws for 0..=`cap` Spot tokens on the other model.
    fn build(
        me: &Model,
        foe: &Model,
        sit: &Situation,
        o: &Options,
        cap: u32,
        spotting: Option<super::spot::Spotting>,
    ) -> Result<Side, String> {
        let who = &me.mech.name;
        let top = Situation { spot_tokens: cap, ..*sit };
        let mut arsenal: Vec<Weapon> = me.mech.weapons.clone();
        arsenal.push(Weapon::unarmed());
        let hot = plays_heat(me, o);
        let uses_wave = hot
            && o.heat_policy == super::options::HeatPolicy::VentBeforeOverheat
            && me.mech.abilities.contains(&Ability::SearingWave);
        if uses_wave {
            arsenal.push(super::heat::searing_wave());
        }
        let mut usable = Vec::new();
        for w in arsenal {
            match compile_attack(me, &w, foe, &top, o) {
                Ok(_) => usable.push(w),
                Err(NoAttack::Options(e)) => return Err(e),
                Err(_) => {}
            }
        }
        if usable.len() > MAX_WEAPONS {
            return Err(format!("{who}: a duel plays at most {MAX_WEAPONS} weapons in reach, got {}", usable.len()));
        }
        let heat =
            me.mech.abilities.contains(&Ability::RedHotReactor) || usable.iter().any(|w| w.has(Perk::Superheated));
        if me.mech.abilities.contains(&Ability::Programming) && heat && !o.heat_played {
            return Err(format!(
                "{who}: Heat is not modelled in duels: by the book its Programming makes it Malfunctioning at \
                 {PROGRAMMING_HEAT} Heat (gained from Superheated attacks and Red-Hot Reactor), and a duel cannot \
                 play that yet; its attack runs play Heat (HEAT_PLAYED)"
            ));
        }
        let mut not_modelled = Vec::new();
        for w in &usable {
            if foe.takes_conditions() {
                for c in w.on_hit().chain(w.on_crit()) {
                    if UNPLAYED_CONDITIONS.contains(&c) {
                        return Err(format!("{who}: {}: putting {c} on the enemy is not played in duels", w.name));
                    }
                }
            }
            for p in &w.perks {
                match p {
                    Perk::Blast => not_modelled.push(format!("{}: Blast (no map: no fire)", w.name)),
                    Perk::Superheated if !o.heat_played => not_modelled.extend(superheated(me, w)),
                    _ => {}
                }
            }
        }
        let spot = sit.spot_tokens;
        if spot > MAX_SPOT_TOKENS {
            return Err(format!("{who}: a duel plays at most {MAX_SPOT_TOKENS} Spot tokens, got {spot}"));
        }
        let mut weapons = Vec::new();
        let mut ammo = [UNLIMITED; MAX_WEAPONS];
        for (i, w) in usable.iter().enumerate() {
            let (laws, spends) = token_laws(me, w, foe, sit, o, cap)?;
            ammo[i] = w.ammo().unwrap_or(UNLIMITED);
            let tracker = w.has(Perk::Tracker);
            let split = o.multi_policy == super::options::MultiPolicy::Split && w.has(Perk::Multi);
            let dice = w.attacks + if w.has(Perk::Barrage) { sit.barrage_dice } else { 0 };
            let multi = if split && dice > 1 {
                (1..dice)
                    .map(|k| {
                        let perks = w.perks.iter().copied().filter(|&p| p != Perk::Barrage).collect();
                        let fewer = Weapon { attacks: k, perks, ..w.clone() };
                        token_laws(me, &fewer, foe, sit, o, cap).map(|l| l.0)
                    })
                    .collect::<Result<Vec<_>, _>>()?
            } else {
                Vec::new()
            };
            weapons.push(SideWeapon { name: w.name.clone(), backfire: w.backfire(), laws, spends, tracker, multi });
        }
        let mut ranking = vec![[0u8; MAX_WEAPONS]; (cap as usize + 1) * VIEWS];
        let mut ranked = Vec::new();
        for t in 0..=cap {
            let fire: Vec<usize> = (0..weapons.len()).filter(|&w| weapons[w].spends[t as usize].is_some()).collect();
            ranked.push(fire.len() as u8);
            for v in 0..VIEWS {
                let mut order = fire.clone();
                // stable: ties keep the earlier weapon first
                let mean = |w: usize| weapons[w].laws[law_at(t, v)].mean;
                order.sort_by(|&x, &y| mean(y).total_cmp(&mean(x)));
                for (slot, &w) in ranking[law_at(t, v)].iter_mut().zip(&order) {
                    *slot = w as u8;
                }
            }
        }
        let blast = [0u8, 1].map(|c| blast_law(&with_bits(me, c, &[(1, Condition::Corroded)]), o));
        let heat = hot.then(|| {
            let abilities = &me.mech.abilities;
            let mut gain = [0u32; MAX_WEAPONS];
            let mut sheet = [false; MAX_WEAPONS];
            let mut wave = None;
            for (i, w) in usable.iter().enumerate() {
                let is_wave = uses_wave && i + 1 == usable.len() && *w == super::heat::searing_wave();
                if is_wave {
                    wave = Some(i);
                    gain[i] = super::heat::SEARING_WAVE_HEAT;
                } else {
                    gain[i] = w.has(Perk::Superheated) as u32;
                    sheet[i] = !w.unarmed;
                }
            }
            let (ability_cost, uses) = super::heat::ability_cost_limit(o);
            HeatRules {
                programming: abilities.contains(&Ability::Programming),
                reactor: abilities.contains(&Ability::Programming) && abilities.contains(&Ability::RedHotReactor),
                vent: abilities.contains(&Ability::VentCoolant),
                wave,
                gain,
                sheet,
                ability_cost,
                uses,
                use_abilities: o.heat_policy == super::options::HeatPolicy::VentBeforeOverheat,
                one_action: o.malfunction_one_action,
                malfunctioning: me.conditions.has(Condition::Malfunctioning),
            }
        });
        Ok(Side {
            heat,
            name: who.clone(),
            integrity: me.mech.integrity,
            energy: me.mech.energy,
            start: bits_of(me.conditions),
            spot,
            cap,
            spotting,
            ranked,
            weapons,
            ranking,
            ammo,
            blast,
            not_modelled,
        })
    }
}

/// The laws of `w` fired by `me` at `foe` for 0..=`cap` Spot tokens left, indexed by
/// [`law_at`], and per number of tokens what an attack consumes (`None`: it cannot fire).
/// Tokens are taken from the most down: a weapon usable with all of them stops only
/// when none is left (Artillery). Numbers of tokens with the same aim (Stability, tokens
/// consumed, die bonus) share their laws (a weapon without Sniper aims the same with 1
/// token as with 8; melee ignores tokens).
#[allow(clippy::type_complexity)]
fn token_laws(
    me: &Model,
    w: &Weapon,
    foe: &Model,
    sit: &Situation,
    o: &Options,
    cap: u32,
) -> Result<(Vec<Law>, Vec<Option<u32>>), String> {
    let mut by_tokens: Vec<(Vec<Law>, Option<u32>)> = Vec::new();
    let mut seen: Vec<(Option<(i32, u32, i32)>, usize)> = Vec::new();
    for t in (0..=cap).rev() {
        let at = Situation { spot_tokens: t, ..*sit };
        match compile_attack(me, w, foe, &at, o) {
            Ok((_, aim)) => {
                let key = aim.map(|a| (a.stability, a.spot_consumed, a.die_bonus));
                if let Some(&(_, j)) = seen.iter().find(|s| s.0 == key) {
                    let again = by_tokens[j].clone();
                    by_tokens.push(again);
                    continue;
                }
                let laws = (0..VIEWS).map(|v| law(me, w, foe, v, &at, o)).collect::<Result<Vec<_>, _>>()?;
                let spent = attack_odds(me, w, foe, &at, o).map_err(|e| e.to_string())?.spot_tokens_consumed;
                seen.push((key, by_tokens.len()));
                by_tokens.push((laws, Some(spent)));
            }
            Err(NoAttack::Options(e)) => return Err(e),
            Err(_) => {
                let (laws, _) = by_tokens.last().expect("usable with every token").clone();
                by_tokens.push((laws, None));
            }
        }
    }
    by_tokens.reverse();
    let spends = by_tokens.iter().map(|b| b.1).collect();
    Ok((by_tokens.into_iter().flat_map(|b| b.0).collect(), spends))
}

/// The law of `weapon` fired by `me` at `foe` in view `v`.
fn law(me: &Model, weapon: &Weapon, foe: &Model, v: usize, sit: &Situation, o: &Options) -> Result<Law, String> {
    let (attacker, target) = view_models(me, foe, v);
    let (roll, _) = compile_attack(&attacker, weapon, &target, sit, o).map_err(|e| e.to_string())?;
    let mean = attack_odds(&attacker, weapon, &target, sit, o).map_err(|e| e.to_string())?.expected_integrity_loss;
    let conditions = |list: Vec<Condition>| bits_of(Conditions::of(&list));
    let (hit_bits, crit_bits) = if foe.takes_conditions() {
        let hit = conditions(weapon.on_hit().collect());
        (hit, hit | conditions(weapon.on_crit().collect()))
    } else {
        (0, 0)
    };
    let reactor = o.heat_played
        && foe.mech.abilities.contains(&Ability::Programming)
        && foe.mech.abilities.contains(&Ability::RedHotReactor);
    if reactor {
        return reactor_law(&roll, weapon, foe, hit_bits, crit_bits, mean, o);
    }
    let joint = roll.joint(foe.mech.integrity, o);
    // Merge the joint law's (flag, loss) outcomes by (loss, bits added).
    let mut keys: Vec<(u32, u8)> = Vec::new();
    let index: Vec<usize> = (0..joint.probs.len())
        .map(|i| {
            let (flag, loss) = joint.split(i);
            let adds = match flag {
                f if f >= CRIT => crit_bits,
                f if f >= HIT => hit_bits,
                _ => 0,
            };
            keys.iter().position(|&k| k == (loss, adds)).unwrap_or_else(|| {
                keys.push((loss, adds));
                keys.len() - 1
            })
        })
        .collect();
    // Slots in order of Integrity lost (then bits added): a larger uniform never loses
    // less, so duels sharing uniforms (common random numbers) get comonotone losses.
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    let rank: Vec<usize> = keys.iter().map(|k| sorted.binary_search(k).expect("a sorted key")).collect();
    let slot_of = |i: usize| rank[index[i]];
    let table = match &joint.exact {
        Some(e) => SamplingTable::new(&e.map(sorted.len(), slot_of)),
        None => SamplingTable::new(&joint.probs.map(sorted.len(), slot_of)),
    };
    let slots = table.outcomes.iter().map(|&k| sorted[k]).collect();
    Ok(Law { table, slots, crits: Vec::new(), mean })
}

/// The law of an attack on a model with Red-Hot Reactor and Programming: slots keyed by
/// (Integrity lost, bits added, crits in the attack roll), crits capped at
/// Programming's Heat (more changes nothing).
fn reactor_law(
    roll: &super::odds::AttackRoll,
    weapon: &Weapon,
    foe: &Model,
    hit_bits: u8,
    crit_bits: u8,
    mean: f64,
    o: &Options,
) -> Result<Law, String> {
    let joint = roll.crit_joint(foe.mech.integrity, PROGRAMMING_HEAT, o).ok_or_else(|| {
        format!(
            "{}: Red-Hot Reactor against {} (one d3 for an unarmed attack, UNARMED_D3_PER_DIE=false) is not played",
            foe.mech.name, weapon.name
        )
    })?;
    let mut keys: Vec<(u32, u8, u8)> = Vec::new();
    let index: Vec<usize> = (0..joint.probs.len())
        .map(|i| {
            let (crits, flag, loss) = joint.split(i);
            let adds = match flag {
                f if f >= CRIT => crit_bits,
                f if f >= HIT => hit_bits,
                _ => 0,
            };
            let key = (loss, adds, crits as u8);
            keys.iter().position(|&k| k == key).unwrap_or_else(|| {
                keys.push(key);
                keys.len() - 1
            })
        })
        .collect();
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    let rank: Vec<usize> = keys.iter().map(|k| sorted.binary_search(k).expect("a sorted key")).collect();
    let slot_of = |i: usize| rank[index[i]];
    let table = match &joint.exact {
        Some(e) => SamplingTable::new(&e.map(sorted.len(), slot_of)),
        None => SamplingTable::new(&joint.probs.map(sorted.len(), slot_of)),
    };
    let slots = table.outcomes.iter().map(|&k| (sorted[k].0, sorted[k].1)).collect();
    let crits = table.outcomes.iter().map(|&k| sorted[k].2).collect();
    Ok(Law { table, slots, crits, mean })
}

/// The death explosion's law against `target` (§2 `EXPLOSION_AS_SHOOTING`): slots are
/// Integrity lost, adding no condition.
fn blast_law(target: &Model, o: &Options) -> Law {
    let odds = explosion_odds(target, o);
    let table = match &odds.exact_loss {
        Some((counts, total)) => SamplingTable::new(&Dist { weights: counts.clone(), total: *total }),
        None => SamplingTable::new(&Dist { weights: odds.integrity_loss.clone(), total: 1.0 }),
    };
    let slots = table.outcomes.iter().map(|&loss| (loss as u32, 0)).collect();
    Law { table, slots, crits: Vec::new(), mean: odds.expected_integrity_loss }
}
