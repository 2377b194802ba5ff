//! Every Ruling of `shared/rules/shellshock.md` as a named runtime option with its
//! documented default, plus the engagement switches of §5 and §8.
//!
//! Options are held as canonical text ([`Options::pairs`] goes into manifests and cell
//! keys) and read through typed accessors when a kernel is compiled (never in a hot
//! loop). Each option lists the values it takes; a value the kernels do not play yet is
//! refused by [`Options::validate`] with the reason, never silently ignored.

/// What values an option takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Values {
    /// One of these words (upper case, as the rules document spells them).
    Choice(&'static [&'static str]),
    /// An integer in `min..=max`.
    Int(i64, i64),
    /// `AUTO` or an integer in `min..=max`.
    AutoOrInt(i64, i64),
}

/// One option: name, default, values, whether the kernels play every value, help.
pub struct Spec {
    pub name: &'static str,
    pub default: &'static str,
    pub values: Values,
    /// Values accepted by the parser but not played yet (refused by `validate`).
    pub not_played: &'static [&'static str],
    pub help: &'static str,
}

const B: &[&str] = &["true", "false"];

/// Every option, in a stable order (the order of `shellshock.md`).
pub const SPECS: &[Spec] = &[
    Spec {
        name: "EXPLODE",
        default: "PER_DIE",
        values: Values::Choice(&["PER_DIE"]),
        not_played: &[],
        help: "§1: a d10 showing 10 is rerolled and added, per die, without limit",
    },
    Spec {
        name: "NATURAL",
        default: "FIRST_ROLL",
        values: Values::Choice(&["FIRST_ROLL"]),
        not_played: &[],
        help: "§1: auto-miss and natural 20 look at the two dice as first rolled only",
    },
    Spec {
        name: "DOUBLE_STACKS",
        default: "false",
        values: Values::Choice(B),
        not_played: &[],
        help: "§1: a roll doubling in two ways doubles once (false) or once per way (true: x4)",
    },
    Spec {
        name: "SECOND_20_DESTROYS",
        default: "true",
        values: Values::Choice(B),
        not_played: &[],
        help: "§1: a natural 20 whose two rerolls are both 10 destroys the target",
    },
    Spec {
        name: "RANGE_STEP",
        default: "12",
        values: Values::Int(1, 1000),
        not_played: &[],
        help: "§2: +1 to the TN per this many full hexes of range",
    },
    Spec {
        name: "POINT_BLANK_ROUND",
        default: "FLOOR",
        values: Values::Choice(&["FLOOR", "CEIL"]),
        not_played: &[],
        help: "§2: halving a DV at point blank rounds down (FLOOR) or up",
    },
    Spec {
        name: "DICE_LADDER",
        default: "D10+D4,D10+D6,D10+D8,2D10",
        values: Values::Choice(&["D10+D4,D10+D6,D10+D8,2D10"]),
        not_played: &[],
        help: "§2: the dice levels (the `dice` axis picks a level directly)",
    },
    Spec {
        name: "IMMOBILE_TN",
        default: "STEALTH_RANGE",
        values: Values::Choice(&["STEALTH_RANGE"]),
        not_played: &[],
        help: "§2: an immobile target's TN is its stealth + the range modifier",
    },
    Spec {
        name: "FACING_MAP",
        default: "HEXSIDES",
        values: Values::Choice(&["HEXSIDES"]),
        not_played: &[],
        help: "§2: front/rear hexsides hit Front/Rear, the four others a Side (the `facing` axis)",
    },
    Spec {
        name: "INDIRECT_MIN_RANGE",
        default: "12",
        values: Values::Int(0, 1000),
        not_played: &[],
        help: "§2: weapons of type I do not fire under this many hexes",
    },
    Spec {
        name: "DAMAGE_DICE",
        default: "POOL",
        values: Values::Choice(&["POOL", "MULTIPLY", "BELL_D12"]),
        not_played: &[],
        help: "§3: roll every d6 (POOL), n x 1d6 (MULTIPLY) or n x the bell d12 1,2,2,3,3,3,4,4,4,5,5,6",
    },
    Spec {
        name: "CHART_WRAPS",
        default: "true",
        values: Values::Choice(B),
        not_played: &["false"],
        help: "§3: marking goes on at line 01 after 100 (full-chart model only)",
    },
    Spec {
        name: "HITS_ONCE_PER_RANGE",
        default: "true",
        values: Values::Choice(B),
        not_played: &["false"],
        help: "§3: an item takes X hits once per Internal hit (full-chart model only)",
    },
    Spec {
        name: "LOCOMOTION_LINES",
        default: "MARKED_NOT_DESTROYED",
        values: Values::Choice(&["MARKED_NOT_DESTROYED"]),
        not_played: &[],
        help: "§3: locomotion lines are marked but the item is never destroyed (full-chart model only)",
    },
    Spec {
        name: "SYMPATHETIC_PER_ITEM",
        default: "true",
        values: Values::Choice(B),
        not_played: &["false"],
        help: "§3: one opposed d10 roll per fuel or ammunition item hit (full-chart model only)",
    },
    Spec {
        name: "ENGINE_LOSS_IMMOBILISES",
        default: "true",
        values: Values::Choice(B),
        not_played: &["false"],
        help: "§3: every engine destroyed makes max speed 0 (full-chart model only)",
    },
    Spec {
        name: "SEQUENTIAL_BOOKKEEPING",
        default: "true",
        values: Values::Choice(B),
        not_played: &["false"],
        help: "§3: gunners resolve in card order, armour and lines update at once, losses in (Aftermath)",
    },
    Spec {
        name: "OUT_OF_ACTION",
        default: "CARD_FREE",
        values: Values::Choice(&["CARD_FREE", "FULL"]),
        not_played: &["FULL"],
        help: "§3: destroyed on (a) Dead box, (b) second 20, (d) 100 lines marked (CARD_FREE); MODEL=FULL_CHART plays (a)-(f) whatever this says",
    },
    Spec {
        name: "MODEL",
        default: "CARD_FREE",
        values: Values::Choice(&["CARD_FREE", "FULL_CHART"]),
        not_played: &[],
        help: "§3: the card-free model (lines counted) or the full 100-line chart model (equipment, sympathetic explosions, locomotion; out of action (a)-(f); Monte Carlo only, every die rolled)",
    },
    Spec {
        name: "ENGAGEMENT_MOVEMENT",
        default: "NONE",
        values: Values::Choice(&["NONE"]),
        not_played: &[],
        help: "§5: engagements fix range and aspect; no initiative or movement",
    },
    Spec {
        name: "ALL_WEAPONS_BEAR",
        default: "true",
        values: Values::Choice(&["true"]),
        not_played: &[],
        help: "§5: every weapon in range bears on the target",
    },
    Spec {
        name: "AMMO",
        default: "UNLIMITED",
        values: Values::Choice(&["UNLIMITED"]),
        not_played: &[],
        help: "§5: the catalogue carries no ammunition counts",
    },
    Spec {
        name: "DODGE",
        default: "NEVER",
        values: Values::Choice(&["NEVER"]),
        not_played: &[],
        help: "§5: nobody dodges",
    },
    Spec {
        name: "SPREAD",
        default: "0",
        values: Values::Int(0, 10),
        not_played: &[],
        help: "§2: spreadfire level of every gunner whose weapons in range can all spread (others fire at 0)",
    },
    Spec {
        name: "SKILL_DEFAULT",
        default: "0",
        values: Values::Int(-10, 20),
        not_played: &[],
        help: "§4: Gunnery of a gunner whose catalogue entry gives no skill",
    },
    Spec {
        name: "ECV_FROM_CARD",
        default: "true",
        values: Values::Choice(&["true"]),
        not_played: &[],
        help: "§4: every ECV is catalogue data; volley never derives one",
    },
    Spec {
        name: "HALF",
        default: "FLOOR",
        values: Values::Choice(&["FLOOR"]),
        not_played: &[],
        help: "§6: halves round down (punching without a hand)",
    },
    Spec {
        name: "RAM_ROLLS_TO_HIT",
        default: "true",
        values: Values::Choice(&["true"]),
        not_played: &[],
        help: "§6: a ram rolls to hit against the P DV (rams are not played)",
    },
    Spec {
        name: "OPT_EXPANDING_SHOCK",
        default: "false",
        values: Values::Choice(B),
        not_played: &["true"],
        help: "§6: optional rule, off (one target only)",
    },
    Spec {
        name: "OPT_CHAINGUN_SWITCH",
        default: "false",
        values: Values::Choice(B),
        not_played: &["true"],
        help: "§6: optional rule, off (the catalogue marks no chainguns)",
    },
    Spec {
        name: "EXACT_DEPTH",
        default: "AUTO",
        values: Values::AutoOrInt(1, 60),
        not_played: &[],
        help: "§8: rerolls kept per d10 in exact maths; AUTO = the least depth that is exact for the TNs asked",
    },
    Spec {
        name: "MC_EXPLODE",
        default: "UNBOUNDED",
        values: Values::Choice(&["UNBOUNDED"]),
        not_played: &[],
        help: "§8: Monte Carlo rerolls a d10 while it shows 10, without cap",
    },
    Spec {
        name: "MC_SAMPLER",
        default: "TABLE",
        values: Values::Choice(&["TABLE", "DICE"]),
        not_played: &[],
        help: "§8: Monte Carlo draws a gunner's whole step from one exact table (TABLE) or rolls every die (DICE)",
    },
];

