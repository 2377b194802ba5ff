//! The conformance contract: every command on every registered ruleset, one generic suite.
//!
//! [`FIXTURES`] holds one entry per ruleset: the names the commands need (an attacker, a
//! target, a duel pair, a field, forces where the game has battles, selectors, a file of
//! additions, a scenario grid), a non-default option and the catalogue's sections, for
//! (a) the ruleset's built-in catalogue and (b) a small catalogue written by the test
//! into a temporary directory (`catalogues.rs`, not in the repository). Adding a ruleset
//! means adding one entry (and its small catalogue); `contract_every_registered_ruleset_has_a_fixture`
//! fails until it is there.
//!
//! The contract checked on every output (`checks.rs`):
//! - exit codes: 0 on success; a command a ruleset does not have exits 2 saying it is
//!   not available for that ruleset;
//! - JSON keys: one common set of keys per command, whatever the ruleset;
//! - table columns: `odds` has `attacker`, `target` and `weapon`;
//! - 95% intervals: every `*_ci95` pair and `*_ci95_low`/`*_ci95_high` column pair has
//!   low <= estimate <= high, within [0, 1] for probabilities;
//! - no `-0` anywhere (text, CSV, JSON), no float noise (`0.5500000000000002`) anywhere,
//!   and exact outputs at most `output::number::EXACT_DIGITS` (14) significant digits;
//! - the header echoes every non-default option (`contract_header_echoes_non_default_options`).
//!
//! Tests named `contract_pending_<branch>_...` check parts of the contract another line
//! of work delivers; they fail until it lands. Every run is small (a few dozen trials).

use std::path::{Path, PathBuf};

use super::*;

mod battles;
mod catalogues;
mod checks;
mod engagements;
mod listings;
mod pending;
mod registry;
mod reports;
mod verdicts;

pub use checks::Problems;

/// What the commands of one ruleset need from one catalogue.
#[derive(Debug, Clone, Copy)]
pub struct Names {
    /// An attacker for `odds` and `ttk`, also the side of `compare`, `gauntlet` and `fit`.
    pub attacker: &'static str,
    /// A target it can reach under the default conditions.
    pub target: &'static str,
    /// Two sides for `duel` and `compare`.
    pub duel: (&'static str, &'static str),
    /// A field for `gauntlet`, `compare --against` and `fit`.
    pub field: &'static str,
    /// Two forces for `battle`, where the game has battles.
    pub forces: Option<(&'static str, &'static str)>,
    /// Every selector form the ruleset has (`all`, `kind:`, `faction:`, `era:`, `squad:`),
    /// each selecting at least one side of this catalogue.
    pub selectors: &'static [&'static str],
    /// A file of additions (TOML) that uses this catalogue's entries.
    pub additions: &'static str,
}

/// One registered ruleset: its fixture for both catalogues.
#[derive(Debug, Clone, Copy)]
pub struct Fixture {
    pub ruleset: &'static str,
    /// Every section `catalog` lists (`volley rulesets` calls them listings).
    pub listings: &'static [&'static str],
    /// A non-default option, `NAME=VALUE`, that every engagement of the ruleset reads.
    pub option: &'static str,
    /// A boolean option (for the value syntax every ruleset must accept).
    pub switch: &'static str,
    /// `[grid]` lines of the small sweep scenario (one axis, two values).
    pub grid: &'static str,
    /// The game has battles (`battle`, `compare --battle`, `gauntlet --battle`).
    pub battles: bool,
    /// The game has odds cards.
    pub odds_card: bool,
    pub builtin: Names,
    pub tiny: Names,
    /// The small catalogue's one file.
    pub tiny_catalogue: &'static str,
}

