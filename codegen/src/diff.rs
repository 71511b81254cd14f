//! Comparing two schemas: the definitions and fields added, removed and changed between two
//! revisions.
//!
//! [`diff`] works on loaded documents ([`SchemaDoc`]), so the dialect does not matter: a
//! `$ref` is compared by the name of the definition it points to, whether it is spelled
//! `#/definitions/X` (draft-07) or `#/$defs/X` (2020-12). Descriptions, titles, `$comment`s
//! and examples are documentation and are ignored.
//!
//! What is reported, for every definition present in both documents and recursively for the
//! properties of inline objects (`params.message`) and of inline array items
//! (`content[].type`):
//! * fields added and removed, with whether they are required,
//! * type changes, the type written TypeScript-style (`string`, `ContentBlock[]`,
//!   `string | integer`, `{ [key: string]: unknown }`, a definition by its name),
//! * required ↔ optional, `const` changes, `enum` values added and removed, union
//!   (`anyOf`/`oneOf`) variants added and removed,
//! * any other keyword that changed (`format`, `minimum`, `additionalProperties`, …),
//! * as a last resort, a node whose schema changed in a way none of the above describes.

use std::collections::BTreeSet;
use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::load::SchemaDoc;

/// The differences between two schemas, in definition-name order.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SchemaDiff {
    /// Every change, grouped by definition (sorted by name), then by field.
    pub changes: Vec<Change>,
}

/// One difference.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    /// The definition concerned.
    pub definition: String,
    /// The field within it: `name`, `params.message` (a property of an inline object),
    /// `content[]` (the items of an array), or `None` for the definition itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// What changed.
    #[serde(flatten)]
    pub kind: ChangeKind,
}

/// What changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum ChangeKind {
    /// A definition only the new schema has.
    DefinitionAdded,
    /// A definition only the old schema has.
    DefinitionRemoved,
    /// A field only the new schema has.
    FieldAdded {
        /// Whether it is required.
        required: bool,
        /// Its type.
        #[serde(rename = "type")]
        ty: String,
        /// Its `const` value, if it has one.
        #[serde(rename = "const", skip_serializing_if = "Option::is_none")]
        constant: Option<Value>,
    },
    /// A field only the old schema has.
    FieldRemoved {
        /// Whether it was required.
        required: bool,
    },
    /// The type changed.
    Type {
        /// Old type.
        from: String,
        /// New type.
        to: String,
    },
    /// The field became required or optional.
    Required {
        /// Was it required.
        from: bool,
        /// Is it required.
        to: bool,
    },
    /// The `const` value changed, appeared or disappeared.
    Const {
        /// Old value.
        from: Option<Value>,
        /// New value.
        to: Option<Value>,
    },
    /// `enum` values were added or removed.
    Enum {
        /// Values only the new schema allows.
        added: Vec<Value>,
        /// Values only the old schema allowed.
        removed: Vec<Value>,
    },
    /// Variants of a union (`anyOf`/`oneOf`) were added or removed.
    Variants {
        /// Variants (by type) only the new schema has.
        added: Vec<String>,
        /// Variants only the old schema had.
        removed: Vec<String>,
    },
    /// Another keyword changed, appeared or disappeared.
    Keyword {
        /// The keyword.
        keyword: String,
        /// Old value (references normalized to `#/$defs/Name`, descriptions removed).
        from: Option<Value>,
        /// New value.
        to: Option<Value>,
    },
    /// The schema changed in a way the other kinds do not describe.
    Schema {
        /// Old schema (normalized).
        from: Value,
        /// New schema (normalized).
        to: Value,
    },
}

impl SchemaDiff {
    /// Whether the schemas are equivalent (up to documentation and dialect).
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// Counts of the changes.
    pub fn summary(&self) -> Summary {
        let mut s = Summary::default();
        let mut changed = BTreeSet::new();
        for c in &self.changes {
            match c.kind {
                ChangeKind::DefinitionAdded => s.definitions_added += 1,
                ChangeKind::DefinitionRemoved => s.definitions_removed += 1,
                _ => {
                    changed.insert(c.definition.as_str());
                }
            }
        }
        s.definitions_changed = changed.len();
        s.changes = self.changes.len();
        s
    }

