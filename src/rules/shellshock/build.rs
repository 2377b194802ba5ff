//! Crew prices and re-skilled units: the `[[crew]]` and `[[build]]` catalogue entries.
//!
//! The book gives every pilot and gunner an ECV "based on their skill level" and totals a
//! force as unit ECV + crew ECV + component ECV (shellshock.md §4), but prints no number.
//! So crew ECV is data (`ECV_FROM_CARD`): a `[[crew]]` entry prices one skill level of one
//! role (`role = "gunner"` for Gunnery, `"pilot"` for Piloting).
//!
//! A `[[build]]` is a `[[unit]]` card with some of its crew re-skilled
//! (`gunnery = { G1 = 3 }`, `piloting = 2`). Ruling `CREW_ECV_SWAP`: a card's `ecv` is the
//! unit as it takes the field, its card crew included, so a build's ECV is the card's plus,
//! for each re-skilled member, the new level's crew ECV minus the card level's. A crew
//! member the card gives no skill is priced at level 0 (`SKILL_DEFAULT`'s value: ECV is
//! card data, whatever a scenario's option plays). A member whose level does not change
//! needs no price. A gunner who is also the pilot (`pilot = k`) is priced for both skills.

use crate::catalogue::fields::Fields;

use super::unit::Unit;

/// The crew role a `[[crew]]` entry prices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrewRole {
    /// A gunner's Gunnery skill.
    Gunner,
    /// The pilot's Piloting skill.
    Pilot,
}

impl CrewRole {
    pub const NAMES: [&'static str; 2] = ["gunner", "pilot"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The skill this role's level is (`Gunnery`, `Piloting`).
    pub fn skill(self) -> &'static str {
        match self {
            CrewRole::Gunner => "Gunnery",
            CrewRole::Pilot => "Piloting",
        }
    }
}

/// The ECV of one crew member of `role` at skill `level` (a `[[crew]]` entry).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CrewPrice {
    pub role: CrewRole,
    /// Gunnery or Piloting level, −10..=20 (the range a card's `skill` takes).
    pub level: i32,
    /// ECV, ≥ 0.
    pub ecv: f64,
}

/// The lowest and highest skill level a card or a `[[crew]]` entry may carry.
pub const SKILL_RANGE: (i64, i64) = (-10, 20);

/// The skill level a card gives no skill is priced at (`SKILL_DEFAULT`'s default).
pub const UNSKILLED_PRICE_LEVEL: i32 = 0;

pub const CREW_KEYS: &[&str] = &["role", "skill", "ecv", "note"];
pub const BUILD_KEYS: &[&str] = &["name", "unit", "gunnery", "piloting", "note"];

/// The price of `role` at `level`, if the catalogue has one.
pub fn price(crew: &[CrewPrice], role: CrewRole, level: i32) -> Option<f64> {
    crew.iter().find(|c| c.role == role && c.level == level).map(|c| c.ecv)
}

