//! Moving a value from one revision's types to another's.
//!
//! Both directions go through the value's JSON, which every generated type reads losslessly:
//!
//! - [`upgrade`] to a newer revision: members the newer revision added are absent, members it
//!   dropped are kept among the unknown members (`extra`), so nothing is lost and a
//!   [`downgrade`] gives the value back. It fails, naming the JSON path, only where the newer
//!   revision requires something the value lacks (2026-07-28's `ttlMs` on a result).
//! - [`downgrade`] to an older revision: what the older revision cannot carry is dropped and
//!   listed ([`Downgraded::dropped`]), never silently; a value that has no meaning there (a
//!   content block or elicitation mode the older revision lacks, a member it requires that is
//!   missing) is an error naming its JSON path.
//!
//! ```
//! use mcp_typed::{convert, v2025_06_18 as old, v2025_11_25 as new};
//! let tool: new::Tool = serde_json::from_str(
//!     r#"{"name":"book","inputSchema":{"type":"object"},"icons":[{"src":"https://a.example/i.png"}]}"#,
//! ).unwrap();
//! let down = convert::downgrade::<old::Tool>(&tool).unwrap();
//! assert_eq!(down.dropped, ["/icons"]);
//! let back: new::Tool = convert::upgrade(&down.value).unwrap();
//! assert_eq!(back.name, "book");
//! ```

use std::collections::HashSet;
use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::unknowns::{JsonPath, Unknown, UnknownKind, Unknowns};

/// Why a value cannot be converted: where (a JSON Pointer into the value) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConversionError {
    /// JSON Pointer of the offending value (`""` is the root).
    pub pointer: String,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "/"
        } else {
            &self.pointer
        };
        write!(f, "{at}: {}", self.message)
    }
}

impl std::error::Error for ConversionError {}

/// A value moved to an older revision, and the JSON Pointers of the members left out.
#[derive(Debug, Clone, PartialEq)]
pub struct Downgraded<T> {
    /// The value in the older revision's type.
    pub value: T,
    /// What the older revision cannot carry, in document order.
    pub dropped: Vec<String>,
}

/// `value` (of an older revision's type) as `T`, a newer revision's type. Refused, naming the
/// path, where the value holds what the newer revision no longer defines (2025-11-25's
/// `tasks/get` in 2026-07-28, which has no tasks): it would arrive as a custom method or an
/// unknown variant, meaning nothing there.
pub fn upgrade<T>(value: &(impl Serialize + Unknowns)) -> Result<T, ConversionError>
where
    T: crate::pull::Decode + Unknowns,
{
    let already: HashSet<String> = value.unknowns().into_iter().map(|u| u.pointer).collect();
    let t: T = decode(&encode(value)?)?;
    for u in t.unknowns() {
        if already.contains(&u.pointer) || u.kind == UnknownKind::Member {
            continue;
        }
        return Err(refusal(u));
    }
    Ok(t)
}

/// The error for a value the target revision holds only in a catch-all.
fn refusal(u: Unknown) -> ConversionError {
    let message = match &u.kind {
        UnknownKind::Method { method, .. } => {
            let method = method.as_deref().unwrap_or_default();
            format!(
                "method `{method}` is not one the target revision defines{}",
                structural_hint(method)
            )
        }
        kind => format!("{kind} in the target revision"),
    };
    ConversionError {
        pointer: u.pointer,
        message,
    }
}

