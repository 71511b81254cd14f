//! Stage 2: the intermediate model between JSON Schema and Rust tokens.
//!
//! [`lower()`] turns a [`SchemaDoc`](crate::load::SchemaDoc) into a [`Module`]: every named
//! Rust type with its fields, constants and, for unions, the decision procedure that tells
//! the variants apart ([`union`]); what each type is for in the protocol ([`roles`]: requests,
//! notifications, results, the messages of each side), the error-code constants ([`codes`]),
//! what each type's walk for unknown members visits ([`unknowns`]) and every type's and
//! member's doc text ([`docs`]). The emitter only renders this model;
//! every decision about names, shapes and docs is taken here.

pub mod codes;
pub mod docs;
pub mod lower;
pub mod naming;
pub mod roles;
pub mod union;
pub mod unknowns;

use std::collections::{BTreeMap, BTreeSet};

pub use lower::{box_members, lower, lower_with};

/// All the types generated from one schema document, in output order.
#[derive(Debug, Clone, PartialEq)]
pub struct Module {
    /// Types in output order: definitions in file order, each followed by the inline types it
    /// introduced.
    pub types: Vec<TypeDef>,
    /// Index into `types` by Rust name.
    pub by_name: BTreeMap<String, usize>,
    /// Index into `types` by schema definition name (`JSONRPCMessage`).
    pub by_schema_name: BTreeMap<String, usize>,
    /// What the protocol's structure says beyond each type's role: the JSON-RPC messages of
    /// each side, the tool call ([`roles::assign`]).
    pub protocol: roles::Protocol,
    /// The error-code constants: JSON-RPC's, then each code the schema fixes
    /// ([`codes::assign`]).
    pub error_codes: Vec<codes::ErrorCode>,
    /// What the loader changed in the official text before lowering (errata, member
    /// order), in order: [`SchemaDoc::applied`](crate::load::SchemaDoc::applied).
    pub applied: Vec<crate::load::Step>,
}

/// A type of a [`Module`]: its index in [`Module::types`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub usize);

impl Module {
    /// A module of these types, indexed by Rust name and by schema name.
    pub fn new(types: Vec<TypeDef>) -> Self {
        let by_name = types
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.clone(), i))
            .collect();
        let by_schema_name = types
            .iter()
            .enumerate()
            .filter_map(|(i, t)| Some((t.schema_name.clone()?, i)))
            .collect();
        Module {
            types,
            by_name,
            by_schema_name,
            protocol: roles::Protocol::default(),
            error_codes: Vec::new(),
            applied: Vec::new(),
        }
    }

    /// The type with this id.
    pub fn def(&self, id: TypeId) -> &TypeDef {
        &self.types[id.0]
    }

    /// The id of the type with this Rust name.
    pub fn id(&self, name: &str) -> Option<TypeId> {
        self.by_name.get(name).copied().map(TypeId)
    }

    /// The id of the type generated for the schema definition `name`.
    pub fn schema_id(&self, name: &str) -> Option<TypeId> {
        self.by_schema_name.get(name).copied().map(TypeId)
    }

    /// Drops the inline types nothing refers to any more: a union nested in another union is
    /// flattened into it ([`union::plan_all`]), so the inner one, named for its place and
    /// kinds (`ElicitResultContentValueStringOrNumberOrBoolean`), would be left over as a
    /// public type no field holds. Definitions are always kept.
    pub fn without_orphans(self) -> Module {
        let mut types = self.types;
        loop {
            let mut used = BTreeSet::new();
            for t in &types {
                t.kind.references(&mut used);
            }
            let keep: Vec<bool> = types
                .iter()
                .map(|t| t.schema_name.is_some() || used.contains(t.name.as_str()))
                .collect();
            let before = types.len();
            let mut keep = keep.into_iter();
            types.retain(|_| keep.next().unwrap_or(true));
            if types.len() == before {
                return Module::new(types);
            }
        }
    }

    /// The type generated for the schema definition `name` (`"JSONRPCMessage"`).
    pub fn by_schema(&self, name: &str) -> Option<&TypeDef> {
        self.by_schema_name.get(name).map(|&i| &self.types[i])
    }

    /// The type with this Rust name.
    pub fn get(&self, name: &str) -> Option<&TypeDef> {
        self.by_name.get(name).map(|&i| &self.types[i])
    }

    /// Follows aliases to the type a name finally stands for.
    pub fn resolve<'a>(&'a self, ty: &'a TypeRef) -> &'a TypeRef {
        let mut ty = ty;
        for _ in 0..64 {
            match ty {
                TypeRef::Named(n) => match self.get(n).map(|t| &t.kind) {
                    Some(TypeKind::Alias(target)) => ty = target,
                    _ => return ty,
                },
                _ => return ty,
            }
        }
        ty
    }

    /// The struct a type reference stands for, if any (through aliases).
    pub fn as_struct(&self, ty: &TypeRef) -> Option<&Struct> {
        match self.resolve(ty) {
            TypeRef::Named(n) => match &self.get(n)?.kind {
                TypeKind::Struct(s) => Some(s),
                _ => None,
            },
            _ => None,
        }
    }
}

