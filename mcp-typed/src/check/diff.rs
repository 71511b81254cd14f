//! Comparing a message with its re-encoding: what decoding and encoding again changed.

use std::fmt;

use mcp_typed_runtime::pull::{self, Decode, Kind, Parser};
use serde_json::{Map, Number, Value};

/// One difference between the input and its re-encoding.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Change {
    /// JSON Pointer of the changed value (`""` is the root).
    pub path: String,
    pub before: Option<Value>,
    pub after: Option<Value>,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn show(v: &Option<Value>) -> String {
            let Some(v) = v else {
                return "(absent)".to_owned();
            };
            let s = v.to_string();
            if s.chars().count() > 40 {
                format!("{}…", s.chars().take(39).collect::<String>())
            } else {
                s
            }
        }
        let path = if self.path.is_empty() {
            "/"
        } else {
            &self.path
        };
        write!(f, "{path}: {} -> {}", show(&self.before), show(&self.after))
    }
}

/// Same number by value (`1` and `1.0` are the same value).
fn same_value(a: &Number, b: &Number) -> bool {
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        return x == y;
    }
    if let (Some(x), Some(y)) = (a.as_u64(), b.as_u64()) {
        return x == y;
    }
    a.as_f64() == b.as_f64()
}

/// Collects the paths where `after` differs from `before`, `path` being where both are in
/// the message. Object member order does not matter; a number that keeps its value but turns
/// from integer to float (or back) does. Allocates only for the changes found.
pub(crate) fn diff(path: &str, before: &Value, after: &Value, out: &mut Vec<Change>) {
    let mut at = String::with_capacity(path.len() + 32);
    at.push_str(path);
    walk(&mut at, before, after, out);
}

fn walk(at: &mut String, before: &Value, after: &Value, out: &mut Vec<Change>) {
    match (before, after) {
        (Value::Number(a), Value::Number(b)) => {
            if !same_value(a, b) || a.is_f64() != b.is_f64() {
                changed(at, Some(before), Some(after), out);
            }
        }
        (Value::String(a), Value::String(b)) => {
            if a != b {
                changed(at, Some(before), Some(after), out);
            }
        }
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                let len = at.len();
                push_token(at, k);
                match b.get(k) {
                    Some(w) => walk(at, v, w, out),
                    None => changed(at, Some(v), None, out),
                }
                at.truncate(len);
            }
            if b.len() > a.len() || b.keys().any(|k| !a.contains_key(k)) {
                for (k, w) in b {
                    if !a.contains_key(k) {
                        let len = at.len();
                        push_token(at, k);
                        changed(at, None, Some(w), out);
                        at.truncate(len);
                    }
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for i in 0..a.len().max(b.len()) {
                let len = at.len();
                at.push('/');
                at.push_str(itoa(i, &mut [0; 20]));
                match (a.get(i), b.get(i)) {
                    (Some(v), Some(w)) => walk(at, v, w, out),
                    (v, w) => changed(at, v, w, out),
                }
                at.truncate(len);
            }
        }
        _ if before == after => {}
        _ => changed(at, Some(before), Some(after), out),
    }
}

fn changed(at: &str, before: Option<&Value>, after: Option<&Value>, out: &mut Vec<Change>) {
    out.push(Change {
        path: at.to_owned(),
        before: before.cloned(),
        after: after.cloned(),
    });
}

/// Appends `/token`, JSON Pointer escaped.
fn push_token(at: &mut String, token: &str) {
    at.push('/');
    if !token.contains(['~', '/']) {
        at.push_str(token);
        return;
    }
    for c in token.chars() {
        match c {
            '~' => at.push_str("~0"),
            '/' => at.push_str("~1"),
            c => at.push(c),
        }
    }
}

/// `i` in decimal, without allocating.
fn itoa(mut i: usize, buf: &mut [u8; 20]) -> &str {
    let mut n = buf.len();
    loop {
        n -= 1;
        buf[n] = b'0' + (i % 10) as u8;
        i /= 10;
        if i == 0 {
            break;
        }
    }
    std::str::from_utf8(&buf[n..]).expect("ASCII digits")
}