/// `value` (of a newer revision's type) as `T`, an older revision's type, without what `T`'s
/// revision does not define. Members the source revision did not define either (kept
/// unknowns, vendor extensions) stay.
pub fn downgrade<T>(value: &(impl Serialize + Unknowns)) -> Result<Downgraded<T>, ConversionError>
where
    T: crate::pull::Decode + Unknowns,
{
    let already: HashSet<String> = value.unknowns().into_iter().map(|u| u.pointer).collect();
    let text = id_for_older_errors(encode(value)?);
    let first: T = decode(&text)?;
    let mut dropped = Vec::new();
    for u in first.unknowns() {
        if already.contains(&u.pointer) {
            continue;
        }
        match u.kind {
            UnknownKind::Member => dropped.push(u.pointer),
            _ => return Err(refusal(u)),
        }
    }
    if dropped.is_empty() {
        return Ok(Downgraded {
            value: first,
            dropped,
        });
    }
    let mut json: Value = serde_json::from_str(&text).map_err(|e| ConversionError {
        pointer: String::new(),
        message: e.to_string(),
    })?;
    for p in &dropped {
        remove(&mut json, p);
    }
    Ok(Downgraded {
        value: decode(&json.to_string())?,
        dropped,
    })
}

/// An error response without an `id` (2025-11-25 on, where the member is optional) gets
/// `"id": null`, which revisions before require (JSON-RPC 2.0's spelling for "the request's id
/// could not be read"); every revision reads it, newer ones as an absent id.
fn id_for_older_errors(text: String) -> String {
    if !text.starts_with(r#"{"jsonrpc":"2.0","error":"#) {
        return text;
    }
    format!(
        r#"{{"jsonrpc":"2.0","id":null,{}"#,
        &text[r#"{"jsonrpc":"2.0","#.len()..]
    )
}

fn encode(value: &impl Serialize) -> Result<String, ConversionError> {
    crate::to_string(value).map_err(|e| ConversionError {
        pointer: String::new(),
        message: e.to_string(),
    })
}

/// What to do instead, for the methods that revisions replaced rather than changed.
fn structural_hint(method: &str) -> &'static str {
    match method {
        "initialize" | "notifications/initialized" => {
            "; from 2026-07-28 on a client starts with `server/discover` (DiscoverRequest) instead"
        }
        "ping" | "logging/setLevel" | "resources/subscribe" | "resources/unsubscribe" => {
            "; 2026-07-28 has no such request (subscriptions go through `subscriptions/listen`)"
        }
        m if m.starts_with("tasks/") || m == "notifications/tasks/status" => {
            "; tasks exist in 2025-11-25 only"
        }
        "elicitation/create" => {
            "; elicitation exists from 2025-06-18 to 2025-11-25: before, there is no way to ask; \
             from 2026-07-28 on a server returns an InputRequiredResult (inputRequests) instead"
        }
        "sampling/createMessage" | "roots/list" => {
            "; from 2026-07-28 on a server asks for input by returning an InputRequiredResult (inputRequests) instead"
        }
        _ => "",
    }
}

/// Decodes compact JSON text as `T`; an error names the JSON Pointer where decoding stopped.
/// (Through the text rather than a `Value`, so that converting reuses the decoders every
/// program has, instead of compiling a second set; the shared decoder names the pointer.) Public for mcp-typed's session, checker and
/// rmcp adapter, which convert the same way.
#[doc(hidden)]
pub fn decode<T: crate::pull::Decode>(text: &str) -> Result<T, ConversionError> {
    crate::pull::from_str(text).map_err(|e| ConversionError {
        pointer: e.pointer(),
        message: e.message().to_owned(),
    })
}

/// [`decode`] for another crate's type (serde only): the pointer is read off the error's
/// column in one-line JSON text.
fn decode_serde<T: DeserializeOwned>(text: &str) -> Result<T, ConversionError> {
    serde_json::from_str(text).map_err(|e| {
        let message = e.to_string();
        let message = match message.rsplit_once(" at line ") {
            Some((m, _)) => m.to_owned(),
            None => message,
        };
        ConversionError {
            pointer: pointer_at(text, e.column()),
            message,
        }
    })
}