/// The options' values, as canonical text in [`SPECS`] order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    values: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options { values: SPECS.iter().map(|s| s.default.to_string()).collect() }
    }
}

/// How the d6 damage dice are rolled (`DAMAGE_DICE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DamageDice {
    Pool,
    Multiply,
    BellD12,
}

fn canonical(spec: &Spec, value: &str) -> Result<String, String> {
    let v = value.trim();
    let int = |v: &str, min: i64, max: i64| -> Result<String, String> {
        match v.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n.to_string()),
            _ => Err(format!("{}: expected a whole number from {min} to {max}, got `{v}`", spec.name)),
        }
    };
    match spec.values {
        Values::Choice(list) => list
            .iter()
            .find(|c| c.eq_ignore_ascii_case(v) || c.replace('_', "-").eq_ignore_ascii_case(v))
            .map(|c| c.to_string())
            .ok_or_else(|| format!("{}: expected one of {}, got `{v}`", spec.name, list.join(", "))),
        Values::Int(min, max) => int(v, min, max),
        Values::AutoOrInt(min, max) if v.eq_ignore_ascii_case("auto") => {
            let _ = (min, max);
            Ok("AUTO".into())
        }
        Values::AutoOrInt(min, max) => int(v, min, max),
    }
}

impl Options {
    fn index(name: &str) -> Result<usize, String> {
        SPECS.iter().position(|s| s.name.eq_ignore_ascii_case(name.trim())).ok_or_else(|| {
            format!(
                "unknown Shellshock option `{name}`{}",
                crate::catalogue::error::did_you_mean(name, SPECS.iter().map(|s| s.name))
            )
        })
    }

