//! Schema nodes → IR types.
//!
//! Every definition becomes a named type (an alias when it is only a reference or a
//! primitive). Inline objects, enums and unions become named types too, called after where
//! they appear (`{Parent}{Property}`, `…Item`, `…Value`). Nested unions are flattened and
//! each union gets its decision procedure from [`super::union`].

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::naming;
use super::{
    ConstField, ConstValue, EnumValue, Extra, Field, Module, Struct, TypeDef, TypeKind, TypeRef,
    Union, Variant,
};
use crate::error::{Error, Result};
use crate::load::{SchemaDoc, escape_pointer};

/// Keywords that only constrain or annotate values: accepted and not represented in types.
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
    "contentEncoding",
    "contentMediaType",
    "$schema",
    "$id",
];

/// Keywords that shape types and that the generator understands.
const STRUCTURAL: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "$ref",
    "allOf",
    "anyOf",
    "oneOf",
    "const",
    "enum",
];

/// How deep inline schemas may nest (the official schemas nest about five levels). Deeper
/// input is reported as an error rather than exhausting the stack.
pub const MAX_DEPTH: usize = 32;

/// Lowers a whole schema document.
pub fn lower(doc: &SchemaDoc) -> Result<Module> {
    lower_with(doc, &[])
}

/// Lowers a schema document, treating each `(definition, property, value)` of `fixed` as a
/// `const` the schema states only in prose.
pub fn lower_with(doc: &SchemaDoc, fixed: &[(String, String, String)]) -> Result<Module> {
    let mut cx = Lowerer::new(doc)?;
    for (name, schema) in doc.definitions() {
        // Only a definition that has a fixed value is copied.
        let mut schema = std::borrow::Cow::Borrowed(schema);
        for (def, prop, value) in fixed {
            if def != name {
                continue;
            }
            let slot = schema
                .to_mut()
                .get_mut("properties")
                .and_then(|p| p.get_mut(prop.as_str()))
                .and_then(Value::as_object_mut);
            match slot {
                Some(p) => {
                    p.insert("const".into(), Value::String(value.clone()));
                }
                None => {
                    return Err(Error::schema(
                        doc.def_pointer(name),
                        format!("cannot fix `{prop}`: the definition has no such property"),
                    ));
                }
            }
        }
        cx.lower_definition(name, &schema)?;
    }
    let mut module = cx.finish();
    super::union::plan_all(&mut module)?;
    let mut module = module.without_orphans();
    module.applied = doc.applied().to_vec();
    super::roles::assign(&mut module);
    super::codes::assign(&mut module);
    super::unknowns::assign(&mut module);
    super::docs::assign(&mut module);
    box_maps(&mut module);
    Ok(module)
}

/// Sets [`Field::boxed`] on every optional member (with an `Option` of its own) whose type is
/// a map, directly or through an alias (an open object is a `JsonObject`, which holds its
/// members behind pointers already).
pub(super) fn box_maps(module: &mut Module) {
    let m: &Module = module;
    let boxed: Vec<(usize, usize)> = m
        .types
        .iter()
        .enumerate()
        .filter_map(|(t, def)| match &def.kind {
            TypeKind::Struct(s) => Some((t, s)),
            _ => None,
        })
        .flat_map(|(t, s)| {
            s.fields.iter().enumerate().filter_map(move |(i, f)| {
                let map = matches!(m.resolve(&f.ty), TypeRef::Map(_));
                (f.wraps_option() && map).then_some((t, i))
            })
        })
        .collect();
    for (t, i) in boxed {
        if let TypeKind::Struct(s) = &mut module.types[t].kind {
            s.fields[i].boxed = true;
        }
    }
}

/// Sets [`Field::boxed`] on each `(definition, property)` of `members` (the options'
/// `boxed`): a large member held behind a pointer, so the types that hold it stay small.
/// A definition the module does not have is skipped (not every revision has every type); a
/// property the definition does not have is an error.
pub fn box_members(module: &mut Module, members: &[(String, String)]) -> Result<(), String> {
    for (def, prop) in members {
        let Some(&t) = module.by_schema_name.get(def) else {
            continue;
        };
        let field = match &mut module.types[t].kind {
            TypeKind::Struct(s) => s.fields.iter_mut().find(|f| f.json_name == *prop),
            _ => None,
        };
        match field {
            Some(f) => f.boxed = true,
            None => {
                return Err(format!(
                    "--boxed {def}.{prop}: `{def}` has no property `{prop}`"
                ));
            }
        }
    }
    Ok(())
}

struct Lowerer<'a> {
    doc: &'a SchemaDoc,
    /// Schema definition name → Rust name.
    def_names: BTreeMap<String, String>,
    /// Every Rust type name taken so far.
    taken: BTreeSet<String>,
    types: Vec<TypeDef>,
    /// Current nesting of inline schemas.
    depth: usize,
    /// For properties merged from `allOf` members: the pointer of the merged property →
    /// where it is written in the document, so that errors point at the source.
    origins: BTreeMap<String, String>,
}

