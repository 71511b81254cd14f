//! Tool arguments from a JSON Schema: a value a tool's `inputSchema` accepts ([`valid`]), and
//! an object it refuses, with what is wrong with it in words ([`invalid`]).
//!
//! [`valid`] builds the simplest instance it can from the keywords (see its documentation),
//! then checks it with the `jsonschema` validator, formats included: a value that validator
//! refuses is never returned, an [`ArgumentsError`] naming the place in the schema is. The
//! same schema always gives the same value (strings for a `pattern` come from a fixed seed).
//!
//! A `$ref` into the schema itself (`#/$defs/…`, `#/definitions/…`, any `#/…` pointer) is
//! followed; a schema in another document is never fetched: the validator takes it as one
//! that refuses everything, so a value is only returned when it does not depend on it.
//!
//! ```
//! use serde_json::json;
//!
//! let schema = json!({
//!     "type": "object",
//!     "properties": {
//!         "city": {"type": "string", "minLength": 2},
//!         "days": {"type": "integer", "minimum": 1, "maximum": 14},
//!         "units": {"enum": ["metric", "imperial"]}
//!     },
//!     "required": ["city", "days"]
//! });
//! let args = mcp_typed_cli::arguments::valid(&schema).unwrap();
//! assert_eq!(args, json!({"city": "aa", "days": 1}));
//!
//! let (bad, why) = mcp_typed_cli::arguments::invalid(&schema).unwrap();
//! assert_eq!(bad, json!({"days": 1}));
//! assert_eq!(why, "missing required `city`");
//! ```

use std::cell::RefCell;
use std::collections::HashMap;

use serde_json::{Map, Number, Value};

/// Why no valid value could be made for a schema: where in the schema, and what went wrong.
#[derive(Debug, thiserror::Error)]
#[error("{message} (schema at `#{pointer}`)")]
pub struct ArgumentsError {
    /// A JSON Pointer into the schema (`""` for its root, `/properties/city/pattern`…).
    pub pointer: String,
    /// What went wrong, in words (the validator's own message when it refused a value).
    pub message: String,
}

impl ArgumentsError {
    fn new(pointer: &str, message: impl Into<String>) -> Self {
        ArgumentsError {
            pointer: pointer.to_owned(),
            message: message.into(),
        }
    }
}

/// A JSON value valid for `schema` (a tool's inputSchema, any JSON Schema draft 2020-12 /
/// draft-07 as MCP servers write them): the simplest valid instance.
///
/// For an object, every `required` member is given (optional ones are left out, unless
/// `minProperties` or `dependentRequired` ask for more); each value comes, in this order,
/// from the schema's `default` (when valid), `const`, the first valid `enum` value, the
/// first valid of `examples`, or else from its `type` (of a type array, the first that is
/// not `null`; without `type`, the one its keywords imply):
/// - `integer`, `number`: the value closest to 0 within `minimum`, `maximum`,
///   `exclusiveMinimum`, `exclusiveMaximum` (draft-04's boolean forms too) and a multiple of
///   `multipleOf` (a whole number when one fits);
/// - `string`: `"a"` repeated to `minLength` (at least one character, when `maxLength`
///   allows); for a `format` (`email`, `uri`, `uri-reference`, `date`, `date-time`, `time`,
///   `duration`, `uuid`, `ipv4`, `ipv6`, `hostname`, `json-pointer`, `regex`…) a fixed
///   example of it; for a `pattern`, a short string sampled from the regex (ASCII where the
///   regex allows; anchors are honoured by the check; lookaround and backreferences cannot be
///   generated and give an error);
/// - `boolean`: `false`; `null`: `null`;
/// - `array`: `minItems` items from `prefixItems` / `items` (draft-07's array form and
///   `additionalItems` too), distinct under `uniqueItems`, and from `contains` first;
/// - `object`: as above, recursively.
///
/// `$ref` (with a cycle guard), `allOf` (merged), `anyOf` and `oneOf` (the first branch whose
/// value the whole schema accepts) are followed; `not`, `if`/`then`/`else` and the like are
/// met by trying the next candidate value when the check refuses one.
///
/// # Errors
///
/// [`ArgumentsError`] when the schema cannot be compiled by the validator, when no value can
/// be made for some part of it (a `pattern` that cannot be sampled, conflicting bounds, a
/// `$ref` cycle that every value must go through…), or when the validator refuses the value
/// made: then `pointer` and `message` are the validator's.
pub fn valid(schema: &Value) -> Result<Value, ArgumentsError> {
    let generator = Generator::new(schema)?;
    generator.valid()
}

/// A JSON object that the schema refuses, and what is wrong with it in words ("missing
/// required `city`", "`count` is a string, not an integer"); `None` when the schema accepts
/// every object (no required members, no typed properties).
///
/// Tried in this order, each checked with the validator, the first refused one returned:
/// [`valid`]'s object without its first `required` member; with a typed property (its
/// `type` given directly or through a `$ref`) set to a value of another type; with a member
/// that `additionalProperties: false` forbids; the empty object (for a schema whose root is
/// not an object, or that has `minProperties`).
pub fn invalid(schema: &Value) -> Option<(Value, String)> {
    let generator = Generator::new(schema).ok()?;
    generator.invalid()
}

/// How many candidate values are tried where the check refuses one.
const VARIANTS: usize = 12;
/// How deep a value may nest before generation gives up (a guard against schemas that recurse
/// without a `$ref`, which the cycle guard catches).
const MAX_DEPTH: usize = 48;
/// How many samples a `pattern` gets for each repetition bound.
const PATTERN_SEEDS: u64 = 8;
/// The longest string a `pattern` may be sampled into.
const PATTERN_MAX_LEN: usize = 4096;
/// The document the root schema is served as, when a part of it is checked on its own.
const ROOT_URI: &str = "https://mcp-typed.invalid/input-schema.json";