/// The JSON Pointer of the value at byte `column` (1-based, as serde_json reports it) of
/// one-line JSON text: the innermost member or item being read there, or the object or array
/// that ends just before it (where "missing field" is reported).
fn pointer_at(text: &str, column: usize) -> String {
    enum Frame {
        Object(Option<String>),
        Array(usize),
    }
    fn path(stack: &[Frame]) -> String {
        let mut p = JsonPath::default();
        for f in stack {
            match f {
                Frame::Object(Some(k)) => p.push(k),
                Frame::Array(n) => p.push_index(*n),
                Frame::Object(None) => {}
            }
        }
        p.as_str().to_owned()
    }
    let bytes = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut closed: Option<(usize, String)> = None;
    let mut i = 0;
    while i < bytes.len() && i < column {
        match bytes[i] {
            b'{' => stack.push(Frame::Object(None)),
            b'[' => stack.push(Frame::Array(0)),
            b'}' | b']' => {
                stack.pop();
                closed = Some((i, path(&stack)));
            }
            b',' => match stack.last_mut() {
                Some(Frame::Array(n)) => *n += 1,
                Some(Frame::Object(k)) => *k = None,
                None => {}
            },
            b'"' => {
                // The string's end, past escapes.
                let mut j = i + 1;
                while j < bytes.len() && bytes[j] != b'"' {
                    j += if bytes[j] == b'\\' { 2 } else { 1 };
                }
                let is_key = bytes.get(j + 1) == Some(&b':');
                if let (true, Some(Frame::Object(k @ None))) = (is_key, stack.last_mut()) {
                    *k = serde_json::from_str(&text[i..=j.min(bytes.len() - 1)]).ok();
                }
                i = j + 1;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    match closed {
        Some((at, p)) if at + 1 >= column => p,
        _ => path(&stack),
    }
}

/// Removes the member at `pointer` (a JSON Pointer to an object member).
fn remove(json: &mut Value, pointer: &str) {
    let Some((parent, last)) = pointer.rsplit_once('/') else {
        return;
    };
    let key = last.replace("~1", "/").replace("~0", "~");
    if let Some(Value::Object(m)) = json.pointer_mut(parent) {
        m.shift_remove(&key);
    }
}

/// [`downgrade`], refusing to drop anything: the `TryFrom` of the generated conversions. The
/// error names the first member that would be dropped, and the others.
pub fn downgrade_exact<T>(value: &(impl Serialize + Unknowns)) -> Result<T, ConversionError>
where
    T: crate::pull::Decode + Unknowns,
{
    let down = downgrade::<T>(value)?;
    match down.dropped.split_first() {
        None => Ok(down.value),
        Some((first, rest)) => Err(ConversionError {
            pointer: first.clone(),
            message: if rest.is_empty() {
                "a member the target revision does not define; convert::downgrade drops and lists it"
                    .to_owned()
            } else {
                format!(
                    "a member the target revision does not define (so are {}); convert::downgrade drops and lists them",
                    rest.join(", ")
                )
            },
        }),
    }
}

/// A value of another crate's model of the same JSON (an SDK's types, such as rmcp's) as a
/// generated `T`, through its JSON text. Keeps everything the value holds (what the revision
/// does not define becomes unknown members); fails, naming the JSON Pointer, where the value
/// is not a valid `T`. Through the text, never a `serde_json::Value`, so that `f32` fields
/// keep their digits (`0.8`, not the `0.800000011920929` that `serde_json::to_value` makes
/// of them).
pub fn from_model<T: crate::pull::Decode>(value: &impl Serialize) -> Result<T, ConversionError> {
    decode(&encode(value)?)
}

/// A generated value as another crate's model `R` of the same JSON, through its JSON text;
/// refused where `R` would not give the same JSON back. The error names the first JSON Pointer
/// where `R` would drop, add or change something; `model` names `R` in it (`"rmcp"`).
pub fn to_model<R: DeserializeOwned + Serialize>(
    value: &impl Serialize,
    model: &str,
) -> Result<R, ConversionError> {
    let text = encode(value)?;
    let r: R = decode_serde(&text)?;
    let ours: Value = decode(&text)?;
    let theirs: Value = decode(&encode(&r)?)?;
    let mut at = JsonPath::default();
    match first_difference(&ours, &theirs, model, &mut at) {
        None => Ok(r),
        Some(message) => Err(ConversionError {
            pointer: at.as_str().to_owned(),
            message,
        }),
    }
}

/// What `model` changed at the first place `theirs` differs from `ours`; `at` is left there.
fn first_difference(
    ours: &Value,
    theirs: &Value,
    model: &str,
    at: &mut JsonPath,
) -> Option<String> {
    match (ours, theirs) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                at.push(k);
                match b.get(k) {
                    None => return Some(format!("{model}'s model has no place for this member")),
                    Some(w) => {
                        if let Some(m) = first_difference(v, w, model, at) {
                            return Some(m);
                        }
                    }
                }
                at.pop();
            }
            let added = b.iter().find(|(k, _)| !a.contains_key(k.as_str()))?;
            at.push(added.0);
            Some(format!("{model}'s model adds this member ({})", added.1))
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (v, w)) in a.iter().zip(b).enumerate() {
                at.push_index(i);
                if let Some(m) = first_difference(v, w, model, at) {
                    return Some(m);
                }
                at.pop();
            }
            None
        }
        (a, b) if a == b => None,
        (a, b) => Some(format!("{model}'s model gives {b} back for {a}")),
    }
}