impl<'a> Lowerer<'a> {
    fn new(doc: &'a SchemaDoc) -> Result<Self> {
        let mut def_names = BTreeMap::new();
        let mut taken = BTreeSet::new();
        for name in doc.definitions().keys() {
            let rust = naming::type_name(name);
            if !taken.insert(rust.clone()) {
                return Err(Error::schema(
                    doc.def_pointer(name),
                    format!(
                        "definition name maps to the Rust name `{rust}`, which another definition already has"
                    ),
                ));
            }
            def_names.insert(name.clone(), rust);
        }
        Ok(Lowerer {
            doc,
            def_names,
            taken,
            types: Vec::new(),
            depth: 0,
            origins: BTreeMap::new(),
        })
    }

    fn finish(self) -> Module {
        Module::new(self.types)
    }

    /// A fresh name for an inline type.
    fn fresh(&mut self, hint: &str) -> String {
        let mut name = hint.to_owned();
        if naming::PRELUDE.contains(&name.as_str()) {
            name = format!("Mcp{name}");
        }
        let base = name.clone();
        let mut n = 2;
        while self.taken.contains(&name) {
            name = format!("{base}{n}");
            n += 1;
        }
        self.taken.insert(name.clone());
        name
    }

    fn lower_definition(&mut self, name: &str, schema: &Value) -> Result<()> {
        let pointer = self.doc.def_pointer(name);
        let rust = self.def_names[name].clone();
        let obj = as_schema_object(schema, &pointer)?;
        let doc = description(obj, &pointer)?;
        let slot = self.types.len();
        // Reserve the slot so the definition precedes the inline types it introduces.
        self.types.push(TypeDef {
            name: rust.clone(),
            schema_name: Some(name.to_owned()),
            pointer: pointer.clone(),
            doc: doc.clone(),
            kind: TypeKind::Alias(TypeRef::Any),
            role: Default::default(),
            walk: Default::default(),
        });
        let kind = match self.shape(obj, &pointer, &rust)? {
            Shape::Kind(kind) => kind,
            Shape::Ref(target) => TypeKind::Alias(target),
        };
        self.types[slot].kind = kind;
        Ok(())
    }

    /// Lowers a schema in a position that needs a type reference; named inline types are
    /// called `hint`.
    fn lower_ref(&mut self, schema: &Value, pointer: &str, hint: &str) -> Result<TypeRef> {
        let obj = as_schema_object(schema, pointer)?;
        match self.shape(obj, pointer, hint)? {
            Shape::Ref(r) => Ok(r),
            Shape::Kind(kind) => {
                let name = self.fresh(hint);
                self.types.push(TypeDef {
                    name: name.clone(),
                    schema_name: None,
                    pointer: pointer.to_owned(),
                    doc: description(obj, pointer)?,
                    kind,
                    role: Default::default(),
                    walk: Default::default(),
                });
                Ok(TypeRef::Named(name))
            }
        }
    }

    /// Decides what a schema node is. `hint` names the types it introduces.
    fn shape(&mut self, obj: &Map<String, Value>, pointer: &str, hint: &str) -> Result<Shape> {
        if self.depth >= MAX_DEPTH {
            return Err(Error::schema(
                pointer,
                format!("schemas nested deeper than {MAX_DEPTH} levels are not supported"),
            ));
        }
        self.depth += 1;
        let shape = self.shape_inner(obj, pointer, hint);
        self.depth -= 1;
        shape
    }

