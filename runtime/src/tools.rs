//! Support for the typed tool bindings `mcp-typed-codegen tools` writes: turning a tool's typed
//! arguments into a `tools/call` request's `arguments`, and reading a result's
//! `structuredContent` into the tool's output type, with errors that name the tool and the
//! JSON path of the offending value.

use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::JsonObject;
use crate::json::without_position;

/// Why a `tools/call` result could not be read as a tool's typed output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutputError {
    /// The tool's name, as the server lists it.
    pub tool: String,
    /// What went wrong.
    pub kind: ToolOutputErrorKind,
}

/// The kinds of [`ToolOutputError`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ToolOutputErrorKind {
    /// The result has `isError: true`: the tool failed, and says why in `text` (its text
    /// content blocks, joined by newlines).
    ToolFailed {
        /// The text the tool returned.
        text: String,
    },
    /// The result has no `structuredContent`.
    MissingStructuredContent,
    /// `structuredContent` does not match the tool's output type.
    Invalid {
        /// The JSON path of the offending value inside `structuredContent` (`.` for the
        /// whole value, else e.g. `items[2].price`).
        path: String,
        /// What does not match.
        message: String,
    },
}

impl fmt::Display for ToolOutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tool = &self.tool;
        match &self.kind {
            ToolOutputErrorKind::ToolFailed { text } => {
                write!(f, "tool {tool:?} failed (isError): {text}")
            }
            ToolOutputErrorKind::MissingStructuredContent => {
                write!(f, "tool {tool:?}: the result has no structuredContent")
            }
            ToolOutputErrorKind::Invalid { path, message } => {
                write!(f, "tool {tool:?}: structuredContent at {path}: {message}")
            }
        }
    }
}

impl std::error::Error for ToolOutputError {}

/// A tool's arguments as the `arguments` object of a `tools/call` request.
///
/// `args` is a generated arguments type, which serializes to a JSON object by construction
/// (an object schema becomes a struct or a map).
///
/// # Panics
/// If `args` does not serialize to a JSON object, which no generated arguments type does.
pub fn arguments<T: Serialize>(tool: &str, args: &T) -> Map<String, Value> {
    match serde_json::to_value(args) {
        Ok(Value::Object(map)) => map,
        Ok(other) => panic!(
            "the arguments of tool {tool:?} serialize to {other}, not to a JSON object; generated arguments types always do"
        ),
        Err(e) => panic!("the arguments of tool {tool:?} do not serialize: {e}"),
    }
}

/// Reads a `tools/call` result's `structuredContent` as `T`: the tool's failure when
/// `is_error` is set (with `text`, its text content), a missing-content error when there is
/// none, else the value decoded with the path of the first mismatch.
pub fn structured_output<T: DeserializeOwned>(
    tool: &str,
    is_error: bool,
    text: impl FnOnce() -> String,
    structured_content: Option<&Value>,
) -> Result<T, ToolOutputError> {
    let error = |kind| ToolOutputError {
        tool: tool.to_owned(),
        kind,
    };
    if is_error {
        return Err(error(ToolOutputErrorKind::ToolFailed { text: text() }));
    }
    let content =
        structured_content.ok_or_else(|| error(ToolOutputErrorKind::MissingStructuredContent))?;
    serde_path_to_error::deserialize(content).map_err(|e| {
        error(ToolOutputErrorKind::Invalid {
            path: e.path().to_string(),
            message: e.into_inner().to_string(),
        })
    })
}

/// Why a tool's `arguments` did not decode as the type a server reads them into
/// (`CallToolRequestParams::arguments_as`): the tool, the path of the argument at fault
/// (`date`, `guests[1].name`; `.` for the arguments as a whole) and serde's message. A server
/// answers it with a failed tool result (`CallToolResult::error(e.to_string())`), which the
/// model reads, or a JSON-RPC `INVALID_PARAMS` error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgumentsError {
    /// The tool's name.
    pub tool: String,
    /// Where in the arguments, as serde_path_to_error writes it.
    pub path: String,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for ArgumentsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tool {:?}: arguments at {}: {}",
            self.tool, self.path, self.message
        )
    }
}

