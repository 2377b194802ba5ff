//! One attack's exact odds (`volley odds`): the target number with every §2 modifier,
//! P(hit), and the exact distribution of the target's card after the attack (counts out
//! of 1296: the to-hit roll's 36 x the initial cell's 36).

use serde_json::{Map, Value, json};

use super::conditions::Conditions;
use super::law::{TOTAL, law, transitions};
use super::options::Options;
use super::setup::{card, firer_column, with_conditions};
use super::tn::target_number;
use super::track::{armour, fresh};
use super::trooper::Trooper;
use super::weapon::Weapon;

/// One attack of one weapon against a fresh target.
#[derive(Debug, Clone, PartialEq)]
pub struct AttackOdds {
    pub weapon: String,
    /// `Err`: why the weapon cannot attack.
    pub target_number: Result<i32, String>,
    /// 36 x P(hit).
    pub hit_ways: u32,
    /// (HP after, or `None` when out; count out of 1296), in HP order, out last.
    pub hp: Vec<(Option<i32>, u32)>,
    /// Out at DEAD (count out of 1296); the rest of out is basic HP 0 (or the
    /// `OUT_WHEN_CANNOT_ATTACK` columns).
    pub dead: u32,
    /// (armour cells left, count out of 1296).
    pub armour: Vec<(u32, u32)>,
}

impl AttackOdds {
    pub fn p_hit(&self) -> f64 {
        self.hit_ways as f64 / 36.0
    }
    pub fn out_ways(&self) -> u32 {
        self.hp.iter().filter(|(h, _)| h.is_none()).map(|x| x.1).sum()
    }
    pub fn p_out(&self) -> f64 {
        self.out_ways() as f64 / TOTAL as f64
    }
    pub fn p_dead(&self) -> f64 {
        self.dead as f64 / TOTAL as f64
    }
    /// E[HP after], out counting as 0.
    pub fn expected_hp(&self) -> f64 {
        self.hp.iter().map(|(h, n)| h.unwrap_or(0).max(0) as f64 * *n as f64).sum::<f64>() / TOTAL as f64
    }
    /// P(any armour cell left).
    pub fn p_armour_left(&self) -> f64 {
        self.armour.iter().filter(|(a, _)| *a > 0).map(|x| x.1 as f64).sum::<f64>() / TOTAL as f64
    }
    /// "HP 7: 0.1667, ..., out: 0.0833".
    pub fn hp_text(&self) -> String {
        let v: Vec<String> = self
            .hp
            .iter()
            .map(|(h, n)| {
                let k = h.map_or("out".to_string(), |h| h.to_string());
                format!("{k}: {:.4}", *n as f64 / TOTAL as f64)
            })
            .collect();
        v.join(", ")
    }
    pub fn to_json(&self) -> Value {
        let mut hp = Map::new();
        for (h, n) in &self.hp {
            hp.insert(h.map_or("out".to_string(), |h| h.to_string()), json!(*n as f64 / TOTAL as f64));
        }
        let mut arm = Map::new();
        for (a, n) in &self.armour {
            arm.insert(a.to_string(), json!(*n as f64 / TOTAL as f64));
        }
        let (tn, why) = match &self.target_number {
            Ok(t) => (json!(t), Value::Null),
            Err(e) => (Value::Null, json!(e)),
        };
        json!({
            "weapon": self.weapon,
            "target_number": tn,
            "no_attack": why,
            "p_hit": self.p_hit(),
            "p_out": self.p_out(),
            "p_dead": self.p_dead(),
            "hp_distribution": hp,
            "armour_distribution": arm,
            "expected_hp": self.expected_hp(),
            "hit_ways_of_36": self.hit_ways,
            "out_ways_of_1296": self.out_ways(),
        })
    }
}

/// The odds of one attack of `w` by `a` on a fresh `t` (conditions applied to both).
pub fn attack_odds(a: &Trooper, w: &Weapon, t: &Trooper, c: &Conditions, o: &Options) -> AttackOdds {
    let (a, t) = (with_conditions(a, c, false), with_conditions(t, c, true));
    let col = firer_column(&a, c);
    let (mods, ap) = (a.track.mods(col), a.max_ap(col));
    let tn = target_number(w, c, t.sneak_suit || c.sneak_suit, mods, ap, o);
    let card = card(&t, o);
    let start = fresh(t.armour_cells());
    let outcomes = match &tn {
        Ok(tn) => transitions(&card, start, &law(w, *tn, ap, o)),
        Err(_) => vec![(start, TOTAL)],
    };
    let mut hp: Vec<(Option<i32>, u32)> = Vec::new();
    let mut arm: Vec<(u32, u32)> = Vec::new();
    let mut dead = 0;
    for (s, n) in outcomes {
        let colt = card.column(s);
        let key = if card.out[colt] { None } else { t.track.hp(colt) };
        if t.track.hp(colt).is_none() {
            dead += n;
        }
        match hp.iter_mut().find(|(k, _)| *k == key) {
            Some(e) => e.1 += n,
            None => hp.push((key, n)),
        }
        match arm.iter_mut().find(|(k, _)| *k == armour(s)) {
            Some(e) => e.1 += n,
            None => arm.push((armour(s), n)),
        }
    }
    hp.sort_by_key(|(h, _)| std::cmp::Reverse(h.unwrap_or(i32::MIN)));
    arm.sort_by_key(|(a, _)| std::cmp::Reverse(*a));
    AttackOdds {
        weapon: w.name.clone(),
        hit_ways: tn.as_ref().map_or(0, |t| law(w, *t, ap, o).hit),
        target_number: tn,
        hp,
        dead,
        armour: arm,
    }
}
