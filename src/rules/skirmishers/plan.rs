//! The attack run's plan (§4 "Attack run"): which attacks the attacker makes each round.
//! The attacker is never hurt, so the plan is fixed before the first roll; only ammunition
//! (grenades, launcher rounds) changes it from round to round.

use std::fmt;
use std::str::FromStr;

use super::conditions::Conditions;
use super::law::{Law, law};
use super::options::Options;
use super::tn::target_number;
use super::trooper::Trooper;
use super::weapon::{Shots, Use, Weapon};

/// How an attack run picks its attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RunPolicy {
    /// The active weapon (the primary if it reaches, else the secondary; power armour:
    /// every primary that reaches, each with its own arc): reactive attacks from the
    /// cheapest arc, melee, or launcher uses as AP and ammunition allow.
    #[default]
    ActiveWeapon,
    /// Throw hand grenades while they last (3 AP to ready + 1 AP a dot, TN = the throw's
    /// AP; no arc in a round with a throw), then as `active-weapon`.
    GrenadesFirst,
}

impl RunPolicy {
    pub const NAMES: &'static [&'static str] = &["active-weapon", "grenades-first"];
}

impl fmt::Display for RunPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Self::NAMES[*self as usize])
    }
}

impl FromStr for RunPolicy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "active-weapon" => Ok(RunPolicy::ActiveWeapon),
            "grenades-first" => Ok(RunPolicy::GrenadesFirst),
            _ => Err(format!("unknown Skirmishers policy `{s}`: expected {}", Self::NAMES.join(" or "))),
        }
    }
}

/// One attack of the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// Index into [`Plan::laws`].
    pub law: u8,
    /// Index into [`Plan::weapons`].
    pub weapon: u8,
}

/// A run's attacks round by round.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub rounds: Vec<Vec<Step>>,
    pub laws: Vec<Law>,
    pub weapons: Vec<String>,
}

impl Plan {
    fn push(&mut self, round: usize, w: &Weapon, l: Law) {
        let li = self.laws.iter().position(|x| *x == l).unwrap_or_else(|| {
            self.laws.push(l);
            self.laws.len() - 1
        });
        let wi = self.weapons.iter().position(|x| *x == w.name).unwrap_or_else(|| {
            self.weapons.push(w.name.clone());
            self.weapons.len() - 1
        });
        self.rounds[round].push(Step { law: li as u8, weapon: wi as u8 });
    }
    pub fn attacks(&self) -> usize {
        self.rounds.iter().map(Vec::len).sum()
    }
}

/// The weapons the attacker uses under `active-weapon`, with their TNs.
fn active(a: &Trooper, tsneak: bool, c: &Conditions, mods: i32, ap: i32, o: &Options) -> Vec<(Weapon, i32)> {
    let tn = |w: &Weapon| target_number(w, c, tsneak, mods, ap, o).ok().map(|t| (w.clone(), t));
    let primaries: Vec<(Weapon, i32)> = a.primaries.iter().filter_map(tn).collect();
    let many = a.track == super::track::TrackKind::Power;
    match (primaries.is_empty(), many) {
        (false, true) => primaries,
        (false, false) => primaries.into_iter().take(1).collect(),
        (true, _) => a.secondary.iter().filter_map(tn).collect(),
    }
}

/// Build the plan of `a` against a target (sneak suit `tsneak`) for `max_rounds` rounds.
/// A plan may hold no attack (every weapon out of range): the target is then never out,
/// which is what sweeps record for such cells.
///
/// # Errors
/// None yet; kept for plans the kernel may refuse.
pub fn plan(
    a: &Trooper,
    firer_col: usize,
    tsneak: bool,
    c: &Conditions,
    o: &Options,
    policy: RunPolicy,
    max_rounds: u32,
) -> Result<Plan, String> {
    let mods = a.track.mods(firer_col);
    let ap = a.max_ap(firer_col);
    let mut p = Plan { rounds: vec![Vec::new(); max_rounds as usize], laws: Vec::new(), weapons: Vec::new() };
    let weapons = active(a, tsneak, c, mods, ap, o);
    let mut grenades = if policy == RunPolicy::GrenadesFirst { a.grenades } else { 0 };
    let throw = a.grenade.as_ref().and_then(|g| target_number(g, c, tsneak, mods, ap, o).ok().map(|t| (g, t)));
    let mut ammo: Vec<Option<u32>> = weapons.iter().map(|(w, _)| w.ammo).collect();
    for round in 0..max_rounds as usize {
        if grenades > 0
            && let Some((g, tn)) = throw
        {
            let Use::Thrown { per_dot } = g.usage() else { unreachable!("a grenade is thrown") };
            let cost = 3 + (c.range * per_dot * if c.attacker_prone { 2 } else { 1 }) as i32;
            let mut left = ap;
            while grenades > 0 && left >= cost {
                p.push(round, g, law(g, tn, ap, o));
                grenades -= 1;
                left -= cost;
            }
            continue;
        }
        let mut left = ap;
        let mut mf_done = false;
        let mut reactive: Vec<(Weapon, Law)> = Vec::new();
        for (k, (w, tn)) in weapons.iter().enumerate() {
            match w.usage() {
                Use::Arc { shots, crew } => {
                    let cost = if crew { o.int("CREW_ARC_AP") as i32 } else { 2 };
                    if left < cost {
                        continue;
                    }
                    left -= cost;
                    if o.on("MOVEMENT_FIRE") && !mf_done {
                        mf_done = true;
                        let burst = shots == Shots::Unlimited;
                        while left >= 2 {
                            p.push(round, w, law(w, tn + 2, ap, o));
                            left -= 2;
                            if !burst {
                                break;
                            }
                        }
                    }
                    let n = match shots {
                        Shots::Times(m) if o.on("VOLLEY") => m.max(1),
                        _ => 1,
                    };
                    for _ in 0..n {
                        reactive.push((w.clone(), law(w, *tn, ap, o)));
                    }
                }
                Use::Melee => {
                    while left >= 5 {
                        reactive.push((w.clone(), law(w, *tn, ap, o)));
                        left -= 5;
                    }
                }
                Use::Launcher { ap: cost } => {
                    let uses = match cost {
                        Some(0) | None => 1,
                        Some(x) => {
                            let n = left / x as i32;
                            left -= n * x as i32;
                            n as u32
                        }
                    };
                    for _ in 0..uses {
                        match &mut ammo[k] {
                            Some(0) => break,
                            Some(n) => *n -= 1,
                            None => {}
                        }
                        p.push(round, w, law(w, *tn, ap, o));
                    }
                }
                Use::Thrown { .. } => {}
            }
        }
        for (w, l) in reactive {
            p.push(round, &w, l);
        }
    }
    Ok(p)
}
