//! The generator never panics, whatever schema it is given: mutated official schemas,
//! small documents cut from them, random schema-like documents and arbitrary text all give
//! `Ok` or `Err`, and a schema error names the JSON pointer (`#/…`) of a node of the
//! document it was given.
//!
//! Case counts (debug build, each case runs the whole pipeline inside `catch_unwind`):
//! [`FULL_CASES`] mutated copies of each of the six official schemas (a full generation
//! takes up to a second), [`SMALL_CASES`] mutated small documents, [`RANDOM_CASES`]
//! random documents and [`TEXT_CASES`] arbitrary texts. `PROPTEST_CASES` overrides them all.
//!
//! This file found three generator bugs (self-reference through `allOf` recursing without
//! end, self-referencing unions hanging, error pointers naming merged `allOf` nodes); all are
//! fixed, with regressions here and in `mcp_typed_codegen`'s unit tests, and no input is skipped.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::OnceLock;

use mcp_typed_codegen::{Builder, Error, source};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Map, Value, json};

const FULL_CASES: u32 = 16;
const SMALL_CASES: u32 = 512;
const RANDOM_CASES: u32 = 1024;
const TEXT_CASES: u32 = 256;

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
        max_shrink_iters: 2048,
        ..Config::default()
    })
}

/// The official schema documents, parsed once.
fn official() -> &'static [(&'static str, Value)] {
    static DOCS: OnceLock<Vec<(&'static str, Value)>> = OnceLock::new();
    DOCS.get_or_init(|| {
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        source::revisions()
            .iter()
            .map(|r| {
                let path = source::resolve(r, None, &workspace).unwrap_or_else(|e| panic!("{e}"));
                let text = std::fs::read_to_string(&path).expect("read schema");
                (
                    *r,
                    serde_json::from_str(&text).expect("official schema parses"),
                )
            })
            .collect()
    })
}

/// Runs the generator on `text`: a panic, or a schema error whose pointer is not a
/// `#`-pointer into `doc` (when the text is a JSON document), is a failure.
fn generate_checked(text: &str, doc: Option<&Value>) -> Result<(), String> {
    quiet_caught_panics();
    CATCHING.with(|c| c.set(true));
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        Builder::new().schema_json(text).generate().map(|_| ())
    }));
    CATCHING.with(|c| c.set(false));
    match outcome {
        Err(payload) => {
            let msg = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_else(|| "<non-string panic payload>".to_owned());
            Err(format!("the generator panicked: {msg}"))
        }
        Ok(Ok(())) => Ok(()),
        Ok(Err(e @ Error::Schema { .. })) => {
            let shown = e.to_string();
            let Error::Schema { pointer, .. } = &e else {
                unreachable!()
            };
            if !pointer.starts_with('#') || !(pointer.len() == 1 || pointer.starts_with("#/")) {
                return Err(format!("schema error without a `#/…` pointer: {shown}"));
            }
            if !shown.starts_with(&format!("{pointer}: ")) {
                return Err(format!(
                    "schema error does not lead with its pointer: {shown}"
                ));
            }
            if let Some(doc) = doc
                && !resolves(doc, pointer)
            {
                return Err(format!(
                    "schema error names a node the document does not have: {shown}"
                ));
            }
            Ok(())
        }
        // Invalid JSON, or code that does not parse: errors, not panics.
        Ok(Err(_)) => Ok(()),
    }
}

thread_local! {
    /// Set while this thread runs the generator inside `catch_unwind`.
    static CATCHING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Panics caught by [`generate_checked`] are reported with the failing case; printing each
/// one (shrinking meets hundreds) would bury the report. Other panics print as usual.
fn quiet_caught_panics() {
    static HOOK: OnceLock<()> = OnceLock::new();
    HOOK.get_or_init(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !CATCHING.with(|c| c.get()) {
                default(info);
            }
        }));
    });
}

/// Whether `#/a/b` names a node of `doc`; a pointer to a missing member of an existing
/// object or array also counts (errors may name a keyword the schema lacks, e.g. `/type`).
fn resolves(doc: &Value, pointer: &str) -> bool {
    let p = &pointer[1..];
    if doc.pointer(p).is_some() {
        return true;
    }
    match p.rfind('/') {
        Some(i) => doc
            .pointer(&p[..i])
            .is_some_and(|v| v.is_object() || v.is_array()),
        None => false,
    }
}

