//! Exact odds of one attack (§1, §2, §7): what the `odds` command reports.

use super::conditions::Condition;
use super::mech::{Ability, Model};
use super::options::Options;
use super::roll::{CRIT, DieResult, HIT, Joint, MeleeRoll, ShotRoll, armour_fails, classify};
use super::situation::Situation;
use super::stability::{Aim, NoAttack, effective_levels, shooting_aim};
use super::weapon::{Damage, Perk, Weapon};

/// Crits a Flurry chain may go on for before its tail is lumped into the last loss
/// entry: P(a chain runs longer) = 6^−20 ≈ 2.7e−16.
pub const FLURRY_LINKS_SHOWN: u32 = 20;
/// Strength change of a Shocked model in melee ("List of Conditions").
pub const SHOCKED_STRENGTH: i32 = 1;
/// The death explosion ("Stats › Integrity"): 1 die, Damage 4, Stability 2.
pub const EXPLOSION_DICE: u32 = 1;
pub const EXPLOSION_DAMAGE: u32 = 4;
pub const EXPLOSION_STABILITY: i32 = 2;

/// P(miss), P(hit), P(crit) of one attack die (for melee: averaged over the defence
/// die; a melee hit is a winning die).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DieOdds {
    pub miss: f64,
    pub hit: f64,
    pub crit: f64,
}

/// Everything about one attack, exact.
#[derive(Debug, Clone, PartialEq)]
pub struct AttackOdds {
    pub weapon: String,
    pub melee: bool,
    /// Effective Stability S (`None` for melee).
    pub stability: Option<i32>,
    pub spot_tokens_consumed: u32,
    /// Dice rolled (Attacks + Barrage dice; 1 unarmed), before Flurry dice.
    pub dice: u32,
    /// Effective Armour of the armour roll (`None` for melee without one).
    pub armour: Option<i32>,
    pub per_die: DieOdds,
    /// Shooting: E[hits of the attack roll] (a crit is 2, Flurry dice included).
    /// Melee: E[winning dice].
    pub expected_hits: f64,
    /// E[crits in the attack roll], Flurry dice included.
    pub expected_crits: f64,
    pub expected_integrity_loss: f64,
    /// P(Integrity lost = l), l = 0, 1, ...; see `loss_lumped_at`.
    pub integrity_loss: Vec<f64>,
    /// `Some(c)`: the last entry is P(lost >= c) (Flurry chains are unbounded).
    pub loss_lumped_at: Option<u32>,
    /// The loss law as exact counts over a total, where they fit a u128.
    pub exact_loss: Option<(Vec<u128>, u128)>,
    /// P(a full-Integrity target is destroyed by this attack).
    pub p_destroy: f64,
    /// P(>= 1 hit), P(>= 1 crit) (`HIT_MEANS_ATTACK_ROLL_HIT`).
    pub p_hit: f64,
    pub p_crit: f64,
    /// P(the target gets each condition of the weapon's Condition / Critical condition
    /// perks); empty against neutral terrain.
    pub conditions: Vec<(Condition, f64)>,
    /// Blast weapons: P(the attack roll has no hit) (`BLAST_MISS`).
    pub p_blast: Option<f64>,
    /// Heat the target gains from Red-Hot Reactor, in expectation (0 without it).
    pub expected_reactor_heat: f64,
    /// Integrity the attacker loses after attacking (Backfire X), Heat it gains
    /// (Superheated).
    pub backfire: u32,
    pub superheat: u32,
}

