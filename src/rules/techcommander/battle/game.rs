//! The TechCommander skirmish (techcommander-battles.md §2) as [`BattleRules`]: two
//! sides, 4 base actions per player plus command, base rounds then command rounds in
//! initiative order, MSVs with two actions and a second system, jury rig, smoke pops,
//! rallied groups, removal, crew escapes and elimination at Resolve Damage, AC scoring
//! when time is called.

use rand_xoshiro::Xoshiro256PlusPlus;

pub use super::state::State;
use super::tables::{NONE, Tables, state, state_of};
use super::units::BattleUnit;
use crate::engine::battle::slots::mask_of;
use crate::engine::battle::{BattleRules, Ending, MAX_SIDES, MAX_UNITS, Outcome};
use crate::rules::techcommander::catalogue::UnitKind;
use crate::rules::techcommander::compiled::MAX_SYSTEMS;
use crate::rules::techcommander::dice::roll_d20;
use crate::rules::techcommander::options::{AerialInTheRed, InitiativeTies, MutualElimination, Options};
use crate::rules::techcommander::policy::UNLIMITED;
use crate::rules::techcommander::rulings::{MSV_ACTIONS_PER_TURN, OTHER_ACTIONS_PER_TURN, STARTING_LIFE};

/// Base player actions per turn in a skirmish (3e "Command units and actions").
pub const SKIRMISH_BASE_ACTIONS: u32 = 4;
/// No kill credit yet.
pub(crate) const NO_CREDIT: u8 = u8::MAX;

/// One step a player gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// `actor` fires `system` at `target`.
    Attack { actor: u8, system: u8, target: u8 },
    /// `SPLIT_SHOTS`: `actor` fires `system` with its shots split among enemies, `target`
    /// first, as the greedy policy gives them out ([`super::split`]).
    Split { actor: u8, system: u8, target: u8 },
    /// The side's rallied group: Rallied Weapons Free, each member firing once at the
    /// target its policy picks (`focus`: the enemy with the least life).
    Group { focus: bool },
    /// `unit` pops smoke (`SMOKE_POP`).
    Smoke { unit: u8 },
    /// §2.4 Offload: `carrier` moves half and offloads every passenger still aboard;
    /// each attacks once at `OFFLOAD_PENALTY` (the target its policy picks, `focus` as in
    /// [`Action::Group`]); carrier and passengers count as acted this turn.
    Offload { carrier: u8, focus: bool },
    /// §2.4 Omega Override: MSV `actor`, with no earlier action this turn, fires every
    /// weapon system at `target` (no fire control, no positive modifiers); its gear is
    /// offline and its turn over ([`super::omega`]).
    Omega { actor: u8, target: u8 },
    /// §2.4 Rallied Attack: the side's rallied group, every ready member firing its own
    /// best ready system at `target` ([`super::rally`]).
    RallyAttack { target: u8 },
    /// §2.4 Rallied Assault on the rallied group of enemy `side`: each ready member
    /// attacks that group's current first member until it is eliminated, then the next
    /// ([`super::rally`]).
    Assault { side: u8 },
    /// §4 Trample: MSV `actor` crosses the first members of enemy `side`'s rallied
    /// group, at most half its speed many, each dodging on its own ([`super::rally`]).
    Trample { actor: u8, side: u8 },
    /// §2.4 Scanning: `unit` scans for infiltrated enemies; an MSV then takes its other
    /// action in the same player action ([`super::infiltration`]).
    Scan { unit: u8 },
    /// §2.4 Dig in (`POLICY_DIG_IN`): `unit` digs in until Reset ([`super::dig_in`]).
    DigIn { unit: u8 },
    /// 2nd edition USSC MSV Warfare Badge: `unit` repairs friendly MSV `target`
    /// ([`super::repair`]).
    Repair { unit: u8, target: u8 },
    /// `REPAIR`: `unit` repairs friend `target` with its repair gear, like an attack
    /// action ([`super::repair`]).
    GearRepair { unit: u8, target: u8 },
}

/// Per unit slot, the facts the hot loop reads, copied from the cards at compile time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Facts {
    pub side: u8,
    /// Weapon systems (at most [`MAX_SYSTEMS`]).
    pub nsys: u8,
    /// Bits of all its weapon systems.
    pub all: u32,
    /// Rounds per system at deployment ([`UNLIMITED`] when it does not count them).
    pub rounds: [u16; MAX_SYSTEMS],
    /// Systems with no rounds at deployment.
    pub dry: u32,
    /// Actions per turn (`MSV_ACTIONS_PER_TURN` for an MSV, else `OTHER_ACTIONS_PER_TURN`).
    pub actions: u32,
    /// ECBS power armour: back to 20 life at Reset.
    pub power_armor: bool,
    /// The candidates the greedy search looks for besides weapon systems, copied from
    /// the battle's compiled parts by [`TcGame::note_candidates`] (false until then):
    /// as an attacker, ignores its targets' infiltration
    /// ([`super::infiltration_facts::Infiltration::sees`]).
    pub sees: bool,
    /// Has a special attack against someone ([`super::specials::Specials::any`]).
    pub specials: bool,
    /// May make an Omega Override, offload or group trample.
    pub others: bool,
}

