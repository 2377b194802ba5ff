//! Every Ruling and switch of `shared/rules/skirmishers.md` as a named option with its
//! documented default. Options the engagements play take other values; book readings
//! the kernels rely on without an alternative are listed with their one value (so they
//! appear in manifests and cell keys), and advanced rules the engagements do not play
//! are switches that [`Options::validate`] refuses to turn on.

/// What values an option takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `on`/`off`.
    Switch,
    /// `on` only: the kernels' reading of the book, recorded for manifests.
    Fixed,
    /// An advanced-rule switch the engagements do not play: `off` only when validated.
    Unplayed,
    /// A whole number in the range.
    Int(i64, i64),
    /// One of the names.
    Choice(&'static [&'static str]),
}

/// One option: name, kind, default, help (with its section of the rules document).
pub type Spec = (&'static str, Kind, &'static str, &'static str);

/// Every option in a stable order.
pub const SPECS: &[Spec] = &[
    (
        "NO_AUTOMATIC_RESULT",
        Kind::Switch,
        "on",
        "§1: no natural 2/12 rule, TN <= 2 always and TN >= 13 never succeeds (off: a natural 2 fails, a 12 succeeds)",
    ),
    (
        "SCATTER_DOTS",
        Kind::Int(0, 3),
        "1",
        "§3 Explosives: dots a missed explosive scatters; the aimed-at trooper then takes that ring",
    ),
    (
        "INITIAL_CELL_CLAMP",
        Kind::Fixed,
        "on",
        "§3: the initial cell is the first not-fully-crossed cell at or right of the roll (11-12 start at basic cell 10)",
    ),
    (
        "ARMOUR_CHECK_AFTER_LETHAL",
        Kind::Switch,
        "on",
        "§3: bludgeoning looks at the armour left after the same attack's lethal part (off: before the attack)",
    ),
    (
        "BLUNT_START",
        Kind::Fixed,
        "on",
        "§3: bludgeoning starts after the last cell lethal crossed, or at the initial cell (also when armour soaked all of it)",
    ),
    (
        "BLUNT_SKIPS_FULL",
        Kind::Switch,
        "on",
        "§3: bludgeoning skips fully crossed cells (off: a point on a full cell is spent there)",
    ),
    (
        "CURRENT_HP_RIGHTMOST",
        Kind::Switch,
        "on",
        "§3: current HP is the column right of the rightmost full cell (off: of the leftmost, the power-armour text's 'highest')",
    ),
    (
        "PRONE_WHEN_SPENT",
        Kind::Fixed,
        "on",
        "§3: a hit unit drops prone when AP already spent >= its new max AP (stationary engagements spend none)",
    ),
    ("ZERO_CELL", Kind::Fixed, "on", "§3: the basic 0 column is a cell: crossing 1 gives HP 0, crossing 0 gives DEAD"),
    ("OUT_CONDITION", Kind::Fixed, "on", "§3: out at basic HP 0 or DEAD, power armour DEAD"),
    (
        "OUT_WHEN_CANNOT_ATTACK",
        Kind::Switch,
        "off",
        "§3: also out when the unit's max AP cannot pay its cheapest attack",
    ),
    ("AP_FLOOR", Kind::Fixed, "on", "§3: AP never below 0; absolute 0 columns stay 0"),
    (
        "ADVANCED_ARMOUR_PER_POINT",
        Kind::Fixed,
        "on",
        "§3 advanced body armour: each lethal point marks a protected armour cell one step (with ADVANCED_BODY_ARMOR)",
    ),
    (
        "PA_KNOCKDOWN",
        Kind::Int(1, 99),
        "9",
        "§3 Power Armor: bludgeoning points in one turn that knock power armour prone (not played: stationary engagements)",
    ),
    ("BLAST_ROLL_EACH", Kind::Fixed, "on", "§3 Explosives: every trooper hit rolls its own initial cell"),
    (
        "INCENDIARY_MISS_NO_EFFECT",
        Kind::Switch,
        "on",
        "§3: a failed incendiary roll does nothing (off: it scatters like an explosive)",
    ),
    ("FIRE_PERSISTS", Kind::Fixed, "on", "§3: fire lasts the whole engagement"),
    (
        "INTERVENING_TROOPER_COVER",
        Kind::Fixed,
        "on",
        "§2: an intervening trooper gives +1 cover (count it in --obstructions)",
    ),
    (
        "COVER_SKIPS_FIRER_ADJACENT",
        Kind::Switch,
        "on",
        "§2 Resolving Fire: obstructions between the firer and its adjacent dots give no cover: none at range 1, and --obstructions counts the others (off: every obstruction counts, also at range 1)",
    ),
    (
        "SMOKE_REPLACES_COVER",
        Kind::Switch,
        "on",
        "§2: a smoke dot counts +3, not +4 (off: +3 on top of its +1 obstruction)",
    ),
    ("SNEAK_SUIT_STACKS", Kind::Switch, "on", "§2: a sneak suit's +1 adds to the long-range +2 (off: no extra)"),
    (
        "RANGE_BANDS",
        Kind::Fixed,
        "on",
        "§2: no attack beyond Long; melee needs range 1; a throw reaches as far as the AP paid",
    ),
    ("ROUND", Kind::Fixed, "on", "§4: the engine's turn is a round (both sides' turns)"),
    (
        "FIRST_SIDE",
        Kind::Choice(&["random", "a", "b"]),
        "random",
        "§4: which side of a duel moves first (random: the exact duel averages both orders)",
    ),
    ("ONE_ATTACK_PER_TRIGGER", Kind::Fixed, "on", "§4: a firer attacks a given enemy once per trigger"),
    (
        "VOLLEY",
        Kind::Switch,
        "off",
        "§4: spend all of an arc's remaining shots on one trigger (burst arcs still fire once)",
    ),
    (
        "ONE_ARC_PER_TROOPER",
        Kind::Fixed,
        "on",
        "§4: one active weapon and one arc a trooper; power armour one arc per weapon",
    ),
    ("CREW_COLUMN", Kind::Fixed, "on", "§4: the crew table's AP Cost column holds the crew values"),
    ("CREW_ARC_AP", Kind::Int(0, 8), "4", "§4: AP to re-pay a crew weapon's 60 degree arc each turn"),
    ("MOVEMENT_FIRE_LIMIT", Kind::Fixed, "on", "§4: movement fire once a turn, burst weapons while AP lasts"),
    ("FISTS_ROUND_DOWN", Kind::Switch, "on", "§4 Melee: fists deal max AP / 2 rounded down (off: up)"),
    ("MORALE_TIMING", Kind::Fixed, "on", "§4: morale checked at the start of the side's turn; failing, no action"),
    ("MORALE_COUNTS_OUT", Kind::Fixed, "on", "§4: troopers at HP 0 count as dead for morale"),
    ("DAMAGE_MODS_ALL_CHECKS", Kind::Fixed, "on", "§4: Mods apply to morale and control checks too"),
    (
        "SQUAD_POLICY",
        Kind::Fixed,
        "on",
        "§4: roster order, widest arc, always fire, primary if in range (squad fights)",
    ),
    (
        "SQUAD_BUDGET",
        Kind::Int(0, 1_000_000),
        "0",
        "§4 squad fight: PV budget; a one-kind force fields floor(budget / unit PV) troopers, a mixed one must fit (0: forces as written)",
    ),
    (
        "SQUAD_PV_TOLERANCE",
        Kind::Int(0, 100),
        "10",
        "§4 squad fight (Ruling SQUAD_EQUAL_PV): forces whose PVs differ by more than this percent of the larger are refused",
    ),
    ("SQUAD_MAX_ROUNDS", Kind::Int(1, 10_000), "50", "§4 squad fight: round cap (unless --max-turns gives one)"),
    (
        "SQUAD_CAP_RESULT",
        Kind::Choice(&["draw", "undecided"]),
        "draw",
        "§4 squad fight: how a fight still on at the round cap is called (the doc: a draw)",
    ),
    (
        "SQUAD_OPENING",
        Kind::Choice(&["contact", "cold"]),
        "contact",
        "§4 squad fight: contact: every trooper starts with its arcs set, as at the end of an earlier turn (the book's play: arcs are set at the end of each activation while the sides close); cold: no arc, the side moving first takes no fire in its first turn",
    ),
    (
        "CARD_AP_FIELD",
        Kind::Fixed,
        "on",
        "§5: the card's weapon AP box is the Shots multiplier for arc weapons, else the AP cost",
    ),
    ("SECONDARY_OPTIONAL", Kind::Fixed, "on", "§5: the secondary weapon is optional"),
    (
        "UNIT_PV",
        Kind::Fixed,
        "on",
        "§5: unit PV = printed PVs of what it carries (44 per 4 hand grenades); the rest 0 unless given",
    ),
    ("SATCHEL_COST", Kind::Fixed, "on", "§5: a flat satchel throw costs 2 AP per dot (3 = stairs/ladders)"),
    (
        "PA_FLAME_ATM",
        Kind::Fixed,
        "on",
        "§5: power-armour flamethrower and ATM fire in the activation, resolve at the end of the turn",
    ),
    ("VEHICLE_MODS", Kind::Fixed, "on", "§5: movement fire uses the rider's Mods only"),
    ("WIPEOUT_LETHAL", Kind::Fixed, "on", "§5: wipe-out damage is lethal"),
    (
        "MOVEMENT_FIRE",
        Kind::Switch,
        "off",
        "Advanced Mobility switch: the attacker fires movement-fire shots (2 AP, +2 TN) in its own turn",
    ),
    (
        "ADVANCED_BODY_ARMOR",
        Kind::Unplayed,
        "off",
        "Advanced Combat switch: armour protects chosen cells (needs protected cells on the card: not played)",
    ),
    ("MORALE", Kind::Unplayed, "off", "Advanced Combat switch: morale checks (squad fights only: not played)"),
    (
        "ADVANCED_TERRAIN",
        Kind::Switch,
        "off",
        "Advanced Mobility switch: the terrain conditions --entangled (+1 TN), --tunnel (+2) and --target-swimming (+1)",
    ),
    ("FIRE", Kind::Unplayed, "off", "Advanced Combat switch: burning dots (not played)"),
    ("JET_PACKS", Kind::Unplayed, "off", "Advanced Mobility switch: jet packs (not played)"),
    ("VEHICLES", Kind::Unplayed, "off", "Advanced Mobility switch: vehicles (not played)"),
];

/// The options' values, canonical text in [`SPECS`] order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    values: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options { values: SPECS.iter().map(|s| s.2.to_string()).collect() }
    }
}

