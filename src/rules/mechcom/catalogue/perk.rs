//! Perk names as the catalogue writes them ("List of Perks", §3): `"Flurry"`,
//! `"Volatile 1"`, `"Condition: Burned"`, `"Critical condition: Shocked"`.

use crate::catalogue::error::did_you_mean;
use crate::rules::mechcom::conditions::Condition;
use crate::rules::mechcom::weapon::Perk;

/// Every perk of "List of Perks", as written before any value.
pub const PERK_NAMES: [&str; 16] = [
    "Ammo",
    "Artillery",
    "Backfire",
    "Barrage",
    "Blast",
    "Condition",
    "Critical condition",
    "Flurry",
    "Heavy",
    "Multi",
    "Rend",
    "Sniper",
    "Superheated",
    "Tracker",
    "Ultralight",
    "Volatile",
];

/// Largest X accepted for Ammo (attacks per game).
pub const MAX_AMMO: u32 = 100;
/// Largest X accepted for Backfire (Integrity the wielder loses).
pub const MAX_BACKFIRE: u32 = 20;
/// Largest X accepted for Rend and Volatile: beyond 6 a d6 roll changes no more.
pub const MAX_REND_VOLATILE: u32 = 6;

/// The perk as the catalogue writes it: `"Volatile 1"`, `"Condition: Burned"`.
pub fn perk_name(p: Perk) -> String {
    match p {
        Perk::Ammo(x) => format!("Ammo {x}"),
        Perk::Artillery => "Artillery".into(),
        Perk::Backfire(x) => format!("Backfire {x}"),
        Perk::Barrage => "Barrage".into(),
        Perk::Blast => "Blast".into(),
        Perk::Condition(c) => format!("Condition: {c}"),
        Perk::CriticalCondition(c) => format!("Critical condition: {c}"),
        Perk::Flurry => "Flurry".into(),
        Perk::Heavy => "Heavy".into(),
        Perk::Multi => "Multi".into(),
        Perk::Rend(x) => format!("Rend {x}"),
        Perk::Sniper => "Sniper".into(),
        Perk::Superheated => "Superheated".into(),
        Perk::Tracker => "Tracker".into(),
        Perk::Ultralight => "Ultralight".into(),
        Perk::Volatile(x) => format!("Volatile {x}"),
    }
}

/// Read one perk (names in any case).
///
/// # Errors
/// A message for an unknown perk (with a suggestion), an unknown condition, a missing,
/// extra or out-of-range X, or several perks in one item.
pub fn parse_perk(text: &str) -> Result<Perk, String> {
    let text = text.trim();
    if let Some((head, rest)) = text.split_once(':') {
        let head = head.trim();
        let rest = rest.trim();
        let critical = if head.eq_ignore_ascii_case("Condition") {
            false
        } else if head.eq_ignore_ascii_case("Critical condition") {
            true
        } else {
            return Err(format!(
                "unknown perk `{head}`{}; only Condition and Critical condition take `: CONDITION`",
                did_you_mean(head, ["Condition", "Critical condition"])
            ));
        };
        if rest.contains(',') {
            return Err(format!(
                "one perk per item: write `\"{head}: {}\", \"{}\"` (`CONDITION_LIST_SPLIT`)",
                rest.split(',').next().unwrap_or("").trim(),
                rest.split_once(',').map_or("", |(_, r)| r.trim())
            ));
        }
        let condition = parse_condition(rest)?;
        return Ok(if critical { Perk::CriticalCondition(condition) } else { Perk::Condition(condition) });
    }
    if text.contains(',') {
        return Err("one perk per item: split the list into separate strings".into());
    }
    let (name, value) = match text.rsplit_once(char::is_whitespace) {
        Some((n, v)) if v.chars().all(|c| c.is_ascii_digit() || c == '-') => (n.trim(), Some(v)),
        _ => (text, None),
    };
    let Some(&known) = PERK_NAMES.iter().find(|p| p.eq_ignore_ascii_case(name)) else {
        return Err(format!("unknown perk `{text}`{}", did_you_mean(name, PERK_NAMES)));
    };
    let x = |max: u32| -> Result<u32, String> {
        let Some(v) = value else {
            return Err(format!("perk `{known}` needs its value X: write `{known} 1`"));
        };
        match v.parse::<u32>() {
            Ok(x) if (1..=max).contains(&x) => Ok(x),
            _ => Err(format!("perk `{known}`: X must be between 1 and {max}, got {v}")),
        }
    };
    let plain = |p: Perk| -> Result<Perk, String> {
        match value {
            Some(v) => Err(format!("perk `{known}` takes no value, got `{v}`")),
            None => Ok(p),
        }
    };
    match known {
        "Ammo" => Ok(Perk::Ammo(x(MAX_AMMO)?)),
        "Backfire" => Ok(Perk::Backfire(x(MAX_BACKFIRE)?)),
        "Rend" => Ok(Perk::Rend(x(MAX_REND_VOLATILE)?)),
        "Volatile" => Ok(Perk::Volatile(x(MAX_REND_VOLATILE)?)),
        "Artillery" => plain(Perk::Artillery),
        "Barrage" => plain(Perk::Barrage),
        "Blast" => plain(Perk::Blast),
        "Flurry" => plain(Perk::Flurry),
        "Heavy" => plain(Perk::Heavy),
        "Multi" => plain(Perk::Multi),
        "Sniper" => plain(Perk::Sniper),
        "Superheated" => plain(Perk::Superheated),
        "Tracker" => plain(Perk::Tracker),
        "Ultralight" => plain(Perk::Ultralight),
        _ => Err(format!("perk `{known}` needs a condition: write `{known}: Burned`")),
    }
}

