//! Sharded sweeps: where a sweep's tallies come from ([`Plays`]: every stream here, one
//! share of the streams, or the merged tallies of every share), what a shard directory
//! records about its run ([`ShardMeta`]), and whether a set of shards belongs together
//! ([`check_set`]). Writes no files (the command line does).

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

pub use crate::engine::raw_tally::RawCell;
use crate::engine::{
    Cell, Dealt, Kernel, Observer, RawTally, RunConfig, STREAM_TRIALS, Share, Silent, Tally, Trials, run,
    run_share_after,
};

/// Version of the shard directory (files, `shard.json` keys, the raw tally layouts and
/// how streams are dealt to shards): shards of different versions never merge. Version 2
/// deals the streams of all of a run's engine calls as one (version 1 dealt each call
/// afresh) and records the `[vary]` plan. Version 3 seals `shard.json` ([`ShardMeta::seal`]).
pub const SHARD_SCHEMA_VERSION: u32 = 4;

/// Reads one shard's raw cells when asked.
pub type ShardSource<'a> = Box<dyn Fn() -> Result<Vec<RawCell>, String> + Sync + 'a>;

/// The raw cells of every shard of a run, read one shard at a time in shard order (so a
/// merge holds one shard's raw cells and the merged tallies, never every shard at once).
pub struct MergedTallies<'a> {
    sources: Vec<(String, ShardSource<'a>)>,
    /// Which shards had a cell replayed and checked (see [`Plays::run`]).
    replayed: Mutex<Vec<bool>>,
}

impl<'a> MergedTallies<'a> {
    /// The shards `sources` (each a name for messages and its reader), in shard order:
    /// the merge order is fixed.
    pub fn new(sources: Vec<(String, ShardSource<'a>)>) -> MergedTallies<'a> {
        let replayed = Mutex::new(vec![false; sources.len()]);
        MergedTallies { sources, replayed }
    }
}

enum Mode<'a> {
    All,
    Share(Share),
    Merged(&'a MergedTallies<'a>),
}

/// Where a sweep's tallies come from: [`Plays::all`] plays every stream (a single-process
/// run), [`Plays::share`] plays one share and records its raw tallies, [`Plays::merged`]
/// plays nothing and takes the merged tallies of every share. Every engine call of a
/// sweep goes through [`Plays::run`], which numbers the calls and digests their cell keys.
pub struct Plays<'a> {
    mode: Mode<'a>,
    calls: AtomicU32,
    recorded: Mutex<Vec<RawCell>>,
    keys: Mutex<Sha256>,
    cells: AtomicU32,
    /// Share mode: the streams the calls so far dealt (the run is dealt as one, over
    /// every call's cells: see [`Share::assignment_after`]); merged mode: the same count,
    /// for replaying a shard's cell.
    dealt: Mutex<Dealt>,
}

impl<'a> Plays<'a> {
    fn new(mode: Mode<'a>) -> Plays<'a> {
        Plays {
            mode,
            calls: AtomicU32::new(0),
            recorded: Mutex::new(Vec::new()),
            keys: Mutex::new(Sha256::new()),
            cells: AtomicU32::new(0),
            dealt: Mutex::new(Dealt::default()),
        }
    }

    /// The engagements a run of `cells` cells will play in all, when known before it
    /// starts: every stream of a fixed trial count. `None` for a share (its deal is known
    /// call by call), merged shards (nothing is played) and a precision target.
    pub fn announces(&self, config: &RunConfig, cells: u64) -> Option<u64> {
        match (&self.mode, config.trials) {
            (Mode::All, Trials::Fixed(n)) => Some(n.saturating_mul(cells)),
            _ => None,
        }
    }

    /// Play every stream of every cell.
    pub fn all() -> Plays<'static> {
        Plays::new(Mode::All)
    }

