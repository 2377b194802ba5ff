//! One attack as an exact transition on the target's card: P(hit) out of 36 and the
//! initial-cell roll out of 36, so every outcome is a count out of 1296 (§7 "Exact").

use super::dice::{WAYS, success_ways};
use super::options::Options;
use super::track::{Hit, Marking, TrackKind, apply, column};
use super::weapon::{Blunt, Weapon};

/// Elementary events of one attack: the to-hit roll's 36 x the initial cell's 36.
pub const TOTAL: u32 = 1296;

/// One attack's law, independent of the target's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Law {
    /// 36 x P(hit).
    pub hit: u32,
    pub on_hit: Hit,
    /// What a miss does to the aimed-at target: the ring a scattered explosive lands it
    /// in (Ruling `SCATTER_DOTS`); `None`: nothing.
    pub on_miss: Option<Hit>,
}

/// The law of one attack with `w` at target number `tn` by a firer with `firer_ap` max AP.
pub fn law(w: &Weapon, tn: i32, firer_ap: i32, o: &Options) -> Law {
    let blunt = match w.blunt {
        Blunt::Points(b) => b,
        Blunt::Fists if o.on("FISTS_ROUND_DOWN") => firer_ap.max(0) as u32 / 2,
        Blunt::Fists => (firer_ap.max(0) as u32).div_ceil(2),
    };
    let scatters = w.targets_dot() && !(w.incendiary && o.on("INCENDIARY_MISS_NO_EFFECT"));
    let ring = o.int("SCATTER_DOTS") as usize;
    let on_miss = if scatters {
        w.lethal.get(ring).copied().filter(|&x| x > 0).map(|lethal| Hit { lethal, blunt: 0 })
    } else {
        None
    };
    Law {
        hit: success_ways(tn, o.on("NO_AUTOMATIC_RESULT")),
        on_hit: Hit { lethal: w.lethal.first().copied().unwrap_or(0), blunt },
        on_miss,
    }
}

/// The target's card: its track, the marking rulings and which columns are out.
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    pub kind: TrackKind,
    pub marking: Marking,
    /// `out[col]` for every column 0..=cells (Ruling `OUT_CONDITION`, and
    /// `OUT_WHEN_CANNOT_ATTACK` when on).
    pub out: Vec<bool>,
    /// Armour cells of the fresh card.
    pub armour: u32,
}

impl Card {
    pub fn column(&self, s: u64) -> usize {
        column(self.kind, s, &self.marking)
    }
    pub fn is_out(&self, s: u64) -> bool {
        self.out[self.column(s)]
    }
}

/// Every next state of `s` under `law` with its count out of [`TOTAL`] (an out state
/// stays as it is), in first-reached order.
pub fn transitions(card: &Card, s: u64, law: &Law) -> Vec<(u64, u32)> {
    if card.is_out(s) {
        return vec![(s, TOTAL)];
    }
    let mut out: Vec<(u64, u32)> = Vec::with_capacity(16);
    let mut add = |next: u64, n: u32| {
        if n == 0 {
            return;
        }
        match out.iter_mut().find(|(x, _)| *x == next) {
            Some(e) => e.1 += n,
            None => out.push((next, n)),
        }
    };
    for roll in 2..=12i32 {
        let w = WAYS[roll as usize];
        add(apply(card.kind, s, law.on_hit, roll, &card.marking), law.hit * w);
        let miss = law.on_miss.map_or(s, |h| apply(card.kind, s, h, roll, &card.marking));
        add(miss, (36 - law.hit) * w);
    }
    out
}