impl Facts {
    fn of(u: &BattleUnit) -> Facts {
        let nsys = u.attacker.systems.len();
        let mut rounds = [0; MAX_SYSTEMS];
        for (r, sys) in rounds.iter_mut().zip(&u.attacker.systems) {
            *r = sys.rounds().map_or(UNLIMITED, |n| n.min(UNLIMITED as u32 - 1) as u16);
        }
        let dry = (0..nsys).filter(|&i| rounds[i] == 0).fold(0, |m, i| m | 1 << i);
        let actions = if u.kind == UnitKind::Msv { MSV_ACTIONS_PER_TURN } else { OTHER_ACTIONS_PER_TURN };
        Facts {
            side: u.side as u8,
            nsys: nsys as u8,
            all: (1u32 << nsys) - 1,
            rounds,
            dry,
            actions,
            power_armor: u.power_armor,
            sees: false,
            specials: false,
            others: false,
        }
    }
}

/// A unit slot in no twin class ([`TcGame::class`]).
pub const NO_CLASS: u8 = u8::MAX;

/// A compiled skirmish.
#[derive(Debug, Clone)]
pub struct TcGame {
    pub units: Vec<BattleUnit>,
    /// [`Facts`] of each unit slot.
    pub facts: Vec<Facts>,
    pub tables: Tables,
    /// Special attacks (empty unless set after [`TcGame::new`]).
    pub specials: super::specials::Specials,
    /// The shots of passengers attacking from an offload (`OFFLOAD_PENALTY`); `None`
    /// when no unit has passengers (set after [`TcGame::new`]).
    pub offload: Option<Tables>,
    /// Passenger slots of each unit slot (empty for all but carriers), in force order.
    pub passengers: Vec<Vec<u8>>,
    /// Omega Overrides (empty unless set after [`TcGame::new`]).
    pub omega: super::omega::Omega,
    /// The rallied groups' laws and target values ([`super::rally`]); built by
    /// [`TcGame::new`] with the skirmish values (a deathmatch rebuilds it).
    pub rally: super::rally_laws::Rally,
    /// Sides playing under the `under_crewed` condition (§2.2): their MSVs take one
    /// action a turn and their MSVs and vehicles give no command actions. All false
    /// unless set after [`TcGame::new`].
    pub under_crewed: Vec<bool>,
    /// Unit slots of each side, in force order.
    pub side_units: Vec<Vec<u8>>,
    /// Rallied members of each side, in force order.
    pub groups: Vec<Vec<u8>>,
    /// Units of each side that act alone (not rallied), in force order.
    pub solo: Vec<Vec<u8>>,
    /// Per rallied member, the position in its group of an earlier member with the same
    /// card (so the same shots, tables and scores), or `u8::MAX`.
    pub twin: Vec<u8>,
    /// Per unit slot, its twin class (slots of the same card and side, which score
    /// alike: see the `classes` module), or [`NO_CLASS`]; derived by
    /// [`TcGame::note_candidates`].
    pub class: Vec<u8>,
    /// Per side: it has a rallied group and some other side has one too (a Rallied
    /// Assault may be possible).
    pub assault_sides: Vec<bool>,
    /// Every unit of the other sides, in slot order: whom a side's units may target.
    pub enemies: Vec<Vec<u8>>,
    /// `enemies` as bits per side (bit per slot), for scans over [`State::up`].
    pub enemy_bits: Vec<u64>,
    /// `solo` as bits per side, for scans over [`State::field`].
    pub solo_bits: Vec<u64>,
    /// Whether each side fields a unit with command actions.
    pub has_command: Vec<bool>,
    pub max_turns: u32,
    pub base_actions: u32,
    pub o: Options,
    /// P(a jury-rig roll keeps fire control).
    pub jury_ok: f32,
    /// The deathmatch rules; `None` for a skirmish.
    pub dm: Option<super::dm_rules::DmRules>,
    /// Infiltration and scanning (empty unless set after [`TcGame::new`]).
    pub infiltration: super::infiltration_facts::Infiltration,
    /// Shots at dug-in targets; `None` unless `POLICY_DIG_IN` (set after
    /// [`TcGame::new`]).
    pub dug_in_tables: Option<Tables>,
    /// Per unit: its side's scenario movement moves it when it attacks, so an attack
    /// ends its dig-in ([`super::dig_in::moves_position`]; empty: none moves).
    pub attack_moves: Vec<bool>,
    /// Shots under other modifiers: at dug-in targets, Rallied Assault, an overrun's
    /// fire ([`super::variants`]; empty unless compiled after [`TcGame::new`]).
    pub variants: super::variant_tables::Variants,
    /// Per unit: a troop or crew unit declared dug in for free as each turn begins
    /// (`FREE_DIG_IN`, [`super::dig_in`]); empty: none.
    pub free_dig_in: Vec<bool>,
    /// Per unit: an aerial unit eliminated as soon as it is in the red
    /// (`AERIAL_IN_THE_RED=eliminated`); empty: none.
    pub falls_in_the_red: Vec<bool>,
    /// Repairs with repair gear (`REPAIR`; empty unless set after [`TcGame::new`]).
    pub repairs: super::repair_law::Repairs,
    /// Bubble shields (`BUBBLE_SHIELD`; empty unless compiled after [`TcGame::new`]).
    pub shields: super::shield_tables::Shields,
}