/// Every registered ruleset's fixture.
pub const FIXTURES: &[Fixture] = &[
    Fixture {
        ruleset: "techcommander",
        listings: &["builds", "weapons", "units", "gear", "fields", "forces"],
        option: "HALF_COVER_PENALTY=3",
        switch: "NO_AUTOMATIC_HIT_OR_MISS",
        grid: "range = [12, 24]",
        battles: true,
        odds_card: true,
        builtin: Names {
            attacker: "Dwarf ALPHA",
            target: "Stingray Standard",
            duel: ("Dwarf ALPHA", "Beagle Hunter"),
            field: "meta",
            forces: Some(("Lance Group", "Siege Group")),
            selectors: &["all", "kind:msv", "kind:vehicle"],
            additions: "[[build]]\nname = \"Extra Dwarf\"\nunit = \"Dwarf\"\nweapons = [{ name = \"Devastator\" }]\n",
        },
        tiny: Names {
            attacker: "Bot Zap",
            target: "Walker Lob",
            duel: ("Bot Zap", "Walker Lob"),
            field: "tiny-field",
            forces: Some(("Zap Pair", "Lob Pair")),
            selectors: &["all", "kind:msv", "kind:vehicle"],
            additions: "[[build]]\nname = \"Extra Bot\"\nunit = \"Tinybot\"\nweapons = [{ name = \"Tiny Lobber\" }]\n",
        },
        tiny_catalogue: catalogues::TECHCOMMANDER,
    },
    Fixture {
        ruleset: "mechcom",
        listings: &["mechs", "weapons", "pilots", "squads", "fields", "forces"],
        option: "SIX_ALWAYS_CRITS=false",
        switch: "SIX_ALWAYS_CRITS",
        grid: "range = [2, 4]",
        battles: true,
        odds_card: true,
        builtin: Names {
            attacker: "Wasp",
            target: "Kerberos",
            duel: ("Wasp", "Kerberos"),
            field: "arena",
            forces: Some(("Kerberos Pack", "Hornet Lance")),
            selectors: &["all", "faction:I.C.S.E.", "squad:Hornet Wing"],
            additions: "[[mech]]\nname = \"Extra Wasp\"\nfaction = \"I.C.S.E.\"\ncost = 185\nenergy = 9\nmovement = 6\n\
                        sensors = 10\nstability = 3\nstrength = 0\narmour = 3\nintegrity = 8\nweapons = [\"Buzzkil Rifle\"]\n",
        },
        tiny: Names {
            attacker: "Sparker",
            target: "Plodder",
            duel: ("Sparker", "Plodder"),
            field: "spark-field",
            forces: Some(("Spark Pair", "Plod Trio")),
            selectors: &["all", "faction:Corpro", "squad:Spark Squad"],
            additions: "[[mech]]\nname = \"Extra Sparker\"\nfaction = \"Corpro\"\ncost = 200\nenergy = 7\nmovement = 4\n\
                        sensors = 8\nstability = 3\nstrength = 0\narmour = 3\nintegrity = 7\nweapons = [\"Spark Rifle\"]\n",
        },
        tiny_catalogue: catalogues::MECHCOM,
    },
    Fixture {
        ruleset: "skirmishers",
        listings: &["troopers", "weapons", "squads", "forces"],
        option: "NO_AUTOMATIC_RESULT=false", // as headers print it (canonical); `off` is read too
        switch: "NO_AUTOMATIC_RESULT",
        grid: "range = [5, 20]",
        battles: true,
        odds_card: true,
        builtin: Names {
            attacker: "Rifleman",
            target: "Machine Gunner",
            duel: ("Rifleman", "Grenadier"),
            field: "Rifle squad",
            forces: Some(("Rifle squad", "4*Rifleman+2*Machine Gunner+Grenadier")),
            selectors: &["all", "squad:Weapons squad"],
            additions: "[[trooper]]\nname = \"Extra Rifleman\"\nprimary = \"Rifle\"\nsecondary = \"Pistol\"\n",
        },
        tiny: Names {
            attacker: "Carbine Hand",
            target: "Vested Hand",
            duel: ("Carbine Hand", "Vested Hand"),
            field: "Tiny Vests",
            forces: Some(("Tiny Team", "Tiny Vests")),
            selectors: &["all", "squad:Tiny Team"],
            additions: "[[trooper]]\nname = \"Extra Hand\"\nprimary = \"Tiny Carbine\"\ngrenades = 0\n",
        },
        tiny_catalogue: catalogues::SKIRMISHERS,
    },
    Fixture {
        ruleset: "shellshock",
        listings: &["units", "weapons", "charts", "fields", "forces"],
        option: "SECOND_20_DESTROYS=false",
        switch: "SECOND_20_DESTROYS",
        grid: "range = [12, 36]",
        battles: true,
        odds_card: true,
        builtin: Names {
            attacker: "Panzer IV",
            target: "Jagdpanther",
            duel: ("Panzer IV", "Jagdpanther"),
            field: "ww2",
            forces: Some(("Panzer column", "Modern pair")),
            selectors: &["all", "era:ww2", "era:modern"],
            additions: "[[field]]\nname = \"extra-field\"\nopponents = [\"Panzer IV\", \"Jagdpanther\"]\n",
        },
        tiny: Names {
            attacker: "Tiny Tank",
            target: "Tiny Scout",
            duel: ("Tiny Tank", "Tiny Scout"),
            field: "tiny-pair",
            forces: Some(("Tiny Lance", "5*Tiny Tank")),
            selectors: &["all", "era:ww2", "era:modern"],
            additions: "[[field]]\nname = \"extra-field\"\nopponents = [\"Tiny Scout\"]\n",
        },
        tiny_catalogue: catalogues::SHELLSHOCK,
    },
];

