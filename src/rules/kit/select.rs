//! Catalogue selectors, the same on the command line and in scenarios (see [`super`]).
//!
//! A selector is `all`, `PREFIX:VALUE` for a prefix the ruleset declares
//! ([`crate::rules::Ruleset::SELECTORS`]: TechCommander `kind:`, MECHCOM `faction:` and
//! `squad:`, Skirmishers `track:` and `squad:`, Shellshock `era:`), or a name. Each
//! ruleset says what its prefixes select ([`Ruleset::select`]); this module reads the
//! text ([`Selector::parse`]), refuses a selection of nothing naming the selector
//! ([`selected`]). The lists and fields every command takes are resolved through the
//! ruleset boundary by [`crate::rules::sides`], with the same code for the command line
//! and for scenario files.

pub use super::prefix::Prefix;

/// A selector as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selector<'a> {
    /// `all` (any case).
    All,
    /// `PREFIX:VALUE` for a declared prefix (any case; `value` trimmed).
    Prefixed { prefix: &'static str, value: &'a str },
    /// Anything else: a name (trimmed).
    Name(&'a str),
}

impl<'a> Selector<'a> {
    /// Read `text` against the ruleset's `prefixes`. A colon with an undeclared prefix
    /// before it is part of a name (`Mech+Pilot` names and `ac:N` targets are the
    /// ruleset's own).
    pub fn parse(text: &'a str, prefixes: &[Prefix]) -> Selector<'a> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("all") {
            return Selector::All;
        }
        if let Some((head, value)) = t.split_once(':')
            && let Some(p) = prefixes.iter().find(|p| p.word.eq_ignore_ascii_case(head.trim()))
        {
            return Selector::Prefixed { prefix: p.word, value: value.trim() };
        }
        Selector::Name(t)
    }
}

/// "`all`, `kind:NAME`, or a build": the forms a ruleset's selectors take, for messages;
/// `last` ends the list as written ("or a build", "`MECH` or `MECH+PILOT`").
pub fn forms(prefixes: &[Prefix], last: &str) -> String {
    let mut v = vec!["`all`".to_string()];
    v.extend(prefixes.iter().map(|p| format!("`{}:NAME`", p.word)));
    v.push(last.to_string());
    v.join(", ")
}

/// `names` when the selector selected any.
///
/// # Errors
/// An empty selection: "`SELECTOR` selects nothing in the ORIGIN".
pub fn selected(selector: &str, origin: &str, names: Vec<String>) -> Result<Vec<String>, String> {
    if names.is_empty() { Err(format!("`{}` selects nothing in the {origin}", selector.trim())) } else { Ok(names) }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &[Prefix] = &[Prefix { word: "kind", selects: "kinds" }, Prefix { word: "squad", selects: "squads" }];

    #[test]
    fn selectors_read_the_same_whatever_the_case_and_spaces() {
        assert_eq!(Selector::parse(" ALL ", P), Selector::All);
        assert_eq!(Selector::parse("Kind: msv", P), Selector::Prefixed { prefix: "kind", value: "msv" });
        assert_eq!(
            Selector::parse("squad:Hornet Wing", P),
            Selector::Prefixed { prefix: "squad", value: "Hornet Wing" }
        );
        // an undeclared prefix is part of a name
        assert_eq!(Selector::parse("era:ww2", P), Selector::Name("era:ww2"));
        assert_eq!(Selector::parse("Gladiator+Ace", P), Selector::Name("Gladiator+Ace"));
    }

    #[test]
    fn an_empty_selection_is_refused_naming_it() {
        assert_eq!(
            selected(" kind:msv", "catalogue x", vec![]).unwrap_err(),
            "`kind:msv` selects nothing in the catalogue x"
        );
        assert_eq!(selected("all", "c", vec!["A".into()]).unwrap(), vec!["A".to_string()]);
        assert_eq!(forms(P, "or a build"), "`all`, `kind:NAME`, `squad:NAME`, or a build");
    }
}
