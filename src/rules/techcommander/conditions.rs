//! The conditions of one attack: range, cover, smoke, movement, statuses and mode.
//! Every option has a stable lowercase name used by the CLI, scenario files and tables.

use super::options::Options;
use std::fmt;
use std::str::FromStr;

/// Declares an enum of named options with `ALL`, `name()`, `Display` and `FromStr`.
macro_rules! named_options {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub enum $name { #[default] $($(#[$vmeta])* $variant),+ }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            pub const NAMES: &'static [&'static str] = &[$($text),+];
            pub fn name(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_str(self.name()) }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }

        impl FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                let wanted = s.trim().to_lowercase().replace('_', "-");
                $name::ALL.iter().copied().find(|v| v.name() == wanted).ok_or_else(|| {
                    format!("unknown {} `{}`: expected one of {}", stringify!($name).to_lowercase(), s, $name::NAMES.join(", "))
                })
            }
        }
    };
}

named_options! {
    /// How much of the target the line of fire sees.
    Cover {
        /// Less than 10% covered.
        None = "none",
        /// 10-25%: -1.
        Minor = "minor",
        /// 25-75%: -2.
        Half = "half",
        /// Over 75%: -3.
        Heavy = "heavy",
        /// No part visible: no shot, or -6 for an NLOS weapon.
        Blocked = "blocked",
    }
}

named_options! {
    /// Smoke on the line of fire.
    Smoke {
        None = "none",
        /// -6.
        Smoke = "smoke",
        /// Smoke, but the target is laser designated: -3 (and missiles ignore cover).
        Designated = "designated",
    }
}

named_options! {
    /// How the attacker moved (or the attack action it took).
    Movement {
        Stationary = "stationary",
        /// -1 (auto-stabilized vehicles: -1).
        Half = "half",
        /// -4 (auto-stabilized vehicles: -1).
        Full = "full",
        /// Attack and take cover: 0.
        AttackAndCover = "attack-and-cover",
        /// Jump up, shoot, drop back: -1.
        PopAndShoot = "pop-and-shoot",
        /// -4.
        JumpAssault = "jump-assault",
        /// Attack from an offload: -1.
        Offload = "offload",
    }
}

named_options! {
    /// One battle status of the target.
    Status {
        /// No status (a placeholder for sweep axes).
        None = "none",
        /// -2 (-3 against Defense Masters).
        DugIn = "dug-in",
        /// -2, non-MSV vehicles only.
        HullDown = "hull-down",
        /// -2 when the target also has an applicable cover modifier.
        PostedUp = "posted-up",
        /// Fully inside forest: -2.
        Forest = "forest",
    }
}

named_options! {
    /// The kind of attack action.
    AttackMode {
        /// An attack with one weapon system.
        Normal = "normal",
        /// MSV only: every weapon at once, no fire control, no positive modifiers.
        OmegaOverride = "omega-override",
        /// Splash weapons at a spot in line of sight: -4, no size bonus.
        FireForEffect = "fire-for-effect",
        /// Fire for effect without line of sight (NLOS weapons): -8.
        FireForEffectBlind = "fire-for-effect-blind",
        /// Ram (MSV or vehicle): +2 fire control, rammer AC × d20 to the target, half to
        /// the rammer (battles §4; odds only, see `special`).
        Ram = "ram",
        /// Death from above (jump MSV): no fire control, AC × 20 + d20 to the target, d20
        /// to the attacker (battles §4; odds only).
        DeathFromAbove = "death-from-above",
        /// Overrun (MSV or vehicle, not aerial): the target may dodge, else d20 × AC
        /// (battles §4; odds only).
        Overrun = "overrun",
        /// Trample (MSV) over troops or crew at half speed: as overrun (battles §4; odds
        /// only).
        Trample = "trample",
    }
}

impl AttackMode {
    /// Whether the mode is one of the special attacks of battles §4 (ram, death from
    /// above, overrun, trample): its own system, odds only.
    pub fn is_special(self) -> bool {
        matches!(self, AttackMode::Ram | AttackMode::DeathFromAbove | AttackMode::Overrun | AttackMode::Trample)
    }
}

/// The target's statuses, combinable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Statuses {
    pub dug_in: bool,
    pub hull_down: bool,
    pub posted_up: bool,
    pub forest: bool,
}

impl Statuses {
    /// Add one status (`Status::None` adds nothing).
    pub fn with(mut self, s: Status) -> Statuses {
        match s {
            Status::None => {}
            Status::DugIn => self.dug_in = true,
            Status::HullDown => self.hull_down = true,
            Status::PostedUp => self.posted_up = true,
            Status::Forest => self.forest = true,
        }
        self
    }