/// One generated Rust type.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeDef {
    /// Rust name (UpperCamelCase, unique in the module).
    pub name: String,
    /// The schema definition's own name, for definitions (`JSONRPCMessage`).
    pub schema_name: Option<String>,
    /// JSON pointer of the schema node.
    pub pointer: String,
    /// Description from the schema; after [`docs::assign`], the rustdoc text: the
    /// description with its links resolved, or one written from where the type sits.
    pub doc: Option<String>,
    /// The shape.
    pub kind: TypeKind,
    /// What the type is for in the protocol ([`roles::assign`]).
    pub role: roles::Role,
    /// What its `Unknowns` walk visits ([`unknowns::assign`]).
    pub walk: unknowns::Walk,
}

/// The shape of a generated type.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeKind {
    /// `pub type Name = Target;`
    Alias(TypeRef),
    /// An object with known properties.
    Struct(Struct),
    /// A string restricted to listed values.
    StringEnum(Vec<EnumValue>),
    /// One of several shapes.
    Union(Union),
}

impl TypeKind {
    /// Adds the names of the module's types this one refers to.
    fn references<'a>(&'a self, out: &mut BTreeSet<&'a str>) {
        match self {
            TypeKind::Alias(t) => t.references(out),
            TypeKind::Struct(s) => {
                for f in &s.fields {
                    f.ty.references(out);
                }
                if let Extra::Typed(t) = &s.extra {
                    t.references(out);
                }
            }
            TypeKind::StringEnum(_) => {}
            TypeKind::Union(u) => {
                for v in &u.variants {
                    v.ty.references(out);
                }
            }
        }
    }
}

/// A reference to a type from a field, an item, a map value or a variant.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TypeRef {
    /// A generated type of this module.
    Named(String),
    /// `String`
    String,
    /// `i64`, or `u64` when the schema says `minimum >= 0`.
    Integer {
        /// The schema forbids negative values.
        unsigned: bool,
    },
    /// `serde_json::Number`, so that `50` stays `50` and `0.8` stays `0.8`.
    Number,
    /// `bool`
    Boolean,
    /// Any JSON value: `serde_json::Value`.
    Any,
    /// A JSON object with arbitrary members: `serde_json::Map<String, Value>`.
    Object,
    /// `Vec<T>`
    Array(Box<TypeRef>),
    /// An object whose members all have type `T`: `IndexMap<String, T>` (order kept).
    Map(Box<TypeRef>),
    /// `T` or JSON `null`: `Option<T>`.
    Nullable(Box<TypeRef>),
}

impl TypeRef {
    fn references<'a>(&'a self, out: &mut BTreeSet<&'a str>) {
        match self {
            TypeRef::Named(n) => {
                out.insert(n);
            }
            TypeRef::Array(t) | TypeRef::Map(t) | TypeRef::Nullable(t) => t.references(out),
            _ => {}
        }
    }
}

/// An object type.
#[derive(Debug, Clone, PartialEq)]
pub struct Struct {
    /// Properties that carry a value, in schema order.
    pub fields: Vec<Field>,
    /// Required properties with a `const` value: checked when decoding, written when
    /// encoding, not stored.
    pub consts: Vec<ConstField>,
    /// What happens to members the schema does not list.
    pub extra: Extra,
    /// The schema says members beyond the listed ones are expected (`additionalProperties`
    /// is `true` or a schema), so they are not reported as unknown.
    pub extra_declared: bool,
    /// The Rust name of the field holding them: `extra`, or `extra_members` when the schema
    /// has a property called `extra`.
    pub extra_name: String,
}