#[cfg(test)]
mod tests {
    use super::{JsonPath, Value, first_difference, pointer_at};
    use serde_json::json;

    /// The pointer serde_json's error position falls on, for errors of each kind.
    fn at<T: serde::de::DeserializeOwned + std::fmt::Debug>(text: &str) -> String {
        let e = serde_json::from_str::<T>(text).unwrap_err();
        pointer_at(text, e.column())
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Inner {
        n: u8,
        s: String,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Outer {
        #[serde(rename = "a/b")]
        ab: Vec<Inner>,
    }

    #[test]
    fn pointers_name_the_value_where_decoding_stopped() {
        // A wrong value: its own member.
        assert_eq!(
            at::<Outer>(r#"{"a/b":[{"n":1,"s":"x"},{"n":"y","s":"z"}]}"#),
            "/a~1b/1/n"
        );
        // A missing member: the object that lacks it.
        assert_eq!(
            at::<Outer>(r#"{"a/b":[{"n":1,"s":"x"},{"n":2}]}"#),
            "/a~1b/1"
        );
        assert_eq!(at::<Outer>(r#"{}"#), "");
        // Escaped keys and strings are read whole.
        assert_eq!(
            at::<Outer>(r#"{"x\"y":"\"}","a/b":[{"s":"q\\","n":300}]}"#),
            "/a~1b/0/n"
        );
    }

    fn difference(a: Value, b: Value) -> Option<(String, String)> {
        let mut at = JsonPath::default();
        first_difference(&a, &b, "rmcp", &mut at).map(|m| (at.as_str().to_owned(), m))
    }

    #[test]
    fn differences_from_another_model_are_named_by_pointer() {
        assert_eq!(
            difference(json!({"a": [1, {"b": 2}]}), json!({"a": [1, {"b": 2}]})),
            None
        );
        // Member order is not a difference.
        assert_eq!(
            difference(json!({"a": 1, "b": 2}), json!({"b": 2, "a": 1})),
            None
        );
        assert_eq!(
            difference(json!({"a": [1, {"b/c": 2}]}), json!({"a": [1, {}]})),
            Some((
                "/a/1/b~1c".into(),
                "rmcp's model has no place for this member".into()
            ))
        );
        assert_eq!(
            difference(json!({"m": "x"}), json!({"m": "x", "mode": "form"})),
            Some((
                "/mode".into(),
                "rmcp's model adds this member (\"form\")".into()
            ))
        );
        // Integers stay integers.
        assert_eq!(
            difference(json!({"n": 50}), json!({"n": 50.0})),
            Some(("/n".into(), "rmcp's model gives 50.0 back for 50".into()))
        );
        assert_eq!(
            difference(json!({"l": [1]}), json!({"l": [1, 2]})),
            Some(("/l".into(), "rmcp's model gives [1,2] back for [1]".into()))
        );
    }
}