/// The levels the catalogue prices for `role`, ascending.
pub fn priced_levels(crew: &[CrewPrice], role: CrewRole) -> Vec<i32> {
    let mut v: Vec<i32> = crew.iter().filter(|c| c.role == role).map(|c| c.level).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// `levels` in words: `0, 1, 2` or `none`.
pub fn levels_text(levels: &[i32]) -> String {
    if levels.is_empty() {
        return "none".into();
    }
    levels.iter().map(i32::to_string).collect::<Vec<_>>().join(", ")
}

/// Read a `[[crew]]` entry.
pub fn read_crew(mut f: Fields<'_>) -> Option<CrewPrice> {
    let role = match f.string("role", true) {
        Some(r) => {
            let role = CrewRole::NAMES
                .iter()
                .position(|n| n.eq_ignore_ascii_case(r.trim()))
                .map(|i| if i == 0 { CrewRole::Gunner } else { CrewRole::Pilot });
            if role.is_none() {
                let pos = f.position_of("role");
                f.error(
                    Some("role"),
                    pos,
                    format!("unknown crew role `{r}`: expected gunner (Gunnery) or pilot (Piloting)"),
                );
            }
            role
        }
        None => None,
    };
    let level = f.int("skill", None, SKILL_RANGE.0, SKILL_RANGE.1) as i32;
    let ecv = f.number("ecv", None);
    let _ = f.string("note", false);
    let ok = f.finish(CREW_KEYS);
    Some(CrewPrice { role: role?, level, ecv }).filter(|_| ok)
}

/// A `[[build]]` entry as read: the card it names and the levels it sets (`None`
/// where a required field was missing or bad).
pub struct BuildRead {
    pub name: Option<String>,
    pub unit: Option<String>,
    /// (gunner index from 0, Gunnery level), ascending by gunner.
    pub gunnery: Vec<(usize, i32)>,
    pub piloting: Option<i32>,
}

/// Read a `[[build]]` entry's fields (the card is looked up by the caller). `gunnery`
/// keys are `G1`, `G2`, ... (any case), each at most once.
pub fn read_build(f: &mut Fields<'_>) -> BuildRead {
    let name = f.string("name", true);
    let unit = f.string("unit", true);
    let mut gunnery: Vec<(usize, i32)> = Vec::new();
    if f.has("gunnery") {
        let mut bad: Vec<String> = Vec::new();
        let read = f.table("gunnery", |t| {
            let mut out = Vec::new();
            for key in t.keys() {
                let k = key.strip_prefix(['G', 'g']).and_then(|n| n.parse::<usize>().ok()).filter(|&k| k >= 1);
                let level = t.int(&key, None, SKILL_RANGE.0, SKILL_RANGE.1) as i32;
                match k {
                    Some(k) => out.push((k - 1, level)),
                    None => bad.push(key),
                }
            }
            for key in &bad {
                let pos = t.position_of(key);
                t.error(Some(key), pos, "a gunner is written G1, G2, ... (the card's gunners in order)");
            }
            out
        });
        gunnery = read.unwrap_or_default();
        gunnery.sort_by_key(|g| g.0);
        if gunnery.windows(2).any(|w| w[0].0 == w[1].0) {
            let pos = f.position_of("gunnery");
            f.error(Some("gunnery"), pos, "a gunner is given two levels");
        }
    }
    let piloting = f.has("piloting").then(|| f.int("piloting", None, SKILL_RANGE.0, SKILL_RANGE.1) as i32);
    let _ = f.string("note", false);
    BuildRead { name, unit, gunnery, piloting }
}

/// Why a build cannot be priced: the field and the message.
pub type PriceError = (String, String);

/// The ECV of `unit` with the levels of `gunnery` (gunner index from 0, level) and
/// `piloting` (see the module: Ruling `CREW_ECV_SWAP`). Sums in a fixed order: the card's
/// ECV, then gunners in card order, then the pilot.
///
/// # Errors
/// A gunner the card does not have, a changed level (new or card) the catalogue does not
/// price, or an ECV of 0 or less.
pub fn build_ecv(
    unit: &Unit,
    crew: &[CrewPrice],
    gunnery: &[(usize, i32)],
    piloting: Option<i32>,
) -> Result<f64, PriceError> {
    let mut ecv = unit.ecv;
    let mut swap = |role: CrewRole, field: String, card: Option<i32>, new: i32| -> Result<(), PriceError> {
        let old = card.unwrap_or(UNSKILLED_PRICE_LEVEL);
        if old == new {
            return Ok(());
        }
        let priced = || levels_text(&priced_levels(crew, role));
        let p_new = price(crew, role, new).ok_or_else(|| {
            (
                field.clone(),
                format!(
                    "{} {new} has no ECV: the catalogue prices {} levels {} (add a [[crew]] entry with role = \"{}\", skill = {new}; ECV_FROM_CARD)",
                    role.skill(),
                    role.name(),
                    priced(),
                    role.name()
                ),
            )
        })?;
        let p_old = price(crew, role, old).ok_or_else(|| {
            (
                field.clone(),
                format!(
                    "the card's {} {old} has no ECV, so `{}` cannot re-skill it: the catalogue prices {} levels {} (ECV_FROM_CARD)",
                    role.skill(),
                    unit.name,
                    role.name(),
                    priced()
                ),
            )
        })?;
        ecv += p_new - p_old;
        Ok(())
    };
    for &(g, level) in gunnery {
        let field = format!("gunnery.G{}", g + 1);
        let Some(gunner) = unit.gunners.get(g) else {
            let n = unit.gunners.len();
            return Err((field, format!("unit `{}` has {n} gunner{}", unit.name, if n == 1 { " (G1)" } else { "s" })));
        };
        swap(CrewRole::Gunner, field, gunner.skill, level)?;
    }
    if let Some(p) = piloting {
        swap(CrewRole::Pilot, "piloting".into(), unit.piloting, p)?;
    }
    if ecv <= 0.0 {
        return Err(("gunnery".into(), format!("the build's ECV would be {ecv}: it must be greater than 0")));
    }
    Ok(ecv)
}

/// `unit` with the levels set and its ECV `ecv`, named `name`.
pub fn built(unit: &Unit, name: String, gunnery: &[(usize, i32)], piloting: Option<i32>, ecv: f64) -> Unit {
    let mut u = unit.clone();
    u.name = name;
    for &(g, level) in gunnery {
        u.gunners[g].skill = Some(level);
    }
    if piloting.is_some() {
        u.piloting = piloting;
    }
    u.ecv = ecv;
    u
}