/// One ruleset on one catalogue: the built-in one, or its small one in a temp dir.
pub struct Case {
    pub fx: &'static Fixture,
    pub names: &'static Names,
    /// `ruleset/builtin` or `ruleset/tiny`, for messages.
    pub label: String,
    tiny: Option<tempfile::TempDir>,
}

impl Case {
    /// The global arguments that select the ruleset and the catalogue.
    pub fn globals(&self) -> Vec<String> {
        let mut v = vec!["--ruleset".to_string(), self.fx.ruleset.to_string()];
        if let Some(d) = &self.tiny {
            v.push("--loadouts".into());
            v.push(d.path().display().to_string());
        }
        v
    }

    /// The catalogue's directory (for `diff`).
    pub fn catalogue_path(&self) -> PathBuf {
        match &self.tiny {
            Some(d) => d.path().to_path_buf(),
            None => Path::new(env!("CARGO_MANIFEST_DIR")).join("loadouts").join(self.fx.ruleset),
        }
    }

    /// Run `volley GLOBALS ARGS`.
    pub fn run(&self, args: &[&str]) -> Run {
        let out = volley().args(self.globals()).args(args).output().unwrap();
        Run {
            what: format!("{}: volley {}", self.label, args.join(" ")),
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// A scenario of attack runs (or duels) of this catalogue's names over the fixture's
    /// grid, written into `dir`.
    pub fn scenario(&self, dir: &Path, engagement: &str) -> PathBuf {
        let n = self.names;
        let sides = match engagement {
            "duel" => format!("attackers = [\"{}\"]\nopponents = [\"{}\"]\n", n.duel.0, n.duel.1),
            _ => format!("attackers = [\"{}\", \"{}\"]\ntargets = [\"{}\"]\n", n.attacker, n.duel.1, n.target),
        };
        let text = format!(
            "ruleset = \"{}\"\nname = \"conformance-{engagement}\"\ndescription = \"conformance\"\n\
             engagement = \"{engagement}\"\nseed = 3\ntrials = 40\nmax_turns = 6\n{sides}\n[grid]\n{}\n",
            self.fx.ruleset, self.fx.grid
        );
        let path = dir.join(format!("conformance-{engagement}.toml"));
        fs::write(&path, text).unwrap();
        path
    }
}

/// What one run of the binary gave.
#[derive(Debug)]
pub struct Run {
    pub what: String,
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn json(&self) -> Option<serde_json::Value> {
        serde_json::from_str(&self.stdout).ok()
    }
}

/// Every fixture on both of its catalogues.
pub fn cases() -> Vec<Case> {
    FIXTURES
        .iter()
        .flat_map(|fx| {
            let tiny = catalogue_dir(&[("catalogue.toml", fx.tiny_catalogue)]);
            [
                Case { fx, names: &fx.builtin, label: format!("{}/builtin", fx.ruleset), tiny: None },
                Case { fx, names: &fx.tiny, label: format!("{}/tiny", fx.ruleset), tiny: Some(tiny) },
            ]
        })
        .collect()
}
