//! The forces of a battle scenario: named or written forces resolved against the
//! catalogue, and generated forces (every multiset of builds that spends a budget).

use crate::catalogue::force::{ForceSpec, Member};
use crate::rules::ruleset::{Role, Ruleset};

/// `generate = { budget = 12, max_units = 4, limit = 20, builds = ["all"] }`: every
/// multiset of the selected builds whose points are at most `budget` and more than
/// `budget` minus the smallest selected build's points (so a force spends its budget),
/// with 1..=`max_units` units, the first `limit` in canonical order
/// ([`generate`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Generate {
    /// Points, > 0.
    pub budget: f64,
    /// 1..=[`MAX_GENERATED_UNITS`].
    pub max_units: u32,
    /// 1..=[`MAX_GENERATED_FORCES`].
    pub limit: u32,
    /// Build selectors (default `["all"]`).
    pub builds: Vec<String>,
}

/// Most units in one generated force (`generate.max_units`).
pub const MAX_GENERATED_UNITS: u32 = 16;
/// Most generated forces a scenario may ask for (`generate.limit`): every ordered pair
/// plays, so the cells grow with its square.
pub const MAX_GENERATED_FORCES: u32 = 100;

/// The generated forces and what was left out.
#[derive(Debug, Clone, PartialEq)]
pub struct Generated {
    pub forces: Vec<ForceSpec>,
    /// Whether more forces fit the budget than `limit` (the rest were left out).
    pub truncated: bool,
}

/// Multisets of items with integer `costs` (one per item, in item order) whose total is
/// in `low..=high`, with 1..=`max_units` members, as count vectors (one count per item),
/// in canonical order: fewer units first, then lexicographic on the members' item
/// indices sorted ascending (so catalogue order decides among forces of one size). At
/// most `limit` are returned; the flag says whether more exist.
///
/// The search visits at most `MAX_GENERATE_STEPS` partial multisets (builds of no
/// points never fill a budget, so without a bound it could walk nearly every multiset);
/// `None` when it would need more.
pub(crate) fn multisets(
    costs: &[u64],
    low: u64,
    high: u64,
    max_units: u32,
    limit: usize,
) -> Option<(Vec<Vec<u32>>, bool)> {
    let mut out = Vec::new();
    let mut picked = Vec::new();
    let mut steps = MAX_GENERATE_STEPS;
    for size in 1..=max_units as usize {
        if !walk(costs, low, high, size, 0, 0, &mut picked, &mut out, limit, &mut steps) {
            return if steps == 0 { None } else { Some((out, true)) };
        }
    }
    Some((out, false))
}

/// Most partial forces the search for generated forces visits (a few seconds).
const MAX_GENERATE_STEPS: u64 = 20_000_000;

/// Depth-first, nondecreasing indices from `from`; false once `limit` is passed (the
/// extra multiset found is not kept).
#[allow(clippy::too_many_arguments)]
fn walk(
    costs: &[u64],
    low: u64,
    high: u64,
    size: usize,
    from: usize,
    total: u64,
    picked: &mut Vec<usize>,
    out: &mut Vec<Vec<u32>>,
    limit: usize,
    steps: &mut u64,
) -> bool {
    if *steps == 0 {
        return false;
    }
    *steps -= 1;
    if picked.len() == size {
        if total >= low {
            if out.len() == limit {
                return false;
            }
            let mut counts = vec![0u32; costs.len()];
            for &i in picked.iter() {
                counts[i] += 1;
            }
            out.push(counts);
        }
        return true;
    }
    for i in from..costs.len() {
        let t = total + costs[i];
        if t > high {
            continue;
        }
        picked.push(i);
        let go_on = walk(costs, low, high, size, i, t, picked, out, limit, steps);
        picked.pop();
        if !go_on {
            return false;
        }
    }
    true
}

/// Points in thousandths, as the battle engine counts them.
pub(crate) fn milli(points: f64) -> u64 {
    (points * 1000.0).round().max(0.0) as u64
}

/// Generate forces from the catalogue as `g` says: the builds its selectors pick (each
/// once, in catalogue order), every multiset whose points are at most the budget and
/// more than the budget minus the cheapest picked build's points, with at most
/// `max_units` units, the first `limit` in the order of [`multisets`]. Each force is
/// named and keyed by its text (`Gladiator Lancer+2*Stingray Standard`) and carries the
/// budget, so the ruleset checks it against that budget.
///
/// # Errors
/// An unknown selector or build, or no multiset within the budget.
pub fn generate<R: Ruleset>(cat: &R::Catalogue, g: &Generate) -> Result<Generated, String> {
    let mut builds: Vec<String> = Vec::new();
    for sel in &g.builds {
        for b in R::select(cat, Role::Attacker, sel)? {
            if !builds.contains(&b) {
                builds.push(b);
            }
        }
    }
    let costs: Vec<u64> = builds.iter().map(|b| R::points(cat, b).map(milli)).collect::<Result<_, _>>()?;
    let cheapest = costs.iter().copied().filter(|&c| c > 0).min().unwrap_or(0);
    let high = milli(g.budget);
    let low = (high + 1).saturating_sub(cheapest);
    let Some((sets, truncated)) = multisets(&costs, low, high, g.max_units, g.limit as usize) else {
        return Err(format!(
            "the space of forces of at most {} units within a budget of {} is too large to search \
             (over {MAX_GENERATE_STEPS} partial forces, as with builds of no points): \
             lower max_units or select fewer builds",
            g.max_units, g.budget
        ));
    };
    if sets.is_empty() {
        return Err(format!(
            "no force of at most {} units spends a budget of {} (no build is that cheap, or none fits)",
            g.max_units, g.budget
        ));
    }
    let forces = sets.iter().map(|counts| force_of(counts, &builds, g.budget, "generated")).collect();
    Ok(Generated { forces, truncated })
}