impl std::error::Error for ArgumentsError {}

/// `arguments` decoded as `T`, absent arguments as `{}`; called by the generated
/// `CallToolRequestParams::arguments_as`. Arguments kept as their text (as decoded) are
/// decoded from it, without building their map.
pub fn arguments_as<T: DeserializeOwned>(
    tool: &str,
    arguments: Option<&JsonObject>,
) -> Result<T, ArgumentsError> {
    let error = |path: String, message: String| ArgumentsError {
        tool: tool.to_owned(),
        path,
        message,
    };
    match arguments.and_then(JsonObject::kept_text) {
        Some(text) => {
            let mut d = serde_json::Deserializer::from_str(text);
            serde_path_to_error::deserialize(&mut d)
                .map_err(|e| error(e.path().to_string(), without_position(e.inner())))
        }
        None => {
            let value = Value::Object(arguments.map(JsonObject::to_map).unwrap_or_default());
            serde_path_to_error::deserialize(&value)
                .map_err(|e| error(e.path().to_string(), e.into_inner().to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Out {
        items: Vec<Item>,
    }
    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Item {
        price: f64,
    }

    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Booking {
        date: String,
        #[serde(default)]
        guests: Vec<Guest>,
    }
    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Guest {
        name: String,
    }

    #[test]
    fn arguments_decode_or_name_the_path() {
        let text = r#"{"date": "2026-12-24", "guests": [{"name": "Ana"}, {"name": 7}]}"#;
        // Kept as text (decoded), and built as a map: the same error either way.
        let decoded = JsonObject::from_text(text).unwrap();
        let built = JsonObject::from(decoded.to_map());
        for args in [&decoded, &built] {
            let e = arguments_as::<Booking>("book", Some(args)).unwrap_err();
            assert_eq!(
                (e.tool.as_str(), e.path.as_str()),
                ("book", "guests[1].name")
            );
            assert_eq!(
                e.to_string(),
                "tool \"book\": arguments at guests[1].name: invalid type: integer `7`, expected a string"
            );
        }
        let e = arguments_as::<Booking>("book", None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "tool \"book\": arguments at .: missing field `date`"
        );
        let args = JsonObject::from_text(r#"{"date":"d"}"#).unwrap();
        let ok = arguments_as::<Booking>("book", Some(&args)).unwrap();
        assert_eq!(
            ok,
            Booking {
                date: "d".into(),
                guests: vec![]
            }
        );
    }

    #[test]
    fn errors_name_the_tool_and_the_path() {
        let v = json!({"items": [{"price": 1.0}, {"price": "free"}]});
        let e = structured_output::<Out>("shop", false, String::new, Some(&v)).unwrap_err();
        assert_eq!(e.tool, "shop");
        let ToolOutputErrorKind::Invalid { path, .. } = &e.kind else {
            panic!("{e}")
        };
        assert_eq!(path, "items[1].price");
        assert!(
            e.to_string().starts_with(
                "tool \"shop\": structuredContent at items[1].price: invalid type: string \"free\""
            ),
            "{e}"
        );
        let failed = structured_output::<Out>("shop", true, || "boom".into(), Some(&v));
        assert_eq!(
            failed.unwrap_err().to_string(),
            "tool \"shop\" failed (isError): boom"
        );
        let missing = structured_output::<Out>("shop", false, String::new, None);
        assert_eq!(
            missing.unwrap_err().kind,
            ToolOutputErrorKind::MissingStructuredContent
        );
        let ok = structured_output::<Out>("shop", false, String::new, Some(&json!({"items": []})));
        assert_eq!(ok.unwrap(), Out { items: vec![] });
    }
}