    /// Play `share` only, recording the raw tallies of the cells it played.
    pub fn share(share: Share) -> Plays<'static> {
        Plays::new(Mode::Share(share))
    }

    /// Play nothing: take each cell's tally from `merged`.
    pub fn merged(merged: &'a MergedTallies<'a>) -> Plays<'a> {
        Plays::new(Mode::Merged(merged))
    }

    /// Whether the sweep's tables are wanted: not for a share, whose tables would hold
    /// a fraction of every cell (its raw tallies are what it writes).
    pub fn wants_tables(&self) -> bool {
        !matches!(self.mode, Mode::Share(_))
    }

    /// The raw tallies recorded so far (share mode), in call and cell order.
    pub fn take_recorded(&self) -> Vec<RawCell> {
        std::mem::take(&mut *self.recorded.lock().expect("not poisoned"))
    }

    /// How many cells the engine calls so far had, and a SHA-256 (hex) of their keys in
    /// order: two runs with the same digest played the same cells.
    pub fn cells_digest(&self) -> (u64, String) {
        let h = self.keys.lock().expect("not poisoned").clone();
        (self.cells.load(Ordering::SeqCst) as u64, hex(&h.finalize()))
    }

    /// One engine call of the sweep: every cell's tally, in order.
    ///
    /// # Errors
    /// What [`run`] or [`run_share_after`] refuse; in merged mode, a cell whose key differs
    /// from the shards' or whose merged trial count is not the configured one (a shard
    /// missing or played with other settings), or raw counts of another layout; a shard
    /// whose first recorded cell, replayed here for the shard index it is given at
    /// (its place in the merge order), has other counts: a copy of another shard
    /// relabelled, or tallies not played by that shard.
    pub fn run<K: Kernel>(
        &self,
        cells: &[Cell<'_, K>],
        config: &RunConfig,
        observer: &dyn Observer,
    ) -> Result<Vec<K::Tally>, String>
    where
        K::Tally: RawTally,
    {
        let call = self.calls.fetch_add(1, Ordering::SeqCst);
        {
            let mut h = self.keys.lock().expect("not poisoned");
            h.update(call.to_le_bytes());
            h.update((cells.len() as u64).to_le_bytes());
            for c in cells {
                h.update(c.key.to_le_bytes());
            }
        }
        self.cells.fetch_add(cells.len() as u32, Ordering::SeqCst);
        match self.mode {
            Mode::All => Ok(run(cells, config, observer)?),
            Mode::Share(share) => {
                let mut dealt = self.dealt.lock().expect("not poisoned");
                let tallies = run_share_after(cells, config, share, &mut dealt, observer)?;
                let mut rec = self.recorded.lock().expect("not poisoned");
                for (i, (c, t)) in cells.iter().zip(&tallies).enumerate() {
                    if t.trials() > 0 {
                        rec.push(RawCell { call, cell: i as u32, key: c.key, counts: t.raw() });
                    }
                }
                Ok(tallies)
            }
            Mode::Merged(merged) => {
                let Trials::Fixed(target) = config.trials else {
                    return Err("shards are played with a fixed trial count".into());
                };
                // The streams dealt before this call (every call deals its cells' streams
                // after the earlier calls': see [`Share::assignment_after`]).
                let start = {
                    let mut dealt = self.dealt.lock().expect("not poisoned");
                    let start = *dealt;
                    let st = STREAM_TRIALS as u64;
                    dealt.full += target / st * cells.len() as u64;
                    dealt.short += if target % st != 0 { cells.len() as u64 } else { 0 };
                    start
                };
                let count = merged.sources.len();
                let mut out: Vec<K::Tally> = cells.iter().map(|c| c.kernel.new_tally()).collect();
                for (k, (name, source)) in merged.sources.iter().enumerate() {
                    for r in source()?.into_iter().filter(|r| r.call == call) {
                        let i = r.cell as usize;
                        let c = cells
                            .get(i)
                            .ok_or_else(|| format!("{name} holds cell {i}, which the scenario does not have"))?;
                        if r.key != c.key {
                            return Err(format!(
                                "{name}: cell {i} of the scenario has another key there: the shard played other cells"
                            ));
                        }
                        if first_of_shard(merged, k) {
                            self.replay(name, k, count, cells, i, start, config, &r.counts)?;
                        }
                        out[i].merge_raw(&r.counts).map_err(|e| format!("{name}: cell {i}: {e}"))?;
                    }
                }
                for (i, t) in out.iter().enumerate() {
                    if t.trials() != target {
                        return Err(format!(
                            "cell {i} has {} engagements in the shards, not {target}: a shard is missing, incomplete or given twice",
                            t.trials()
                        ));
                    }
                }
                Ok(out)
            }
        }
    }
}

