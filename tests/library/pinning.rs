//! Value stability (as rand's `value_stability` tests): the cell keys published results
//! are drawn under, and one golden count per engagement kind, as literals.
//!
//! Every number a report publishes is a pure function of (seed, cell key, stream); these
//! tests pin that function end to end. A change in the key format, the seeding, the
//! stream size or how many random numbers a rule draws changes these integers and fails
//! here. Update a literal only for an intended change, and say so in the changelog:
//! published numbers change with it. (The generator itself is pinned in
//! `src/engine/seed.rs`; the paired path in its own tests.)

use volley::engine::{Cell, RunConfig, Silent, Trials, cell_key, run};
use volley::rules::axis::Point;
use volley::rules::ruleset::Game;
use volley::rules::techcommander::catalogue::Catalogue;
use volley::rules::techcommander::*;
use volley::stats::{DuelTally, TtkTally};
use volley::sweep::cells::CellSpec;
use volley::sweep::run::all_specs;
use volley::sweep::{Scenario, run_sweep};

/// A TechCommander point from (axis, value) pairs over the defaults.
fn point(pairs: &[(&str, &str)]) -> Point {
    let values: Vec<(&str, String)> = pairs.iter().map(|(n, v)| (*n, v.to_string())).collect();
    Point::new(&all_specs::<TechCommander>(), &values).unwrap()
}