impl TcGame {
    /// Compile a skirmish of `units` owned by `sides` sides (a deathmatch sets
    /// [`TcGame::dm`] and its base actions after).
    pub fn new(units: Vec<BattleUnit>, tables: Tables, o: &Options, max_turns: u32, sides: usize) -> TcGame {
        let mut side_units = vec![Vec::new(); sides];
        let mut groups = vec![Vec::new(); sides];
        for (i, u) in units.iter().enumerate() {
            side_units[u.side].push(i as u8);
            if u.rallied {
                groups[u.side].push(i as u8);
            }
        }
        let enemies: Vec<Vec<u8>> = (0..sides)
            .map(|side| (0..units.len()).filter(|&u| units[u].side != side).map(|u| u as u8).collect())
            .collect();
        let has_command = side_units.iter().map(|v| v.iter().any(|&u| units[u as usize].command > 0)).collect();
        let passengers = (0..units.len())
            .map(|c| (0..units.len()).filter(|&p| units[p].carrier == Some(c)).map(|p| p as u8).collect())
            .collect();
        let rally = super::rally_laws::Rally::new(&units, &tables, o, super::tables::skirmish_value);
        let n = units.len();
        let mut game = TcGame {
            rally,
            under_crewed: vec![false; sides],
            facts: units.iter().map(Facts::of).collect(),
            specials: super::specials::Specials::default(),
            offload: None,
            passengers,
            omega: super::omega::Omega::default(),
            enemies,
            enemy_bits: Vec::new(),
            has_command,
            units,
            tables,
            side_units,
            groups,
            solo: Vec::new(),
            solo_bits: Vec::new(),
            twin: Vec::new(),
            class: vec![NO_CLASS; n],
            assault_sides: Vec::new(),
            max_turns,
            base_actions: SKIRMISH_BASE_ACTIONS,
            o: *o,
            jury_ok: super::tables::jury_ok(o),
            dm: None,
            infiltration: super::infiltration_facts::Infiltration::default(),
            dug_in_tables: None,
            attack_moves: Vec::new(),
            variants: super::variant_tables::Variants::default(),
            free_dig_in: Vec::new(),
            falls_in_the_red: Vec::new(),
            repairs: super::repair_law::Repairs::default(),
            shields: super::shield_tables::Shields::default(),
        };
        game.derive_lists();
        game
    }

    /// Copy into [`TcGame::facts`] which units have candidates besides their weapon
    /// systems ([`Facts::sees`], [`Facts::specials`], [`Facts::others`]): call once the
    /// battle's parts (Omega Override, special attacks, offload tables, infiltration)
    /// are set, so the greedy search reads one array per actor.
    pub(crate) fn note_candidates(&mut self) {
        let falls = self.o.aerial_in_the_red == AerialInTheRed::Eliminated;
        self.falls_in_the_red = self.units.iter().map(|u| falls && u.attacker.aerial).collect();
        let free = self.o.free_dig_in && self.dug_in_tables.is_some();
        self.free_dig_in = self.units.iter().map(|u| free && u.kind.rides()).collect();
        for (a, f) in self.facts.iter_mut().enumerate() {
            f.sees = self.infiltration.sees.get(a).copied().unwrap_or(false);
            f.specials = self.specials.any.get(a).copied().unwrap_or(false);
            let omega = self.omega.any && self.omega.look_at.get(a).is_some_and(|&at| at != u32::MAX);
            let offload = self.offload.is_some() && !self.passengers[a].is_empty();
            let trample = self.specials.group_trample_any.get(a).copied().unwrap_or(false);
            f.others = omega || offload || trample;
        }
        self.derive_classes();
    }

    /// Derive [`TcGame::solo`], [`TcGame::twin`] and the bit lists ([`TcGame::solo_bits`],
    /// [`TcGame::enemy_bits`]) from the side, group and enemy lists (again after any
    /// change to them, e.g. teams).
    pub(crate) fn derive_lists(&mut self) {
        let units = &self.units;
        self.solo = self
            .side_units
            .iter()
            .map(|v| v.iter().copied().filter(|&u| !units[u as usize].rallied).collect())
            .collect();
        // Scans over the bits go in slot order: the lists must be in it too.
        debug_assert!(self.solo.iter().chain(&self.enemies).all(|v| v.is_sorted()));
        let bits =
            |lists: &[Vec<u8>]| -> Vec<u64> { lists.iter().map(|v| mask_of(v.iter().map(|&u| u as usize))).collect() };
        self.solo_bits = bits(&self.solo);
        self.enemy_bits = bits(&self.enemies);
        let mut twin = vec![u8::MAX; units.len()];
        for g in &self.groups {
            for (j, &m) in g.iter().enumerate() {
                if let Some(i) = g[..j].iter().position(|&o| units[o as usize] == units[m as usize]) {
                    twin[m as usize] = i as u8;
                }
            }
        }
        self.twin = twin;
        let grouped: Vec<bool> = self.groups.iter().map(|g| !g.is_empty()).collect();
        self.assault_sides = (0..grouped.len())
            .map(|side| grouped[side] && (0..grouped.len()).any(|e| e != side && grouped[e]))
            .collect();
    }

    /// Whether unit `u` is in the red (rolls a jury rig per action given).
    #[inline(always)]
    pub fn in_the_red(&self, s: &State, u: usize) -> bool {
        s.life[u] <= self.o.in_the_red_life as i32
    }

