//! Target numbers (§2 "Target Number Modifiers"): base TN of the weapon's use, range
//! band, the firer's Mods, cover (none from obstructions next to the firer:
//! [`counted_obstructions`]), smoke, prone states, sneak suits and (with
//! `ADVANCED_TERRAIN`) the advanced terrain: attacker entangled +1, tunnel combat +2,
//! defender swimming +1, for every attack (the book's table limits none of them).

use super::conditions::Conditions;
use super::options::Options;
use super::weapon::{Use, Weapon};

/// Why a weapon cannot attack (Ruling `RANGE_BANDS`), for people.
pub type NoAttack = String;

/// Whether any weapon of `t` (its primaries, its secondary, its grenade when it carries
/// any) reaches at `c`: has a target number at Mods 0 and fresh AP against a target with
/// (`target_sneak_suit`) or without a sneak suit. A trooper none of whose weapons reaches
/// cannot attack at all at `c` (every failure of [`target_number`] is one of reach):
/// duels and squad fights give it no weapon, so it never scores.
pub fn reaches_with_any(t: &super::trooper::Trooper, c: &Conditions, target_sneak_suit: bool, o: &Options) -> bool {
    let ap = t.max_ap(0);
    t.weapons().into_iter().any(|w| target_number(w, c, target_sneak_suit, 0, ap, o).is_ok())
}

/// The TN of one attack with `w` by a firer with `firer_mods` and `firer_ap` max AP,
/// before movement fire's +2.
///
/// # Errors
/// Beyond Long, melee not adjacent, a throw farther than the firer's AP reaches.
pub fn target_number(
    w: &Weapon,
    c: &Conditions,
    target_sneak_suit: bool,
    firer_mods: i32,
    firer_ap: i32,
    o: &Options,
) -> Result<i32, NoAttack> {
    let range = c.range.max(1);
    let usage = w.usage();
    let mut long = false;
    let base = match usage {
        Use::Melee => {
            if range != 1 {
                return Err(format!("{}: melee needs range 1 (target at {range} dots)", w.name));
            }
            4
        }
        Use::Thrown { per_dot } => {
            let spent = (range * per_dot * if c.attacker_prone { 2 } else { 1 }) as i32;
            // 3 AP to make the explosive the active weapon, then the throw.
            if spent + 3 > firer_ap {
                return Err(format!(
                    "{}: a throw of {range} dots needs {} AP; the firer has {firer_ap}",
                    w.name,
                    spent + 3
                ));
            }
            spent
        }
        Use::Arc { .. } | Use::Launcher { .. } => {
            let short = w.short.unwrap_or(0);
            let lng = w.long.unwrap_or(short);
            if range > lng.max(short) {
                return Err(format!("{}: range {range} is beyond Long ({lng})", w.name));
            }
            long = range > short;
            6 + if long { 2 } else { 0 }
        }
    };
    let mut tn = base + firer_mods;
    if usage != Use::Melee {
        tn += counted_obstructions(c, o) as i32;
        tn += c.smoke_dots as i32 * if o.on("SMOKE_REPLACES_COVER") { 3 } else { 4 };
    }
    if c.attacker_prone {
        tn -= 1;
    }
    if c.target_prone && !w.targets_dot() {
        tn += if range > 1 { 1 } else { -1 };
    }
    if target_sneak_suit && long && o.on("SNEAK_SUIT_STACKS") {
        tn += 1;
    }
    if o.on("ADVANCED_TERRAIN") {
        tn += i32::from(c.entangled) + 2 * i32::from(c.tunnel) + i32::from(c.target_swimming);
    }
    Ok(tn)
}

/// The obstructions that give cover (+1 TN each). "Resolving Fire": "+1 for each
/// obstruction in the path of fire ..., except for any obstruction between the firing
/// trooper and any adjacent dots". Ruling `COVER_SKIPS_FIRER_ADJACENT` (on): at range 1
/// the target's dot is adjacent to the firer, so every obstruction on the path is
/// between the firer and an adjacent dot and none counts; at longer ranges the
/// engagement has no map, so `--obstructions` counts the obstructions beyond the
/// firer's adjacent dots (the ones that count). Off: every obstruction counts at any
/// range (the reading before the book's exception was played).
pub fn counted_obstructions(c: &Conditions, o: &Options) -> u32 {
    if c.range <= 1 && o.on("COVER_SKIPS_FIRER_ADJACENT") { 0 } else { c.obstructions }
}

/// Checks that the conditions only use rules the options switch on.
///
/// # Errors
/// An Advanced Terrain condition (entangled, tunnel, target swimming) while
/// `ADVANCED_TERRAIN` is off, naming them.
pub fn check_conditions(c: &Conditions, o: &Options) -> Result<(), String> {
    let terrain = c.terrain();
    if terrain.is_empty() || o.on("ADVANCED_TERRAIN") {
        return Ok(());
    }
    Err(format!(
        "{} {} Advanced Terrain condition{}: switch the rule on with --option ADVANCED_TERRAIN=on",
        terrain.iter().map(|t| format!("--{t}")).collect::<Vec<_>>().join(", "),
        if terrain.len() == 1 { "is an" } else { "are" },
        if terrain.len() == 1 { "" } else { "s" },
    ))
}