impl AttackOdds {
    /// The report as JSON, with the keys the `odds` command documents: `weapon`,
    /// `stability` (null for melee), `dice`, `per_die`, `expected_hits`,
    /// `expected_integrity_loss`, `p_destroy`, `integrity_loss_distribution` (loss →
    /// probability; a lumped last entry is keyed `">=c"`), `conditions` (name →
    /// probability), and the rest of the fields under their own names.
    pub fn to_json(&self) -> serde_json::Value {
        let last = self.integrity_loss.len().saturating_sub(1);
        let mut dist = serde_json::Map::new();
        for (l, &p) in self.integrity_loss.iter().enumerate() {
            let key = match self.loss_lumped_at {
                Some(c) if l == last => format!(">={c}"),
                _ => l.to_string(),
            };
            if p > 0.0 {
                dist.insert(key, p.into());
            }
        }
        let conditions: serde_json::Map<String, serde_json::Value> =
            self.conditions.iter().map(|(c, p)| (c.name().to_string(), (*p).into())).collect();
        serde_json::json!({
            "weapon": self.weapon,
            "melee": self.melee,
            "stability": self.stability,
            "spot_tokens_consumed": self.spot_tokens_consumed,
            "dice": self.dice,
            "armour": self.armour,
            "per_die": { "miss": self.per_die.miss, "hit": self.per_die.hit, "crit": self.per_die.crit },
            "expected_hits": self.expected_hits,
            "expected_crits": self.expected_crits,
            "expected_integrity_loss": self.expected_integrity_loss,
            "p_destroy": self.p_destroy,
            "p_hit": self.p_hit,
            "p_crit": self.p_crit,
            "conditions": conditions,
            "p_blast": self.p_blast,
            "expected_reactor_heat": self.expected_reactor_heat,
            "backfire": self.backfire,
            "superheat": self.superheat,
            "integrity_loss_distribution": dist,
        })
    }
}

/// A compiled attack: the roll and the facts the odds report around it.
#[derive(Debug, Clone, PartialEq)]
pub enum AttackRoll {
    Shot(ShotRoll),
    Melee(MeleeRoll),
}

impl AttackRoll {
    /// The joint law of (flags, loss) with losses capped at `cap`.
    pub fn joint(&self, cap: u32, o: &Options) -> Joint {
        match self {
            AttackRoll::Shot(s) => s.joint(cap, o),
            AttackRoll::Melee(m) => m.joint(cap, o),
        }
    }

    /// The joint law of (crits, flags, loss) for Red-Hot Reactor ([`CritJoint`]);
    /// `None` for the single d3 of `UNARMED_D3_PER_DIE` off.
    pub fn crit_joint(&self, cap: u32, crits_cap: u32, o: &Options) -> Option<super::roll::CritJoint> {
        match self {
            AttackRoll::Shot(s) => Some(s.crit_joint(cap, crits_cap, o)),
            AttackRoll::Melee(m) => m.crit_joint(cap, crits_cap, o),
        }
    }

    /// Largest finite loss, or `None` for unbounded (Flurry) attacks.
    pub fn max_loss(&self, o: &Options) -> Option<u32> {
        match self {
            AttackRoll::Shot(s) if s.flurry && o.flurry_always_rolls => None,
            AttackRoll::Shot(s) => Some(s.dice * 2 * s.damage.max()),
            AttackRoll::Melee(m) if m.flurry && o.flurry_always_rolls => None,
            AttackRoll::Melee(m) => Some(m.dice * m.damage.max()),
        }
    }
}

/// Compiles `attacker` attacking `target` with `weapon` in `sit`.
///
/// # Errors
/// [`NoAttack`] when the attack cannot be made (range, total cover, Artillery without
/// a Spot token, melee too far apart, no dice, unplayable options).
pub fn compile_attack(
    attacker: &Model,
    weapon: &Weapon,
    target: &Model,
    sit: &Situation,
    o: &Options,
) -> Result<(AttackRoll, Option<Aim>), NoAttack> {
    o.validate().map_err(|e| NoAttack::Options(e.into()))?;
    if !weapon.reaches(sit.range, o.melee_range_hexes) {
        return Err(NoAttack::OutOfRange { range: sit.range });
    }
    let barrage = if weapon.has(Perk::Barrage) { sit.barrage_dice } else { 0 };
    let dice = if weapon.unarmed { 1 } else { weapon.attacks + barrage };
    if dice == 0 {
        return Err(NoAttack::NoDice);
    }
    let corroded = target.conditions.has(Condition::Corroded) as i32;
    let armour = target.mech.armour - weapon.volatile() as i32 - corroded;
    let flurry = weapon.has(Perk::Flurry);
    if weapon.is_melee() {
        let levels = effective_levels(attacker, target, sit);
        if levels.abs() > 1 {
            return Err(NoAttack::TooFarApartForMelee { levels });
        }
        let shocked = |m: &Model| m.conditions.has(Condition::Shocked) as i32 * SHOCKED_STRENGTH;
        let roll = MeleeRoll {
            dice,
            attack_bonus: attacker.mech.strength + levels - shocked(attacker),
            defence_bonus: target.mech.strength - shocked(target) - weapon.rend() as i32,
            damage: weapon.damage,
            flurry,
            single_d3: weapon.unarmed && !o.unarmed_d3_per_die,
            armour,
        };
        return Ok((AttackRoll::Melee(roll), None));
    }
    let aim = shooting_aim(attacker, weapon, target, sit, o)?;
    if flurry && o.flurry_always_rolls && (1..=6).all(|f| classify(f, &aim, o) == DieResult::Crit) {
        return Err(NoAttack::EndlessFlurry);
    }
    Ok((AttackRoll::Shot(ShotRoll { dice, aim, armour, damage: weapon.damage, flurry }), Some(aim)))
}