fn index(name: &str) -> Result<usize, String> {
    SPECS.iter().position(|s| s.0.eq_ignore_ascii_case(name.trim())).ok_or_else(|| {
        format!(
            "unknown Skirmishers option `{name}`{}",
            crate::catalogue::error::did_you_mean(name, SPECS.iter().map(|s| s.0))
        )
    })
}

impl Options {
    /// Set `name` from text (`on`/`off`/`true`/`false`, a number, a name).
    ///
    /// # Errors
    /// An unknown option or a value it does not take.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let i = index(name)?;
        let (n, kind, _, _) = SPECS[i];
        let v = value.trim().to_ascii_lowercase();
        let canonical = match kind {
            Kind::Switch | Kind::Fixed | Kind::Unplayed => match v.as_str() {
                "on" | "true" | "yes" => "on".to_string(),
                "off" | "false" | "no" => "off".to_string(),
                _ => return Err(format!("{n}: `{value}` is not on or off")),
            },
            Kind::Int(lo, hi) => match v.parse::<i64>() {
                Ok(x) if (lo..=hi).contains(&x) => x.to_string(),
                _ => return Err(format!("{n}: `{value}` is not a whole number from {lo} to {hi}")),
            },
            Kind::Choice(names) => match names.iter().find(|c| **c == v) {
                Some(c) => c.to_string(),
                None => return Err(format!("{n}: `{value}` is not one of {}", names.join(", "))),
            },
        };
        self.values[i] = canonical;
        Ok(())
    }

    /// Every option as `(NAME, value)`.
    pub fn pairs(&self) -> Vec<(String, String)> {
        SPECS.iter().zip(&self.values).map(|(s, v)| (s.0.to_string(), v.clone())).collect()
    }

    /// # Errors
    /// A book reading turned off, or an advanced rule the engagements do not play turned on.
    pub fn validate(&self) -> Result<(), String> {
        let mut bad = Vec::new();
        for (s, v) in SPECS.iter().zip(&self.values) {
            match s.1 {
                Kind::Fixed if v != "on" => bad.push(format!("{}=off (the kernels play only the book's reading)", s.0)),
                Kind::Unplayed if v != "off" => bad.push(format!("{}=on (not played by attack runs and duels)", s.0)),
                _ => {}
            }
        }
        if bad.is_empty() { Ok(()) } else { Err(format!("Skirmishers cannot play {}", bad.join("; "))) }
    }

    fn value(&self, name: &str) -> &str {
        &self.values[index(name).expect("a listed option")]
    }
    /// A switch's value (`name` must be listed).
    pub fn on(&self, name: &str) -> bool {
        self.value(name) == "on"
    }
    /// A number option's value (`name` must be listed).
    pub fn int(&self, name: &str) -> i64 {
        self.value(name).parse().expect("canonical number")
    }
    /// A choice option's value (`name` must be listed).
    pub fn choice(&self, name: &str) -> &str {
        self.value(name)
    }
    /// The marking rulings of §3.
    pub fn marking(&self) -> super::track::Marking {
        super::track::Marking {
            armour_check_after_lethal: self.on("ARMOUR_CHECK_AFTER_LETHAL"),
            blunt_skips_full: self.on("BLUNT_SKIPS_FULL"),
            rightmost: self.on("CURRENT_HP_RIGHTMOST"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ruling_of_the_rules_document_is_an_option() {
        for name in [
            "NO_AUTOMATIC_RESULT",
            "SCATTER_DOTS",
            "INITIAL_CELL_CLAMP",
            "ARMOUR_CHECK_AFTER_LETHAL",
            "BLUNT_START",
            "BLUNT_SKIPS_FULL",
            "CURRENT_HP_RIGHTMOST",
            "PRONE_WHEN_SPENT",
            "ZERO_CELL",
            "OUT_CONDITION",
            "OUT_WHEN_CANNOT_ATTACK",
            "AP_FLOOR",
            "ADVANCED_ARMOUR_PER_POINT",
            "PA_KNOCKDOWN",
            "BLAST_ROLL_EACH",
            "INCENDIARY_MISS_NO_EFFECT",
            "FIRE_PERSISTS",
            "INTERVENING_TROOPER_COVER",
            "SMOKE_REPLACES_COVER",
            "SNEAK_SUIT_STACKS",
            "RANGE_BANDS",
            "ROUND",
            "FIRST_SIDE",
            "ONE_ATTACK_PER_TRIGGER",
            "VOLLEY",
            "ONE_ARC_PER_TROOPER",
            "CREW_COLUMN",
            "CREW_ARC_AP",
            "MOVEMENT_FIRE_LIMIT",
            "FISTS_ROUND_DOWN",
            "MORALE_TIMING",
            "MORALE_COUNTS_OUT",
            "DAMAGE_MODS_ALL_CHECKS",
            "SQUAD_POLICY",
            "CARD_AP_FIELD",
            "SECONDARY_OPTIONAL",
            "UNIT_PV",
            "SATCHEL_COST",
            "PA_FLAME_ATM",
            "VEHICLE_MODS",
            "WIPEOUT_LETHAL",
            "ADVANCED_BODY_ARMOR",
        ] {
            assert!(index(name).is_ok(), "{name}");
        }
        let o = Options::default();
        assert!(o.validate().is_ok());
        assert!(!o.on("MOVEMENT_FIRE") && !o.on("ADVANCED_BODY_ARMOR") && !o.on("VOLLEY"));
        assert_eq!(o.int("SCATTER_DOTS"), 1);
    }

    #[test]
    fn values_are_checked_and_unplayed_switches_refused() {
        let mut o = Options::default();
        assert!(o.set("SCATTER_DOTS", "9").is_err());
        assert!(o.set("FIRST_SIDE", "c").is_err());
        assert!(o.set("NO_SUCH", "on").unwrap_err().contains("unknown"));
        o.set("morale", "on").unwrap();
        assert!(o.validate().unwrap_err().contains("MORALE=on"));
        let mut o = Options::default();
        o.set("ZERO_CELL", "off").unwrap();
        assert!(o.validate().is_err());
    }
}