    /// The changes of one definition.
    pub fn for_definition<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Change> + 'a {
        self.changes.iter().filter(move |c| c.definition == name)
    }
}

/// Counts of a [`SchemaDiff`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Definitions only the new schema has.
    pub definitions_added: usize,
    /// Definitions only the old schema has.
    pub definitions_removed: usize,
    /// Definitions in both with at least one change.
    pub definitions_changed: usize,
    /// All changes.
    pub changes: usize,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} definitions added, {} removed, {} changed ({} changes)",
            self.definitions_added,
            self.definitions_removed,
            self.definitions_changed,
            self.changes
        )
    }
}

/// One line per change, each ending with a newline.
impl fmt::Display for SchemaDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in &self.changes {
            writeln!(f, "{c}")?;
        }
        Ok(())
    }
}

impl Change {
    /// `definition X` or `X.field`.
    pub fn subject(&self) -> String {
        match &self.field {
            None => format!("definition {}", self.definition),
            Some(f) if f.starts_with('[') => format!("{}{f}", self.definition),
            Some(f) => format!("{}.{f}", self.definition),
        }
    }
}

/// One line: `+ definition X`, `- definition X`, or `~ SUBJECT: WHAT`.
impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let subject = self.subject();
        match &self.kind {
            ChangeKind::DefinitionAdded => write!(f, "+ {subject}"),
            ChangeKind::DefinitionRemoved => write!(f, "- {subject}"),
            ChangeKind::FieldAdded {
                required,
                ty,
                constant,
            } => {
                write!(f, "~ {subject}: added ({}), type {ty}", req(*required))?;
                match constant {
                    Some(c) => write!(f, ", const {}", show(c)),
                    None => Ok(()),
                }
            }
            ChangeKind::FieldRemoved { required } => {
                write!(f, "~ {subject}: removed (was {})", req(*required))
            }
            ChangeKind::Type { from, to } => write!(f, "~ {subject}: type {from} → {to}"),
            ChangeKind::Required { from, to } => {
                write!(f, "~ {subject}: {} → {}", req(*from), req(*to))
            }
            ChangeKind::Const { from, to } => {
                write!(f, "~ {subject}: const {} → {}", opt(from), opt(to))
            }
            ChangeKind::Enum { added, removed } => {
                write!(f, "~ {subject}: enum")?;
                if !added.is_empty() {
                    write!(f, " added {}", list(added.iter().map(show)))?;
                }
                if !added.is_empty() && !removed.is_empty() {
                    f.write_str(";")?;
                }
                if !removed.is_empty() {
                    write!(f, " removed {}", list(removed.iter().map(show)))?;
                }
                Ok(())
            }
            ChangeKind::Variants { added, removed } => {
                write!(f, "~ {subject}: variants")?;
                if !added.is_empty() {
                    write!(f, " added {}", list(added.iter().cloned()))?;
                }
                if !added.is_empty() && !removed.is_empty() {
                    f.write_str(";")?;
                }
                if !removed.is_empty() {
                    write!(f, " removed {}", list(removed.iter().cloned()))?;
                }
                Ok(())
            }
            ChangeKind::Keyword { keyword, from, to } => {
                write!(f, "~ {subject}: {keyword} {} → {}", opt(from), opt(to))
            }
            ChangeKind::Schema { from, to } => {
                write!(f, "~ {subject}: schema {} → {}", show(from), show(to))
            }
        }
    }
}

fn req(required: bool) -> &'static str {
    if required { "required" } else { "optional" }
}

fn opt(v: &Option<Value>) -> String {
    v.as_ref().map_or_else(|| "(none)".to_owned(), show)
}

fn list(items: impl Iterator<Item = String>) -> String {
    items.collect::<Vec<_>>().join(", ")
}

/// Compact JSON, cut to 120 characters.
fn show(v: &Value) -> String {
    const MAX: usize = 120;
    let s = v.to_string();
    if s.chars().count() <= MAX {
        s
    } else {
        let mut cut: String = s.chars().take(MAX - 1).collect();
        cut.push('…');
        cut
    }
}

