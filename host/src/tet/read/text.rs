//! What the mesh readers share: reading a file within a bound on its size
//! (a mesh path may name a device or a sparse file of terabytes), and
//! walking its text line by line, so that every complaint names the line.

use std::path::Path;
use std::str::FromStr;

use crate::io::bounded;
use crate::tet::error::MeshError;

/// The most bytes a mesh file may hold: a whole-heart mesh of 100 million
/// elements with fibres, sheets and tags in ASCII is about 30 GB.
pub const MAX_MESH_BYTES: u64 = 64 << 30;

/// Bytes read first, where a format's magic and counts are.
const PREFIX: usize = 64 << 10;

pub fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> MeshError + '_ {
    move |source| MeshError::Io { path: path.to_path_buf(), source }
}

pub fn file_err(path: &Path, problem: impl Into<String>) -> MeshError {
    MeshError::File { path: path.to_path_buf(), problem: problem.into() }
}

/// Reads `path` whole: its first bytes are given to `head`, which refuses
/// a file of another kind (`Err` with the problem) or returns the number
/// of items the file declares; the rest is then read up to `per_item`
/// bytes an item (at most [`MAX_MESH_BYTES`]), so a file that cannot be a
/// mesh of the size it claims is refused before its body is read.
pub fn read_bounded(
    path: &Path,
    what: &str,
    per_item: u64,
    head: impl FnOnce(&[u8]) -> Result<Option<u64>, String>,
) -> Result<Vec<u8>, MeshError> {
    let mut input = bounded::open(path).map_err(io_err(path))?;
    let mut bytes = Vec::new();
    input.read_prefix(&mut bytes, PREFIX).map_err(io_err(path))?;
    let items = head(&bytes).map_err(|problem| file_err(path, problem))?;
    let limit = items.map_or(MAX_MESH_BYTES, |n| {
        n.saturating_mul(per_item).saturating_add(PREFIX as u64).min(MAX_MESH_BYTES)
    });
    let what = match items {
        Some(n) => format!("{what} of {n} items"),
        None => what.to_string(),
    };
    input.read_rest(&mut bytes, limit, &what).map_err(io_err(path))?;
    Ok(bytes)
}

/// The first number on the first line of `bytes` that is neither blank
/// nor a `comment`: the count most text mesh formats start with.
pub fn leading_count(bytes: &[u8], comment: Option<char>) -> Option<u64> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(|l| comment.and_then(|c| l.split(c).next()).unwrap_or(l).trim())
        .find(|l| !l.is_empty())?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// A non-blank line of a file, its comment stripped.
#[derive(Clone, Copy, Debug)]
pub struct Line<'a> {
    pub path: &'a Path,
    /// Counting from 1, as editors do.
    pub no: usize,
    pub text: &'a str,
}

impl<'a> Line<'a> {
    pub fn err(&self, problem: impl Into<String>) -> MeshError {
        MeshError::Line { path: self.path.to_path_buf(), line: self.no, problem: problem.into() }
    }

    pub fn fields(&self) -> Vec<&'a str> {
        self.text.split_whitespace().collect()
    }

    /// Every field as a `T`; `what` names the line's content in the error.
    pub fn numbers<T: FromStr>(&self, what: &str) -> Result<Vec<T>, MeshError> {
        self.text
            .split_whitespace()
            .map(|f| f.parse().map_err(|_| self.err(format!("{f:?} is not a number, in {what}"))))
            .collect()
    }

    /// Exactly `n` numbers (the first `n` when `extra` is allowed).
    pub fn exactly<T: FromStr>(&self, n: usize, what: &str, extra: bool) -> Result<Vec<T>, MeshError> {
        let mut v = self.numbers(what)?;
        if v.len() < n || (!extra && v.len() > n) {
            return Err(self.err(format!("{what} needs {n} numbers, the line has {}", v.len())));
        }
        v.truncate(n);
        Ok(v)
    }
}

/// The non-blank lines of a text, with their numbers.
pub struct Lines<'a> {
    path: &'a Path,
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    comment: Option<char>,
    last: usize,
}

impl<'a> Lines<'a> {
    pub fn new(path: &'a Path, text: &'a str, comment: Option<char>) -> Self {
        Self { path, lines: text.lines().enumerate(), comment, last: 0 }
    }

    /// The next line, or an error saying the file ends before `what`.
    pub fn expect(&mut self, what: &str) -> Result<Line<'a>, MeshError> {
        self.next().ok_or_else(|| {
            file_err(self.path, format!("the file ends (after line {}) before {what}", self.last))
        })
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        for (i, raw) in self.lines.by_ref() {
            self.last = i + 1;
            let text = self.comment.and_then(|c| raw.split(c).next()).unwrap_or(raw).trim();
            if !text.is_empty() {
                return Some(Line { path: self.path, no: i + 1, text });
            }
        }
        None
    }
}

/// A file's bytes as text; meshes are ASCII, and a byte that is not
/// (a name in Latin-1, say) only matters inside a name.
pub fn text(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

/// A count from a header, refused when the file cannot hold that many
/// lines, so that no absurd count is allocated for.
pub fn count(line: &Line, value: u64, text_len: usize, what: &str) -> Result<usize, MeshError> {
    if value as u128 > text_len as u128 / 2 + 1 {
        return Err(line.err(format!(
            "the header declares {value} {what}, more than the file's {text_len} bytes can hold; \
             check the count"
        )));
    }
    Ok(value as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_skip_blanks_and_comments_and_keep_their_numbers() {
        let p = Path::new("m.node");
        let mut lines = Lines::new(p, "# head\n\n 3 4 # three\nx\n", Some('#'));
        let l = lines.next().unwrap();
        assert_eq!((l.no, l.text), (3, "3 4"));
        assert_eq!(l.numbers::<u32>("a header").unwrap(), [3, 4]);
        let e = lines.next().unwrap().numbers::<f64>("a node").unwrap_err().to_string();
        assert!(e.contains("m.node, line 4") && e.contains("\"x\" is not a number"), "{e}");
        let e = lines.expect("the nodes").unwrap_err().to_string();
        assert!(e.contains("ends (after line 4) before the nodes"), "{e}");
        assert_eq!(leading_count(b"# c\n\n12 3\n", Some('#')), Some(12));
    }

    #[test]
    fn a_device_is_refused_by_its_first_bytes() {
        if !Path::new("/dev/zero").exists() {
            return;
        }
        let e = read_bounded(Path::new("/dev/zero"), "a test mesh", 10, |_| Err("not a mesh".into()));
        assert!(e.unwrap_err().to_string().contains("not a mesh"));
        let e = read_bounded(Path::new("/dev/zero"), "a test mesh", 10, |_| Ok(Some(3)));
        assert!(e.unwrap_err().to_string().contains("without an end"));
    }
}