impl Struct {
    /// The JSON names of every declared property (fields and constants).
    pub fn declared(&self) -> impl Iterator<Item = &str> {
        self.consts
            .iter()
            .map(|c| c.json_name.as_str())
            .chain(self.fields.iter().map(|f| f.json_name.as_str()))
    }

    /// The field with this JSON name.
    pub fn field(&self, json_name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.json_name == json_name)
    }

    /// The constant with this JSON name.
    pub fn const_field(&self, json_name: &str) -> Option<&ConstField> {
        self.consts.iter().find(|c| c.json_name == json_name)
    }

    /// Names of required properties (constants and required fields).
    pub fn required(&self) -> impl Iterator<Item = &str> {
        self.consts.iter().map(|c| c.json_name.as_str()).chain(
            self.fields
                .iter()
                .filter(|f| f.required)
                .map(|f| f.json_name.as_str()),
        )
    }
}

/// A stored property.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// snake_case Rust name (may be a raw identifier such as `r#type`).
    pub rust_name: String,
    /// Name on the wire.
    pub json_name: String,
    /// Value type (without the `Option` that optional fields add).
    pub ty: TypeRef,
    /// Listed in `required`.
    pub required: bool,
    /// Description from the schema; after [`docs::assign`], the rustdoc text.
    pub doc: Option<String>,
    /// For an optional property with a `const` string value: the value (its type is a
    /// one-value enum).
    pub optional_const: Option<String>,
    /// An optional property that may also be `null` (`id?: RequestId` with the errata's
    /// `| null`): one `Option`, not two. Absent and `null` both read as `None`, and `None` is
    /// written as absent, the schema's own spelling.
    pub null_is_absent: bool,
    /// An optional map (`IndexMap<String, T>`, directly or through an alias) held behind a
    /// `Box`: `Option<Box<IndexMap<…>>>` is one pointer where `Option<IndexMap<…>>` is 72
    /// bytes, so a struct with such members stays small and cheap to move. (Open objects are
    /// `JsonObject`s, 32 bytes, their members behind pointers already.) Decided once, after
    /// lowering (`lower::box_maps`).
    pub boxed: bool,
}

impl Field {
    /// Whether the Rust field wraps [`Field::ty`] in an `Option` of its own (optional
    /// properties, except those whose type already is one: [`Field::null_is_absent`]).
    pub fn wraps_option(&self) -> bool {
        !self.required && !self.null_is_absent
    }
}

/// A required property with a fixed value.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstField {
    /// Name on the wire.
    pub json_name: String,
    /// The name of the associated constant holding the value (`METHOD`).
    pub rust_name: String,
    /// The value.
    pub value: ConstValue,
}

/// A `const` value the generator supports.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ConstValue {
    /// A string (`"2.0"`, `"tools/call"`).
    Str(String),
    /// An integer (error codes).
    Int(i64),
}

/// Unknown members of an object.
#[derive(Debug, Clone, PartialEq)]
pub enum Extra {
    /// Kept as raw JSON (no `additionalProperties`, or `true`/`{}`).
    Any,
    /// Kept, each decoded as this type (`additionalProperties: {schema}`).
    Typed(TypeRef),
    /// Rejected (`additionalProperties: false`).
    Deny,
}

/// One value of a string enum.
#[derive(Debug, Clone, PartialEq)]
pub struct EnumValue {
    /// Variant name.
    pub rust_name: String,
    /// The string on the wire.
    pub value: String,
}

/// A union (`anyOf`/`oneOf`, or a `type` array).
#[derive(Debug, Clone, PartialEq)]
pub struct Union {
    /// Variants in schema order (nested unions flattened).
    pub variants: Vec<Variant>,
    /// How a JSON value is assigned to a variant, decided by [`union::plan_all`] for every
    /// union of a lowered module.
    pub plan: union::Plan,
}

/// One union variant.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// Variant name.
    pub rust_name: String,
    /// The payload type.
    pub ty: TypeRef,
}
