//! Damage resolution of one gunner (shellshock.md §3, steps 1-8): the d6 pools, armour,
//! Overshock, Overpenetration, the Internal total and the Internal %'s box.

use rand::Rng;

use crate::dice::uniform::roll;

use super::options::DamageDice;

/// The faces of the `BELL_D12` shortcut die.
const BELL_D12: [u32; 12] = [1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6];

/// The law of `n` damage dice (d6) rolled as `how` says: index = total, 0..=6n.
pub fn pool_law(n: u32, how: DamageDice) -> Vec<f64> {
    let n = n as usize;
    match how {
        DamageDice::Pool => {
            let mut law = vec![1.0];
            for _ in 0..n {
                let mut next = vec![0.0; law.len() + 6];
                for (s, p) in law.iter().enumerate() {
                    for f in 1..=6 {
                        next[s + f] += p / 6.0;
                    }
                }
                law = next;
            }
            law
        }
        DamageDice::Multiply | DamageDice::BellD12 => {
            let mut law = vec![0.0; 6 * n + 1];
            if n == 0 {
                law[0] = 1.0;
                return law;
            }
            if how == DamageDice::Multiply {
                for f in 1..=6 {
                    law[n * f] += 1.0 / 6.0;
                }
            } else {
                for f in BELL_D12 {
                    law[n * f as usize] += 1.0 / 12.0;
                }
            }
            law
        }
    }
}

/// Roll `n` damage dice as `how` says (Monte Carlo).
#[inline]
pub fn roll_pool<R: Rng + ?Sized>(rng: &mut R, n: u32, how: DamageDice) -> u32 {
    if n == 0 {
        return 0;
    }
    match how {
        DamageDice::Pool => (0..n).map(|_| roll(rng, 6) as u32).sum(),
        DamageDice::Multiply => n * roll(rng, 6) as u32,
        DamageDice::BellD12 => n * BELL_D12[roll(rng, 12) as usize - 1],
    }
}

/// One box of the Internal %'s chart: from this Internal up, XX% and X Hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InternalBox {
    pub from: u32,
    pub percent: u32,
    pub hits: u32,
}

/// What a target's card says about taking one gunner's damage on one facing.
#[derive(Debug, Clone, PartialEq)]
pub struct Defence {
    /// Armour of the facing section at the start.
    pub armour: u32,
    pub shock_threshold: u32,
    pub penetration_factor: u32,
    /// "Dead X+": one gunner's Internal of at least this destroys the unit.
    pub dead_at: u32,
    /// Boxes sorted by `from`, ascending.
    pub boxes: Vec<InternalBox>,
}

/// The card-free result of an Internal total: nothing, lines marked, or the Dead box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Internal {
    None,
    /// Chart lines marked: XX+1 for a box (§3 step 9), 1 for a Core Hit.
    Lines(u32),
    Dead,
}

impl Defence {
    /// The box (index into `boxes`) of an Internal total, `None` for 0 or a Core Hit.
    pub fn box_of(&self, internal: u32) -> Option<usize> {
        self.boxes.iter().rposition(|b| b.from <= internal && internal > 0)
    }

    /// Step 7-9: the Dead box, or the lines the Internal total marks.
    pub fn internal(&self, internal: u32) -> Internal {
        if internal == 0 {
            Internal::None
        } else if internal >= self.dead_at {
            Internal::Dead
        } else {
            match self.box_of(internal) {
                Some(b) => Internal::Lines(self.boxes[b].percent + 1),
                None => Internal::Lines(1),
            }
        }
    }

    /// Steps 3-6 for rolled totals `d`, `s`, `p` (already multiplied) on `armour` left:
    /// (armour left after, Internal).
    #[inline]
    pub fn resolve(&self, armour: u32, d: u32, s: u32, p: u32) -> (u32, u32) {
        let internal = d.saturating_sub(armour)
            + s.saturating_sub(self.shock_threshold)
            + p.saturating_sub(self.penetration_factor);
        (armour.saturating_sub(d), internal)
    }
}

/// The exact joint law of (armour left after, Internal) for pools of `n` = (Damage,
/// Shock, Penetration) dice multiplied by `mult`, on `armour` left: entries
/// `(armour_after, internal, p)`, each pair once.
pub fn internal_law(def: &Defence, armour: u32, n: [u32; 3], mult: u32, how: DamageDice) -> Vec<(u32, u32, f64)> {
    let [ld, ls, lp] = n.map(|k| pool_law(k, how));
    // Overshock + Overpenetration law
    let mut over = vec![0.0; 1];
    let add = |law: &[f64], threshold: u32| {
        let mut o = vec![0.0; 1];
        for (v, p) in law.iter().enumerate() {
            if *p > 0.0 {
                let x = (v as u32 * mult).saturating_sub(threshold) as usize;
                if o.len() <= x {
                    o.resize(x + 1, 0.0);
                }
                o[x] += p;
            }
        }
        o
    };
    let os = add(&ls, def.shock_threshold);
    let op = add(&lp, def.penetration_factor);
    over.resize(os.len() + op.len(), 0.0);
    over[0] = 0.0;
    for (a, pa) in os.iter().enumerate() {
        for (b, pb) in op.iter().enumerate() {
            over[a + b] += pa * pb;
        }
    }
    let width = ld.len() * mult as usize + over.len();
    let mut grid = vec![0.0f64; (armour as usize + 1) * width];
    for (d, pd) in ld.iter().enumerate() {
        if *pd == 0.0 {
            continue;
        }
        let dm = d as u32 * mult;
        let (after, from_d) = (armour.saturating_sub(dm), dm.saturating_sub(armour));
        for (x, px) in over.iter().enumerate() {
            if *px > 0.0 {
                grid[after as usize * width + from_d as usize + x] += pd * px;
            }
        }
    }
    let mut out: Vec<(u32, u32, f64)> = Vec::new();
    for (j, &p) in grid.iter().enumerate() {
        if p > 0.0 {
            out.push(((j / width) as u32, (j % width) as u32, p));
        }
    }
    out
}