    /// The canonical text of option `name` (a name of [`SPECS`]).
    pub fn get(&self, name: &str) -> &str {
        &self.values[Self::index(name).expect("a known option name")]
    }

    fn int(&self, name: &str) -> i64 {
        self.get(name).parse().expect("validated integer")
    }

    fn flag(&self, name: &str) -> bool {
        self.get(name) == "true"
    }

    /// Set option `name` from text.
    ///
    /// # Errors
    /// An unknown name (with the nearest) or a value the option does not take.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let i = Self::index(name)?;
        self.values[i] = canonical(&SPECS[i], value)?;
        Ok(())
    }

    /// Every option as `(NAME, value)`, in [`SPECS`] order.
    pub fn pairs(&self) -> Vec<(String, String)> {
        SPECS.iter().zip(&self.values).map(|(s, v)| (s.name.to_string(), v.clone())).collect()
    }

    /// Refuse values the kernels do not play yet, naming each.
    ///
    /// # Errors
    /// A message naming every option at fault.
    pub fn validate(&self) -> Result<(), String> {
        let bad: Vec<String> = SPECS
            .iter()
            .zip(&self.values)
            .filter(|(s, v)| s.not_played.contains(&v.as_str()))
            .map(|(s, v)| format!("{}={v}", s.name))
            .collect();
        if bad.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "not played yet in Shellshock: {} (the card-free model of shellshock.md §3 is played)",
                bad.join(", ")
            ))
        }
    }

    pub fn double_stacks(&self) -> bool {
        self.flag("DOUBLE_STACKS")
    }
    pub fn second_20_destroys(&self) -> bool {
        self.flag("SECOND_20_DESTROYS")
    }
    /// Hexes per +1 of range modifier, >= 1.
    pub fn range_step(&self) -> u32 {
        self.int("RANGE_STEP") as u32
    }
    /// Whether point-blank halving rounds up.
    pub fn point_blank_ceil(&self) -> bool {
        self.get("POINT_BLANK_ROUND") == "CEIL"
    }
    pub fn indirect_min_range(&self) -> u32 {
        self.int("INDIRECT_MIN_RANGE") as u32
    }
    pub fn damage_dice(&self) -> DamageDice {
        match self.get("DAMAGE_DICE") {
            "MULTIPLY" => DamageDice::Multiply,
            "BELL_D12" => DamageDice::BellD12,
            _ => DamageDice::Pool,
        }
    }
    /// The spreadfire level, 0..=10.
    pub fn spread(&self) -> u32 {
        self.int("SPREAD") as u32
    }
    pub fn skill_default(&self) -> i32 {
        self.int("SKILL_DEFAULT") as i32
    }
    /// `None` = AUTO.
    pub fn exact_depth(&self) -> Option<u32> {
        match self.get("EXACT_DEPTH") {
            "AUTO" => None,
            v => Some(v.parse().expect("validated integer")),
        }
    }
    /// Whether the full chart model is played (`MODEL = FULL_CHART`).
    pub fn full_chart(&self) -> bool {
        self.get("MODEL") == "FULL_CHART"
    }
    /// Whether Monte Carlo rolls every die (`MC_SAMPLER = DICE`).
    pub fn mc_dice(&self) -> bool {
        self.get("MC_SAMPLER") == "DICE"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_documented_rulings_and_switch_by_name() {
        let mut o = Options::default();
        assert_eq!(o.get("SECOND_20_DESTROYS"), "true");
        assert_eq!(o.range_step(), 12);
        assert_eq!(o.damage_dice(), DamageDice::Pool);
        assert!(o.validate().is_ok());
        o.set("damage_dice", "bell_d12").unwrap();
        assert_eq!(o.damage_dice(), DamageDice::BellD12);
        assert!(o.set("RANGE_STEP", "0").is_err());
        assert!(o.set("RANGE_STEPS", "3").unwrap_err().contains("RANGE_STEP"));
        o.set("MODEL", "FULL_CHART").unwrap();
        assert!(o.validate().is_ok() && o.full_chart());
        o.set("SYMPATHETIC_PER_ITEM", "false").unwrap();
        assert!(o.validate().unwrap_err().contains("SYMPATHETIC_PER_ITEM=false"));
        assert_eq!(o.pairs().len(), SPECS.len());
    }
}
