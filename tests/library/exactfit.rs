//! Exact TechCommander duels through the library.

use volley::rules::ruleset::prelude::*;
use volley::rules::techcommander::catalogue::Catalogue;
use volley::rules::techcommander::{Conditions, Options, Policy, TechCommander};

/// Time one exact duel cell (the `duel` bench's: Gladiator Skirmisher against Beagle
/// Hunter at 20 inches, 20 turns). A measurement, not a check: run with
/// `cargo test --test library time_one_exact_duel -- --ignored --nocapture` (the
/// criterion bench `tc_exact_duel` measures release builds).
#[test]
#[ignore]
fn time_one_exact_duel() {
    let cat = Catalogue::embedded().unwrap();
    let c = Conditions::at_range(20.0);
    let duel = TechCommander::duel(
        &cat,
        "Gladiator Skirmisher",
        "Beagle Hunter",
        &c,
        &Options::default(),
        Policy::BestExpected,
        20,
    )
    .unwrap();
    let n = 1000;
    let start = std::time::Instant::now();
    let mut sink = 0.0;
    for _ in 0..n {
        sink += duel.exact().p_a_wins();
    }
    let per = start.elapsed().as_secs_f64() / n as f64;
    eprintln!("one exact duel: {:.3} ms wall ({sink})", per * 1e3);
}
