//! The to-hit roll (shellshock.md §1, §8): its exact law under the `EXACT_DEPTH` cut,
//! the joint hit law of one gunner's weapons, and one roll of real dice for Monte Carlo.
//!
//! # Why the depth cut is exact
//! Each d10 is cut after `D` rerolls: the tail (D+1 tens in a row) is put at its lowest
//! value, 10(D+1)+1, with its exact probability 10^-(D+1). The cut value is
//! `min(X, 10(D+1)+1)`, so for any threshold `t <= 10(D+1)+2` the event "dice total >= t"
//! is the same event with and without the cut (a die in the tail makes both sums reach
//! t, since the other die shows at least 1). The auto-miss and natural 20 read first
//! rolls only; "two 10s in a row on one die" (doubling) and the second 20 need the first
//! reroll only, so D >= 1 keeps them exact. [`required_depth`] picks the least D >= 1
//! with 10(D+1)+2 >= the largest dice threshold (TN − Gunnery) asked: every probability
//! this module reports for those TNs is then exact (up to f64 rounding, ~1e-16), not an
//! approximation. Damage never depends on the depth, only on the multiplier.

use rand::Rng;

use crate::dice::uniform::roll;

/// The to-hit dice: an exploding d10 and a second die (§1, and the `DICE_LADDER`
/// ruling: one dice level is one step of the second die).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dice {
    D10D4,
    D10D6,
    D10D8,
    TwoD10,
}

impl Dice {
    /// The ladder, lowest level first.
    const LADDER: [Dice; 4] = [Dice::D10D4, Dice::D10D6, Dice::D10D8, Dice::TwoD10];
    /// Names as catalogues and the `dice` axis write them.
    pub const NAMES: [&'static str; 4] = ["d10+d4", "d10+d6", "d10+d8", "2d10"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// Faces of the second die (10: an exploding d10).
    fn second_sides(self) -> u32 {
        [4, 6, 8, 10][self as usize]
    }

    /// # Errors
    /// A name not on the ladder.
    pub fn parse(s: &str) -> Result<Dice, String> {
        let s = s.trim().to_lowercase().replace(' ', "");
        Self::NAMES
            .iter()
            .position(|n| *n == s)
            .map(|i| Self::LADDER[i])
            .ok_or_else(|| format!("unknown to-hit dice `{s}`: expected one of {}", Self::NAMES.join(", ")))
    }

    /// The dice after losing `levels` dice levels; the ladder stops at d10+d4.
    pub fn lose_levels(self, levels: u32) -> Dice {
        Self::LADDER[(self as usize).saturating_sub(levels as usize)]
    }
}

/// Damage multipliers a roll can carry: ×1, ×2, ×4, ×8 (the last two only with
/// `DOUBLE_STACKS`).
pub const MULTIPLIERS: [u32; 4] = [1, 2, 4, 8];

/// The least depth D >= 1 for which P(dice total >= t) is exact for every t up to
/// `max_dice_threshold` (a TN minus the Gunnery skill): 10(D+1)+2 >= t.
pub fn required_depth(max_dice_threshold: i64) -> u32 {
    let mut d = 1u32;
    while 10 * (i64::from(d) + 1) + 2 < max_dice_threshold {
        d += 1;
    }
    d
}

/// One d10 outcome under the cut: (value, first roll was 10, first two rolls were 10,
/// probability).
fn d10_law(depth: u32) -> Vec<(u32, bool, bool, f64)> {
    let mut out = Vec::new();
    let mut p_tens = 1.0; // P(k tens in a row so far)
    for k in 0..=depth {
        for r in 1..=9 {
            out.push((10 * k + r, k >= 1, k >= 2, p_tens / 10.0));
        }
        p_tens /= 10.0;
    }
    out.push((10 * (depth + 1) + 1, true, depth + 1 >= 2, p_tens));
    out
}

/// The exact law of one to-hit roll of `dice` with `spread` spreadfire d6s.
#[derive(Debug, Clone, PartialEq)]
pub struct RollLaw {
    pub dice: Dice,
    pub spread: u32,
    pub depth: u32,
    /// P(natural 2, 3 or 4): every weapon misses.
    pub p_auto_miss: f64,
    /// P(natural 20, not a destroying second 20), by multiplier index.
    pub p_nat20: [f64; 4],
    /// P(a second 20: natural 20 and both rerolls 10) when `SECOND_20_DESTROYS`; else 0
    /// (then it counts in `p_nat20`).
    pub p_second_20: f64,
    /// `normal[m][t]`: P(no auto-miss, no natural 20, multiplier index m, dice total t)
    /// (dice total = both dice with explosions + spreadfire d6s, before Gunnery).
    pub normal: [Vec<f64>; 4],
}

impl RollLaw {
    /// The law at `depth` (>= 1; see the module documentation for when it is exact).
    pub fn new(dice: Dice, spread: u32, depth: u32, double_stacks: bool, second_20_destroys: bool) -> RollLaw {
        let depth = depth.max(1);
        let first = d10_law(depth);
        let second: Vec<(u32, bool, bool, f64)> = if dice == Dice::TwoD10 {
            d10_law(depth)
        } else {
            let n = dice.second_sides();
            (1..=n).map(|v| (v, false, false, 1.0 / f64::from(n))).collect()
        };
        // spreadfire d6 sum law
        let mut sp = vec![1.0];
        for _ in 0..spread {
            let mut next = vec![0.0; sp.len() + 6];
            for (s, p) in sp.iter().enumerate() {
                for f in 1..=6 {
                    next[s + f] += p / 6.0;
                }
            }
            sp = next;
        }
        let max_total = (10 * (depth + 2)) as usize * 2 + sp.len() + 2;
        let mut normal: [Vec<f64>; 4] = std::array::from_fn(|_| vec![0.0; max_total]);
        let (mut p_auto_miss, mut p_nat20, mut p_second_20) = (0.0, [0.0; 4], 0.0);
        for &(v1, t1, r1, p1) in &first {
            let n1 = if t1 { 10 } else { v1 };
            for &(v2, t2, r2, p2) in &second {
                let n2 = if t2 { 10 } else { v2 };
                let p = p1 * p2;
                let natural = n1 + n2;
                if (2..=4).contains(&natural) {
                    p_auto_miss += p;
                    continue;
                }
                let nat20 = dice == Dice::TwoD10 && t1 && t2;
                let ways = u32::from(nat20) + u32::from(r1) + u32::from(r2);
                let m = match (ways, double_stacks) {
                    (0, _) => 0,
                    (_, false) => 1,
                    (w, true) => w.min(3) as usize,
                };
                if nat20 {
                    if second_20_destroys && r1 && r2 {
                        p_second_20 += p;
                    } else {
                        p_nat20[m] += p;
                    }
                    continue;
                }
                for (s, ps) in sp.iter().enumerate() {
                    normal[m][(v1 + v2) as usize + s] += p * ps;
                }
            }
        }
        RollLaw { dice, spread, depth, p_auto_miss, p_nat20, p_second_20, normal }
    }