// ---------------------------------------------------------------------------------------
// Mutations

/// Names that are hard to turn into Rust identifiers.
const TRICKY_NAMES: &[&str] = &[
    "",
    "_",
    "__",
    "self",
    "Self",
    "super",
    "crate",
    "type",
    "r#type",
    "fn",
    "async",
    "gen",
    "1abc",
    "123",
    "-",
    "$",
    "a b",
    "a-b",
    "a_b",
    "A_B",
    "aB",
    "AB",
    "ID",
    "IDs",
    "JSONRPC",
    "Result",
    "Option",
    "Value",
    "Custom",
    "extra",
    "Extra",
    "__rt",
    "de",
    "ser",
    "serde",
    "Map",
    "String",
    "None",
    "Some",
    "std",
    "core",
    "f_x",
    "c_0",
    "s0",
    "G0",
    "Tag",
    "²",
    "①",
    "٣",
    "²",
    "①",
    "٣",
    "ǅ",
    "ⓐ",
    "ß",
    "Ⅻ",
    "🙂",
    "a/b",
    "~",
    "~0",
    "~1",
    "%20",
    "é",
    "\u{200b}",
    "\n",
    "io.modelcontextprotocol/x",
    "_meta",
    "x-vendor",
    "method",
    "jsonrpc",
    "id",
];

/// Keywords the generator does not support (and some it does, in odd places).
const KEYWORDS: &[&str] = &[
    "patternProperties",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
    "prefixItems",
    "contains",
    "propertyNames",
    "$dynamicRef",
    "$anchor",
    "$defs",
    "definitions",
    "$ref",
    "allOf",
    "anyOf",
    "oneOf",
    "const",
    "enum",
    "type",
    "items",
    "properties",
    "required",
    "additionalProperties",
    "format",
    "minimum",
    "description",
];

/// A value of every JSON kind, schema-looking or not.
fn any_value() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        prop::sample::select(TRICKY_NAMES).prop_map(Value::from),
        "\\PC{0,8}".prop_map(Value::String),
        prop::sample::select(KEYWORDS).prop_map(|k| json!({ k: {} })),
        Just(json!({})),
        Just(json!({"type": "object"})),
        Just(json!({"type": ["string", "null"]})),
        Just(json!({"$ref": "#/$defs/Nope"})),
    ];
    leaf.prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYWORDS), inner), 0..3).prop_map(|m| {
                Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
            }),
        ]
    })
    .boxed()
}

/// How a node gets nested deeper.
#[derive(Debug, Clone, Copy)]
enum Wrap {
    AllOf,
    AnyOf,
    AnyOfNull,
    OneOf,
    Items,
    Property,
    Additional,
}

