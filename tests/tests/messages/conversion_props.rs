//! The generated conversions between adjacent revisions, as properties over schema-valid
//! instances of every definition two adjacent revisions share:
//!
//! - **upgrade**: the value decodes in the newer revision (always, where the conversion is a
//!   `From`), and what it encodes to validates against the newer official definition;
//! - **upgrade then downgrade** gives back the original, with nothing dropped;
//! - **downgrade** of the newer revision's instances drops exactly the members it lists: the
//!   original without them is what the downgraded value encodes to.
//!
//! Each step decodes through the revision's `with_definition`, which is what the generated
//! impls do (`mcp_typed::convert` goes through the value's JSON).

use std::collections::HashSet;

use mcp_tests::arbitrary_json::SchemaStrategies;
use mcp_typed::{DefinitionVisitor, Unknowns};
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::Value;

/// Cases per definition and direction (`PROPTEST_CASES` overrides).
const CASES: u32 = 8;

/// A decoded and re-encoded value, with the pointers of what it holds that its revision does
/// not define.
struct Decode(Value);

impl DefinitionVisitor for Decode {
    type Output = Result<(Value, HashSet<(String, bool)>), String>;
    fn visit<T>(self, _: &'static str) -> Self::Output
    where
        T: serde::Serialize
            + serde::de::DeserializeOwned
            + std::fmt::Debug
            + Clone
            + PartialEq
            + Unknowns
            + 'static,
    {
        let t: T = serde_json::from_value(self.0).map_err(|e| e.to_string())?;
        let unknown = t
            .unknowns()
            .into_iter()
            .map(|u| (u.pointer, u.kind == mcp_typed::UnknownKind::Member))
            .collect();
        Ok((serde_json::to_value(&t).unwrap(), unknown))
    }
}

/// The value decoded as `def` of `revision` and encoded again, and what it holds beyond the
/// revision: `(pointer, is a member)`.
fn decode(
    revision: &str,
    def: &str,
    value: Value,
) -> Result<(Value, HashSet<(String, bool)>), String> {
    let v = Decode(value);
    match revision {
        "2024-11-05" => mcp_typed::v2024_11_05::with_definition(def, v),
        "2025-03-26" => mcp_typed::v2025_03_26::with_definition(def, v),
        "2025-06-18" => mcp_typed::v2025_06_18::with_definition(def, v),
        "2025-11-25" => mcp_typed::v2025_11_25::with_definition(def, v),
        "2026-07-28" => mcp_typed::v2026_07_28::with_definition(def, v),
        _ => None,
    }
    .expect("the definition exists")
}

/// The bridge `convert::downgrade` applies: an error response without an `id` (2025-11-25
/// on) gets `"id": null`, which older revisions require.
fn id_for_older_errors(value: &Value) -> Value {
    let mut value = value.clone();
    if let Value::Object(m) = &mut value
        && m.contains_key("error")
        && m.get("jsonrpc").is_some()
        && !m.contains_key("id")
    {
        m.insert("id".into(), Value::Null);
    }
    value
}

fn model(revision: &str) -> mcp_typed_codegen::ir::Module {
    mcp_typed_codegen::Builder::new()
        .schema_path(mcp_tests::schema_path(revision))
        .model()
        .unwrap()
}

fn schema(revision: &str) -> Value {
    let mut doc = mcp_tests::schema(revision);
    mcp_typed_codegen::load::errata::Errata::builtin().apply(&mut doc);
    doc
}

fn validator(doc: &Value, def: &str) -> jsonschema::Validator {
    let key = mcp_tests::arbitrary_json::definitions_key(doc);
    let wrapper = serde_json::json!({"$schema": doc["$schema"], "$ref": format!("#/{key}/{def}"), key: doc[key]});
    jsonschema::options()
        .should_validate_formats(false)
        .build(&wrapper)
        .unwrap()
}

fn remove(json: &mut Value, pointer: &str) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let key = key.replace("~1", "/").replace("~0", "~");
    if let Some(Value::Object(m)) = json.pointer_mut(parent) {
        m.shift_remove(&key);
    }
}

