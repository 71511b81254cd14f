//! Whether an error is true of the input: what its message says is wrong is wrong at its
//! JSON pointer (the value there has the type or value it names, the object there lacks the
//! members it says are missing, has twice the member it says is repeated…).
//!
//! The old decoder's errors have no pointer: the oracle reads one off their position
//! ([`crate::oracle::pointer_at`]), as its callers did. Where the old decoder raised an
//! error after buffering (a member met before its union's tag, a message's members before
//! its `method`, a constant checked when its object ends, a union's members tried in turn),
//! that position is not the value at fault, and the pointer read there names another value.
//! The known classes of pointer differences ([`crate::KNOWN_DIFFERENCES`]) ask this module
//! whether each decoder's error holds where its pointer says.
//!
//! The input is read as a tree that keeps repeated members ([`Json`]); a pointer through a
//! repeated member reaches each of its values, and an error holds when it holds of one.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// JSON that keeps every member of an object, repeated ones too, in order.
#[derive(Debug, Clone)]
pub enum Json {
    /// `null`.
    Null,
    /// `true`, `false`.
    Bool(bool),
    /// A number, as serde_json reads it.
    Number(serde_json::Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, every member in order.
    Object(Vec<(String, Json)>),
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Json;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("JSON")
            }
            fn visit_unit<E>(self) -> Result<Json, E> {
                Ok(Json::Null)
            }
            fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
                Ok(Json::Bool(b))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Json, E> {
                Ok(Json::Number(n.into()))
            }
            fn visit_u64<E>(self, n: u64) -> Result<Json, E> {
                Ok(Json::Number(n.into()))
            }
            fn visit_f64<E: de::Error>(self, n: f64) -> Result<Json, E> {
                serde_json::Number::from_f64(n)
                    .map(Json::Number)
                    .ok_or_else(|| E::custom("not a finite number"))
            }
            fn visit_str<E>(self, s: &str) -> Result<Json, E> {
                Ok(Json::String(s.to_owned()))
            }
            fn visit_string<E>(self, s: String) -> Result<Json, E> {
                Ok(Json::String(s))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Json, A::Error> {
                let mut out = Vec::new();
                while let Some(v) = a.next_element()? {
                    out.push(v);
                }
                Ok(Json::Array(out))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Json, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = a.next_entry::<String, Json>()? {
                    out.push((k, v));
                }
                Ok(Json::Object(out))
            }
        }
        d.deserialize_any(V)
    }
}

impl Json {
    /// The input as a tree; `None` when it is not JSON.
    pub fn read(data: &[u8]) -> Option<Json> {
        serde_json::from_slice(data).ok()
    }

    /// The values at `pointer` (several where a member on the way is repeated).
    pub fn at(&self, pointer: &str) -> Vec<&Json> {
        let mut here = vec![self];
        if pointer.is_empty() {
            return here;
        }
        let Some(steps) = pointer.strip_prefix('/') else {
            return Vec::new();
        };
        for step in steps.split('/') {
            let step = step.replace("~1", "/").replace("~0", "~");
            here = here
                .into_iter()
                .flat_map(|v| -> Vec<&Json> {
                    match v {
                        Json::Object(m) => m
                            .iter()
                            .filter(|(k, _)| *k == step)
                            .map(|(_, v)| v)
                            .collect(),
                        Json::Array(a) => step
                            .parse::<usize>()
                            .ok()
                            .and_then(|i| a.get(i))
                            .into_iter()
                            .collect(),
                        _ => Vec::new(),
                    }
                })
                .collect();
        }
        here
    }

    /// The members of an object, in order.
    pub fn members(&self) -> Option<&[(String, Json)]> {
        match self {
            Json::Object(m) => Some(m),
            _ => None,
        }
    }

    fn count(&self, key: &str) -> usize {
        self.members()
            .map_or(0, |m| m.iter().filter(|(k, _)| k == key).count())
    }

    /// The value with only the first value of each member named twice (both decoders keep
    /// the last): what a decoder typed before it dropped it.
    pub fn first_values(&self) -> Json {
        match self {
            Json::Array(a) => Json::Array(a.iter().map(Json::first_values).collect()),
            Json::Object(m) => {
                let mut seen = std::collections::HashSet::new();
                Json::Object(
                    m.iter()
                        .filter(|(k, _)| seen.insert(k.as_str()))
                        .map(|(k, v)| (k.clone(), v.first_values()))
                        .collect(),
                )
            }
            v => v.clone(),
        }
    }

    /// Whether some object in the value names a member twice.
    pub fn repeats(&self) -> bool {
        match self {
            Json::Array(a) => a.iter().any(Json::repeats),
            Json::Object(m) => m
                .iter()
                .enumerate()
                .any(|(i, (k, v))| v.repeats() || m[..i].iter().any(|(j, _)| j == k)),
            _ => false,
        }
    }

