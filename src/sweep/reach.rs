//! Reach: whether each side of an engagement can attack at its conditions
//! ([`Ruleset::can_attack`]: a weapon in range, a reach for a special attack). A side
//! that cannot is harmless whatever the dice, so its results say nothing about its
//! worth; the commands flag it (`a_can_attack`, `b_can_attack`).

use std::collections::HashMap;

use crate::rules::battle::BattleInfo;
use crate::rules::ruleset::Ruleset;

/// Whether side `a` can attack `b` at `c`. A pair the ruleset's reach check cannot
/// judge (it refuses the pair, as a target given by its stats rather than a catalogue
/// name) counts as reaching, so a side is never called harmless on a guess.
pub fn reaches<R: Ruleset>(cat: &R::Catalogue, a: &str, b: &str, c: &R::Conditions, o: &R::Options) -> bool {
    R::can_attack(cat, a, b, c, o).unwrap_or(true)
}

/// Whether duel side `a` can attack `b` and `b` can attack `a`, both at `c` (see
/// [`reaches`]).
pub fn duel_reach<R: Ruleset>(cat: &R::Catalogue, a: &str, b: &str, c: &R::Conditions, o: &R::Options) -> (bool, bool) {
    (reaches::<R>(cat, a, b, c, o), reaches::<R>(cat, b, a, c, o))
}

/// The reach of a battle's sides: which side can attack which, and the units that can
/// attack no enemy unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BattleReach {
    /// `reaches[s][t]`: some unit of side `s` can attack some unit of side `t` (false
    /// for `s == t` and for teammates).
    pub reaches: Vec<Vec<bool>>,
    /// Per unit slot ([`BattleInfo::units`]): whether it can attack some enemy unit.
    pub unit_can_attack: Vec<bool>,
}

impl BattleReach {
    /// Whether side `s` can attack: some unit of it can attack some enemy unit.
    pub fn can_attack(&self, s: usize) -> bool {
        self.reaches[s].iter().any(|&r| r)
    }

    /// Whether some enemy of side `s` can attack it (for two sides: the other side can
    /// attack).
    pub fn attacked(&self, s: usize) -> bool {
        self.reaches.iter().any(|row| row[s])
    }

    /// The units of side `s` that can attack no enemy unit, by name, in slot order.
    pub fn idle_units<'a>(&self, info: &'a BattleInfo, s: usize) -> Vec<&'a str> {
        info.units
            .iter()
            .zip(&self.unit_can_attack)
            .filter(|(u, can)| u.side == s && !**can)
            .map(|(u, _)| u.name.as_str())
            .collect()
    }
}

/// The reach of a compiled battle: every unit of a side against every enemy unit (units
/// of another side; with `teams`, each side's team label, of another team), at the
/// attacking side's conditions (`conditions[side]`, or the last one for later sides).
/// A pair the reach check cannot judge (it refuses the pair) counts as reaching, so a
/// side is never called harmless on a guess.
pub fn battle_reach<R: Ruleset>(
    cat: &R::Catalogue,
    info: &BattleInfo,
    conditions: &[R::Conditions],
    o: &R::Options,
    teams: Option<&[usize]>,
) -> BattleReach {
    let sides = info.sides.len();
    let team = |s: usize| teams.and_then(|t| t.get(s).copied()).unwrap_or(s);
    let mut memo: HashMap<(&str, &str, usize), bool> = HashMap::new();
    let mut matrix = vec![vec![false; sides]; sides];
    let mut unit_can_attack = vec![false; info.units.len()];
    for (i, u) in info.units.iter().enumerate() {
        let ci = u.side.min(conditions.len().saturating_sub(1));
        for v in info.units.iter().filter(|v| team(v.side) != team(u.side)) {
            let can = *memo
                .entry((u.name.as_str(), v.name.as_str(), ci))
                .or_insert_with(|| reaches::<R>(cat, &u.name, &v.name, &conditions[ci], o));
            if can {
                matrix[u.side][v.side] = true;
                unit_can_attack[i] = true;
            }
        }
    }
    BattleReach { reaches: matrix, unit_can_attack }
}

/// The warning line for a side that cannot attack: `side` (its letter, or `build`,
/// `opponent`), its `name` and the `conditions` in words; no newline.
pub fn one_sided_warning(side: &str, name: &str, conditions: &str) -> String {
    format!(
        "one-sided: {side} ({name}) cannot attack at {conditions} (none of its weapons can fire there): its results say nothing of its worth"
    )
}

/// Reach in one matchup of a comparison: A and B each against one opponent (duels,
/// battles) or target (attack runs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompareReach {
    /// Whether A, B can attack the opponent or target.
    pub a: bool,
    pub b: bool,
    /// Whether the opponent can attack A, B; `None` against an inert target.
    pub versus_a: Option<bool>,
    pub versus_b: Option<bool>,
}

impl CompareReach {
    /// Whether a side of A's or of B's engagement cannot attack.
    pub fn one_sided(&self) -> bool {
        !(self.a && self.b && self.versus_a != Some(false) && self.versus_b != Some(false))
    }

    /// Warning lines for people (no newline): one for the compared builds that cannot
    /// attack the opponent or target, one for the builds the opponent cannot attack, so
    /// no line repeats. `(a, b)` the compared names, `versus` the opponent's,
    /// `conditions` in words.
    pub fn warnings(&self, (a, b): (&str, &str), versus: &str, conditions: &str) -> Vec<String> {
        let at = format!("at {conditions} (none of its weapons can fire there)");
        let both = |x: &str, y: &str, one: &dyn Fn(&str) -> String| {
            if x == y { one(&format!("{x} (A and B)")) } else { one(&format!("{x} (A) or {y} (B)")) }
        };
        let mut out = Vec::new();
        match (self.a, self.b) {
            (false, false) if a == b => out.push(format!("one-sided: {a} (A and B) cannot attack {versus} {at}")),
            (false, false) => out.push(format!("one-sided: neither {a} (A) nor {b} (B) can attack {versus} {at}")),
            (false, true) => out.push(format!("one-sided: {a} cannot attack {versus} {at}")),
            (true, false) => out.push(format!("one-sided: {b} cannot attack {versus} {at}")),
            (true, true) => {}
        }
        match (self.versus_a, self.versus_b) {
            (Some(false), Some(false)) => {
                out.push(both(a, b, &|whom| format!("one-sided: {versus} cannot attack {whom} {at}")))
            }
            (Some(false), _) => out.push(format!("one-sided: {versus} cannot attack {a} {at}")),
            (_, Some(false)) => out.push(format!("one-sided: {versus} cannot attack {b} {at}")),
            _ => {}
        }
        out
    }
}
