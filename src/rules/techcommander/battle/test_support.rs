//! The set-up the TechCommander battle unit tests share: catalogues from text, battles
//! compiled as the command line compiles them or games assembled by hand from chosen
//! parts ([`TestBattle`]), states at a chosen moment, a step-by-step auditor, and the
//! statistical assertions.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::game::{Action, State, TcGame};
use super::kernel::{TcBattle, compile_teams};
use super::omega::Omega;
use super::policy::{FocusLowest, Greedy, RandomLegal};
use super::specials::Specials;
use super::tables::{Tables, offload_tables, skirmish_value};
use super::units::resolve;
use crate::catalogue::force::ForceSpec;
use crate::catalogue::source::SourceFile;
use crate::engine::Kernel;
use crate::engine::battle::{BattlePolicy, BattleRules, BattleTally, MAX_SIDES, Outcome, play_battle};
use crate::rules::battle::BattleSetup;
use crate::rules::techcommander::catalogue::Catalogue;
use crate::rules::techcommander::conditions::Conditions;
use crate::rules::techcommander::options::Options;
use crate::stats::binomial::consistent;

/// A 1-shot 20-damage gun, a gun that never hits at range 12 or 2, troops, crew, plain
/// vehicles of AC 2 and 4, a command car (AC 3, command 1, the whole starting
/// deathmatch cap of 3) and AC5 MSVs of speed 24 and 4. The Gun hits T 12 at the AC2
/// car at range 12 (10 life a hit), T 14 at the AC4 box (5 life), T 11 at AC1 (a kill).
/// Shared by the rallied group tests and the team deathmatch tests.
pub(super) const SQUAD_CATALOGUE: &str = r#"
[[weapon]]
name = "Gun"
damage = 20
shots = 1
fire_control = 0
opt = 100
weight = 1
power = 0

[[weapon]]
name = "Gun B"
damage = 20
shots = 1
fire_control = 0
opt = 100
weight = 1
power = 0

[[weapon]]
name = "Blank"
damage = 1
shots = 1
fire_control = 0
opt = 0
drop = 20
weight = 1
power = 0

[[unit]]
name = "Trooper"
kind = "troop"
ac = 1

[[unit]]
name = "Crew"
kind = "crew"
ac = 1

[[unit]]
name = "Car2"
kind = "vehicle"
ac = 2

[[unit]]
name = "Box"
kind = "vehicle"
ac = 4

[[unit]]
name = "Boss Car"
kind = "vehicle"
ac = 3
command = 1

[[unit]]
name = "Stomper"
kind = "msv"
ac = 5
speed = 24
free_weight = 20
free_power = 20

[[unit]]
name = "Small Stomper"
kind = "msv"
ac = 5
speed = 4
free_weight = 20
free_power = 20

[[build]]
name = "Gun Trooper"
unit = "Trooper"
weapons = [{ name = "Gun" }]

[[build]]
name = "Blank Trooper"
unit = "Trooper"
weapons = [{ name = "Blank" }]

[[build]]
name = "Unarmed Crew"
unit = "Crew"
weapons = [{ name = "Blank" }]

[[build]]
name = "Target Car"
unit = "Car2"
weapons = [{ name = "Blank" }]

[[build]]
name = "Box"
unit = "Box"
weapons = [{ name = "Blank" }]

[[build]]
name = "Gun Car"
unit = "Car2"
weapons = [{ name = "Gun" }]

[[build]]
name = "Gun Boss"
unit = "Boss Car"
weapons = [{ name = "Gun" }]

[[build]]
name = "Stomper"
unit = "Stomper"
weapons = [{ name = "Blank" }]

[[build]]
name = "Small Stomper"
unit = "Small Stomper"
weapons = [{ name = "Blank" }]

[[build]]
name = "Two-Gun Stomper"
unit = "Stomper"
weapons = [{ name = "Gun" }, { name = "Gun B" }]
"#;

/// Parses a test catalogue `text` as the single source file `test.toml`.
///
/// # Errors
/// The catalogue's validation error, naming `test.toml`, as a string.
pub(super) fn parse_catalogue(text: &str) -> Result<Catalogue, String> {
    Catalogue::from_sources("test", &[SourceFile { name: "test.toml".into(), text: text.into() }])
        .map_err(|e| e.to_string())
}

/// A test catalogue from `text`; panics when it is invalid.
pub(super) fn catalogue(text: &str) -> Catalogue {
    parse_catalogue(text).expect("the test catalogue is valid")
}

/// The built-in catalogue.
pub(super) fn embedded() -> Catalogue {
    Catalogue::embedded().expect("the built-in catalogue is valid")
}

