//! Schema-driven proptest strategies: JSON instances that are valid against a definition of a
//! JSON Schema document (the official MCP `schema.json` files, draft-07 or 2020-12).
//!
//! [`SchemaStrategies::definition`] reads the definition and builds a strategy from it:
//!
//! - `$ref` (`#/definitions/X` and `#/$defs/X`) is followed; `allOf` members are merged into
//!   one object schema (properties, `required`, `additionalProperties` as JSON Schema applies
//!   them); `anyOf`/`oneOf` pick a member.
//! - `const`, `enum`, `type` (also arrays of types and `"null"`), `properties`/`required`
//!   (required members always, optional ones at random), `additionalProperties` (extra
//!   `x-…` keys where allowed, vendor keys such as `example.com/…` inside `_meta`, now and
//!   then — in the definition's own object — a property name the schema declares elsewhere,
//!   so that union decoders meet members of other variants; values follow the schema when
//!   it gives one), `items`, `minItems`/`maxItems`,
//!   `minimum`/`maximum` (and the exclusive forms), `format` (`uri`, `uri-template`, `date`,
//!   `date-time`, `time`, `email`, `uuid`, `byte`).
//! - `number` yields integers (small and full-range `i64`/`u64`) and floats with fractions;
//!   `integer` yields integers only, in the range the generated Rust type (`i64`, or `u64`
//!   when `minimum >= 0`) holds.
//! - Object members come in random order, so decoders that look for a discriminator meet it
//!   anywhere.
//! - Recursive definitions (`JSONValue`) end: every object or array level spends one unit of
//!   the depth budget; at zero, optional members, extra keys and array items are left out.
//!
//! A keyword it does not know makes it panic, naming the keyword and the JSON pointer, rather
//! than produce instances that may be invalid. Callers should still validate what it makes
//! (the property tests do, as a self-check).

use std::collections::HashMap;

use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::{BoxedStrategy, Just, Union};
use serde_json::{Map, Value};

/// Properties the code generator fixes although the schema states their value only in prose
/// (`mcp_typed_codegen::Options::default_fixed`): `(definition, property, value)`.
///
/// Override, deliberately: the 2026-07-28 schema types `InputRequiredResult.resultType` as a
/// plain string and says in its description that it is `"input_required"`. The generated
/// `InputRequiredResult` checks that value (without it a complete result missing a member
/// would be taken for an input-required one), so instances of that definition must carry it.
/// Any other value is schema-valid but, by design, not an `InputRequiredResult`.
pub const FIXED: &[(&str, &str, &str)] = &[("InputRequiredResult", "resultType", "input_required")];

/// The depth budget [`SchemaStrategies::new`] starts with: object/array levels below the
/// definition that may carry optional members.
pub const DEFAULT_DEPTH: u32 = 5;

/// Keywords that do not constrain instances.
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "$comment",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$schema",
    "$id",
    "contentEncoding",
    "contentMediaType",
];

/// Keywords the strategy honours.
const SUPPORTED: &[&str] = &[
    "$ref",
    "allOf",
    "anyOf",
    "oneOf",
    "const",
    "enum",
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
    "format",
];

/// `$ref` hops and nesting levels after which a schema is taken to recurse without end.
const HARD_LIMIT: u32 = 64;
/// Items an array gets beyond its `minItems`, at most.
const MAX_EXTRA_ITEMS: usize = 3;
/// Extra (undeclared) members an object gets, at most.
const MAX_EXTRA_MEMBERS: usize = 2;

/// Where an object sits, which decides what its extra keys look like.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
struct Ctx {
    /// The value of a `_meta` member: extra keys are vendor-prefixed (`example.com/x`).
    meta: bool,
    /// The definition's own object (reached through `$ref`, unions and `allOf` only, not
    /// through properties or items): the one place foreign members go.
    top: bool,
}

/// Builds strategies for the definitions of one schema document; strategies for the same
/// definition at the same depth are built once and shared.
pub struct SchemaStrategies {
    doc: Value,
    defs_key: &'static str,
    depth: u32,
    cache: HashMap<(String, u32, Ctx), BoxedStrategy<Value>>,
    /// Every property name the document declares somewhere: extra members sometimes take
    /// one, so that an object also carries members another union variant declares.
    property_names: Vec<String>,
    /// Whether extra members may take those names.
    foreign_members: bool,
}

/// The member that holds a document's definitions: `$defs` (2020-12) or `definitions`
/// (draft-07).
pub fn definitions_key(doc: &Value) -> &'static str {
    if doc.get("$defs").is_some() {
        "$defs"
    } else {
        "definitions"
    }
}