/// The exact odds of one attack.
///
/// # Errors
/// [`NoAttack`] as for [`compile_attack`].
pub fn attack_odds(
    attacker: &Model,
    weapon: &Weapon,
    target: &Model,
    sit: &Situation,
    o: &Options,
) -> Result<AttackOdds, NoAttack> {
    let (roll, aim) = compile_attack(attacker, weapon, target, sit, o)?;
    let mut odds = roll_odds(&roll, target, o);
    odds.weapon = weapon.name.clone();
    odds.spot_tokens_consumed = aim.map_or(0, |a| a.spot_consumed);
    odds.backfire = weapon.backfire();
    odds.superheat = weapon.has(Perk::Superheated) as u32;
    if target.takes_conditions() {
        let p_hit = odds.p_hit;
        let p_crit = odds.p_crit;
        for c in weapon.on_hit() {
            merge_condition(&mut odds.conditions, c, p_hit);
        }
        for c in weapon.on_crit() {
            merge_condition(&mut odds.conditions, c, p_crit);
        }
    }
    if weapon.has(Perk::Blast) {
        odds.p_blast = Some(p_no_roll_hit(&roll, o));
    }
    Ok(odds)
}

/// The death explosion of a destroyed model against `target` (§2
/// `EXPLOSION_AS_SHOOTING`: Shooting at S = 2, no modifiers, the target's Armour).
pub fn explosion_odds(target: &Model, o: &Options) -> AttackOdds {
    let corroded = target.conditions.has(Condition::Corroded) as i32;
    let roll = AttackRoll::Shot(ShotRoll {
        dice: EXPLOSION_DICE,
        aim: Aim { stability: EXPLOSION_STABILITY, spot_consumed: 0, die_bonus: 0 },
        armour: target.mech.armour - corroded,
        damage: Damage::Fixed(EXPLOSION_DAMAGE),
        flurry: false,
    });
    let mut odds = roll_odds(&roll, target, o);
    odds.weapon = "Death explosion".into();
    odds
}

/// A condition from a hit and one from a crit are the same event at most once: the
/// union of "crit" and "hit" is "hit".
fn merge_condition(list: &mut Vec<(Condition, f64)>, c: Condition, p: f64) {
    match list.iter_mut().find(|(x, _)| *x == c) {
        Some((_, q)) => *q = q.max(p),
        None => list.push((c, p)),
    }
}

/// P(the attack roll has no hit): every die (or first link of each Flurry chain) misses.
fn p_no_roll_hit(roll: &AttackRoll, o: &Options) -> f64 {
    let d = die_odds(roll, o);
    match roll {
        AttackRoll::Shot(s) => d.miss.powi(s.dice as i32),
        AttackRoll::Melee(m) => (1..=6).map(|f| melee_face_odds(m, f, o).miss.powi(m.dice as i32)).sum::<f64>() / 6.0,
    }
}

fn melee_face_odds(m: &MeleeRoll, defence_face: i32, o: &Options) -> DieOdds {
    let defence = defence_face + m.defence_bonus;
    let mut d = DieOdds { miss: 0.0, hit: 0.0, crit: 0.0 };
    for a in 1..=6 {
        let total = a + m.attack_bonus;
        let win = if o.melee_ties_fail { total > defence } else { total >= defence };
        match (win, a == 6 && o.melee_crit) {
            (false, _) => d.miss += 1.0 / 6.0,
            (true, true) => d.crit += 1.0 / 6.0,
            (true, false) => d.hit += 1.0 / 6.0,
        }
    }
    d
}