/// Keywords that only annotate: merging schemas keeps the first one's.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "$comment",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$schema",
    "$id",
    "$anchor",
];

struct Generator<'s> {
    root: &'s Value,
    /// Compiled with formats asserted; every returned value passes it.
    validator: jsonschema::Validator,
    /// Validators of parts of the schema (by their JSON text), `None` when one cannot be
    /// compiled on its own.
    parts: RefCell<HashMap<String, Option<jsonschema::Validator>>>,
}

/// Serves the root schema (for the parts checked on their own) and refuses everything else:
/// nothing is fetched.
struct Retriever {
    root: Value,
}

impl jsonschema::Retrieve for Retriever {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let uri = uri.as_str();
        let uri = uri.split_once('#').map_or(uri, |(doc, _)| doc);
        if uri == ROOT_URI {
            Ok(self.root.clone())
        } else {
            // Another document: not fetched, so nothing that depends on it is called valid.
            Ok(Value::Bool(false))
        }
    }
}

fn compile(schema: &Value, root: &Value) -> Result<jsonschema::Validator, ArgumentsError> {
    jsonschema::options()
        .should_validate_formats(true)
        .with_retriever(Retriever { root: root.clone() })
        .build(schema)
        .map_err(|e| {
            ArgumentsError::new(
                e.schema_path().as_str(),
                format!("the validator cannot compile the schema: {e}"),
            )
        })
}