/// Compares two schemas. Never fails: malformed parts are compared as they are.
pub fn diff(old: &SchemaDoc, new: &SchemaDoc) -> SchemaDiff {
    let mut cx = Cx {
        old,
        new,
        out: Vec::new(),
    };
    let names: BTreeSet<&String> = old
        .definitions()
        .keys()
        .chain(new.definitions().keys())
        .collect();
    for name in names {
        match (old.definitions().get(name), new.definitions().get(name)) {
            (Some(a), Some(b)) => cx.node(name, None, a, b),
            (None, Some(_)) => cx.push(name, None, ChangeKind::DefinitionAdded),
            (Some(_), None) => cx.push(name, None, ChangeKind::DefinitionRemoved),
            (None, None) => {}
        }
    }
    SchemaDiff { changes: cx.out }
}

/// Documentation keywords, never compared.
const DOC_KEYWORDS: &[&str] = &["description", "title", "$comment", "examples"];

/// Keywords compared by [`Cx::node`] itself rather than as plain keywords.
const STRUCTURAL_KEYWORDS: &[&str] = &[
    "type",
    "$ref",
    "anyOf",
    "oneOf",
    "allOf",
    "items",
    "properties",
    "required",
    "const",
    "enum",
];

/// Keywords whose values are instances, not schemas: kept as they are.
const VALUE_KEYWORDS: &[&str] = &["const", "enum", "default", "examples"];

/// Keywords whose values map names to schemas.
const SCHEMA_MAP_KEYWORDS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Keywords whose array values are order-insensitive.
const SET_KEYWORDS: &[&str] = &["required", "enum", "type", "anyOf", "oneOf", "allOf"];

#[derive(Clone, Copy)]
enum Side {
    Old,
    New,
}

struct Cx<'a> {
    old: &'a SchemaDoc,
    new: &'a SchemaDoc,
    out: Vec<Change>,
}

