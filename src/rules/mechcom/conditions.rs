//! The conditions a model can carry ("List of Conditions", §2), as a small set.

use std::fmt;
use std::str::FromStr;

/// One condition of "List of Conditions" (§2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Condition {
    /// +2 Stability; ends at the end of its own next activation.
    Blinded,
    /// Loses 1 Integrity at the end of its own activation; cleared for 2⚡.
    Burned,
    /// −1 Armour; cleared for 2⚡.
    Corroded,
    /// −5 Sensors; cleared for 2⚡.
    Hacked,
    /// No move actions.
    Immobilized,
    /// Cannot be spotted; enemies take +2 Stability attacking it.
    Invisible,
    /// Acts by the HERAKLES AI table; a 6 at the start of its activation removes it.
    Malfunctioning,
    /// +1 Stability, −1 Strength; ends at the end of its own next activation.
    Shocked,
    /// Loses half its Energy (rounded down) at the start of its turn; ends at its end.
    Stunned,
    /// Counts 2 levels below its hex; half cover against models that are not Submerged.
    Submerged,
    /// Bound to the model that tethered it (the X is not tracked here).
    Tethered,
}

impl Condition {
    pub const ALL: [Condition; 11] = [
        Condition::Blinded,
        Condition::Burned,
        Condition::Corroded,
        Condition::Hacked,
        Condition::Immobilized,
        Condition::Invisible,
        Condition::Malfunctioning,
        Condition::Shocked,
        Condition::Stunned,
        Condition::Submerged,
        Condition::Tethered,
    ];

    /// The book's name.
    pub fn name(self) -> &'static str {
        match self {
            Condition::Blinded => "Blinded",
            Condition::Burned => "Burned",
            Condition::Corroded => "Corroded",
            Condition::Hacked => "Hacked",
            Condition::Immobilized => "Immobilized",
            Condition::Invisible => "Invisible",
            Condition::Malfunctioning => "Malfunctioning",
            Condition::Shocked => "Shocked",
            Condition::Stunned => "Stunned",
            Condition::Submerged => "Submerged",
            Condition::Tethered => "Tethered",
        }
    }

    fn bit(self) -> u16 {
        1 << self as u16
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Condition {
    type Err = String;
    /// Case-insensitive book name; "Tethered 2" reads as Tethered.
    fn from_str(s: &str) -> Result<Condition, String> {
        let word = s.split_whitespace().next().unwrap_or("");
        Condition::ALL.into_iter().find(|c| c.name().eq_ignore_ascii_case(word)).ok_or_else(|| {
            let names: Vec<&str> = Condition::ALL.iter().map(|c| c.name()).collect();
            format!("unknown condition `{s}`: expected one of {}", names.join(", "))
        })
    }
}

/// The conditions on one model. Ruling `CONDITIONS_DONT_STACK`: each is on or off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Conditions(u16);

impl Conditions {
    pub const NONE: Conditions = Conditions(0);

    pub fn of(list: &[Condition]) -> Conditions {
        let mut c = Conditions::NONE;
        for &x in list {
            c.set(x);
        }
        c
    }

    pub fn has(self, c: Condition) -> bool {
        self.0 & c.bit() != 0
    }

    pub fn set(&mut self, c: Condition) {
        self.0 |= c.bit();
    }

    pub fn clear(&mut self, c: Condition) {
        self.0 &= !c.bit();
    }

    pub fn with(mut self, c: Condition) -> Conditions {
        self.set(c);
        self
    }

    /// Whether no condition is set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = Condition> {
        Condition::ALL.into_iter().filter(move |&c| self.has(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_sets_do_not_stack() {
        for c in Condition::ALL {
            assert_eq!(c.name().to_lowercase().parse::<Condition>(), Ok(c));
        }
        assert_eq!("Tethered 2".parse::<Condition>(), Ok(Condition::Tethered));
        assert!("Burnt".parse::<Condition>().is_err());
        let mut s = Conditions::of(&[Condition::Burned, Condition::Burned]);
        assert!(s.has(Condition::Burned) && !s.has(Condition::Corroded));
        s.clear(Condition::Burned);
        assert_eq!(s, Conditions::NONE);
    }
}
