//! `volley odds-card`: a printable odds card for players, over as many pages as the
//! build's weapon systems need (PNG and SVG pages, one multi-page PDF).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use clap::{Args, ValueEnum, ValueHint};

use super::Invocation;
use super::usage::usage;
use crate::charts::card::{self, Paper};
use crate::charts::pdf::pdf_pages;
use crate::charts::slug;
use crate::output::atomic_file::{Staged, refuse_existing};
use crate::rules::{Role, Ruleset};

#[derive(Debug, Args)]
pub struct OddsCardArgs {
    /// The side the card is for: a TechCommander build, a MECHCOM mech, a Skirmishers
    /// trooper or a Shellshock unit
    #[arg(value_name = "NAME")]
    pub build: String,
    /// Output file: .png (300 dpi), .svg or .pdf [default: odds-card-<build>.png, .svg and
    /// .pdf in the current directory]. A card longer than a page writes numbered PNG and
    /// SVG pages (NAME-p1.png, NAME-p2.png, ...) and one PDF with every page
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath, value_parser = parse_out)]
    pub out: Option<PathBuf>,
    /// Paper size the card is laid out for (0.35 inch margins on every side)
    #[arg(long, value_enum, default_value = "letter")]
    pub paper: PaperArg,
    /// Replace output files that already exist
    #[arg(long)]
    pub force: bool,
    /// Ranges in the game's distance unit, comma-separated [default: TechCommander
    /// 6,12,18,24,30,36,48 inches; MECHCOM each weapon's range bands in hexes;
    /// Skirmishers the weapon's range bands in dots; Shellshock 1,12,24 hexes]
    #[arg(long, value_name = "RANGES", value_delimiter = ',')]
    pub ranges: Vec<f64>,
}

/// Paper sizes on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PaperArg {
    /// US Letter, 8.5 x 11 inches
    Letter,
    /// ISO A4, 210 x 297 mm
    A4,
}

impl From<PaperArg> for Paper {
    fn from(p: PaperArg) -> Paper {
        match p {
            PaperArg::Letter => Paper::Letter,
            PaperArg::A4 => Paper::A4,
        }
    }
}

/// The file formats of a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Png,
    Svg,
    Pdf,
}

impl Format {
    fn of(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()?.to_lowercase().as_str() {
            "png" => Some(Format::Png),
            "svg" => Some(Format::Svg),
            "pdf" => Some(Format::Pdf),
            _ => None,
        }
    }

    fn ext(self) -> &'static str {
        match self {
            Format::Png => "png",
            Format::Svg => "svg",
            Format::Pdf => "pdf",
        }
    }
}

/// `--out` must name a .png, .svg or .pdf file (a usage error otherwise).
fn parse_out(s: &str) -> Result<PathBuf, String> {
    let p = PathBuf::from(s);
    match Format::of(&p) {
        Some(_) => Ok(p),
        None => Err("the odds card is written as .png, .svg or .pdf".into()),
    }
}

/// The files a card of `pages` pages is written to: for each format, the stem with the
/// format's extension, PNG and SVG numbered `-p1`, `-p2`, ... when there are several pages.
fn output_paths(stem: &Path, formats: &[Format], pages: usize) -> Vec<(Format, Option<usize>, PathBuf)> {
    let mut out = Vec::new();
    let name = stem.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    for &f in formats {
        if f == Format::Pdf || pages == 1 {
            out.push((f, None, stem.with_file_name(format!("{name}.{}", f.ext()))));
        } else {
            for k in 0..pages {
                out.push((f, Some(k), stem.with_file_name(format!("{name}-p{}.{}", k + 1, f.ext()))));
            }
        }
    }
    out
}