/// Whether shard `k` of `merged` has had no cell replayed yet (it has now).
fn first_of_shard(merged: &MergedTallies<'_>, k: usize) -> bool {
    let mut done = merged.replayed.lock().expect("not poisoned");
    !std::mem::replace(&mut done[k], true)
}

impl Plays<'_> {
    /// Play cell `i` of this call again as shard `k` of `count` would (its streams only,
    /// the streams before this call `start`) and compare with the shard's `counts`.
    #[allow(clippy::too_many_arguments)]
    fn replay<K: Kernel>(
        &self,
        name: &str,
        k: usize,
        count: usize,
        cells: &[Cell<'_, K>],
        i: usize,
        start: Dealt,
        config: &RunConfig,
        counts: &[u128],
    ) -> Result<(), String>
    where
        K::Tally: RawTally,
    {
        let Trials::Fixed(target) = config.trials else { return Ok(()) };
        let st = STREAM_TRIALS as u64;
        let mut dealt = Dealt {
            full: start.full + target / st * i as u64,
            short: start.short + if target % st != 0 { i as u64 } else { 0 },
        };
        let share = Share::new(k as u32, count as u32)?;
        let replayed = run_share_after(&cells[i..=i], config, share, &mut dealt, &Silent).map_err(|e| e.to_string())?;
        if replayed[0].raw() != counts {
            return Err(format!(
                "{name} is not shard {} of {count}: its tallies of cell {i}, played again here as that shard, \
                 differ (a copy of another shard relabelled, or tallies it did not play)",
                k + 1
            ));
        }
        Ok(())
    }
}

impl super::SweepOutput {
    /// A sweep that played `cells` cells and `engagements` engagements since `start`
    /// and built no tables (a shard's).
    pub(crate) fn played(cells: usize, engagements: u64, start: std::time::Instant) -> super::SweepOutput {
        super::SweepOutput {
            tables: Vec::new(),
            manifest: serde_json::Value::Null,
            cells,
            engagements,
            seconds: start.elapsed().as_secs_f64(),
        }
    }
}

/// Lower-case hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of bytes, hex.
pub fn sha256(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// What a shard directory's `shard.json` records. Everything but the shard's own place,
/// its counts, timing and file hashes must be equal in every shard of a run
/// ([`ShardMeta::run_fields`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardMeta {
    pub schema_version: u32,
    pub volley_version: String,
    /// This shard, from 1.
    pub shard: u32,
    pub shards: u32,
    /// The command sharded: `sweep`, `gauntlet` or `battle`.
    #[serde(default = "sweep_command")]
    pub command: String,
    /// A gauntlet's or battle's command line after `volley` (its merge plays it again
    /// with the shards' tallies); empty for sweeps. Compared as [`run_args`] gives it.
    #[serde(default)]
    pub args: Vec<String>,
    pub ruleset: String,
    pub scenario_name: String,
    /// The scenario file as manifests name it; its text is `scenario.toml`.
    pub scenario_file: String,
    /// The options played: the scenario's, then the command line's (`NAME`, value).
    pub options: Vec<(String, String)>,
    /// The scenario's `[vary]` plan as manifests write it (entry, field, column and
    /// values of each varied stat, in order); `null` without `[vary]`. A merge rebuilds
    /// the varied catalogues from it, `scenario.toml` and `catalogue.json`.
    #[serde(default)]
    pub vary: serde_json::Value,
    pub seed: u64,
    /// Engagements per cell (fixed trial count).
    pub trials: u64,
    pub stream_trials: u32,
    /// The catalogue as manifests name it and the ruleset's content hash of it.
    pub catalogue_origin: String,
    pub catalogue_hash: String,
    /// Cells of the whole run and the SHA-256 of their keys ([`Plays::cells_digest`]).
    pub cells: u64,
    pub cell_keys: String,
    /// SHA-256 of `scenario.toml`, `catalogue.json` and `tallies.parquet`.
    pub scenario_sha256: String,
    pub catalogue_sha256: String,
    pub tallies_sha256: String,
    /// SHA-256 of `search-state.json`, the race so far of a search resumed at a later
    /// stage; empty (and not written) for every other shard.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub state_sha256: String,
    /// SHA-256 of `exact.json`, the exact values a search's first-stage shard solved
    /// (its own share: it differs between shards); empty (and not written) otherwise.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub exact_sha256: String,
    /// What this shard played.
    pub streams: u64,
    pub engagements: u64,
    pub seconds: f64,
    /// Where the shard index and count came from (`--shard 2/7`, `SLURM_ARRAY_TASK_ID=...`).
    pub source: String,
    /// SHA-256 of every other field of this `shard.json` ([`ShardMeta::seal`]): its shard
    /// index, count, seed, options, versions, command line and the hashes of its files.
    #[serde(default)]
    pub meta_sha256: String,
}