/// The force of `counts` copies of `builds` (one count per build, in order), named and
/// keyed by its text (`Gladiator Lancer+2*Stingray Standard`), with `budget` and `file`.
pub(crate) fn force_of(counts: &[u32], builds: &[String], budget: f64, file: &str) -> ForceSpec {
    let members: Vec<Member> =
        counts.iter().zip(builds).filter(|(c, _)| **c > 0).map(|(&count, b)| Member::new(b.clone(), count)).collect();
    let name = members
        .iter()
        .map(|m| if m.count == 1 { m.build.clone() } else { format!("{}*{}", m.count, m.build) })
        .collect::<Vec<_>>()
        .join("+");
    ForceSpec { name, members, budget: Some(budget), position: None, file: file.into() }
}

/// A force of a scenario by name: the catalogue's `[[force]]` of that name (any case),
/// else builds joined by `+`.
///
/// # Errors
/// A malformed force text.
pub fn named_force<R: Ruleset>(cat: &R::Catalogue, text: &str) -> Result<ForceSpec, String> {
    if let Some(f) = R::forces(cat).into_iter().find(|f| f.name.eq_ignore_ascii_case(text.trim())) {
        return Ok(f);
    }
    ForceSpec::parse(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn total(costs: &[u64], counts: &[u32]) -> u64 {
        costs.iter().zip(counts).map(|(c, n)| c * *n as u64).sum()
    }

    #[test]
    fn multisets_spend_the_budget_within_the_unit_cap_in_canonical_order() {
        let costs = [6, 4, 3, 12];
        let (sets, truncated) = multisets(&costs, 12 - 3 + 1, 12, 3, 100).unwrap();
        assert!(!truncated);
        for s in &sets {
            let t = total(&costs, s);
            assert!((10..=12).contains(&t), "{s:?} costs {t}");
            assert!(s.iter().sum::<u32>() <= 3);
        }
        // size 1: {12}; size 2: {6,6} {6,4}; size 3: {6,3,3}, {4,4,3}, {4,4,4}... in order
        assert_eq!(sets[0], vec![0, 0, 0, 1]);
        assert_eq!(sets[1], vec![2, 0, 0, 0]);
        assert_eq!(sets[2], vec![1, 1, 0, 0]);
        let sizes: Vec<u32> = sets.iter().map(|s| s.iter().sum()).collect();
        assert!(sizes.windows(2).all(|w| w[0] <= w[1]), "fewer units first: {sizes:?}");
        // every multiset that fits is there: brute force over counts 0..=3 each
        let mut all = 0;
        for a in 0..=3u32 {
            for b in 0..=3u32 {
                for c in 0..=3u32 {
                    for d in 0..=3u32 {
                        let s = [a, b, c, d];
                        let n: u32 = s.iter().sum();
                        if (1..=3).contains(&n) && (10..=12).contains(&total(&costs, &s)) {
                            all += 1;
                            assert!(sets.contains(&s.to_vec()), "{s:?} missing");
                        }
                    }
                }
            }
        }
        assert_eq!(sets.len(), all);
    }

    #[test]
    fn the_limit_caps_the_forces_and_says_so() {
        let costs = [1, 2, 3];
        let (all, t) = multisets(&costs, 1, 6, 6, 1000).unwrap();
        assert!(!t);
        let (first, t) = multisets(&costs, 1, 6, 6, 5).unwrap();
        assert!(t, "more than 5 exist");
        assert_eq!(first, all[..5].to_vec(), "the first in canonical order");
        let (exact, t) = multisets(&costs, 1, 6, 6, all.len()).unwrap();
        assert!(!t, "exactly the limit is not truncated");
        assert_eq!(exact, all);
    }

    #[test]
    fn a_space_too_large_to_search_is_refused_not_walked() {
        // Builds of no points never reach the budget: every multiset of up to 16 of 40
        // builds would be visited.
        assert_eq!(multisets(&[0; 40], 1, 10, 16, 100), None);
        // A space that fits is searched as before.
        assert!(multisets(&[0, 5], 5, 10, 16, 100).is_some());
    }
}
