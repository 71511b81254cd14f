//! For every revision, serialized values of every generated type validate against that
//! type's definition in the official schema.json, and decode back equal.
//!
//! Instances come from a strategy driven by the official schema itself
//! ([`mcp_tests::arbitrary_json`]). For each revision and each definition in the module's
//! `DEFINITIONS`, every generated instance is
//! 0. checked against the definition (a self-check of the strategy, reported apart),
//! 1. decoded, from its text and from a `serde_json::Value`, into the type
//!    `with_definition` names (both must succeed and agree),
//! 2. encoded again, and then
//!    - (a) the encoding validates against the definition (`jsonschema`, formats
//!      asserted, `format: byte` checked as base64),
//!    - (b) equals the input as JSON, numbers by value, and every integer stays an
//!      integer (and every float a float),
//!    - (c) decodes to a Rust value equal (`PartialEq`) to the first decode.
//!
//! A negative property mutates valid instances of object definitions — a required `const`
//! member gets another value, or a required member is removed — and checks that decoding
//! fails with an error that names the member.
//!
//! Instances include extra members: `x-…` keys, vendor keys in `_meta`, and, in the
//! definition's own object, members named like a property another definition declares
//! ("foreign" members, which make shape unions meet other variants' members). [`ALLOW`] lists the generator bugs this found that are not
//! fixed yet, each with a minimal repro that `allow_list_is_current` keeps honest.
//!
//! Case counts: [`CASES`] instances per definition for the round trip, [`NEGATIVE_CASES`]
//! mutations per definition; `PROPTEST_CASES` overrides both.

use std::collections::BTreeSet;

use jsonschema::{Draft, Validator};
use mcp_tests::arbitrary_json::{FIXED, SchemaStrategies, definitions_key, is_base64};
use mcp_tests::{json_eq, schema};
use mcp_typed::DefinitionVisitor;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestCaseError, TestError, TestRunner};
use serde_json::Value;

/// Round-trip instances per definition (about 150 definitions per revision).
const CASES: u32 = 32;
/// Mutated instances per object definition with a required member.
const NEGATIVE_CASES: u32 = 8;

/// What an allow-list entry exempts a definition from. (No entry needs one since the pull
/// decoder; the mechanism stays for the next generator bug the properties find.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(dead_code)]
enum Exempt {
    /// Extra members named like a property declared elsewhere in the schema: the
    /// definition's instances keep to `x-…`/vendor keys (everything else is still checked).
    ForeignMembers,
}

/// A definition that does not round-trip every schema-valid instance, and why.
struct Allowed {
    revisions: &'static [&'static str],
    definition: &'static str,
    exempt: Exempt,
    /// A minimal schema-valid instance that fails; `allow_list_is_current` checks that it is
    /// valid and still fails, so an entry cannot outlive its fix.
    repro: &'static str,
    reason: &'static str,
}

/// The allow-list: inputs the generated types knowingly reject, each with a repro that
/// `allow_list_is_current` checks is schema-valid and still fails (so no entry outlives a
/// fix). The first matching entry applies. A `tasks/get` result through the 2025-11-25
/// result unions (a nullable slot rejected integers) was here and is fixed.
const ALLOW: &[Allowed] = &[
    // Empty since the pull decoder (issue 31). It held six entries of one kind, "a shape
    // union commits early": a member one variant declares, present with content that variant
    // does not take (`prompts: [null]` on a plain result, `enumNames: [null]` on an enum
    // schema, an extra `error` on a request), made a schema-valid object fail, because the
    // serde decoder typed the member before the variant was chosen. The pull decoder scores
    // the variants on the object first, decodes the best, and gives way to the next variant
    // that fits when the best fails further down.
];

fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(default)
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        // Bound the time spent minimising a failure; instances are small anyway.
        max_shrink_iters: 4096,
        ..Config::default()
    })
}