fn die_odds(roll: &AttackRoll, o: &Options) -> DieOdds {
    match roll {
        AttackRoll::Shot(s) => {
            let mut d = DieOdds { miss: 0.0, hit: 0.0, crit: 0.0 };
            for f in 1..=6 {
                match classify(f, &s.aim, o) {
                    DieResult::Miss => d.miss += 1.0 / 6.0,
                    DieResult::Hit => d.hit += 1.0 / 6.0,
                    DieResult::Crit => d.crit += 1.0 / 6.0,
                }
            }
            d
        }
        AttackRoll::Melee(m) => {
            let faces: Vec<DieOdds> = (1..=6).map(|f| melee_face_odds(m, f, o)).collect();
            let avg = |g: fn(&DieOdds) -> f64| faces.iter().map(g).sum::<f64>() / 6.0;
            DieOdds { miss: avg(|d| d.miss), hit: avg(|d| d.hit), crit: avg(|d| d.crit) }
        }
    }
}

/// P(an armour roll lets a hit through), for armour `a`.
fn p_through(a: i32, o: &Options) -> f64 {
    (1..=6).filter(|&f| armour_fails(f, a, o)).count() as f64 / 6.0
}

/// Expected (hits, crits, loss) of one die or chain given its die odds: each chain
/// runs 1 / (1 − P(crit)) dice with Flurry.
fn die_means(d: &DieOdds, hit_value: f64, flurry: bool, through: f64, damage: Damage) -> (f64, f64, f64) {
    let links = if flurry { 1.0 / (1.0 - d.crit) } else { 1.0 };
    let hits = (d.hit + hit_value * d.crit) * links;
    (hits, d.crit * links, hits * through * damage.mean())
}

/// The odds of a compiled roll against `target` (weapon facts left for the caller).
fn roll_odds(roll: &AttackRoll, target: &Model, o: &Options) -> AttackOdds {
    let integrity = target.mech.integrity;
    let (cap, lumped) = match roll.max_loss(o) {
        Some(m) => (m, None),
        None => {
            let (dice, dmg) = match roll {
                AttackRoll::Shot(s) => (s.dice, 2 * s.damage.max()),
                AttackRoll::Melee(m) => (m.dice, m.damage.max()),
            };
            let c = ((dice + FLURRY_LINKS_SHOWN) * dmg).max(integrity);
            (c, Some(c))
        }
    };
    let joint = roll.joint(cap, o);
    let loss = joint.loss();
    let p_destroy = match joint.exact_loss() {
        Some((counts, total)) => counts.iter().skip(integrity as usize).sum::<u128>() as f64 / total as f64,
        None => loss.iter().skip(integrity as usize).sum(),
    };
    let per_die = die_odds(roll, o);
    let chains = roll.max_loss(o).is_none();
    let (expected_hits, expected_crits, expected_integrity_loss, stability, armour, dice) = match roll {
        AttackRoll::Shot(s) => {
            let (h, c, l) = die_means(&per_die, 2.0, chains, p_through(s.armour, o), s.damage);
            let n = s.dice as f64;
            (n * h, n * c, n * l, Some(s.aim.stability), Some(s.armour), s.dice)
        }
        AttackRoll::Melee(m) => {
            let through = if o.melee_armour_roll { p_through(m.armour, o) } else { 1.0 };
            let n = m.dice as f64;
            let (mut h, mut c, mut l) = (0.0, 0.0, 0.0);
            for f in 1..=6 {
                let (fh, fc, fl) = die_means(&melee_face_odds(m, f, o), 1.0, chains, through, m.damage);
                h += fh / 6.0;
                c += fc / 6.0;
                l += fl / 6.0;
            }
            (n * h, n * c, n * l, None, o.melee_armour_roll.then_some(m.armour), m.dice)
        }
    };
    let reactor = target.mech.abilities.contains(&Ability::RedHotReactor);
    let first_roll_crits = dice as f64 * per_die.crit;
    let reactor_crits = if o.reactor_counts_flurry_crits { expected_crits } else { first_roll_crits };
    AttackOdds {
        weapon: String::new(),
        melee: matches!(roll, AttackRoll::Melee(_)),
        stability,
        spot_tokens_consumed: 0,
        dice,
        armour,
        per_die,
        expected_hits,
        expected_crits,
        expected_integrity_loss,
        integrity_loss: loss,
        loss_lumped_at: lumped,
        exact_loss: joint.exact_loss(),
        p_destroy,
        p_hit: joint.p_flag(HIT),
        p_crit: joint.p_flag(CRIT),
        conditions: Vec::new(),
        p_blast: None,
        expected_reactor_heat: if reactor { reactor_crits } else { 0.0 },
        backfire: 0,
        superheat: 0,
    }
}