    /// The smoke state of a shot from `a` at `t`.
    #[inline(always)]
    pub fn smoked(&self, s: &State, a: usize, t: usize) -> bool {
        s.smoked[t] || (self.o.smoke_both_ways && s.smoked[a])
    }

    /// Whether `a` may fire `system` now (unused this turn if `SYSTEM_ONCE_PER_TURN`,
    /// rounds left).
    #[inline(always)]
    pub fn system_ready(&self, s: &State, a: usize, system: usize) -> bool {
        (!self.o.system_once_per_turn || s.used[a] & (1 << system) == 0) && s.rounds[a][system] != 0
    }

    /// The greedy score of `a` firing `system` at `t` now; `None` when it cannot.
    /// An actor in the red mixes the fire-control states by the jury-rig odds.
    #[inline(always)]
    pub fn score(&self, s: &State, a: usize, system: usize, t: usize) -> Option<f32> {
        let aim = self.aim(&self.tables, s, a, t);
        let tables = aim.tables;
        let smoked = self.smoked(s, a, t);
        let e = tables.entry(a, t, state_of(false, smoked, s.offline[t]), system);
        if e == NONE {
            return None;
        }
        let life = aim.life.clamp(1, STARTING_LIFE as i32) as usize;
        let kept = tables.score[tables.at_life(e, aim.life) as usize][life];
        if !self.in_the_red(s, a) || s.jury[a] == 1 && !self.o.jury_rig_per_action {
            return Some(kept);
        }
        let lost_e = tables.entry(a, t, state_of(true, smoked, s.offline[t]), system);
        let lost = if lost_e == NONE { 0.0 } else { tables.score[tables.at_life(lost_e, aim.life) as usize][life] };
        if s.jury[a] == 2 && !self.o.jury_rig_per_action {
            return Some(lost);
        }
        Some(self.jury_ok * kept + (1.0 - self.jury_ok) * lost)
    }

    /// Whether `t` is an enemy of `side` that may be targeted (on the field, above 0,
    /// not infiltrated).
    #[inline(always)]
    pub fn targetable(&self, s: &State, t: usize) -> bool {
        s.present[t] && s.life[t] > 0 && !s.hidden[t]
    }

    /// Whether `side`'s rallied group may target `t` in a group action (Rallied Attack,
    /// Rallied Assault): [`TcGame::targetable`], or infiltrated when its members ignore
    /// infiltration ([`super::infiltration_facts::Infiltration::group_sees`]).
    #[inline(always)]
    pub fn group_targetable(&self, s: &State, side: usize, t: usize) -> bool {
        s.present[t]
            && s.life[t] > 0
            && (!s.hidden[t] || self.infiltration.group_sees.get(side).copied().unwrap_or(false))
    }

    /// Whether attacker `a` may target `t`: [`TcGame::targetable`], or infiltrated
    /// when `a` ignores infiltration ([`super::infiltration`]).
    #[inline(always)]
    pub fn targetable_by(&self, s: &State, a: usize, t: usize) -> bool {
        s.present[t] && s.life[t] > 0 && (!s.hidden[t] || self.infiltration.sees[a])
    }

    /// `a` fires `system` at `t`: jury rig, one draw of the life lost, kill credit; at a
    /// dug-in `t`, from the dug-in tables, then `t`'s return attack ([`super::dig_in`]);
    /// at a covered `t`, at its shield ([`super::shield`]).
    #[inline(always)]
    pub fn fire(&self, s: &mut State, a: usize, system: usize, t: usize, rng: &mut Xoshiro256PlusPlus) {
        self.fire_in(&self.tables, s, a, system, t, rng);
    }

    /// The jury rig of `a` for the action it takes now (kernel §4): in the red it rolls
    /// (per action, or once a turn without `JURY_RIG_PER_ACTION`); returns whether the
    /// action has lost fire control. A failed rig also reveals `a` ("for that action, it
    /// moves at half speed, is revealed, and cannot use fire control"). No draw out of
    /// the red.
    #[inline(always)]
    pub(super) fn jury_rig(&self, s: &mut State, a: usize, rng: &mut Xoshiro256PlusPlus) -> bool {
        if !self.in_the_red(s, a) {
            return false;
        }
        if self.o.jury_rig_per_action || s.jury[a] == 0 {
            s.jury[a] = if roll_d20(rng) > self.o.jury_rig_success_max { 2 } else { 1 };
        }
        let failed = s.jury[a] == 2;
        if failed {
            s.hidden[a] = false;
        }
        failed
    }