fn sweep_command() -> String {
    "sweep".into()
}

/// A recorded command line without what may differ between the shards of one run: the
/// shard's place (`--shard`, `--shards`), its directory (`--out`), `--force` and
/// `--quiet`.
pub fn run_args(args: &[String]) -> Vec<String> {
    without_flags(args, &["--shard", "--shards", "--out"], &["--force", "--quiet", "-q"])
}

/// A command line without the flags `valued` (each with its value, as `--flag VALUE` or
/// `--flag=VALUE`) and the words `bare`.
pub fn without_flags(args: &[String], valued: &[&str], bare: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip = false;
    for a in args {
        if std::mem::take(&mut skip) {
            continue;
        }
        if valued.contains(&a.as_str()) {
            skip = true;
        } else if !bare.contains(&a.as_str())
            && !valued.iter().any(|f| a.strip_prefix(f).is_some_and(|rest| rest.starts_with('=')))
        {
            out.push(a.clone());
        }
    }
    out
}

impl ShardMeta {
    /// The seal of this description: SHA-256 (hex) of its compact JSON with
    /// `meta_sha256` empty. Written by the shard, checked by `merge`: a `shard.json`
    /// edited afterwards (relabelled to another index, another seed, another version, a
    /// file hash changed to match an edited file) no longer matches its seal. A checksum,
    /// not a signature: whoever recomputes it can forge it, which the merge's replay of
    /// each shard's first cell catches for relabelled copies.
    pub fn seal(&self) -> String {
        let mut unsealed = self.clone();
        unsealed.meta_sha256 = String::new();
        sha256(&serde_json::to_vec(&unsealed).expect("a shard description serialises"))
    }

    /// This description with its seal set, and `seconds` rounded to whole
    /// milliseconds first: the seal is checked on the value read back from the JSON, and
    /// a float of 17 digits need not read back as the same bits (serde_json's parser is
    /// not correctly rounded), where a millisecond count of few digits does.
    pub fn sealed(mut self) -> ShardMeta {
        self.seconds = (self.seconds * 1000.0).round() / 1000.0;
        self.meta_sha256 = self.seal();
        self
    }

    /// The fields every shard of one run shares, by name, as text.
    fn run_fields(&self) -> Vec<(&'static str, String)> {
        vec![
            ("schema version", self.schema_version.to_string()),
            ("volley version", self.volley_version.clone()),
            ("shard count", self.shards.to_string()),
            ("command", format!("{} {}", self.command, run_args(&self.args).join(" "))),
            ("ruleset", self.ruleset.clone()),
            ("scenario", format!("{} ({})", self.scenario_name, self.scenario_file)),
            ("scenario text", self.scenario_sha256.clone()),
            ("options", format!("{:?}", self.options)),
            ("[vary]", self.vary.to_string()),
            ("seed", self.seed.to_string()),
            ("trials", self.trials.to_string()),
            ("stream size", self.stream_trials.to_string()),
            ("catalogue", format!("{} ({})", self.catalogue_origin, self.catalogue_hash)),
            ("catalogue files", self.catalogue_sha256.clone()),
            ("search state", self.state_sha256.clone()),
            ("cells", format!("{} ({})", self.cells, self.cell_keys)),
        ]
    }
}

