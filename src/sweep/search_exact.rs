//! A build search's exact values, solved where they are cheapest to share: which parts
//! of a candidate the ruleset solves exactly is known everywhere (decided without
//! solving, [`crate::rules::ruleset::Engagements::solves_duel`] and `solves_run`), but
//! the values themselves are solved once. A search in one process solves them all; the
//! shards of a search's first stage each solve their own share ([`Solve::Share`]) and
//! write them beside their tallies ([`ExactRecord`]); the merge collects them and the
//! search state carries them to every later stage, so no shard, merge or resume solves
//! another's.
//!
//! Values are written as the hexadecimal bits of their `f64`, so they read back bit for
//! bit (a decimal float need not: serde_json's parser is not correctly rounded).

use serde::{Deserialize, Serialize};

use crate::stats::racing::Part;

/// Which candidates' exact values a pass solves, by their index among the candidates
/// kept (the search's candidate order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Solve {
    /// Every candidate's: a search in one process.
    All,
    /// Candidate `i`'s where `i % count == index` (`index` from 0): a first-stage
    /// shard's share. The others stay pending, to be solved by the other shards.
    Share { index: usize, count: usize },
    /// None: a merge or a resumed search (the values come from the shards or the
    /// state), or `--count`.
    Nothing,
}

impl Solve {
    /// Whether candidate `i`'s values are solved in this pass.
    pub fn solves(self, i: usize) -> bool {
        match self {
            Solve::All => true,
            Solve::Share { index, count } => i % count.max(1) == index,
            Solve::Nothing => false,
        }
    }
}

/// A value the ruleset solves but this process has not (yet): the part is exact, so it
/// plays no trial, but its value comes from elsewhere. NaN, so that a value used before
/// it is filled shows as NaN rather than as a number.
pub const PENDING: f64 = f64::NAN;

/// One candidate's exact values, as shards and search states write them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExactRecord {
    /// Its index among the search's candidates, from 0.
    pub candidate: usize,
    /// Its name (checked against the candidate at that index).
    pub name: String,
    /// Per part (field member, then point): the value's `f64` bits in hexadecimal, or
    /// `null` for a part it plays.
    pub values: Vec<Option<String>>,
}

impl ExactRecord {
    /// The record of candidate `candidate` named `name` with exact parts `parts`.
    pub fn new(candidate: usize, name: &str, parts: &[Part]) -> ExactRecord {
        let values = parts.iter().map(|p| p.exact.map(|v| format!("{:016x}", v.to_bits()))).collect();
        ExactRecord { candidate, name: name.to_string(), values }
    }
}

/// The records of every candidate with an exact part whose values are solved (not in
/// `pending`) and that `keep` selects, in candidate order.
pub fn records(
    names: &[&str],
    exact: &[Option<Vec<Part>>],
    pending: &[usize],
    keep: impl Fn(usize) -> bool,
) -> Vec<ExactRecord> {
    exact
        .iter()
        .enumerate()
        .filter(|(i, parts)| parts.is_some() && keep(*i) && pending.binary_search(i).is_err())
        .filter_map(|(i, parts)| parts.as_deref().map(|p| ExactRecord::new(i, names[i], p)))
        .collect()
}

