//! The full chart model (`MODEL = FULL_CHART`, Monte Carlo only; shellshock.md §3 steps
//! 9-11 and `OUT_OF_ACTION` (a)-(f)): every Internal hit rolls d100 and marks XX+1
//! unmarked lines of the target's 100-line Internal Damage Chart (skips, `CHART_WRAPS`),
//! every item in the range takes X hits once (`HITS_ONCE_PER_RANGE`), items are destroyed
//! by their capacity or when all their lines are marked, each fuel or ammunition item hit
//! rolls a sympathetic explosion (`SYMPATHETIC_PER_ITEM`, opposed d10s, ties to the
//! defender, a working Halon item's `bonus` to the defender), locomotion items are
//! marked but never destroyed and roll the Locomotion Damage Chart once per hit
//! (`LOCOMOTION_LINES`; `X` makes the unit immobile), and every engine destroyed
//! immobilises (`ENGINE_LOSS_IMMOBILISES`).
//!
//! Effects on later turns (`SEQUENTIAL_BOOKKEEPING`: they start at the next turn): a
//! destroyed weapon item silences its weapon(s); a gunner whose crew items are all
//! destroyed no longer rolls; an immobile target is shot at with the immobile TNs.
//! Out of action: (a) Dead box, (b) second 20, (c) sympathetic explosion, (d) 100 lines
//! marked, (e) every crew item destroyed (units with crew items), (f) immobile with no
//! weapon whose weapon items work and whose gunner lives.
//!
//! Per-trial state is [`CardState`], a `Copy` value of fixed size (a 100-bit set of
//! marked lines and one hit count per item): no allocation per action.

use rand::Rng;

use crate::dice::uniform::roll;

use super::damage::{Defence, roll_pool};
use super::gunner::GunnerPlan;
use super::options::DamageDice;
use super::roll::{MULTIPLIERS, roll_dice};
use super::unit::{Chart, Unit};

/// Items a chart may list in the full-chart model (one bit each).
const MAX_ITEMS: usize = 32;

/// What an item does when hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Crew,
    Weapon,
    Engine,
    /// Fuel or ammunition: rolls a sympathetic explosion when hit.
    Explosive,
    Locomotion,
    Halon,
    /// Turrets, sensors, rail-gun ammunition and anything else: only destroyed.
    Other,
}

impl Kind {
    /// The kind of a catalogue `kind` word (case-insensitive).
    pub fn of(word: &str) -> Kind {
        match word.to_ascii_lowercase().as_str() {
            "crew" => Kind::Crew,
            "weapon" => Kind::Weapon,
            "engine" => Kind::Engine,
            "fuel" | "ammo" | "ammunition" => Kind::Explosive,
            "locomotion" => Kind::Locomotion,
            "halon" => Kind::Halon,
            _ => Kind::Other,
        }
    }
}

/// Items whose loss silences one weapon: its gunner's crew and its weapon items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Gate {
    /// Crew items of the weapon's gunner (0: the gunner has none and never dies).
    pub crew: u32,
    /// Weapon items that are this weapon (any destroyed silences it).
    pub items: u32,
}

impl Gate {
    /// The gate of weapon `weapon` of card gunner `gunner` (from 1) on `chart`.
    pub fn new(chart: &Chart, gunner: usize, weapon: &str) -> Gate {
        let mut g = Gate::default();
        for (i, e) in chart.equipment.iter().enumerate().take(MAX_ITEMS) {
            if e.gunner != Some(gunner as u32) {
                continue;
            }
            match Kind::of(&e.kind) {
                Kind::Crew => g.crew |= 1 << i,
                Kind::Weapon if e.weapon.as_deref().is_none_or(|w| w == weapon) => g.items |= 1 << i,
                _ => {}
            }
        }
        g
    }

    /// Whether the weapon works when the items in `destroyed` are destroyed.
    #[inline]
    pub fn works(self, destroyed: u32) -> bool {
        (self.crew == 0 || destroyed & self.crew != self.crew) && destroyed & self.items == 0
    }
}

