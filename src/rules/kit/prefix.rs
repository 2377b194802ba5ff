//! The selector prefixes a ruleset declares (`Ruleset::SELECTORS`), apart from the
//! selector reader ([`super::select`]) so that the ruleset boundary can name them without
//! depending on the reader.

/// A selector prefix a ruleset declares: `word` before the colon, what it selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prefix {
    /// `kind`, `faction`, `era`, `squad`, ... (no colon).
    pub word: &'static str,
    /// For help and messages: "the builds whose unit is of that kind".
    pub selects: &'static str,
}