/// The default options with a force budget of 1000, so that test forces of any size
/// pass the budget check.
///
/// Troops and crew stand undug (`FREE_DIG_IN=false`, on by default): the battle tests'
/// hand vectors (`techcommander-battles.md` §7 and the rulings' own) are computed for
/// undug troops and crew. The free dig-in is tested at the defaults on its own
/// (`book_tests::troops_are_dug_in_for_free_before_they_act`,
/// `tests::crew_are_dug_in_for_free_by_default`).
pub(super) fn options() -> Options {
    Options { force_budget: 1000, free_dig_in: false, ..Options::default() }
}

/// A part of a [`TcGame`] that [`TestBattle::assemble`] builds on request (the tables,
/// the rallied group laws and the under-crewed sides it always builds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Part {
    /// Ram, death from above, overrun and trample ([`Specials`]).
    Specials,
    /// The passengers' shots from an offload ([`offload_tables`]).
    Offload,
    /// Omega Overrides ([`Omega`]).
    Omega,
}

/// A battle to build for a test. Defaults: every side at range 12, [`options()`] (force
/// budget 1000), the mode's default policy and turn cap, no teams. Set what differs, then
/// [`compile`](TestBattle::compile) it as the command line does, or
/// [`assemble`](TestBattle::assemble) a skirmish game by hand from chosen parts.
#[derive(Debug, Clone)]
pub(super) struct TestBattle<'a> {
    cat: &'a Catalogue,
    mode: &'static str,
    /// One force (builds joined by `+`) per side, in side order.
    forces: Vec<&'a str>,
    /// One per side.
    conditions: Vec<Conditions>,
    options: Options,
    policy: Option<&'a str>,
    max_turns: Option<u32>,
    /// A team label per player ([`compile_teams`]).
    teams: Option<&'a [usize]>,
}

impl<'a> TestBattle<'a> {
    /// A skirmish of force `a` (side 0) against force `b` (side 1).
    pub(super) fn skirmish(cat: &'a Catalogue, a: &'a str, b: &'a str) -> Self {
        Self::new(cat, "skirmish", &[a, b])
    }

    /// A deathmatch of `forces`, one player each, in side order.
    pub(super) fn deathmatch(cat: &'a Catalogue, forces: &[&'a str]) -> Self {
        Self::new(cat, "deathmatch", forces)
    }

    fn new(cat: &'a Catalogue, mode: &'static str, forces: &[&'a str]) -> Self {
        TestBattle {
            cat,
            mode,
            forces: forces.to_vec(),
            conditions: vec![Conditions::at_range(12.0); forces.len()],
            options: options(),
            policy: None,
            max_turns: None,
            teams: None,
        }
    }

    /// The options of every side (replacing [`options()`]).
    pub(super) fn options(mut self, o: Options) -> Self {
        self.options = o;
        self
    }

    /// A battle policy name (`greedy`, `focus-lowest`, `random`).
    pub(super) fn policy(mut self, policy: &'a str) -> Self {
        self.policy = Some(policy);
        self
    }

    /// The turn cap (1 to 1000 when compiled).
    pub(super) fn max_turns(mut self, max_turns: u32) -> Self {
        self.max_turns = Some(max_turns);
        self
    }

    /// The same conditions for every side (replacing their `under_crewed` flags too, so
    /// set those after).
    pub(super) fn conditions(mut self, c: Conditions) -> Self {
        self.conditions.fill(c);
        self
    }

    /// The `under_crewed` condition of each side; panics unless one flag per side.
    pub(super) fn under_crewed(mut self, flags: &[bool]) -> Self {
        assert_eq!(flags.len(), self.conditions.len(), "one under_crewed flag per side");
        for (c, &f) in self.conditions.iter_mut().zip(flags) {
            c.under_crewed = f;
        }
        self
    }

    /// A team label per player (a deathmatch of teams).
    pub(super) fn teams(mut self, labels: &'a [usize]) -> Self {
        self.teams = Some(labels);
        self
    }

    /// Compiles the battle as the command line does ([`compile_teams`]: budgets checked,
    /// every part built).
    ///
    /// # Errors
    /// [`compile_teams`]'s; panics on a force that does not parse.
    pub(super) fn compile(&self) -> Result<TcBattle, String> {
        let forces: Vec<ForceSpec> = self.forces.iter().map(|f| ForceSpec::parse(f).unwrap()).collect();
        let setup = BattleSetup {
            mode: self.mode,
            forces: &forces,
            conditions: &self.conditions,
            options: &self.options,
            policy: self.policy,
            max_turns: self.max_turns,
        };
        Ok(compile_teams(self.cat, &setup, self.teams)?.0)
    }

    /// [`TestBattle::compile`], panicking on an error.
    pub(super) fn kernel(&self) -> TcBattle {
        self.compile().expect("the test battle compiles")
    }

    /// The game of the compiled battle ([`TestBattle::kernel`]).
    pub(super) fn game(&self) -> TcGame {
        self.kernel().game().clone()
    }

    /// A skirmish game assembled by hand, as the kernel does but building only the
    /// tables, the rallied group laws, the under-crewed sides and `parts`: forces
    /// resolved without the budget check, targets valued as in a skirmish, the turn cap
    /// `SKIRMISH_MAX_TURNS` unless set. Panics outside a skirmish, on unknown builds.
    pub(super) fn assemble(&self, parts: &[Part]) -> TcGame {
        assert_eq!(self.mode, "skirmish", "only a skirmish is assembled by hand");
        let o = &self.options;
        let cond = &self.conditions;
        let forces: Vec<ForceSpec> = self.forces.iter().map(|f| ForceSpec::parse(f).unwrap()).collect();
        let units = resolve(self.cat, &forces, o, false).unwrap();
        let tables = Tables::new(&units, cond, o, skirmish_value);
        let specials = parts.contains(&Part::Specials).then(|| Specials::new(&units, cond, o, skirmish_value));
        let offload = parts.contains(&Part::Offload).then(|| offload_tables(&units, cond, o, skirmish_value));
        let max_turns = self.max_turns.unwrap_or(o.skirmish_max_turns);
        let mut g = TcGame::new(units, tables, o, max_turns, forces.len());
        if let Some(specials) = specials {
            g.specials = specials;
        }
        if let Some(offload) = offload {
            g.offload = offload;
        }
        if parts.contains(&Part::Omega) {
            g.omega = Omega::new(&g.units, cond, &g.tables, o, skirmish_value, g.jury_ok as f64);
        }
        g.under_crewed = cond.iter().map(|c| c.under_crewed).collect();
        g.note_candidates();
        g
    }
}