/// Fill the pending values of `exact` from `records`, removing each filled candidate
/// from `pending` (kept sorted).
///
/// # Errors
/// A record of an unknown index, another name, a candidate not pending (given twice, or
/// solved here), parts of another count, a value where the part plays or none where it
/// is exact, or bits that are not a hexadecimal `f64` in [0, 1]; one message for the
/// first.
pub fn fill(
    names: &[&str],
    exact: &mut [Option<Vec<Part>>],
    pending: &mut Vec<usize>,
    records: &[ExactRecord],
) -> Result<(), String> {
    for r in records {
        let who = format!("the exact values of candidate #{} ({})", r.candidate + 1, r.name);
        if names.get(r.candidate) != Some(&r.name.as_str()) {
            return Err(format!("{who}: this search has no such candidate at that place"));
        }
        let Ok(at) = pending.binary_search(&r.candidate) else {
            return Err(format!("{who}: given twice, or not pending"));
        };
        let parts = exact[r.candidate].as_mut().ok_or_else(|| format!("{who}: it has no exact part here"))?;
        if parts.len() != r.values.len() {
            return Err(format!("{who}: {} parts, the search has {}", r.values.len(), parts.len()));
        }
        let mut values = Vec::with_capacity(parts.len());
        for (j, (part, bits)) in parts.iter().zip(&r.values).enumerate() {
            match (part.exact.is_some(), bits) {
                (true, Some(b)) => {
                    let v = u64::from_str_radix(b, 16)
                        .ok()
                        .filter(|_| b.len() == 16)
                        .map(f64::from_bits)
                        .filter(|v| (0.0..=1.0).contains(v))
                        .ok_or_else(|| format!("{who}: part {} is not a value in [0, 1] ({b:?})", j + 1))?;
                    values.push(Some(v));
                }
                (false, None) => values.push(None),
                (true, None) => return Err(format!("{who}: part {} is exact but has no value", j + 1)),
                (false, Some(_)) => return Err(format!("{who}: part {} plays but was given a value", j + 1)),
            }
        }
        for (part, v) in parts.iter_mut().zip(values) {
            part.exact = v.or(part.exact);
        }
        pending.remove(at);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(values: &[Option<f64>]) -> Vec<Part> {
        values.iter().map(|v| v.map_or_else(|| Part::rate(0.5, 0, 0), |v| Part::exact(0.5, v))).collect()
    }

    #[test]
    fn records_read_back_bit_for_bit_and_fill_only_what_is_pending() {
        let names = ["A", "B", "C"];
        let third = 1.0 / 3.0;
        let solved = vec![Some(parts(&[Some(third), None])), None, Some(parts(&[Some(0.1 + 0.2), Some(1.0)]))];
        let written = records(&names, &solved, &[], |_| true);
        assert_eq!(written.iter().map(|r| r.candidate).collect::<Vec<_>>(), vec![0, 2]);
        let text = serde_json::to_string(&written).unwrap();
        let read: Vec<ExactRecord> = serde_json::from_str(&text).unwrap();

        let mut waiting = vec![Some(parts(&[Some(PENDING), None])), None, Some(parts(&[Some(PENDING), Some(PENDING)]))];
        let mut pending = vec![0, 2];
        fill(&names, &mut waiting, &mut pending, &read).unwrap();
        assert!(pending.is_empty());
        let bits = |e: &[Option<Vec<Part>>]| -> Vec<Option<u64>> {
            e.iter().flatten().flatten().map(|p| p.exact.map(f64::to_bits)).collect()
        };
        assert_eq!(bits(&waiting), bits(&solved));

        // Twice, a wrong name, a value where a part plays: each refused.
        let mut again = pending.clone();
        assert!(fill(&names, &mut waiting, &mut again, &read[..1]).unwrap_err().contains("twice"));
        let fresh = || (vec![Some(parts(&[Some(PENDING), None]))], vec![0]);
        let (mut e, mut p) = fresh();
        let renamed = ExactRecord { name: "Z".into(), ..read[0].clone() };
        assert!(fill(&names, &mut e, &mut p, &[renamed]).unwrap_err().contains("no such candidate"));
        let (mut e, mut p) = fresh();
        let extra =
            ExactRecord { values: vec![read[0].values[0].clone(), Some("3fe0000000000000".into())], ..read[0].clone() };
        assert!(fill(&names, &mut e, &mut p, &[extra]).unwrap_err().contains("plays but was given"));
        let (mut e, mut p) = fresh();
        let bad = ExactRecord { values: vec![Some("7ff8000000000000".into()), None], ..read[0].clone() };
        assert!(fill(&names, &mut e, &mut p, &[bad]).unwrap_err().contains("not a value in [0, 1]"));
    }

    #[test]
    fn shares_deal_every_candidate_to_exactly_one_shard() {
        for count in 1..5 {
            for i in 0..20 {
                let owners = (0..count).filter(|&index| Solve::Share { index, count }.solves(i)).count();
                assert_eq!(owners, 1, "candidate {i} of {count} shards");
            }
        }
        assert!(Solve::All.solves(7) && !Solve::Nothing.solves(7));
    }
}
