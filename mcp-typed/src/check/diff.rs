//! Comparing a message with its re-encoding: what decoding and encoding again changed.

use std::fmt;

use serde_json::{Number, Value};

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

/// Adds the changes between `before` and `after` that `changes` does not have yet.
pub(crate) fn add_changes(changes: &mut Vec<Change>, path: &str, before: &Value, after: &Value) {
    let mut more = Vec::new();
    diff(path, before, after, &mut more);
    for c in more {
        if !changes.iter().any(|d| d.path == c.path) {
            changes.push(c);
        }
    }
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

    #[test]
    fn long_values_are_cut_short() {
        let long = "x".repeat(100);
        let shown = &changes(json!({"s": long}), json!({"s": "y"}))[0];
        assert!(shown.starts_with("/s: \"xxx"), "{shown}");
        assert!(shown.contains("…"), "{shown}");
        assert!(shown.len() < 80, "{shown}");
    }
}
