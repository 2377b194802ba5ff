//! Names and values are printable text: control characters (Unicode category Cc: NUL,
//! BEL, ESC, DEL, ...) are refused where names are read, and shown as escapes wherever
//! a message repeats what a file or command line said.

use std::borrow::Cow;

/// The first control character of `text` that is not allowed: any Unicode Cc character,
/// except tab, line feed and carriage return when `multiline` (free text such as a note
/// or a chart's `lines`; never a name).
pub fn forbidden_char(text: &str, multiline: bool) -> Option<char> {
    text.chars().find(|&c| c.is_control() && !(multiline && matches!(c, '\t' | '\n' | '\r')))
}

/// The message for a name or value holding control character `c`.
pub fn forbidden_message(c: char) -> String {
    format!("contains the control character {}: names and values must be printable text", c.escape_unicode())
}

/// `text` with every control character but the line feed written as an escape
/// (`\u{1b}`), for messages on a terminal.
pub fn shown(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() && c != '\n') {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| if c.is_control() && c != '\n' { c.escape_unicode().to_string() } else { c.to_string() })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_found_and_shown_escaped() {
        assert_eq!(forbidden_char("Gun\u{1b}[31m", false), Some('\u{1b}'));
        assert_eq!(forbidden_char("a\0b", true), Some('\0'));
        assert_eq!(forbidden_char("bell\u{7}", false), Some('\u{7}'));
        assert_eq!(forbidden_char("del\u{7f}", false), Some('\u{7f}'));
        assert_eq!(forbidden_char("c1\u{85}", false), Some('\u{85}'));
        assert_eq!(forbidden_char("two\nlines\tx", true), None);
        assert_eq!(forbidden_char("two\nlines", false), Some('\n'));
        assert_eq!(forbidden_char("<script>&\"' Ünïcødé", false), None);
        assert_eq!(shown("a\u{1b}[31mb\0"), "a\\u{1b}[31mb\\u{0}");
        assert_eq!(shown("plain\nline"), "plain\nline");
        assert!(forbidden_message('\u{7}').contains("\\u{7}"));
    }
}