    /// [`TcGame::fire`] with the shots of `base` (the battle's tables or a variant), with
    /// no return attack: the shot reads `base`'s dug-in or shield variant as
    /// [`TcGame::aim`] gives it.
    pub fn fire_with(
        &self,
        base: &Tables,
        s: &mut State,
        a: usize,
        system: usize,
        t: usize,
        rng: &mut Xoshiro256PlusPlus,
    ) {
        let fc_lost = self.jury_rig(s, a, rng);
        s.used[a] |= 1 << system;
        self.leave_shield(s, a);
        let nsys = self.facts[a].nsys as usize;
        // The unit moves position: a special attack always, an attack when its side's
        // movement moves it. That ends a dig-in (3rd edition "Dig In").
        if system >= nsys || self.attack_moves.get(a).copied().unwrap_or(false) {
            s.dug_in[a] = false;
        }
        if system >= nsys {
            let specials = self.specials_for(s, t);
            let e = specials.entry(a, t, state(fc_lost, self.smoked(s, a, t)), system - nsys);
            if e != NONE {
                let (target_loss, own_loss) = specials.tables[e as usize].sample(rng);
                self.take(s, t, target_loss, a);
                if own_loss == crate::rules::techcommander::special::ELIMINATED {
                    s.life[a] = s.life[a].min(0);
                    s.stand(a);
                } else {
                    s.life[a] -= own_loss as i32;
                    self.fall_if_in_the_red(s, a);
                }
                if system - nsys == super::specials::OVERRUN {
                    self.overrun_fire(s, a, fc_lost, rng);
                }
            }
            return;
        }
        self.spend_round(s, a, system);
        self.shot(base, s, a, system, t, fc_lost, rng);
    }

    /// `t` loses `loss` life to an action of `a` (`KILL_CREDIT`: the first to take it to
    /// 0 or below).
    #[inline(always)]
    pub(super) fn take(&self, s: &mut State, t: usize, loss: u32, a: usize) {
        s.life[t] -= loss.min(1000) as i32;
        self.fall_if_in_the_red(s, t);
        if s.life[t] <= 0 && s.credit[t] == NO_CREDIT {
            s.credit[t] = a as u8;
            s.one_action[t] = s.full[t];
        }
    }

    /// `AERIAL_IN_THE_RED=eliminated`: aerial unit `u`, now in the red, "must
    /// immediately land, if they cannot land, they are eliminated" (2nd edition "Aerial
    /// Vehicles, VTOLs and UAVs"): its life drops to 0 (it acts until removed, as every
    /// eliminated unit does; the action that put it in the red takes the kill).
    #[inline(always)]
    pub(super) fn fall_if_in_the_red(&self, s: &mut State, u: usize) {
        if self.falls_in_the_red.get(u).copied().unwrap_or(false)
            && s.life[u] > 0
            && s.life[u] <= self.o.in_the_red_life as i32
        {
            s.life[u] = 0;
        }
        s.stand(u);
    }

    /// Bits of the systems `a` may fire now (the same as [`TcGame::system_ready`] per
    /// system).
    #[inline(always)]
    pub fn ready_systems(&self, s: &State, a: usize) -> u32 {
        let used = if self.o.system_once_per_turn { s.used[a] } else { 0 };
        self.facts[a].all & !s.dry[a] & !used
    }

    /// `a` spends a round of `system`, if it counts them.
    #[inline(always)]
    pub(super) fn spend_round(&self, s: &mut State, a: usize, system: usize) {
        let r = &mut s.rounds[a][system];
        if *r != UNLIMITED {
            *r -= 1;
            if *r == 0 {
                s.dry[a] |= 1 << system;
            }
        }
    }

    /// Initiative of `n` rollers (d20 each, lowest first, `INITIATIVE_TIES`): writes
    /// `0..n` in acting order into `order` and returns `n`.
    pub(crate) fn d20_order(&self, n: usize, rng: &mut Xoshiro256PlusPlus, order: &mut [u8; MAX_SIDES]) -> usize {
        let mut key = [0u64; MAX_SIDES];
        'roll: loop {
            for k in key.iter_mut().take(n) {
                *k = roll_d20(rng) as u64;
            }
            loop {
                let tied = |i: usize| (0..n).any(|j| j != i && key[j] == key[i]);
                if !(0..n).any(tied) {
                    break 'roll;
                }
                if self.o.initiative_ties == InitiativeTies::All {
                    continue 'roll;
                }
                let ties: [bool; MAX_SIDES] = std::array::from_fn(|i| i < n && tied(i));
                for i in 0..n {
                    key[i] = key[i] * 32 + if ties[i] { roll_d20(rng) as u64 } else { 0 };
                }
            }
        }
        for (slot, i) in order.iter_mut().zip(0..n) {
            *slot = i as u8;
        }
        order[..n].sort_by_key(|&i| key[i as usize]);
        n
    }
}

impl BattleRules for TcGame {
    type State = State;
    type Action = Action;

    fn sides(&self) -> usize {
        self.side_units.len()
    }
    fn units(&self) -> usize {
        self.units.len()
    }
    fn side_of(&self, unit: usize) -> usize {
        self.units[unit].side
    }
    fn max_turns(&self) -> u32 {
        self.max_turns
    }
    fn phases(&self) -> usize {
        2
    }
    fn pass_ends_turn(&self) -> bool {
        self.o.pass_ends_turn
    }

