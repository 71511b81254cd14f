//! What a decoded value holds beyond its revision: [`Unknowns`], implemented by every
//! generated type, reports each [`Unknown`] (a member, a newer tag, an undefined method) with
//! its JSON Pointer, kept whole so that it re-encodes unchanged.
//!
//! ```
//! use mcp_typed::unknowns::{JsonPath, Unknowns};
//! use mcp_typed::v2025_11_25::Tool;
//!
//! let tool: Tool = serde_json::from_str(
//!     r#"{"name":"book","inputSchema":{"type":"object"},"x-vendor":1}"#,
//! ).unwrap();
//! let found = tool.unknowns();
//! assert_eq!(found[0].pointer, "/x-vendor");
//! // The same walk from a place inside a larger value: pointers start there.
//! let mut at = JsonPath::new();
//! at.push("tools");
//! at.push_index(0);
//! let mut out = Vec::new();
//! tool.collect_unknowns(&mut at, &mut out);
//! assert_eq!(out[0].pointer, "/tools/0/x-vendor");
//! ```

use std::fmt;

use indexmap::IndexMap;
use serde_json::{Map, Number, Value};

use crate::Extra;

/// The JSON Pointer (RFC 6901) of the value being inspected: a growing string with a stack
/// of segment starts, so descending and returning cost no allocation per level.
#[derive(Debug, Default)]
pub struct JsonPath {
    path: String,
    starts: Vec<usize>,
}

impl JsonPath {
    /// The root (`""`).
    #[inline]
    pub fn new() -> Self {
        Self::default()
    }

    /// Descends into member or index `token`.
    pub fn push(&mut self, token: &str) {
        self.starts.push(self.path.len());
        self.path.push('/');
        for c in token.chars() {
            match c {
                '~' => self.path.push_str("~0"),
                '/' => self.path.push_str("~1"),
                c => self.path.push(c),
            }
        }
    }

    /// Descends into array index `i`.
    pub fn push_index(&mut self, i: usize) {
        self.starts.push(self.path.len());
        self.path.push('/');
        self.path.push_str(&i.to_string());
    }

    /// Returns to the parent.
    #[inline]
    pub fn pop(&mut self) {
        if let Some(start) = self.starts.pop() {
            self.path.truncate(start);
        }
    }

    /// The pointer so far (`""` is the root).
    #[inline]
    pub fn as_str(&self) -> &str {
        &self.path
    }
}

/// Something a decoded value holds that its revision does not define: kept whole (so it
/// re-encodes unchanged) and reported by [`Unknowns::unknowns`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Unknown {
    /// JSON Pointer of the value from the root of the inspected value (`""` is the root,
    /// `/content/1` the second content block).
    pub pointer: String,
    /// What it is.
    pub kind: UnknownKind,
}

/// What kind of thing an [`Unknown`] is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UnknownKind {
    /// A member the object's type does not declare (kept in its `extra` map). The pointer
    /// names the member.
    Member,
    /// A tag value that no variant of the union has, e.g. content `type` `"audio"` in
    /// 2024-11-05 (kept in the union's `Unknown` variant).
    Variant {
        /// The union's schema name (`ContentBlock`).
        union: &'static str,
        /// The tag property (`type`).
        tag: &'static str,
        /// The tag's value (`None` if it is not a string).
        value: Option<String>,
    },
    /// A method the revision does not define (kept in the union's `Custom` variant).
    Method {
        /// The union's schema name (`ClientRequest`).
        union: &'static str,
        /// The method (`None` if it is not a string).
        method: Option<String>,
    },
}

impl fmt::Display for Unknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "/"
        } else {
            &self.pointer
        };
        write!(f, "{at}: {}", self.kind)
    }
}

impl fmt::Display for UnknownKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnknownKind::Member => write!(f, "unknown member"),
            UnknownKind::Variant { union, tag, value } => match value {
                Some(v) => write!(f, "unknown {union} `{tag}` {v:?}"),
                None => write!(f, "unknown {union} `{tag}`"),
            },
            UnknownKind::Method { union, method } => match method {
                Some(m) => write!(f, "custom method {m:?} ({union})"),
                None => write!(f, "custom method ({union})"),
            },
        }
    }
}

impl Unknown {
    /// The report for a union's catch-all variant holding `object`, tagged by `tag`.
    pub fn tagged(
        at: &JsonPath,
        union: &'static str,
        tag: &'static str,
        object: &Map<String, Value>,
        method: bool,
    ) -> Unknown {
        let value = object.get(tag).and_then(Value::as_str).map(str::to_owned);
        Unknown {
            pointer: at.as_str().to_owned(),
            kind: if method {
                UnknownKind::Method {
                    union,
                    method: value,
                }
            } else {
                UnknownKind::Variant { union, tag, value }
            },
        }
    }
}

/// `value`'s unknowns, at member `key` of the value `at` points to (one line of a generated
/// `collect_unknowns`).
#[inline]
pub fn member_unknowns<T: Unknowns + ?Sized>(
    key: &str,
    value: &T,
    at: &mut JsonPath,
    out: &mut Vec<Unknown>,
) {
    at.push(key);
    value.collect_unknowns(at, out);
    at.pop();
}