    fn shape_inner(
        &mut self,
        obj: &Map<String, Value>,
        pointer: &str,
        hint: &str,
    ) -> Result<Shape> {
        check_keywords(obj, pointer)?;
        if let Some(r) = obj.get("$ref") {
            let Value::String(r) = r else {
                return Err(Error::schema(format!("{pointer}/$ref"), "must be a string"));
            };
            let others: Vec<&String> = obj
                .keys()
                .filter(|k| STRUCTURAL.contains(&k.as_str()) && *k != "$ref")
                .collect();
            if !others.is_empty() {
                return Err(Error::schema(
                    pointer,
                    format!("$ref next to {others:?} is not supported (wrap them in allOf)"),
                ));
            }
            let name = self.doc.resolve_ref(r, pointer)?;
            return Ok(Shape::Ref(TypeRef::Named(self.def_names[name].clone())));
        }
        if let Some(all) = obj.get("allOf") {
            // `allOf: [{"$ref": X}]` next to annotations is draft-07's way of describing a
            // reference: it is the reference (and may point back at its own definition).
            if let Value::Array(members) = all
                && let [Value::Object(only)] = members.as_slice()
            {
                let structural = obj.keys().filter(|k| STRUCTURAL.contains(&k.as_str()));
                if only.len() == 1 && only.contains_key("$ref") && structural.count() == 1 {
                    return self.shape(only, &format!("{pointer}/allOf/0"), hint);
                }
            }
            let merged = self.merge_all_of(obj, all, pointer)?;
            return self.shape(&merged, pointer, hint);
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(list) = obj.get(key) {
                return self.union(obj, key, list, pointer, hint);
            }
        }
        if let Some(c) = obj.get("const") {
            return self.const_shape(c, pointer);
        }
        if let Some(e) = obj.get("enum") {
            return self.enum_shape(e, pointer);
        }
        let types = schema_types(obj, pointer)?;
        match types.as_slice() {
            [] if obj.contains_key("properties") || obj.contains_key("additionalProperties") => {
                self.object(obj, pointer, hint)
            }
            [] if obj.contains_key("items") => self.array(obj, pointer, hint),
            [] => Ok(Shape::Ref(TypeRef::Any)),
            [one] => self.single_type(one, obj, pointer, hint),
            many => {
                let nullable = many.contains(&"null");
                let rest: Vec<&str> = many.iter().copied().filter(|t| *t != "null").collect();
                let inner = if rest.len() == 1 {
                    match self.single_type(rest[0], obj, pointer, hint)? {
                        Shape::Ref(r) => r,
                        Shape::Kind(kind) => self.push_inline(hint, pointer, obj, kind)?,
                    }
                } else {
                    let mut variants = Vec::new();
                    for t in &rest {
                        let r = match self.single_type(
                            t,
                            obj,
                            pointer,
                            &format!("{hint}{}", naming::camel(t)),
                        )? {
                            Shape::Ref(r) => r,
                            Shape::Kind(kind) => self.push_inline(
                                &format!("{hint}{}", naming::camel(t)),
                                pointer,
                                obj,
                                kind,
                            )?,
                        };
                        // Named with the module's other unions, in `union::plan_all`.
                        variants.push(Variant {
                            rust_name: String::new(),
                            ty: r,
                        });
                    }
                    let kind = TypeKind::Union(Union {
                        variants,
                        plan: Default::default(),
                    });
                    if !nullable {
                        return Ok(Shape::Kind(kind));
                    }
                    self.push_inline(hint, pointer, obj, kind)?
                };
                Ok(if nullable {
                    Shape::Ref(TypeRef::Nullable(Box::new(inner)))
                } else {
                    Shape::Ref(inner)
                })
            }
        }
    }

    fn push_inline(
        &mut self,
        hint: &str,
        pointer: &str,
        obj: &Map<String, Value>,
        kind: TypeKind,
    ) -> Result<TypeRef> {
        let name = self.fresh(hint);
        self.types.push(TypeDef {
            name: name.clone(),
            schema_name: None,
            pointer: pointer.to_owned(),
            doc: description(obj, pointer)?,
            kind,
            role: Default::default(),
            walk: Default::default(),
        });
        Ok(TypeRef::Named(name))
    }

    fn single_type(
        &mut self,
        ty: &str,
        obj: &Map<String, Value>,
        pointer: &str,
        hint: &str,
    ) -> Result<Shape> {
        Ok(Shape::Ref(match ty {
            "string" => TypeRef::String,
            "boolean" => TypeRef::Boolean,
            "number" => TypeRef::Number,
            "integer" => TypeRef::Integer {
                unsigned: obj
                    .get("minimum")
                    .and_then(Value::as_f64)
                    .is_some_and(|m| m >= 0.0),
            },
            "object" => return self.object(obj, pointer, hint),
            "array" => return self.array(obj, pointer, hint),
            "null" => TypeRef::Nullable(Box::new(TypeRef::Any)),
            other => {
                return Err(Error::schema(
                    format!("{pointer}/type"),
                    format!("unknown type {other:?}"),
                ));
            }
        }))
    }

    fn array(&mut self, obj: &Map<String, Value>, pointer: &str, hint: &str) -> Result<Shape> {
        let item = match obj.get("items") {
            None => TypeRef::Any,
            Some(Value::Array(_)) => {
                return Err(Error::schema(
                    format!("{pointer}/items"),
                    "tuple validation (an array of item schemas) is not supported",
                ));
            }
            Some(items) => {
                self.lower_ref(items, &format!("{pointer}/items"), &format!("{hint}Item"))?
            }
        };
        Ok(Shape::Ref(TypeRef::Array(Box::new(item))))
    }

