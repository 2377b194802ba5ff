//! Argument groups shared by several commands, and their conversion to validated types.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueHint};

use crate::catalogue::Layers;
use crate::output::Format;
use crate::rules::techcommander::catalogue::{CATALOGUE_DIR, Catalogue};
use crate::rules::techcommander::{AttackMode, Conditions, Cover, Movement, Smoke, Status, Statuses, TargetSpec};

use super::usage::usage;

/// The environment variable that names a catalogue directory like `--loadouts`.
pub const LOADOUTS_ENV: &str = "VOLLEY_LOADOUTS";

/// Which catalogue to use.
#[derive(Debug, Clone, Args)]
pub struct CatalogArgs {
    /// Catalogue directory of .toml/.csv files, replacing the built-in default catalogue
    /// [env: VOLLEY_LOADOUTS; set but empty = not set]
    #[arg(long, global = true, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub loadouts: Option<PathBuf>,
    /// More catalogue files (a directory or a file) added to the active catalogue;
    /// repeatable. They may use its units, weapons and gear; a name defined in both is an
    /// error naming both places
    #[arg(long = "add-loadouts", global = true, value_name = "PATH", value_hint = ValueHint::AnyPath)]
    pub add_loadouts: Vec<PathBuf>,
}

impl CatalogArgs {
    /// The base catalogue directory: `--loadouts`, else `VOLLEY_LOADOUTS` when set and not
    /// empty; `None` = the embedded default catalogue.
    pub fn base_dir(&self) -> Option<PathBuf> {
        self.loadouts.clone().or_else(|| std::env::var_os(LOADOUTS_ENV).filter(|v| !v.is_empty()).map(PathBuf::from))
    }

    /// The active catalogue's files: the base and the `--add-loadouts` additions.
    pub fn layers(&self) -> Layers {
        let mut layers = Layers::base(self.base_dir().as_deref(), CATALOGUE_DIR);
        if !self.add_loadouts.is_empty() {
            layers.add(&self.add_loadouts);
        }
        layers
    }

    /// The active catalogue: `--loadouts`/`VOLLEY_LOADOUTS`, else the embedded default,
    /// extended by `--add-loadouts`.
    pub fn load(&self) -> Result<Catalogue> {
        self.load_adding(&[])
    }

    /// The active catalogue extended by the catalogue files under `extra` too (a
    /// scenario's `loadouts_add`).
    pub fn load_adding(&self, extra: &[PathBuf]) -> Result<Catalogue> {
        let mut layers = self.layers();
        if !extra.is_empty() {
            layers.add(extra);
        }
        let origin = layers.origin();
        layers.load(Catalogue::from_read).with_context(|| {
            if self.base_dir().is_none() && self.add_loadouts.is_empty() && extra.is_empty() {
                "the built-in catalogue is invalid".to_string()
            } else {
                format!("cannot use the {origin}")
            }
        })
    }
}

fn options<T: std::str::FromStr + Clone + Send + Sync + 'static>(
    names: &'static [&'static str],
) -> impl TypedValueParser<Value = T>
where
    T::Err: std::fmt::Debug,
{
    PossibleValuesParser::new(names).map(|s| s.parse::<T>().expect("a listed name parses"))
}

/// The conditions of an attack.
#[derive(Debug, Clone, Args)]
pub struct ConditionArgs {
    /// Range to the target in inches (at least 0); rounded up for range penalties and minimum range
    #[arg(long, default_value_t = 12.0, value_name = "INCHES", allow_negative_numbers = true, value_parser = parse_range)]
    pub range: f64,
    /// Cover of the target: minor -1, half -2, heavy -3, blocked = no shot (NLOS weapons -6)
    #[arg(long, default_value = "none", value_parser = options::<Cover>(Cover::NAMES))]
    pub cover: Cover,
    /// Smoke on the line of fire: -6, or -3 when the target is laser designated
    #[arg(long, default_value = "none", value_parser = options::<Smoke>(Smoke::NAMES))]
    pub smoke: Smoke,
    /// How the attacker moved: half -1, full -4 (vehicles -1 at any speed), pop-and-shoot -1, jump-assault -4, offload -1
    #[arg(long = "move", default_value = "stationary", value_name = "MOVEMENT", value_parser = options::<Movement>(Movement::NAMES))]
    pub movement: Movement,
    /// Target status, repeatable: dug-in -2, hull-down -2 (vehicles), posted-up -2 (with cover), forest -2
    #[arg(long = "status", value_name = "STATUS", value_parser = options::<Status>(Status::NAMES))]
    pub statuses: Vec<Status>,
    /// The target is laser designated (missiles ignore cover; smoke is -3)
    #[arg(long)]
    pub designated: bool,
    /// The attacker is in the red and failed its jury-rig roll: no fire control
    #[arg(long)]
    pub jury_rig_failed: bool,
    /// The attacker is under-crewed: no fire control and no second action
    #[arg(long)]
    pub under_crewed: bool,
    /// A friendly MSV is on the field (Pirate Combined Arms +2 fire control)
    #[arg(long)]
    pub friendly_msv: bool,
    /// Attack action: normal, omega-override (MSV, all weapons, no positive modifiers), fire-for-effect (-4), fire-for-effect-blind (-8, NLOS)
    #[arg(long, default_value = "normal", value_parser = options::<AttackMode>(AttackMode::NAMES))]
    pub mode: AttackMode,
}