impl SchemaStrategies {
    /// Strategies for the definitions of `doc`, with [`DEFAULT_DEPTH`].
    pub fn new(doc: &Value) -> Self {
        let defs_key = definitions_key(doc);
        assert!(
            doc.get(defs_key).is_some_and(Value::is_object),
            "the schema document has no `{defs_key}` object"
        );
        let mut property_names = Vec::new();
        collect_property_names(doc, &mut property_names);
        property_names.sort();
        property_names.dedup();
        SchemaStrategies {
            doc: doc.clone(),
            defs_key,
            depth: DEFAULT_DEPTH,
            cache: HashMap::new(),
            property_names,
            foreign_members: true,
        }
    }

    /// Sets the depth budget.
    pub fn with_depth(mut self, depth: u32) -> Self {
        self.depth = depth;
        self.cache.clear();
        self
    }

    /// Extra members keep to `x-…`/vendor keys: never a property name declared elsewhere in
    /// the schema.
    pub fn without_foreign_members(mut self) -> Self {
        self.foreign_members = false;
        self.cache.clear();
        self
    }

    /// `$defs` or `definitions`.
    pub fn defs_key(&self) -> &'static str {
        self.defs_key
    }

    /// Names of the document's definitions, in file order.
    pub fn definition_names(&self) -> Vec<String> {
        self.defs().keys().cloned().collect()
    }

    /// Instances of definition `name`. Panics when the document has no such definition.
    pub fn definition(&mut self, name: &str) -> BoxedStrategy<Value> {
        self.definition_at(
            name,
            self.depth,
            0,
            Ctx {
                meta: false,
                top: true,
            },
        )
    }

    /// The definition as the strategy sees it: the official schema with [`FIXED`] applied.
    pub fn definition_schema(&self, name: &str) -> Value {
        let mut schema = self
            .defs()
            .get(name)
            .unwrap_or_else(|| panic!("the schema has no definition {name:?}"))
            .clone();
        for (def, prop, value) in FIXED {
            if *def != name {
                continue;
            }
            let slot = schema
                .pointer_mut(&format!("/properties/{prop}"))
                .and_then(Value::as_object_mut)
                .unwrap_or_else(|| panic!("FIXED names {def}.{prop}, which the schema lacks"));
            slot.insert("const".into(), Value::String((*value).to_owned()));
        }
        schema
    }

    /// The object schema a definition finally stands for (references followed, `allOf`
    /// merged), or `None` when it is not an object schema (a union, a primitive…).
    pub fn object_schema(&self, name: &str) -> Option<Map<String, Value>> {
        let at = self.pointer(name);
        let mut schema = self.definition_schema(name);
        for _ in 0..HARD_LIMIT {
            let obj = schema.as_object()?;
            if let Some(r) = obj
                .get("$ref")
                .filter(|_| !has_structural_siblings(obj, "$ref"))
            {
                let target = self.ref_name(r, &at);
                schema = self.definition_schema(&target);
                continue;
            }
            if obj.contains_key("allOf") {
                schema = self.merge_all_of(obj, &at, 0);
                continue;
            }
            let is_object = match obj.get("type") {
                Some(Value::String(t)) => t == "object",
                None => obj.contains_key("properties"),
                _ => false,
            };
            return (is_object && !obj.contains_key("anyOf") && !obj.contains_key("oneOf"))
                .then(|| obj.clone());
        }
        panic!("{at}: references do not end");
    }

    fn defs(&self) -> &Map<String, Value> {
        self.doc[self.defs_key].as_object().expect("checked in new")
    }

    fn pointer(&self, name: &str) -> String {
        format!(
            "#/{}/{}",
            self.defs_key,
            name.replace('~', "~0").replace('/', "~1")
        )
    }

    /// The definition a `$ref` names.
    fn ref_name(&self, reference: &Value, at: &str) -> String {
        let Some(r) = reference.as_str() else {
            panic!("{at}/$ref: not a string");
        };
        let prefix = format!("#/{}/", self.defs_key);
        let name = r
            .strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("{at}: unsupported $ref {r:?} (expected {prefix}<Name>)"));
        let name = name.replace("~1", "/").replace("~0", "~");
        assert!(
            self.defs().contains_key(&name),
            "{at}: $ref {r:?} names no definition"
        );
        name
    }

    fn definition_at(
        &mut self,
        name: &str,
        budget: u32,
        hops: u32,
        ctx: Ctx,
    ) -> BoxedStrategy<Value> {
        let key = (name.to_owned(), budget, ctx);
        if let Some(s) = self.cache.get(&key) {
            return s.clone();
        }
        let schema = self.definition_schema(name);
        let at = self.pointer(name);
        let s = self.node(&schema, &at, budget, hops + 1, ctx);
        self.cache.insert(key, s.clone());
        s
    }

    /// The strategy for one schema node at JSON pointer `at`.
    fn node(
        &mut self,
        schema: &Value,
        at: &str,
        budget: u32,
        hops: u32,
        ctx: Ctx,
    ) -> BoxedStrategy<Value> {
        assert!(
            hops <= HARD_LIMIT,
            "{at}: the schema recurses without a way out (more than {HARD_LIMIT} levels)"
        );
        let obj = match schema {
            Value::Bool(true) => return any_json(budget.min(2)),
            Value::Bool(false) => panic!("{at}: the schema `false` admits no value"),
            Value::Object(o) => o,
            other => panic!("{at}: not a schema: {other}"),
        };
        for k in obj.keys() {
            assert!(
                ANNOTATIONS.contains(&k.as_str()) || SUPPORTED.contains(&k.as_str()),
                "{at}: arbitrary_json does not support the keyword `{k}`"
            );
        }
        if let Some(r) = obj.get("$ref") {
            if has_structural_siblings(obj, "$ref") {
                // 2020-12 applies the siblings of `$ref` too: the same as an allOf.
                let mut rest = obj.clone();
                rest.remove("$ref");
                let merged = self.merge_all_of(
                    &Map::from_iter([(
                        "allOf".to_owned(),
                        Value::Array(vec![serde_json::json!({"$ref": r}), Value::Object(rest)]),
                    )]),
                    at,
                    hops,
                );
                return self.node(&merged, at, budget, hops + 1, ctx);
            }
            let name = self.ref_name(r, at);
            return self.definition_at(&name, budget, hops + 1, ctx);
        }
        if obj.contains_key("allOf") {
            let merged = self.merge_all_of(obj, at, hops);
            return self.node(&merged, at, budget, hops + 1, ctx);
        }
        for key in ["anyOf", "oneOf"] {
            let Some(list) = obj.get(key) else { continue };
            let members = list
                .as_array()
                .unwrap_or_else(|| panic!("{at}/{key}: not an array"));
            assert!(
                !members.is_empty(),
                "{at}/{key}: an empty {key} admits no value"
            );
            let mut rest = obj.clone();
            rest.remove(key);
            let siblings = has_structural_siblings(&rest, "");
            let strategies: Vec<BoxedStrategy<Value>> = members
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    let m_at = format!("{at}/{key}/{i}");
                    if siblings {
                        let merged =
                            self.merge(vec![Value::Object(rest.clone()), m.clone()], &m_at, hops);
                        self.node(&merged, &m_at, budget, hops + 1, ctx)
                    } else {
                        self.node(m, &m_at, budget, hops + 1, ctx)
                    }
                })
                .collect();
            // `oneOf` demands exactly one match; the self-check validation of callers catches
            // an instance that matches several (the MCP schemas use `anyOf` only).
            return Union::new(strategies).boxed();
        }
        if let Some(c) = obj.get("const") {
            return Just(c.clone()).boxed();
        }
        if let Some(e) = obj.get("enum") {
            let values = e
                .as_array()
                .unwrap_or_else(|| panic!("{at}/enum: not an array"))
                .clone();
            assert!(
                !values.is_empty(),
                "{at}/enum: an empty enum admits no value"
            );
            return select(values).boxed();
        }
        let types: Vec<String> = match obj.get("type") {
            Some(Value::String(t)) => vec![t.clone()],
            Some(Value::Array(ts)) => ts
                .iter()
                .map(|t| {
                    t.as_str()
                        .unwrap_or_else(|| panic!("{at}/type: not a string"))
                        .to_owned()
                })
                .collect(),
            Some(other) => panic!("{at}/type: not a type: {other}"),
            None if ["properties", "required", "additionalProperties"]
                .iter()
                .any(|k| obj.contains_key(*k)) =>
            {
                vec!["object".into()]
            }
            None if ["items", "minItems", "maxItems"]
                .iter()
                .any(|k| obj.contains_key(*k)) =>
            {
                vec!["array".into()]
            }
            None if obj.contains_key("format") => vec!["string".into()],
            None => return any_json(budget.min(2)),
        };
        let mut strategies: Vec<BoxedStrategy<Value>> = types
            .iter()
            .map(|t| self.typed(t, obj, at, budget, hops, ctx))
            .collect();
        match strategies.len() {
            0 => panic!("{at}/type: an empty type list admits no value"),
            1 => strategies.pop().expect("one"),
            _ => Union::new(strategies).boxed(),
        }
    }

    fn typed(
        &mut self,
        ty: &str,
        obj: &Map<String, Value>,
        at: &str,
        budget: u32,
        hops: u32,
        ctx: Ctx,
    ) -> BoxedStrategy<Value> {
        match ty {
            "null" => Just(Value::Null).boxed(),
            "boolean" => any::<bool>().prop_map(Value::Bool).boxed(),
            "integer" => integer(obj, at),
            "number" => number(obj, at),
            "string" => string(obj.get("format"), at),
            "array" => self.array(obj, at, budget, hops),
            "object" => self.object(obj, at, budget, hops, ctx),
            other => panic!("{at}/type: unknown type {other:?}"),
        }
    }

    fn array(
        &mut self,
        obj: &Map<String, Value>,
        at: &str,
        budget: u32,
        hops: u32,
    ) -> BoxedStrategy<Value> {
        let min = obj.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let most = obj
            .get("maxItems")
            .and_then(Value::as_u64)
            .map_or(usize::MAX, |m| m as usize);
        let max = if budget == 0 {
            min
        } else {
            (min + MAX_EXTRA_ITEMS).min(most)
        };
        assert!(min <= max, "{at}: minItems {min} exceeds maxItems {most}");
        if max == 0 {
            // Not even building the item strategy is what ends recursion through arrays.
            return Just(Value::Array(Vec::new())).boxed();
        }
        let child = budget.saturating_sub(1);
        let item = match obj.get("items") {
            None => any_json(child.min(2)),
            Some(Value::Array(_)) => panic!("{at}/items: tuple validation is not supported"),
            Some(items) => self.node(
                items,
                &format!("{at}/items"),
                child,
                hops + 1,
                Ctx::default(),
            ),
        };
        proptest::collection::vec(item, min..=max)
            .prop_map(Value::Array)
            .boxed()
    }

    fn object(
        &mut self,
        obj: &Map<String, Value>,
        at: &str,
        budget: u32,
        hops: u32,
        ctx: Ctx,
    ) -> BoxedStrategy<Value> {
        let empty = Map::new();
        let props = match obj.get("properties") {
            None => &empty,
            Some(Value::Object(p)) => p,
            Some(other) => panic!("{at}/properties: not an object: {other}"),
        };
        let required: Vec<String> = match obj.get("required") {
            None => Vec::new(),
            Some(Value::Array(r)) => r
                .iter()
                .map(|v| {
                    v.as_str()
                        .unwrap_or_else(|| panic!("{at}/required: not a string: {v}"))
                        .to_owned()
                })
                .collect(),
            Some(other) => panic!("{at}/required: not an array: {other}"),
        };
        let additional = obj.get("additionalProperties");
        let child = budget.saturating_sub(1);
        let mut req_names = Vec::new();
        let mut req = Vec::new();
        let mut opt_names = Vec::new();
        let mut opt = Vec::new();
        for (name, schema) in props {
            let p_at = format!(
                "{at}/properties/{}",
                name.replace('~', "~0").replace('/', "~1")
            );
            let p_ctx = Ctx {
                meta: name == "_meta",
                top: false,
            };
            if required.contains(name) {
                req_names.push(name.clone());
                req.push(self.node(schema, &p_at, child, hops + 1, p_ctx));
            } else if budget > 0 {
                opt_names.push(name.clone());
                opt.push(proptest::option::of(self.node(
                    schema,
                    &p_at,
                    child,
                    hops + 1,
                    p_ctx,
                )));
            }
        }
        // Required but not declared: the value follows `additionalProperties`.
        for name in required.iter().filter(|r| !props.contains_key(*r)) {
            let s = match additional {
                Some(Value::Bool(false)) => {
                    panic!("{at}: `{name}` is required but additionalProperties is false")
                }
                Some(s @ Value::Object(_)) => self.node(
                    s,
                    &format!("{at}/additionalProperties"),
                    child,
                    hops + 1,
                    Ctx::default(),
                ),
                _ => any_json(child.min(2)),
            };
            req_names.push(name.clone());
            req.push(s);
        }
        let extras: BoxedStrategy<Vec<(String, Value)>> = match additional {
            _ if budget == 0 => Just(Vec::new()).boxed(),
            Some(Value::Bool(false)) => Just(Vec::new()).boxed(),
            _ => {
                let value = match additional {
                    Some(s @ Value::Object(m)) if !m.is_empty() => self.node(
                        s,
                        &format!("{at}/additionalProperties"),
                        child,
                        hops + 1,
                        Ctx::default(),
                    ),
                    _ => any_json(child.min(2)),
                };
                let foreign: &[String] = if self.foreign_members && ctx.top {
                    &self.property_names
                } else {
                    &[]
                };
                let key = extra_key(ctx, props.is_empty(), foreign);
                proptest::collection::vec((key, value), 0..=MAX_EXTRA_MEMBERS).boxed()
            }
        };
        let declared: Vec<String> = props.keys().cloned().collect();
        (req, opt, extras)
            .prop_map(move |(req, opt, extras)| {
                let mut entries: Vec<(String, Value)> =
                    req_names.iter().cloned().zip(req).collect();
                entries.extend(
                    opt_names
                        .iter()
                        .zip(opt)
                        .filter_map(|(n, v)| v.map(|v| (n.clone(), v))),
                );
                for (k, v) in extras {
                    if !declared.contains(&k) && !entries.iter().any(|(e, _)| *e == k) {
                        entries.push((k, v));
                    }
                }
                entries
            })
            .prop_shuffle()
            .prop_map(|entries| Value::Object(entries.into_iter().collect()))
            .boxed()
    }

    /// Merges an object schema holding `allOf` with its members into one schema.
    fn merge_all_of(&self, obj: &Map<String, Value>, at: &str, hops: u32) -> Value {
        let mut rest = obj.clone();
        let members = rest.remove("allOf").expect("caller checked");
        let members = members
            .as_array()
            .unwrap_or_else(|| panic!("{at}/allOf: not an array"))
            .clone();
        let mut parts = vec![Value::Object(rest)];
        parts.extend(members);
        self.merge(parts, at, hops)
    }

    /// Flattens `$ref` and nested `allOf` of `schema` into `out`.
    fn flatten(&self, schema: &Value, at: &str, out: &mut Vec<Map<String, Value>>, hops: u32) {
        assert!(hops <= HARD_LIMIT, "{at}: allOf references do not end");
        match schema {
            Value::Bool(true) => {}
            Value::Bool(false) => panic!("{at}: the schema `false` admits no value"),
            Value::Object(o) => {
                let mut rest = o.clone();
                let r = rest.remove("$ref");
                let all = rest.remove("allOf");
                out.push(rest);
                if let Some(r) = r {
                    let name = self.ref_name(&r, at);
                    self.flatten(
                        &self.definition_schema(&name),
                        &self.pointer(&name),
                        out,
                        hops + 1,
                    );
                }
                if let Some(all) = all {
                    for (i, m) in all
                        .as_array()
                        .unwrap_or_else(|| panic!("{at}/allOf: not an array"))
                        .iter()
                        .enumerate()
                    {
                        self.flatten(m, &format!("{at}/allOf/{i}"), out, hops + 1);
                    }
                }
            }
            other => panic!("{at}: not a schema: {other}"),
        }
    }

    /// One schema that admits what every one of `schemas` admits (for the shapes the MCP
    /// schemas use: objects, constants, enums, types and bounds).
    fn merge(&self, schemas: Vec<Value>, at: &str, hops: u32) -> Value {
        let mut parts = Vec::new();
        for s in &schemas {
            self.flatten(s, at, &mut parts, hops + 1);
        }
        let mut out = Map::new();
        let mut types: Option<Vec<String>> = None;
        let mut props: Vec<(String, Vec<Value>)> = Vec::new();
        let mut required: Vec<Value> = Vec::new();
        let mut items: Vec<Value> = Vec::new();
        for part in &parts {
            for (k, v) in part {
                match k.as_str() {
                    "type" => {
                        let these: Vec<String> = match v {
                            Value::String(s) => vec![s.clone()],
                            Value::Array(a) => a
                                .iter()
                                .filter_map(Value::as_str)
                                .map(str::to_owned)
                                .collect(),
                            _ => panic!("{at}: allOf member with a bad type: {v}"),
                        };
                        types = Some(match types {
                            None => these,
                            Some(old) => intersect_types(&old, &these),
                        });
                    }
                    "properties" => {
                        for (name, s) in v
                            .as_object()
                            .unwrap_or_else(|| panic!("{at}: bad properties"))
                        {
                            match props.iter_mut().find(|(n, _)| n == name) {
                                Some((_, list)) => list.push(s.clone()),
                                None => props.push((name.clone(), vec![s.clone()])),
                            }
                        }
                    }
                    "required" => {
                        for r in v.as_array().unwrap_or_else(|| panic!("{at}: bad required")) {
                            if !required.contains(r) {
                                required.push(r.clone());
                            }
                        }
                    }
                    "additionalProperties" => {}
                    "items" => items.push(v.clone()),
                    "anyOf" | "oneOf" => {
                        assert!(
                            !out.contains_key("anyOf") && !out.contains_key("oneOf"),
                            "{at}: two unions in one allOf are not supported"
                        );
                        out.insert(k.clone(), v.clone());
                    }
                    "const" | "format" => {
                        if let Some(old) = out.get(k) {
                            assert_eq!(old, v, "{at}: allOf members disagree on `{k}`");
                        }
                        out.insert(k.clone(), v.clone());
                    }
                    "enum" => {
                        let new = match out.get("enum") {
                            Some(Value::Array(old)) => Value::Array(
                                old.iter()
                                    .filter(|x| v.as_array().is_some_and(|n| n.contains(x)))
                                    .cloned()
                                    .collect(),
                            ),
                            _ => v.clone(),
                        };
                        out.insert("enum".into(), new);
                    }
                    "minimum" | "exclusiveMinimum" | "minItems" => {
                        let keep = match (out.get(k).and_then(Value::as_f64), v.as_f64()) {
                            (Some(old), Some(new)) => old >= new,
                            _ => false,
                        };
                        if !keep {
                            out.insert(k.clone(), v.clone());
                        }
                    }
                    "maximum" | "exclusiveMaximum" | "maxItems" => {
                        let keep = match (out.get(k).and_then(Value::as_f64), v.as_f64()) {
                            (Some(old), Some(new)) => old <= new,
                            _ => false,
                        };
                        if !keep {
                            out.insert(k.clone(), v.clone());
                        }
                    }
                    k if ANNOTATIONS.contains(&k) => {}
                    k => panic!("{at}: arbitrary_json does not support `{k}` inside allOf"),
                }
            }
        }
        // `additionalProperties` of a member constrains every member that member does not
        // declare itself, including those other allOf members declare.
        let mut additional: Vec<Value> = Vec::new();
        let mut deny = false;
        for part in &parts {
            let ap = match part.get("additionalProperties") {
                None | Some(Value::Bool(true)) => continue,
                Some(Value::Object(m)) if m.is_empty() => continue,
                Some(ap) => ap,
            };
            let declared = part.get("properties").and_then(Value::as_object);
            for (name, list) in &mut props {
                if !declared.is_some_and(|d| d.contains_key(name)) {
                    list.push(ap.clone());
                }
            }
            match ap {
                Value::Bool(false) => deny = true,
                _ => additional.push(ap.clone()),
            }
        }
        let mut merged_props = Map::new();
        for (name, mut list) in props {
            if list.contains(&Value::Bool(false)) {
                assert!(
                    !required.contains(&Value::String(name.clone())),
                    "{at}: `{name}` is required but an allOf member forbids it"
                );
                continue;
            }
            let s = if list.len() == 1 {
                list.pop().expect("one")
            } else {
                serde_json::json!({ "allOf": list })
            };
            merged_props.insert(name, s);
        }
        if !merged_props.is_empty()
            || types
                .as_ref()
                .is_some_and(|t| t.iter().any(|t| t == "object"))
        {
            out.insert("properties".into(), Value::Object(merged_props));
        }
        if !required.is_empty() {
            out.insert("required".into(), Value::Array(required));
        }
        if deny {
            out.insert("additionalProperties".into(), Value::Bool(false));
        } else if !additional.is_empty() {
            out.insert(
                "additionalProperties".into(),
                if additional.len() == 1 {
                    additional.pop().expect("one")
                } else {
                    serde_json::json!({ "allOf": additional })
                },
            );
        }
        match items.len() {
            0 => {}
            1 => {
                out.insert("items".into(), items.pop().expect("one"));
            }
            _ => {
                out.insert("items".into(), serde_json::json!({ "allOf": items }));
            }
        }
        if let Some(t) = types {
            assert!(!t.is_empty(), "{at}: allOf members admit no common type");
            out.insert(
                "type".into(),
                Value::Array(t.into_iter().map(Value::String).collect()),
            );
        }
        Value::Object(out)
    }
}

