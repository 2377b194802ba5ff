//! Engagements per second of the Monte Carlo engine (see benches/README.md).
//!
//! Run: `cargo bench --bench engine`. Each benchmark plays a fixed number of engagements
//! through the public runner (seeding, streams and merging included) and reports
//! elements = engagements, so criterion prints engagements per second.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use volley::engine::{Cell, RunConfig, Silent, Trials, run};
use volley::rules::Kernel;
use volley::rules::mechcom;
use volley::rules::techcommander::catalogue::{Catalogue, UnitKind, Weapon};
use volley::rules::techcommander::{AttackRun, Attacker, Conditions, Duel, Policy, Target};

/// The reference cell: one system of 6 shots hitting on 5 or less, 12 damage per hit,
/// against AC2 with 20 life (about 3.08 actions per kill).
fn reference() -> AttackRun {
    // T = 10 + 2 (size) - 7 = 5
    let weapon = Weapon::simple("Reference", 6, 12, -7);
    let a = Attacker::simple("Reference", UnitKind::Vehicle, 2, vec![weapon]);
    AttackRun::new(
        &a,
        &Target::generic(2),
        &Conditions::default(),
        &volley::rules::techcommander::Options::default(),
        Policy::BestExpected,
        20,
    )
    .unwrap()
}

fn catalogue_run(attacker: &str, target_ac: u32) -> AttackRun {
    let cat = Catalogue::embedded().unwrap();
    let a = Attacker::from_build(&cat, cat.build(attacker).unwrap());
    AttackRun::new(
        &a,
        &Target::generic(target_ac),
        &Conditions::at_range(20.0),
        &volley::rules::techcommander::Options::default(),
        Policy::BestExpected,
        20,
    )
    .unwrap()
}

fn duel() -> Duel {
    let cat = Catalogue::embedded().unwrap();
    let (a, b) = (cat.build("Gladiator Skirmisher").unwrap(), cat.build("Beagle Hunter").unwrap());
    Duel::new(
        (&Attacker::from_build(&cat, a), &Target::from_build(&cat, a)),
        (&Attacker::from_build(&cat, b), &Target::from_build(&cat, b)),
        &Conditions::at_range(20.0),
        &volley::rules::techcommander::Options::default(),
        Policy::BestExpected,
        20,
    )
    .unwrap()
}

/// The MECHCOM reference attack run: two Prometheus flamethrower attacks a round (6 Energy) against an inert target of Integrity 10, Armour 4.
fn mechcom_reference() -> mechcom::AttackRun {
    let mut attacker = mechcom::Mech::simple("Reference", 4, 0, 4, 10);
    attacker.energy = 6;
    attacker.weapons = vec![mechcom::Weapon::prometheus_flamethrower()];
    let target = mechcom::Mech::simple("Target", 4, 0, 4, 10);
    mechcom::AttackRun::new(
        &mechcom::Model::new(&attacker, None),
        &mechcom::Model::new(&target, None),
        &mechcom::Situation::at_range(3),
        &mechcom::Options::default(),
        mechcom::RunPolicy::default(),
        50,
    )
    .unwrap()
}

/// The reference battle (benches/README.md): two 12-AC skirmish forces of the built-in
/// catalogue, greedy policy, range 12, open ground.
fn reference_battle() -> volley::rules::techcommander::battle::TcBattle {
    skirmish(REFERENCE_FORCE_A, REFERENCE_FORCE_B, volley::rules::techcommander::Options::default())
}

/// N `Stingray Standard` a side (budget lifted), otherwise as the reference battle: the
/// growth of a battle's cost with the force size.
fn stingray_battle(n: usize) -> volley::rules::techcommander::battle::TcBattle {
    let force = format!("{n}*Stingray Standard");
    skirmish(&force, &force, volley::rules::techcommander::Options { force_budget: 1000, ..Default::default() })
}

/// A TechCommander skirmish of forces `a` and `b` (force texts) at range 12 under
/// options `o`, compiled from the embedded catalogue.
fn skirmish(
    a: &str,
    b: &str,
    o: volley::rules::techcommander::Options,
) -> volley::rules::techcommander::battle::TcBattle {
    let cat = Catalogue::embedded().unwrap();
    let forces = [
        volley::catalogue::force::ForceSpec::parse(a).unwrap(),
        volley::catalogue::force::ForceSpec::parse(b).unwrap(),
    ];
    let cond = [Conditions::at_range(12.0); 2];
    let setup = volley::rules::battle::BattleSetup {
        mode: "skirmish",
        forces: &forces,
        conditions: &cond,
        options: &o,
        policy: None,
        max_turns: None,
    };
    volley::rules::techcommander::battle::compile(&cat, &setup).unwrap().0
}

/// `battle_growth/N`: 16,384 battles of N Stingrays a side on one thread, N = 8, 16, 32
/// (elements = battles).
fn battle_growth(c: &mut Criterion) {
    const BATTLES: u64 = 16_384;
    let mut group = c.benchmark_group("battle_growth");
    group.throughput(Throughput::Elements(BATTLES));
    group.sample_size(10);
    for n in [8usize, 16, 32] {
        let kernel = stingray_battle(n);
        let cfg = RunConfig { seed: 1, trials: Trials::Fixed(BATTLES), threads: Some(1), ..RunConfig::default() };
        let cells = [Cell { key: 1, kernel: &kernel }];
        group.bench_with_input(BenchmarkId::from_parameter(n), &cfg, |b, cfg| {
            b.iter(|| run(&cells, cfg, &Silent).unwrap())
        });
    }
    group.finish();
}

