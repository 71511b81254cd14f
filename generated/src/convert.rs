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
//! # #[cfg(all(feature = "v2025_06_18", feature = "v2025_11_25"))] {
//! use mcp_types::{convert, v2025_06_18 as old, v2025_11_25 as new};
//! let tool: new::Tool = serde_json::from_str(
//!     r#"{"name":"book","inputSchema":{"type":"object"},"icons":[{"src":"https://a.example/i.png"}]}"#,
//! ).unwrap();
//! let down = convert::downgrade::<old::Tool>(&tool).unwrap();
//! assert_eq!(down.dropped, ["/icons"]);
//! let back: new::Tool = convert::upgrade(&down.value).unwrap();
//! assert_eq!(back.name, "book");
//! # }
//! ```

use std::collections::HashSet;
use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::runtime::{JsonPath, UnknownKind, Unknowns};

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

/// `value` (of an older revision's type) as `T`, a newer revision's type.
pub fn upgrade<T: DeserializeOwned>(value: &impl Serialize) -> Result<T, ConversionError> {
    decode(encode(value)?)
}

/// `value` (of a newer revision's type) as `T`, an older revision's type, without what `T`'s
/// revision does not define. Members the source revision did not define either (kept
/// unknowns, vendor extensions) stay.
pub fn downgrade<T>(value: &(impl Serialize + Unknowns)) -> Result<Downgraded<T>, ConversionError>
where
    T: DeserializeOwned + Unknowns,
{
    let already: HashSet<String> = value.unknowns().into_iter().map(|u| u.pointer).collect();
    let mut json = encode(value)?;
    let first: T = decode(json.clone())?;
    let mut dropped = Vec::new();
    for u in first.unknowns() {
        if already.contains(&u.pointer) {
            continue;
        }
        match u.kind {
            UnknownKind::Member => {
                remove(&mut json, &u.pointer);
                dropped.push(u.pointer);
            }
            UnknownKind::Method { method, .. } => {
                return Err(ConversionError {
                    message: format!(
                        "method `{}` is not one the target revision defines",
                        method.unwrap_or_default()
                    ),
                    pointer: u.pointer,
                });
            }
            kind => {
                return Err(ConversionError {
                    message: format!("{kind} in the target revision"),
                    pointer: u.pointer,
                });
            }
        }
    }
    if dropped.is_empty() {
        return Ok(Downgraded {
            value: first,
            dropped,
        });
    }
    Ok(Downgraded {
        value: decode(json)?,
        dropped,
    })
}

fn encode(value: &impl Serialize) -> Result<Value, ConversionError> {
    serde_json::to_value(value).map_err(|e| ConversionError {
        pointer: String::new(),
        message: e.to_string(),
    })
}

fn decode<T: DeserializeOwned>(json: Value) -> Result<T, ConversionError> {
    serde_path_to_error::deserialize(json).map_err(|e| {
        let mut at = JsonPath::default();
        for segment in e.path().iter() {
            match segment {
                serde_path_to_error::Segment::Seq { index } => at.push_index(*index),
                serde_path_to_error::Segment::Map { key } => at.push(key),
                serde_path_to_error::Segment::Enum { variant } => at.push(variant),
                serde_path_to_error::Segment::Unknown => {}
            }
        }
        ConversionError {
            pointer: at.as_str().to_owned(),
            message: e.into_inner().to_string(),
        }
    })
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
