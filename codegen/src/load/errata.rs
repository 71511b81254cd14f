//! Errata: deliberate, reviewable deviations from the official schema files.
//!
//! The list lives in the project's `schema/errata.json` and is built into the generator
//! ([`Errata::builtin`]). Each erratum names the revisions it is for, why it exists and the
//! evidence, and carries patches: "at this JSON pointer, where the file holds exactly
//! `expect`, put `value`". Matching on the expected value (rather than on a revision name)
//! means the same list serves a schema handed over by path or as text, and an erratum that
//! upstream fixes simply stops applying.

use serde::Deserialize;
use serde_json::Value;

use crate::error::{Error, Result};

/// The errata file of this project (`schema/errata.json`, reached through the symlink
/// `codegen/data/errata.json` so that the packaged crate carries it), built into the generator.
pub const BUILTIN: &str = include_str!("../../data/errata.json");

/// A list of errata.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Errata {
    /// A note for readers of the file.
    #[serde(rename = "$comment", default)]
    pub comment: Option<String>,
    /// The entries, applied in order.
    pub errata: Vec<Erratum>,
}

/// One deliberate deviation from the official schema.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Erratum {
    /// A short stable name (`elicit-content-numbers`).
    pub id: String,
    /// One line saying what changes.
    pub summary: String,
    /// The official revisions whose file it changes.
    pub revisions: Vec<String>,
    /// Why the official file is not followed to the letter.
    pub reason: String,
    /// What shows the deviation is needed (SDK behaviour, official examples, specifications).
    pub evidence: Vec<String>,
    /// The changes.
    pub patches: Vec<Patch>,
}

/// One change: replace the value at `pointer` when it equals `expect`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Patch {
    /// `#/…` JSON pointer into the schema document.
    pub pointer: String,
    /// The value the official file holds there.
    pub expect: Value,
    /// The value put in its place.
    pub value: Value,
}

/// An erratum that changed a document, with the pointers it changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The erratum's id.
    pub id: String,
    /// Its summary.
    pub summary: String,
    /// The pointers patched.
    pub pointers: Vec<String>,
}

impl Errata {
    /// The project's list (`schema/errata.json`).
    pub fn builtin() -> Errata {
        // The file is checked by a unit test; a broken edit fails there, not here.
        Errata::parse(BUILTIN, "schema/errata.json").unwrap_or_else(|e| panic!("{e}"))
    }

    /// Parses an errata file; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Errata> {
        let errata: Errata = serde_json::from_str(text).map_err(|source| Error::Json {
            origin: origin.to_owned(),
            source,
        })?;
        for e in &errata.errata {
            for p in &e.patches {
                if !p.pointer.starts_with("#/") {
                    return Err(Error::Config(format!(
                        "{origin}: erratum {}: pointer {:?} must start with `#/`",
                        e.id, p.pointer
                    )));
                }
            }
        }
        Ok(errata)
    }

    /// Applies every patch whose expected value is found; returns what changed, in list
    /// order.
    pub fn apply(&self, doc: &mut Value) -> Vec<Applied> {
        let mut applied = Vec::new();
        for e in &self.errata {
            let pointers: Vec<String> = e
                .patches
                .iter()
                .filter(|p| {
                    let at = &p.pointer[1..];
                    match doc.pointer_mut(at) {
                        Some(v) if *v == p.expect => {
                            *v = p.value.clone();
                            true
                        }
                        _ => false,
                    }
                })
                .map(|p| p.pointer.clone())
                .collect();
            if !pointers.is_empty() {
                applied.push(Applied {
                    id: e.id.clone(),
                    summary: e.summary.clone(),
                    pointers,
                });
            }
        }
        applied
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn builtin_list_parses_and_every_entry_is_complete() {
        let errata = Errata::parse(BUILTIN, "schema/errata.json").unwrap();
        assert!(!errata.errata.is_empty());
        for e in &errata.errata {
            assert!(!e.revisions.is_empty(), "{}: no revisions", e.id);
            assert!(!e.evidence.is_empty(), "{}: no evidence", e.id);
            assert!(!e.patches.is_empty(), "{}: no patches", e.id);
            for r in &e.revisions {
                crate::registry::Registry::builtin().get(r).unwrap();
            }
        }
    }

    #[test]
    fn patch_applies_only_where_the_expected_value_is() {
        let errata = Errata::parse(
            r##"{"errata":[{"id":"x","summary":"s","revisions":["draft"],"reason":"r","evidence":["e"],
                "patches":[{"pointer":"#/$defs/A/type","expect":"integer","value":"number"},
                           {"pointer":"#/$defs/B/type","expect":"integer","value":"number"},
                           {"pointer":"#/$defs/Missing/type","expect":"integer","value":"number"}]}]}"##,
            "test",
        )
        .unwrap();
        let mut doc = json!({"$defs": {"A": {"type": "integer"}, "B": {"type": "string"}}});
        let applied = errata.apply(&mut doc);
        assert_eq!(
            doc,
            json!({"$defs": {"A": {"type": "number"}, "B": {"type": "string"}}})
        );
        assert_eq!(applied.len(), 1);
        assert_eq!(applied[0].pointers, ["#/$defs/A/type"]);
        // Applying again changes nothing: the expected value is gone.
        assert!(errata.apply(&mut doc).is_empty());
    }

    #[test]
    fn errors_inside_a_patched_value_name_the_patched_node() {
        // A cut-out document without `RequestId`: the erratum's `anyOf` holds the dangling
        // `$ref`, and the error names the node the document has.
        let doc = r##"{"definitions": {"JSONRPCError": {"type": "object",
            "properties": {"id": {"$ref": "#/definitions/RequestId"}, "error": {"type": "object"}},
            "required": ["id", "error"]}}}"##;
        let e = crate::Builder::new()
            .schema_json(doc)
            .generate()
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "#/definitions/JSONRPCError/properties/id: $ref \"#/definitions/RequestId\" names no \
             definition (at \"/anyOf/0\" inside the value erratum jsonrpc-error-id-null puts here)"
        );
        let e = crate::Builder::new()
            .schema_json(doc)
            .errata(false)
            .generate()
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "#/definitions/JSONRPCError/properties/id: $ref \"#/definitions/RequestId\" names no definition"
        );
    }

    #[test]
    fn bad_pointer_and_unknown_keys_are_errors() {
        let e = Errata::parse(
            r#"{"errata":[{"id":"x","summary":"s","revisions":[],"reason":"r","evidence":[],
                "patches":[{"pointer":"/a","expect":1,"value":2}]}]}"#,
            "f.json",
        )
        .unwrap_err();
        assert!(e.to_string().contains("must start with `#/`"), "{e}");
        let e = Errata::parse(r#"{"errata":[], "extra": 1}"#, "f.json").unwrap_err();
        assert!(e.to_string().contains("unknown field"), "{e}");
    }
}