/// One unit's Internal Damage Chart compiled for the kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartModel {
    /// Item index of each line (line 01 first).
    pub item_of_line: [u8; 100],
    pub kinds: Vec<Kind>,
    /// Hits that destroy each item.
    pub capacity: Vec<u32>,
    /// Lines of each item, as a 100-bit set.
    pub lines_of: Vec<[u64; 2]>,
    /// Masks of items by kind.
    pub crew: u32,
    pub engines: u32,
    pub explosive: u32,
    pub locomotion: u32,
    /// (Halon item, its bonus).
    pub halon: Vec<(u32, i32)>,
    /// Locomotion chart cells (row d10 - 1, column d6 - 1) that immobilise.
    pub immobilises: [[bool; 6]; 10],
    /// The unit's own weapons (every gunner's), for (f).
    pub own_weapons: Vec<Gate>,
    /// Whether every engine destroyed immobilises (`ENGINE_LOSS_IMMOBILISES`).
    pub engine_loss_immobilises: bool,
}

#[inline]
fn bit(set: &[u64; 2], line: usize) -> bool {
    set[line / 64] >> (line % 64) & 1 == 1
}

#[inline]
fn set_bit(set: &mut [u64; 2], line: usize) {
    set[line / 64] |= 1 << (line % 64);
}

impl ChartModel {
    /// Compile `unit`'s chart (`chart`, the one it names).
    ///
    /// # Errors
    /// A chart of more than [`MAX_ITEMS`] items, or a line whose letter is no item.
    pub fn new(unit: &Unit, chart: &Chart, weapon_names: &[String]) -> Result<ChartModel, String> {
        let n = chart.equipment.len();
        if n > MAX_ITEMS {
            return Err(format!(
                "chart `{}`: the full-chart model plays at most {MAX_ITEMS} items, got {n}",
                chart.name
            ));
        }
        let mut item_of_line = [0u8; 100];
        let mut lines_of = vec![[0u64; 2]; n];
        for (l, c) in chart.lines.iter().enumerate().take(100) {
            let i = chart
                .equipment
                .iter()
                .position(|e| e.letter == *c)
                .ok_or_else(|| format!("chart `{}`: line {} names no equipment item", chart.name, l + 1))?;
            item_of_line[l] = i as u8;
            set_bit(&mut lines_of[i], l);
        }
        let kinds: Vec<Kind> = chart.equipment.iter().map(|e| Kind::of(&e.kind)).collect();
        let mask = |k: Kind| kinds.iter().enumerate().filter(|(_, x)| **x == k).fold(0u32, |m, (i, _)| m | 1 << i);
        let mut immobilises = [[false; 6]; 10];
        if let Some(rows) = &chart.locomotion {
            for (r, row) in rows.iter().enumerate().take(10) {
                for (c, cell) in row.iter().enumerate().take(6) {
                    immobilises[r][c] = cell == "X";
                }
            }
        }
        let own_weapons = unit
            .gunners
            .iter()
            .enumerate()
            .flat_map(|(g, gu)| gu.weapons.iter().map(move |&w| (g + 1, w)))
            .map(|(g, w)| Gate::new(chart, g, &weapon_names[w]))
            .collect();
        Ok(ChartModel {
            item_of_line,
            capacity: chart.equipment.iter().map(|e| e.hits).collect(),
            lines_of,
            crew: mask(Kind::Crew),
            engines: mask(Kind::Engine),
            explosive: mask(Kind::Explosive),
            locomotion: mask(Kind::Locomotion),
            halon: kinds
                .iter()
                .enumerate()
                .filter(|(_, k)| **k == Kind::Halon)
                .map(|(i, _)| (1u32 << i, chart.equipment[i].bonus))
                .collect(),
            kinds,
            immobilises,
            own_weapons,
            engine_loss_immobilises: true,
        })
    }