/// Pages of an earlier card under the same name that this card would not overwrite: the
/// numbered pages beyond its own (all of them for a one-page card), and the plain PNG/SVG
/// name when this card has numbered pages. Left beside the new card they would read as
/// part of it.
fn stale_pages(stem: &Path, formats: &[Format], pages: usize) -> Vec<PathBuf> {
    let name = stem.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut out = Vec::new();
    for &f in formats.iter().filter(|&&f| f != Format::Pdf) {
        if pages > 1 {
            out.push(stem.with_file_name(format!("{name}.{}", f.ext())));
        }
        let first_stale = if pages == 1 { 1 } else { pages + 1 };
        out.extend(
            (first_stale..).map(|k| stem.with_file_name(format!("{name}-p{k}.{}", f.ext()))).take_while(|p| p.exists()),
        );
    }
    out.retain(|p| p.exists());
    out
}

pub fn run<R: Ruleset>(args: &OddsCardArgs, ctx: &Invocation<'_>) -> Result<()> {
    if !R::ODDS_CARDS {
        return Err(usage(format!("odds cards are not available for {} yet", R::LABEL)));
    }
    if args.ranges.iter().any(|r| !r.is_finite() || *r < 0.0) {
        return Err(usage("--ranges must list ranges of at least 0"));
    }
    let cat = ctx.setting.catalogue.load::<R>()?;
    let name = R::display_name(&cat, Role::Attacker, &args.build).map_err(|e| anyhow!(e))?;
    let card = R::odds_card(&cat, &name, &args.ranges, &ctx.setting.options::<R>()?).map_err(|e| anyhow!(e))?;
    let pages = card::layout(&card, args.paper.into()).map_err(|e| anyhow!(e))?;
    let (stem, formats) = match &args.out {
        Some(p) => (p.with_extension(""), vec![Format::of(p).expect("checked by the argument parser")]),
        None => (PathBuf::from(format!("odds-card-{}", slug(&name))), vec![Format::Png, Format::Svg, Format::Pdf]),
    };
    let outputs = output_paths(&stem, &formats, pages.len());
    let stale = stale_pages(&stem, &formats, pages.len());
    let paths: Vec<PathBuf> = outputs.iter().map(|(_, _, p)| p.clone()).chain(stale.iter().cloned()).collect();
    refuse_existing(&paths, args.force)?;
    let needs_svg = formats.iter().any(|f| matches!(f, Format::Svg | Format::Pdf));
    let svgs: Vec<String> = if needs_svg {
        pages.iter().map(|p| p.svg()).collect::<Result<_, _>>().map_err(|e| anyhow!(e))?
    } else {
        Vec::new()
    };
    // Every file is staged first and renamed into place together: an error or a signal
    // before the renames leaves none of them (and the old card, if any, as it was).
    let mut staged = Staged::new(args.force);
    for (format, page, path) in &outputs {
        super::signals::check()?;
        let bytes = match (format, page) {
            (Format::Pdf, _) => pdf_pages(&svgs, args.paper.into()).map_err(|e| anyhow!(e))?,
            (Format::Svg, k) => pages[k.unwrap_or(0)].svg_file().map_err(|e| anyhow!(e))?.into_bytes(),
            (Format::Png, k) => pages[k.unwrap_or(0)].png().map_err(|e| anyhow!(e))?,
        };
        staged.stage(path, &bytes)?;
    }
    super::signals::check()?;
    for path in staged.commit()? {
        eprintln!("wrote {}", path.display());
    }
    for path in &stale {
        crate::output::fault::remove_file(path).with_context(|| format!("cannot remove {}", path.display()))?;
        eprintln!("removed {} (a page of the card it replaces)", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_numbered_only_when_there_are_several() {
        let all = [Format::Png, Format::Svg, Format::Pdf];
        let names = |n| -> Vec<String> {
            output_paths(Path::new("out/card"), &all, n).iter().map(|(_, _, p)| p.display().to_string()).collect()
        };
        assert_eq!(names(1), ["out/card.png", "out/card.svg", "out/card.pdf"]);
        assert_eq!(
            names(2),
            ["out/card-p1.png", "out/card-p2.png", "out/card-p1.svg", "out/card-p2.svg", "out/card.pdf"]
        );
        assert!(parse_out("card.PDF").is_ok() && parse_out("card.jpg").is_err() && parse_out("card").is_err());
    }
}
