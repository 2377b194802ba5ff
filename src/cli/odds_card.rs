//! `volley odds-card`: a one-page printable odds card for players.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, ValueHint};

use super::args::CatalogArgs;
use crate::charts::data::Heatmap;
use crate::charts::{Chart, ChartKind, slug};
use crate::rules::techcommander::{Attacker, Conditions, Smoke, Target, system_odds};

#[derive(Debug, Args)]
pub struct OddsCardArgs {
    /// Build from the catalogue
    #[arg(value_name = "BUILD")]
    pub build: String,
    /// Output file: .png (300 dpi) or .svg [default: odds-card-<build>.png and .svg in the current directory]
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub out: Option<PathBuf>,
    /// Range bands in inches, comma-separated
    #[arg(long, value_name = "INCHES", value_delimiter = ',', default_value = "6,12,18,24,30,36,48")]
    pub ranges: Vec<f64>,
}

/// The card's heatmaps: per weapon system, target AC 1-6 against range, open and smoke.
pub fn card_maps(attacker: &Attacker, ranges: &[f64]) -> Vec<Heatmap> {
    let acs: Vec<u32> = (1..=6).collect();
    attacker
        .systems
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let w = &s.weapon;
            let mut panels = Vec::new();
            let mut notes = Vec::new();
            for (name, smoke) in [("In the open", Smoke::None), ("In smoke", Smoke::Smoke)] {
                let mut grid = Vec::new();
                let mut note_grid = Vec::new();
                for &ac in &acs {
                    let mut row = Vec::new();
                    let mut note_row = Vec::new();
                    for &range in ranges {
                        let c = Conditions { range, smoke, ..Conditions::default() };
                        let o = system_odds(attacker, i, &Target::generic(ac), &c);
                        match o.target_number() {
                            Some(t) => {
                                row.push(o.p_hit());
                                note_row.push(Some(if t >= 20 {
                                    "always".into()
                                } else if t <= 0 {
                                    "never".into()
                                } else {
                                    format!("roll ≤{t}")
                                }));
                            }
                            None => {
                                row.push(None);
                                note_row.push(Some("no shot".into()));
                            }
                        }
                    }
                    grid.push(row);
                    note_grid.push(note_row);
                }
                panels.push((name.to_string(), grid));
                notes.push(note_grid);
            }
            let copies = if s.copies > 1 { format!(" ×{} linked", s.copies) } else { String::new() };
            let mut facts = vec![
                format!("{} d20 per action", s.dice()),
                format!("{} damage a hit", w.damage),
                format!("FC {:+}", w.fire_control),
                format!("OPT {}", w.opt),
            ];
            if w.drop > 0 {
                facts.push(format!("−{} per {} beyond", w.drop, w.drop_per));
            }
            if w.min > 0 {
                facts.push(format!("MIN {}", w.min));
            }
            if w.nlos {
                facts.push("NLOS".into());
            }
            if w.rounds > 0 {
                facts.push(format!("{} rounds", w.rounds));
            }
            Heatmap {
                title: format!("{}{copies}: {}", w.name, facts.join(", ")),
                x_label: "Range (inches)".into(),
                y_label: "Target AC".into(),
                x: ranges.iter().map(|r| format!("{r}")).collect(),
                y: acs.iter().map(|a| format!("AC{a}")).collect(),
                panels,
                notes: Some(notes),
                scale_label: "P(hit) per shot".into(),
            }
        })
        .collect()
}

pub fn run(args: &OddsCardArgs, catalog: &CatalogArgs) -> Result<()> {
    let cat = catalog.load()?;
    let build = cat.find_build(&args.build).map_err(|e| anyhow!(e))?;
    if args.ranges.is_empty() || args.ranges.iter().any(|r| !r.is_finite() || *r < 0.0) {
        bail!("--ranges must list ranges of at least 0 inches");
    }
    let attacker = Attacker::from_build(&cat, build);
    let unit = cat.unit_of(build);
    let bonus =
        if attacker.to_hit_bonus != 0 { format!(", {:+} to hit", attacker.to_hit_bonus) } else { String::new() };
    let chart = Chart {
        name: format!("odds-card-{}", slug(&build.name)),
        kind: ChartKind::Page {
            title: format!("Odds card: {} ({} AC{}{bonus})", build.name, unit.kind, unit.ac),
            subtitle:
                "Hit chance per shot and the roll needed (d20, roll that or less): stationary, target in the open"
                    .into(),
            maps: card_maps(&attacker, &args.ranges),
        },
    };
    let footer = format!(
        "volley {} · TechCommander · catalogue {} ({}) · cover: −1 minor, −2 half, −3 heavy · moving: −1 half, −4 full",
        env!("CARGO_PKG_VERSION"),
        cat.hash,
        cat.origin
    );
    let outputs: Vec<PathBuf> = match &args.out {
        Some(p) => vec![p.clone()],
        None => vec![PathBuf::from(format!("{}.png", chart.name)), PathBuf::from(format!("{}.svg", chart.name))],
    };
    for path in &outputs {
        let bytes = match path.extension().and_then(|e| e.to_str()).map(str::to_lowercase).as_deref() {
            Some("png") => chart.png(&footer).map_err(|e| anyhow!(e))?,
            Some("svg") => chart.svg(&footer).map_err(|e| anyhow!(e))?.into_bytes(),
            _ => bail!("{}: the odds card is written as .png or .svg", path.display()),
        };
        write_atomically(path, &bytes)?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

/// Write to a temporary file beside `path`, then rename: never a half-written card.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).with_context(|| format!("cannot write in {}", dir.display()))?;
    std::io::Write::write_all(&mut tmp, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    tmp.persist(path).map_err(|e| anyhow!("cannot write {}: {}", path.display(), e.error))?;
    Ok(())
}