    /// The defender's sympathetic modifier: the best working Halon item's bonus, else 0.
    #[inline]
    fn halon_bonus(&self, destroyed: u32) -> i32 {
        self.halon.iter().filter(|(m, _)| destroyed & m == 0).map(|(_, b)| *b).max().unwrap_or(0)
    }
}

/// One unit's card in a trial: armour left on the facing, lines marked, item hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardState {
    pub armour: u32,
    /// Marked lines, a 100-bit set (bit l = line l + 1).
    pub marked: [u64; 2],
    /// How many lines are marked.
    pub lines: u32,
    /// Hits taken per item (saturating).
    pub hits: [u8; MAX_ITEMS],
    /// Destroyed items, one bit each.
    pub destroyed: u32,
    /// Immobilised by its chart (a Locomotion `X` or every engine lost); the engagement's
    /// `immobile` condition is not damage and does not count toward (f).
    pub immobile: bool,
}

impl CardState {
    /// An untouched card with `armour` on the facing.
    pub fn fresh(armour: u32) -> CardState {
        CardState { armour, marked: [0; 2], lines: 0, hits: [0; MAX_ITEMS], destroyed: 0, immobile: false }
    }
}

/// What one range of marked lines touched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Marked {
    /// Lines newly marked.
    pub count: u32,
    /// Items with a line in the range.
    pub covered: u32,
    /// Locomotion items whose marked lines the range skipped over.
    pub skipped: u32,
}

/// Mark `count` unmarked lines from line `from` (1..=100) going up, skipping marked
/// lines and wrapping after line 100 (`CHART_WRAPS`); fewer when the chart fills.
/// `item_of_line` names each line's item; `locomotion` is the mask of locomotion items.
pub fn mark(marked: &mut [u64; 2], from: usize, count: u32, item_of_line: &[u8; 100], locomotion: u32) -> Marked {
    let mut m = Marked { count: 0, covered: 0, skipped: 0 };
    let mut line = from - 1;
    for _ in 0..100 {
        if m.count == count {
            break;
        }
        let item = 1u32 << item_of_line[line];
        if bit(marked, line) {
            m.skipped |= item & locomotion;
        } else {
            set_bit(marked, line);
            m.covered |= item;
            m.count += 1;
        }
        line = if line == 99 { 0 } else { line + 1 };
    }
    m.skipped &= !m.covered;
    m
}

/// A sympathetic explosion (§3 step 10): the attacker's d10 + `attacker_mod` beats the
/// defender's d10 + `defender_mod` strictly. Two d10s drawn, attacker first.
#[inline]
pub fn sympathetic<R: Rng + ?Sized>(rng: &mut R, attacker_mod: i32, defender_mod: i32) -> bool {
    let a = roll(rng, 10) as i32 + attacker_mod;
    let d = roll(rng, 10) as i32 + defender_mod;
    a > d
}

/// What the firing side needs to play one gunner's step in the full model.
pub struct Shooter<'a> {
    pub plan: &'a GunnerPlan,
    /// Gates of `plan.weapons`, in the same order.
    pub gates: &'a [Gate],
    /// The shooter's destroyed items at the start of the turn.
    pub destroyed: u32,
    pub how: DamageDice,
    pub double_stacks: bool,
    pub second_20_destroys: bool,
}

/// Whether any of `gates` works with `destroyed` items lost.
#[inline]
fn any_works(gates: &[Gate], destroyed: u32) -> bool {
    gates.iter().any(|g| g.works(destroyed))
}

