//! Ad-hoc builds and the build space: a unit with any multiset of weapons and gear.
//!
//! A build `Unit[PART, N*PART, ...]` is the unit with `N` copies of each weapon part
//! (copies beyond the weapon's link limit are systems of their own, as in
//! `[[build]]` entries) and each gear part once. Its catalogue entry is checked by the
//! loader like any `[[build]]`, so the free weight and power, the MSV class limits and
//! gear restrictions are decided there.
//!
//! The space of a unit is every multiset of the weapons its kind may carry (a weapon
//! whose `class` names the kind: "MSV", "vehicle", "troop" or "crew", or has no class)
//! and every set of gear, whose swappable weight and power fit the unit's free weight
//! and power. A unit without a free weight or power carries only its card: it has no
//! swappable space. Terrain carries nothing.

use crate::catalogue::adhoc::{AdHocBuild, toml_string};
use crate::rules::kit::names;
use crate::rules::ruleset::{SPACE_HARD_CAP, SpaceFilter};

use super::{Catalogue, Unit, UnitKind, Weapon};

/// Tolerance for weight and power sums (as the loader's).
const EPSILON: f64 = 1e-9;

/// The most copies of one weapon a searched build carries, whatever its weight (a
/// weightless weapon would otherwise make the space infinite).
pub const MAX_COPIES: u32 = 8;

/// The `[[build]]` entry named `name` of an ad-hoc build: each part a weapon (with its
/// copies) or a gear item (once), matched by name in any case.
///
/// # Errors
/// An unknown unit, an unknown part (with the nearest weapon and gear names), or gear
/// named more than once.
pub fn adhoc_entry(cat: &Catalogue, build: &AdHocBuild, name: &str) -> Result<String, String> {
    let unit = cat.find_unit(&build.base)?;
    let mut weapons = Vec::new();
    let mut gear = Vec::new();
    for (copies, part) in &build.parts {
        if let Some(w) = cat.weapon(part) {
            weapons.push(format!("{{ name = {}, count = {copies} }}", toml_string(&w.name)));
        } else if let Some(g) = names::find(&cat.gear, |g| g.name.as_str(), part) {
            if *copies > 1 {
                return Err(format!("{build}: gear `{}` is carried once, not {copies} times", g.name));
            }
            gear.push(toml_string(&g.name));
        } else {
            let both = cat.weapons.iter().map(|w| w.name.as_str()).chain(cat.gear.iter().map(|g| g.name.as_str()));
            return Err(format!("{build}: {}", names::unknown("weapon or gear", part, &cat.origin, both)));
        }
    }
    Ok(format!(
        "[[build]]\nname = {}\nunit = {}\nweapons = [{}]\ngear = [{}]\n",
        toml_string(name),
        toml_string(&unit.name),
        weapons.join(", "),
        gear.join(", ")
    ))
}

/// Whether a unit of `kind` may carry `weapon`: its class names the kind, or it has none.
fn carries(kind: UnitKind, weapon: &Weapon) -> bool {
    let Some(class) = &weapon.class else { return true };
    let word = match kind {
        UnitKind::Msv => "msv",
        UnitKind::Vehicle => "vehicle",
        UnitKind::Troop => "troop",
        UnitKind::Crew => "crew",
        UnitKind::Terrain => return false,
    };
    class.split(['/', ',']).any(|c| c.trim().eq_ignore_ascii_case(word))
}

/// Every plausible build of the catalogue's units the filter lets through (see the
/// module), units in catalogue order, then weapon counts in catalogue order (fewest
/// first), then gear sets.
///
/// # Errors
/// A base or part the filter names that the catalogue does not hold.
pub fn build_space(cat: &Catalogue, filter: &SpaceFilter) -> Result<Vec<AdHocBuild>, String> {
    for b in &filter.bases {
        cat.find_unit(b)?;
    }
    for p in filter.must_include.iter().chain(&filter.exclude) {
        let known = cat.weapon(p).is_some()
            || names::find(&cat.gear, |g| g.name.as_str(), p).is_some()
            || cat.unit(p).is_some();
        if !known {
            let all = cat.weapons.iter().map(|w| w.name.as_str()).chain(cat.gear.iter().map(|g| g.name.as_str()));
            return Err(names::unknown("weapon, gear or unit", p, &cat.origin, all));
        }
    }
    let mut out = Vec::new();
    for unit in &cat.units {
        if unit.kind == UnitKind::Terrain || !filter.base_passes(&unit.name) {
            continue;
        }
        if filter.max_cost.is_some_and(|m| unit.points > m + EPSILON) {
            continue;
        }
        unit_space(cat, unit, filter, &mut out);
        if out.len() >= SPACE_HARD_CAP {
            out.truncate(SPACE_HARD_CAP);
            break;
        }
    }
    Ok(out)
}