    /// P(every weapon hits by a natural 20), the second 20 included.
    pub fn p_natural_20(&self) -> f64 {
        self.p_nat20.iter().sum::<f64>() + self.p_second_20
    }

    /// P(the rolled Damage, Shock and Penetration are multiplied), second 20 included.
    pub fn p_doubled(&self) -> f64 {
        self.p_natural_20() + self.normal[1..].iter().flatten().sum::<f64>()
    }

    /// P(dice total >= t | no auto-miss, no natural 20) mass, by multiplier index.
    fn mass_at_least(&self, m: usize, t: i64) -> f64 {
        let from = t.max(0) as usize;
        self.normal[m].iter().skip(from).sum()
    }

    /// P(a weapon of target number `tn` hits) with Gunnery `gunnery`.
    pub fn p_hit(&self, tn: i64, gunnery: i64) -> f64 {
        self.p_natural_20() + (0..4).map(|m| self.mass_at_least(m, tn - gunnery)).sum::<f64>()
    }

    /// The joint hit law of weapons with target numbers `tns` sorted ascending: every
    /// outcome as (number of weapons hit, which are the first k; multiplier index;
    /// probability), plus the second-20 probability (all hit, target destroyed).
    /// Hits are nested because one roll is checked against every TN (§1).
    pub fn hit_classes(&self, tns: &[i64], gunnery: i64) -> (Vec<(usize, usize, f64)>, f64) {
        debug_assert!(tns.windows(2).all(|w| w[0] <= w[1]));
        let n = tns.len();
        let mut p = vec![[0.0f64; 4]; n + 1];
        p[0][0] += self.p_auto_miss;
        for (m, (&nat20, normal)) in self.p_nat20.iter().zip(&self.normal).enumerate() {
            p[n][m] += nat20;
            for (t, &q) in normal.iter().enumerate() {
                if q > 0.0 {
                    let k = tns.iter().filter(|&&tn| tn - gunnery <= t as i64).count();
                    p[k][m] += q;
                }
            }
        }
        let mut out = Vec::new();
        for (k, row) in p.iter().enumerate() {
            for (m, &q) in row.iter().enumerate() {
                if q > 0.0 {
                    out.push((k, m, q));
                }
            }
        }
        (out, self.p_second_20)
    }
}

/// One to-hit roll of real dice (Monte Carlo, `MC_EXPLODE = UNBOUNDED`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rolled {
    pub auto_miss: bool,
    pub natural_20: bool,
    /// A second 20 that destroys (with `SECOND_20_DESTROYS`).
    pub second_20: bool,
    /// Multiplier index into [`MULTIPLIERS`].
    pub multiplier: usize,
    /// Dice total with explosions and spreadfire d6s, before Gunnery.
    pub total: u32,
}

/// An exploding d10 rolled until it shows something other than 10:
/// (value, first roll 10, first two rolls 10).
#[inline]
fn d10<R: Rng + ?Sized>(rng: &mut R) -> (u32, bool, bool) {
    let mut tens = 0u32;
    loop {
        let r = roll(rng, 10) as u32;
        if r != 10 {
            return (10 * tens + r, tens >= 1, tens >= 2);
        }
        tens += 1;
    }
}

/// Roll the to-hit dice once: every d10 explodes without limit.
pub fn roll_dice<R: Rng + ?Sized>(
    rng: &mut R,
    dice: Dice,
    spread: u32,
    double_stacks: bool,
    second_20_destroys: bool,
) -> Rolled {
    let (v1, t1, r1) = d10(rng);
    let (v2, t2, r2) =
        if dice == Dice::TwoD10 { d10(rng) } else { (roll(rng, u64::from(dice.second_sides())) as u32, false, false) };
    let mut total = v1 + v2;
    for _ in 0..spread {
        total += roll(rng, 6) as u32;
    }
    let natural = if t1 { 10 } else { v1 } + if t2 { 10 } else { v2 };
    let natural_20 = dice == Dice::TwoD10 && t1 && t2;
    let ways = u32::from(natural_20) + u32::from(r1) + u32::from(r2);
    let multiplier = match (ways, double_stacks) {
        (0, _) => 0,
        (_, false) => 1,
        (w, true) => w.min(3) as usize,
    };
    Rolled {
        auto_miss: (2..=4).contains(&natural),
        natural_20,
        second_20: natural_20 && second_20_destroys && r1 && r2,
        multiplier,
        total,
    }
}