/// Reports every member of a raw `extra` map but `_meta`, which the specification allows on
/// every request, notification and result whether or not a revision's schema lists it.
pub fn unknown_value_members(extra: &Extra, at: &mut JsonPath, out: &mut Vec<Unknown>) {
    let Some(extra) = extra.kept() else { return };
    for key in extra.keys().filter(|k| *k != "_meta") {
        at.push(key);
        out.push(Unknown {
            pointer: at.as_str().to_owned(),
            kind: UnknownKind::Member,
        });
        at.pop();
    }
}

/// "Did anything unknown come in?": implemented by every generated type.
///
/// Decoding is lossless: a member a type does not declare is kept in its `extra` map, a
/// content block (or other tagged value) of a newer revision in its union's `Unknown`
/// variant, an undefined method in `Custom`. Nothing of that is an error, so that a peer
/// speaking a newer revision never breaks a session; this trait tells what was kept.
/// Members inside free-form objects are expected, not unknown: `_meta` (vendor keys are
/// welcome there by the specification) and objects the schema declares open
/// (`additionalProperties`: tool `arguments`, the generic `Result`).
pub trait Unknowns {
    /// Appends what this value holds that its revision does not define; `at` is this
    /// value's pointer.
    fn collect_unknowns(&self, at: &mut JsonPath, out: &mut Vec<Unknown>);

    /// Everything this value holds that its revision does not define, in document order.
    /// Empty for a value that follows its revision to the letter.
    fn unknowns(&self) -> Vec<Unknown> {
        let mut out = Vec::new();
        self.collect_unknowns(&mut JsonPath::default(), &mut out);
        out
    }

    /// Whether [`unknowns`](Self::unknowns) is non-empty.
    fn has_unknowns(&self) -> bool {
        !self.unknowns().is_empty()
    }

    /// For a union, what its value turned out to be: the name of the generated type its
    /// member holds (`CallToolRequest` for `ClientRequest::CallTool(..)`, through unions
    /// inside unions), or the variant's own name when that member is not a generated type
    /// of its own (`Custom` for the catch-all, `Integer` for a number). `None` for anything
    /// but a union: its type names it.
    fn chosen(&self) -> Option<&'static str> {
        None
    }
}

macro_rules! nothing_unknown {
    ($($t:ty),*) => {
        $(impl Unknowns for $t {
            #[inline]
            fn collect_unknowns(&self, _: &mut JsonPath, _: &mut Vec<Unknown>) {}
        })*
    };
}

nothing_unknown!(String, bool, i64, u64, Number, Value, Map<String, Value>, crate::JsonObject);

impl<T: Unknowns> Unknowns for Option<T> {
    fn collect_unknowns(&self, at: &mut JsonPath, out: &mut Vec<Unknown>) {
        if let Some(v) = self {
            v.collect_unknowns(at, out);
        }
    }
}

impl<T: Unknowns> Unknowns for Box<T> {
    fn collect_unknowns(&self, at: &mut JsonPath, out: &mut Vec<Unknown>) {
        (**self).collect_unknowns(at, out);
    }

    fn chosen(&self) -> Option<&'static str> {
        (**self).chosen()
    }
}

impl<T: Unknowns> Unknowns for Vec<T> {
    fn collect_unknowns(&self, at: &mut JsonPath, out: &mut Vec<Unknown>) {
        for (i, v) in self.iter().enumerate() {
            at.push_index(i);
            v.collect_unknowns(at, out);
            at.pop();
        }
    }
}

impl<T: Unknowns> Unknowns for IndexMap<String, T> {
    fn collect_unknowns(&self, at: &mut JsonPath, out: &mut Vec<Unknown>) {
        for (k, v) in self {
            at.push(k);
            v.collect_unknowns(at, out);
            at.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_escape_per_rfc_6901_and_pop_back() {
        let mut at = JsonPath::new();
        assert_eq!(at.as_str(), "");
        at.push("a/b");
        at.push("m~n");
        at.push_index(12);
        assert_eq!(at.as_str(), "/a~1b/m~0n/12");
        at.pop();
        assert_eq!(at.as_str(), "/a~1b/m~0n");
        at.pop();
        at.pop();
        at.pop();
        assert_eq!(at.as_str(), "", "popping the root stays at the root");
    }

    #[test]
    fn raw_members_are_reported_but_meta() {
        let extra: Extra = serde_json::from_str(r#"{"_meta":{"k":1},"x":true,"y":null}"#).unwrap();
        let mut at = JsonPath::new();
        at.push("params");
        let mut out = Vec::new();
        unknown_value_members(&extra, &mut at, &mut out);
        let pointers: Vec<&str> = out.iter().map(|u| u.pointer.as_str()).collect();
        assert_eq!(pointers, ["/params/x", "/params/y"]);
        assert_eq!(at.as_str(), "/params", "the path is left as it was");
    }

    #[test]
    fn containers_walk_their_items_with_their_indexes() {
        struct Leaf;
        impl Unknowns for Leaf {
            fn collect_unknowns(&self, at: &mut JsonPath, out: &mut Vec<Unknown>) {
                let mut extra = Extra::new();
                extra.insert("u".into(), Value::Bool(true));
                unknown_value_members(&extra, at, out);
            }
        }
        let v = vec![Some(Leaf), None, Some(Leaf)];
        let found: Vec<String> = v.unknowns().into_iter().map(|u| u.pointer).collect();
        assert_eq!(found, ["/0/u", "/2/u"]);
        let mut map = IndexMap::new();
        map.insert("k/1".to_owned(), Box::new(Leaf));
        assert_eq!(map.unknowns()[0].pointer, "/k~11/u");
    }
}