/// A validator for definition `name`: the official definitions behind a `$ref`, in the
/// document's own dialect, with format assertion on.
fn validator(doc: &Value, name: &str) -> Validator {
    let key = definitions_key(doc);
    let (draft, dialect) = match key {
        "definitions" => (Draft::Draft7, "http://json-schema.org/draft-07/schema#"),
        _ => (
            Draft::Draft202012,
            "https://json-schema.org/draft/2020-12/schema",
        ),
    };
    assert_eq!(
        doc["$schema"].as_str(),
        Some(dialect),
        "the {key} document declares another dialect"
    );
    let wrapper = serde_json::json!({
        "$schema": dialect,
        "$ref": format!("#/{key}/{}", name.replace('~', "~0").replace('/', "~1")),
        key: doc[key],
    });
    jsonschema::options()
        .with_draft(draft)
        .should_validate_formats(true)
        .should_ignore_unknown_formats(false)
        .with_format("byte", is_base64)
        .build(&wrapper)
        .unwrap_or_else(|e| panic!("cannot build a validator for {name}: {e}"))
}

fn schema_errors(v: &Validator, instance: &Value) -> Option<String> {
    let errors: Vec<String> = v
        .iter_errors(instance)
        .take(5)
        .map(|e| format!("{} (at {:?})", e, e.instance_path().as_str()))
        .collect();
    (!errors.is_empty()).then(|| errors.join("; "))
}

/// The first place where a number changes kind: an integer that comes back as a float or
/// the reverse.
fn number_kind_change(input: &Value, output: &Value, path: &str) -> Option<String> {
    match (input, output) {
        (Value::Number(a), Value::Number(b)) if a.is_f64() != b.is_f64() => {
            Some(format!("{path}: {a} came back as {b}"))
        }
        (Value::Array(a), Value::Array(b)) => a
            .iter()
            .zip(b)
            .enumerate()
            .find_map(|(i, (x, y))| number_kind_change(x, y, &format!("{path}/{i}"))),
        (Value::Object(a), Value::Object(b)) => a.iter().find_map(|(k, x)| {
            b.get(k)
                .and_then(|y| number_kind_change(x, y, &format!("{path}/{k}")))
        }),
        _ => None,
    }
}

/// Decodes, encodes and decodes again; returns the encoding.
struct RoundTrip {
    text: String,
    input: Value,
}

