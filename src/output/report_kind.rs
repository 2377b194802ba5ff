//! The kinds of report volley writes, and the file name of the column guide written into
//! every report.

use std::fmt;

use serde_json::Value;

/// The kinds of report volley writes. The manifest's `kind` field names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportKind {
    /// `volley sweep` of an attack-run scenario.
    AttackRunSweep,
    /// `volley sweep` of a duel scenario (`volley sweep duels`).
    DuelSweep,
    /// `volley gauntlet`.
    Gauntlet,
    /// `volley sweep` of a battle scenario (`volley sweep battles`).
    BattleSweep,
}

impl ReportKind {
    pub const ALL: [ReportKind; 4] =
        [ReportKind::AttackRunSweep, ReportKind::DuelSweep, ReportKind::Gauntlet, ReportKind::BattleSweep];

    /// The manifest's `kind` value.
    pub fn name(self) -> &'static str {
        match self {
            ReportKind::AttackRunSweep => "attack-run-sweep",
            ReportKind::DuelSweep => "duel-sweep",
            ReportKind::Gauntlet => "gauntlet",
            ReportKind::BattleSweep => "battle-sweep",
        }
    }

    /// The kind a manifest states; for a manifest written before volley recorded it, the
    /// kind its contents and tables show (`has_table` says whether a table file exists).
    ///
    /// # Errors
    /// A `kind` this volley does not know, or an old manifest that shows no known kind.
    pub fn of_manifest(manifest: &Value, has_table: &dyn Fn(&str) -> bool) -> Result<ReportKind, String> {
        if let Some(kind) = manifest.get("kind") {
            let name = kind.as_str().unwrap_or("");
            return ReportKind::ALL.into_iter().find(|k| k.name() == name).ok_or_else(|| {
                format!(
                    "manifest.json says this is a `{}` report, which this volley cannot draw (it draws {})",
                    kind.as_str().map_or_else(|| kind.to_string(), str::to_string),
                    ReportKind::ALL.map(ReportKind::name).join(", ")
                )
            });
        }
        // Older manifests: gauntlets record a field, sweeps their scenario's engagement.
        if manifest.get("field").is_some() || has_table("gauntlet_summary") {
            return Ok(ReportKind::Gauntlet);
        }
        match manifest["scenario"]["engagement"].as_str() {
            Some("attack-run") => return Ok(ReportKind::AttackRunSweep),
            Some("duel") => return Ok(ReportKind::DuelSweep),
            Some("battle") => return Ok(ReportKind::BattleSweep),
            _ => {}
        }
        if has_table("duels") {
            Ok(ReportKind::DuelSweep)
        } else if has_table("ttk_by_turn") || has_table("time_to_kill") {
            Ok(ReportKind::AttackRunSweep)
        } else {
            Err("manifest.json does not say what kind of report this is (no `kind`), and its tables match none \
                 volley writes (a sweep's time_to_kill or duels, a gauntlet's gauntlet_summary)"
                .into())
        }
    }
}

impl fmt::Display for ReportKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The column guide's file name in a report directory: the guide of every table volley
/// writes, rendered from the tables' declarations (`sweep::column_guide`; the repository
/// keeps the same text as `reports/COLUMNS.md`).
pub const COLUMN_GUIDE_FILE: &str = "COLUMNS.md";
