//! Text from files, made safe to show in a message (escaped, cut, lists capped), and plurals.

use std::fmt::Display;

/// The most characters of a file's content that a message shows.
pub(crate) const EXCERPT_CHARS: usize = 80;

/// The most items a list in a message names before it says how many more there are.
pub(crate) const LISTED: usize = 20;

/// `text` as a message may show it: control characters (an escape sequence that would drive the
/// terminal, a newline that would break the one-line message) escaped as `\u{1b}`, and cut to
/// [`EXCERPT_CHARS`] characters with `…` after.
pub(crate) fn excerpt(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == EXCERPT_CHARS {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// The first [`LISTED`] of `items` joined by `separator`, then `and 164,380 more` when there are
/// more.
pub(crate) fn capped<T: Display>(items: &[T], separator: &str) -> String {
    let mut text: Vec<String> = items.iter().take(LISTED).map(|x| x.to_string()).collect();
    if items.len() > LISTED {
        text.push(format!("and {} more", thousands(items.len() - LISTED)));
    }
    text.join(separator)
}

/// `k` with a comma every three digits: 164,380.
pub(crate) fn thousands(k: usize) -> String {
    let digits = k.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// `items` as a person lists them: "2", "2 and 3", "2, 3 and 4".
pub(crate) fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// `k` and the noun `what`, in the plural unless `k` is 1: "1 thread", "2 threads".
pub fn plural(k: usize, what: &str) -> String {
    format!("{k} {what}{}", if k == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_long_text_cut() {
        assert_eq!(excerpt("mirror"), "mirror");
        assert_eq!(excerpt("a\u{1b}[2Jb\nc"), "a\\u{1b}[2Jb\\nc");
        let long = "x".repeat(10_000_000);
        let shown = excerpt(&long);
        assert_eq!(shown.chars().count(), EXCERPT_CHARS + 1);
        assert!(shown.ends_with('…'));
    }

    #[test]
    fn lists_are_capped_with_how_many_more() {
        let items: Vec<u32> = (1..=164_400).collect();
        let text = capped(&items, ", ");
        assert!(text.starts_with("1, 2, 3"), "{text}");
        assert!(text.ends_with("20, and 164,380 more"), "{text}");
        assert_eq!(capped(&[1, 2], ", "), "1, 2");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
