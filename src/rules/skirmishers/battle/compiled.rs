//! Everything the squad fight's hot loop reads, precomputed once per battle: per unit
//! its guns (arcs), AP and out flag per column, the graph of its card under every enemy
//! law, and per (gun, target, firer column) the law that gun fires.

use super::super::conditions::Conditions;
use super::super::graph::Graph;
use super::super::law::{Law, law};
use super::super::options::Options;
use super::super::setup::{card, with_conditions};
use super::super::tn::target_number;
use super::super::track::{Hit, fresh};
use super::super::trooper::Trooper;
use super::super::weapon::{Class, Shots, Use, Weapon};
use super::arms::{bayonet, fists, power_fists};
use super::blast::{Throw, throws};
use super::force::Roster;
pub use super::limits::{COLS, MAX_GUNS, NO_LAW, ThrowPolicy, UNLIMITED};

/// How a gun's arc is paid and how many shots it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArcKind {
    /// 30/60/150 degree arcs (2/4/6 AP, 1/2/4 base shots) times `mult`; the widest the
    /// AP left pays (Ruling `SQUAD_POLICY`).
    Arc { mult: u32 },
    /// Burst fire ("-"): the widest arc the AP pays, shots never spent.
    Burst,
    /// Crew-served: a 60 degree arc at `CREW_ARC_AP`, shots never spent.
    Crew { ap: i32 },
    /// Melee: 5 AP, one attack.
    Melee,
}

impl ArcKind {
    /// (AP paid, shots) of the widest arc `ap` pays; `None` when it pays none.
    #[inline]
    pub fn pay(self, ap: i32) -> Option<(i32, u32)> {
        let widest = |mult: u32| match ap {
            6.. => Some((6, 4 * mult)),
            4..=5 => Some((4, 2 * mult)),
            2..=3 => Some((2, mult)),
            _ => None,
        };
        match self {
            ArcKind::Arc { mult } => widest(mult),
            ArcKind::Burst => widest(1).map(|(c, _)| (c, UNLIMITED)),
            ArcKind::Crew { ap: cost } => (ap >= cost).then_some((cost, UNLIMITED)),
            ArcKind::Melee => (ap >= 5).then_some((5, 1)),
        }
    }
}

/// One unit slot.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    pub name: String,
    pub side: u8,
    pub pv: u32,
    /// Its guns in weapon order (at most [`MAX_GUNS`]), with their weapon names.
    pub guns: Vec<(ArcKind, String)>,
    /// Index of its card's graph in [`Fight::graphs`].
    pub graph: usize,
    /// Max AP per column (0 in the out columns).
    pub ap: [i32; COLS],
    /// What it can throw (empty with `GRENADES` off), at most [`super::blast::MAX_THROWS`].
    pub throws: Vec<Throw>,
    /// Its last gun is its fists or bayonet, carried besides its weapon at range 1
    /// (`FISTS_AND_BAYONET`, module `melee`).
    pub melee_addon: bool,
    /// Morale TN of its experience ("Morale Checks": Green 9 .. Elite 2).
    pub morale_tn: i32,
    /// Its Mods per column (added to its morale TN, Ruling `DAMAGE_MODS_ALL_CHECKS`).
    pub mods: [i32; COLS],
}

/// A compiled squad fight (see the module docs of `battle`).
#[derive(Debug, Clone, PartialEq)]
pub struct Fight {
    pub units: Vec<Unit>,
    /// Units per side; side 0's slots come first.
    pub count: [usize; 2],
    pub graphs: Vec<Graph>,
    /// `fire[((u * MAX_GUNS + g) * n + t) * COLS + col]`: the law (in `t`'s graph) unit
    /// `u`'s gun `g` fires at target `t` when `u` is at column `col`, or [`NO_LAW`].
    pub fire: Vec<u16>,
    /// `VOLLEY`: spend every shot left on one trigger.
    pub volley: bool,
    /// `FIRST_SIDE`: `None` = random.
    pub first: Option<u8>,
    /// `SQUAD_CAP_RESULT` = draw (else undecided).
    pub cap_is_draw: bool,
    /// `SQUAD_OPENING` = contact: every trooper starts with its arcs set (else none).
    pub contact: bool,
    pub max_rounds: u32,
    /// Per graph: (lethal points, law index) of every blast ring an enemy can throw at it
    /// (a certain hit: the ring's damage from the card's own initial-cell roll).
    pub blast_laws: Vec<Vec<(u32, u16)>>,
    /// `SQUAD_THROW`.
    pub throw_policy: ThrowPolicy,
    /// `SQUAD_SPACING`: dots between neighbours of a side's line.
    pub spacing: i32,
    /// `SCATTER_DOTS`.
    pub scatter: i32,
    /// `MORALE`: morale checks (module `morale`).
    pub morale: bool,
    /// `SQUAD_LEADERSHIP`: the squad leader's leadership.
    pub leadership: i32,
    /// `NO_AUTOMATIC_RESULT`, for morale checks.
    pub no_automatic_result: bool,
}