    fn new_state(&self) -> State {
        State {
            life: [0; MAX_UNITS],
            present: [false; MAX_UNITS],
            aboard: [false; MAX_UNITS],
            actions: [0; MAX_UNITS],
            used: [0; MAX_UNITS],
            rounds: [[0; MAX_SYSTEMS]; MAX_UNITS],
            dry: [0; MAX_UNITS],
            smoke_rounds: [0; MAX_UNITS],
            smoked: [false; MAX_UNITS],
            offline: [false; MAX_UNITS],
            credit: [NO_CREDIT; MAX_UNITS],
            jury: [0; MAX_UNITS],
            left: [0; MAX_SIDES],
            budget: [[0; 2]; MAX_SIDES],
            group_acted: [false; MAX_SIDES],
            full: [false; MAX_UNITS],
            one_action: [false; MAX_UNITS],
            cap: [0; MAX_SIDES],
            chips: [0; MAX_SIDES],
            kills_side: [0; MAX_SIDES],
            hidden: [false; MAX_UNITS],
            last_side: 0,
            dug_in: [false; MAX_UNITS],
            return_ready: [false; MAX_UNITS],
            cover: [0; MAX_UNITS],
            spare: [0; MAX_UNITS],
            settled: [false; MAX_UNITS],
            up: 0,
            field: 0,
        }
    }

    fn begin_battle(&self, s: &mut State, _rng: &mut Xoshiro256PlusPlus) {
        for (i, u) in self.units.iter().enumerate() {
            self.reset_unit(s, i);
            s.present[i] = u.crew_of.is_none() && u.carrier.is_none() && self.dm.is_none();
            s.stand(i);
            s.aboard[i] = u.carrier.is_some() && self.dm.is_none();
        }
        if let Some(dm) = &self.dm {
            s.cap = [dm.start_cap; MAX_SIDES];
            s.chips = [0; MAX_SIDES];
            s.kills_side = [0; MAX_SIDES];
        }
    }

    fn begin_turn(
        &self,
        s: &mut State,
        _turn: u32,
        rng: &mut Xoshiro256PlusPlus,
        order: &mut [u8; MAX_SIDES],
    ) -> usize {
        let n = match self.dm.as_ref().and_then(|dm| dm.teams.as_ref()) {
            Some(teams) => self.team_order(teams, rng, order),
            None => self.d20_order(self.side_units.len(), rng, order),
        };
        s.last_side = order[n - 1];
        if let Some(dm) = &self.dm {
            self.deploy(dm, s);
        }
        for side in order[..n].iter().map(|&side| side as usize) {
            let command: u32 = if self.has_command[side] {
                self.side_units[side]
                    .iter()
                    .map(|&u| u as usize)
                    .filter(|&u| s.present[u] && !self.is_under_crewed(u))
                    .map(|u| self.units[u].command)
                    .sum()
            } else {
                0
            };
            let base = self.base_actions * self.players_acting_for(side);
            s.budget[side] = [base, command];
            s.left[side] = base + command;
            s.group_acted[side] = false;
        }
        for (i, f) in self.facts.iter().enumerate() {
            s.actions[i] = f.actions;
            s.used[i] = 0;
            s.jury[i] = 0;
        }
        self.declare_free_dig_in(s);
        if self.under_crewed.iter().any(|&u| u) {
            for i in 0..self.units.len() {
                if self.is_under_crewed(i) {
                    s.actions[i] = OTHER_ACTIONS_PER_TURN;
                }
            }
        }
        n
    }

    fn budget(&self, s: &State, side: usize, phase: usize) -> u32 {
        if phase == 1 && !self.o.command_at_turn_start {
            return self.side_units[side]
                .iter()
                .map(|&u| u as usize)
                .filter(|&u| s.present[u] && s.life[u] > 0 && !self.is_under_crewed(u))
                .map(|u| self.units[u].command)
                .sum();
        }
        s.budget[side][phase]
    }

    fn act(&self, s: &mut State, side: usize, action: Action, rng: &mut Xoshiro256PlusPlus, out: &mut Outcome) {
        s.left[side] = s.left[side].saturating_sub(1);
        if self.dm.is_some() {
            let n = self.units.len();
            for (f, &l) in s.full[..n].iter_mut().zip(&s.life[..n]) {
                *f = l >= STARTING_LIFE as i32;
            }
        }
        match action {
            Action::Attack { actor, system, target } => {
                s.actions[actor as usize] -= 1;
                self.fire(s, actor as usize, system as usize, target as usize, rng);
                self.acted(s, actor as usize, rng);
            }
            Action::Split { actor, system, target } => {
                s.actions[actor as usize] -= 1;
                self.fire_split(s, actor as usize, system as usize, target as usize, rng);
                self.acted(s, actor as usize, rng);
            }
            Action::Smoke { unit } => {
                let u = unit as usize;
                s.actions[u] -= 1;
                // A smoke pop is a Move action (`SMOKE_POP`): the unit moves position.
                s.dug_in[u] = false;
                s.smoke_rounds[u] -= 1;
                s.smoked[u] = true;
                self.acted(s, u, rng);
            }
            Action::Scan { unit } => self.scan(s, unit as usize, rng),
            Action::DigIn { unit } => self.dig_in(s, unit as usize, rng),
            Action::Repair { unit, target } => self.repair(s, unit as usize, target as usize, rng),
            Action::GearRepair { unit, target } => self.gear_repair(s, unit as usize, target as usize, rng, out),
            Action::Offload { carrier, focus } => {
                let c = carrier as usize;
                s.actions[c] = 0;
                for &p in &self.passengers[c] {
                    let p = p as usize;
                    if !s.aboard[p] {
                        continue;
                    }
                    s.aboard[p] = false;
                    s.present[p] = true;
                    s.stand(p);
                    s.actions[p] = 0;
                    if let Some(tables) = &self.offload
                        && let Some((sys, t, score)) = self.best_shot_with(tables, false, s, p, focus)
                        && score > 0.0
                    {
                        self.fire_in(tables, s, p, sys, t, rng);
                        self.acted(s, p, rng);
                    }
                }
            }
            Action::Omega { actor, target } => self.omega_override(s, actor as usize, target as usize, rng),
            Action::RallyAttack { target } => self.rally_attack(s, side, target as usize, rng),
            Action::Assault { side: enemy } => self.assault(s, side, enemy as usize, rng),
            Action::Trample { actor, side: enemy } => self.trample(s, actor as usize, enemy as usize, rng),
            Action::Group { focus } => {
                s.group_acted[side] = true;
                for &m in &self.groups[side] {
                    let m = m as usize;
                    if !self.member_ready(s, m) {
                        continue;
                    }
                    if let Some((sys, t, score)) = self.best_shot(s, m, focus)
                        && score > 0.0
                    {
                        self.fire(s, m, sys, t, rng);
                        self.acted(s, m, rng);
                    }
                }
            }
        }
    }

