//! Statistics: intervals and mergeable integer tallies. A leaf module: no rules, no I/O.

pub mod binomial;
pub mod duel;
pub mod equilibrium;
pub mod estimate;
pub mod exact;
pub mod initiative;
pub mod interval;
pub mod joint;
pub mod metric;
pub mod newcombe;
pub mod paired;
pub mod racing;
pub mod tolerance;
pub mod ttk;

pub use duel::{DuelSummary, DuelTally};
pub use exact::{ExactDuelOdds, ExactTtk};
pub use initiative::{Conditional, DECIDED_BY_INITIATIVE, InitiativeSplit};
pub use interval::{Interval, Z95, mean_interval, wilson, wilson95};
pub use joint::{JointTable, Standing};
pub use metric::Metric;
pub use paired::{PairedSummary, PairedTally, Scale};
pub use ttk::{TtkSummary, TtkTally};
