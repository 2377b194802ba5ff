//! Attack-run policies: which weapon an attacker uses for each attack of an attack run.
//!
//! A policy scores every weapon that can attack (it reaches the range, unarmed included
//! at melee range, and the attack compiles) once per attacker phase (round 1 with the
//! attacker's starting conditions, later rounds without Blinded, Shocked, Stunned),
//! against the target's starting conditions. At each attack the run uses the weapon
//! with the best score among those with Ammo left; ties go to the earlier weapon of the
//! mech's list (unarmed last). The plan is therefore fixed before the first roll.

use std::fmt;
use std::str::FromStr;

/// How an attack run picks the weapon of each attack (§4 `ACTION_POLICY` for attack runs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RunPolicy {
    /// The weapon with the highest expected Integrity loss per ⚡ spent (every attack
    /// costs [`super::energy::ATTACK_ENERGY`] ⚡, so this is also the highest expected
    /// loss per attack), repeated while Energy allows (default; the rules document's
    /// `ACTION_POLICY`).
    #[default]
    BestPerEnergy,
    /// The weapon that rolls the most attack dice; ties go to the higher expected
    /// Integrity loss, then to the earlier weapon. A "throw the most dice" player who
    /// ignores Stability, Armour and Damage.
    MostDice,
}

impl RunPolicy {
    /// Every policy, in the order of [`RunPolicy::NAMES`].
    pub const ALL: [RunPolicy; 2] = [RunPolicy::BestPerEnergy, RunPolicy::MostDice];
    /// The policies' names (kebab-case), as `FromStr` reads and `Display` writes them.
    pub const NAMES: &'static [&'static str] = &["best-per-energy", "most-dice"];

    /// The policy's name (one of [`RunPolicy::NAMES`]).
    pub fn name(self) -> &'static str {
        match self {
            RunPolicy::BestPerEnergy => "best-per-energy",
            RunPolicy::MostDice => "most-dice",
        }
    }

    /// A weapon's score: higher is preferred. `dice` is the weapon's attack dice and
    /// `expected_loss` its expected Integrity loss per attack against the target's
    /// starting conditions; scores compare lexicographically.
    pub fn score(self, dice: u32, expected_loss: f64) -> (f64, f64) {
        match self {
            RunPolicy::BestPerEnergy => (expected_loss, 0.0),
            RunPolicy::MostDice => (dice as f64, expected_loss),
        }
    }
}

impl fmt::Display for RunPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for RunPolicy {
    type Err = String;

    /// Reads one of [`RunPolicy::NAMES`] (case and surrounding spaces ignored).
    ///
    /// # Errors
    /// A message naming the expected values.
    fn from_str(s: &str) -> Result<Self, String> {
        let name = s.trim().to_lowercase();
        RunPolicy::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| format!("unknown attack-run policy `{s}`: expected one of {}", RunPolicy::NAMES.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_refused() {
        for (p, name) in RunPolicy::ALL.into_iter().zip(RunPolicy::NAMES) {
            assert_eq!(p.to_string(), *name);
            assert_eq!(name.parse::<RunPolicy>(), Ok(p));
        }
        assert_eq!(" Most-Dice ".parse::<RunPolicy>(), Ok(RunPolicy::MostDice));
        let e = "most-damage".parse::<RunPolicy>().unwrap_err();
        assert!(e.contains("best-per-energy, most-dice"), "{e}");
        assert_eq!(RunPolicy::default(), RunPolicy::BestPerEnergy);
    }

    #[test]
    fn most_dice_prefers_dice_then_expected_loss() {
        let p = RunPolicy::MostDice;
        assert!(p.score(4, 0.5) > p.score(3, 2.0));
        assert!(p.score(3, 2.0) > p.score(3, 1.0));
        let b = RunPolicy::BestPerEnergy;
        assert!(b.score(3, 2.0) > b.score(4, 0.5));
    }
}