/// The types both lists admit (`integer` is a `number`).
fn intersect_types(a: &[String], b: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for t in a {
        let common = if b.contains(t) {
            t.as_str()
        } else if (t == "integer" && b.iter().any(|x| x == "number"))
            || (t == "number" && b.iter().any(|x| x == "integer"))
        {
            "integer"
        } else {
            continue;
        };
        if !out.iter().any(|o| o == common) {
            out.push(common.to_owned());
        }
    }
    out
}

/// Whether `obj` has keywords that constrain instances other than `except`.
fn has_structural_siblings(obj: &Map<String, Value>, except: &str) -> bool {
    obj.keys()
        .any(|k| k != except && !ANNOTATIONS.contains(&k.as_str()))
}

/// Keys of extra members: `x-…` beside declared properties, vendor-prefixed keys in `_meta`,
/// any short string in a plain map, and now and then a property name the schema declares
/// elsewhere (never one this object declares: the caller drops those).
fn extra_key(ctx: Ctx, plain_map: bool, property_names: &[String]) -> BoxedStrategy<String> {
    let own: BoxedStrategy<String> = if ctx.meta {
        "[a-z]{2,6}\\.example(\\.com)?/[a-z][a-z0-9_-]{0,8}".boxed()
    } else if plain_map {
        prop_oneof![
            "x-[a-z][a-z0-9-]{0,8}",
            "[a-zA-Z_][a-zA-Z0-9_]{0,8}",
            "\\PC{0,10}",
        ]
        .boxed()
    } else {
        "x-[a-z][a-z0-9-]{0,8}".boxed()
    };
    if property_names.is_empty() {
        return own;
    }
    prop_oneof![3 => own, 1 => select(property_names.to_vec())].boxed()
}