/// `~` and `/` escaped for a JSON Pointer token.
fn token(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "an integer",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn type_words(types: &[String]) -> String {
    let words: Vec<String> = types
        .iter()
        .map(|t| match t.as_str() {
            "null" => "null".to_owned(),
            "integer" | "array" | "object" => format!("an {t}"),
            other => format!("a {other}"),
        })
        .collect();
    match words.as_slice() {
        [] => "nothing".to_owned(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn types_of(schema: &Map<String, Value>) -> Option<Vec<String>> {
    match schema.get("type")? {
        Value::String(t) => Some(vec![t.clone()]),
        Value::Array(ts) => Some(
            ts.iter()
                .filter_map(|t| t.as_str().map(str::to_owned))
                .collect(),
        ),
        _ => None,
    }
}

fn number(value: f64) -> Option<Value> {
    if value.fract() == 0.0 && value.abs() < 9.0e15 {
        #[allow(clippy::cast_possible_truncation)]
        return Some(Value::Number(Number::from(value as i64)));
    }
    Number::from_f64(value).map(Value::Number)
}

fn as_f64(value: Option<&Value>) -> Option<f64> {
    value.and_then(Value::as_f64)
}

/// Digits after the point in `x`'s shortest form (for rounding a multiple of it).
fn decimals(x: f64) -> i32 {
    let text = format!("{x}");
    match text.split_once('.') {
        Some((_, fraction)) => i32::try_from(fraction.len()).unwrap_or(15).min(15),
        None => 0,
    }
}

fn round_to(value: f64, decimals: i32) -> f64 {
    if decimals <= 0 {
        return value;
    }
    let scale = 10f64.powi(decimals);
    (value * scale).round() / scale
}

/// Merges `src` into `dst` as `allOf` would (both must hold): bounds tightened, `required`
/// and `properties` united, `type` and `enum` intersected. A keyword the two disagree on and
/// that cannot be combined keeps `dst`'s: the final check catches what that misses.
fn merge(dst: &mut Map<String, Value>, src: &Map<String, Value>) {
    for (key, value) in src {
        let Some(old) = dst.get_mut(key) else {
            dst.insert(key.clone(), value.clone());
            continue;
        };
        if old == value || ANNOTATIONS.contains(&key.as_str()) {
            continue;
        }
        match key.as_str() {
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
                if let (Value::Object(old), Value::Object(new)) = (old, value) {
                    for (name, schema) in new {
                        match old.get_mut(name) {
                            None => {
                                old.insert(name.clone(), schema.clone());
                            }
                            Some(existing) => {
                                let both = serde_json::json!({"allOf": [existing.clone(), schema]});
                                *existing = both;
                            }
                        }
                    }
                }
            }
            "required" => {
                if let (Value::Array(old), Value::Array(new)) = (old, value) {
                    for name in new {
                        if !old.contains(name) {
                            old.push(name.clone());
                        }
                    }
                }
            }
            "type" => {
                let as_list = |v: &Value| -> Vec<String> {
                    match v {
                        Value::String(s) => vec![s.clone()],
                        Value::Array(a) => a
                            .iter()
                            .filter_map(|t| t.as_str().map(str::to_owned))
                            .collect(),
                        _ => Vec::new(),
                    }
                };
                let (a, b) = (as_list(old), as_list(value));
                let mut both: Vec<Value> = Vec::new();
                for t in &a {
                    let keep = if b.contains(t) {
                        Some(t.clone())
                    } else if t == "number" && b.iter().any(|u| u == "integer") {
                        Some("integer".to_owned())
                    } else if t == "integer" && b.iter().any(|u| u == "number") {
                        Some(t.clone())
                    } else {
                        None
                    };
                    if let Some(keep) = keep {
                        let keep = Value::String(keep);
                        if !both.contains(&keep) {
                            both.push(keep);
                        }
                    }
                }
                *old = Value::Array(both);
            }
            "minimum" | "minLength" | "minItems" | "minProperties" | "minContains" => {
                if let (Some(a), Some(b)) = (old.as_f64(), value.as_f64())
                    && b > a
                {
                    *old = value.clone();
                }
            }
            "maximum" | "maxLength" | "maxItems" | "maxProperties" | "maxContains" => {
                if let (Some(a), Some(b)) = (old.as_f64(), value.as_f64())
                    && b < a
                {
                    *old = value.clone();
                }
            }
            "exclusiveMinimum" | "exclusiveMaximum" => {
                let min = key == "exclusiveMinimum";
                if let (Some(a), Some(b)) = (old.as_f64(), value.as_f64())
                    && ((min && b > a) || (!min && b < a))
                {
                    *old = value.clone();
                }
            }
            "enum" => {
                if let (Value::Array(old), Value::Array(new)) = (old, value) {
                    old.retain(|v| new.contains(v));
                }
            }
            "uniqueItems" if value == &Value::Bool(true) => *old = Value::Bool(true),
            "additionalProperties"
            | "items"
            | "additionalItems"
            | "propertyNames"
            | "contains"
            | "unevaluatedProperties"
            | "unevaluatedItems" => match (&*old, value) {
                (Value::Bool(false), _) => {}
                (_, Value::Bool(false)) => *old = Value::Bool(false),
                (Value::Bool(true), other) => *old = other.clone(),
                (_, Value::Bool(true)) => {}
                (Value::Object(_), Value::Object(_)) => {
                    *old = serde_json::json!({"allOf": [old.clone(), value]});
                }
                _ => {}
            },
            _ => {}
        }
    }
}

/// What a schema without `type` must be, from the keywords it has.
fn implied_type(schema: &Map<String, Value>) -> Option<&'static str> {
    let has = |keys: &[&str]| keys.iter().any(|k| schema.contains_key(*k));
    if has(&[
        "properties",
        "required",
        "additionalProperties",
        "minProperties",
        "maxProperties",
        "patternProperties",
        "propertyNames",
        "dependentRequired",
    ]) {
        Some("object")
    } else if has(&[
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "contains",
        "uniqueItems",
        "additionalItems",
    ]) {
        Some("array")
    } else if has(&["minLength", "maxLength", "pattern", "format"]) {
        Some("string")
    } else if has(&[
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ]) {
        Some("number")
    } else {
        None
    }
}

/// Refs under `$ref` that start with `#` rewritten to point into the root document served
/// at [`ROOT_URI`], so a part of the schema compiles on its own. Literal values (`const`,
/// `enum`, `default`, `examples`) are left alone.
fn rebase_refs(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let v = match (k.as_str(), v) {
                        ("$ref" | "$dynamicRef", Value::String(r)) if r.starts_with('#') => {
                            Value::String(format!("{ROOT_URI}{r}"))
                        }
                        ("const" | "enum" | "default" | "examples", _) => v.clone(),
                        _ => rebase_refs(v),
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(rebase_refs).collect()),
        other => other.clone(),
    }
}

impl<'s> Generator<'s> {
    fn new(root: &'s Value) -> Result<Self, ArgumentsError> {
        Ok(Generator {
            root,
            validator: compile(root, root)?,
            parts: RefCell::new(HashMap::new()),
        })
    }

    fn valid(&self) -> Result<Value, ArgumentsError> {
        let mut last = None;
        for variant in 0..VARIANTS {
            let value = match self.generate(self.root, "", variant, &mut Vec::new(), 0) {
                Ok(value) => value,
                Err(e) => {
                    // The same error on every variant: say it once.
                    last = Some(e);
                    if variant > 0 {
                        break;
                    }
                    continue;
                }
            };
            match self.validator.validate(&value) {
                Ok(()) => return Ok(value),
                Err(e) => {
                    let at = e.instance_path().as_str();
                    let at = if at.is_empty() {
                        "the root".to_owned()
                    } else {
                        format!("`{at}`")
                    };
                    last = Some(ArgumentsError::new(
                        e.schema_path().as_str(),
                        format!("the value made ({value}) is refused at {at}: {e}"),
                    ));
                }
            }
        }
        Err(last.unwrap_or_else(|| ArgumentsError::new("", "no value could be made")))
    }

    /// Whether `value` is valid for a part of the schema; `None` when that part cannot be
    /// compiled on its own (the final check still covers it).
    fn accepts(&self, part: &Value, value: &Value) -> Option<bool> {
        if std::ptr::eq(part, self.root) {
            return Some(self.validator.is_valid(value));
        }
        let key = part.to_string();
        let mut parts = self.parts.borrow_mut();
        let validator = parts.entry(key).or_insert_with(|| {
            let mut wrapper = Map::new();
            if let Some(dialect) = self.root.get("$schema") {
                wrapper.insert("$schema".to_owned(), dialect.clone());
            }
            wrapper.insert("allOf".to_owned(), Value::Array(vec![rebase_refs(part)]));
            compile(&Value::Object(wrapper), self.root).ok()
        });
        validator.as_ref().map(|v| v.is_valid(value))
    }

    /// The schema a `#…` reference names, and its pointer.
    fn resolve(&self, reference: &str, at: &str) -> Result<(&'s Value, String), ArgumentsError> {
        let Some(fragment) = reference.strip_prefix('#') else {
            return Err(ArgumentsError::new(
                at,
                format!("`$ref` `{reference}` names another document, which is not fetched"),
            ));
        };
        let pointer = percent_decode(fragment);
        if !pointer.is_empty() && !pointer.starts_with('/') {
            return Err(ArgumentsError::new(
                at,
                format!("`$ref` `{reference}` names an anchor, which is not followed"),
            ));
        }
        match self.root.pointer(&pointer) {
            Some(target) => Ok((target, pointer)),
            None => Err(ArgumentsError::new(
                at,
                format!("`$ref` `{reference}` names nothing in the schema"),
            )),
        }
    }

    /// The schema with its own `$ref` and `allOf` merged in (recursively), so what is left
    /// to read is in one map. The references followed are pushed on `refs`: a reference met
    /// again while it is there is a cycle.
    fn flatten(
        &self,
        schema: &Map<String, Value>,
        at: &str,
        refs: &mut Vec<String>,
        depth: usize,
    ) -> Result<Map<String, Value>, ArgumentsError> {
        if depth > MAX_DEPTH {
            return Err(ArgumentsError::new(at, "the schema nests too deep"));
        }
        let mut out = schema.clone();
        let reference = out.remove("$ref");
        let all = out.remove("allOf");
        if let Some(reference) = reference {
            let Value::String(reference) = reference else {
                return Err(ArgumentsError::new(at, "`$ref` is not a string"));
            };
            let (target, pointer) = self.resolve(&reference, at)?;
            if refs.contains(&pointer) {
                return Err(ArgumentsError::new(
                    at,
                    format!("`$ref` `{reference}` refers back to itself: no finite value"),
                ));
            }
            refs.push(pointer.clone());
            match target {
                Value::Object(target) => {
                    let target = self.flatten(target, &pointer, refs, depth + 1)?;
                    merge(&mut out, &target);
                }
                Value::Bool(true) => {}
                Value::Bool(false) => {
                    return Err(ArgumentsError::new(
                        &pointer,
                        "the schema `false` accepts nothing",
                    ));
                }
                _ => return Err(ArgumentsError::new(&pointer, "not a schema")),
            }
        }
        if let Some(all) = all {
            let Value::Array(all) = all else {
                return Err(ArgumentsError::new(at, "`allOf` is not an array"));
            };
            for (i, part) in all.iter().enumerate() {
                let here = format!("{at}/allOf/{i}");
                match part {
                    Value::Object(part) => {
                        let part = self.flatten(part, &here, refs, depth + 1)?;
                        merge(&mut out, &part);
                    }
                    Value::Bool(true) => {}
                    Value::Bool(false) => {
                        return Err(ArgumentsError::new(
                            &here,
                            "the schema `false` accepts nothing",
                        ));
                    }
                    _ => return Err(ArgumentsError::new(&here, "not a schema")),
                }
            }
        }
        Ok(out)
    }

    /// A value for `schema` (found at pointer `at`); `variant` picks another candidate (0 is
    /// the simplest), for `uniqueItems` and when the check refuses one.
    fn generate(
        &self,
        schema: &Value,
        at: &str,
        variant: usize,
        refs: &mut Vec<String>,
        depth: usize,
    ) -> Result<Value, ArgumentsError> {
        if depth > MAX_DEPTH {
            return Err(ArgumentsError::new(at, "the schema nests too deep"));
        }
        let map = match schema {
            Value::Bool(true) => return Ok(Self::any(variant)),
            Value::Bool(false) => {
                return Err(ArgumentsError::new(
                    at,
                    "the schema `false` accepts nothing",
                ));
            }
            Value::Object(map) => map,
            _ => {
                return Err(ArgumentsError::new(
                    at,
                    "not a schema (an object or a boolean)",
                ));
            }
        };
        let depth_refs = refs.len();
        let result = self.generate_map(schema, map, at, variant, refs, depth);
        refs.truncate(depth_refs);
        result
    }

    /// Any value, for a schema that accepts everything.
    fn any(variant: usize) -> Value {
        if variant == 0 {
            Value::Null
        } else {
            Value::from(variant - 1)
        }
    }

    fn generate_map(
        &self,
        original: &Value,
        map: &Map<String, Value>,
        at: &str,
        variant: usize,
        refs: &mut Vec<String>,
        depth: usize,
    ) -> Result<Value, ArgumentsError> {
        let flat = if map.contains_key("$ref") || map.contains_key("allOf") {
            self.flatten(map, at, refs, depth)?
        } else {
            map.clone()
        };
        // The whole of this part, for the checks: the original when nothing was merged.
        let whole_owned;
        let whole: &Value = if map.contains_key("$ref") || map.contains_key("allOf") {
            whole_owned = Value::Object(flat.clone());
            &whole_owned
        } else {
            original
        };

        // anyOf / oneOf: the first branch whose value the whole accepts.
        for keyword in ["anyOf", "oneOf"] {
            let Some(branches) = flat.get(keyword) else {
                continue;
            };
            let Value::Array(branches) = branches else {
                return Err(ArgumentsError::new(
                    at,
                    format!("`{keyword}` is not an array"),
                ));
            };
            let mut base = flat.clone();
            base.remove(keyword);
            let mut last = None;
            for (i, branch) in branches.iter().enumerate() {
                let here = format!("{at}/{keyword}/{i}");
                let merged = match branch {
                    Value::Object(branch) => {
                        let mark = refs.len();
                        match self.flatten(branch, &here, refs, depth + 1) {
                            Ok(mut first) => {
                                // The branch's own keywords first: its `type` decides.
                                merge(&mut first, &base);
                                first
                            }
                            Err(e) => {
                                refs.truncate(mark);
                                last = Some(e);
                                continue;
                            }
                        }
                    }
                    Value::Bool(true) => base.clone(),
                    _ => continue,
                };
                // The next variants of the branch while the whole refuses them (`oneOf`
                // refuses a value that two branches accept).
                for v in variant..variant + VARIANTS {
                    let mark = refs.len();
                    let value = self.generate_flat(&merged, &here, v, refs, depth + 1);
                    refs.truncate(mark);
                    match value {
                        Ok(value) if self.accepts(whole, &value) != Some(false) => {
                            return Ok(value);
                        }
                        Ok(value) => {
                            last = Some(ArgumentsError::new(
                                &here,
                                format!(
                                    "the values made from this branch (the last: {value}) are refused by the schema around it"
                                ),
                            ));
                        }
                        Err(e) => {
                            last = Some(e);
                            break;
                        }
                    }
                }
            }
            return Err(last.unwrap_or_else(|| {
                ArgumentsError::new(at, format!("no branch of `{keyword}` gives a value"))
            }));
        }
        self.generate_checked(whole, &flat, at, variant, refs, depth)
    }

    /// [`Self::generate_flat`], and when the part has keywords that are only checked (`not`,
    /// `if`…), the next variants until the check accepts one.
    fn generate_checked(
        &self,
        whole: &Value,
        flat: &Map<String, Value>,
        at: &str,
        variant: usize,
        refs: &mut Vec<String>,
        depth: usize,
    ) -> Result<Value, ArgumentsError> {
        const ONLY_CHECKED: &[&str] = &[
            "not",
            "if",
            "propertyNames",
            "patternProperties",
            "dependentSchemas",
            "dependencies",
            "unevaluatedProperties",
            "unevaluatedItems",
            "contains",
            "$dynamicRef",
        ];
        if !ONLY_CHECKED.iter().any(|k| flat.contains_key(*k)) {
            return self.generate_flat(flat, at, variant, refs, depth);
        }
        let mut last = None;
        for v in variant..variant + VARIANTS {
            let mark = refs.len();
            let value = self.generate_flat(flat, at, v, refs, depth);
            refs.truncate(mark);
            match value {
                Ok(value) if self.accepts(whole, &value) != Some(false) => return Ok(value),
                Ok(value) => {
                    last = Some(ArgumentsError::new(
                        at,
                        format!("no value made is accepted (the last: {value})"),
                    ));
                }
                Err(e) => {
                    last = Some(e);
                    break;
                }
            }
        }
        Err(last.unwrap_or_else(|| ArgumentsError::new(at, "no value could be made")))
    }

    /// A value for a schema with no `$ref`, `allOf`, `anyOf`, `oneOf` left at its top.
    fn generate_flat(
        &self,
        flat: &Map<String, Value>,
        at: &str,
        variant: usize,
        refs: &mut Vec<String>,
        depth: usize,
    ) -> Result<Value, ArgumentsError> {
        if flat.contains_key("$ref")
            || flat.contains_key("allOf")
            || flat.contains_key("anyOf")
            || flat.contains_key("oneOf")
        {
            // A branch of anyOf brought its own combinators: go round again.
            return self.generate(&Value::Object(flat.clone()), at, variant, refs, depth + 1);
        }
        let whole = Value::Object(flat.clone());

        // Literal candidates: default (if valid), const, enum values, examples (if valid).
        let mut literals: Vec<Value> = Vec::new();
        let push = |v: &Value, literals: &mut Vec<Value>| {
            if !literals.contains(v) && self.accepts(&whole, v) != Some(false) {
                literals.push(v.clone());
            }
        };
        let closed = flat.contains_key("const") || flat.contains_key("enum");
        if let Some(default) = flat.get("default") {
            push(default, &mut literals);
        }
        if let Some(constant) = flat.get("const") {
            push(constant, &mut literals);
        }
        if let Some(values) = flat.get("enum") {
            let Value::Array(values) = values else {
                return Err(ArgumentsError::new(at, "`enum` is not an array"));
            };
            for v in values {
                push(v, &mut literals);
            }
        }
        if let Some(Value::Array(examples)) = flat.get("examples") {
            for v in examples {
                push(v, &mut literals);
            }
        }
        if closed {
            if literals.is_empty() {
                return Err(ArgumentsError::new(
                    at,
                    "no value of `const` / `enum` is valid for the rest of the schema",
                ));
            }
            return Ok(literals[variant % literals.len()].clone());
        }
        if variant < literals.len() {
            return Ok(literals[variant].clone());
        }
        let variant = variant - literals.len();

        let kind = match types_of(flat) {
            Some(types) => {
                if types.is_empty() {
                    return Err(ArgumentsError::new(
                        at,
                        "`type` allows no type (the parts of the schema disagree)",
                    ));
                }
                let first = types.iter().find(|t| *t != "null").unwrap_or(&types[0]);
                first.clone()
            }
            None => match implied_type(flat) {
                Some(t) => t.to_owned(),
                // Tool arguments are an object, whatever the root says.
                None if at.is_empty() => "object".to_owned(),
                None => return Ok(Self::any(variant)),
            },
        };
        match kind.as_str() {
            "null" => Ok(Value::Null),
            "boolean" => Ok(Value::Bool(variant % 2 == 1)),
            "integer" => Self::number(flat, at, variant, true),
            "number" => Self::number(flat, at, variant, false),
            "string" => self.string(flat, at, variant),
            "array" => self.array(flat, at, variant, refs, depth),
            "object" => self.object(flat, at, variant, refs, depth),
            other => Err(ArgumentsError::new(at, format!("unknown type `{other}`"))),
        }
    }

    fn number(
        flat: &Map<String, Value>,
        at: &str,
        variant: usize,
        integer: bool,
    ) -> Result<Value, ArgumentsError> {
        // Bounds, with their exclusivity (draft-04 writes exclusivity as a boolean).
        let mut low: Option<(f64, bool)> = as_f64(flat.get("minimum"))
            .map(|m| (m, flat.get("exclusiveMinimum") == Some(&Value::Bool(true))));
        if let Some(e) = as_f64(flat.get("exclusiveMinimum"))
            && low.is_none_or(|(m, _)| e >= m)
        {
            low = Some((e, true));
        }
        let mut high: Option<(f64, bool)> = as_f64(flat.get("maximum"))
            .map(|m| (m, flat.get("exclusiveMaximum") == Some(&Value::Bool(true))));
        if let Some(e) = as_f64(flat.get("exclusiveMaximum"))
            && high.is_none_or(|(m, _)| e <= m)
        {
            high = Some((e, true));
        }
        let multiple = as_f64(flat.get("multipleOf")).filter(|m| *m > 0.0);

        // The step between candidates: whole numbers first (a multiple of `multipleOf` that
        // is whole, when there is one).
        let whole_step = match multiple {
            None => Some(1.0),
            Some(m) if m.fract() == 0.0 => Some(m),
            Some(m) => (1..=1000)
                .map(|k| m * f64::from(k))
                .find(|x| (x - x.round()).abs() < 1e-9)
                .map(f64::round),
        };
        let in_range = |x: f64| {
            low.is_none_or(|(l, ex)| if ex { x > l } else { x >= l })
                && high.is_none_or(|(h, ex)| if ex { x < h } else { x <= h })
        };
        let pick = |step: f64, round: i32| -> Option<f64> {
            // The index range of multiples of `step` inside the bounds.
            let lo = low.map_or(f64::NEG_INFINITY, |(l, _)| (l / step).ceil());
            let hi = high.map_or(f64::INFINITY, |(h, _)| (h / step).floor());
            let start = 0f64.clamp(lo.min(hi), hi.max(lo));
            // Candidates by distance from `start`, which is 0 when the range holds it.
            let mut found = 0;
            for d in 0..(variant as u64 * 2 + 8) {
                #[allow(clippy::cast_precision_loss)]
                let d = d as f64;
                for n in [start + d, start - d] {
                    if d == 0.0 && n != start {
                        continue;
                    }
                    let x = round_to(n * step, round);
                    if in_range(x) {
                        if found == variant {
                            return Some(x);
                        }
                        found += 1;
                    }
                    if d == 0.0 {
                        break;
                    }
                }
            }
            None
        };
        let value = match whole_step {
            Some(step) => pick(step, 0),
            None => None,
        }
        .or_else(|| {
            if integer {
                return None;
            }
            match multiple {
                Some(m) => pick(m, decimals(m)),
                None => {
                    // No whole number fits: a point inside the bounds.
                    let (l, h) = match (low, high) {
                        (Some((l, _)), Some((h, _))) => (l, h),
                        (Some((l, _)), None) => (l, l + 1.0),
                        (None, Some((h, _))) => (h - 1.0, h),
                        (None, None) => (0.0, 1.0),
                    };
                    #[allow(clippy::cast_precision_loss)]
                    let k = variant as f64;
                    let x = l + (h - l) * (k + 1.0) / (k + 2.0);
                    in_range(x).then_some(x)
                }
            }
        });
        let kind = if integer { "integer" } else { "number" };
        value.and_then(number).ok_or_else(|| {
            let message = if variant == 0 {
                format!("no {kind} fits the bounds and `multipleOf` of this schema")
            } else {
                format!(
                    "fewer than {} distinct {kind}s fit the bounds and `multipleOf` of this schema",
                    variant + 1
                )
            };
            ArgumentsError::new(at, message)
        })
    }

    fn string(
        &self,
        flat: &Map<String, Value>,
        at: &str,
        variant: usize,
    ) -> Result<Value, ArgumentsError> {
        let min = flat
            .get("minLength")
            .and_then(Value::as_u64)
            .map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX));
        let max = flat
            .get("maxLength")
            .and_then(Value::as_u64)
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX));
        if max.is_some_and(|max| max < min) {
            return Err(ArgumentsError::new(at, "`maxLength` is below `minLength`"));
        }
        // Only the string keywords, checked on their own (no references in them).
        let mut local = Map::new();
        local.insert("type".to_owned(), Value::from("string"));
        for key in ["minLength", "maxLength", "pattern", "format"] {
            if let Some(v) = flat.get(key) {
                local.insert(key.to_owned(), v.clone());
            }
        }
        let local = Value::Object(local);
        let check = |s: &str| self.accepts(&local, &Value::from(s)) != Some(false);

        if let Some(Value::String(pattern)) = flat.get("pattern") {
            let here = format!("{at}/pattern");
            let mut seen: Vec<String> = Vec::new();
            let samples = pattern_samples(pattern, min, &here)?;
            for sample in samples {
                if seen.contains(&sample) || !check(&sample) {
                    continue;
                }
                if seen.len() == variant {
                    return Ok(Value::String(sample));
                }
                seen.push(sample);
            }
            return Err(ArgumentsError::new(
                &here,
                format!(
                    "no string sampled from the pattern `{pattern}` is valid here (length {min}..{}{})",
                    max.map_or_else(String::new, |m| m.to_string()),
                    flat.get("format")
                        .and_then(Value::as_str)
                        .map_or_else(String::new, |f| format!(", format `{f}`")),
                ),
            ));
        }

        if let Some(Value::String(format)) = flat.get("format")
            && let Some(candidate) = mcp_typed::elicit::client::format_example(format, variant, min)
        {
            if check(&candidate) {
                return Ok(Value::String(candidate));
            }
            return Err(ArgumentsError::new(
                &format!("{at}/format"),
                format!(
                    "no `{format}` string of length {min}..{} could be made",
                    max.map_or_else(String::new, |m| m.to_string())
                ),
            ));
        }

        // Plain: "a" (or the variant-th string of letters) padded to the length asked.
        let length = min.max(1).min(max.unwrap_or(usize::MAX));
        let mut letters = Vec::new();
        let mut k = variant;
        loop {
            letters.push(b'a' + u8::try_from(k % 26).unwrap_or(0));
            k /= 26;
            if k == 0 {
                break;
            }
        }
        if letters.len() > length.max(1) && max.is_some() {
            return Err(ArgumentsError::new(
                at,
                "no more distinct strings fit `maxLength`",
            ));
        }
        while letters.len() < length {
            letters.push(b'a');
        }
        letters.reverse();
        if length == 0 {
            letters.clear();
        }
        let s = String::from_utf8(letters).unwrap_or_default();
        Ok(Value::String(s))
    }

    fn array(
        &self,
        flat: &Map<String, Value>,
        at: &str,
        variant: usize,
        refs: &mut Vec<String>,
        depth: usize,
    ) -> Result<Value, ArgumentsError> {
        let count = |key: &str| {
            flat.get(key)
                .and_then(Value::as_u64)
                .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
        };
        let contains = flat.get("contains");
        let min_contains = if contains.is_some() {
            count("minContains").unwrap_or(1)
        } else {
            0
        };
        let mut len = count("minItems").unwrap_or(0).max(min_contains);
        if let Some(max) = count("maxItems") {
            if max < len {
                return Err(ArgumentsError::new(at, "`maxItems` is below `minItems`"));
            }
            len = len.min(max);
        }
        if len > 1000 {
            return Err(ArgumentsError::new(
                at,
                "`minItems` asks for over 1000 items",
            ));
        }
        let unique = flat.get("uniqueItems") == Some(&Value::Bool(true));
        // 2020-12: `prefixItems` then `items`; draft-07: `items` as an array, then
        // `additionalItems`.
        let (prefix, prefix_key, rest, rest_key): (&[Value], &str, Option<&Value>, &str) =
            match (flat.get("prefixItems"), flat.get("items")) {
                (Some(Value::Array(p)), items) => (p, "prefixItems", items, "items"),
                (_, Some(Value::Array(p))) => {
                    (p, "items", flat.get("additionalItems"), "additionalItems")
                }
                (_, items) => (&[], "", items, "items"),
            };
        let any = Value::Bool(true);
        let mut items: Vec<Value> = Vec::with_capacity(len);
        for i in 0..len {
            let (schema, here) = match prefix.get(i) {
                Some(s) => (s, format!("{at}/{prefix_key}/{i}")),
                None => (rest.unwrap_or(&any), format!("{at}/{rest_key}")),
            };
            let combined;
            let (schema, here) = match contains {
                Some(c) if i < min_contains => {
                    combined = serde_json::json!({"allOf": [schema, c]});
                    (&combined, format!("{at}/contains"))
                }
                _ => (schema, here),
            };
            let mut v = if unique { variant + i } else { variant };
            let item = loop {
                let mark = refs.len();
                let item = self.generate(schema, &here, v, refs, depth + 1);
                refs.truncate(mark);
                let item = match item {
                    Ok(item) => item,
                    Err(e) if unique && v > 0 => {
                        return Err(ArgumentsError::new(
                            &e.pointer,
                            format!("not enough distinct items for `uniqueItems`: {}", e.message),
                        ));
                    }
                    Err(e) => return Err(e),
                };
                if !unique || !items.contains(&item) {
                    break item;
                }
                v += 1;
                if v > variant + i + VARIANTS * 4 {
                    return Err(ArgumentsError::new(
                        &here,
                        "not enough distinct items for `uniqueItems`",
                    ));
                }
            };
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn object(
        &self,
        flat: &Map<String, Value>,
        at: &str,
        variant: usize,
        refs: &mut Vec<String>,
        depth: usize,
    ) -> Result<Value, ArgumentsError> {
        let empty = Map::new();
        let properties = match flat.get("properties") {
            Some(Value::Object(p)) => p,
            _ => &empty,
        };
        let names = |v: Option<&Value>| -> Vec<String> {
            match v {
                Some(Value::Array(a)) => a
                    .iter()
                    .filter_map(|n| n.as_str().map(str::to_owned))
                    .collect(),
                _ => Vec::new(),
            }
        };
        let mut chosen = names(flat.get("required"));
        // dependentRequired (draft-07: `dependencies` with an array), to a fixed point.
        let mut i = 0;
        while i < chosen.len() {
            for key in ["dependentRequired", "dependencies"] {
                if let Some(Value::Object(deps)) = flat.get(key) {
                    for name in names(deps.get(&chosen[i])) {
                        if !chosen.contains(&name) {
                            chosen.push(name);
                        }
                    }
                }
            }
            i += 1;
        }
        let min_properties = flat
            .get("minProperties")
            .and_then(Value::as_u64)
            .map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX));
        for name in properties.keys() {
            if chosen.len() >= min_properties {
                break;
            }
            if !chosen.contains(name) {
                chosen.push(name.clone());
            }
        }
        let additional = flat.get("additionalProperties");
        let mut extra = 1;
        while chosen.len() < min_properties {
            if additional == Some(&Value::Bool(false)) {
                return Err(ArgumentsError::new(
                    at,
                    "`minProperties` asks for more members than `properties` declares, and `additionalProperties` is false",
                ));
            }
            let name = format!("property{extra}");
            extra += 1;
            if !chosen.contains(&name) {
                chosen.push(name);
            }
            if chosen.len() > 1000 {
                return Err(ArgumentsError::new(
                    at,
                    "`minProperties` asks for over 1000 members",
                ));
            }
        }
        let any = Value::Bool(true);
        let mut object = Map::new();
        for name in chosen {
            let (schema, here) = match properties.get(&name) {
                Some(s) => (s, format!("{at}/properties/{}", token(&name))),
                None => match additional {
                    Some(s @ Value::Object(_)) => (s, format!("{at}/additionalProperties")),
                    _ => (&any, at.to_owned()),
                },
            };
            let mark = refs.len();
            let value = self.generate(schema, &here, variant, refs, depth + 1);
            refs.truncate(mark);
            object.insert(name, value?);
        }
        Ok(Value::Object(object))
    }

    fn invalid(&self) -> Option<(Value, String)> {
        let refused = |v: &Value| !self.validator.is_valid(v);
        let base = match self.valid() {
            Ok(Value::Object(m)) => m,
            _ => Map::new(),
        };
        let flat = match self.root {
            Value::Object(map) => self.flatten(map, "", &mut Vec::new(), 0).ok(),
            _ => None,
        };
        if let Some(flat) = &flat {
            // 1. Without the first required member.
            if let Some(Value::Array(required)) = flat.get("required")
                && let Some(first) = required.iter().find_map(Value::as_str)
            {
                let mut v = base.clone();
                v.remove(first);
                let v = Value::Object(v);
                if refused(&v) {
                    return Some((v, format!("missing required `{first}`")));
                }
            }
            // 2. A typed property given a value of another type.
            if let Some(Value::Object(properties)) = flat.get("properties") {
                for (name, schema) in properties {
                    let Some(types) = self.declared_types(schema) else {
                        continue;
                    };
                    let allows = |t: &str| {
                        types
                            .iter()
                            .any(|u| u == t || (t == "integer" && u == "number"))
                    };
                    let wrong = [
                        ("string", Value::from("x")),
                        ("integer", Value::from(0)),
                        ("boolean", Value::Bool(true)),
                        ("null", Value::Null),
                        ("array", Value::Array(Vec::new())),
                        ("object", Value::Object(Map::new())),
                    ]
                    .into_iter()
                    .find(|(t, _)| !allows(t));
                    let Some((_, wrong)) = wrong else {
                        continue;
                    };
                    let mut v = base.clone();
                    v.insert(name.clone(), wrong.clone());
                    let v = Value::Object(v);
                    if refused(&v) {
                        let why = format!(
                            "`{name}` is {}, not {}",
                            describe(&wrong),
                            type_words(&types)
                        );
                        return Some((v, why));
                    }
                }
            }
            // 3. A member `additionalProperties: false` forbids.
            if flat.get("additionalProperties") == Some(&Value::Bool(false)) {
                let mut name = "unexpected".to_owned();
                while base.contains_key(&name)
                    || flat.get("properties").and_then(|p| p.get(&name)).is_some()
                {
                    name.push('_');
                }
                let mut v = base.clone();
                v.insert(name.clone(), Value::Bool(true));
                let v = Value::Object(v);
                if refused(&v) {
                    return Some((v, format!("unexpected member `{name}`")));
                }
            }
        }
        // 4. The empty object.
        let v = Value::Object(Map::new());
        if let Err(e) = self.validator.validate(&v) {
            let why = format!("the empty object is refused: {e}");
            return Some((v, why));
        }
        None
    }

    /// The `type` a property declares, directly or through its `$ref` / `allOf`.
    fn declared_types(&self, schema: &Value) -> Option<Vec<String>> {
        let Value::Object(map) = schema else {
            return None;
        };
        let flat = self.flatten(map, "", &mut Vec::new(), 0).ok()?;
        types_of(&flat).filter(|t| !t.is_empty())
    }
}