impl DefinitionVisitor for RoundTrip {
    type Output = Result<Value, String>;
    fn visit<T>(self, rust_name: &'static str) -> Self::Output
    where
        T: serde::Serialize
            + serde::de::DeserializeOwned
            + std::fmt::Debug
            + Clone
            + PartialEq
            + mcp_typed::Unknowns
            + 'static,
    {
        let decoded: T = serde_json::from_str(&self.text)
            .map_err(|e| format!("does not decode as {rust_name}: {e}"))?;
        let from_value: T = serde_json::from_value(self.input)
            .map_err(|e| format!("decodes from text but not from a Value as {rust_name}: {e}"))?;
        if from_value != decoded {
            return Err(format!(
                "decoding the text and the Value disagree:\n  text:  {decoded:?}\n  value: {from_value:?}"
            ));
        }
        let text = serde_json::to_string(&decoded)
            .map_err(|e| format!("{rust_name} does not encode: {e}\n  value: {decoded:?}"))?;
        let encoded: Value = serde_json::from_str(&text)
            .map_err(|e| format!("encoded invalid JSON ({e}): {text}"))?;
        let as_value = serde_json::to_value(&decoded)
            .map_err(|e| format!("{rust_name} does not encode to a Value: {e}"))?;
        if !json_eq(&as_value, &encoded) || number_kind_change(&encoded, &as_value, "").is_some() {
            return Err(format!(
                "serde_json::to_value and to_string disagree:\n  to_value:  {as_value}\n  to_string: {text}"
            ));
        }
        let again: T = serde_json::from_str(&text).map_err(|e| {
            format!("the re-encoded JSON does not decode as {rust_name}: {e}\n  re-encoded: {text}")
        })?;
        if again != decoded {
            return Err(format!(
                "decoding the re-encoded JSON gives another {rust_name}:\n  first:  {decoded:?}\n  second: {again:?}\n  re-encoded: {text}"
            ));
        }
        Ok(encoded)
    }
}

/// Decodes only; `Ok` carries the Debug of the value.
struct Decode(String);

impl DefinitionVisitor for Decode {
    type Output = Result<String, String>;
    fn visit<T>(self, _: &'static str) -> Self::Output
    where
        T: serde::Serialize
            + serde::de::DeserializeOwned
            + std::fmt::Debug
            + Clone
            + PartialEq
            + mcp_typed::Unknowns
            + 'static,
    {
        serde_json::from_str::<T>(&self.0)
            .map(|v| format!("{v:?}"))
            .map_err(|e| e.to_string())
    }
}

type WithRoundTrip = fn(&str, RoundTrip) -> Option<Result<Value, String>>;
type WithDecode = fn(&str, Decode) -> Option<Result<String, String>>;

/// The generated module of one revision, as the properties use it.
struct Module {
    revision: &'static str,
    definitions: &'static [&'static str],
    round_trip: WithRoundTrip,
    decode: WithDecode,
}

fn failure<V: std::fmt::Debug>(
    revision: &str,
    name: &str,
    e: TestError<V>,
    show: impl Fn(&V) -> String,
) -> String {
    match e {
        TestError::Fail(reason, v) => format!(
            "{revision} {name}: {reason}\n    minimal failing instance: {}",
            show(&v)
        ),
        TestError::Abort(reason) => format!("{revision} {name}: aborted: {reason}"),
    }
}

/// Runs the round-trip property on one definition; `Err` is the report of its minimal
/// failing instance.
fn check_definition(
    revision: &str,
    doc: &Value,
    strategies: &mut SchemaStrategies,
    name: &str,
    round_trip: WithRoundTrip,
    cases: u32,
) -> Result<(), String> {
    let v = validator(doc, name);
    let strategy = strategies.definition(name);
    runner(cases)
        .run(&strategy, |input| {
            if let Some(e) = schema_errors(&v, &input) {
                return Err(TestCaseError::fail(format!(
                    "STRATEGY BUG (not the generated code): the generated instance is invalid: {e}"
                )));
            }
            let encoded = round_trip(
                name,
                RoundTrip {
                    text: input.to_string(),
                    input: input.clone(),
                },
            )
            .ok_or_else(|| TestCaseError::fail("with_definition does not know it"))?
            .map_err(TestCaseError::fail)?;
            if let Some(e) = schema_errors(&v, &encoded) {
                return Err(TestCaseError::fail(format!(
                    "the re-encoded value is invalid against the schema: {e}\n  re-encoded: {encoded}"
                )));
            }
            if !json_eq(&encoded, &input) {
                return Err(TestCaseError::fail(format!(
                    "lossy round trip\n  re-encoded: {encoded}"
                )));
            }
            if let Some(change) = number_kind_change(&input, &encoded, "") {
                return Err(TestCaseError::fail(format!(
                    "a number changed kind: {change}\n  re-encoded: {encoded}"
                )));
            }
            Ok(())
        })
        .map_err(|e| failure(revision, name, e, |v| v.to_string()))
}

fn allowed(revision: &str, definition: &str) -> Option<&'static Allowed> {
    ALLOW
        .iter()
        .find(|a| a.definition == definition && a.revisions.contains(&revision))
}

fn round_trips(m: Module) {
    let doc = schema(m.revision);
    let mut strategies = SchemaStrategies::new(&doc);
    let mut plain = SchemaStrategies::new(&doc).without_foreign_members();
    let names = strategies.definition_names();
    // "Every generated type": the module lists exactly the schema's definitions.
    assert_eq!(
        m.definitions,
        names
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice(),
        "{}: DEFINITIONS differs from the schema's definitions",
        m.revision
    );
    let mut failures = Vec::new();
    for &name in m.definitions {
        let strategies = match allowed(m.revision, name).map(|a| a.exempt) {
            None => &mut strategies,
            Some(Exempt::ForeignMembers) => &mut plain,
        };
        if let Err(e) = check_definition(
            m.revision,
            &doc,
            strategies,
            name,
            m.round_trip,
            cases(CASES),
        ) {
            failures.push(e);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} definitions of {} fail:\n\n{}",
        failures.len(),
        m.definitions.len(),
        m.revision,
        failures.join("\n\n")
    );
}

