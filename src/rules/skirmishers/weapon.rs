//! Weapons as the catalogue supplies them (§5 "Weapons and Equipment"), and how each is
//! used in an engagement.

/// The book's table a weapon comes from (catalogue key `class`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Primary,
    Secondary,
    Melee,
    Explosive,
    Crew,
    AdvancedExplosive,
    Incendiary,
    PowerArmor,
}

impl Class {
    pub const NAMES: &'static [&'static str] =
        &["primary", "secondary", "melee", "explosive", "crew", "advanced-explosive", "incendiary", "power-armor"];
    const ALL: [Class; 8] = [
        Class::Primary,
        Class::Secondary,
        Class::Melee,
        Class::Explosive,
        Class::Crew,
        Class::AdvancedExplosive,
        Class::Incendiary,
        Class::PowerArmor,
    ];
    pub fn name(self) -> &'static str {
        Self::NAMES[Self::ALL.iter().position(|&c| c == self).expect("listed")]
    }
    pub fn parse(s: &str) -> Option<Class> {
        Self::NAMES.iter().position(|n| n.eq_ignore_ascii_case(s.trim())).map(|i| Self::ALL[i])
    }
}

/// Where a trooper carries a weapon (catalogue key `slot`; §5 "Loadout", Ruling
/// `WEAPON_SLOTS`). Power armour's primaries are its power-armour weapons whatever their
/// slot; any weapon a basic trooper carries as a primary or secondary may be its secondary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// A basic trooper's primary: the Primary Weapons table, crew-served weapons ("in
    /// place of their primary weapon"), launchers.
    Primary,
    /// A basic trooper's secondary: ranged and melee secondaries, satchel charge, light
    /// anti-tank weapon.
    Secondary,
    /// A primary, or the secondary when mounted under a rifle or SMG primary (a weapon of
    /// class `primary`): the grenade launcher.
    PrimaryOrMounted,
    /// Thrown from the grenade boxes only (the `grenade` field): hand and incendiary grenades.
    Grenade,
    /// Carried by every trooper, never in a slot: fists and the bayonet/knife.
    Carried,
}

impl Slot {
    pub const NAMES: &'static [&'static str] = &["primary", "secondary", "primary-or-mounted", "grenade", "carried"];
    const ALL: [Slot; 5] = [Slot::Primary, Slot::Secondary, Slot::PrimaryOrMounted, Slot::Grenade, Slot::Carried];
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
    pub fn parse(s: &str) -> Option<Slot> {
        Self::NAMES.iter().position(|n| n.eq_ignore_ascii_case(s.trim())).map(|i| Self::ALL[i])
    }
    /// The slot a weapon of `class` takes when the catalogue gives none: the primary for
    /// the Primary, Crew Served, Advanced Explosive, Incendiary and Power Armor tables, the
    /// secondary for the Secondary, Melee and Explosive tables.
    pub fn of_class(class: Class) -> Slot {
        match class {
            Class::Secondary | Class::Melee | Class::Explosive => Slot::Secondary,
            _ => Slot::Primary,
        }
    }
    /// Whether a basic trooper may carry it as its primary.
    pub fn primary(self) -> bool {
        matches!(self, Slot::Primary | Slot::PrimaryOrMounted)
    }
}

/// Shots into one firing arc per base shot (the Shots column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shots {
    Times(u32),
    /// Burst fire ("-"): the arc is not removed after firing.
    Unlimited,
}

/// Bludgeoning points per hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blunt {
    Points(u32),
    /// Half the attacker's current maximum AP (Ruling `FISTS_ROUND_DOWN`).
    Fists,
}

/// The AP Cost column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApCost {
    Fixed(u32),
    /// Thrown: this many AP per dot ("AP": grenade 1, satchel 2, Ruling `SATCHEL_COST`).
    PerDot(u32),
}

/// A weapon's printed stats. Numbers are the book's; `pv` 0 where it prints none.
#[derive(Debug, Clone, PartialEq)]
pub struct Weapon {
    pub name: String,
    pub class: Class,
    /// Lethal points per ring (centre first); one entry for a non-explosive weapon.
    pub lethal: Vec<u32>,
    pub blunt: Blunt,
    /// Arc weapons only.
    pub shots: Option<Shots>,
    pub ap_cost: Option<ApCost>,
    /// Rounds carried; `None` = unlimited.
    pub ammo: Option<u32>,
    /// Short and Long range in dots (`None` for melee's Long and thrown weapons).
    pub short: Option<u32>,
    pub long: Option<u32>,
    pub pv: u32,
    /// Extra troopers to set it up (Ruling `CREW_COLUMN`).
    pub crew: u32,
    /// Incendiary: a miss does nothing (Ruling `INCENDIARY_MISS_NO_EFFECT`).
    pub incendiary: bool,
    /// Where a trooper carries it (Ruling `WEAPON_SLOTS`).
    pub slot: Slot,
}

/// How a weapon attacks in an engagement (§4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    /// Fires from a firing arc at a target activating in it (base TN 6).
    Arc { shots: Shots, crew: bool },
    /// 5 AP, adjacent, TN 4, no cover; resolved when the target activates.
    Melee,
    /// Thrown: TN = AP spent on the throw; resolved at the end of the thrower's turn.
    Thrown { per_dot: u32 },
    /// A ranged explosive or incendiary weapon: base TN 6, resolved at the end of the
    /// firer's turn; `ap` per use (`None`: once per turn, power-armour "end of turn").
    Launcher { ap: Option<u32> },
}

impl Weapon {
    pub fn usage(&self) -> Use {
        match (self.class, self.ap_cost, self.shots) {
            (Class::Melee, _, _) => Use::Melee,
            (_, Some(ApCost::PerDot(d)), _) => Use::Thrown { per_dot: d },
            (c, _, Some(shots)) => Use::Arc { shots, crew: c == Class::Crew },
            (_, Some(ApCost::Fixed(ap)), None) => Use::Launcher { ap: Some(ap) },
            (_, None, None) => Use::Launcher { ap: None },
        }
    }
    /// Explosives and incendiaries target a dot: no prone-target modifier, rings, scatter.
    pub fn targets_dot(&self) -> bool {
        matches!(self.usage(), Use::Thrown { .. } | Use::Launcher { .. })
    }
    /// "6X/3X/1X", "1X, 4\\", "(max AP/2)\\".
    pub fn damage_text(&self) -> String {
        let lethal: Vec<String> = self.lethal.iter().map(|x| format!("{x}X")).collect();
        let blunt = match self.blunt {
            Blunt::Points(0) => None,
            Blunt::Points(b) => Some(format!("{b}\\")),
            Blunt::Fists => Some("(max AP/2)\\".to_string()),
        };
        match (self.lethal.iter().all(|&x| x == 0), blunt) {
            (true, Some(b)) => b,
            (false, Some(b)) => format!("{}, {b}", lethal.join("/")),
            (_, None) => lethal.join("/"),
        }
    }
}