    fn end_turn(&self, s: &mut State, _turn: u32, rng: &mut Xoshiro256PlusPlus, out: &mut Outcome) -> Option<Ending> {
        if let Some(dm) = &self.dm {
            self.resolve_deathmatch(dm, s, out);
            self.reset_turn(s);
            return None;
        }
        // Resolve Damage: removal, kill credit, crew escapes.
        for u in 0..self.units.len() {
            let Some(killer) = self.remove(s, u, out) else {
                continue;
            };
            let unit = &self.units[u];
            if let Some(k) = killer {
                out.kills[k] += 1;
                if unit.crew_of.is_none() {
                    out.score[self.units[k].side] += unit.ac;
                }
            }
            if matches!(unit.kind, UnitKind::Msv | UnitKind::Vehicle) {
                for c in 0..unit.crew {
                    if roll_d20(rng) <= self.o.crew_escape_target {
                        out.escaped[unit.side] += 1;
                        if let Some(slot) = self.crew_slot(u, c) {
                            s.present[slot] = true;
                            s.life[slot] = STARTING_LIFE as i32;
                            s.stand(slot);
                        }
                    }
                }
            }
            self.passengers_escape(s, u, killer, rng, out);
        }
        self.reset_turn(s);
        // Bit per side with a unit on the field (a skirmish's sides are its units' sides).
        let mut alive = 0u32;
        for (u, f) in self.facts.iter().enumerate() {
            alive |= (s.present[u] as u32) << f.side;
        }
        match alive.count_ones() {
            0 => Some(match self.o.mutual_elimination {
                MutualElimination::Draw => Ending::Draw,
                MutualElimination::Score => by_score(&out.score[..self.sides()]),
            }),
            1 => Some(Ending::Winner(alive.trailing_zeros() as u8)),
            _ => None,
        }
    }

    fn time_called(&self, s: &State, out: &mut Outcome) -> Ending {
        match &self.dm {
            Some(dm) => self.deathmatch_result(dm, s, out),
            None => by_score(&out.score[..self.sides()]),
        }
    }
}

impl TcGame {
    /// Number of sides (players).
    pub fn sides_count(&self) -> usize {
        self.side_units.len()
    }

    /// A unit slot as deployed: 20 life, full rounds and smoke, no kill credit.
    pub(crate) fn reset_unit(&self, s: &mut State, i: usize) {
        let u = &self.units[i];
        s.life[i] = STARTING_LIFE as i32;
        s.stand(i);
        s.smoke_rounds[i] = u.smoke_rounds;
        s.smoked[i] = false;
        s.offline[i] = false;
        s.credit[i] = NO_CREDIT;
        s.one_action[i] = false;
        s.rounds[i] = self.facts[i].rounds;
        s.dry[i] = self.facts[i].dry;
        s.hidden[i] = self.infiltrates(i);
        s.dug_in[i] = false;
        s.return_ready[i] = false;
        s.cover[i] = 0;
        s.spare[i] = self.shields.count.get(i).copied().unwrap_or(0);
        s.settled[i] = false;
    }

    /// Removes unit `u` if it is on the field at 0 life or less, counting the loss and
    /// the points destroyed. `None`: not removed; `Some(killer)`: removed, with the unit
    /// credited (`KILL_CREDIT`), if any.
    #[inline(always)]
    pub(crate) fn remove(&self, s: &mut State, u: usize, out: &mut Outcome) -> Option<Option<usize>> {
        if !s.present[u] || s.life[u] > 0 {
            return None;
        }
        self.remove_unit(s, u, out)
    }

    /// [`TcGame::remove`] of a unit on the field at 0 life or less.
    fn remove_unit(&self, s: &mut State, u: usize, out: &mut Outcome) -> Option<Option<usize>> {
        s.present[u] = false;
        s.stand(u);
        let unit = &self.units[u];
        out.lost[u] += 1;
        out.points_lost_milli[unit.side] += unit.points_milli;
        let killer = s.credit[u] as usize;
        if killer >= self.units.len() {
            return Some(None);
        }
        out.points_destroyed_milli[self.units[killer].side] += unit.points_milli;
        Some(Some(killer))
    }