/// One edit of a schema document; every `Index` picks among the nodes that fit at the time
/// the edit is applied, so edits compose and shrink.
#[derive(Debug, Clone)]
enum Mutation {
    /// Removes a node (object member or array element).
    Delete(Index),
    /// Replaces a node with a value, of another JSON kind when the value has the same kind.
    Replace(Index, Value),
    /// Points a `$ref` elsewhere: a chosen string, or the definition that holds it.
    Retarget(Index, Option<&'static str>),
    /// Adds a keyword to an object node.
    Insert(Index, &'static str, Value),
    /// Replaces `required` of an object node.
    Required(Index, Value),
    /// Wraps a node in `levels` levels of a wrapper.
    Nest(Index, Wrap, usize),
    /// Renames a definition (references to it dangle).
    RenameDefinition(Index, &'static str),
    /// Renames a member of an object node.
    RenameMember(Index, Index, &'static str),
    /// Sets a union keyword of an object node.
    Union(Index, &'static str, Vec<Value>),
    /// Copies one node over another (makes refs, consts and types meet in new places).
    Copy(Index, Index),
}

const REF_TARGETS: &[&str] = &[
    "",
    "#",
    "#/",
    "#/$defs",
    "#/$defs/",
    "#/definitions/",
    "#/$defs/Nope",
    "#/definitions/Nope",
    "#/$defs/Result",
    "#/definitions/Result",
    "#/$defs/Result/properties/_meta",
    "#/$defs/A~1B",
    "#/$defs/~2",
    "#/%24defs/Result",
    "other.json#/$defs/Result",
    "https://example.com/schema.json",
    "#/$defs/JSONValue",
    "#/definitions/JSONRPCMessage",
];

fn mutation() -> BoxedStrategy<Mutation> {
    let idx = any::<Index>;
    let name = || prop::sample::select(TRICKY_NAMES);
    prop_oneof![
        3 => idx().prop_map(Mutation::Delete),
        3 => (idx(), any_value()).prop_map(|(i, v)| Mutation::Replace(i, v)),
        3 => (idx(), prop::option::of(prop::sample::select(REF_TARGETS)))
            .prop_map(|(i, t)| Mutation::Retarget(i, t)),
        3 => (idx(), prop::sample::select(KEYWORDS), any_value())
            .prop_map(|(i, k, v)| Mutation::Insert(i, k, v)),
        2 => (idx(), any_value()).prop_map(|(i, v)| Mutation::Required(i, v)),
        2 => (
            idx(),
            prop::sample::select(vec![
                Wrap::AllOf,
                Wrap::AnyOf,
                Wrap::AnyOfNull,
                Wrap::OneOf,
                Wrap::Items,
                Wrap::Property,
                Wrap::Additional,
            ]),
            prop_oneof![1usize..4, 10usize..30, 40usize..70],
        )
            .prop_map(|(i, w, n)| Mutation::Nest(i, w, n)),
        2 => (idx(), name()).prop_map(|(i, n)| Mutation::RenameDefinition(i, n)),
        2 => (idx(), idx(), name()).prop_map(|(i, j, n)| Mutation::RenameMember(i, j, n)),
        2 => (
            idx(),
            prop::sample::select(vec!["anyOf", "oneOf", "allOf"]),
            prop::collection::vec(any_value(), 0..3),
        )
            .prop_map(|(i, k, v)| Mutation::Union(i, k, v)),
        2 => (idx(), idx()).prop_map(|(i, j)| Mutation::Copy(i, j)),
    ]
    .boxed()
}

/// JSON pointers of every node below the root, in document order.
fn pointers(v: &Value, at: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                out.push(p.clone());
                pointers(x, &p, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let p = format!("{at}/{i}");
                out.push(p.clone());
                pointers(x, &p, out);
            }
        }
        _ => {}
    }
}

fn pick(doc: &Value, i: &Index, keep: impl Fn(&str, &Value) -> bool) -> Option<String> {
    let mut all = Vec::new();
    pointers(doc, "", &mut all);
    let fit: Vec<String> = all
        .into_iter()
        .filter(|p| keep(p, doc.pointer(p).expect("listed")))
        .collect();
    (!fit.is_empty()).then(|| fit[i.index(fit.len())].clone())
}

fn split(p: &str) -> (&str, String) {
    let i = p.rfind('/').expect("below the root");
    (&p[..i], p[i + 1..].replace("~1", "/").replace("~0", "~"))
}

fn kind(v: &Value) -> u8 {
    match v {
        Value::Null => 0,
        Value::Bool(_) => 1,
        Value::Number(_) => 2,
        Value::String(_) => 3,
        Value::Array(_) => 4,
        Value::Object(_) => 5,
    }
}

fn wrap(node: Value, w: Wrap) -> Value {
    match w {
        Wrap::AllOf => json!({ "allOf": [node] }),
        Wrap::AnyOf => json!({ "anyOf": [node] }),
        Wrap::AnyOfNull => json!({ "anyOf": [node, {"type": "null"}] }),
        Wrap::OneOf => json!({ "oneOf": [node, {"type": "boolean"}] }),
        Wrap::Items => json!({ "type": "array", "items": node }),
        Wrap::Property => {
            json!({ "type": "object", "properties": { "p": node }, "required": ["p"] })
        }
        Wrap::Additional => json!({ "type": "object", "additionalProperties": node }),
    }
}

/// The definitions member of a document.
fn defs_key(doc: &Value) -> &'static str {
    if doc.get("$defs").is_some() {
        "$defs"
    } else {
        "definitions"
    }
}

/// Applies `m` to `doc`; returns what it did, for the failure report.
fn apply(doc: &mut Value, m: &Mutation) -> String {
    match m {
        Mutation::Delete(i) => {
            let Some(p) = pick(doc, i, |_, _| true) else {
                return "delete: nothing".into();
            };
            let (parent, key) = split(&p);
            match doc.pointer_mut(parent) {
                Some(Value::Object(o)) => {
                    o.shift_remove(&key);
                }
                Some(Value::Array(a)) => {
                    a.remove(key.parse::<usize>().expect("index"));
                }
                _ => unreachable!(),
            }
            format!("delete #{p}")
        }
        Mutation::Replace(i, v) => {
            let Some(p) = pick(doc, i, |_, _| true) else {
                return "replace: nothing".into();
            };
            let slot = doc.pointer_mut(&p).expect("picked");
            let new = if kind(slot) == kind(v) {
                // Another kind than the node had.
                match v {
                    Value::Object(_) => json!([v]),
                    _ => json!({ "x": v }),
                }
            } else {
                v.clone()
            };
            *slot = new.clone();
            format!("replace #{p} with {new}")
        }
        Mutation::Retarget(i, target) => {
            let Some(p) = pick(doc, i, |p, v| p.ends_with("/$ref") && v.is_string()) else {
                return "retarget: no $ref".into();
            };
            let key = defs_key(doc);
            let t = match target {
                Some(t) => (*t).to_owned(),
                // The definition holding the reference: a cycle.
                None => {
                    let def = p
                        .strip_prefix(&format!("/{key}/"))
                        .and_then(|r| r.split('/').next())
                        .unwrap_or("Nope");
                    format!("#/{key}/{def}")
                }
            };
            *doc.pointer_mut(&p).expect("picked") = Value::String(t.clone());
            format!("retarget #{p} to {t:?}")
        }
        Mutation::Insert(i, k, v) => {
            let Some(p) = pick(doc, i, |_, v| v.is_object()) else {
                return "insert: no object".into();
            };
            doc.pointer_mut(&p)
                .and_then(Value::as_object_mut)
                .expect("picked")
                .insert((*k).to_owned(), v.clone());
            format!("insert {k:?}: {v} into #{p}")
        }
        Mutation::Required(i, v) => {
            let Some(p) = pick(doc, i, |_, v| v.get("properties").is_some()) else {
                return "required: no object schema".into();
            };
            doc.pointer_mut(&p)
                .and_then(Value::as_object_mut)
                .expect("picked")
                .insert("required".into(), v.clone());
            format!("set #{p}/required to {v}")
        }
        Mutation::Nest(i, w, levels) => {
            let Some(p) = pick(doc, i, |_, v| v.is_object()) else {
                return "nest: no object".into();
            };
            let slot = doc.pointer_mut(&p).expect("picked");
            let mut node = slot.take();
            for _ in 0..*levels {
                node = wrap(node, *w);
            }
            *slot = node;
            format!("nest #{p} {levels} levels deep in {w:?}")
        }
        Mutation::RenameDefinition(i, name) => {
            let key = defs_key(doc);
            let Some(Value::Object(defs)) = doc.get_mut(key) else {
                return "rename definition: no definitions".into();
            };
            if defs.is_empty() {
                return "rename definition: none".into();
            }
            let old = defs
                .keys()
                .nth(i.index(defs.len()))
                .expect("in range")
                .clone();
            let v = defs.shift_remove(&old).expect("present");
            defs.insert((*name).to_owned(), v);
            format!("rename definition {old:?} to {name:?}")
        }
        Mutation::RenameMember(i, j, name) => {
            let Some(p) = pick(doc, i, |_, v| v.as_object().is_some_and(|o| !o.is_empty())) else {
                return "rename member: no object".into();
            };
            let o = doc
                .pointer_mut(&p)
                .and_then(Value::as_object_mut)
                .expect("picked");
            let old = o.keys().nth(j.index(o.len())).expect("in range").clone();
            let v = o.shift_remove(&old).expect("present");
            o.insert((*name).to_owned(), v);
            format!("rename #{p}/{old} to {name:?}")
        }
        Mutation::Union(i, k, members) => {
            let Some(p) = pick(doc, i, |_, v| v.is_object()) else {
                return "union: no object".into();
            };
            let o = doc
                .pointer_mut(&p)
                .and_then(Value::as_object_mut)
                .expect("picked");
            o.insert((*k).to_owned(), Value::Array(members.clone()));
            format!("set #{p}/{k} to {}", Value::Array(members.clone()))
        }
        Mutation::Copy(i, j) => {
            let (Some(from), Some(to)) = (pick(doc, i, |_, _| true), pick(doc, j, |_, _| true))
            else {
                return "copy: nothing".into();
            };
            if to.starts_with(&format!("{from}/")) || from.starts_with(&format!("{to}/")) {
                return "copy: nested".into();
            }
            let v = doc.pointer(&from).expect("picked").clone();
            *doc.pointer_mut(&to).expect("picked") = v;
            format!("copy #{from} over #{to}")
        }
    }
}

/// Applies the mutations, runs the generator and checks the outcome.
fn mutate_and_generate(mut doc: Value, mutations: &[Mutation]) -> Result<(), TestCaseError> {
    let log: Vec<String> = mutations.iter().map(|m| apply(&mut doc, m)).collect();
    let text = doc.to_string();
    generate_checked(&text, Some(&doc)).map_err(|e| {
        let shown = if text.len() > 4000 {
            format!("{}… ({} bytes)", prefix(&text, 4000), text.len())
        } else {
            text.clone()
        };
        TestCaseError::fail(format!("{e}\n  mutations: {log:#?}\n  document: {shown}"))
    })
}

/// Prefixes a failure's message; rejections (`prop_assume!`) stay rejections.
fn context(e: TestCaseError, what: &str) -> TestCaseError {
    match e {
        TestCaseError::Fail(msg) => TestCaseError::fail(format!("{what}: {msg}")),
        reject => reject,
    }
}

/// The longest prefix of `s` of at most `n` bytes that ends on a character boundary.
fn prefix(s: &str, mut n: usize) -> &str {
    while !s.is_char_boundary(n) {
        n -= 1;
    }
    &s[..n]
}

fn report<V: std::fmt::Debug>(what: &str, r: Result<(), proptest::test_runner::TestError<V>>) {
    if let Err(e) = r {
        panic!("{what}: {e}");
    }
}

// ---------------------------------------------------------------------------------------
// Small documents cut from the official schemas

/// A document with the definition picked and, when `closure` is set, every definition it
/// references (transitively); other references dangle.
fn small_document(doc: &Value, pick_def: &Index, closure: bool) -> Value {
    let key = defs_key(doc);
    let defs = doc[key].as_object().expect("definitions");
    let names: Vec<&String> = defs.keys().collect();
    let first = names[pick_def.index(names.len())].clone();
    let mut chosen = vec![first];
    let mut i = 0;
    while closure && i < chosen.len() {
        let mut refs = Vec::new();
        collect_refs(&defs[&chosen[i]], key, &mut refs);
        for r in refs {
            if defs.contains_key(&r) && !chosen.contains(&r) {
                chosen.push(r);
            }
        }
        i += 1;
    }
    let subset: Map<String, Value> = chosen
        .into_iter()
        .map(|n| (n.clone(), defs[&n].clone()))
        .collect();
    json!({ "$schema": doc["$schema"], key: subset })
}

fn collect_refs(v: &Value, key: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            if let Some(Value::String(r)) = o.get("$ref")
                && let Some(n) = r.strip_prefix(&format!("#/{key}/"))
            {
                out.push(n.to_owned());
            }
            o.values().for_each(|x| collect_refs(x, key, out));
        }
        Value::Array(a) => a.iter().for_each(|x| collect_refs(x, key, out)),
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------
// Random schema-like documents

fn random_schema() -> BoxedStrategy<Value> {
    let name = || {
        prop_oneof![
            prop::sample::select(TRICKY_NAMES).prop_map(str::to_owned),
            "[a-zA-Z][a-zA-Z0-9_]{0,6}",
        ]
    };
    let type_name = prop::sample::select(vec![
        "object", "array", "string", "integer", "number", "boolean", "null", "any", "",
    ]);
    let leaf = prop_oneof![
        Just(json!({})),
        Just(json!(true)),
        Just(json!(false)),
        type_name.clone().prop_map(|t| json!({ "type": t })),
        prop::collection::vec(type_name, 0..4).prop_map(|t| json!({ "type": t })),
        any_value().prop_map(|c| json!({ "const": c })),
        prop::collection::vec(any_value(), 0..4).prop_map(|e| json!({ "enum": e })),
        prop::collection::vec(name(), 0..4).prop_map(|e| json!({ "type": "string", "enum": e })),
        prop_oneof![Just("#/$defs/A"), Just("#/$defs/B"), Just("#/$defs/C"), Just("#/definitions/A"), Just("#/$defs/")]
            .prop_map(|r| json!({ "$ref": r })),
        (name(), prop::sample::select(vec!["string", "integer"]))
            .prop_map(|(c, t)| json!({"type": "object", "properties": {"kind": {"const": c, "type": t}}, "required": ["kind"]})),
        any_value(),
    ];
    leaf.prop_recursive(4, 48, 4, move |inner| {
        prop_oneof![
            (
                prop::collection::vec((name(), inner.clone()), 0..4),
                prop::collection::vec(name(), 0..3),
                prop::option::of(prop_oneof![
                    Just(json!(false)),
                    Just(json!(true)),
                    inner.clone()
                ]),
            )
                .prop_map(|(props, req, ap)| {
                    let mut o = json!({
                        "type": "object",
                        "properties": Value::Object(props.into_iter().collect()),
                        "required": req,
                    });
                    if let Some(ap) = ap {
                        o["additionalProperties"] = ap;
                    }
                    o
                }),
            inner
                .clone()
                .prop_map(|i| json!({ "type": "array", "items": i })),
            (
                prop::sample::select(vec!["anyOf", "oneOf", "allOf"]),
                prop::collection::vec(inner.clone(), 0..4)
            )
                .prop_map(|(k, v)| json!({ k: v })),
            (inner.clone(), inner).prop_map(|(a, b)| {
                let mut a = a;
                if let (Value::Object(a), Value::Object(b)) = (&mut a, b) {
                    a.extend(b);
                }
                a
            }),
        ]
    })
    .boxed()
}

fn random_document() -> BoxedStrategy<Value> {
    (
        prop::option::of(prop::sample::select(vec![
            json!("https://json-schema.org/draft/2020-12/schema"),
            json!("http://json-schema.org/draft-07/schema#"),
            json!("http://json-schema.org/draft-04/schema#"),
            json!(7),
        ])),
        prop::sample::select(vec!["$defs", "definitions"]),
        prop::collection::vec(
            (
                prop_oneof![
                    4 => prop::sample::select(vec!["A", "B", "C"]),
                    1 => prop::sample::select(TRICKY_NAMES),
                ],
                random_schema(),
            ),
            0..5,
        ),
    )
        .prop_map(|(dialect, key, defs)| {
            let mut doc = Map::new();
            if let Some(d) = dialect {
                doc.insert("$schema".into(), d);
            }
            let defs: Map<String, Value> =
                defs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
            doc.insert(key.into(), Value::Object(defs));
            Value::Object(doc)
        })
        .boxed()
}

// ---------------------------------------------------------------------------------------
// Tests

/// Each official schema, mutated a few times over, never makes the generator panic.
#[test]
fn mutated_official_schemas() {
    let docs = official();
    let strategy = (0..docs.len(), prop::collection::vec(mutation(), 1..4));
    let mut runner = runner(cases(FULL_CASES) * docs.len() as u32);
    report(
        "mutated official schema",
        runner.run(&strategy, |(r, mutations)| {
            mutate_and_generate(docs[r].1.clone(), &mutations)
                .map_err(|e| context(e, &format!("revision {}", docs[r].0)))
        }),
    );
}

/// Small documents cut from the official schemas (one definition, with or without what it
/// references), mutated, never make the generator panic.
#[test]
fn mutated_small_documents() {
    let docs = official();
    let strategy = (
        0..docs.len(),
        any::<Index>(),
        any::<bool>(),
        prop::collection::vec(mutation(), 0..6),
    );
    report(
        "mutated small document",
        runner(cases(SMALL_CASES)).run(&strategy, |(r, def, closure, mutations)| {
            mutate_and_generate(small_document(&docs[r].1, &def, closure), &mutations)
                .map_err(|e| context(e, &format!("cut from {}", docs[r].0)))
        }),
    );
}

/// Random schema-like documents (odd names, consts, enums, unions, cycles) never make the
/// generator panic.
#[test]
fn random_documents() {
    report(
        "random document",
        runner(cases(RANDOM_CASES)).run(&random_document(), |doc| {
            let text = doc.to_string();
            generate_checked(&text, Some(&doc))
                .map_err(|e| TestCaseError::fail(format!("{e}\n  document: {text}")))
        }),
    );
}

/// Arbitrary text, arbitrary bytes (lossily decoded) and truncated official schemas never
/// make the generator panic.
#[test]
fn arbitrary_text() {
    let docs = official();
    let texts: Vec<String> = docs.iter().map(|(_, d)| d.to_string()).collect();
    let strategy = prop_oneof![
        any::<String>(),
        prop::collection::vec(any::<u8>(), 0..64)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        "[\\[\\]{}\":,0-9a-z$#/ ]{0,40}",
        (0..texts.len(), any::<Index>()).prop_map(move |(r, cut)| {
            let t = &texts[r];
            prefix(t, cut.index(t.len())).to_owned()
        }),
    ];
    report(
        "arbitrary text",
        runner(cases(TEXT_CASES)).run(&strategy, |text| {
            generate_checked(&text, None)
                .map_err(|e| TestCaseError::fail(format!("{e}\n  text: {text:?}")))
        }),
    );
}

/// The check itself: a known-bad edit gives a schema error naming the node, which passes;
/// an error naming a node the document lacks would not.
#[test]
fn error_pointers_are_checked() {
    let (_, doc) = &official()[4];
    let mut doc = doc.clone();
    doc["$defs"]["Tool"]["properties"]["inputSchema"]["patternProperties"] = json!({});
    let e = Builder::new()
        .schema_json(doc.to_string())
        .generate()
        .expect_err("patternProperties is not supported");
    assert_eq!(
        e.to_string(),
        "#/$defs/Tool/properties/inputSchema: unsupported keyword 'patternProperties'"
    );
    assert_eq!(generate_checked(&doc.to_string(), Some(&doc)), Ok(()));
    let elsewhere = json!({"$defs": {}});
    assert!(!resolves(
        &elsewhere,
        "#/$defs/Tool/properties/inputSchema/patternProperties"
    ));
    assert!(resolves(&elsewhere, "#/$defs/Tool"));
    assert!(resolves(&elsewhere, "#"));
}

/// Inputs that made the generator panic or overflow its stack before 0097812: names with
/// characters Rust identifiers reject, and nesting near serde_json's depth limit (on a
/// test thread's 2 MiB stack).
#[test]
fn odd_names_and_deep_nesting() {
    let mut docs = vec![
        json!({"$defs": {"²": {"type": "string"}}}),
        json!({"$defs": {"٣": {"type": "string"}, "ⓐ": {"type": "integer"}}}),
        json!({"$defs": {"A": {"type": "object", "properties": {"①": {"type": "string"}, "x²": {"type": "string"}}}}}),
        json!({"$defs": {"A": {"enum": ["a", "x²", "①"]}}}),
        json!({"$defs": {"A": {"type": "object", "properties": {"k": {"const": "①"}}}}}),
    ];
    for levels in [55, 60, 120] {
        let mut s = json!({});
        for _ in 0..levels {
            s = json!({ "additionalProperties": s });
        }
        docs.push(json!({ "$defs": { "A": s } }));
        let mut s = json!({"type": "string"});
        for _ in 0..levels / 2 {
            s = json!({ "type": "array", "items": s });
        }
        docs.push(json!({ "$defs": { "A": s } }));
    }
    for doc in docs {
        let text = doc.to_string();
        generate_checked(&text, Some(&doc)).unwrap_or_else(|e| panic!("{e}\n  document: {text}"));
    }
}

/// A regression found by `mutated_small_documents`: an alias that reaches itself through a map
/// (`JSONObject` = a map of `JSONObject`) sent the unknown-member walk into endless recursion.
#[test]
fn an_alias_reaching_itself_through_a_map_terminates() {
    let doc = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
        "JSONArray": {"items": {"type": "object", "properties": {"p": {"$ref": "#/$defs/JSONValue"}}, "required": ["p"]}, "type": "array"},
        "JSONValue": {"anyOf": [{"$ref": "#/$defs/JSONObject"}, {"items": {"$ref": "#/$defs/JSONValue"}, "type": "array"}, {"type": ["string", "boolean"]}]},
        "JSONObject": {"additionalProperties": {"$ref": "#/$defs/JSONObject"}, "type": "object"}
    }});
    assert_eq!(generate_checked(&doc.to_string(), Some(&doc)), Ok(()));
}

/// A regression found by `mutated_official_schemas`: an error definition whose name is a
/// number made an error-code constant that is no identifier.
#[test]
fn an_error_definition_named_by_a_number_makes_no_invalid_constant() {
    let doc = json!({"$defs": {
        "123Error": {"type": "object", "properties": {"code": {"const": -1}, "message": {"type": "string"}}, "required": ["code", "message"]},
        "Other": {"type": "object", "properties": {"code": {"const": -2}}, "required": ["code"]}
    }});
    assert_eq!(generate_checked(&doc.to_string(), Some(&doc)), Ok(()));
}