/// A different value of the same JSON kind as `c`.
fn other_const(c: &Value) -> Value {
    match c {
        Value::String(s) => Value::String(format!("{s}-mutated")),
        Value::Number(n) => Value::from(n.as_i64().map_or(0, |i| i.wrapping_add(1))),
        Value::Bool(b) => Value::Bool(!b),
        _ => Value::String("mutated".into()),
    }
}

/// Runs the negative property on one definition: `None` when it is not an object schema
/// with a declared required member.
fn check_rejections(
    revision: &str,
    strategies: &mut SchemaStrategies,
    name: &str,
    decode: WithDecode,
    cases: u32,
) -> Option<Result<(), String>> {
    let obj = strategies.object_schema(name)?;
    let props = obj.get("properties").and_then(Value::as_object);
    // `(member, its const value)` for each declared required member.
    let required: Vec<(String, Option<Value>)> = obj
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter_map(|r| {
            let p = props?.get(r)?;
            Some((r.to_owned(), p.get("const").cloned()))
        })
        .collect();
    if required.is_empty() {
        return None;
    }
    let strategy = (strategies.definition(name), any::<Index>(), any::<bool>());
    let result = runner(cases).run(&strategy, |(input, pick, wrong_const)| {
        let (member, constant) = &required[pick.index(required.len())];
        let mut mutated = input.as_object().expect("an object definition").clone();
        let what = match constant {
            Some(c) if wrong_const => {
                mutated.insert(member.clone(), other_const(c));
                "given another value than its const"
            }
            _ => {
                mutated.remove(member);
                "removed"
            }
        };
        let text = Value::Object(mutated).to_string();
        match decode(name, Decode(text.clone())).expect("listed in DEFINITIONS") {
            Ok(debug) => Err(TestCaseError::fail(format!(
                "decodes although required `{member}` was {what}: {text}\n  decoded: {debug}"
            ))),
            // Named as `member`, or as the last step of the error's pointer.
            Err(e) if e.contains(&format!("`{member}`")) || e.contains(&format!("/{member}`")) => {
                Ok(())
            }
            Err(e) => Err(TestCaseError::fail(format!(
                "the error for `{member}` {what} does not name it: {e:?}\n  mutated: {text}"
            ))),
        }
    });
    Some(result.map_err(|e| failure(revision, name, e, |(v, _, _)| v.to_string())))
}

fn rejects_mutations(m: Module) {
    let doc = schema(m.revision);
    let mut strategies = SchemaStrategies::new(&doc);
    let mut failures = Vec::new();
    let mut tested = 0;
    for &name in m.definitions {
        let result = check_rejections(
            m.revision,
            &mut strategies,
            name,
            m.decode,
            cases(NEGATIVE_CASES),
        );
        match result {
            None => {}
            Some(Ok(())) => tested += 1,
            Some(Err(e)) => {
                tested += 1;
                failures.push(e);
            }
        }
    }
    assert!(
        tested >= 20,
        "{}: only {tested} object definitions with required members; the property would prove little",
        m.revision
    );
    assert!(
        failures.is_empty(),
        "{} of {tested} definitions of {} accept invalid input or give unhelpful errors:\n\n{}",
        failures.len(),
        m.revision,
        failures.join("\n\n")
    );
}