    pub fn from_list(list: &[Status]) -> Statuses {
        list.iter().fold(Statuses::default(), |s, &x| s.with(x))
    }

    /// `none`, or the statuses joined with `+` (`dug-in+forest`).
    pub fn label(&self) -> String {
        let names: Vec<&str> = [
            (self.dug_in, Status::DugIn),
            (self.hull_down, Status::HullDown),
            (self.posted_up, Status::PostedUp),
            (self.forest, Status::Forest),
        ]
        .into_iter()
        .filter(|(on, _)| *on)
        .map(|(_, s)| s.name())
        .collect();
        if names.is_empty() { "none".into() } else { names.join("+") }
    }
}

impl fmt::Display for Statuses {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

impl serde::Serialize for Statuses {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.label())
    }
}

impl FromStr for Statuses {
    type Err = String;
    /// `none`, one status, or several joined with `+` or `,`.
    fn from_str(s: &str) -> Result<Self, String> {
        s.split(['+', ',']).map(str::parse::<Status>).try_fold(Statuses::default(), |acc, st| st.map(|st| acc.with(st)))
    }
}

/// Everything about one attack that is not the attacker's build or the target.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Conditions {
    /// Measured range in inches, >= 0. Rounded up for penalties and minimum range.
    pub range: f64,
    pub cover: Cover,
    pub smoke: Smoke,
    pub movement: Movement,
    pub statuses: Statuses,
    /// Laser designated even without smoke (missiles ignore cover). `Smoke::Designated`
    /// implies it.
    pub designated: bool,
    /// The attacker is in the red and failed its jury-rig roll: no fire control.
    pub jury_rig_failed: bool,
    /// The attacker is under-crewed: no fire control, no second action.
    pub under_crewed: bool,
    /// A friendly MSV is on the field (Pirate *Combined Arms*).
    pub friendly_msv: bool,
    pub mode: AttackMode,
}

impl Conditions {
    /// Open ground, stationary, no smoke, at `range`.
    pub fn at_range(range: f64) -> Conditions {
        Conditions { range, ..Conditions::default() }
    }

    /// Whether the target counts as laser designated.
    pub fn is_designated(&self) -> bool {
        self.designated || self.smoke == Smoke::Designated
    }

    /// The range as the rules use it: rounded up to a whole inch.
    pub fn rounded_range(&self) -> u32 {
        self.range.max(0.0).ceil() as u32
    }

    /// Check the values a user may get wrong.
    pub fn validate(&self) -> Result<(), String> {
        if !self.range.is_finite() || self.range < 0.0 {
            return Err(format!("range must be a number of at least 0, got {}", self.range));
        }
        if self.range > 100_000.0 {
            return Err(format!("range {} is beyond any table (at most 100000)", self.range));
        }
        if self.mode == AttackMode::OmegaOverride && self.movement != Movement::Stationary {
            return Err("an Omega Override cannot move: use movement `stationary`".into());
        }
        Ok(())
    }
}

/// Cover penalty magnitude of a band (blocked: the NLOS penalty).
pub fn cover_penalty(cover: Cover, o: &Options) -> i32 {
    let p = match cover {
        Cover::None => 0,
        Cover::Minor => o.minor_cover_penalty,
        Cover::Half => o.half_cover_penalty,
        Cover::Heavy => o.heavy_cover_penalty,
        Cover::Blocked => o.blocked_nlos_penalty,
    };
    p as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &c in Cover::ALL {
            assert_eq!(c.name().parse::<Cover>().unwrap(), c);
        }
        for &m in Movement::ALL {
            assert_eq!(m.name().parse::<Movement>().unwrap(), m);
        }
        assert_eq!("Attack_And_Cover".parse::<Movement>().unwrap(), Movement::AttackAndCover);
        assert!("sideways".parse::<Movement>().unwrap_err().contains("expected one of stationary"));
    }

    #[test]
    fn statuses_combine() {
        let s: Statuses = "dug-in+forest".parse().unwrap();
        assert!(s.dug_in && s.forest && !s.hull_down);
        assert_eq!(s.label(), "dug-in+forest");
        assert_eq!("none".parse::<Statuses>().unwrap().label(), "none");
    }

    #[test]
    fn range_rounds_up() {
        assert_eq!(Conditions::at_range(26.1).rounded_range(), 27);
        assert_eq!(Conditions::at_range(27.0).rounded_range(), 27);
    }
}
