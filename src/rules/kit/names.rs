//! One name matcher for every ruleset (see [`super`]).
//!
//! A name on the command line or in a scenario finds a catalogue entry whatever its case
//! and surrounding spaces. An entry spelled exactly so wins over one that differs only in
//! case, so a catalogue with `Scout` and `SCOUT` still reaches each. What is found is the
//! entry itself: callers print and key it by the catalogue's spelling, never the user's.
//!
//! An unknown name is reported with the nearest candidate ([`did_you_mean`]), whose work
//! is bounded whatever the name's length ([`crate::catalogue::error::SUGGEST_CHARS`]).

pub use crate::catalogue::error::{SUGGEST_CHARS, closest, did_you_mean, suggestion_key};

/// Whether `a` and `b` are the same name: equal after trimming, ignoring case (Unicode
/// lower case, character by character). Linear in the names' lengths.
pub fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim(), b.trim());
    a == b || a.chars().flat_map(char::to_lowercase).eq(b.chars().flat_map(char::to_lowercase))
}

/// The index of the item named `name`: the one spelled exactly so (after trimming), or
/// else the first whose name is [`same`].
pub fn position<T>(items: &[T], name_of: impl Fn(&T) -> &str, name: &str) -> Option<usize> {
    let n = name.trim();
    items.iter().position(|i| name_of(i) == n).or_else(|| items.iter().position(|i| same(name_of(i), n)))
}

/// The item named `name`, as [`position`] finds it.
pub fn find<'a, T>(items: &'a [T], name_of: impl Fn(&T) -> &str, name: &str) -> Option<&'a T> {
    position(items, &name_of, name).map(|i| &items[i])
}

/// "no WHAT named `NAME` in the ORIGIN (did you mean `X`?)": the message for a name
/// [`find`] did not find among `candidates`; for a name with a control character (which
/// no catalogue name holds), that it does, with the name escaped.
pub fn unknown<'a>(what: &str, name: &str, origin: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    use crate::catalogue::text::{forbidden_char, forbidden_message, shown};
    let n = name.trim();
    // No catalogue name holds a control character: say so, with the name escaped.
    if let Some(c) = forbidden_char(n, false) {
        return format!("{what} name `{}` {}", shown(n), forbidden_message(c));
    }
    format!("no {what} named `{n}` in the {origin}{}", did_you_mean(n, candidates))
}

/// The item named `name`, or the [`unknown`] message.
///
/// # Errors
/// No item has that name.
pub fn lookup<'a, T>(
    items: &'a [T],
    name_of: impl Fn(&T) -> &str,
    name: &str,
    what: &str,
    origin: &str,
) -> Result<&'a T, String> {
    find(items, &name_of, name).ok_or_else(|| unknown(what, name, origin, items.iter().map(&name_of)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        ["Gladiator Lancer", "Scout", "SCOUT", "Ðraugr"].map(String::from).to_vec()
    }

    #[test]
    fn any_case_finds_the_entry_as_the_catalogue_spells_it() {
        let n = names();
        assert_eq!(find(&n, |s| s, "gladiator lancer").map(String::as_str), Some("Gladiator Lancer"));
        assert_eq!(find(&n, |s| s, "  GLADIATOR LANCER ").map(String::as_str), Some("Gladiator Lancer"));
        assert_eq!(find(&n, |s| s, "ðRAUGR").map(String::as_str), Some("Ðraugr"));
        assert_eq!(find(&n, |s| s, "Gladiator"), None);
    }

    #[test]
    fn an_exact_spelling_wins_over_a_case_variant() {
        let n = names();
        assert_eq!(position(&n, |s| s, "SCOUT"), Some(2));
        assert_eq!(position(&n, |s| s, "Scout"), Some(1));
        assert_eq!(position(&n, |s| s, "scout"), Some(1));
    }

    #[test]
    fn unknown_names_say_what_and_suggest() {
        let n = names();
        let e = lookup(&n, |s| s, "Gladiatr Lancer", "build", "built-in catalogue").unwrap_err();
        assert_eq!(e, "no build named `Gladiatr Lancer` in the built-in catalogue (did you mean `Gladiator Lancer`?)");
    }

    #[test]
    fn names_with_control_characters_are_named_escaped() {
        let e = lookup(&names(), |s| s, "Scout\u{1b}[2J", "build", "catalogue").unwrap_err();
        assert_eq!(
            e,
            "build name `Scout\\u{1b}[2J` contains the control character \\u{1b}: names and values must be printable text"
        );
    }

    #[test]
    fn the_suggestion_compares_a_bounded_prefix_of_any_name() {
        // Two 200 KB names: the suggestion reads SUGGEST_CHARS characters of each, so its
        // work does not grow with their length (whole names took a minute).
        let long = "x".repeat(200_000);
        assert_eq!(suggestion_key(&long).chars().count(), SUGGEST_CHARS);
        assert_eq!(suggestion_key("ÀB"), "àb");
        let mut other = "x".repeat(199_999);
        other.push('y');
        assert_eq!(closest(&long, [other.as_str()]), Some(other.as_str()));
        let e = lookup(&[other.clone()], |s| s, &long, "unit", "catalogue").unwrap_err();
        assert!(e.starts_with("no unit named `xxx") && e.ends_with("?)"), "{}", &e[e.len() - 20..]);
    }
}
