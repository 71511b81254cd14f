//! Reading a saved `tools/list` answer.
//!
//! Accepted shapes, so that a file saved by any client works: a `tools/list` result
//! (`{"tools": [...]}`, what `mcp-typed-codegen tools --save` writes), a whole JSON-RPC response
//! (`{"jsonrpc": "2.0", "id": 1, "result": {"tools": [...]}}`), or the bare array of tools.
//! Only what the bindings need is read from each tool (`name`, `title`, `description`,
//! `annotations.title`, `inputSchema`, `outputSchema`), so every revision's tools load.

use serde_json::Value;

use crate::error::{Error, Result};

/// One tool of a server's list, as the bindings need it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDef {
    /// The name the server calls it by.
    pub name: String,
    /// Its display title (`title`, else `annotations.title`).
    pub title: Option<String>,
    /// Its description.
    pub description: Option<String>,
    /// The JSON Schema of its arguments.
    pub input_schema: Value,
    /// The JSON Schema of its `structuredContent`, when it declares one.
    pub output_schema: Option<Value>,
    /// JSON pointer of the tool in the file (`/tools/3`), for messages.
    pub pointer: String,
}

/// Parses the text of a saved tool list; `origin` names it in errors.
pub fn parse_tool_list(text: &str, origin: &str) -> Result<Vec<ToolDef>> {
    let json: Value = serde_json::from_str(text).map_err(|source| Error::Json {
        origin: origin.to_owned(),
        source,
    })?;
    tools_of(&json, origin)
}

/// The tools of a parsed tool list (see the module docs for the shapes accepted).
pub fn tools_of(json: &Value, origin: &str) -> Result<Vec<ToolDef>> {
    let (tools, base) = match json {
        Value::Array(tools) => (tools, String::new()),
        Value::Object(o) => match (o.get("tools"), o.get("result")) {
            (Some(Value::Array(tools)), _) => (tools, "/tools".to_owned()),
            (None, Some(Value::Object(r))) => match r.get("tools") {
                Some(Value::Array(tools)) => (tools, "/result/tools".to_owned()),
                _ => return Err(at(origin, "/result/tools", "expected an array of tools")),
            },
            (None, Some(_)) => return Err(at(origin, "/result", "expected a tools/list result")),
            (Some(_), _) => return Err(at(origin, "/tools", "expected an array of tools")),
            (None, None) => {
                return Err(at(
                    origin,
                    "",
                    "expected a tools/list result ({\"tools\": [...]}), a JSON-RPC response holding one, or an array of tools",
                ));
            }
        },
        _ => return Err(at(origin, "", "expected an object or an array of tools")),
    };
    let mut defs = Vec::with_capacity(tools.len());
    for (i, tool) in tools.iter().enumerate() {
        let pointer = format!("{base}/{i}");
        let Value::Object(t) = tool else {
            return Err(at(origin, &pointer, "expected a tool object"));
        };
        let name = match t.get("name") {
            Some(Value::String(n)) if !n.is_empty() => n.clone(),
            _ => {
                return Err(at(
                    origin,
                    &format!("{pointer}/name"),
                    "expected a non-empty string",
                ));
            }
        };
        let string = |key: &str| -> Result<Option<String>> {
            match t.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(at(origin, &format!("{pointer}/{key}"), "expected a string")),
            }
        };
        let annotated_title = t
            .get("annotations")
            .and_then(|a| a.get("title"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let schema = |key: &str| -> Result<Option<Value>> {
            match t.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(s @ (Value::Object(_) | Value::Bool(_))) => Ok(Some(s.clone())),
                Some(_) => Err(at(
                    origin,
                    &format!("{pointer}/{key}"),
                    "expected a JSON Schema (an object)",
                )),
            }
        };
        let input_schema = schema("inputSchema")?.ok_or_else(|| {
            at(
                origin,
                &format!("{pointer}/inputSchema"),
                "missing: every tool has one",
            )
        })?;
        defs.push(ToolDef {
            title: string("title")?.or(annotated_title),
            description: string("description")?,
            output_schema: schema("outputSchema")?,
            input_schema,
            name,
            pointer,
        });
    }
    Ok(defs)
}

fn at(origin: &str, pointer: &str, message: &str) -> Error {
    Error::schema(format!("{origin}#{pointer}"), message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_saved_shape_loads() {
        let tool = json!({"name": "add", "inputSchema": {"type": "object"}, "annotations": {"title": "Add"}});
        for doc in [
            json!({"tools": [tool]}),
            json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [tool]}}),
            json!([tool]),
        ] {
            let defs = tools_of(&doc, "f.json").unwrap();
            assert_eq!(defs.len(), 1);
            assert_eq!(defs[0].name, "add");
            assert_eq!(defs[0].title.as_deref(), Some("Add"));
        }
    }

    #[test]
    fn errors_name_the_pointer() {
        let e = tools_of(
            &json!({"tools": [{"name": "a", "inputSchema": {}}, {"name": "b"}]}),
            "f.json",
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "f.json#/tools/1/inputSchema: missing: every tool has one"
        );
        let e = tools_of(&json!({"tools": [{"name": 3}]}), "f.json").unwrap_err();
        assert_eq!(
            e.to_string(),
            "f.json#/tools/0/name: expected a non-empty string"
        );
        let e = parse_tool_list("{\n  \"tools\": [,]\n}", "f.json").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("f.json: invalid JSON: expected value at line 2"),
            "{e}"
        );
    }
}