/// One unit's builds, appended to `out` (stopping at the hard cap).
fn unit_space(cat: &Catalogue, unit: &Unit, filter: &SpaceFilter, out: &mut Vec<AdHocBuild>) {
    let (Some(weight), Some(power)) = (unit.free_weight, unit.free_power) else {
        return;
    };
    let weapons: Vec<&Weapon> = cat
        .weapons
        .iter()
        .filter(|w| carries(unit.kind, w))
        .filter(|w| !unit.standard_weapons.iter().any(|s| s.name == w.name))
        .collect();
    let gear: Vec<_> = cat
        .gear
        .iter()
        .filter(|g| !g.infiltration || unit.kind.rides())
        .filter(|g| !unit.standard_gear.iter().any(|(s, _)| s == &g.name))
        .collect();
    let has_standard = !unit.standard_weapons.is_empty();
    let mut counts = vec![0u32; weapons.len()];
    // Depth-first over weapon counts, then over gear subsets, within the free limits.
    fn weapons_dfs(i: usize, left: (f64, f64), counts: &mut Vec<u32>, ctx: &Ctx<'_>, out: &mut Vec<AdHocBuild>) {
        if out.len() >= SPACE_HARD_CAP {
            return;
        }
        if i == ctx.weapons.len() {
            if ctx.has_standard || counts.iter().any(|&c| c > 0) {
                gear_dfs(0, left, counts, &mut Vec::new(), ctx, out);
            }
            return;
        }
        let w = ctx.weapons[i];
        let mut c = 0;
        loop {
            counts[i] = c;
            weapons_dfs(i + 1, left_after(left, w.weight, w.power, c), counts, ctx, out);
            c += 1;
            let l = left_after(left, w.weight, w.power, c);
            if c > MAX_COPIES || l.0 < -EPSILON || l.1 < -EPSILON {
                break;
            }
        }
        counts[i] = 0;
    }
    fn gear_dfs(
        j: usize,
        left: (f64, f64),
        counts: &[u32],
        chosen: &mut Vec<usize>,
        ctx: &Ctx<'_>,
        out: &mut Vec<AdHocBuild>,
    ) {
        if out.len() >= SPACE_HARD_CAP {
            return;
        }
        if j == ctx.gear.len() {
            let mut parts: Vec<(u32, String)> =
                ctx.weapons.iter().zip(counts).filter(|(_, c)| **c > 0).map(|(w, c)| (*c, w.name.clone())).collect();
            parts.extend(chosen.iter().map(|&g| (1, ctx.gear[g].name.clone())));
            let b = AdHocBuild { base: ctx.unit.to_string(), parts };
            if ctx.filter.parts_pass(&b) {
                out.push(b);
            }
            return;
        }
        gear_dfs(j + 1, left, counts, chosen, ctx, out);
        let g = ctx.gear[j];
        let l = left_after(left, g.weight, g.power, 1);
        if l.0 >= -EPSILON && l.1 >= -EPSILON {
            chosen.push(j);
            gear_dfs(j + 1, l, counts, chosen, ctx, out);
            chosen.pop();
        }
    }
    struct Ctx<'a> {
        unit: &'a str,
        weapons: Vec<&'a Weapon>,
        gear: Vec<&'a super::Gear>,
        has_standard: bool,
        filter: &'a SpaceFilter,
    }
    fn left_after(left: (f64, f64), weight: f64, power: f64, copies: u32) -> (f64, f64) {
        (left.0 - weight * copies as f64, left.1 - power * copies as f64)
    }
    let ctx = Ctx { unit: &unit.name, weapons, gear, has_standard, filter };
    weapons_dfs(0, (weight, power), &mut counts, &ctx, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn embedded() -> Catalogue {
        Catalogue::embedded().unwrap()
    }

    #[test]
    fn an_adhoc_build_loads_as_the_same_build_as_its_catalogue_twin() {
        let cat = embedded();
        let b = AdHocBuild::parse("Gladiator[Lance Railgun, Devastator, ECM Suite]").unwrap();
        let entry = adhoc_entry(&cat, &b, &b.to_string()).unwrap();
        let mut files = crate::catalogue::source::embedded(super::super::CATALOGUE_DIR);
        files.push(crate::catalogue::source::SourceFile { name: "adhoc.toml".into(), text: entry });
        let with = Catalogue::from_sources("test", &files).unwrap();
        let adhoc = with.find_build(&b.to_string()).unwrap();
        let twin = with.find_build("Gladiator Lancer").unwrap();
        assert_eq!((&adhoc.systems, &adhoc.gear, adhoc.points), (&twin.systems, &twin.gear, twin.points));
    }

    #[test]
    fn unknown_parts_and_repeated_gear_are_refused() {
        let cat = embedded();
        let e = adhoc_entry(&cat, &AdHocBuild::parse("Gladiator[Lance Railgn]").unwrap(), "x").unwrap_err();
        assert!(e.contains("Lance Railgn") && e.contains("Lance Railgun"), "{e}");
        let e = adhoc_entry(&cat, &AdHocBuild::parse("Gladiater[Devastator]").unwrap(), "x").unwrap_err();
        assert!(e.contains("Gladiator"), "{e}");
        let e = adhoc_entry(&cat, &AdHocBuild::parse("Gladiator[2*ECM Suite]").unwrap(), "x").unwrap_err();
        assert!(e.contains("once"), "{e}");
    }

    /// Brute force over a unit's space: every count vector up to MAX_COPIES and every
    /// gear subset, kept when inside the free limits; the DFS must list exactly these.
    #[test]
    fn the_space_of_a_unit_is_every_multiset_inside_its_free_limits() {
        let cat = embedded();
        let unit = cat.find_unit("Dwarf").unwrap();
        let filter = SpaceFilter { bases: vec!["dwarf".into()], ..SpaceFilter::default() };
        let got = build_space(&cat, &filter).unwrap();
        let weapons: Vec<&Weapon> = cat.weapons.iter().filter(|w| carries(unit.kind, w)).collect();
        let (fw, fp) = (unit.free_weight.unwrap(), unit.free_power.unwrap());
        let mut want = 0usize;
        let n = weapons.len();
        // Each count up to the copies that fit the free weight alone (or MAX_COPIES).
        let upper: Vec<u32> = weapons
            .iter()
            .map(|w| if w.weight > 0.0 { MAX_COPIES.min(((fw + EPSILON) / w.weight) as u32) } else { MAX_COPIES })
            .collect();
        let mut counts = vec![0u32; n];
        'outer: loop {
            let (w, p) = weapons
                .iter()
                .zip(&counts)
                .fold((0.0, 0.0), |(a, b), (x, &c)| (a + x.weight * c as f64, b + x.power * c as f64));
            if counts.iter().any(|&c| c > 0) && w <= fw + EPSILON && p <= fp + EPSILON {
                for mask in 0u32..(1 << cat.gear.len()) {
                    let (gw, gp) = cat
                        .gear
                        .iter()
                        .enumerate()
                        .filter(|(j, g)| mask & (1 << j) != 0 && !g.infiltration)
                        .fold((0.0, 0.0), |(a, b), (_, g)| (a + g.weight, b + g.power));
                    let infiltr = cat.gear.iter().enumerate().any(|(j, g)| mask & (1 << j) != 0 && g.infiltration);
                    if !infiltr && w + gw <= fw + EPSILON && p + gp <= fp + EPSILON {
                        want += 1;
                    }
                }
            }
            for i in 0..n {
                counts[i] += 1;
                if counts[i] <= upper[i] {
                    continue 'outer;
                }
                counts[i] = 0;
            }
            break;
        }
        assert_eq!(got.len(), want);
        assert!(want > 100, "{want}");
        let mut names: Vec<String> = got.iter().map(|b| b.to_string()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), got.len(), "every candidate once");
    }

    #[test]
    fn filters_restrict_the_space() {
        let cat = embedded();
        let all = build_space(&cat, &SpaceFilter::default()).unwrap();
        let with = SpaceFilter { must_include: vec!["Kabaaam".into()], ..SpaceFilter::default() };
        let kab = build_space(&cat, &with).unwrap();
        assert!(!kab.is_empty() && kab.len() < all.len());
        assert!(kab.iter().all(|b| b.copies_of("Kabaaam") > 0));
        let without = SpaceFilter { exclude: vec!["Kabaaam".into()], ..SpaceFilter::default() };
        assert_eq!(build_space(&cat, &without).unwrap().len() + kab.len(), all.len());
        let cheap = SpaceFilter { max_cost: Some(3.0), ..SpaceFilter::default() };
        let cheap = build_space(&cat, &cheap).unwrap();
        assert!(!cheap.is_empty() && cheap.len() < all.len());
        assert!(cheap.iter().all(|b| cat.find_unit(&b.base).unwrap().points <= 3.0));
        let e = build_space(&cat, &SpaceFilter { must_include: vec!["Kabam".into()], ..SpaceFilter::default() });
        assert!(e.unwrap_err().contains("Kabaaam"));
    }
}