/// `--range`: a distance in inches, at least 0 and at most [`MAX_RANGE`].
fn parse_range(text: &str) -> Result<f64, String> {
    let r: f64 =
        text.trim().parse().map_err(|_| "give the range as a number of inches, e.g. 12 or 26.5".to_string())?;
    if !r.is_finite() || r < 0.0 {
        return Err("the range is a distance in inches between attacker and target: a number of at least 0".into());
    }
    if r > MAX_RANGE {
        return Err(format!("a range is at most {MAX_RANGE} inches"));
    }
    Ok(r)
}

/// The longest `--range` accepted, in inches (beyond any table).
pub const MAX_RANGE: f64 = 100_000.0;

/// Help texts of [`ConditionArgs`] where both sides fire at each other (duel, gauntlet):
/// every condition applies to each build, as attacker and as target.
const BOTH_SIDES_HELP: [(&str, &str); 10] = [
    ("range", "Range between the two builds in inches (at least 0); rounded up for range penalties and minimum range"),
    (
        "cover",
        "Cover of both builds (each fires at the other in it): minor -1, half -2, heavy -3, blocked = no shot (NLOS weapons -6)",
    ),
    ("smoke", "Smoke on the line of fire between the builds: -6, or -3 when the target is laser designated"),
    (
        "movement",
        "How both builds moved: half -1, full -4 (vehicles -1 at any speed), pop-and-shoot -1, jump-assault -4, offload -1",
    ),
    (
        "statuses",
        "Status of both builds, repeatable: dug-in -2, hull-down -2 (vehicles), posted-up -2 (with cover), forest -2",
    ),
    ("designated", "Both builds are laser designated (missiles ignore cover; smoke is -3)"),
    ("jury_rig_failed", "Both builds are in the red and failed their jury-rig rolls: no fire control"),
    ("under_crewed", "Both builds are under-crewed: no fire control and no second action"),
    ("friendly_msv", "Each build has a friendly MSV on the field (Pirate Combined Arms +2 fire control)"),
    ("mode", "Attack action of both builds: normal, fire-for-effect (-4), fire-for-effect-blind (-8, NLOS)"),
];

/// Rewrite the condition options' help for a command where two builds fire at each other.
pub fn conditions_on_both_sides(cmd: clap::Command) -> clap::Command {
    BOTH_SIDES_HELP.iter().fold(cmd, |cmd, &(id, help)| cmd.mut_arg(id, |a| a.help(help)))
}

impl ConditionArgs {
    /// The conditions of one attack.
    ///
    /// # Errors
    /// A [`super::usage::UsageError`] when the options contradict each other.
    pub fn conditions(&self) -> Result<Conditions> {
        let c = Conditions {
            range: self.range,
            cover: self.cover,
            smoke: self.smoke,
            movement: self.movement,
            statuses: Statuses::from_list(&self.statuses),
            designated: self.designated,
            jury_rig_failed: self.jury_rig_failed,
            under_crewed: self.under_crewed,
            friendly_msv: self.friendly_msv,
            mode: self.mode,
        };
        c.validate().map_err(usage)?;
        Ok(c)
    }

    /// The conditions of engagements (attack runs, duels): as [`Self::conditions`], and
    /// `--mode omega-override` (an odds-only action) is a usage error.
    pub fn engagement_conditions(&self) -> Result<Conditions> {
        if self.mode == AttackMode::OmegaOverride {
            return Err(usage(
                "--mode omega-override is an odds-only mode (use `volley odds`); engagements fire one weapon system per action",
            ));
        }
        self.conditions()
    }
}

/// The target: a catalogue unit or build, or a generic armor class.
#[derive(Debug, Clone, Args)]
#[group(required = true, multiple = false)]
pub struct TargetArgs {
    /// Target unit or build from the catalogue (or ac:N)
    #[arg(long, value_name = "UNIT")]
    pub target: Option<String>,
    /// Generic target of this armor class (20 life, no gear)
    #[arg(long, value_name = "AC", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub target_ac: Option<u32>,
}

impl TargetArgs {
    pub fn spec(&self) -> Result<TargetSpec> {
        match (&self.target, self.target_ac) {
            (Some(name), _) => TargetSpec::parse(name).map_err(usage),
            (None, Some(ac)) => Ok(TargetSpec::Ac(ac)),
            (None, None) => Err(usage("give --target UNIT or --target-ac N")),
        }
    }
}

/// Output format on stdout.
#[derive(Debug, Clone, Args)]
pub struct FormatArgs {
    /// Output format: aligned table, CSV, or JSON
    #[arg(long, default_value = "table", value_parser = options::<Format>(&Format::NAMES))]
    pub format: Format,
}