/// Plays `trials` battles of `k` from `seed` into a new tally.
pub(super) fn tally(k: &TcBattle, trials: u32, seed: u64) -> BattleTally {
    let mut t = k.new_tally();
    k.play(&mut Xoshiro256PlusPlus::seed_from_u64(seed), trials, &mut t);
    t
}

/// `k` of `n` is consistent with the exact `p` (two-sided, alpha 1e-6).
pub(super) fn assert_consistent(k: u64, n: u64, p: f64, what: &str) {
    assert!(consistent(k, n, p, 1e-6), "{what}: {k}/{n} = {} vs exact {p}", k as f64 / n as f64);
}

/// A compiled `f32` score equals the exact `y` within 1e-5.
pub(super) fn close(x: f32, y: f64, what: &str) {
    assert!((x as f64 - y).abs() < 1e-5, "{what}: {x} vs exact {y}");
}

/// The state of `g` at the start of the first action of turn 1, drawing from `rng`.
pub(super) fn turn_one(g: &TcGame, rng: &mut Xoshiro256PlusPlus) -> State {
    let mut s = g.new_state();
    g.begin_battle(&mut s, rng);
    let mut order = [0u8; MAX_SIDES];
    g.begin_turn(&mut s, 0, rng, &mut order);
    s
}

/// [`turn_one`] from a generator seeded with `seed`.
pub(super) fn first_action(g: &TcGame, seed: u64) -> State {
    turn_one(g, &mut Xoshiro256PlusPlus::seed_from_u64(seed))
}

/// A deployed state of `g` where each listed `(unit, life, by)` is at `life` with kill
/// credit to unit `by`.
pub(super) fn wounded(g: &TcGame, rng: &mut Xoshiro256PlusPlus, hits: &[(usize, i32, usize)]) -> State {
    let mut s = g.new_state();
    g.begin_battle(&mut s, rng);
    for &(u, life, by) in hits {
        s.life[u] = life;
        s.stand(u);
        s.credit[u] = by as u8;
    }
    s
}

/// Plays `n` battles of `g` under `policy` from `seed`, counting per unit slot the
/// battles it was lost in (eliminated by the turn cap), every step [`Audited`].
pub(super) fn lost_counts<P: BattlePolicy<TcGame>>(g: &TcGame, policy: P, n: u32, seed: u64) -> Vec<u64> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut s = g.new_state();
    let mut out = Outcome::new();
    let mut lost = vec![0u64; g.units.len()];
    let audited = Audited(policy);
    for _ in 0..n {
        play_battle(g, &audited, &mut s, &mut rng, &mut out);
        for (l, &o) in lost.iter_mut().zip(&out.lost) {
            *l += o as u64;
        }
    }
    lost
}

/// A policy behind a reference, so that one loop runs every named policy.
#[derive(Clone, Copy)]
pub(super) struct Dyn<'p>(pub &'p dyn BattlePolicy<TcGame>);

