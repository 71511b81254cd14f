//! [`Error`]: what went wrong, where in the text (byte offset, line, column) and where in the
//! value (a JSON pointer, built while the error unwinds).

use std::fmt;

/// A step of the JSON pointer of a fault.
#[derive(Debug, Clone)]
enum Step {
    /// A declared member (the key table's `'static` key: no copy).
    Key(&'static str),
    /// Any other member (unknown members, map entries, open JSON).
    Member(String),
    /// An array element.
    Index(usize),
}

#[derive(Debug)]
struct Inner {
    message: String,
    offset: usize,
    /// 1-based; 0 when the error has no position (see [`Error::line`]).
    line: usize,
    column: usize,
    /// The pointer, innermost step first (pushed while the error unwinds: free on success).
    path: Vec<Step>,
    syntax: bool,
    /// A member named twice ("duplicate member `k`").
    repeated: bool,
}

/// A decoding error: its message, byte offset, line and column (computed when the error is
/// made, from the parser's input: the cold path only), and the JSON pointer of the value at
/// fault (pushed step by step while the error unwinds through the decoders: nothing is kept
/// on success).
///
/// Displays as "{message} at `{pointer}`, line {l} column {c}", or "{message} at line {l}
/// column {c}" when the pointer is empty (the whole value).
pub struct Error(Box<Inner>);

impl Error {
    /// An error at byte `offset` of `data` (the parser's whole input).
    #[cold]
    pub(crate) fn at(message: String, data: &[u8], offset: usize, syntax: bool) -> Error {
        let (line, column) = line_column(data, offset);
        Error(Box::new(Inner {
            message,
            offset,
            line,
            column,
            path: Vec::new(),
            syntax,
            repeated: false,
        }))
    }

    /// An error without a position (line and column 0).
    #[cold]
    pub(crate) fn unplaced(message: String) -> Error {
        Error(Box::new(Inner {
            message,
            offset: 0,
            line: 0,
            column: 0,
            path: Vec::new(),
            syntax: false,
            repeated: false,
        }))
    }

    /// The error marked as a member named twice ([`Error::is_repeated`]).
    pub(crate) fn into_repeated(mut self) -> Error {
        self.0.repeated = true;
        self
    }

    /// The error as a `serde_json::Error` (its text, pointer and position in the message),
    /// for APIs that return one.
    #[cold]
    pub fn into_serde(self) -> serde_json::Error {
        <serde_json::Error as serde::de::Error>::custom(self)
    }

    /// Adds the declared member `key` as the outermost pointer step so far.
    #[cold]
    pub fn in_key(mut self, key: &'static str) -> Error {
        self.0.path.push(Step::Key(key));
        self
    }

    /// Adds member `key` (copied: unknown members, map entries, open JSON) as the outermost
    /// pointer step so far.
    #[cold]
    pub fn in_member(mut self, key: &str) -> Error {
        self.0.path.push(Step::Member(key.to_owned()));
        self
    }

    /// Adds array element `index` as the outermost pointer step so far.
    #[cold]
    pub fn in_index(mut self, index: usize) -> Error {
        self.0.path.push(Step::Index(index));
        self
    }

    /// The JSON pointer (RFC 6901, `~` and `/` escaped) of the value at fault; empty for the
    /// whole value.
    pub fn pointer(&self) -> String {
        let mut out = String::new();
        for step in self.0.path.iter().rev() {
            out.push('/');
            match step {
                Step::Key(k) => escape(&mut out, k),
                Step::Member(k) => escape(&mut out, k),
                Step::Index(i) => out.push_str(&i.to_string()),
            }
        }
        out
    }

    /// What went wrong.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The byte offset of the fault in the input (0 when the error has no position).
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    /// The line of the fault, 1-based (0 when the error has no position).
    pub fn line(&self) -> usize {
        self.0.line
    }

    /// The column of the fault, 1-based, in characters (0 when the error has no position).
    pub fn column(&self) -> usize {
        self.0.column
    }

    /// Whether the input is not JSON at all (JSON-RPC's parse error, -32700: an end of input,
    /// an invalid character, number, escape or UTF-8, the recursion limit, trailing
    /// characters), as opposed to JSON of the wrong shape (wrong type, missing, duplicate or
    /// unknown member: -32602 or -32600).
    pub fn is_syntax(&self) -> bool {
        self.0.syntax
    }

    /// Whether the fault is a member named twice in one object: a fault of the text (which
    /// of the two values is meant is not said), not of its shape.
    pub fn is_repeated(&self) -> bool {
        self.0.repeated
    }
}

fn escape(out: &mut String, key: &str) {
    for c in key.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// Line and column (1-based, the column in characters) of byte `offset` of `data`.
fn line_column(data: &[u8], offset: usize) -> (usize, usize) {
    let before = &data[..offset.min(data.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    // Characters: every byte but UTF-8 continuation bytes.
    let column = before[start..]
        .iter()
        .filter(|&&b| b & 0xC0 != 0x80)
        .count()
        + 1;
    (line, column)
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = &self.0;
        f.write_str(&e.message)?;
        let placed = e.line != 0;
        match (e.path.is_empty(), placed) {
            (true, true) => write!(f, " at line {} column {}", e.line, e.column),
            (false, true) => write!(
                f,
                " at `{}`, line {} column {}",
                self.pointer(),
                e.line,
                e.column
            ),
            (false, false) => write!(f, " at `{}`", self.pointer()),
            (true, false) => Ok(()),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("message", &self.0.message)
            .field("pointer", &self.pointer())
            .field("offset", &self.0.offset)
            .field("line", &self.0.line)
            .field("column", &self.0.column)
            .field("syntax", &self.0.syntax)
            .finish()
    }
}

impl std::error::Error for Error {}