impl Cx<'_> {
    fn doc(&self, side: Side) -> &SchemaDoc {
        match side {
            Side::Old => self.old,
            Side::New => self.new,
        }
    }

    fn push(&mut self, def: &str, field: Option<&str>, kind: ChangeKind) {
        self.out.push(Change {
            definition: def.to_owned(),
            field: field.map(str::to_owned),
            kind,
        });
    }

    /// Compares the schema nodes `a` (old) and `b` (new) found at `field` of `def`.
    fn node(&mut self, def: &str, field: Option<&str>, a: &Value, b: &Value) {
        let start = self.out.len();
        let (ta, tb) = (
            describe(a, self.doc(Side::Old)),
            describe(b, self.doc(Side::New)),
        );
        let same_type = ta == tb;
        // Two arrays are compared by their items, so that a change there is named precisely
        // (`content[]: variants added AudioContent`) rather than as a change of the whole type.
        let both_arrays = is_array(a) && is_array(b);
        match (
            union_members(a, self.doc(Side::Old)),
            union_members(b, self.doc(Side::New)),
        ) {
            (Some(ma), Some(mb)) => {
                let added: Vec<String> = mb.iter().filter(|m| !ma.contains(m)).cloned().collect();
                let removed: Vec<String> = ma.iter().filter(|m| !mb.contains(m)).cloned().collect();
                if !added.is_empty() || !removed.is_empty() {
                    self.push(def, field, ChangeKind::Variants { added, removed });
                }
            }
            _ if !same_type && !both_arrays => {
                self.push(def, field, ChangeKind::Type { from: ta, to: tb })
            }
            _ => {}
        }

        let empty = Map::new();
        let oa = a.as_object().unwrap_or(&empty);
        let ob = b.as_object().unwrap_or(&empty);

        if oa.get("const") != ob.get("const") {
            let kind = ChangeKind::Const {
                from: oa.get("const").cloned(),
                to: ob.get("const").cloned(),
            };
            self.push(def, field, kind);
        }

        match (oa.get("enum"), ob.get("enum")) {
            (Some(Value::Array(ea)), Some(Value::Array(eb))) => {
                let added: Vec<Value> = eb.iter().filter(|v| !ea.contains(v)).cloned().collect();
                let removed: Vec<Value> = ea.iter().filter(|v| !eb.contains(v)).cloned().collect();
                if !added.is_empty() || !removed.is_empty() {
                    self.push(def, field, ChangeKind::Enum { added, removed });
                }
            }
            (ea, eb) if ea != eb => {
                let kind = ChangeKind::Keyword {
                    keyword: "enum".into(),
                    from: ea.cloned(),
                    to: eb.cloned(),
                };
                self.push(def, field, kind);
            }
            _ => {}
        }

        // `additionalProperties` is part of the type of a map (an object without properties).
        let has_props = |o: &Map<String, Value>| o.contains_key("properties");
        let map_like = !has_props(oa) && !has_props(ob);
        let keywords: BTreeSet<&String> = oa
            .keys()
            .chain(ob.keys())
            .filter(|k| {
                let k = k.as_str();
                let in_type =
                    STRUCTURAL_KEYWORDS.contains(&k) || (map_like && k == "additionalProperties");
                !DOC_KEYWORDS.contains(&k) && !in_type
            })
            .collect();
        // Beside a `$ref` other keywords are noise; a change to or from a reference is
        // already reported as a type change.
        let compare_keywords = oa.contains_key("$ref") == ob.contains_key("$ref");
        for k in keywords.into_iter().filter(|_| compare_keywords) {
            let va = keyword(oa, k, self.doc(Side::Old));
            let vb = keyword(ob, k, self.doc(Side::New));
            if canonical(va.as_ref()) != canonical(vb.as_ref()) {
                let kind = ChangeKind::Keyword {
                    keyword: k.clone(),
                    from: va,
                    to: vb,
                };
                self.push(def, field, kind);
            }
        }

        if same_type && (has_props(oa) || has_props(ob)) {
            self.properties(def, field, oa, ob);
        }
        if (same_type || both_arrays)
            && let (Some(ia), Some(ib)) = (oa.get("items"), ob.get("items"))
        {
            let path = format!("{}[]", field.unwrap_or(""));
            self.node(def, Some(&path), ia, ib);
        }

        if self.out.len() == start {
            let na = normalize(a, self.doc(Side::Old));
            let nb = normalize(b, self.doc(Side::New));
            if canonical(Some(&na)) != canonical(Some(&nb)) {
                self.push(def, field, ChangeKind::Schema { from: na, to: nb });
            }
        }
    }

    fn properties(
        &mut self,
        def: &str,
        field: Option<&str>,
        oa: &Map<String, Value>,
        ob: &Map<String, Value>,
    ) {
        let empty = Map::new();
        let pa = oa
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let pb = ob
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let (ra, rb) = (required(oa), required(ob));
        let names: BTreeSet<&String> = pa.keys().chain(pb.keys()).collect();
        for name in names {
            let path = match field {
                Some(f) => format!("{f}.{name}"),
                None => name.clone(),
            };
            let (was, is) = (ra.contains(name.as_str()), rb.contains(name.as_str()));
            match (pa.get(name), pb.get(name)) {
                (None, Some(s)) => {
                    let kind = ChangeKind::FieldAdded {
                        required: is,
                        ty: describe(s, self.doc(Side::New)),
                        constant: s.get("const").cloned(),
                    };
                    self.push(def, Some(&path), kind);
                }
                (Some(_), None) => {
                    self.push(def, Some(&path), ChangeKind::FieldRemoved { required: was });
                }
                (Some(x), Some(y)) => {
                    if was != is {
                        self.push(def, Some(&path), ChangeKind::Required { from: was, to: is });
                    }
                    self.node(def, Some(&path), x, y);
                }
                (None, None) => {}
            }
        }
    }
}

/// The normalized value of keyword `k`; an `additionalProperties` that allows anything counts
/// as absent.
fn keyword(o: &Map<String, Value>, k: &str, doc: &SchemaDoc) -> Option<Value> {
    let v = o.get(k)?;
    if k == "additionalProperties" && allows_anything(v) {
        return None;
    }
    Some(normalize_in(k, v, doc))
}