/// JSON Pointer escaping of one reference token.
pub(crate) fn escape(key: &str) -> String {
    let mut s = String::with_capacity(key.len() + 1);
    push_token(&mut s, key);
    s.remove(0);
    s
}

/// Adds the changes between `before` and the re-encoding `after` that `changes` does not
/// have yet.
pub(crate) fn add_changes(changes: &mut Vec<Change>, path: &str, before: &Value, after: &str) {
    let mut more = Vec::new();
    diff_text(path, before, after, None, &mut more);
    for c in more {
        if !changes.iter().any(|d| d.path == c.path) {
            changes.push(c);
        }
    }
}

/// [`diff`] with `after` as JSON text (a re-encoding): read once against `before` without
/// building anything; only when something differs is `after` built, and [`diff`] run on it,
/// so the changes and their order are [`diff`]'s. `skip` names a member of the root object
/// left out on both sides (one compared elsewhere).
pub(crate) fn diff_text(
    path: &str,
    before: &Value,
    after: &str,
    skip: Option<&str>,
    out: &mut Vec<Change>,
) {
    if same(&mut Parser::new(after), before, skip).unwrap_or(false) {
        return;
    }
    let after = match serde_json::from_str::<Value>(after) {
        Ok(after) => after,
        Err(e) => {
            // Text the decoder wrote itself that serde_json does not read back: shown as
            // the change it is, not lost.
            out.push(Change {
                path: path.to_owned(),
                before: Some(before.clone()),
                after: Some(Value::String(format!("(re-encoding not read back: {e})"))),
            });
            return;
        }
    };
    match (skip, before, &after) {
        (Some(skip), Value::Object(b), Value::Object(a)) => {
            let without = |m: &Map<String, Value>| {
                Value::Object(
                    m.iter()
                        .filter(|(k, _)| *k != skip)
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect(),
                )
            };
            diff(path, &without(b), &without(a), out);
        }
        _ => diff(path, before, &after, out),
    }
}

