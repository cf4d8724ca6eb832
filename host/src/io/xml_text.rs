//! The little XML the VTK readers need: an attribute of a tag's text, and
//! the error of a file that is not what it claims.

use std::io;

/// An `InvalidData` error saying `msg`.
pub(crate) fn bad(msg: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg.into())
}

/// The value of `name="..."` in a tag's text.
pub(crate) fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let len = tag[start..].find('"')?;
    Some(&tag[start..start + len])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_attribute_is_found_by_its_whole_name() {
        let tag = r#"<DataArray type="Float32" Name="U" NumberOfComponents="1">"#;
        assert_eq!(attr(tag, "Name"), Some("U"));
        assert_eq!(attr(tag, "type"), Some("Float32"));
        assert_eq!(attr(tag, "Components"), None, "a suffix of another name is not it");
    }
}