/// `true`, or a schema with nothing but documentation.
fn allows_anything(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::Object(o) => o.keys().all(|k| DOC_KEYWORDS.contains(&k.as_str())),
        _ => false,
    }
}

/// Whether a node is an array (and nothing else) with `items`.
fn is_array(v: &Value) -> bool {
    v.get("type").and_then(Value::as_str) == Some("array")
        && v.get("items").is_some()
        && v.get("$ref").is_none()
}

/// The names listed in `required`.
fn required(o: &Map<String, Value>) -> BTreeSet<&str> {
    o.get("required")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// The name of the definition a `$ref` points to, whatever the dialect.
fn ref_name<'r>(reference: &'r str, doc: &SchemaDoc) -> Option<&'r str> {
    doc.resolve_ref(reference, "#").ok()
}

/// The variants of a union node, described.
fn union_members(v: &Value, doc: &SchemaDoc) -> Option<Vec<String>> {
    let o = v.as_object()?;
    if o.contains_key("$ref") {
        return None;
    }
    let members = o.get("anyOf").or_else(|| o.get("oneOf"))?.as_array()?;
    Some(members.iter().map(|m| describe(m, doc)).collect())
}

/// A TypeScript-style type for a schema node.
pub fn describe(v: &Value, doc: &SchemaDoc) -> String {
    match v {
        Value::Bool(true) => "unknown".into(),
        Value::Bool(false) => "never".into(),
        Value::Object(o) => describe_object(o, doc),
        other => format!("invalid schema {}", show(other)),
    }
}