/// Every entry of [`ALLOW`] is needed: its repro is valid against the official schema and
/// still fails to round-trip. When one passes, the bug is fixed: delete the entry.
#[test]
fn allow_list_is_current() {
    let mut stale = Vec::new();
    for a in ALLOW {
        assert!(!a.reason.is_empty() && !a.revisions.is_empty());
        for &revision in a.revisions {
            let m = module(revision);
            assert!(
                m.definitions.contains(&a.definition),
                "ALLOW: {revision} has no {}",
                a.definition
            );
            let doc = schema(revision);
            let input: Value = serde_json::from_str(a.repro).expect("repro is JSON");
            if let Some(e) = schema_errors(&validator(&doc, a.definition), &input) {
                panic!(
                    "ALLOW: the {revision} {} repro is not schema-valid: {e}",
                    a.definition
                );
            }
            let outcome = (m.round_trip)(
                a.definition,
                RoundTrip {
                    text: a.repro.to_owned(),
                    input: input.clone(),
                },
            )
            .expect("listed in DEFINITIONS");
            if matches!(&outcome, Ok(encoded) if json_eq(encoded, &input)) {
                stale.push(format!("{revision} {}: {}", a.definition, a.repro));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "fixed — remove these ALLOW entries from schema_props.rs:\n{}",
        stale.join("\n")
    );
}

/// The module of a revision.
fn module(revision: &str) -> Module {
    match revision {
        "2024-11-05" => v2024_11_05::module(),
        "2025-03-26" => v2025_03_26::module(),
        "2025-06-18" => v2025_06_18::module(),
        "2025-11-25" => v2025_11_25::module(),
        "2026-07-28" => v2026_07_28::module(),
        "draft" => draft::module(),
        other => panic!("unknown revision {other}"),
    }
}

macro_rules! revision {
    ($module:ident, $revision:literal) => {
        mod $module {
            use super::*;
            use mcp_typed::$module as m;

            pub(super) fn module() -> Module {
                Module {
                    revision: $revision,
                    definitions: m::DEFINITIONS,
                    round_trip: |name, v| m::with_definition(name, v),
                    decode: |name, v| m::with_definition(name, v),
                }
            }

            #[test]
            fn every_definition_round_trips_and_validates() {
                round_trips(module());
            }

            #[test]
            fn broken_required_members_are_rejected_by_name() {
                rejects_mutations(module());
            }
        }
    };
}

revision!(v2024_11_05, "2024-11-05");
revision!(v2025_03_26, "2025-03-26");
revision!(v2025_06_18, "2025-06-18");
revision!(v2025_11_25, "2025-11-25");
revision!(v2026_07_28, "2026-07-28");
revision!(draft, "draft");

/// The strategy's explicit override and the generator's default `--fixed` values are the
/// same list, so the override cannot drift from what the generated code checks.
#[test]
fn strategy_overrides_match_the_generator_defaults() {
    let ours: Vec<String> = FIXED
        .iter()
        .map(|(d, p, v)| format!("{d}.{p}={v}"))
        .collect();
    assert_eq!(ours, mcp_typed_codegen::Options::default_fixed());
}

/// The strategy does produce the overridden value, and the rest of the definition varies.
#[test]
fn input_required_instances_carry_the_fixed_result_type() {
    let doc = schema("2026-07-28");
    let mut strategies = SchemaStrategies::new(&doc);
    let strategy = strategies.definition("InputRequiredResult");
    let mut runner = runner(64);
    let mut shapes = BTreeSet::new();
    for _ in 0..64 {
        let v = strategy.new_tree(&mut runner).expect("a value").current();
        assert_eq!(v["resultType"], "input_required", "{v}");
        shapes.insert(
            v.as_object()
                .expect("an object")
                .keys()
                .cloned()
                .collect::<BTreeSet<_>>(),
        );
    }
    assert!(
        shapes.len() > 1,
        "every instance had the same members: {shapes:?}"
    );
}

/// The harness catches what it claims to: an encoder that loses members, one that turns
/// integers into floats and one that writes schema-invalid JSON are each reported, with
/// the revision, the definition and the instance.
#[test]
fn the_round_trip_property_catches_broken_encoders() {
    use mcp_typed::v2026_07_28 as m;
    fn strip_extras(v: Value) -> Value {
        match v {
            Value::Object(o) => Value::Object(
                o.into_iter()
                    .filter(|(k, _)| !k.starts_with("x-"))
                    .map(|(k, v)| (k, strip_extras(v)))
                    .collect(),
            ),
            Value::Array(a) => Value::Array(a.into_iter().map(strip_extras).collect()),
            v => v,
        }
    }
    fn floats(v: Value) -> Value {
        match v {
            Value::Number(n) if !n.is_f64() => Value::from(n.as_f64().expect("finite")),
            Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, floats(v))).collect()),
            Value::Array(a) => Value::Array(a.into_iter().map(floats).collect()),
            v => v,
        }
    }
    let drops: WithRoundTrip = |n, v| m::with_definition(n, v).map(|r| r.map(strip_extras));
    let widens: WithRoundTrip = |n, v| m::with_definition(n, v).map(|r| r.map(floats));
    let breaks: WithRoundTrip = |n, v| {
        m::with_definition(n, v).map(|r| {
            r.map(|mut e| {
                e["jsonrpc"] = Value::from("1.0");
                e
            })
        })
    };
    let doc = schema("2026-07-28");
    let mut strategies = SchemaStrategies::new(&doc);
    for (name, broken, expected) in [
        ("Tool", drops, "lossy round trip"),
        ("ProgressNotification", widens, "a number changed kind"),
        (
            "CancelledNotification",
            breaks,
            "invalid against the schema",
        ),
    ] {
        let e = check_definition("2026-07-28", &doc, &mut strategies, name, broken, 64)
            .expect_err("a broken encoder must be caught");
        for needle in ["2026-07-28", name, expected, "minimal failing instance: {"] {
            assert!(e.contains(needle), "report lacks {needle:?}: {e}");
        }
    }
    // And the real one passes the same cases.
    check_definition(
        "2026-07-28",
        &doc,
        &mut strategies,
        "Tool",
        m::with_definition,
        64,
    )
    .expect("the generated Tool round-trips");
}

