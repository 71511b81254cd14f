//! Stage 1: read a `schema.json` and give typed access to its definitions.
//!
//! Both dialects the official files use are accepted: draft-07 (`definitions`,
//! `#/definitions/X`) and 2020-12 (`$defs`, `#/$defs/X`).

pub mod errata;
pub mod ts;

use serde_json::{Map, Value};

use crate::error::{Error, Result};

/// The JSON Schema dialect of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// `http://json-schema.org/draft-07/schema#`, definitions under `definitions`.
    Draft07,
    /// `https://json-schema.org/draft/2020-12/schema`, definitions under `$defs`.
    Draft202012,
}

impl Dialect {
    /// The member that holds the definitions.
    pub fn defs_key(self) -> &'static str {
        match self {
            Dialect::Draft07 => "definitions",
            Dialect::Draft202012 => "$defs",
        }
    }
}

/// A loaded schema document.
#[derive(Debug, Clone)]
pub struct SchemaDoc {
    dialect: Dialect,
    definitions: Map<String, Value>,
}

impl SchemaDoc {
    /// Parses schema text; `origin` names it in errors.
    pub fn from_str(text: &str, origin: &str) -> Result<Self> {
        Self::from_value(parse(text, origin)?)
    }

    /// Wraps a parsed schema document.
    pub fn from_value(value: Value) -> Result<Self> {
        let Value::Object(mut root) = value else {
            return Err(Error::schema(
                "#",
                "a schema document must be a JSON object",
            ));
        };
        let declared = match root.get("$schema") {
            None => None,
            Some(Value::String(s)) => Some(s.as_str()),
            Some(_) => return Err(Error::schema("#/$schema", "must be a string")),
        };
        let dialect = match declared {
            Some(s) if s.contains("draft-07") => Dialect::Draft07,
            Some(s) if s.contains("2020-12") => Dialect::Draft202012,
            Some(s) => {
                return Err(Error::schema(
                    "#/$schema",
                    format!("unsupported JSON Schema dialect {s:?} (supported: draft-07, 2020-12)"),
                ));
            }
            // Without `$schema`, the member present decides.
            None if root.contains_key("$defs") => Dialect::Draft202012,
            None => Dialect::Draft07,
        };
        let key = dialect.defs_key();
        let other = match dialect {
            Dialect::Draft07 => "$defs",
            Dialect::Draft202012 => "definitions",
        };
        if root.contains_key(other) {
            return Err(Error::schema(
                format!("#/{other}"),
                format!(
                    "this {dialect:?} document keeps its definitions under `{key}`, not `{other}`"
                ),
            ));
        }
        let definitions = match root.remove(key) {
            Some(Value::Object(m)) => m,
            Some(_) => return Err(Error::schema(format!("#/{key}"), "must be an object")),
            None => {
                return Err(Error::schema(
                    "#",
                    format!("no `{key}`: an MCP schema declares its types as definitions"),
                ));
            }
        };
        Ok(SchemaDoc {
            dialect,
            definitions,
        })
    }

    /// The dialect.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Definitions in file order.
    pub fn definitions(&self) -> &Map<String, Value> {
        &self.definitions
    }

    /// The pointer of a definition, e.g. `#/$defs/Tool`.
    pub fn def_pointer(&self, name: &str) -> String {
        format!("#/{}/{}", self.dialect.defs_key(), escape_pointer(name))
    }

    /// Resolves a `$ref` (only local references to definitions are supported) to the
    /// definition's name. `at` is the pointer of the node holding the `$ref`.
    pub fn resolve_ref<'a>(&self, reference: &'a str, at: &str) -> Result<&'a str> {
        let prefix = format!("#/{}/", self.dialect.defs_key());
        let Some(name) = reference.strip_prefix(&prefix) else {
            return Err(Error::schema(
                at,
                format!(
                    "unsupported $ref {reference:?}: only local references of the form {prefix}<Name> are supported"
                ),
            ));
        };
        if name.contains('/') || name.contains('~') {
            return Err(Error::schema(
                at,
                format!("unsupported $ref {reference:?}: nested pointers are not supported"),
            ));
        }
        if !self.definitions.contains_key(name) {
            return Err(Error::schema(
                at,
                format!("$ref {reference:?} names no definition"),
            ));
        }
        Ok(name)
    }
}

/// Parses schema text as JSON; `origin` names it in errors.
pub fn parse(text: &str, origin: &str) -> Result<Value> {
    serde_json::from_str(text).map_err(|source| Error::Json {
        origin: origin.to_owned(),
        source,
    })
}

/// Escapes one JSON-pointer token (RFC 6901).
pub fn escape_pointer(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// A JSON Pointer token as the name it escapes (RFC 6901): `~1` is `/`, `~0` is `~`.
pub fn unescape_pointer(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_dialects_and_rejects_mixed_members() {
        let d7 = SchemaDoc::from_str(
            r#"{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"A":{}}}"#,
            "t",
        )
        .unwrap();
        assert_eq!(d7.dialect(), Dialect::Draft07);
        assert_eq!(d7.def_pointer("A"), "#/definitions/A");
        let d20 = SchemaDoc::from_str(r#"{"$defs":{"A":{}}}"#, "t").unwrap();
        assert_eq!(d20.dialect(), Dialect::Draft202012);
        let err = SchemaDoc::from_str(r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","definitions":{}, "$defs":{}}"#, "t").unwrap_err();
        assert_eq!(
            err.to_string(),
            "#/definitions: this Draft202012 document keeps its definitions under `$defs`, not `definitions`"
        );
    }

    #[test]
    fn resolve_ref_names_the_pointer() {
        let d = SchemaDoc::from_str(r#"{"$defs":{"A":{}}}"#, "t").unwrap();
        assert_eq!(d.resolve_ref("#/$defs/A", "#/x").unwrap(), "A");
        let e = d
            .resolve_ref("#/$defs/B", "#/$defs/A/properties/b")
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "#/$defs/A/properties/b: $ref \"#/$defs/B\" names no definition"
        );
        let e = d.resolve_ref("other.json#/A", "#/x").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("#/x: unsupported $ref \"other.json#/A\""),
            "{e}"
        );
    }

    #[test]
    fn invalid_json_names_origin() {
        let e = SchemaDoc::from_str("{", "schema/x.json").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("schema/x.json: invalid JSON: EOF"),
            "{e}"
        );
    }
}