    /// The tree without the member(s) at `pointer` (every member of that name of the object
    /// at its parent).
    pub fn without(&self, pointer: &str) -> Json {
        fn go(v: &Json, steps: &[String]) -> Json {
            match (v, steps) {
                (Json::Object(m), [last]) => {
                    Json::Object(m.iter().filter(|(k, _)| k != last).cloned().collect())
                }
                (Json::Object(m), [first, rest @ ..]) => Json::Object(
                    m.iter()
                        .map(|(k, v)| (k.clone(), if k == first { go(v, rest) } else { v.clone() }))
                        .collect(),
                ),
                (Json::Array(a), [first, rest @ ..]) => Json::Array(
                    a.iter()
                        .enumerate()
                        .map(|(i, v)| {
                            if !rest.is_empty() && first.parse() == Ok(i) {
                                go(v, rest)
                            } else {
                                v.clone()
                            }
                        })
                        .collect(),
                ),
                _ => v.clone(),
            }
        }
        let steps: Vec<String> = pointer
            .split('/')
            .skip(1)
            .map(|s| s.replace("~1", "/").replace("~0", "~"))
            .collect();
        if steps.is_empty() {
            return self.clone();
        }
        go(self, &steps)
    }

    /// As JSON text, repeated members and all.
    pub fn text(&self) -> String {
        match self {
            Json::Null => "null".into(),
            Json::Bool(b) => b.to_string(),
            Json::Number(n) => n.to_string(),
            Json::String(s) => Value::String(s.clone()).to_string(),
            Json::Array(a) => format!(
                "[{}]",
                a.iter().map(Json::text).collect::<Vec<_>>().join(",")
            ),
            Json::Object(m) => format!(
                "{{{}}}",
                m.iter()
                    .map(|(k, v)| format!("{}:{}", Value::String(k.clone()), v.text()))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        }
    }

    /// As a `serde_json::Value` (a repeated member: its last value).
    pub fn value(&self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(n.clone()),
            Json::String(s) => Value::String(s.clone()),
            Json::Array(a) => Value::Array(a.iter().map(Json::value).collect()),
            Json::Object(m) => {
                Value::Object(m.iter().map(|(k, v)| (k.clone(), v.value())).collect())
            }
        }
    }

    /// Whether the value is what serde's `Unexpected` text `unexpected` describes
    /// (`integer `1``, `string "x"`, `map`…).
    fn is(&self, unexpected: &str) -> bool {
        match self {
            Json::Null => unexpected == "null" || unexpected == "unit",
            Json::Bool(b) => unexpected == format!("boolean `{b}`"),
            Json::Number(n) => {
                if let Some(i) = unexpected
                    .strip_prefix("integer `")
                    .and_then(|s| s.strip_suffix('`'))
                {
                    !n.is_f64() && n.to_string() == i
                } else if let Some(f) = unexpected
                    .strip_prefix("floating point `")
                    .and_then(|s| s.strip_suffix('`'))
                {
                    n.is_f64() && f.parse::<f64>().ok() == n.as_f64()
                } else {
                    false
                }
            }
            Json::String(s) => unexpected == format!("string {s:?}"),
            Json::Array(_) => unexpected == "sequence",
            Json::Object(_) => unexpected == "map",
        }
    }
}

/// The names between backquotes in `s` (`a`, `b` of "missing fields `a`, `b`").
fn quoted(s: &str) -> Vec<&str> {
    s.split('`').skip(1).step_by(2).collect()
}

/// The parent of a pointer (`/a/b` → `/a`) and its last step, unescaped.
fn parent(pointer: &str) -> Option<(&str, String)> {
    let (parent, last) = pointer.rsplit_once('/')?;
    Some((parent, last.replace("~1", "/").replace("~0", "~")))
}