/// What `volley ttk`/`duel`/`sweep` key a TechCommander cell by (default options,
/// policy best-expected, 20 turns).
fn key_spec(f: impl FnOnce(&CellSpec<'_>) -> String) -> String {
    let options = <TechCommander as Game>::Options::default().pairs();
    f(&CellSpec { ruleset: "techcommander", options: &options, policy: "best-expected", max_turns: 20 })
}

/// The rulebook's worked example as a cell: Dwarf ALPHA at the Stingray, 27" through smoke.
fn worked_example() -> Conditions {
    Conditions { range: 27.0, smoke: Smoke::Smoke, ..Conditions::default() }
}

/// The attack run `volley ttk --attacker "Dwarf ALPHA" --target Stingray --range 27 --smoke smoke`
/// plays, with the key that command and `volley sweep` use.
fn worked_example_run() -> (AttackRun, u64) {
    let cat = Catalogue::embedded().unwrap();
    let a = Attacker::from_build(&cat, cat.build("Dwarf ALPHA").unwrap());
    let t = TargetSpec::parse("Stingray").unwrap().resolve(&cat).unwrap();
    let c = worked_example();
    let run = AttackRun::new(&a, &t, &c, &Options::default(), Policy::BestExpected, DEFAULT_MAX_TURNS).unwrap();
    let key = cell_key(&key_spec(|k| k.attack_run(&a.name, &t.name, &point(&[("range", "27"), ("smoke", "smoke")]))));
    (run, key)
}

fn ttk(run_: &AttackRun, key: u64, seed: u64, trials: Trials) -> TtkTally {
    let cfg = RunConfig { seed, trials, ..RunConfig::default() };
    run(&[Cell { key, kernel: run_ }], &cfg, &Silent).unwrap().remove(0)
}

#[test]
fn cell_keys_of_published_cells() {
    let attack = key_spec(|k| k.attack_run("Dwarf ALPHA", "Stingray", &point(&[("range", "27"), ("smoke", "smoke")])));
    assert_eq!(
        attack,
        format!(
            "attack-run|ruleset=techcommander|Dwarf ALPHA|Stingray|range=27|cover=none|smoke=smoke|movement=stationary|status=none|designated=false|jury_rig_failed=false|under_crewed=false|friendly_msv=false|mode=normal|{DEFAULT_OPTIONS}|policy=best-expected|max_turns=20"
        )
    );
    assert_eq!(cell_key(&attack), GOLDEN_ATTACK_KEY, "{:#x}", cell_key(&attack));
    let duel = key_spec(|k| k.duel("Dwarf ALPHA", "Gladiator Lancer", &point(&[("range", "20")])));
    assert_eq!(
        duel,
        format!(
            "duel|ruleset=techcommander|Dwarf ALPHA|Gladiator Lancer|range=20|cover=none|smoke=none|movement=stationary|status=none|designated=false|jury_rig_failed=false|under_crewed=false|friendly_msv=false|mode=normal|{DEFAULT_OPTIONS}|policy=best-expected|max_turns=20"
        )
    );
    assert_eq!(cell_key(&duel), GOLDEN_DUEL_KEY, "{:#x}", cell_key(&duel));
}

/// TechCommander's options at their defaults, as every cell key carries them.
const DEFAULT_OPTIONS: &str = "EDITION=3|STANCES=false|PRONE_BONUS=1|MONEYSHOT_BONUS=2|NO_AUTOMATIC_HIT_OR_MISS=true|SIZE_BONUS_CAP=6|HALF_MOVE_PENALTY=1|FULL_MOVE_PENALTY=4|AUTO_STABILIZED_MOVE_PENALTY=1|POP_AND_SHOOT_PENALTY=1|JUMP_ASSAULT_PENALTY=4|OFFLOAD_PENALTY=1|COVER_BANDS=cover-modifiers|MINOR_COVER_PENALTY=1|HALF_COVER_PENALTY=2|HEAVY_COVER_PENALTY=3|BLOCKED_NLOS_PENALTY=6|NLOS_WEAPONS_FIRE_NLOS=true|SMOKE_PENALTY=6|DESIGNATED_SMOKE_PENALTY=3|DUG_IN_PENALTY=2|HULL_DOWN_PENALTY=2|HULL_DOWN_ONLY_VEHICLES=true|POSTED_UP_PENALTY=2|POSTED_UP_NEEDS_COVER=true|FOREST_PENALTY=2|FACTION_TRAINING=true|WETWIRE_FIRE_CONTROL=1|COMBINED_ARMS_FIRE_CONTROL=2|DEFENSE_MASTERS_DUG_IN_PENALTY=3|FIRE_FOR_EFFECT_LOS_PENALTY=4|FIRE_FOR_EFFECT_NO_LOS_PENALTY=8|FIRE_FOR_EFFECT_AT_A_SPOT=true|FIRE_FOR_EFFECT_BLIND_IS_NLOS=true|FIRE_FOR_EFFECT_IS_SPLASH=true|OMEGA_USES_SMALLEST_ARMOR_PIERCING=true|IN_THE_RED_LIFE=5|JURY_RIG_SUCCESS_MAX=10|JURY_RIG_PER_ACTION=true|BUBBLE_SHIELD=true|SHIELD_BYPASS=true|ADJACENT_GAP=0|DAMAGE_DICE=one-d20-times-ac|RAM_FIRE_CONTROL=2|RAM_SELF_ROUND=up|CLOSE_MODIFIERS=listed|SMOKE_CLOSE=scenario-smoke|DFA_SMOKE_PENALTY=2|DFA_AC_SOURCE=attacker|DFA_SELF_ARMOUR=ignored|TRAMPLE_ARMOUR=applies|DODGE=always-except-prone|OVERRUN_FIRE=true|AERIAL_IN_THE_RED=eliminated|DODGE_TARGET=12|COMBAT_AGILITY_DODGE_TARGET=14|FORCE_BUDGET=12|SKIRMISH_MAX_TURNS=10|COMMAND_AT_TURN_START=true|SYSTEM_ONCE_PER_TURN=true|PASS_ENDS_TURN=true|INITIATIVE_TIES=tied|RALLY_AT_DEPLOY=true|SMOKE_POP=true|SMOKE_BOTH_WAYS=true|CREW_ESCAPE_TARGET=10|CREW_SURVIVORS=evacuate|MUTUAL_ELIMINATION=draw|OMEGA_IN_BATTLES=true|OMEGA_NEEDS_JURY_RIG=true|DAMAGE_WEIGHT=0.25|COMMAND_TARGET_WEIGHT=3.0|PROTECT_COMMAND=true|PROTECT_COMMAND_THRESHOLD=0.25|INFILTRATION=true|STEALTH_TARGET=10|INFILTRATION_SPOT_RANGE=6|SCANNING=true|SCAN_WEIGHT=1.0|POLICY_DIG_IN=false|DIG_IN_THRESHOLD=0.5|FREE_DIG_IN=true|SPLIT_SHOTS=true|REPAIR=true|REPAIR_REVIVES=true|DM_TURNS=6|DM_LARGE_CAP=false|DM_CAP_STEP=1|DM_REINFORCE=true|DM_PERKS=cap-first|DM_SURVIVAL_UNITS=true|DM_TIEBREAK=kills";

const GOLDEN_ATTACK_KEY: u64 = 0xb45e_3669_1111_c8ec;
const GOLDEN_DUEL_KEY: u64 = 0x4eb4_1390_c5c6_d047;

#[test]
fn golden_attack_run() {
    let (r, key) = worked_example_run();
    let t = ttk(&r, key, 1, Trials::Fixed(20_000));
    assert_eq!(t.trials, 20_000);
    assert_eq!(t.kills_by_turn, GOLDEN_ATTACK_KILLS_BY_TURN, "{:?}", t.kills_by_turn);
}

const GOLDEN_ATTACK_KILLS_BY_TURN: [u64; 20] =
    [92, 3072, 6498, 5455, 2972, 1261, 451, 144, 37, 11, 6, 1, 0, 0, 0, 0, 0, 0, 0, 0];

#[test]
fn golden_duel() {
    // `volley duel "Dwarf ALPHA" "Gladiator Lancer" --range 20`, seed 1, 20 000 duels.
    let cat = Catalogue::embedded().unwrap();
    let (x, y) = (cat.build("Dwarf ALPHA").unwrap(), cat.build("Gladiator Lancer").unwrap());
    let c = Conditions::at_range(20.0);
    let duel = Duel::new(
        (&Attacker::from_build(&cat, x), &Target::from_build(&cat, x)),
        (&Attacker::from_build(&cat, y), &Target::from_build(&cat, y)),
        &c,
        &Options::default(),
        Policy::BestExpected,
        DEFAULT_MAX_TURNS,
    )
    .unwrap();
    let key = cell_key(&key_spec(|k| k.duel(&x.name, &y.name, &point(&[("range", "20")]))));
    let cfg = RunConfig { seed: 1, trials: Trials::Fixed(20_000), ..RunConfig::default() };
    let d: DuelTally = run(&[Cell { key, kernel: &duel }], &cfg, &Silent).unwrap().remove(0);
    let counts = [d.a_wins(), d.b_wins(), d.mutual_by_turn.iter().sum(), d.timeouts];
    assert_eq!(counts, GOLDEN_DUEL_OUTCOMES, "{counts:?}");
    assert_eq!(counts.iter().sum::<u64>(), d.trials, "every duel ends one way");
    let by_turn = [&d.a_wins_by_turn[..4], &d.b_wins_by_turn[..4], &d.mutual_by_turn[..4]];
    assert_eq!(by_turn, GOLDEN_DUEL_BY_TURN, "{by_turn:?}");
}

/// A wins, B wins, mutual kills, timeouts.
const GOLDEN_DUEL_OUTCOMES: [u64; 4] = [6243, 4575, 9182, 0];
/// A wins, B wins, mutual kills on turns 1-4.
const GOLDEN_DUEL_BY_TURN: [&[u64]; 3] = [&[0, 5160, 1082, 1], &[0, 4372, 203, 0], &[0, 2723, 6424, 35]];

#[test]
fn golden_precision_run() {
    // Doubling from 65 536 trials until every P(kill by turn) has a 95% half-width of
    // at most 0.003 (about 107 000 trials at p = 1/2): the count it stops at, and what
    // it saw.
    let (r, key) = worked_example_run();
    let t = ttk(&r, key, 1, Trials::Precision { half_width: 0.003, max: 10_000_000 });
    assert_eq!(t.trials, GOLDEN_PRECISION_TRIALS);
    assert!(t.max_half_width() <= 0.003);
    assert_eq!(&t.kills_by_turn[..8], &GOLDEN_PRECISION_KILLS_BY_TURN, "{:?}", t.kills_by_turn);
}

const GOLDEN_PRECISION_TRIALS: u64 = 131_072;
const GOLDEN_PRECISION_KILLS_BY_TURN: [u64; 8] = [604, 20219, 42222, 35551, 19710, 8301, 3032, 989];

#[test]
fn golden_sweep_cell() {
    // One cell through the sweep path (scenario, grid, keys, tables): the kills by turn
    // read back from the published `ttk_by_turn` table as counts, and the same counts
    // from the engine under the cell's key (what `volley ttk` prints for it).
    let text = "name = \"pin\"\nseed = 7\ntrials = 5000\nattackers = [\"Dwarf ALPHA\"]\ntargets = [\"Stingray\"]\n[grid]\nrange = [27]\nsmoke = [\"smoke\"]\n";
    let cat = Catalogue::embedded().unwrap();
    let s = Scenario::parse::<TechCommander>("pin.toml", text).unwrap();
    let resolved = s.resolve::<TechCommander>(&cat).unwrap();
    let cfg = RunConfig { seed: s.seed, trials: s.trials, ..RunConfig::default() };
    let out = run_sweep::<TechCommander>(&s, &resolved, &cat, &cfg, &Silent).unwrap();
    let by_turn = &out.tables.iter().find(|(n, _)| *n == "ttk_by_turn").unwrap().1;
    assert_eq!(by_turn.rows.len(), 20, "one cell, 20 turns");
    let trials = 5000.0;
    let killed_by_turn: Vec<u64> = (0..by_turn.rows.len())
        .map(|i| {
            let k = by_turn.float(i, "p_killed_by_turn").unwrap() * trials;
            assert!((k - k.round()).abs() < 1e-6, "row {i}: {k} is not a count");
            k.round() as u64
        })
        .collect();
    assert_eq!(&killed_by_turn[..8], &GOLDEN_SWEEP_KILLED_BY_TURN, "{killed_by_turn:?}");
    let (r, key) = worked_example_run();
    let direct = ttk(&r, key, 7, Trials::Fixed(5000));
    let cumulative: Vec<u64> = direct
        .kills_by_turn
        .iter()
        .scan(0, |acc, &k| {
            *acc += k;
            Some(*acc)
        })
        .collect();
    assert_eq!(killed_by_turn, cumulative, "the sweep and the engine disagree on one cell");
}

/// Cumulative kills by turns 1..=8 of 5000 runs.
const GOLDEN_SWEEP_KILLED_BY_TURN: [u64; 8] = [28, 760, 2382, 3785, 4503, 4812, 4940, 4981];