/// Whether the next value of `p` equals `before` as [`diff`] compares (member order aside,
/// numbers by value and kind); the value is read whole when it is. An error of the parser
/// is "not known to be the same".
fn same(p: &mut Parser<'_>, before: &Value, skip: Option<&str>) -> Result<bool, pull::Error> {
    Ok(match (p.peek()?, before) {
        (Kind::Null, Value::Null) => {
            p.skip()?;
            true
        }
        (Kind::Bool, Value::Bool(b)) => <bool as Decode>::decode(p)? == *b,
        (Kind::Number, Value::Number(b)) => {
            let a = pull::number(p)?;
            same_value(&a, b) && a.is_f64() == b.is_f64()
        }
        (Kind::String, Value::String(b)) => p.str()? == b,
        (Kind::Array, Value::Array(items)) => {
            let mut items = items.iter();
            let mut more = p.array_first()?;
            while more {
                match items.next() {
                    Some(item) if same(p, item, None)? => more = p.array_next()?,
                    _ => return Ok(false),
                }
            }
            items.next().is_none()
        }
        (Kind::Object, Value::Object(members)) => {
            let skipped = skip.is_some_and(|k| members.contains_key(k));
            let mut matched = 0;
            let mut key = p.object_first()?.map(|k| (Some(k) == skip, members.get(k)));
            while let Some((skipped_here, member)) = key {
                if skipped_here {
                    p.skip()?;
                } else {
                    match member {
                        Some(v) if same(p, v, None)? => matched += 1,
                        _ => return Ok(false),
                    }
                }
                key = p.object_next()?.map(|k| (Some(k) == skip, members.get(k)));
            }
            matched + usize::from(skipped) == members.len()
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn changes(before: Value, after: Value) -> Vec<String> {
        let mut out = Vec::new();
        diff("", &before, &after, &mut out);
        out.iter().map(Change::to_string).collect()
    }

    #[test]
    fn integer_to_float_is_a_change_equal_numbers_are_not() {
        assert_eq!(
            changes(
                json!({"params": {"progress": 50}}),
                json!({"params": {"progress": 50.0}})
            ),
            ["/params/progress: 50 -> 50.0"]
        );
        assert_eq!(
            changes(json!({"p": 0.8}), json!({"p": 0.800000011920929})),
            ["/p: 0.8 -> 0.800000011920929"]
        );
        assert!(changes(json!({"a": 1, "b": [1.5]}), json!({"b": [1.5], "a": 1})).is_empty());
        assert!(changes(json!(u64::MAX), json!(u64::MAX)).is_empty());
        assert_eq!(
            changes(json!(-1), json!(u64::MAX)),
            ["/: -1 -> 18446744073709551615"]
        );
    }

    #[test]
    fn members_and_items_added_or_removed_are_named_by_json_pointer() {
        assert_eq!(
            changes(
                json!({"a/b~c": 1, "capabilities": {"roots": {}}, "xs": [1, 2]}),
                json!({"a/b~c": null, "capabilities": {}, "mode": "form", "xs": [1]})
            ),
            [
                "/a~1b~0c: 1 -> null",
                "/capabilities/roots: {} -> (absent)",
                "/xs/1: 2 -> (absent)",
                "/mode: (absent) -> \"form\""
            ]
        );
        let mut out = Vec::new();
        diff(
            "/result",
            &json!([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]),
            &json!([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
            &mut out,
        );
        assert_eq!(out[0].path, "/result/11");
        assert_eq!(escape("a/b~c"), "a~1b~0c");
    }

    /// What `diff_text` finds: what [`diff`] finds on the text read back.
    fn changes_text(before: &Value, after: &str, skip: Option<&str>) -> Vec<Change> {
        let mut out = Vec::new();
        diff_text("/at", before, after, skip, &mut out);
        out
    }

    #[test]
    fn text_read_against_the_value_finds_what_diff_finds() {
        let before = json!({"a": 1, "b": [1.5, {"c": null, "d": true}], "e": "x"});
        // Member order aside, the same: nothing.
        let same = r#"{"e":"x","b":[1.5,{"d":true,"c":null}],"a":1}"#;
        assert!(changes_text(&before, same, None).is_empty());
        for (after, expected) in [
            (
                r#"{"e":"x","b":[1.5,{"d":true,"c":null}],"a":1.0}"#,
                vec!["/at/a: 1 -> 1.0"],
            ),
            (
                r#"{"e":"x","b":[1.5,{"d":true}],"a":1}"#,
                vec!["/at/b/1/c: null -> (absent)"],
            ),
            (
                r#"{"e":"x","b":[1.5,{"d":true,"c":null}],"a":1,"f":2}"#,
                vec!["/at/f: (absent) -> 2"],
            ),
            (
                r#"{"e":"y","b":[1.5],"a":1}"#,
                vec![
                    "/at/b/1: {\"c\":null,\"d\":true} -> (absent)",
                    "/at/e: \"x\" -> \"y\"",
                ],
            ),
            (
                r#"{"e":"x","b":[1.5,{"d":true,"c":null},3],"a":1}"#,
                vec!["/at/b/2: (absent) -> 3"],
            ),
            (
                r#"[1]"#,
                vec!["/at: {\"a\":1,\"b\":[1.5,{\"c\":null,\"d\":true}],\"e\":\"x\"} -> [1]"],
            ),
        ] {
            let found: Vec<String> = changes_text(&before, after, None)
                .iter()
                .map(Change::to_string)
                .collect();
            let mut found = found;
            found.sort();
            let mut expected: Vec<String> = expected.into_iter().map(str::to_owned).collect();
            expected.sort();
            // Cut short as `Change` shows them.
            let expected: Vec<String> = expected
                .into_iter()
                .map(|e| {
                    let (path, rest) = e.split_once(": ").unwrap();
                    let (b, a) = rest.split_once(" -> ").unwrap();
                    let cut = |s: &str| {
                        if s.chars().count() > 40 {
                            format!("{}…", s.chars().take(39).collect::<String>())
                        } else {
                            s.to_owned()
                        }
                    };
                    format!("{path}: {} -> {}", cut(b), cut(a))
                })
                .collect();
            assert_eq!(found, expected, "{after}");
        }
        // The skipped member is left out on both sides, and only at the root.
        let before = json!({"id": 1, "params": {"x": 1}});
        assert!(changes_text(&before, r#"{"id":1,"params":{}}"#, Some("params")).is_empty());
        assert_eq!(
            changes_text(&before, r#"{"id":2,"params":{}}"#, Some("params"))[0].to_string(),
            "/at/id: 1 -> 2"
        );
        assert!(!changes_text(&before, r#"{"id":1,"params":{}}"#, None).is_empty());
    }

    /// Open JSON, a few levels deep, with the kinds of numbers [`diff`] tells apart.
    fn json() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (-3i64..3).prop_map(Value::from),
            prop_oneof![Just(0.5f64), Just(1.0), Just(-0.0)].prop_map(Value::from),
            Just(Value::from(u64::MAX)),
            "[a-c~/\\\"é]{0,3}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec(("[a-c~/]{0,2}", inner), 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        /// `diff_text` reads the text against the value and builds nothing when they are the
        /// same: it must find exactly what [`diff`] finds on the value read back, in the same
        /// order, for equal, reordered and different values.
        #[test]
        fn diff_text_is_diff_on_the_text_read_back(
            before in json(),
            other in json(),
            reorder in proptest::prelude::any::<bool>(),
            how in 0u8..4,
        ) {
            // The same value, another one, or the same with its last leaf just changed (a
            // number of the other kind, a member or item less): what a fast path can miss.
            fn near(v: &Value, drop: bool) -> Value {
                match v {
                    Value::Object(m) if drop && !m.is_empty() => {
                        Value::Object(m.iter().take(m.len() - 1).map(|(k, v)| (k.clone(), v.clone())).collect())
                    }
                    Value::Array(a) if drop && !a.is_empty() => Value::Array(a[..a.len() - 1].to_vec()),
                    Value::Object(m) if !m.is_empty() => {
                        let last = m.len() - 1;
                        Value::Object(m.iter().enumerate().map(|(i, (k, v))| {
                            (k.clone(), if i == last { near(v, drop) } else { v.clone() })
                        }).collect())
                    }
                    Value::Array(a) if !a.is_empty() => {
                        let mut a = a.clone();
                        let last = a.len() - 1;
                        a[last] = near(&a[last], drop);
                        Value::Array(a)
                    }
                    Value::Number(n) => match (n.as_i64(), n.as_f64()) {
                        (Some(i), _) => Value::from(i as f64),
                        (None, Some(f)) if f.fract() == 0.0 && f.abs() < 1e15 => Value::from(f as i64),
                        _ => Value::from(0),
                    },
                    Value::String(s) => Value::String(format!("{s}x")),
                    Value::Bool(b) => Value::Bool(!b),
                    Value::Null => Value::from(0),
                    v => Value::Array(vec![v.clone()]),
                }
            }
            let after = match how {
                0 => before.clone(),
                1 => other,
                2 => near(&before, false),
                _ => near(&before, true),
            };
            // A different member order, written as the text (serde_json keeps the map's order).
            fn reversed(v: &Value) -> Value {
                match v {
                    Value::Object(m) => Value::Object(
                        m.iter().rev().map(|(k, v)| (k.clone(), reversed(v))).collect(),
                    ),
                    Value::Array(a) => Value::Array(a.iter().map(reversed).collect()),
                    v => v.clone(),
                }
            }
            let after = if reorder { reversed(&after) } else { after };
            let text = after.to_string();
            let mut expected = Vec::new();
            diff("/at", &before, &serde_json::from_str(&text).unwrap(), &mut expected);
            proptest::prop_assert_eq!(changes_text(&before, &text, None), expected);
        }
    }

    #[test]
    fn long_values_are_cut_short() {
        let long = "x".repeat(100);
        let shown = &changes(json!({"s": long}), json!({"s": "y"}))[0];
        assert!(shown.starts_with("/s: \"xxx"), "{shown}");
        assert!(shown.contains("…"), "{shown}");
        assert!(shown.len() < 80, "{shown}");
    }
}