/// `%XX` escapes in a URI fragment decoded.
fn percent_decode(fragment: &str) -> String {
    let bytes = fragment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && bytes[i + 1].is_ascii_hexdigit()
            && bytes[i + 2].is_ascii_hexdigit()
            && let Ok(byte) = u8::from_str_radix(&fragment[i + 1..i + 3], 16)
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| fragment.to_owned())
}

/// Strings sampled from `pattern`, shortest repetition bound first, so the first valid one
/// is short. Anchors and word boundaries are dropped before sampling (the check judges
/// them), and each class is narrowed to printable ASCII where that leaves something.
fn pattern_samples(pattern: &str, min: usize, at: &str) -> Result<Vec<String>, ArgumentsError> {
    use rand::SeedableRng;
    use rand::distr::Distribution;

    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(pattern)
        .map_err(|e| {
            ArgumentsError::new(
                at,
                format!("cannot generate a string for the pattern `{pattern}`: {e}"),
            )
        })?;
    let hir = simplify(hir);
    let mut samples = Vec::new();
    let mut last_error = None;
    let min_repeat = u32::try_from(min).unwrap_or(u32::MAX);
    let mut bounds: Vec<u32> = vec![0, 1, 2, 3, 5, 8, 16, 32, 64];
    if min_repeat > 0 {
        bounds.extend([min_repeat, min_repeat.saturating_mul(2)]);
    }
    for bound in bounds {
        let generator = match rand_regex::Regex::with_hir(hir.clone(), bound) {
            Ok(g) => g,
            Err(e) => {
                last_error = Some(e.to_string());
                break;
            }
        };
        if generator.capacity() > PATTERN_MAX_LEN * 4 {
            continue;
        }
        for seed in 0..PATTERN_SEEDS {
            let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(seed);
            let sample: Result<String, _> = generator.sample(&mut rng);
            if let Ok(sample) = sample
                && sample.chars().count() >= min
            {
                samples.push(sample);
            }
        }
    }
    if samples.is_empty() {
        return Err(ArgumentsError::new(
            at,
            format!(
                "cannot generate a string for the pattern `{pattern}`{}",
                last_error.map_or_else(String::new, |e| format!(": {e}"))
            ),
        ));
    }
    Ok(samples)
}

