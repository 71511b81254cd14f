//! Deterministic mutations of a message (from the `diff` branch's differential test): every
//! object down to three levels (the first twelve), each with its first or last member
//! dropped, retyped or repeated, its members reversed, or its tag moved last. For exploring
//! the differences of the two decoders (`record-verdicts --mutations`).

use serde_json::{Map, Value, json};

/// The objects of `v` in pre-order, as paths of member keys and array indexes, down to
/// `depth` levels of nesting.
fn object_paths(v: &Value, depth: usize, at: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    match v {
        Value::Object(m) => {
            out.push(at.clone());
            if depth > 0 {
                for (k, v) in m {
                    at.push(Step::Key(k.clone()));
                    object_paths(v, depth - 1, at, out);
                    at.pop();
                }
            }
        }
        Value::Array(a) if depth > 0 => {
            for (i, v) in a.iter().enumerate().take(3) {
                at.push(Step::Index(i));
                object_paths(v, depth - 1, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

/// A mutation of one object's member list.
#[derive(Clone, Copy, Debug)]
enum Mutation {
    DropFirst,
    DropLast,
    RetypeFirst,
    RetypeLast,
    Reverse,
    DuplicateFirst,
    DuplicateLastRetyped,
    TagLast,
}

const MUTATIONS: [Mutation; 8] = [
    Mutation::DropFirst,
    Mutation::DropLast,
    Mutation::RetypeFirst,
    Mutation::RetypeLast,
    Mutation::Reverse,
    Mutation::DuplicateFirst,
    Mutation::DuplicateLastRetyped,
    Mutation::TagLast,
];

/// The members that tell a union's variants apart (or a message's kind).
const TAGS: [&str; 8] = [
    "type",
    "method",
    "resultType",
    "mode",
    "action",
    "role",
    "status",
    "jsonrpc",
];

/// The same value of another JSON type.
fn retyped(v: &Value) -> Value {
    match v {
        Value::Null => json!(false),
        Value::Bool(b) => json!(b.to_string()),
        Value::Number(_) => json!("1"),
        Value::String(_) => json!(1),
        Value::Array(_) => json!({}),
        Value::Object(_) => json!([]),
    }
}

/// `members` mutated; `None` when the mutation does not apply (or changes nothing).
fn mutate(members: &[(String, Value)], m: Mutation) -> Option<Vec<(String, Value)>> {
    let mut out = members.to_vec();
    match m {
        Mutation::DropFirst => {
            out.first()?;
            out.remove(0);
        }
        Mutation::DropLast => {
            out.pop()?;
        }
        Mutation::RetypeFirst => {
            let first = out.first_mut()?;
            first.1 = retyped(&first.1);
        }
        Mutation::RetypeLast => {
            let last = out.last_mut()?;
            last.1 = retyped(&last.1);
        }
        Mutation::Reverse => {
            if out.len() < 2 {
                return None;
            }
            out.reverse();
        }
        Mutation::DuplicateFirst => {
            let first = out.first()?.clone();
            out.push(first);
        }
        Mutation::DuplicateLastRetyped => {
            let last = out.last()?;
            let again = (last.0.clone(), retyped(&last.1));
            out.push(again);
        }
        Mutation::TagLast => {
            let i = out.iter().position(|(k, _)| TAGS.contains(&k.as_str()))?;
            if i + 1 == out.len() {
                return None;
            }
            let tag = out.remove(i);
            out.push(tag);
        }
    }
    Some(out)
}

/// `v` as JSON text, with the object at `path` written with `members` instead of its own
/// (which may repeat a key: what a `Value` cannot hold).
fn write_with(out: &mut String, v: &Value, path: &[Step], members: &[(String, Value)]) {
    match (v, path.split_first()) {
        (Value::Object(_), None) => {
            out.push('{');
            for (i, (k, v)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::to_string(k).unwrap());
                out.push(':');
                out.push_str(&v.to_string());
            }
            out.push('}');
        }
        (Value::Object(m), Some((Step::Key(key), rest))) => {
            out.push('{');
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::to_string(k).unwrap());
                out.push(':');
                if k == key {
                    write_with(out, v, rest, members);
                } else {
                    out.push_str(&v.to_string());
                }
            }
            out.push('}');
        }
        (Value::Array(a), Some((Step::Index(index), rest))) => {
            out.push('[');
            for (i, v) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if i == *index {
                    write_with(out, v, rest, members);
                } else {
                    out.push_str(&v.to_string());
                }
            }
            out.push(']');
        }
        _ => unreachable!("a path found in the same value"),
    }
}

fn at<'v>(v: &'v Value, path: &[Step]) -> &'v Map<String, Value> {
    let mut v = v;
    for step in path {
        v = match step {
            Step::Key(k) => &v[k.as_str()],
            Step::Index(i) => &v[*i],
        };
    }
    v.as_object().expect("a path to an object")
}

/// Deterministic mutations of a message: every mutation of every object down to three levels
/// (the message, its `params`/`result`/`error`, their members; the first three elements of
/// an array).
pub fn mutations(text: &str) -> Vec<String> {
    let Ok(v) = serde_json::from_str::<Value>(text) else {
        return Vec::new();
    };
    let mut paths = Vec::new();
    object_paths(&v, 3, &mut Vec::new(), &mut paths);
    let mut out = Vec::new();
    for path in paths.iter().take(12) {
        let members: Vec<(String, Value)> = at(&v, path)
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for m in MUTATIONS {
            if let Some(mutated) = mutate(&members, m) {
                let mut s = String::new();
                write_with(&mut s, &v, path, &mutated);
                out.push(s);
            }
        }
    }
    out
}