    /// §2.5: each passenger still aboard removed carrier `u` rolls `CREW_ESCAPE_TARGET`:
    /// one who escapes stays as a unit; one who fails is eliminated and scores its AC
    /// and a kill for `killer`, the carrier's (if any).
    fn passengers_escape(
        &self,
        s: &mut State,
        u: usize,
        killer: Option<usize>,
        rng: &mut Xoshiro256PlusPlus,
        out: &mut Outcome,
    ) {
        for &p in &self.passengers[u] {
            let p = p as usize;
            if !s.aboard[p] {
                continue;
            }
            s.aboard[p] = false;
            if roll_d20(rng) <= self.o.crew_escape_target {
                s.present[p] = true;
                s.stand(p);
                continue;
            }
            let unit = &self.units[p];
            out.lost[p] += 1;
            out.points_lost_milli[unit.side] += unit.points_milli;
            if let Some(k) = killer {
                out.kills[k] += 1;
                out.score[self.units[k].side] += unit.ac;
                out.points_destroyed_milli[self.units[k].side] += unit.points_milli;
            }
        }
    }

    /// `a` makes an Omega Override at `t`: its turn ends; in the red it first rolls a
    /// jury rig under `OMEGA_NEEDS_JURY_RIG` (a failure: no shot); else every system it
    /// fires spends a round, its gear goes offline until Reset, one draw of the life lost.
    fn omega_override(&self, s: &mut State, a: usize, t: usize, rng: &mut Xoshiro256PlusPlus) {
        s.actions[a] = 0;
        let (omega, _, _) = self.omega_at(s, a, t);
        let e = omega.entry(a, t, super::omega::omega_state(self.smoked(s, a, t), s.offline[t]));
        if e == NONE {
            return;
        }
        if self.in_the_red(s, a) && self.o.omega_needs_jury_rig && roll_d20(rng) > self.o.jury_rig_success_max {
            s.hidden[a] = false;
            return;
        }
        let systems = omega.systems[e as usize];
        s.used[a] |= systems;
        self.leave_shield(s, a);
        for sys in 0..self.facts[a].nsys as usize {
            if systems & (1 << sys) != 0 {
                self.spend_round(s, a, sys);
            }
        }
        s.offline[a] = true;
        // Its shots meet the shield `t` drops now, if it drops one (the same Omega).
        self.shelter(s, t);
        let (omega, _, shield) = self.omega_at(s, a, t);
        let loss = omega.samplers[e as usize].sample(rng);
        self.land(s, shield, t, loss, a);
        if s.dug_in[t] && self.variants.omega_dug.is_some() {
            self.return_attack(s, t, a, rng);
        }
    }

    /// Whether rallied member `m` fires when its group acts: on the field, and not
    /// already acted this turn (a passenger offloaded this turn has).
    #[inline(always)]
    pub fn member_ready(&self, s: &State, m: usize) -> bool {
        s.present[m] && s.actions[m] > 0
    }

    /// Whether rallied members `m` and `n` (twins: [`TcGame::twin`]), or two units of
    /// one twin class ([`TcGame::class`]), stand in the same state, so that their best
    /// shots are the same.
    #[inline(always)]
    pub fn same_state(&self, s: &State, m: usize, n: usize) -> bool {
        s.life[m] == s.life[n]
            && s.jury[m] == s.jury[n]
            && s.used[m] == s.used[n]
            && s.dry[m] == s.dry[n]
            && s.smoked[m] == s.smoked[n]
    }

    /// Whether unit `u` is under-crewed (§2.2): an MSV or vehicle of a side playing under
    /// the `under_crewed` condition.
    #[inline(always)]
    pub fn is_under_crewed(&self, u: usize) -> bool {
        let unit = &self.units[u];
        self.under_crewed.get(unit.side).copied().unwrap_or(false)
            && matches!(unit.kind, UnitKind::Msv | UnitKind::Vehicle)
    }

    /// Reset phase: smoke clears, revealed units re-infiltrate (not under a standing
    /// bubble shield), power armour and standing shields back to 20. A dug-in unit stays
    /// dug in until it moves position ([`super::dig_in`]).
    fn reset_turn(&self, s: &mut State) {
        self.recharge_shields(s);
        for (u, f) in self.facts.iter().enumerate() {
            s.smoked[u] = false;
            s.offline[u] = false;
            s.hidden[u] = self.infiltrates(u) && s.cover[u] == 0;
            if f.power_armor && s.present[u] {
                s.life[u] = STARTING_LIFE as i32;
                s.stand(u);
            }
        }
    }

    /// The escaped-crew slot for crew member `c` of unit `u` (`CREW_SURVIVORS=fight`).
    fn crew_slot(&self, u: usize, c: u32) -> Option<usize> {
        let first = u + 1;
        let slot = first + c as usize;
        (slot < self.units.len() && self.units[slot].crew_of == Some(u)).then_some(slot)
    }
}

/// The side with the highest score wins; a tie for the highest is a draw.
pub fn by_score(score: &[u32]) -> Ending {
    let best = score.iter().copied().max().unwrap_or(0);
    let mut winners = score.iter().enumerate().filter(|(_, v)| **v == best);
    match (winners.next(), winners.next()) {
        (Some((i, _)), None) => Ending::Winner(i as u8),
        _ => Ending::Draw,
    }
}