    fn object(&mut self, obj: &Map<String, Value>, pointer: &str, hint: &str) -> Result<Shape> {
        let props = match obj.get("properties") {
            None => Map::new(),
            Some(Value::Object(p)) => p.clone(),
            Some(_) => {
                return Err(Error::schema(
                    format!("{pointer}/properties"),
                    "must be an object",
                ));
            }
        };
        let required: Vec<String> = match obj.get("required") {
            None => Vec::new(),
            Some(Value::Array(r)) => r
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    v.as_str().map(str::to_owned).ok_or_else(|| {
                        Error::schema(format!("{pointer}/required/{i}"), "must be a string")
                    })
                })
                .collect::<Result<_>>()?,
            Some(_) => {
                return Err(Error::schema(
                    format!("{pointer}/required"),
                    "must be an array",
                ));
            }
        };
        let extra = match obj.get("additionalProperties") {
            None | Some(Value::Bool(true)) => Extra::Any,
            Some(Value::Bool(false)) => Extra::Deny,
            Some(s @ Value::Object(m)) if !m.is_empty() => {
                let at = format!("{pointer}/additionalProperties");
                let at = self.origins.get(&at).cloned().unwrap_or(at);
                Extra::Typed(self.lower_ref(s, &at, &format!("{hint}Value"))?)
            }
            Some(Value::Object(_)) => Extra::Any,
            Some(_) => {
                return Err(Error::schema(
                    format!("{pointer}/additionalProperties"),
                    "must be a boolean or a schema",
                ));
            }
        };
        let extra_declared = matches!(
            obj.get("additionalProperties"),
            Some(Value::Bool(true)) | Some(Value::Object(_))
        );
        if props.is_empty() {
            // A bag of members: a map, not a struct.
            return Ok(Shape::Ref(match extra {
                Extra::Any => TypeRef::Object,
                Extra::Typed(t) => TypeRef::Map(Box::new(t)),
                Extra::Deny => TypeRef::Object,
            }));
        }
        let mut consts = Vec::new();
        let mut fields = Vec::new();
        for (json_name, prop) in &props {
            let at = format!("{pointer}/properties/{}", escape_pointer(json_name));
            let at = self.origins.get(&at).cloned().unwrap_or(at);
            let is_required = required.iter().any(|r| r == json_name);
            let prop_obj = as_schema_object(prop, &at)?;
            if let Some(c) = prop_obj.get("const") {
                let value = const_value(c, &format!("{at}/const"))?;
                if is_required {
                    consts.push(ConstField {
                        rust_name: naming::const_name(json_name),
                        json_name: json_name.clone(),
                        value,
                    });
                    continue;
                }
                if let ConstValue::Str(s) = &value {
                    let hint = format!("{hint}{}", naming::camel(json_name));
                    let ty = self.lower_ref(prop, &at, &hint)?;
                    fields.push(Field {
                        rust_name: naming::field_name(json_name),
                        json_name: json_name.clone(),
                        ty,
                        required: false,
                        doc: description(prop_obj, &at)?,
                        optional_const: Some(s.clone()),
                        null_is_absent: false,
                        boxed: false,
                    });
                    continue;
                }
            }
            let ty = self.lower_ref(prop, &at, &format!("{hint}{}", naming::camel(json_name)))?;
            fields.push(Field {
                rust_name: naming::field_name(json_name),
                json_name: json_name.clone(),
                null_is_absent: !is_required && matches!(ty, TypeRef::Nullable(_)),
                ty,
                required: is_required,
                doc: description(prop_obj, &at)?,
                optional_const: None,
                boxed: false,
            });
        }
        let names = naming::dedupe(fields.iter().map(|f| f.rust_name.clone()));
        for (f, n) in fields.iter_mut().zip(names) {
            f.rust_name = n;
        }
        let extra_name = if fields.iter().any(|f| f.rust_name == "extra") {
            "extra_members"
        } else {
            "extra"
        };
        Ok(Shape::Kind(TypeKind::Struct(Struct {
            fields,
            consts,
            extra,
            extra_declared,
            extra_name: extra_name.to_owned(),
        })))
    }

    fn const_shape(&mut self, c: &Value, pointer: &str) -> Result<Shape> {
        match const_value(c, &format!("{pointer}/const"))? {
            ConstValue::Str(s) => Ok(Shape::Kind(TypeKind::StringEnum(vec![EnumValue {
                rust_name: naming::camel(&s),
                value: s,
            }]))),
            ConstValue::Int(_) => Ok(Shape::Ref(TypeRef::Integer { unsigned: false })),
        }
    }

    fn enum_shape(&mut self, e: &Value, pointer: &str) -> Result<Shape> {
        let at = format!("{pointer}/enum");
        let Value::Array(values) = e else {
            return Err(Error::schema(at, "must be an array"));
        };
        if values.is_empty() {
            return Err(Error::schema(at, "an empty enum admits no value"));
        }
        let mut strings = Vec::new();
        for (i, v) in values.iter().enumerate() {
            match v {
                Value::String(s) => strings.push(s.clone()),
                _ => {
                    return Err(Error::schema(
                        format!("{at}/{i}"),
                        "only string enums are supported",
                    ));
                }
            }
        }
        let names = naming::dedupe(strings.iter().map(|s| naming::camel(s)));
        Ok(Shape::Kind(TypeKind::StringEnum(
            strings
                .into_iter()
                .zip(names)
                .map(|(value, rust_name)| EnumValue { rust_name, value })
                .collect(),
        )))
    }

    fn union(
        &mut self,
        obj: &Map<String, Value>,
        key: &str,
        list: &Value,
        pointer: &str,
        hint: &str,
    ) -> Result<Shape> {
        let at = format!("{pointer}/{key}");
        let Value::Array(items) = list else {
            return Err(Error::schema(at, "must be an array"));
        };
        if items.is_empty() {
            return Err(Error::schema(at, "must not be empty"));
        }
        // Siblings such as `properties` next to anyOf would need an intersection.
        let siblings: Vec<&String> = obj
            .keys()
            .filter(|k| STRUCTURAL.contains(&k.as_str()) && *k != key && *k != "type")
            .collect();
        if !siblings.is_empty() {
            return Err(Error::schema(
                pointer,
                format!("{key} next to {siblings:?} is not supported"),
            ));
        }
        let mut variants: Vec<TypeRef> = Vec::new();
        let mut nullable = false;
        for (i, item) in items.iter().enumerate() {
            let item_at = format!("{at}/{i}");
            let item_obj = as_schema_object(item, &item_at)?;
            if item_obj.get("type") == Some(&Value::String("null".into())) {
                nullable = true;
                continue;
            }
            let kind_hint = inline_variant_hint(item_obj);
            let r = self.lower_ref(item, &item_at, &format!("{hint}{kind_hint}"))?;
            variants.push(r);
        }
        let inner = match variants.len() {
            0 => TypeRef::Any,
            1 => variants.pop().unwrap_or(TypeRef::Any),
            _ => {
                // Named with the module's other unions, in `union::plan_all`.
                let kind = TypeKind::Union(Union {
                    variants: variants
                        .into_iter()
                        .map(|ty| Variant {
                            rust_name: String::new(),
                            ty,
                        })
                        .collect(),
                    plan: Default::default(),
                });
                if !nullable {
                    return Ok(Shape::Kind(kind));
                }
                self.push_inline(hint, pointer, obj, kind)?
            }
        };
        Ok(Shape::Ref(if nullable {
            TypeRef::Nullable(Box::new(inner))
        } else {
            inner
        }))
    }

    /// Merges the members of `allOf` (references resolved) into one object schema: the
    /// union of properties (later members refine earlier ones) and of `required`.
    fn merge_all_of(
        &mut self,
        obj: &Map<String, Value>,
        all: &Value,
        pointer: &str,
    ) -> Result<Map<String, Value>> {
        let at = format!("{pointer}/allOf");
        let Value::Array(members) = all else {
            return Err(Error::schema(at, "must be an array"));
        };
        let mut merged = Map::new();
        for (k, v) in obj {
            if k != "allOf" {
                merged.insert(k.clone(), v.clone());
            }
        }
        let mut props = Map::new();
        let mut required: Vec<Value> = Vec::new();
        let mut seen_refs = BTreeSet::new();
        let mut queue: Vec<(String, Value)> = members
            .iter()
            .enumerate()
            .map(|(i, m)| (format!("{at}/{i}"), m.clone()))
            .collect();
        queue.reverse();
        while let Some((member_at, member)) = queue.pop() {
            let m = as_schema_object(&member, &member_at)?.clone();
            check_keywords(&m, &member_at)?;
            check_mergeable(&m, &member_at)?;
            if let Some(Value::String(r)) = m.get("$ref") {
                let name = self.doc.resolve_ref(r, &member_at)?.to_owned();
                if !seen_refs.insert(name.clone()) {
                    continue;
                }
                let target = self.doc.definitions()[&name].clone();
                queue.push((self.doc.def_pointer(&name), target));
                continue;
            }
            if let Some(Value::Array(inner)) = m.get("allOf") {
                for (i, x) in inner.iter().enumerate().rev() {
                    queue.push((format!("{member_at}/allOf/{i}"), x.clone()));
                }
            }
            for key in ["anyOf", "oneOf", "enum", "const", "items"] {
                if m.contains_key(key) {
                    return Err(Error::schema(
                        member_at,
                        format!(
                            "`{key}` inside allOf is not supported (only object schemas are merged)"
                        ),
                    ));
                }
            }
            if let Some(t) = m.get("type")
                && t != "object"
            {
                return Err(Error::schema(
                    format!("{member_at}/type"),
                    "allOf members must be objects",
                ));
            }
            if let Some(Value::Object(p)) = m.get("properties") {
                for (k, v) in p {
                    self.origins.insert(
                        format!("{pointer}/properties/{}", escape_pointer(k)),
                        format!("{member_at}/properties/{}", escape_pointer(k)),
                    );
                    let refined = match (props.get(k), v) {
                        // A refinement without its own type or description keeps the
                        // earlier member's.
                        (Some(Value::Object(old)), Value::Object(new)) => {
                            let mut o = old.clone();
                            if new.contains_key("$ref")
                                || new.contains_key("type")
                                || new.contains_key("const")
                            {
                                o.retain(|key, _| ANNOTATIONS.contains(&key.as_str()));
                            }
                            for (nk, nv) in new {
                                o.insert(nk.clone(), nv.clone());
                            }
                            Value::Object(o)
                        }
                        _ => v.clone(),
                    };
                    props.insert(k.clone(), refined);
                }
            }
            if let Some(Value::Array(r)) = m.get("required") {
                for x in r {
                    if !required.contains(x) {
                        required.push(x.clone());
                    }
                }
            }
            let taken = match (
                m.get("additionalProperties"),
                merged.get("additionalProperties"),
            ) {
                (Some(a), None) => {
                    merged.insert("additionalProperties".into(), a.clone());
                    true
                }
                (Some(Value::Bool(false)), Some(_)) => {
                    merged.insert("additionalProperties".into(), Value::Bool(false));
                    true
                }
                _ => false,
            };
            if taken {
                self.origins.insert(
                    format!("{pointer}/additionalProperties"),
                    format!("{member_at}/additionalProperties"),
                );
            }
            if !merged.contains_key("description")
                && let Some(d) = m.get("description")
            {
                merged.insert("description".into(), d.clone());
            }
        }
        merged.insert("type".into(), Value::String("object".into()));
        merged.insert("properties".into(), Value::Object(props));
        merged.insert("required".into(), Value::Array(required));
        Ok(merged)
    }
}

