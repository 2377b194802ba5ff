//! The force space of `volley search --forces`: every multiset of the catalogue's builds
//! that spends a budget, each a candidate raced in battles of the ruleset's mode
//! ([`super::search`]).
//!
//! A force *spends* its budget when its points are at most the budget and more than the
//! budget minus the cheapest member build's points (no member could be added), as for
//! a scenario's generated forces ([`super::forces::generate`]).

use crate::rules::kit::names;
use crate::rules::ruleset::{Role, Ruleset, SpaceFilter};

use super::forces::{force_of, milli, multisets};
use super::search_candidate::Candidate;

/// Most units in one force of a force search (`--max-units`).
pub const MAX_FORCE_UNITS: u32 = 16;

/// The forces a search lists: `--forces --budget B [--max-units U] [--builds SEL]`.
#[derive(Debug, Clone, PartialEq)]
pub struct ForceSpace {
    /// Points a force spends, in the ruleset's unit (> 0, finite).
    pub budget: f64,
    /// Most units in a force, 1..=[`MAX_FORCE_UNITS`].
    pub max_units: u32,
    /// Selectors of the member builds (as for `gauntlet`); empty: every build.
    pub builds: Vec<String>,
}

/// The member builds of a force space.
struct Pool {
    /// Names, in the selectors' order (then catalogue order), each once.
    builds: Vec<String>,
    /// Each build's points.
    points: Vec<f64>,
    /// The copies of each that every force must hold (`--must-include`).
    required: Vec<u32>,
}

/// The member builds the selectors and filters keep.
fn pool<R: Ruleset>(cat: &R::Catalogue, space: &ForceSpace, filter: &SpaceFilter) -> Result<Pool, String> {
    if !filter.bases.is_empty() {
        return Err(
            "--unit picks the bases of single builds: with --forces, pick the member builds with --builds".into()
        );
    }
    let selectors: Vec<String> = if space.builds.is_empty() { vec!["all".into()] } else { space.builds.clone() };
    let mut builds: Vec<String> = Vec::new();
    for sel in &selectors {
        for b in R::select(cat, Role::Attacker, sel)? {
            if !builds.iter().any(|x| names::same(x, &b)) {
                builds.push(b);
            }
        }
    }
    for name in filter.exclude.iter().chain(&filter.must_include) {
        if !builds.iter().any(|b| names::same(b, name)) {
            return Err(format!(
                "`{name}` is not one of the member builds ({}): with --forces, --exclude and --must-include name builds",
                builds.join(", ")
            ));
        }
    }
    if let Some(both) = filter.must_include.iter().find(|m| filter.exclude.iter().any(|e| names::same(e, m))) {
        return Err(format!("`{both}` is both required (--must-include) and excluded (--exclude)"));
    }
    let mut kept = Vec::new();
    let mut points = Vec::new();
    for b in builds {
        let p = R::points(cat, &b)?;
        let required = filter.must_include.iter().any(|m| names::same(m, &b));
        let excluded = filter.exclude.iter().any(|e| names::same(e, &b));
        let too_dear = filter.max_cost.is_some_and(|m| p > m);
        if required && too_dear {
            return Err(format!("`{b}` costs {p}, more than --max-cost, and --must-include requires it"));
        }
        if !excluded && !too_dear {
            kept.push(b);
            points.push(p);
        }
    }
    let required =
        kept.iter().map(|b| filter.must_include.iter().filter(|m| names::same(m, b)).count() as u32).collect();
    Ok(Pool { builds: kept, points, required })
}

/// Every force of `space` that passes `filter`, in canonical order (fewest units first,
/// then catalogue order), each with its points as cost and the budget it was listed
/// under. With `--max-cost`, only builds that cost at most that are members; with
/// `--exclude NAME`, no force holds that build; with `--must-include NAME`, every force
/// holds it (repeat it for more copies).
///
/// # Errors
/// (usage) A budget or unit cap out of range, an unknown selector or build, `--unit`, a
/// space larger than `limit` ("more than `limit`"), a budget no force spends, or a space
/// too large to walk.
pub fn force_candidates<R: Ruleset>(
    cat: &R::Catalogue,
    space: &ForceSpace,
    filter: &SpaceFilter,
    limit: usize,
) -> Result<Vec<Candidate>, String> {
    if !(space.budget > 0.0 && space.budget.is_finite()) {
        return Err(format!("--budget {}: a budget is a positive number of points", space.budget));
    }
    if !(1..=MAX_FORCE_UNITS).contains(&space.max_units) {
        return Err(format!("--max-units {}: from 1 to {MAX_FORCE_UNITS}", space.max_units));
    }
    let Pool { builds, points, required } = pool::<R>(cat, space, filter)?;
    if builds.is_empty() {
        return Err("no member build is left after the filters (--builds, --max-cost, --exclude)".into());
    }
    let costs: Vec<u64> = points.iter().map(|&p| milli(p)).collect();
    let fixed: u64 = costs.iter().zip(&required).map(|(c, n)| c * u64::from(*n)).sum();
    let fixed_units: u32 = required.iter().sum();
    let high = milli(space.budget);
    let cheapest = costs.iter().copied().filter(|&c| c > 0).min().unwrap_or(0);
    let low = (high + 1).saturating_sub(cheapest);
    if fixed > high || fixed_units > space.max_units {
        return Err(format!(
            "the builds --must-include requires cost {} in {fixed_units} units: more than the budget of {} or --max-units {}",
            fixed as f64 / 1000.0,
            space.budget,
            space.max_units
        ));
    }
    let mut sets: Vec<Vec<u32>> = Vec::new();
    if fixed_units > 0 && fixed >= low {
        sets.push(vec![0; builds.len()]);
    }
    let room = space.max_units - fixed_units;
    if room > 0 {
        let Some((rest, more)) = multisets(&costs, low.saturating_sub(fixed), high - fixed, room, limit + 1) else {
            return Err(format!(
                "the forces of at most {} units within a budget of {} are too many to walk (as with builds of no \
                 points): lower --max-units or pick fewer builds",
                space.max_units, space.budget
            ));
        };
        sets.extend(rest);
        if more {
            sets.truncate(limit + 1);
        }
    }
    if sets.is_empty() {
        return Err(format!(
            "no force of at most {} units spends a budget of {} (no member build is that cheap, or none fits)",
            space.max_units, space.budget
        ));
    }
    if sets.len() > limit {
        return Err(format!(
            "the force space holds more than {limit} forces, more than the limit: lower --budget or --max-units, \
             pick fewer builds (--builds, --max-cost, --exclude, --must-include) or raise --limit"
        ));
    }
    Ok(sets
        .into_iter()
        .map(|mut counts| {
            for (c, r) in counts.iter_mut().zip(&required) {
                *c += r;
            }
            let force = force_of(&counts, &builds, space.budget, "search");
            let cost = counts.iter().zip(&points).map(|(&n, &p)| f64::from(n) * p).sum();
            Candidate { name: force.name.clone(), entry: String::new(), cost, force: Some(force) }
        })
        .collect())
}