#[test]
fn adjacent_revisions_convert_as_the_generated_impls_promise() {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(CASES);
    let revisions = [
        "2024-11-05",
        "2025-03-26",
        "2025-06-18",
        "2025-11-25",
        "2026-07-28",
    ];
    let mut failures = Vec::new();
    let mut checked = 0;
    for pair in revisions.windows(2) {
        let (ra, rb) = (pair[0], pair[1]);
        let (ma, mb) = (model(ra), model(rb));
        let (da, db) = (schema(ra), schema(rb));
        let mut sa = SchemaStrategies::new(&da).without_foreign_members();
        let mut sb = SchemaStrategies::new(&db).without_foreign_members();
        for ta in &ma.types {
            let Some(def) = ta.schema_name.as_deref() else {
                continue;
            };
            let Some(tb) = mb
                .types
                .iter()
                .find(|t| t.schema_name.as_deref() == Some(def))
            else {
                continue;
            };
            use mcp_typed_codegen::ir::TypeKind::Alias;
            if matches!(ta.kind, Alias(_)) || matches!(tb.kind, Alias(_)) {
                continue;
            }
            let lossless = mcp_typed_codegen::conversions::lossless(&mb, &tb.name, &ma, &ta.name);
            let vb = validator(&db, def);
            // Upgrade, and back.
            let strategy = sa.definition(def);
            let up = TestRunner::new(Config {
                cases,
                failure_persistence: None,
                max_shrink_iters: 1024,
                ..Config::default()
            })
            .run(&strategy, |input| {
                let Ok((a, a_unknown)) = decode(ra, def, input.clone()) else {
                    return Ok(()); // the schema_props suite covers decoding itself
                };
                // As `convert::upgrade`: decoded, and refused where something the value held
                // arrives in a catch-all (a method or variant the newer revision dropped).
                let upgraded =
                    decode(rb, def, a.clone()).and_then(|(b, b_unknown)| {
                        match b_unknown.iter().find(|u| !u.1 && !a_unknown.contains(*u)) {
                            Some((p, _)) => Err(format!("refused at {p}")),
                            None => Ok(b),
                        }
                    });
                let b = match upgraded {
                    Ok(b) => b,
                    Err(e) if lossless => {
                        return Err(TestCaseError::fail(format!("From fails: {e}")));
                    }
                    Err(_) => return Ok(()), // a TryFrom may fail
                };
                if let Some(e) = vb.iter_errors(&b).next() {
                    return Err(TestCaseError::fail(format!(
                        "upgraded {b} is not a valid {rb} {def}: {e} at {}",
                        e.instance_path()
                    )));
                }
                let (back, back_unknown) = decode(ra, def, id_for_older_errors(&b))
                    .map_err(|e| TestCaseError::fail(format!("downgrade fails: {e}")))?;
                if back != a || back_unknown != a_unknown {
                    return Err(TestCaseError::fail(format!(
                        "upgrade then downgrade: {a} became {back}"
                    )));
                }
                Ok(())
            });
            if let Err(e) = up {
                failures.push(format!("{ra} -> {rb} {def}: {e}"));
            }
            // Downgrade: drops exactly what it lists.
            let strategy = sb.definition(def);
            let down = TestRunner::new(Config {
                cases,
                failure_persistence: None,
                max_shrink_iters: 1024,
                ..Config::default()
            })
            .run(&strategy, |input| {
                let Ok((b, b_unknown)) = decode(rb, def, input.clone()) else {
                    return Ok(());
                };
                let Ok((a, a_unknown)) = decode(ra, def, b.clone()) else {
                    return Ok(()); // refused: a shape the older revision cannot hold
                };
                let new: Vec<&(String, bool)> = a_unknown
                    .iter()
                    .filter(|u| !b_unknown.contains(*u))
                    .collect();
                if new.iter().any(|(_, member)| !member) {
                    return Ok(()); // refused: a union member the older revision lacks
                }
                let dropped: Vec<&String> = new.iter().map(|(p, _)| p).collect();
                let mut expected = a.clone();
                for p in &dropped {
                    remove(&mut expected, p);
                }
                let mut original = b.clone();
                for p in &dropped {
                    remove(&mut original, p);
                }
                if expected != original {
                    return Err(TestCaseError::fail(format!(
                        "downgrading {b} changed more than {dropped:?}"
                    )));
                }
                Ok(())
            });
            if let Err(e) = down {
                failures.push(format!("{rb} -> {ra} {def}: {e}"));
            }
            checked += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Every definition two adjacent revisions share, as in the generated conversions.
    assert_eq!(checked, 352, "definitions checked");
}