/// The validators the property relies on do reject invalid instances, formats included.
#[test]
fn validators_reject_invalid_instances_and_formats() {
    for (revision, name, bad) in [
        (
            "2024-11-05",
            "PingRequest",
            serde_json::json!({"method": "pong"}),
        ),
        (
            "2024-11-05",
            "BlobResourceContents",
            serde_json::json!({"uri": "file:///a", "blob": "not base64!"}),
        ),
        (
            "2025-06-18",
            "Resource",
            serde_json::json!({"uri": "no scheme", "name": "n"}),
        ),
        (
            "2025-11-25",
            "ResourceTemplate",
            serde_json::json!({"uriTemplate": "file:///{unclosed", "name": "n"}),
        ),
        (
            "2026-07-28",
            "Annotations",
            serde_json::json!({"priority": 1.5}),
        ),
        (
            "2026-07-28",
            "TextContent",
            serde_json::json!({"type": "image", "text": "t"}),
        ),
    ] {
        let doc = schema(revision);
        assert!(
            schema_errors(&validator(&doc, name), &bad).is_some(),
            "{revision} {name}: {bad} was accepted"
        );
    }
}

/// The negative property catches a decoder that accepts what it should reject, and one whose
/// error does not name the member.
#[test]
fn the_rejection_property_catches_lenient_decoders() {
    let doc = schema("2026-07-28");
    let mut strategies = SchemaStrategies::new(&doc);
    let lenient: WithDecode = |_, Decode(text)| {
        Some(
            serde_json::from_str::<Value>(&text)
                .map(|v| v.to_string())
                .map_err(|e| e.to_string()),
        )
    };
    let vague: WithDecode = |_, _| Some(Err("invalid input".to_owned()));
    for (broken, expected) in [
        (lenient, "decodes although required `"),
        (vague, "does not name it"),
    ] {
        let e = check_rejections("2026-07-28", &mut strategies, "CallToolRequest", broken, 16)
            .expect("CallToolRequest has required members")
            .expect_err("a broken decoder must be caught");
        for needle in [
            "2026-07-28 CallToolRequest",
            expected,
            "minimal failing instance: {",
        ] {
            assert!(e.contains(needle), "report lacks {needle:?}: {e}");
        }
    }
}