/// A condition named after `Condition:` (any case; `Tethered 2` reads as Tethered).
fn parse_condition(text: &str) -> Result<Condition, String> {
    text.parse::<Condition>().map_err(|_| {
        let names = Condition::ALL.map(Condition::name);
        format!("unknown condition `{text}`{}; conditions: {}", did_you_mean(text, names), names.join(", "))
    })
}

/// Whether two perks are the same perk (whatever their X or condition differs in only
/// for Ammo, Backfire, Rend and Volatile, which a weapon carries once).
pub fn same_kind(a: Perk, b: Perk) -> bool {
    match (a, b) {
        (Perk::Condition(x), Perk::Condition(y)) | (Perk::CriticalCondition(x), Perk::CriticalCondition(y)) => x == y,
        _ => std::mem::discriminant(&a) == std::mem::discriminant(&b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_perk_reads_back_from_its_name() {
        let all = [
            Perk::Ammo(2),
            Perk::Artillery,
            Perk::Backfire(1),
            Perk::Barrage,
            Perk::Blast,
            Perk::Condition(Condition::Burned),
            Perk::CriticalCondition(Condition::Shocked),
            Perk::Flurry,
            Perk::Heavy,
            Perk::Multi,
            Perk::Rend(1),
            Perk::Sniper,
            Perk::Superheated,
            Perk::Tracker,
            Perk::Ultralight,
            Perk::Volatile(3),
        ];
        for p in all {
            assert_eq!(parse_perk(&perk_name(p)), Ok(p));
            assert_eq!(parse_perk(&perk_name(p).to_lowercase()), Ok(p));
        }
    }

    #[test]
    fn bad_perks_say_what_is_wrong() {
        assert_eq!(parse_perk("Superheat").unwrap_err(), "unknown perk `Superheat` (did you mean `Superheated`?)");
        assert_eq!(parse_perk("Volatile").unwrap_err(), "perk `Volatile` needs its value X: write `Volatile 1`");
        assert_eq!(parse_perk("Rend 9").unwrap_err(), "perk `Rend`: X must be between 1 and 6, got 9");
        assert_eq!(parse_perk("Flurry 2").unwrap_err(), "perk `Flurry` takes no value, got `2`");
        assert!(
            parse_perk("Condition: Burnt")
                .unwrap_err()
                .starts_with("unknown condition `Burnt` (did you mean `Burned`?)")
        );
        assert_eq!(
            parse_perk("Condition: Burned, Superheated").unwrap_err(),
            "one perk per item: write `\"Condition: Burned\", \"Superheated\"` (`CONDITION_LIST_SPLIT`)"
        );
        assert!(same_kind(Perk::Ammo(1), Perk::Ammo(2)));
        assert!(!same_kind(Perk::Condition(Condition::Burned), Perk::Condition(Condition::Shocked)));
    }
}
