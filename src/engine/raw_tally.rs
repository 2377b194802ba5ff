//! Tallies as raw integers, for shards: a tally written by one process is read back and
//! merged by another ([`RawTally`]). The layout is a flat list of unsigned integers:
//! scalars as they are, every vector preceded by its length (pairs as two entries each).
//! Merging raw counts is the tally's own integer merge, so it is exact and independent
//! of order.

use super::battle::BattleTally;
use super::kernel::Tally;
use crate::stats::{DuelTally, TtkTally};

/// Version of the raw layouts below; shards of different versions never merge.
pub const RAW_LAYOUT_VERSION: u32 = 2;

/// One cell's raw counts from one shard: engine call `call` of the sweep (a sweep runs
/// the engine once per table family), cell `cell` of that call, its key, and the counts
/// in the tally's raw layout ([`RawTally`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawCell {
    pub call: u32,
    pub cell: u32,
    pub key: u64,
    pub counts: Vec<u128>,
}

/// A tally that can be written as raw counts and merged back from them.
pub trait RawTally: Tally {
    /// The counts, in the type's fixed layout (see the module documentation).
    fn raw(&self) -> Vec<u128>;
    /// Add the counts `raw` (written by [`RawTally::raw`] for a tally of the same kernel).
    ///
    /// # Errors
    /// `raw` does not have this tally's layout (a truncated or foreign list, or the
    /// shape of another kernel's tally): nothing is added then.
    fn merge_raw(&mut self, raw: &[u128]) -> Result<(), String>;
}

/// Writes a raw layout.
#[derive(Default)]
struct Writer(Vec<u128>);

impl Writer {
    fn scalar(&mut self, x: impl Into<u128>) -> &mut Self {
        self.0.push(x.into());
        self
    }
    fn list(&mut self, v: &[u64]) -> &mut Self {
        self.0.push(v.len() as u128);
        self.0.extend(v.iter().map(|&x| x as u128));
        self
    }
    fn pairs(&mut self, v: &[(u128, u128)]) -> &mut Self {
        self.0.push(v.len() as u128);
        for &(a, b) in v {
            self.0.extend([a, b]);
        }
        self
    }
}

/// Reads a raw layout back, checking every length.
struct Reader<'a> {
    raw: &'a [u128],
    at: usize,
}

impl Reader<'_> {
    fn next(&mut self) -> Result<u128, String> {
        let x = *self.raw.get(self.at).ok_or("raw tally is truncated")?;
        self.at += 1;
        Ok(x)
    }
    fn u64(&mut self) -> Result<u64, String> {
        u64::try_from(self.next()?).map_err(|_| "raw tally count out of range".to_string())
    }
    fn len(&mut self) -> Result<usize, String> {
        let n = usize::try_from(self.next()?).map_err(|_| "raw tally length out of range".to_string())?;
        if n > self.raw.len() - self.at {
            return Err("raw tally is truncated".into());
        }
        Ok(n)
    }
    fn list(&mut self) -> Result<Vec<u64>, String> {
        let n = self.len()?;
        (0..n).map(|_| self.u64()).collect()
    }
    fn pairs(&mut self) -> Result<Vec<(u128, u128)>, String> {
        let n = self.len()?;
        (0..n).map(|_| Ok((self.next()?, self.next()?))).collect()
    }
    fn end(&self) -> Result<(), String> {
        if self.at == self.raw.len() { Ok(()) } else { Err("raw tally has trailing counts".into()) }
    }
}

fn same_len(what: &str, ours: usize, theirs: usize) -> Result<(), String> {
    if ours == theirs { Ok(()) } else { Err(format!("raw tally has {theirs} {what}, this cell's tally {ours}")) }
}

impl RawTally for TtkTally {
    fn raw(&self) -> Vec<u128> {
        let mut w = Writer::default();
        w.scalar(self.trials).list(&self.kills_by_turn).list(&self.kills_by_action);
        w.0
    }
    fn merge_raw(&mut self, raw: &[u128]) -> Result<(), String> {
        let mut r = Reader { raw, at: 0 };
        let other = TtkTally { trials: r.u64()?, kills_by_turn: r.list()?, kills_by_action: r.list()? };
        r.end()?;
        TtkTally::merge(self, &other);
        Ok(())
    }
}

impl RawTally for DuelTally {
    fn raw(&self) -> Vec<u128> {
        let mut w = Writer::default();
        w.scalar(self.trials)
            .list(&self.a_wins_by_turn)
            .list(&self.b_wins_by_turn)
            .list(&self.mutual_by_turn)
            .scalar(self.timeouts)
            .scalar(self.a_first)
            .scalar(self.b_first)
            .scalar(self.a_wins_a_first)
            .scalar(self.a_wins_b_first);
        w.0
    }
    fn merge_raw(&mut self, raw: &[u128]) -> Result<(), String> {
        let mut r = Reader { raw, at: 0 };
        let other = DuelTally {
            trials: r.u64()?,
            a_wins_by_turn: r.list()?,
            b_wins_by_turn: r.list()?,
            mutual_by_turn: r.list()?,
            timeouts: r.u64()?,
            a_first: r.u64()?,
            b_first: r.u64()?,
            a_wins_a_first: r.u64()?,
            a_wins_b_first: r.u64()?,
        };
        r.end()?;
        DuelTally::merge(self, &other);
        Ok(())
    }
}