fn describe_object(o: &Map<String, Value>, doc: &SchemaDoc) -> String {
    if let Some(r) = o.get("$ref") {
        return match r.as_str() {
            Some(s) => ref_name(s, doc).map_or_else(|| format!("$ref {r}"), str::to_owned),
            None => format!("$ref {r}"),
        };
    }
    for (key, sep) in [("anyOf", " | "), ("oneOf", " | "), ("allOf", " & ")] {
        if let Some(Value::Array(members)) = o.get(key) {
            return members
                .iter()
                .map(|m| {
                    let t = describe(m, doc);
                    // `A | (B | C)` is `A | B | C`; only mixed operators need parentheses.
                    if sep == " | " && !t.contains(" & ") {
                        t
                    } else {
                        parenthesize(t)
                    }
                })
                .collect::<Vec<_>>()
                .join(sep);
        }
    }
    let types: Vec<&str> = match o.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if types.is_empty() {
        if let Some(c) = o.get("const") {
            return json_type(c).into();
        }
        if let Some(Value::Array(values)) = o.get("enum") {
            let mut ts: Vec<&str> = values.iter().map(json_type).collect();
            ts.dedup();
            return ts.join(" | ");
        }
        if o.contains_key("properties") {
            return "object".into();
        }
        return "unknown".into();
    }
    types
        .iter()
        .map(|t| match *t {
            "array" => match o.get("items") {
                Some(items) => format!("{}[]", parenthesize(describe(items, doc))),
                None => "unknown[]".into(),
            },
            "object" if !o.contains_key("properties") => match o.get("additionalProperties") {
                Some(Value::Bool(false)) => "{}".into(),
                Some(schema) if !allows_anything(schema) => {
                    format!("{{ [key: string]: {} }}", describe(schema, doc))
                }
                _ => "object".into(),
            },
            t => t.into(),
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

fn parenthesize(t: String) -> String {
    if t.contains(" | ") || t.contains(" & ") {
        format!("({t})")
    } else {
        t
    }
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A schema node without documentation and with every `$ref` spelled `#/$defs/Name`.
pub fn normalize(v: &Value, doc: &SchemaDoc) -> Value {
    let Value::Object(o) = v else {
        return v.clone();
    };
    let mut out = Map::new();
    for (k, val) in o {
        if DOC_KEYWORDS.contains(&k.as_str()) {
            continue;
        }
        out.insert(k.clone(), normalize_in(k, val, doc));
    }
    Value::Object(out)
}

/// Normalizes the value of keyword `k`.
fn normalize_in(k: &str, v: &Value, doc: &SchemaDoc) -> Value {
    match v {
        _ if VALUE_KEYWORDS.contains(&k) => v.clone(),
        Value::String(r) if k == "$ref" => match ref_name(r, doc) {
            Some(name) => Value::String(format!("#/$defs/{name}")),
            None => v.clone(),
        },
        Value::Object(m) if SCHEMA_MAP_KEYWORDS.contains(&k) => Value::Object(
            m.iter()
                .map(|(name, s)| (name.clone(), normalize(s, doc)))
                .collect(),
        ),
        Value::Object(_) => normalize(v, doc),
        Value::Array(items) => Value::Array(items.iter().map(|s| normalize(s, doc)).collect()),
        _ => v.clone(),
    }
}

/// A form in which order-insensitive arrays are sorted, for comparing normalized values.
fn canonical(v: Option<&Value>) -> Option<Value> {
    fn go(v: &Value) -> Value {
        match v {
            Value::Object(m) => Value::Object(
                m.iter()
                    .map(|(k, x)| {
                        let x = match x {
                            Value::Array(items) if SET_KEYWORDS.contains(&k.as_str()) => {
                                let mut items: Vec<Value> = items.iter().map(go).collect();
                                items.sort_by_cached_key(Value::to_string);
                                Value::Array(items)
                            }
                            _ => go(x),
                        };
                        (k.clone(), x)
                    })
                    .collect(),
            ),
            Value::Array(items) => Value::Array(items.iter().map(go).collect()),
            other => other.clone(),
        }
    }
    v.map(go)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc07(defs: Value) -> SchemaDoc {
        SchemaDoc::from_value(json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "definitions": defs,
        }))
        .unwrap()
    }

    fn doc20(defs: Value) -> SchemaDoc {
        SchemaDoc::from_value(json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$defs": defs,
        }))
        .unwrap()
    }

    fn lines(d: &SchemaDiff) -> Vec<String> {
        d.changes.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn dialect_change_alone_is_no_change() {
        let a = doc07(json!({
            "A": {"type": "object", "properties": {
                "b": {"$ref": "#/definitions/B", "description": "old"},
                "c": {"type": "array", "items": {"$ref": "#/definitions/B"}},
                "d": {"anyOf": [{"$ref": "#/definitions/B"}, {"type": "string"}]},
                "e": {"additionalProperties": {"$ref": "#/definitions/B"}, "type": "object"},
            }, "required": ["b", "c"]},
            "B": {"type": "string", "enum": ["x", "y"]},
        }));
        let b = doc20(json!({
            "A": {"type": "object", "properties": {
                "b": {"$ref": "#/$defs/B", "description": "new"},
                "c": {"type": "array", "items": {"$ref": "#/$defs/B"}},
                "d": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/B"}]},
                "e": {"type": "object", "additionalProperties": {"$ref": "#/$defs/B"}},
            }, "required": ["c", "b"]},
            "B": {"type": "string", "enum": ["x", "y"], "description": "doc"},
        }));
        let d = diff(&a, &b);
        assert!(d.is_empty(), "{d}");
        assert!(diff(&b, &a).is_empty());
    }

    #[test]
    fn reports_every_kind() {
        let a = doc07(json!({
            "Gone": {"type": "object"},
            "R": {"type": "object", "properties": {
                "kept": {"type": "string"},
                "opt": {"type": "string"},
                "req": {"type": "integer"},
                "ty": {"type": "string"},
                "k": {"type": "string", "const": "a"},
                "fmt": {"type": "string"},
                "list": {"type": "array", "items": {"$ref": "#/definitions/Gone"}},
                "params": {"type": "object", "properties": {"m": {"type": "string"}}, "required": ["m"]},
                "inline": {"type": "object", "properties": {"x": {"type": "string"}}},
                "rows": {"type": "array", "items": {"type": "object", "properties": {"x": {"type": "string"}}}},
                "dropped": {"type": "string"},
            }, "required": ["req", "dropped"]},
            "E": {"type": "string", "enum": ["a", "b"]},
            "U": {"anyOf": [{"$ref": "#/definitions/E"}, {"type": "string"}]},
            "X": {"anyOf": [{"type": "object", "properties": {"p": {"type": "string"}}}]},
        }));
        let b = doc20(json!({
            "New": {"type": "object"},
            "R": {"type": "object", "properties": {
                "kept": {"type": "string"},
                "opt": {"type": "string"},
                "req": {"type": "integer"},
                "ty": {"type": ["string", "integer"]},
                "k": {"type": "string", "const": "b"},
                "fmt": {"type": "string", "format": "uri"},
                "list": {"type": "array", "items": {"$ref": "#/$defs/New"}},
                "params": {"type": "object", "properties": {"m": {"type": "string"}, "n": {"type": "boolean"}}, "required": ["m", "n"]},
                "inline": {"$ref": "#/$defs/New"},
                "rows": {"type": "array", "items": {"type": "object", "properties": {"x": {"type": "number"}}}},
                "added": {"type": "object", "additionalProperties": {"type": "string"}},
                "kind": {"type": "string", "const": "r"},
            }, "required": ["opt", "added"]},
            "E": {"type": "string", "enum": ["b", "c"]},
            "U": {"anyOf": [{"$ref": "#/$defs/E"}, {"$ref": "#/$defs/New"}]},
            "X": {"anyOf": [{"type": "object", "properties": {"p": {"type": "integer"}}}]},
        }));
        let d = diff(&a, &b);
        expect_test::expect![[r#"
            ~ definition E: enum added "c"; removed "a"
            - definition Gone
            + definition New
            ~ R.added: added (required), type { [key: string]: string }
            ~ R.dropped: removed (was required)
            ~ R.fmt: format (none) → "uri"
            ~ R.inline: type object → New
            ~ R.k: const "a" → "b"
            ~ R.kind: added (optional), type string, const "r"
            ~ R.list[]: type Gone → New
            ~ R.opt: optional → required
            ~ R.params.n: added (required), type boolean
            ~ R.req: required → optional
            ~ R.rows[].x: type string → number
            ~ R.ty: type string → string | integer
            ~ definition U: variants added New; removed string
            ~ definition X: schema {"anyOf":[{"type":"object","properties":{"p":{"type":"string"}}}]} → {"anyOf":[{"type":"object","properties":{"p":{"type":"integer"}}}]}
        "#]]
        .assert_eq(&d.to_string());
        let s = d.summary();
        assert_eq!(
            (
                s.definitions_added,
                s.definitions_removed,
                s.definitions_changed
            ),
            (1, 1, 4)
        );
        assert_eq!(s.changes, d.changes.len());
        let json = serde_json::to_value(&d.changes[3]).unwrap();
        assert_eq!(
            json,
            json!({"definition": "R", "field": "added", "change": "field_added", "required": true, "type": "{ [key: string]: string }"})
        );
        assert_eq!(lines(&diff(&b, &a)).len(), d.changes.len());
    }

    #[test]
    fn malformed_schemas_do_not_panic() {
        let a = doc07(json!({
            "A": 3, "B": {"properties": 1, "required": "x", "type": 7, "anyOf": {}},
            "C": {"$ref": 5, "enum": 1, "items": []}, "D": {"$ref": "#/definitions/Nope"},
            "E": {"properties": {"x": "y"}, "type": "object"},
        }));
        let b = doc20(json!({
            "A": [], "B": {"properties": {"p": 1}, "required": [1, "p"], "type": ["object", 2]},
            "C": {"$ref": "elsewhere.json#/X", "enum": [], "items": {"type": "array", "items": false}},
            "D": true, "E": {"properties": {"x": null}, "type": "object"},
        }));
        let d = diff(&a, &b);
        assert!(!d.is_empty());
        let _ = d.to_string();
        let _ = diff(&b, &a).to_string();
        assert!(diff(&a, &a).is_empty());
        assert!(diff(&b, &b).is_empty());
    }
}
