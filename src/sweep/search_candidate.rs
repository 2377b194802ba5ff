//! A search's candidates: builds written as catalogue entries and checked by the game's
//! own loader (a chunk at a time), or forces of catalogue builds, with their costs; and
//! how the checks' verdicts keep or drop them.

use crate::catalogue::adhoc::AdHocBuild;
use crate::catalogue::force::ForceSpec;
use crate::catalogue::source::SourceFile;
use crate::rules::ruleset::Ruleset;

/// Candidates loaded together with the catalogue's files.
pub const CHUNK: usize = 256;

/// A candidate that passed the game's checks: a build with its catalogue entry, or a
/// force of catalogue builds ([`super::search_forces`]); and its cost.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// The canonical name: the ad-hoc build's (`BASE[PART, N*PART]`) or the force's
    /// (`BUILD+N*BUILD`).
    pub name: String,
    /// The `[[...]]` entry the game wrote for a build; empty for a force.
    pub entry: String,
    /// Its cost in the game's points.
    pub cost: f64,
    /// The force, in a force search.
    pub force: Option<ForceSpec>,
}

/// The catalogue's files with the entries of `entries` added as one more file.
pub fn with_entries(files: &[SourceFile], entries: &[&str]) -> Vec<SourceFile> {
    let mut all = files.to_vec();
    all.push(SourceFile { name: "<search candidates>".into(), text: entries.join("\n") });
    all
}

/// The legal candidates of `space` in order, and how many the game's checks refused.
/// Entries are checked a chunk at a time; a chunk with an error is checked one entry at
/// a time to tell the legal ones from the rest.
///
/// # Errors
/// A candidate the game cannot write an entry for (an unknown part: a bug of the space,
/// since the space lists catalogue names), or a catalogue that does not load alone.
pub fn legal_candidates<R: Ruleset>(
    cat: &R::Catalogue,
    origin: &str,
    files: &[SourceFile],
    space: Vec<AdHocBuild>,
) -> Result<(Vec<Candidate>, usize), String> {
    let mut written = Vec::with_capacity(space.len());
    for b in space {
        let name = b.to_string();
        let entry = R::adhoc_entry(cat, &b, &name)?;
        written.push((name, entry));
    }
    let mut out = Vec::with_capacity(written.len());
    let mut refused = 0;
    for chunk in written.chunks(CHUNK) {
        let entries: Vec<&str> = chunk.iter().map(|c| c.1.as_str()).collect();
        match R::load(origin, &with_entries(files, &entries), Vec::new()) {
            Ok(loaded) => {
                for (name, entry) in chunk {
                    let cost = R::points(&loaded, name)?;
                    out.push(Candidate { name: name.clone(), entry: entry.clone(), cost, force: None });
                }
            }
            Err(_) => {
                for (name, entry) in chunk {
                    match R::load(origin, &with_entries(files, &[entry]), Vec::new()) {
                        Ok(loaded) => {
                            let cost = R::points(&loaded, name)?;
                            out.push(Candidate { name: name.clone(), entry: entry.clone(), cost, force: None });
                        }
                        Err(_) => refused += 1,
                    }
                }
            }
        }
    }
    Ok((out, refused))
}

/// Push to `kept` each candidate whose verdict is `Ok`, in order, and its verdict's
/// value to `values` (one per kept candidate); keep the first refusal's reason in
/// `reason` (if it holds none yet). Returns how many were refused.
pub fn keep_accepted<T>(
    candidates: impl IntoIterator<Item = Candidate>,
    verdicts: Vec<Result<T, String>>,
    kept: &mut Vec<Candidate>,
    values: &mut Vec<T>,
    reason: &mut Option<String>,
) -> usize {
    let mut refused = 0;
    for (cand, verdict) in candidates.into_iter().zip(verdicts) {
        match verdict {
            Ok(value) => {
                kept.push(cand);
                values.push(value);
            }
            Err(e) => {
                refused += 1;
                reason.get_or_insert(e);
            }
        }
    }
    refused
}
