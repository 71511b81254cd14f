//! Stage 1: read a `schema.json` and give typed access to its definitions.
//!
//! Both dialects the official files use are accepted: draft-07 (`definitions`,
//! `#/definitions/X`) and 2020-12 (`$defs`, `#/$defs/X`).
//!
//! [`SchemaDoc::load`] also applies the project's deviations from the official text, as typed
//! [`Step`]s the document keeps a record of (and the model after it,
//! [`Module::applied`](crate::ir::Module::applied)): the errata ([`errata`]), then the member
//! order its `schema.ts` declares ([`ts`]).

pub mod errata;
pub mod ts;

use serde_json::{Map, Value};

use crate::error::{Error, Result};

/// A change the loader made to the official document, in the order it made them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// An erratum whose expected values the document held: its id, summary and the pointers
    /// it patched.
    Erratum(errata::Applied),
    /// The members of objects put in the order a `schema.ts` declares them.
    DeclarationOrder {
        /// The sha256 of the `schema.ts` read.
        sha256: String,
        /// How many objects changed order.
        reordered: usize,
    },
}

/// The steps [`SchemaDoc::load`] applies, in this order; none by default.
#[derive(Debug, Clone, Copy, Default)]
pub struct Steps<'a> {
    /// The errata to apply (each where the document holds its expected values).
    pub errata: Option<&'a errata::Errata>,
    /// The declaration order to put members in, with the sha256 of the `schema.ts` it was
    /// read from.
    pub order: Option<(&'a ts::Order, &'a str)>,
}

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
    applied: Vec<Step>,
}

impl SchemaDoc {
    /// Parses schema text (`origin` names it in errors) and applies `steps` to it, recording
    /// what each changed ([`SchemaDoc::applied`]).
    pub fn load(text: &str, origin: &str, steps: Steps<'_>) -> Result<Self> {
        let mut json = parse(text, origin)?;
        let mut applied: Vec<Step> = match steps.errata {
            Some(errata) => errata
                .apply(&mut json)
                .into_iter()
                .map(Step::Erratum)
                .collect(),
            None => Vec::new(),
        };
        if let Some((order, sha256)) = steps.order {
            // Whichever of the two dialects' keys the document uses.
            let reordered = ["$defs", "definitions"]
                .iter()
                .map(|key| order.apply(&mut json, key))
                .sum();
            applied.push(Step::DeclarationOrder {
                sha256: sha256.to_owned(),
                reordered,
            });
        }
        let mut doc = Self::from_value(json)?;
        doc.applied = applied;
        Ok(doc)
    }

    /// What the loader changed in the official text, in order (empty for a document read
    /// as it is).
    pub fn applied(&self) -> &[Step] {
        &self.applied
    }

    /// The errata among [`SchemaDoc::applied`].
    pub fn errata_applied(&self) -> impl Iterator<Item = &errata::Applied> {
        self.applied.iter().filter_map(|s| match s {
            Step::Erratum(a) => Some(a),
            Step::DeclarationOrder { .. } => None,
        })
    }

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
            applied: Vec::new(),
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
    fn load_records_each_step_it_applies() {
        let errata = errata::Errata::parse(
            r##"{"errata":[{"id":"x","summary":"s","revisions":["draft"],"reason":"r","evidence":["e"],
                "patches":[{"pointer":"#/$defs/A/properties/n/type","expect":"integer","value":"number"}]}]}"##,
            "test",
        )
        .unwrap();
        let order =
            ts::Order::parse("export interface A { z: string; n: number; }", "a.ts").unwrap();
        let text = r#"{"$defs":{"A":{"type":"object","properties":{"n":{"type":"integer"},"z":{"type":"string"}}}}}"#;
        let doc = SchemaDoc::load(
            text,
            "t",
            Steps {
                errata: Some(&errata),
                order: Some((&order, "abc")),
            },
        )
        .unwrap();
        assert_eq!(
            doc.applied(),
            [
                Step::Erratum(errata::Applied {
                    id: "x".into(),
                    summary: "s".into(),
                    pointers: vec!["#/$defs/A/properties/n/type".into()],
                }),
                Step::DeclarationOrder {
                    sha256: "abc".into(),
                    reordered: 1,
                },
            ]
        );
        let members: Vec<&String> = doc.definitions()["A"]["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(members, ["z", "n"]);
        assert_eq!(doc.definitions()["A"]["properties"]["n"]["type"], "number");
        // Read as it is: nothing applied, nothing recorded.
        let plain = SchemaDoc::load(text, "t", Steps::default()).unwrap();
        assert!(plain.applied().is_empty());
        let model = crate::ir::lower(&doc).unwrap();
        assert_eq!(model.applied, doc.applied());
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