/// The unit slots' owners are the battle's shape, not counts: they are not written, and
/// a raw battle tally must have this tally's numbers of sides and unit slots.
impl RawTally for BattleTally {
    fn raw(&self) -> Vec<u128> {
        let mut w = Writer::default();
        w.scalar(self.trials)
            .list(&self.wins)
            .list(&self.first)
            .list(&self.wins_first)
            .scalar(self.draws)
            .scalar(self.undecided)
            .list(&self.ended_in_turn)
            .scalar(self.turns_sum)
            .scalar(self.turns_sq)
            .list(&self.actions)
            .list(&self.escaped)
            .pairs(&self.score)
            .pairs(&self.points_lost)
            .pairs(&self.points_destroyed)
            .list(&self.lost)
            .list(&self.kills);
        w.0
    }
    fn merge_raw(&mut self, raw: &[u128]) -> Result<(), String> {
        let mut r = Reader { raw, at: 0 };
        let other = BattleTally {
            trials: r.u64()?,
            unit_side: self.unit_side.clone(),
            wins: r.list()?,
            first: r.list()?,
            wins_first: r.list()?,
            draws: r.u64()?,
            undecided: r.u64()?,
            ended_in_turn: r.list()?,
            turns_sum: r.next()?,
            turns_sq: r.next()?,
            actions: r.list()?,
            escaped: r.list()?,
            score: r.pairs()?,
            points_lost: r.pairs()?,
            points_destroyed: r.pairs()?,
            lost: r.list()?,
            kills: r.list()?,
        };
        r.end()?;
        let sides = self.wins.len();
        for (what, n) in [
            ("sides", other.wins.len()),
            ("sides' first turns", other.first.len()),
            ("sides' wins when first", other.wins_first.len()),
            ("sides' steps", other.actions.len()),
            ("sides' escapes", other.escaped.len()),
            ("sides' scores", other.score.len()),
            ("sides' points lost", other.points_lost.len()),
            ("sides' points destroyed", other.points_destroyed.len()),
        ] {
            same_len(what, sides, n)?;
        }
        same_len("unit slots", self.lost.len(), other.lost.len())?;
        same_len("unit slots' kills", self.kills.len(), other.kills.len())?;
        self.merge(&other);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T: RawTally + PartialEq + std::fmt::Debug>(empty: T, full: T) {
        let mut t = empty.clone();
        t.merge_raw(&full.raw()).unwrap();
        let mut expected = empty.clone();
        expected.merge(&full);
        assert_eq!(t, expected);
        // Merging twice adds twice; a cut list is refused and adds nothing.
        t.merge_raw(&full.raw()).unwrap();
        expected.merge(&full);
        assert_eq!(t, expected);
        let raw = full.raw();
        assert!(t.merge_raw(&raw[..raw.len() - 1]).is_err());
        assert!(t.merge_raw(&[raw.clone(), vec![0]].concat()).is_err());
        assert_eq!(t, expected);
    }

    #[test]
    fn tallies_round_trip_through_raw_counts() {
        let ttk = TtkTally { trials: 9, kills_by_turn: vec![1, 2, 3], kills_by_action: vec![0, 6] };
        round_trip(TtkTally::new(3, 2), ttk);
        let duel = DuelTally {
            trials: 10,
            a_wins_by_turn: vec![1, 2],
            b_wins_by_turn: vec![3, 0],
            mutual_by_turn: vec![1, 1],
            timeouts: 2,
            a_first: 6,
            b_first: 4,
            a_wins_a_first: 2,
            a_wins_b_first: 1,
        };
        round_trip(DuelTally::new(2), duel);
        let mut battle = BattleTally::new(2, vec![0, 1, 1], 4);
        battle.trials = 5;
        battle.wins = vec![2, 3];
        battle.first = vec![3, 2];
        battle.wins_first = vec![1, 2];
        battle.ended_in_turn = vec![0, 1, 4, 0];
        battle.turns_sum = u64::MAX as u128 * 3;
        battle.turns_sq = 7;
        battle.score = vec![(1, 1), (u128::MAX / 4, 2)];
        battle.lost = vec![1, 0, 2];
        battle.kills = vec![0, 3, 0];
        round_trip(BattleTally::new(2, vec![0, 1, 1], 4), battle);
        // Another battle's shape is refused.
        let mut three = BattleTally::new(3, vec![0, 1, 2], 4);
        assert!(three.merge_raw(&BattleTally::new(2, vec![0, 1, 1], 4).raw()).is_err());
    }
}