/// The law of a blast ring of `lethal` points: a certain hit (the blast has landed).
pub fn ring_law(lethal: u32) -> Law {
    Law { hit: 36, on_hit: Hit { lethal, blunt: 0 }, on_miss: None }
}

/// A unit's guns (§4 "Active weapon: the primary if in range, else the secondary"; power
/// armour one arc per weapon in weapon order): arc and melee weapons that reach. None
/// when no weapon of the trooper reaches at all (`tn::reaches_with_any`).
fn guns(t: &Trooper, c: &Conditions, o: &Options) -> Result<Vec<Weapon>, String> {
    let fresh_ap = t.max_ap(0);
    let mut why = Vec::new();
    let mut ok = Vec::new();
    for w in t.primaries.iter().chain(t.secondary.iter()) {
        if !matches!(w.usage(), Use::Arc { .. } | Use::Melee) {
            why.push(format!("{}: squad fights play arc and melee weapons", w.name));
            continue;
        }
        match target_number(w, c, false, 0, fresh_ap, o) {
            Ok(_) => ok.push(w.clone()),
            Err(e) => why.push(e),
        }
    }
    let power = t.track == super::super::track::TrackKind::Power;
    let primaries_ok: Vec<Weapon> =
        ok.iter().filter(|w| t.primaries.iter().any(|p| p.name == w.name)).cloned().collect();
    let chosen = if power && !primaries_ok.is_empty() { primaries_ok } else { ok.into_iter().take(1).collect() };
    if chosen.is_empty() {
        // No weapon reaches at all: no gun, it never fires (its side is flagged as
        // unable to attack); else its weapons in reach are ones squad fights do not play.
        if !super::super::tn::reaches_with_any(t, c, false, o) {
            return Ok(Vec::new());
        }
        return Err(format!("{} has no weapon for this squad fight: {}", t.name, why.join("; ")));
    }
    Ok(chosen.into_iter().take(MAX_GUNS).collect())
}

fn arc_kind(w: &Weapon, o: &Options) -> ArcKind {
    match w.usage() {
        Use::Melee => ArcKind::Melee,
        Use::Arc { crew: true, .. } => ArcKind::Crew { ap: o.int("CREW_ARC_AP") as i32 },
        Use::Arc { shots: Shots::Unlimited, .. } => ArcKind::Burst,
        Use::Arc { shots: Shots::Times(m), .. } => ArcKind::Arc { mult: m },
        _ => ArcKind::Melee,
    }
}