/// Check that `shards` (each with the name it is known by, e.g. its directory) are the
/// shards `1..=N` of one run, each exactly once, and return them in shard order.
///
/// The run is the one most of them share (the first given wins a tie); every other shard
/// is named as foreign with the fields that differ.
///
/// # Errors
/// One message naming every foreign shard, every shard given twice (with both names) and
/// every missing shard number.
pub fn check_set<T>(shards: Vec<(String, ShardMeta, T)>) -> Result<Vec<(String, ShardMeta, T)>, String> {
    if shards.is_empty() {
        return Err("no shards to merge".into());
    }
    let fields: Vec<Vec<(&'static str, String)>> = shards.iter().map(|s| s.1.run_fields()).collect();
    let mut votes: Vec<(usize, usize)> = Vec::new(); // (first index with these fields, count)
    for (i, f) in fields.iter().enumerate() {
        match votes.iter_mut().find(|(j, _)| fields[*j] == *f) {
            Some(v) => v.1 += 1,
            None => votes.push((i, 1)),
        }
    }
    let reference = votes.iter().fold(votes[0], |best, v| if v.1 > best.1 { *v } else { best }).0;
    let mut problems = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        if *f == fields[reference] {
            continue;
        }
        let diff: Vec<String> = f
            .iter()
            .zip(&fields[reference])
            .filter(|(a, b)| a.1 != b.1)
            .map(|(a, b)| format!("{} {} (the others: {})", a.0, a.1, b.1))
            .collect();
        problems.push(format!("{} is a shard of another run: {}", shards[i].0, diff.join("; ")));
    }
    let count = shards[reference].1.shards;
    let mut by_index: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (i, s) in shards.iter().enumerate() {
        if fields[i] == fields[reference] {
            if s.1.shard == 0 || s.1.shard > count {
                problems.push(format!("{} says it is shard {} of {count}", s.0, s.1.shard));
            } else {
                by_index.entry(s.1.shard).or_default().push(i);
            }
        }
    }
    for (k, list) in &by_index {
        if list.len() > 1 {
            let names: Vec<&str> = list.iter().map(|&i| shards[i].0.as_str()).collect();
            problems.push(format!("shard {k} of {count} is given {} times: {}", list.len(), names.join(", ")));
        }
    }
    // At most a few missing numbers are listed, found without walking a claimed count
    // (it may be 4294967295): at most `given + LISTED` numbers are looked at.
    const LISTED: usize = 10;
    let mut missing: Vec<String> = Vec::new();
    let mut k: u32 = 1;
    while k <= count && missing.len() < LISTED {
        if !by_index.contains_key(&k) {
            missing.push(k.to_string());
        }
        k = match k.checked_add(1) {
            Some(next) => next,
            None => break,
        };
    }
    let missing_total = u64::from(count) - by_index.keys().filter(|&&k| k <= count).count() as u64;
    if missing_total > 0 {
        let more = missing_total - missing.len() as u64;
        problems.push(format!(
            "missing shard{} {}{} of {count}",
            if missing_total > 1 { "s" } else { "" },
            missing.join(", "),
            if more > 0 { format!(" and {more} more") } else { String::new() }
        ));
    }
    if !problems.is_empty() {
        return Err(problems.join("\n"));
    }
    let mut slots: Vec<Option<(String, ShardMeta, T)>> = shards.into_iter().map(Some).collect();
    Ok(by_index.values().map(|list| slots[list[0]].take().expect("each once")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(shard: u32, shards: u32, seed: u64) -> ShardMeta {
        ShardMeta {
            schema_version: SHARD_SCHEMA_VERSION,
            volley_version: "0.1.0".into(),
            shard,
            shards,
            command: "sweep".into(),
            args: Vec::new(),
            ruleset: "techcommander".into(),
            scenario_name: "quick".into(),
            scenario_file: "<embedded>/quick.toml".into(),
            options: vec![],
            vary: serde_json::Value::Null,
            seed,
            trials: 1000,
            stream_trials: 4096,
            catalogue_origin: "embedded default catalogue".into(),
            catalogue_hash: "abc".into(),
            cells: 4,
            cell_keys: "k".into(),
            scenario_sha256: "s".into(),
            catalogue_sha256: "c".into(),
            tallies_sha256: format!("t{shard}"),
            state_sha256: String::new(),
            exact_sha256: String::new(),
            streams: 1,
            engagements: 1000,
            seconds: 0.1,
            source: "--shard".into(),
            meta_sha256: String::new(),
        }
    }

    /// A sealed `shard.json` read back matches its seal whatever its time took (the
    /// times of real shards are 17-digit floats); the unrounded times of the same runs
    /// do not all read back as the same bits, which is what made seals fail at random.
    #[test]
    fn a_sealed_description_read_back_matches_its_seal_whatever_its_time() {
        let mut unrounded_misses = 0;
        for i in 0..20_000u64 {
            let seconds = (i as f64 + 0.5) * 0.000_123_456_789_012_345_6 * (1.0 + (i % 97) as f64 / 7.0);
            let m = ShardMeta { seconds, ..meta(1, 2, 7) }.sealed();
            let back: ShardMeta = serde_json::from_str(&serde_json::to_string_pretty(&m).unwrap()).unwrap();
            assert_eq!(back.seal(), back.meta_sha256, "seconds {seconds}");
            let back: f64 = serde_json::from_str(&serde_json::to_string(&seconds).unwrap()).unwrap();
            unrounded_misses += usize::from(back.to_bits() != seconds.to_bits());
        }
        assert!(unrounded_misses > 0, "the control: some 17-digit times must read back as other bits");
    }

    fn named(list: &[(&str, ShardMeta)]) -> Vec<(String, ShardMeta, ())> {
        list.iter().map(|(n, m)| (n.to_string(), m.clone(), ())).collect()
    }

    #[test]
    fn a_command_line_is_compared_without_the_shards_own_flags() {
        let line = |s: &str| s.split(' ').map(str::to_string).collect::<Vec<_>>();
        let a = line("--ruleset techcommander battle A B --shard 1/3 --out x/s1 --trials 900 -q");
        let b = line("--ruleset techcommander battle A B --out=y --shard=2/3 --force --trials 900 --shards 3");
        assert_eq!(run_args(&a), run_args(&b));
        assert_eq!(run_args(&a), line("--ruleset techcommander battle A B --trials 900"));
        assert_ne!(run_args(&a), run_args(&line("--ruleset techcommander battle A B --trials 901")));
    }

    #[test]
    fn a_complete_set_comes_back_in_shard_order() {
        let set = check_set(named(&[("c", meta(3, 3, 1)), ("a", meta(1, 3, 1)), ("b", meta(2, 3, 1))])).unwrap();
        assert_eq!(set.iter().map(|s| s.0.as_str()).collect::<Vec<_>>(), ["a", "b", "c"]);
    }

    #[test]
    fn missing_duplicate_and_foreign_shards_are_named() {
        let err = check_set(named(&[("a", meta(1, 3, 1)), ("b", meta(3, 3, 1))])).unwrap_err();
        assert_eq!(err, "missing shard 2 of 3");
        let err =
            check_set(named(&[("a", meta(1, 2, 1)), ("b", meta(2, 2, 1)), ("again", meta(2, 2, 1))])).unwrap_err();
        assert_eq!(err, "shard 2 of 2 is given 2 times: b, again");
        let err = check_set(named(&[("a", meta(1, 2, 1)), ("x", meta(2, 2, 7)), ("b", meta(2, 2, 1))])).unwrap_err();
        assert_eq!(err, "x is a shard of another run: seed 7 (the others: 1)");
        let err = check_set(named(&[("a", meta(1, 3, 1)), ("x", meta(2, 2, 1))])).unwrap_err();
        assert!(err.contains("x is a shard of another run: shard count 2 (the others: 3)"), "{err}");
        assert!(err.contains("missing shards 2, 3 of 3"), "{err}");
    }

    #[test]
    fn a_huge_claimed_count_is_a_short_error() {
        let start = std::time::Instant::now();
        let err = check_set(named(&[("a", meta(1, u32::MAX, 1)), ("b", meta(2, u32::MAX, 1))])).unwrap_err();
        assert_eq!(err, "missing shards 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 and 4294967283 more of 4294967295");
        let err = check_set(named(&[("a", meta(u32::MAX, u32::MAX, 1))])).unwrap_err();
        assert!(err.starts_with("missing shards 1, 2,") && err.ends_with("and 4294967284 more of 4294967295"), "{err}");
        assert!(start.elapsed().as_secs() < 2, "no walk over the claimed count");
    }

    #[test]
    fn the_seal_covers_the_index_and_the_seed() {
        let m = meta(1, 2, 1).sealed();
        assert_eq!(m.seal(), m.meta_sha256);
        let mut relabelled = m.clone();
        relabelled.shard = 2;
        assert_ne!(relabelled.seal(), m.meta_sha256);
        let mut reseeded = m.clone();
        reseeded.seed = 7;
        assert_ne!(reseeded.seal(), m.meta_sha256);
        let text = serde_json::to_string_pretty(&m).unwrap();
        let back: ShardMeta = serde_json::from_str(&text).unwrap();
        assert_eq!(back.seal(), m.meta_sha256, "the seal survives the file's round trip");
    }
}