enum Shape {
    /// A reference to an existing or primitive type.
    Ref(TypeRef),
    /// A new type that the caller must name.
    Kind(TypeKind),
}

fn as_schema_object<'v>(v: &'v Value, pointer: &str) -> Result<&'v Map<String, Value>> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    match v {
        Value::Object(m) => Ok(m),
        Value::Bool(true) => Ok(EMPTY.get_or_init(Map::new)),
        Value::Bool(false) => Err(Error::schema(pointer, "the schema `false` admits no value")),
        _ => Err(Error::schema(
            pointer,
            "a schema must be an object or a boolean",
        )),
    }
}

/// Checks the keywords an `allOf` member contributes to the merged object, so that an error
/// names the member (`…/allOf/1/required/0`) rather than the merged node.
fn check_mergeable(m: &Map<String, Value>, at: &str) -> Result<()> {
    match m.get("required") {
        None => {}
        Some(Value::Array(items)) => {
            for (i, v) in items.iter().enumerate() {
                if !v.is_string() {
                    return Err(Error::schema(
                        format!("{at}/required/{i}"),
                        "must be a string",
                    ));
                }
            }
        }
        Some(_) => return Err(Error::schema(format!("{at}/required"), "must be an array")),
    }
    match m.get("properties") {
        None | Some(Value::Object(_)) => {}
        Some(_) => {
            return Err(Error::schema(
                format!("{at}/properties"),
                "must be an object",
            ));
        }
    }
    match m.get("additionalProperties") {
        None | Some(Value::Bool(_)) | Some(Value::Object(_)) => {}
        Some(_) => {
            return Err(Error::schema(
                format!("{at}/additionalProperties"),
                "must be a boolean or a schema",
            ));
        }
    }
    match m.get("description") {
        None | Some(Value::String(_)) => Ok(()),
        Some(_) => Err(Error::schema(
            format!("{at}/description"),
            "must be a string",
        )),
    }
}