/// The keys of every `properties` object in `v`.
fn collect_property_names(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            if let Some(Value::Object(p)) = o.get("properties") {
                out.extend(p.keys().cloned());
            }
            o.values().for_each(|x| collect_property_names(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| collect_property_names(x, out)),
        _ => {}
    }
}

/// Any JSON value, nested at most `depth` levels.
pub fn any_json(depth: u32) -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-1000i64..1000).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        finite_f64().prop_map(Value::from),
        plain_string().prop_map(Value::String),
    ];
    if depth == 0 {
        return leaf.boxed();
    }
    leaf.prop_recursive(depth, 24, 3, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            proptest::collection::vec(("[a-zA-Z_-]{1,8}|\\PC{0,6}", inner), 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
    .boxed()
}

/// Strings without a format: unicode text, printable ASCII, and JSON's escapes.
fn plain_string() -> BoxedStrategy<String> {
    prop_oneof![
        4 => "\\PC{0,16}",
        2 => "[ -~]{0,12}",
        1 => "[\\x00-\\x1f\"\\\\/\u{7f}\u{2028}\u{2029}\u{1F600}]{0,4}",
    ]
    .boxed()
}

/// Finite floats, most with a fraction: decimals, dyadic fractions and the whole range.
fn finite_f64() -> BoxedStrategy<f64> {
    prop_oneof![
        (-1_000_000i64..1_000_000, 1u32..=6)
            .prop_map(|(m, k)| (m as f64 + 0.5) / 10f64.powi(k as i32)),
        (-1_000_000i64..1_000_000, 1u32..=10)
            .prop_map(|(m, k)| (2 * m + 1) as f64 / 2f64.powi(k as i32)),
        proptest::num::f64::NORMAL | proptest::num::f64::SUBNORMAL | proptest::num::f64::ZERO,
    ]
    .boxed()
}

fn bound(obj: &Map<String, Value>, key: &str, at: &str) -> Option<f64> {
    obj.get(key).map(|v| {
        v.as_f64()
            .unwrap_or_else(|| panic!("{at}/{key}: not a number: {v}"))
    })
}

/// The integer range of a schema, as the generated Rust type (`i64`, `u64` when
/// `minimum >= 0`) holds it.
fn int_range(obj: &Map<String, Value>, at: &str) -> (i128, i128) {
    let mut lo = i64::MIN as i128;
    if let Some(m) = bound(obj, "minimum", at) {
        lo = lo.max(m.ceil() as i128);
    }
    if let Some(m) = bound(obj, "exclusiveMinimum", at) {
        lo = lo.max(m.floor() as i128 + 1);
    }
    let mut hi = if lo >= 0 {
        u64::MAX as i128
    } else {
        i64::MAX as i128
    };
    if let Some(m) = bound(obj, "maximum", at) {
        hi = hi.min(m.floor() as i128);
    }
    if let Some(m) = bound(obj, "exclusiveMaximum", at) {
        hi = hi.min(m.ceil() as i128 - 1);
    }
    (lo, hi)
}

fn int_value(i: i128) -> Value {
    if i <= i64::MAX as i128 {
        Value::from(i as i64)
    } else {
        Value::from(i as u64)
    }
}

fn integer(obj: &Map<String, Value>, at: &str) -> BoxedStrategy<Value> {
    let (lo, hi) = int_range(obj, at);
    integer_in(lo, hi, at)
}

fn integer_in(lo: i128, hi: i128, at: &str) -> BoxedStrategy<Value> {
    assert!(lo <= hi, "{at}: no integer between the bounds");
    let small_lo = lo.max(-1000);
    let small_hi = hi.min(1000);
    let mut options: Vec<BoxedStrategy<i128>> =
        vec![(lo..=hi).boxed(), Just(lo).boxed(), Just(hi).boxed()];
    if small_lo <= small_hi {
        options.push((small_lo..=small_hi).boxed());
        options.push((small_lo..=small_hi).boxed());
    }
    Union::new(options).prop_map(int_value).boxed()
}

fn number(obj: &Map<String, Value>, at: &str) -> BoxedStrategy<Value> {
    let lo = bound(obj, "minimum", at).or(bound(obj, "exclusiveMinimum", at));
    let hi = bound(obj, "maximum", at).or(bound(obj, "exclusiveMaximum", at));
    let strict_lo = obj.contains_key("exclusiveMinimum");
    let strict_hi = obj.contains_key("exclusiveMaximum");
    let (ilo, ihi) = int_range(obj, at);
    let floats: BoxedStrategy<f64> = match (lo, hi) {
        (Some(lo), Some(hi)) => {
            assert!(lo <= hi, "{at}: minimum exceeds maximum");
            (lo..=hi)
                .prop_filter("exclusive bound", move |f| {
                    !(strict_lo && *f == lo || strict_hi && *f == hi)
                })
                .boxed()
        }
        (Some(lo), None) => finite_f64()
            .prop_map(move |f| lo + f.abs())
            .prop_filter("finite, exclusive bound", move |f| {
                f.is_finite() && !(strict_lo && *f == lo)
            })
            .boxed(),
        (None, Some(hi)) => finite_f64()
            .prop_map(move |f| hi - f.abs())
            .prop_filter("finite, exclusive bound", move |f| {
                f.is_finite() && !(strict_hi && *f == hi)
            })
            .boxed(),
        (None, None) => finite_f64(),
    };
    let floats = floats.prop_map(Value::from).boxed();
    if ilo <= ihi {
        prop_oneof![integer_in(ilo, ihi, at), floats].boxed()
    } else {
        floats
    }
}

fn string(format: Option<&Value>, at: &str) -> BoxedStrategy<Value> {
    let s: BoxedStrategy<String> = match format.map(|f| f.as_str().unwrap_or_else(|| panic!("{at}/format: not a string"))) {
        None => plain_string(),
        Some("uri") => uri(),
        Some("uri-template") => uri_template(),
        Some("date") => date(),
        Some("date-time") => (date(), time())
            .prop_map(|(d, t)| format!("{d}T{t}"))
            .boxed(),
        Some("time") => time(),
        Some("email") => "[a-z0-9]{1,8}(\\.[a-z0-9]{1,8}){0,2}(\\+[a-z0-9]{1,4})?@[a-z0-9]([a-z0-9-]{0,6}[a-z0-9])?(\\.[a-z]{2,6}){1,2}".boxed(),
        Some("uuid") => "[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}".boxed(),
        Some("byte") => proptest::collection::vec(any::<u8>(), 0..48)
            .prop_map(|b| base64(&b))
            .boxed(),
        Some(other) => panic!("{at}/format: arbitrary_json does not know the format {other:?}"),
    };
    s.prop_map(Value::String).boxed()
}

/// Absolute URIs (RFC 3986): web, file, URN and custom schemes, with percent-escapes.
fn uri() -> BoxedStrategy<String> {
    const SEG: &str = "([A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-F]{2}){0,8}";
    prop_oneof![
        regex(&format!(
            "https?://[a-z][a-z0-9-]{{0,10}}(\\.[a-z]{{2,6}}){{0,2}}(:[1-9][0-9]{{0,3}})?(/{SEG}){{0,3}}(\\?[a-z]{{1,5}}={SEG})?(#{SEG})?"
        )),
        "file:///([A-Za-z0-9._~-]{1,8}/){0,3}[A-Za-z0-9._~-]{1,8}",
        "urn:[a-z]{1,8}:[A-Za-z0-9._~-]{1,12}",
        "[a-z][a-z0-9+.-]{0,8}:(//[a-z]{1,8})?(/[A-Za-z0-9._~-]{1,8}){0,3}",
        "mailto:[a-z]{1,8}@[a-z]{1,8}\\.example",
    ]
    .boxed()
}

fn regex(re: &str) -> BoxedStrategy<String> {
    proptest::string::string_regex(re)
        .unwrap_or_else(|e| panic!("bad regex {re:?}: {e}"))
        .boxed()
}

/// URI templates (RFC 6570, levels 1–4).
fn uri_template() -> BoxedStrategy<String> {
    const VAR: &str = "[A-Za-z_][A-Za-z0-9_]{0,6}(:[1-9][0-9]{0,2}|\\*)?";
    prop_oneof![
        regex(&format!("(https://[a-z]{{1,8}}\\.example|file://|[a-z]{{2,6}}:)(/[a-z0-9._-]{{0,6}}|/?\\{{[+#./;?&]?{VAR}(,{VAR}){{0,2}}\\}}){{0,4}}")),
        "[a-z]{1,6}://\\{[a-z]{1,6}\\}(/\\{\\+path\\})?",
    ]
    .boxed()
}

fn date() -> BoxedStrategy<String> {
    (0u32..=9999, 1u32..=12, 1u32..=31)
        .prop_map(|(y, m, d)| {
            let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
            let days = match m {
                2 if leap => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            format!("{y:04}-{m:02}-{:02}", d.min(days))
        })
        .boxed()
}

fn time() -> BoxedStrategy<String> {
    (
        0u32..24,
        0u32..60,
        0u32..60,
        proptest::option::of("[0-9]{1,6}"),
        prop_oneof![
            Just("Z".to_owned()),
            Just("z".to_owned()),
            ("[+-]", 0u32..24, 0u32..60).prop_map(|(s, h, m)| format!("{s}{h:02}:{m:02}"))
        ],
    )
        .prop_map(|(h, m, s, frac, off)| {
            let frac = frac.map(|f| format!(".{f}")).unwrap_or_default();
            format!("{h:02}:{m:02}:{s:02}{frac}{off}")
        })
        .boxed()
}

/// Standard base64 with padding (RFC 4648 §4).
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Whether `s` is standard base64 with correct padding (the check `format: byte` gets).
pub fn is_base64(s: &str) -> bool {
    let b = s.as_bytes();
    if !b.len().is_multiple_of(4) {
        return false;
    }
    let pad = b.iter().rev().take_while(|c| **c == b'=').count();
    if pad > 2 {
        return false;
    }
    b[..b.len() - pad]
        .iter()
        .all(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc4648_vectors() {
        for (raw, enc) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(raw.as_bytes()), enc);
            assert!(is_base64(enc));
        }
        assert!(!is_base64("Zm9"));
        assert!(!is_base64("Zm9v!A=="));
        assert!(!is_base64("Z==="));
    }
}