/// One gunner of the shooter fires at the target card `s` (§3 steps 1-11, every die
/// rolled); true when the target is out of action ((a)-(f)). A gunner none of whose
/// weapons works does not roll.
pub fn step<R: Rng + ?Sized>(sh: &Shooter<'_>, def: &Defence, m: &ChartModel, s: &mut CardState, rng: &mut R) -> bool {
    let plan = sh.plan;
    if !any_works(sh.gates, sh.destroyed) {
        return false;
    }
    let r = roll_dice(rng, plan.dice, plan.spread, sh.double_stacks, sh.second_20_destroys);
    if r.auto_miss {
        return false;
    }
    if r.second_20 {
        return true;
    }
    let reach = i64::from(r.total) + plan.gunnery;
    let mut pool = [0u32; 3];
    let mut any = false;
    for (w, g) in plan.weapons.iter().zip(sh.gates) {
        if g.works(sh.destroyed) && (r.natural_20 || w.target_number <= reach) {
            any = true;
            for (p, d) in pool.iter_mut().zip(w.dice) {
                *p += d;
            }
        }
    }
    if !any {
        return false;
    }
    let mult = MULTIPLIERS[r.multiplier];
    let d = roll_pool(rng, pool[0], sh.how) * mult;
    let shk = roll_pool(rng, pool[1], sh.how) * mult;
    let p = roll_pool(rng, pool[2], sh.how) * mult;
    let (after, internal) = def.resolve(s.armour, d, shk, p);
    s.armour = after;
    if internal == 0 {
        return false;
    }
    if internal >= def.dead_at {
        return true; // (a)
    }
    let (count, hits) = match def.box_of(internal) {
        Some(b) => (def.boxes[b].percent + 1, def.boxes[b].hits),
        None => (1, 1), // Core Hit
    };
    internal_hit(m, s, count, hits, rng)
}

/// One Internal hit of `count` lines and `hits` Hits on card `s` (§3 steps 9-11); true
/// when the unit is out of action by (c)-(f).
fn internal_hit<R: Rng + ?Sized>(m: &ChartModel, s: &mut CardState, count: u32, hits: u32, rng: &mut R) -> bool {
    let from = roll(rng, 100) as usize;
    internal_hit_from(m, s, from, count, hits, rng)
}

/// [`internal_hit`] with the d100 already rolled: `from` in 1..=100.
pub fn internal_hit_from<R: Rng + ?Sized>(
    m: &ChartModel,
    s: &mut CardState,
    from: usize,
    count: u32,
    hits: u32,
    rng: &mut R,
) -> bool {
    let halon = m.halon_bonus(s.destroyed);
    let r = mark(&mut s.marked, from, count, &m.item_of_line, m.locomotion);
    s.lines += r.count;
    let mut exploded = false;
    let mut loco_rolls = 0u32;
    let mut left = r.covered;
    while left != 0 {
        let i = left.trailing_zeros() as usize;
        left &= left - 1;
        let b = 1u32 << i;
        if m.locomotion & b != 0 {
            loco_rolls += hits;
            continue;
        }
        s.hits[i] = (u32::from(s.hits[i]) + hits).min(255) as u8;
        let all_marked = m.lines_of[i][0] & !s.marked[0] == 0 && m.lines_of[i][1] & !s.marked[1] == 0;
        if u32::from(s.hits[i]) >= m.capacity[i] || all_marked {
            s.destroyed |= b;
        }
        if m.explosive & b != 0 && !exploded && sympathetic(rng, 0, halon) {
            exploded = true; // (c); the other items' rolls are moot
        }
    }
    if exploded {
        return true;
    }
    loco_rolls += r.skipped.count_ones();
    for _ in 0..loco_rolls {
        let row = roll(rng, 10) as usize - 1;
        let col = roll(rng, 6) as usize - 1;
        if m.immobilises[row][col] {
            s.immobile = true;
        }
    }
    if m.engine_loss_immobilises && m.engines != 0 && s.destroyed & m.engines == m.engines {
        s.immobile = true;
    }
    s.lines >= 100 // (d)
        || (m.crew != 0 && s.destroyed & m.crew == m.crew) // (e)
        || (s.immobile && !any_works(&m.own_weapons, s.destroyed)) // (f)
}
