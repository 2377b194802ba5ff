//! Ad-hoc builds written on the command line: `BASE[PART, N*PART, ...]`, such as
//! `Gladiator[Lance Railgun, 2*Devastator, ECM Suite]`. The base and the parts are
//! catalogue names; what a base and a part are (a unit and its weapons and gear, a mech
//! and its pilot) is the ruleset's to say. This module only reads and writes the syntax.

use std::fmt;

/// The most copies one part of an ad-hoc build may name (`N*PART`).
pub const MAX_COPIES: u32 = 64;

/// An ad-hoc build: a base and its parts, each with a number of copies (≥ 1), in the
/// order written. [`fmt::Display`] writes the canonical spelling, which is also the
/// build's catalogue name: `Base[A, 2*B]` (one space after each comma, `1*` left out).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AdHocBuild {
    pub base: String,
    pub parts: Vec<(u32, String)>,
}

/// Whether a name is written as an ad-hoc build: it holds a `[` and no control
/// character (a name with one is refused as every name with one is, shown escaped).
pub fn is_adhoc(name: &str) -> bool {
    name.contains('[') && super::text::forbidden_char(name, false).is_none()
}

impl AdHocBuild {
    /// Read `BASE[PART, N*PART, ...]`. The same part named twice is one part with the
    /// copies added up; `BASE[]` has no parts.
    ///
    /// # Errors
    /// A missing base, a missing or misplaced `]`, an empty part, a count that is not an
    /// integer from 1 to [`MAX_COPIES`], or a name holding `[`, `]`, `,` or `*`; the
    /// message quotes the text.
    pub fn parse(text: &str) -> Result<AdHocBuild, String> {
        let bad = |why: &str| {
            format!(
                "ad-hoc build `{text}`: {why} (write BASE[PART, N*PART, ...], e.g. Gladiator[Lance Railgun, 2*Devastator])"
            )
        };
        let t = text.trim();
        let open = t.find('[').ok_or_else(|| bad("no `[`"))?;
        let base = t[..open].trim();
        if base.is_empty() {
            return Err(bad("no base name before `[`"));
        }
        let inner = t[open + 1..].strip_suffix(']').ok_or_else(|| bad("it must end with `]`"))?;
        if inner.contains(['[', ']']) {
            return Err(bad("brackets inside the parts"));
        }
        let mut parts: Vec<(u32, String)> = Vec::new();
        if !inner.trim().is_empty() {
            for raw in inner.split(',') {
                let raw = raw.trim();
                let (copies, name) = match raw.split_once('*') {
                    Some((n, name)) => {
                        let n = n.trim();
                        let copies = n
                            .parse::<u32>()
                            .ok()
                            .filter(|c| (1..=MAX_COPIES).contains(c))
                            .ok_or_else(|| bad(&format!("`{n}` is not a count from 1 to {MAX_COPIES}")))?;
                        (copies, name.trim())
                    }
                    None => (1, raw),
                };
                if name.is_empty() {
                    return Err(bad("an empty part"));
                }
                if name.contains('*') {
                    return Err(bad(&format!("`{raw}` has more than one `*`")));
                }
                match parts.iter_mut().find(|(_, p)| p.eq_ignore_ascii_case(name)) {
                    Some((c, _)) => {
                        *c = c.saturating_add(copies);
                        if *c > MAX_COPIES {
                            return Err(bad(&format!("more than {MAX_COPIES} copies of `{name}`")));
                        }
                    }
                    None => parts.push((copies, name.to_string())),
                }
            }
        }
        Ok(AdHocBuild { base: base.to_string(), parts })
    }

    /// The copies of part `name` (any case), 0 when absent.
    pub fn copies_of(&self, name: &str) -> u32 {
        self.parts.iter().filter(|(_, p)| p.eq_ignore_ascii_case(name)).map(|(c, _)| *c).sum()
    }
}

impl fmt::Display for AdHocBuild {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[", self.base)?;
        for (i, (n, p)) in self.parts.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            if *n > 1 {
                write!(f, "{n}*")?;
            }
            write!(f, "{p}")?;
        }
        write!(f, "]")
    }
}

/// `text` split at the commas outside brackets (a list of names that may hold ad-hoc
/// builds, `A, Dwarf[2*Devastator, SEER]`), each item trimmed, empty items left out.
pub fn split_list(text: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth <= 0 => {
                items.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(text[start..].trim());
    items.retain(|s| !s.is_empty());
    items
}

/// `text` as a TOML basic string (quoted and escaped), for catalogue entries written
/// from ad-hoc builds.
pub fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_the_canonical_spelling() {
        let b = AdHocBuild::parse("  Gladiator [ Lance Railgun ,2 * Devastator, ECM Suite ] ").unwrap();
        assert_eq!(b.base, "Gladiator");
        assert_eq!(b.parts, vec![(1, "Lance Railgun".into()), (2, "Devastator".into()), (1, "ECM Suite".into())]);
        assert_eq!(b.to_string(), "Gladiator[Lance Railgun, 2*Devastator, ECM Suite]");
        assert_eq!(AdHocBuild::parse(&b.to_string()).unwrap(), b);
        assert_eq!(AdHocBuild::parse("Dwarf[]").unwrap().to_string(), "Dwarf[]");
    }

    #[test]
    fn the_same_part_twice_adds_up() {
        let b = AdHocBuild::parse("Dwarf[Devastator, devastator, 2*Kabaaam]").unwrap();
        assert_eq!(b.to_string(), "Dwarf[2*Devastator, 2*Kabaaam]");
        assert_eq!(b.copies_of("DEVASTATOR"), 2);
        assert_eq!(b.copies_of("Blackout"), 0);
    }

    #[test]
    fn bad_spellings_are_refused_with_the_text() {
        for bad in [
            "Dwarf",
            "[Devastator]",
            "Dwarf[Devastator",
            "Dwarf[Devastator]x",
            "Dwarf[, Devastator]",
            "Dwarf[0*Devastator]",
            "Dwarf[65*Devastator]",
            "Dwarf[two*Devastator]",
            "Dwarf[2*3*Devastator]",
            "Dwarf[[Devastator]]",
            "Dwarf[40*Devastator, 30*Devastator]",
        ] {
            let e = AdHocBuild::parse(bad).unwrap_err();
            assert!(e.contains(bad.trim()), "{bad}: {e}");
        }
    }

    #[test]
    fn names_with_control_characters_are_not_adhoc_builds() {
        assert!(is_adhoc("Dwarf[2*Devastator]"));
        assert!(!is_adhoc("Dwarf\u{1b}[2JALPHA"));
        assert!(!is_adhoc("Dwarf ALPHA"));
    }

    #[test]
    fn lists_split_at_commas_outside_brackets() {
        assert_eq!(split_list(" A , Dwarf[2*Devastator, SEER],,B "), vec!["A", "Dwarf[2*Devastator, SEER]", "B"]);
        assert_eq!(split_list("x"), vec!["x"]);
        assert!(split_list(" , ").is_empty());
    }

    #[test]
    fn toml_strings_are_escaped() {
        for text in [r#"a "b" \c"#, "it's", "x'y\"z", "plain"] {
            let doc: toml::Table = format!("v = {}", toml_string(text)).parse().unwrap();
            assert_eq!(doc["v"].as_str(), Some(text));
        }
    }
}