const REFERENCE_FORCE_A: &str = "Gladiator Lancer+Beagle Hunter+Hunter IV Standard";
const REFERENCE_FORCE_B: &str = "Paladin Siege+Stingray Standard+Rhino Standard+2*ECBS Pirate AT";

/// Shellshock's reference attack run (shellshock.md §7 vector 16: the 30mm Machine Gun,
/// 12 turns), Monte Carlo by one exact table draw per gunner step.
fn shellshock_reference_attack_run(c: &mut Criterion) {
    let run = volley::rules::shellshock::reference::vector_16(12);
    bench_kernel(c, "shellshock_reference_attack_run", &run, 4_194_304);
}

fn bench_kernel<K: Kernel>(c: &mut Criterion, name: &str, kernel: &K, trials: u64) {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(trials));
    group.sample_size(20);
    for threads in [1usize, 2] {
        let cfg = RunConfig { seed: 1, trials: Trials::Fixed(trials), threads: Some(threads), ..RunConfig::default() };
        let cells = [Cell { key: 1, kernel }];
        group.bench_with_input(BenchmarkId::new("threads", threads), &cfg, |b, cfg| {
            b.iter(|| run(&cells, cfg, &Silent).unwrap())
        });
    }
    group.finish();
}

/// Skirmishers reference cells (skirmishers.md section 6): a Rifleman's rifle against an
/// unarmoured Rifleman at short range (one reactive attack a round, TN 6; about 3.07
/// attacks per kill), and the rifle duel of two Rifleman, A's side first.
fn skirmishers_reference_attack_run(c: &mut Criterion) {
    use volley::rules::skirmishers::{AttackRun, Catalogue, Conditions, Duel, Options, RunPolicy};
    let cat = Catalogue::embedded().unwrap();
    let r = cat.trooper("Rifleman").unwrap();
    let at = Conditions { range: 20, ..Conditions::default() };
    let run = AttackRun::new(r, r, &at, &Options::default(), RunPolicy::ActiveWeapon, 50).unwrap();
    bench_kernel(c, "skirmishers_reference_attack_run", &run, 16_777_216);
    let mut o = Options::default();
    o.set("FIRST_SIDE", "a").unwrap();
    bench_kernel(c, "skirmishers_reference_duel", &Duel::new(r, r, &at, &o, 50).unwrap(), 8_388_608);
}

/// One exact TechCommander duel cell (the `duel` bench's cell: Gladiator Skirmisher
/// against Beagle Hunter at 20 inches, 20 turns), solved as a Markov chain.
fn tc_exact_duel(c: &mut Criterion) {
    let d = duel();
    let mut group = c.benchmark_group("tc_exact_duel");
    group.throughput(Throughput::Elements(1));
    group.bench_function("gladiator_skirmisher_vs_beagle_hunter", |b| b.iter(|| d.exact()));
    group.finish();
}

/// One exact MECHCOM duel cell of sides that change each other's state (Kerberos against
/// Valkyrie at melee range, 20 rounds: Shocked, Corroded, Blinded, clearing Corroded),
/// solved as the joint Markov chain.
fn mechcom_exact_duel(c: &mut Criterion) {
    let cat = mechcom::catalogue::Catalogue::embedded().unwrap();
    let (a, b) = (cat.model_named("Kerberos").unwrap(), cat.model_named("Valkyrie").unwrap());
    let d =
        mechcom::DuelKernel::new(&a, &b, &mechcom::Situation::at_range(1), &mechcom::Options::default(), 20).unwrap();
    assert!(!d.independent && d.exact().is_some());
    let mut group = c.benchmark_group("mechcom_exact_duel");
    group.throughput(Throughput::Elements(1));
    group.bench_function("kerberos_vs_valkyrie_melee", |b| b.iter(|| d.exact()));
    group.finish();
}

/// `volley meta`'s equilibrium of a 200-player symmetric game (a fixed pseudo-random
/// matrix, every entry and its mirror summing to 1): the linear program alone, after the
/// matrix is played.
fn meta_equilibrium(c: &mut Criterion) {
    let m = volley::stats::equilibrium::sample_game(200, 7);
    let mut group = c.benchmark_group("meta_equilibrium");
    group.sample_size(10);
    group.throughput(Throughput::Elements(1));
    group.bench_function("200_players", |b| b.iter(|| volley::stats::equilibrium::solve(&m).unwrap()));
    group.finish();
}

fn engine(c: &mut Criterion) {
    bench_kernel(c, "reference_attack_run", &reference(), 16_777_216);
    // A two-system MSV: Lance Railgun then Devastator each turn, against AC4.
    bench_kernel(c, "msv_two_system_attack_run", &catalogue_run("Gladiator Lancer", 4), 2_097_152);
    bench_kernel(c, "duel", &duel(), 524_288);
    bench_kernel(c, "mechcom_reference_attack_run", &mechcom_reference(), 4_194_304);
    bench_kernel(c, "reference_battle", &reference_battle(), 1_048_576);
    skirmishers_reference_attack_run(c);
    shellshock_reference_attack_run(c);
}

criterion_group!(benches, engine, battle_growth, tc_exact_duel, mechcom_exact_duel, meta_equilibrium);
criterion_main!(benches);