fn check_keywords(obj: &Map<String, Value>, pointer: &str) -> Result<()> {
    for k in obj.keys() {
        if !ANNOTATIONS.contains(&k.as_str()) && !STRUCTURAL.contains(&k.as_str()) {
            return Err(Error::schema(pointer, format!("unsupported keyword '{k}'")));
        }
    }
    Ok(())
}

fn description(obj: &Map<String, Value>, pointer: &str) -> Result<Option<String>> {
    match obj.get("description") {
        None => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(Error::schema(
            format!("{pointer}/description"),
            "must be a string",
        )),
    }
}

fn schema_types<'v>(obj: &'v Map<String, Value>, pointer: &str) -> Result<Vec<&'v str>> {
    match obj.get("type") {
        None => Ok(Vec::new()),
        Some(Value::String(s)) => Ok(vec![s.as_str()]),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, t)| {
                t.as_str()
                    .ok_or_else(|| Error::schema(format!("{pointer}/type/{i}"), "must be a string"))
            })
            .collect(),
        Some(_) => Err(Error::schema(
            format!("{pointer}/type"),
            "must be a string or an array of strings",
        )),
    }
}

fn const_value(c: &Value, pointer: &str) -> Result<ConstValue> {
    match c {
        Value::String(s) => Ok(ConstValue::Str(s.clone())),
        Value::Number(n) => n.as_i64().map(ConstValue::Int).ok_or_else(|| {
            Error::schema(pointer, "only string and integer constants are supported")
        }),
        _ => Err(Error::schema(
            pointer,
            "only string and integer constants are supported",
        )),
    }
}

