//! Turning the command layer's plain text into Discord message text: user ids become
//! `<@id>` mentions (which only ping the users a message allows: those of a notification),
//! and text that does not fit in one message goes into a file.

/// Discord's limit on a message's content.
pub const MAX_CONTENT: usize = 2000;

/// Rewrites every known user id in `text` (bare `123…` or `@123…`) as a `<@123…>` mention.
/// Ids already written `<@123…>` are left alone, and so are numbers that are not users.
pub fn mentionize(text: &str, users: &[String]) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 16);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_digit() && (i == 0 || !chars[i - 1].is_ascii_alphanumeric()) {
            let start = i;
            let mut end = i;
            while end < chars.len() && chars[end].is_ascii_digit() {
                end += 1;
            }
            let word: String = chars[start..end].iter().collect();
            let followed = end < chars.len() && chars[end].is_ascii_alphanumeric();
            let wrapped = start >= 2 && chars[start - 2] == '<' && chars[start - 1] == '@';
            if !followed && !wrapped && users.contains(&word) {
                if out.ends_with('@') {
                    out.pop();
                }
                out.push_str("<@");
                out.push_str(&word);
                out.push('>');
            } else {
                out.push_str(&word);
            }
            i = end;
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Splits content that is too long for a message into a short head and the full text for a
/// file attachment.
pub fn fit(content: String) -> (String, Option<String>) {
    if content.chars().count() <= MAX_CONTENT {
        return (content, None);
    }
    let head: String = content.chars().take(MAX_CONTENT - 200).collect();
    let cut = head.rfind('\n').unwrap_or(head.len());
    (
        format!(
            "{}\n… (the full text is in the attached file)",
            &head[..cut]
        ),
        Some(content),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_become_mentions() {
        let users = vec!["100000000000000001".to_string(), "42".to_string()];
        assert_eq!(
            mentionize("a 100000000000000001 b @42, <@42> 420 seed 42x", &users),
            "a <@100000000000000001> b <@42>, <@42> 420 seed 42x"
        );
    }

    #[test]
    fn long_text_goes_to_a_file() {
        let long = "line\n".repeat(1000);
        let (head, file) = fit(long.clone());
        assert!(head.chars().count() <= MAX_CONTENT);
        assert_eq!(file, Some(long));
        assert_eq!(fit("short".into()), ("short".into(), None));
    }
}