/// The regex with its look-arounds (anchors, word boundaries) removed and its classes
/// narrowed to printable ASCII where that leaves something: what is sampled is then simple
/// text that an ECMA-262 engine reads the same way.
fn simplify(hir: regex_syntax::hir::Hir) -> regex_syntax::hir::Hir {
    use regex_syntax::hir::{
        Capture, Class, ClassBytes, ClassBytesRange, ClassUnicode, ClassUnicodeRange, Hir, HirKind,
        Repetition,
    };
    match hir.into_kind() {
        HirKind::Look(_) => Hir::empty(),
        HirKind::Class(Class::Unicode(class)) => {
            let mut ascii = ClassUnicode::new([ClassUnicodeRange::new(' ', '~')]);
            ascii.intersect(&class);
            if ascii.ranges().is_empty() {
                Hir::class(Class::Unicode(class))
            } else {
                Hir::class(Class::Unicode(ascii))
            }
        }
        HirKind::Class(Class::Bytes(class)) => {
            let mut ascii = ClassBytes::new([ClassBytesRange::new(b' ', b'~')]);
            ascii.intersect(&class);
            if ascii.ranges().is_empty() {
                Hir::class(Class::Bytes(class))
            } else {
                Hir::class(Class::Bytes(ascii))
            }
        }
        HirKind::Repetition(rep) => Hir::repetition(Repetition {
            sub: Box::new(simplify(*rep.sub)),
            ..rep
        }),
        HirKind::Capture(cap) => Hir::capture(Capture {
            sub: Box::new(simplify(*cap.sub)),
            ..cap
        }),
        HirKind::Concat(hirs) => Hir::concat(hirs.into_iter().map(simplify).collect()),
        HirKind::Alternation(hirs) => Hir::alternation(hirs.into_iter().map(simplify).collect()),
        HirKind::Literal(literal) => Hir::literal(literal.0),
        HirKind::Empty => Hir::empty(),
    }
}