/// Whether the error `message` (without position) is true of `input` at `pointer`: `None`
/// when the message is of no form this module knows.
pub fn holds(input: &Json, message: &str, pointer: &str) -> Option<bool> {
    let here = input.at(pointer);
    // "invalid type: U, expected E", "invalid value: U, expected E"
    for prefix in ["invalid type: ", "invalid value: "] {
        if let Some(rest) = message.strip_prefix(prefix) {
            let (unexpected, _) = rest.split_once(", expected ")?;
            return Some(here.iter().any(|v| v.is(unexpected)));
        }
    }
    // The old decoder's constants: "invalid value for `K`: expected E, found F", F as JSON
    // (`jsonrpc` in the envelope, integers) or a string as Rust's `Debug` writes it (typed
    // objects' string constants: `"\u{7f}bject"`, not JSON where it escapes otherwise).
    if let Some(rest) = message.strip_prefix("invalid value for `") {
        let (key, rest) = rest.split_once("`: expected ")?;
        let (_, found) = rest.split_once(", found ")?;
        let json: Option<Value> = serde_json::from_str(found).ok();
        if json.is_none() && !found.starts_with('"') {
            return None;
        }
        let is_found = |v: &Json| {
            json.as_ref().is_some_and(|j| v.value() == *j)
                || matches!(v, Json::String(s) if format!("{s:?}") == found)
        };
        return Some(here.iter().any(|o| {
            o.members()
                .is_some_and(|m| m.iter().any(|(k, v)| k == key && is_found(v)))
        }));
    }
    // "duplicate member `k`" (at the member or its object), "duplicate field `k`".
    if let Some(rest) = message
        .strip_prefix("duplicate member `")
        .or_else(|| message.strip_prefix("duplicate field `"))
    {
        let key = rest.strip_suffix('`')?;
        let mut objects = here.clone();
        if let Some((up, last)) = parent(pointer)
            && last == key
        {
            objects.extend(input.at(up));
        }
        return Some(objects.iter().any(|o| o.count(key) >= 2));
    }
    // "missing member(s) `a`, `b` in X", "missing field(s) `a`, `b` (closest: X)".
    if message.starts_with("missing member") || message.starts_with("missing field") {
        let names = message.split(" in ").next()?.split(" (closest").next()?;
        let keys = quoted(names);
        if keys.is_empty() {
            return None;
        }
        return Some(
            here.iter()
                .any(|o| o.members().is_some() && keys.iter().all(|k| o.count(k) == 0)),
        );
    }
    // "unknown member `k`, …" / "unknown field `k`, …": at the member or its object.
    if let Some(rest) = message
        .strip_prefix("unknown member `")
        .or_else(|| message.strip_prefix("unknown field `"))
    {
        let key = rest.split('`').next()?;
        let mut objects = here.clone();
        if let Some((up, last)) = parent(pointer)
            && last == key
        {
            objects.extend(input.at(up));
        }
        return Some(objects.iter().any(|o| o.count(key) >= 1));
    }
    // "unknown variant `s`, expected …" (`s` may hold a backquote)
    if let Some(rest) = message.strip_prefix("unknown variant `") {
        let (s, _) = rest.rsplit_once("`, expected ")?;
        return Some(here.iter().any(|v| matches!(v, Json::String(x) if x == s)));
    }
    // A union told apart by members, none of which fits: said of an object.
    if message.starts_with("no member of ") && message.contains(" matches this object") {
        return Some(here.iter().any(|v| matches!(v, Json::Object(_))));
    }
    if message == "not a JSON-RPC message: no `method`, `result` or `error`" {
        return Some(here.iter().any(|o| {
            o.members().is_some()
                && ["method", "result", "error"]
                    .iter()
                    .all(|k| o.count(k) == 0)
        }));
    }
    None
}

/// Whether, in every object whose member order differs between two encodings `a` and `b`
/// (equal but for that order), `b` orders each pair of members that the two order
/// differently as the object at the same pointer of `input` does: where they differ, `b`
/// follows the input.
pub fn keeps_input_order(input: &Json, a: &Value, b: &Value) -> bool {
    fn position(keys: &[&String], k: &str) -> Option<usize> {
        keys.iter().position(|x| *x == k)
    }
    fn walk(input: &Json, at: &mut String, a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                let (kx, ky): (Vec<&String>, Vec<&String>) =
                    (x.keys().collect(), y.keys().collect());
                if kx != ky {
                    // A repeated member on the way: the last value, as the decoders keep it.
                    let Some(Json::Object(m)) = input.at(at).last().copied() else {
                        return false;
                    };
                    let ki: Vec<&String> = m.iter().map(|(k, _)| k).collect();
                    for (i, p) in ky.iter().enumerate() {
                        for q in &ky[i + 1..] {
                            // `b` has p before q; where `a` has q before p, so must the input not.
                            let (Some(pa), Some(qa)) = (position(&kx, p), position(&kx, q)) else {
                                return false;
                            };
                            if qa < pa {
                                let (Some(pi), Some(qi)) = (position(&ki, p), position(&ki, q))
                                else {
                                    return false;
                                };
                                if qi < pi {
                                    return false;
                                }
                            }
                        }
                    }
                }
                y.iter().all(|(k, v)| {
                    let len = at.len();
                    at.push('/');
                    at.push_str(&k.replace('~', "~0").replace('/', "~1"));
                    let ok = walk(input, at, &x[k], v);
                    at.truncate(len);
                    ok
                })
            }
            (Value::Array(x), Value::Array(y)) => x.iter().zip(y).enumerate().all(|(i, (p, q))| {
                let len = at.len();
                at.push('/');
                at.push_str(&i.to_string());
                let ok = walk(input, at, p, q);
                at.truncate(len);
                ok
            }),
            _ => true,
        }
    }
    a == b && walk(input, &mut String::new(), a, b)
}