/// Name hint for an inline union member, by what it is.
fn inline_variant_hint(obj: &Map<String, Value>) -> String {
    match obj.get("type") {
        Some(Value::String(t)) => naming::camel(t),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .map(naming::camel)
            .collect::<Vec<_>>()
            .join("Or"),
        _ => "Variant".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(defs: serde_json::Value) -> Result<Module> {
        let doc = SchemaDoc::from_value(serde_json::json!({"$defs": defs}))?;
        lower(&doc)
    }

    #[test]
    fn unsupported_keyword_names_the_pointer() {
        let e = module(serde_json::json!({
            "Tool": {"type": "object", "properties": {"inputSchema": {"type": "object", "patternProperties": {}}}}
        }))
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "#/$defs/Tool/properties/inputSchema: unsupported keyword 'patternProperties'"
        );
    }

    #[test]
    fn optional_maps_are_boxed_and_nothing_else() {
        let m = module(serde_json::json!({
            "MetaObject": {"type": "object", "additionalProperties": {}},
            "Params": {"type": "object", "properties": {
                "_meta": {"$ref": "#/$defs/MetaObject"},
                "arguments": {"type": "object", "additionalProperties": {}},
                "headers": {"type": "object", "additionalProperties": {"type": "string"}},
                "input": {"type": "object", "additionalProperties": {}},
                "name": {"type": "string"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "maybe": {"type": ["object", "null"], "additionalProperties": {}}
            }, "required": ["input"]}
        }))
        .unwrap();
        let TypeKind::Struct(s) = &m.get("Params").unwrap().kind else {
            panic!()
        };
        let boxed: Vec<(&str, bool)> = s
            .fields
            .iter()
            .map(|f| (f.json_name.as_str(), f.boxed))
            .collect();
        assert_eq!(
            boxed,
            [
                // Open objects are `JsonObject`s, their members behind pointers already.
                ("_meta", false),
                ("arguments", false),
                ("headers", true),
                // Required: always present, so nothing to save.
                ("input", false),
                ("name", false),
                ("tags", false),
                // Already an `Option` of its type's own (absent and `null` both `None`).
                ("maybe", false),
            ]
        );
    }

    #[test]
    fn named_members_are_boxed_required_or_optional() {
        let mut m = module(serde_json::json!({
            "Caps": {"type": "object", "properties": {"a": {"type": "string"}}},
            "Init": {"type": "object", "properties": {
                "caps": {"$ref": "#/$defs/Caps"},
                "more": {"$ref": "#/$defs/Caps"},
                "name": {"type": "string"}
            }, "required": ["caps", "name"]}
        }))
        .unwrap();
        let members = |list: &[(&str, &str)]| -> Vec<(String, String)> {
            (list.iter())
                .map(|(d, p)| (d.to_string(), p.to_string()))
                .collect()
        };
        // A definition the revision does not have is skipped.
        box_members(
            &mut m,
            &members(&[("Init", "caps"), ("Init", "more"), ("Absent", "x")]),
        )
        .unwrap();
        let TypeKind::Struct(s) = &m.get("Init").unwrap().kind else {
            panic!()
        };
        let boxed: Vec<(&str, bool, bool)> = (s.fields.iter())
            .map(|f| (f.json_name.as_str(), f.required, f.boxed))
            .collect();
        assert_eq!(
            boxed,
            [
                ("caps", true, true),
                ("more", false, true),
                ("name", true, false)
            ]
        );
        let e = box_members(&mut m, &members(&[("Init", "nope")])).unwrap_err();
        assert_eq!(e, "--boxed Init.nope: `Init` has no property `nope`");
    }

    #[test]
    fn required_consts_are_not_fields_and_optional_consts_are() {
        let m = module(serde_json::json!({
            "Ping": {"type": "object", "properties": {
                "jsonrpc": {"const": "2.0", "type": "string"},
                "mode": {"const": "form", "type": "string"},
                "id": {"type": ["string", "integer"]}
            }, "required": ["jsonrpc", "id"]}
        }))
        .unwrap();
        let TypeKind::Struct(s) = &m.get("Ping").unwrap().kind else {
            panic!()
        };
        assert_eq!(
            s.consts,
            vec![ConstField {
                json_name: "jsonrpc".into(),
                rust_name: "JSONRPC".into(),
                value: ConstValue::Str("2.0".into())
            }]
        );
        assert_eq!(
            s.fields
                .iter()
                .map(|f| f.json_name.as_str())
                .collect::<Vec<_>>(),
            ["mode", "id"]
        );
        assert_eq!(s.fields[0].optional_const.as_deref(), Some("form"));
        assert_eq!(s.fields[0].ty, TypeRef::Named("PingMode".into()));
        assert_eq!(s.fields[1].ty, TypeRef::Named("PingId".into()));
    }

    #[test]
    fn all_of_merges_refs_and_refines_properties() {
        let m = module(serde_json::json!({
            "Error": {"type": "object", "properties": {"code": {"type": "integer"}, "message": {"type": "string"}}, "required": ["code", "message"]},
            "Special": {"type": "object", "properties": {"error": {"allOf": [
                {"$ref": "#/$defs/Error"},
                {"type": "object", "properties": {"code": {"const": -32042, "type": "integer"}}, "required": ["code"]}
            ]}}, "required": ["error"]}
        }))
        .unwrap();
        let TypeKind::Struct(s) = &m.get("SpecialError").unwrap().kind else {
            panic!()
        };
        assert_eq!(
            s.consts,
            vec![ConstField {
                json_name: "code".into(),
                rust_name: "CODE".into(),
                value: ConstValue::Int(-32042)
            }]
        );
        assert_eq!(s.fields.len(), 1);
        assert!(s.fields[0].required);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let mut schema = serde_json::json!({"type": "string"});
        for _ in 0..200 {
            schema = serde_json::json!({"type": "array", "items": schema});
        }
        let e = module(serde_json::json!({"A": schema}))
            .unwrap_err()
            .to_string();
        assert!(e.contains("nested deeper than 32 levels"), "{e}");
        assert!(e.starts_with("#/$defs/A/items/items/"), "{e}");
    }

    #[test]
    fn annotated_self_reference_through_all_of_is_a_reference() {
        let m = module(
            serde_json::json!({"Node": {"type": "object", "properties": {"children": {
                "type": "array",
                "items": {"allOf": [{"$ref": "#/$defs/Node"}], "description": "A child."}
            }}}}),
        )
        .unwrap();
        let TypeKind::Struct(s) = &m.get("Node").unwrap().kind else {
            panic!()
        };
        assert_eq!(
            s.fields[0].ty,
            TypeRef::Array(Box::new(TypeRef::Named("Node".into())))
        );
    }

    #[test]
    fn errors_inside_all_of_point_at_the_member() {
        let e = module(serde_json::json!({"A": {"allOf": [{"type": "object", "properties": {"x": {"const": []}}}]}}))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("#/$defs/A/allOf/0/properties/x/const: "),
            "{e}"
        );
        let e = module(serde_json::json!({
            "B": {"type": "object", "properties": {"y": {"type": "object", "patternProperties": {}}}},
            "A": {"allOf": [{"$ref": "#/$defs/B"}, {"type": "object"}]}
        }))
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with("#/$defs/B/properties/y: unsupported keyword"),
            "{e}"
        );
    }

    #[test]
    fn malformed_all_of_members_are_reported_at_the_member() {
        let e =
            module(serde_json::json!({"A": {"allOf": [{"type": "object", "required": [null]}]}}))
                .unwrap_err()
                .to_string();
        assert_eq!(e, "#/$defs/A/allOf/0/required/0: must be a string");
        let e = module(serde_json::json!({
            "T": {"type": "object", "required": [{}]},
            "A": {"type": "object", "properties": {"r": {"allOf": [{"$ref": "#/$defs/T"}, {"type": "object"}]}}}
        }))
        .unwrap_err()
        .to_string();
        assert_eq!(e, "#/$defs/T/required/0: must be a string");
        let e = module(serde_json::json!({"A": {"allOf": [{"type": "object", "additionalProperties": {"not": {}}}]}}))
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "#/$defs/A/allOf/0/additionalProperties: unsupported keyword 'not'"
        );
    }

    #[test]
    fn never_panics_on_odd_shapes() {
        for bad in [
            serde_json::json!({"A": 3}),
            serde_json::json!({"A": {"type": 3}}),
            serde_json::json!({"A": {"anyOf": []}}),
            serde_json::json!({"A": {"enum": [1, 2]}}),
            serde_json::json!({"A": {"items": [{}]}}),
            serde_json::json!({"A": {"$ref": "#/$defs/B"}}),
        ] {
            assert!(module(bad.clone()).is_err(), "{bad}");
        }
    }
}