impl Fight {
    /// Compile two rosters; `conditions[s]` is the setting of the shots side `s` fires
    /// (its experience override applies to side `s`'s troopers, its armour override to
    /// the other side's).
    ///
    /// A trooper none of whose weapons reaches gets no gun and never fires.
    ///
    /// # Errors
    /// A trooper whose only weapons in reach are ones squad fights do not play, or cards
    /// too large to play.
    pub fn new(
        rosters: [&Roster; 2],
        conditions: [&Conditions; 2],
        o: &Options,
        max_rounds: u32,
    ) -> Result<Fight, String> {
        o.validate()?;
        // Troopers as they fight: own experience override, the enemy's armour override.
        let mut troopers: Vec<(u8, Trooper)> = Vec::new();
        for s in 0..2 {
            for t in &rosters[s].troopers {
                let t = with_conditions(t, conditions[s], false);
                let t = with_conditions(&t, &Conditions { experience: None, ..*conditions[1 - s] }, true);
                troopers.push((s as u8, t));
            }
        }
        let n = troopers.len();
        let mut weapons: Vec<Vec<Weapon>> = Vec::with_capacity(n);
        let mut thrown: Vec<Vec<Throw>> = Vec::with_capacity(n);
        let mut addon: Vec<bool> = Vec::with_capacity(n);
        for (s, t) in &troopers {
            let mut ws = guns(t, conditions[*s as usize], o)?;
            // FISTS_AND_BAYONET: at range 1 a basic trooper also has its bayonet (on a
            // primary: a rifle or SMG) or its fists, power armour its own fists (module
            // `melee`).
            let power = t.track == super::super::track::TrackKind::Power;
            let melee = o.on("FISTS_AND_BAYONET")
                && conditions[*s as usize].range.max(1) == 1
                && !ws.is_empty()
                && ws.len() < MAX_GUNS
                && !ws.iter().any(|w| w.usage() == Use::Melee);
            if melee {
                let basic = if ws[0].class == Class::Primary { bayonet() } else { fists() };
                ws.push(if power { power_fists() } else { basic });
            }
            addon.push(melee);
            weapons.push(ws);
            // GRENADES and LAUNCHERS (module `blast`).
            thrown.push(throws(t, conditions[*s as usize], o));
        }
        // Per (gun, target kind): TN at Mods 0; per firer column: the law.
        let law_at = |u: usize, g: usize, t: &Trooper, col: usize| -> Option<Law> {
            let (s, f) = &troopers[u];
            if f.track.out_column(col) || col > f.track.cells() {
                return None;
            }
            let w = &weapons[u][g];
            let c = conditions[*s as usize];
            let sneak = t.sneak_suit || c.sneak_suit;
            let tn0 = target_number(w, c, sneak, 0, f.max_ap(0), o).ok()?;
            Some(law(w, tn0 + f.track.mods(col), f.max_ap(col), o))
        };
        // One graph per (side, trooper name): every enemy law against it.
        let mut graphs: Vec<Graph> = Vec::new();
        let mut graph_of: Vec<usize> = vec![0; n];
        let mut laws_of: Vec<Vec<Law>> = Vec::new();
        let mut blast_laws: Vec<Vec<(u32, u16)>> = Vec::new();
        let mut keys: Vec<(u8, String)> = Vec::new();
        for v in 0..n {
            let (sv, tv) = &troopers[v];
            let key = (*sv, tv.name.clone());
            if let Some(i) = keys.iter().position(|k| *k == key) {
                graph_of[v] = i;
                continue;
            }
            let mut laws: Vec<Law> = Vec::new();
            for u in 0..n {
                if troopers[u].0 == *sv {
                    continue;
                }
                for g in 0..weapons[u].len() {
                    for col in 0..COLS {
                        if let Some(l) = law_at(u, g, tv, col)
                            && !laws.contains(&l)
                        {
                            laws.push(l);
                        }
                    }
                }
            }
            // The blast rings enemies can throw at it, after the guns' laws.
            let mut rings: Vec<(u32, u16)> = Vec::new();
            for u in (0..n).filter(|&u| troopers[u].0 != *sv) {
                for x in thrown[u].iter().flat_map(|t| t.rings.iter().copied()).filter(|&x| x > 0) {
                    let l = ring_law(x);
                    let i = laws.iter().position(|y| *y == l).unwrap_or_else(|| {
                        laws.push(l);
                        laws.len() - 1
                    });
                    if !rings.iter().any(|r| r.0 == x) {
                        rings.push((x, i as u16));
                    }
                }
            }
            if laws.len() >= NO_LAW as usize {
                return Err("too many distinct attack laws in one squad fight".into());
            }
            graphs.push(Graph::build(card(tv, o), fresh(tv.armour_cells()), &laws)?);
            laws_of.push(laws);
            blast_laws.push(rings);
            keys.push(key);
            graph_of[v] = graphs.len() - 1;
        }
        let mut fire = vec![NO_LAW; n * MAX_GUNS * n * COLS];
        for u in 0..n {
            for g in 0..weapons[u].len() {
                for v in 0..n {
                    if troopers[v].0 == troopers[u].0 {
                        continue;
                    }
                    for col in 0..COLS {
                        if let Some(l) = law_at(u, g, &troopers[v].1, col) {
                            let i = laws_of[graph_of[v]].iter().position(|x| *x == l).expect("collected");
                            fire[((u * MAX_GUNS + g) * n + v) * COLS + col] = i as u16;
                        }
                    }
                }
            }
        }
        let units = troopers
            .iter()
            .enumerate()
            .map(|(u, (s, t))| {
                let mut ap = [0; COLS];
                for (col, a) in ap.iter_mut().enumerate() {
                    *a = if col <= t.track.cells() && !t.track.out_column(col) { t.max_ap(col) } else { 0 };
                }
                Unit {
                    name: t.name.clone(),
                    side: *s,
                    pv: t.pv,
                    guns: weapons[u].iter().map(|w| (arc_kind(w, o), w.name.clone())).collect(),
                    graph: graph_of[u],
                    ap,
                    throws: thrown[u].clone(),
                    melee_addon: addon[u],
                    morale_tn: t.experience.morale_tn(),
                    mods: std::array::from_fn(|col| t.track.mods(col)),
                }
            })
            .collect();
        let first = match o.choice("FIRST_SIDE") {
            "a" => Some(0),
            "b" => Some(1),
            _ => None,
        };
        Ok(Fight {
            units,
            count: [rosters[0].troopers.len(), rosters[1].troopers.len()],
            graphs,
            fire,
            volley: o.on("VOLLEY"),
            first,
            cap_is_draw: o.choice("SQUAD_CAP_RESULT") == "draw",
            contact: o.choice("SQUAD_OPENING") == "contact",
            max_rounds,
            blast_laws,
            throw_policy: if o.choice("SQUAD_THROW") == "always" { ThrowPolicy::Always } else { ThrowPolicy::Better },
            spacing: o.int("SQUAD_SPACING") as i32,
            scatter: o.int("SCATTER_DOTS") as i32,
            morale: o.on("MORALE"),
            leadership: o.int("SQUAD_LEADERSHIP") as i32,
            no_automatic_result: o.on("NO_AUTOMATIC_RESULT"),
        })
    }

    /// The law index in `t`'s graph of a blast ring of `lethal` points.
    #[inline]
    pub fn ring(&self, t: usize, lethal: u32) -> Option<u16> {
        self.blast_laws[self.units[t].graph].iter().find(|r| r.0 == lethal).map(|r| r.1)
    }

    /// The law index unit `u`'s gun `g` fires at `t` from column `col`.
    #[inline(always)]
    pub fn law(&self, u: usize, g: usize, t: usize, col: usize) -> u16 {
        self.fire[((u * MAX_GUNS + g) * self.units.len() + t) * COLS + col]
    }
}
