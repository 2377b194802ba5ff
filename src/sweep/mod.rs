//! Sweeps: scenario files, grid expansion and cell keys, and the result tables, for any
//! ruleset (generic over [`crate::rules::Ruleset`]; this room names none). Depends on
//! the engine and rules; writes no files (the CLI does, through `output`).

pub mod battle_seats;
pub mod battle_teams;
pub mod battles;
pub mod cells;
pub mod column_guide;
pub mod compare;
pub mod diff;
pub mod diff_notes;
pub mod diff_summary;
pub mod fit;
pub mod fit_joint;
pub mod fit_link;
pub mod forces;
pub mod gauntlet;
pub mod limits;
pub mod meta;
pub mod per_cost;
pub mod reach;
pub mod run;
pub mod scenario;
pub mod search;
pub mod search_candidate;
pub mod search_exact;
pub mod search_forces;
pub mod search_measure;
pub mod search_metric;
pub mod seatings;
pub mod shard;
pub mod tables;
pub mod vary;
pub mod vary_axis;

pub use forces::Generate;
pub use run::{SweepOutput, run_sweep, run_sweep_with};
pub use scenario::{BattleSpec, DEFAULT_SCENARIO, Engagement, Grid, Resolved, Scenario, ScenarioText};
