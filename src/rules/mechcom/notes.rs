//! What an engagement does not play, in words for its report (`not_modelled` in the
//! odds, attack-run and duel reports): Heat above all, which no engagement plays (§2
//! "Heat"): Superheated, Red-Hot Reactor and Programming's Malfunctioning at 6 Heat.

use super::mech::{Ability, Model};
use super::weapon::{Perk, Weapon};

/// Heat at which Programming makes a model Malfunctioning (Typhon sheet: "six or more
/// Heat tokens").
pub const PROGRAMMING_HEAT: u32 = 6;

/// The note on Heat for one weapon of `wielder`, if it makes Heat.
pub fn superheated(wielder: &Model, w: &Weapon) -> Option<String> {
    if !w.has(Perk::Superheated) {
        return None;
    }
    let programming = if wielder.mech.abilities.contains(&Ability::Programming) {
        format!("; by the book {}'s Programming makes it Malfunctioning at {PROGRAMMING_HEAT} Heat", wielder.mech.name)
    } else {
        String::new()
    };
    Some(format!("{}: Superheated (+1 Heat after each attack; Heat is not modelled{programming})", w.name))
}

/// What one attack with `w` by `wielder` leaves out (the odds report: one attack is
/// played exactly, its after-effects on later attacks are not).
pub fn one_attack(wielder: &Model, w: &Weapon) -> Vec<String> {
    let mut v = Vec::new();
    if w.has(Perk::Superheated) {
        let programming = if wielder.mech.abilities.contains(&Ability::Programming) {
            format!(
                "; by the book {}'s Programming makes it Malfunctioning at {PROGRAMMING_HEAT} Heat",
                wielder.mech.name
            )
        } else {
            String::new()
        };
        v.push(format!(
            "{}: Superheated (+1 Heat after each attack: one attack's odds carry no Heat; attack runs, duels and \
             battles play it, HEAT_PLAYED{programming})",
            w.name
        ));
    }
    for p in &w.perks {
        match p {
            Perk::Tracker => v.push(format!(
                "{}: Tracker (Spot tokens from damage help later attacks: duels and battles play them, one attack's \
                 odds do not)",
                w.name
            )),
            Perk::Multi => v.push(format!("{}: Multi (one target: splitting the dice is not played)", w.name)),
            _ => {}
        }
    }
    v
}

/// The note on a plan that runs past Programming's 6 Heat: `superheated_attacks` are
/// the plan's attacks (0-based attack number, 1-based round) that add Heat, in order.
/// `None` when the wielder has no Programming or the plan never reaches 6 Heat.
pub fn programming_in_plan(wielder: &Model, superheated_attacks: &[(u16, u32)]) -> Option<String> {
    if !wielder.mech.abilities.contains(&Ability::Programming) {
        return None;
    }
    let &(attack, round) = superheated_attacks.get(PROGRAMMING_HEAT as usize - 1)?;
    Some(format!(
        "{}: Programming (by the book it becomes Malfunctioning at {PROGRAMMING_HEAT} Heat, after attack {} in round \
         {round}, and then acts by the HERAKLES AI table; Heat is not modelled: the plan keeps attacking as planned)",
        wielder.mech.name,
        attack + 1
    ))
}