impl BattlePolicy<TcGame> for Dyn<'_> {
    fn choose(&self, g: &TcGame, s: &State, side: usize, phase: usize, rng: &mut Xoshiro256PlusPlus) -> Option<Action> {
        self.0.choose(g, s, side, phase, rng)
    }
}

/// The named policies, each with the seed [`play_under_every_policy`] starts it from:
/// greedy 0, focus-lowest 1, random 2.
pub(super) const EVERY_POLICY: [(Dyn<'static>, u64); 3] =
    [(Dyn(&Greedy), 0), (Dyn(&FocusLowest), 1), (Dyn(&RandomLegal), 2)];

/// Plays `battles` battles of `g` under each of [`EVERY_POLICY`] from its seed, every
/// step [`Audited`], calling `after` with each battle's final state.
pub(super) fn play_under_every_policy(g: &TcGame, battles: u32, mut after: impl FnMut(&State)) {
    for (policy, seed) in EVERY_POLICY {
        let mut s = g.new_state();
        let mut out = Outcome::new();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        for _ in 0..battles {
            play_battle(g, &Audited(policy), &mut s, &mut rng, &mut out);
            after(&s);
        }
    }
}

/// Wraps a policy and checks every step against the budgets it may spend: the player's
/// and the unit's actions, a system once a turn, the group once a turn and only with a
/// member ready, a trample once a turn at an enemy, an assault only on an enemy group, a
/// rallied member never attacking alone, an Omega only as the MSV's first action, an
/// offload only with somebody aboard.
pub(super) struct Audited<P>(pub P);

impl<P: BattlePolicy<TcGame>> BattlePolicy<TcGame> for Audited<P> {
    fn choose(&self, g: &TcGame, s: &State, side: usize, phase: usize, rng: &mut Xoshiro256PlusPlus) -> Option<Action> {
        let a = self.0.choose(g, s, side, phase, rng)?;
        assert!(s.left[side] >= 1, "a player action beyond the budget");
        match a {
            Action::Attack { actor, system, .. } | Action::Split { actor, system, .. } => {
                assert!(s.actions[actor as usize] >= 1, "a unit action beyond the unit's");
                assert!(s.used[actor as usize] & (1 << system) == 0, "a system fired twice in a turn");
                assert!(!g.units[actor as usize].rallied, "a rallied member acting alone");
            }
            Action::Smoke { unit } => assert!(s.actions[unit as usize] >= 1 && s.smoke_rounds[unit as usize] >= 1),
            Action::Group { .. } | Action::RallyAttack { .. } | Action::Assault { .. } => {
                assert!(!s.group_acted[side], "the group acted twice");
                assert!(g.groups[side].iter().any(|&m| g.member_ready(s, m as usize)), "a group with nobody ready");
                if let Action::Assault { side: enemy } = a {
                    assert!(enemy as usize != side && !g.groups[enemy as usize].is_empty(), "an assault on no group");
                }
            }
            Action::Trample { actor, side: enemy } => {
                let u = actor as usize;
                assert!(s.present[u] && s.actions[u] >= 1, "a trample beyond the unit's actions");
                assert_ne!(enemy as usize, side, "a trample over the trampler's own side");
                let bit = 1 << (g.units[u].attacker.systems.len() + super::rally_laws::TRAMPLE);
                assert!(s.used[u] & bit == 0, "two tramples in a turn");
            }
            Action::Scan { unit } => assert!(s.actions[unit as usize] >= 1, "a scan by a unit that acted"),
            Action::DigIn { unit } => assert!(s.actions[unit as usize] >= 1, "a dig-in by a unit that acted"),
            Action::Repair { unit, .. } => assert!(s.actions[unit as usize] >= 1, "a repair by a unit that acted"),
            Action::GearRepair { unit, target } => {
                let (u, f) = (unit as usize, target as usize);
                assert!(s.present[u] && s.actions[u] >= 1, "a repair by a unit that acted");
                assert_ne!(u, f, "a unit repairing itself");
                assert_eq!(g.units[u].side, g.units[f].side, "a repair of an enemy");
                assert!(s.present[f] && s.life[f] < 20, "a repair of a unit off the field or at full life");
                assert!(s.used[u] & super::repair::REPAIR_BIT == 0, "two repairs in a turn");
            }
            Action::Omega { actor, .. } => {
                assert_eq!(s.actions[actor as usize], 2, "an Omega after an earlier action");
                assert_eq!(s.used[actor as usize], 0, "an Omega after a system fired");
            }
            Action::Offload { carrier, .. } => {
                let c = carrier as usize;
                assert!(s.present[c] && s.actions[c] >= 1, "an offload by a carrier that acted");
                assert!(g.passengers[c].iter().any(|&p| s.aboard[p as usize]), "an offload with nobody aboard");
            }
        }
        Some(a)
    }
}
