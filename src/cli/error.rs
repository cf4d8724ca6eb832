//! Errors as the command line prints them.

/// An error and its causes as one line, each cause said once: messages
/// that already quote their cause (`cannot create {path}: {os error}`)
/// are not followed by it again.
pub fn error_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let part = cause.to_string();
        if text.contains(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}
