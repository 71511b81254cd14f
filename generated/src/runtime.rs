//! Support code called by the generated (de)serializers.
//!
//! Generated code (in this crate or in a crate whose `build.rs` runs `mcp-codegen`) refers to
//! these items by path. They are public so that such code compiles, but they are not part of
//! the API a user calls directly, and may change together with the generator.
//!
//! The decoding model: every generated object type has a *builder* ([`ObjectBuilder`]) that
//! receives one field at a time, straight from the deserializer's [`MapAccess`]. Unions that
//! carry a discriminator (`method`, `type`, `mode`…) read keys until they meet the
//! discriminator, pick the variant's builder, hand it the few fields read before the
//! discriminator, and stream every remaining field into it. Nothing is buffered when the
//! discriminator comes first, which is how every encoder in this crate writes it.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

pub use indexmap::IndexMap;
pub use serde;
pub use serde_json;
pub use serde_json::{Map, Number, Value};

/// An object key, borrowed from the input when the deserializer allows it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key<'de>(pub Cow<'de, str>);

impl std::ops::Deref for Key<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Key<'_> {
    /// The key as an owned string.
    pub fn into_owned(self) -> String {
        self.0.into_owned()
    }
}

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

/// Receives the fields of one JSON object and produces the decoded value.
///
/// Implemented by the generated builder of each object type, of each union, and by
/// [`MapBuilder`] for raw objects.
pub trait ObjectBuilder<'de>: Sized {
    /// What [`finish`](Self::finish) produces.
    type Output;
    /// Consumes the value of `key`.
    fn field<D: Deserializer<'de>>(&mut self, key: Key<'de>, value: D) -> Result<(), D::Error>;
    /// Checks that every required field was present and builds the value.
    fn finish<E: de::Error>(self) -> Result<Self::Output, E>;
}

/// A type that is decoded from a JSON object through a builder.
pub trait Buildable<'de>: Sized {
    /// The builder; `Default` is its empty state.
    type Builder: ObjectBuilder<'de, Output = Self> + Default;
    /// Used in "invalid type" errors: "expected {EXPECTING}".
    const EXPECTING: &'static str;
}

struct FieldSeed<'a, 'de, B> {
    builder: &'a mut B,
    key: Key<'de>,
}

impl<'de, B: ObjectBuilder<'de>> DeserializeSeed<'de> for FieldSeed<'_, 'de, B> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        self.builder.field(self.key, d)
    }
}

/// Streams the rest of `map` into `builder` and finishes it.
pub fn drain_map<'de, A: MapAccess<'de>, B: ObjectBuilder<'de>>(
    mut builder: B,
    mut map: A,
) -> Result<B::Output, A::Error> {
    while let Some(key) = map.next_key::<Key<'de>>()? {
        map.next_value_seed(FieldSeed {
            builder: &mut builder,
            key,
        })?;
    }
    builder.finish()
}

/// The visitor for a [`Buildable`] type: expects a JSON object.
pub struct ObjectVisitor<T>(PhantomData<T>);

impl<T> Default for ObjectVisitor<T> {
    fn default() -> Self {
        ObjectVisitor(PhantomData)
    }
}

impl<'de, T: Buildable<'de>> Visitor<'de> for ObjectVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(T::EXPECTING)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        drain_map(T::Builder::default(), map)
    }
}

/// `Deserialize::deserialize` of a [`Buildable`] type.
pub fn deserialize_object<'de, T: Buildable<'de>, D: Deserializer<'de>>(
    d: D,
) -> Result<T, D::Error> {
    d.deserialize_map(ObjectVisitor::<T>::default())
}

/// Decodes `value` into `slot`, rejecting a second occurrence of the same key.
pub fn set<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
    slot: &mut Option<T>,
    name: &'static str,
    value: D,
) -> Result<(), D::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(name));
    }
    *slot = Some(T::deserialize(value)?);
    Ok(())
}

/// Keeps an unknown field, decoded as `T`.
pub fn set_extra<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
    extra: &mut IndexMap<String, T>,
    key: Key<'de>,
    value: D,
) -> Result<(), D::Error> {
    let v = T::deserialize(value)?;
    if extra.insert(key.0.into_owned(), v).is_some() {
        return Err(de::Error::custom("duplicate field in object"));
    }
    Ok(())
}

/// Keeps an unknown field as raw JSON.
pub fn set_extra_value<'de, D: Deserializer<'de>>(
    extra: &mut Map<String, Value>,
    key: Key<'de>,
    value: D,
) -> Result<(), D::Error> {
    let v = Value::deserialize(value)?;
    let key = key.0.into_owned();
    if extra.contains_key(&key) {
        return Err(de::Error::custom(format_args!("duplicate field `{key}`")));
    }
    extra.insert(key, v);
    Ok(())
}

/// Rejects a field the schema does not allow (`additionalProperties: false`).
pub fn deny_unknown<'de, D: Deserializer<'de>>(
    key: Key<'de>,
    _value: D,
    expected: &'static [&'static str],
) -> Result<(), D::Error> {
    Err(de::Error::unknown_field(&key, expected))
}

/// Checks a string `const` field (`jsonrpc`, `method`, `type`…): its value must be `expected`.
pub fn const_str<'de, D: Deserializer<'de>>(
    seen: &mut bool,
    name: &'static str,
    expected: &'static str,
    value: D,
) -> Result<(), D::Error> {
    if *seen {
        return Err(de::Error::duplicate_field(name));
    }
    let got = Key::deserialize(value)?;
    if &*got != expected {
        return Err(de::Error::custom(format_args!(
            "invalid value for `{name}`: expected {expected:?}, found {:?}",
            &*got
        )));
    }
    *seen = true;
    Ok(())
}

/// Checks an integer `const` field (error `code`s).
pub fn const_int<'de, D: Deserializer<'de>>(
    seen: &mut bool,
    name: &'static str,
    expected: i64,
    value: D,
) -> Result<(), D::Error> {
    if *seen {
        return Err(de::Error::duplicate_field(name));
    }
    let got = i64::deserialize(value)?;
    if got != expected {
        return Err(de::Error::custom(format_args!(
            "invalid value for `{name}`: expected {expected}, found {got}"
        )));
    }
    *seen = true;
    Ok(())
}

/// Unwraps a required field's slot.
pub fn required<T, E: de::Error>(slot: Option<T>, name: &'static str) -> Result<T, E> {
    slot.ok_or_else(|| E::missing_field(name))
}

/// Reports every absent required field at once: `checks` pairs each name with whether it
/// is missing.
pub fn check_required<E: de::Error>(checks: &[(&'static str, bool)]) -> Result<(), E> {
    let missing: Vec<&str> = checks.iter().filter(|c| c.1).map(|c| c.0).collect();
    match missing.as_slice() {
        [] => Ok(()),
        [one] => Err(E::missing_field(one)),
        many => Err(E::custom(format_args!(
            "missing fields {}",
            many.iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// Builds a raw JSON object; used for the custom (unknown `method`) variants and for values
/// that a union has to inspect whole.
#[derive(Default)]
pub struct MapBuilder(pub Map<String, Value>);

impl<'de> ObjectBuilder<'de> for MapBuilder {
    type Output = Map<String, Value>;
    fn field<D: Deserializer<'de>>(&mut self, key: Key<'de>, value: D) -> Result<(), D::Error> {
        set_extra_value(&mut self.0, key, value)
    }
    fn finish<E: de::Error>(self) -> Result<Map<String, Value>, E> {
        Ok(self.0)
    }
}

/// A union whose variants are told apart by the value of one property (the tag).
pub trait TaggedUnion<'de>: Sized {
    /// The builder chosen by the tag; its output is the union.
    type Builder: ObjectBuilder<'de, Output = Self>;
    /// The tag property's name.
    const TAG: &'static str;
    /// Used in "invalid type" errors.
    const EXPECTING: &'static str;
    /// The builder for a tag value; `None` when the object has no tag. `Err` carries the
    /// message for an unknown or missing tag.
    fn builder_for(tag: Option<&str>) -> Result<Self::Builder, String>;
}

/// Decodes a [`TaggedUnion`] from a map: fields before the tag are buffered, the rest stream
/// into the variant's builder.
pub fn visit_tagged<'de, T: TaggedUnion<'de>, A: MapAccess<'de>>(
    mut map: A,
) -> Result<T, A::Error> {
    let mut before: Vec<(Key<'de>, Value)> = Vec::new();
    loop {
        let Some(key) = map.next_key::<Key<'de>>()? else {
            let mut builder = T::builder_for(None).map_err(de::Error::custom)?;
            feed_buffered(&mut builder, before)?;
            return builder.finish();
        };
        if &*key == T::TAG {
            let tag = map.next_value::<Key<'de>>()?;
            let mut builder = T::builder_for(Some(&tag)).map_err(de::Error::custom)?;
            builder.field(key, tag.0.into_deserializer())?;
            feed_buffered(&mut builder, before)?;
            return drain_map(builder, map);
        }
        before.push((key, map.next_value::<Value>()?));
    }
}

fn feed_buffered<'de, B: ObjectBuilder<'de>, E: de::Error>(
    builder: &mut B,
    fields: Vec<(Key<'de>, Value)>,
) -> Result<(), E> {
    for (key, value) in fields {
        builder.field(key, value).map_err(E::custom)?;
    }
    Ok(())
}

/// The message for a tag value that no variant has.
pub fn unknown_tag(union: &str, tag: &str, value: Option<&str>, expected: &[&str]) -> String {
    match value {
        Some(v) => format!(
            "invalid `{tag}` {v:?} for {union}: expected one of {}",
            quote_list(expected)
        ),
        None => format!(
            "missing field `{tag}` for {union} (one of {})",
            quote_list(expected)
        ),
    }
}

fn quote_list(items: &[&str]) -> String {
    items
        .iter()
        .map(|s| format!("{s:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Turns an already typed value back into JSON, for a field that the chosen variant of a
/// merged union does not declare and so keeps among its unknown fields.
pub fn to_value<T: Serialize, E: de::Error>(v: &T) -> Result<Value, E> {
    serde_json::to_value(v).map_err(E::custom)
}

/// Decodes a buffered JSON value into a builder slot (merged unions).
pub fn from_value<'de, T: Deserialize<'de>, E: de::Error>(v: Value) -> Result<T, E> {
    T::deserialize(v).map_err(E::custom)
}

/// JSON kind of a buffered value, for union selection.
pub fn is_kind(v: &Value, kind: Kind) -> bool {
    match kind {
        Kind::Null => v.is_null(),
        Kind::Boolean => v.is_boolean(),
        Kind::Integer => v.is_i64() || v.is_u64(),
        Kind::Number => v.is_number(),
        Kind::String => v.is_string(),
        Kind::Array => v.is_array(),
        Kind::Object => v.is_object(),
    }
}

/// The JSON kinds a schema `type` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `null`
    Null,
    /// `true`/`false`
    Boolean,
    /// a number without fraction
    Integer,
    /// any number
    Number,
    /// a string
    String,
    /// an array
    Array,
    /// an object
    Object,
}

/// Checks that a buffered object has every key of `required` (used to pick between union
/// variants whose nested objects differ only in what they require).
pub fn has_keys(v: Option<&Value>, required: &[&str]) -> bool {
    match v {
        Some(Value::Object(m)) => required.iter().all(|k| m.contains_key(*k)),
        _ => false,
    }
}

/// Serializes a [`Value`] map entry by entry into an ongoing map serialization.
pub fn serialize_extra<M: serde::ser::SerializeMap, V: Serialize>(
    map: &mut M,
    extra: &IndexMap<String, V>,
) -> Result<(), M::Error> {
    for (k, v) in extra {
        map.serialize_entry(k, v)?;
    }
    Ok(())
}

/// [`serialize_extra`] for a raw JSON map.
pub fn serialize_extra_value<M: serde::ser::SerializeMap>(
    map: &mut M,
    extra: &Map<String, Value>,
) -> Result<(), M::Error> {
    for (k, v) in extra {
        map.serialize_entry(k, v)?;
    }
    Ok(())
}

/// A JSON-RPC request type: its method, parameters and result, linked at the type level.
pub trait RequestMethod {
    /// The `method` value.
    const METHOD: &'static str;
    /// The type of `params` as the schema declares it (an `Option` when optional).
    type Params;
    /// The `result` of a successful response.
    type Result;
    /// The request's parameters.
    fn params(&self) -> &Self::Params;
}

/// A JSON-RPC notification type: its method and parameters.
pub trait NotificationMethod {
    /// The `method` value.
    const METHOD: &'static str;
    /// The type of `params` as the schema declares it (an `Option` when optional).
    type Params;
    /// The notification's parameters.
    fn params(&self) -> &Self::Params;
}

/// Receives the Rust type generated for a schema definition; see each revision module's
/// `with_definition`. Lets tools work on "the type of definition X" chosen at run time
/// (the conformance tests, `validate-traffic --definition`), at no cost unless used.
pub trait DefinitionVisitor {
    /// What the visit produces.
    type Output;
    /// Called with the definition's type as `T`.
    fn visit<T>(self, rust_name: &'static str) -> Self::Output
    where
        T: Serialize + serde::de::DeserializeOwned + fmt::Debug + Clone + PartialEq + 'static;
}

/// A merged-union slot: the value decoded as the type the declaring members agree on, or kept
/// raw when its JSON kind is not one that type accepts (then those members are ruled out, and
/// the value can still go to a member that keeps it as an unknown member).
#[derive(Debug)]
pub enum Slot<T> {
    /// Decoded as the declared type.
    Typed(T),
    /// Of another JSON kind than the declared type.
    Raw(Value),
}

/// Decodes `value` into `slot` as `T` when its JSON kind is one of `kinds`, else keeps it raw.
/// Streams in both cases: the kind is known from the first token.
pub fn set_kinded<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
    slot: &mut Option<Slot<T>>,
    name: &'static str,
    kinds: &'static [Kind],
    value: D,
) -> Result<(), D::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(name));
    }
    *slot = Some(value.deserialize_any(KindedVisitor::<T> {
        kinds,
        marker: PhantomData,
    })?);
    Ok(())
}

struct KindedVisitor<T> {
    kinds: &'static [Kind],
    marker: PhantomData<T>,
}

impl<T> KindedVisitor<T> {
    fn takes(&self, kind: Kind) -> bool {
        self.kinds.contains(&kind)
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for KindedVisitor<T> {
    type Value = Slot<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Slot<T>, E> {
        if self.takes(Kind::Boolean) {
            T::deserialize(NotNull(v.into_deserializer())).map(Slot::Typed)
        } else {
            Ok(Slot::Raw(Value::Bool(v)))
        }
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Slot<T>, E> {
        if self.takes(Kind::Integer) || self.takes(Kind::Number) {
            T::deserialize(NotNull(v.into_deserializer())).map(Slot::Typed)
        } else {
            Ok(Slot::Raw(Value::from(v)))
        }
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Slot<T>, E> {
        if self.takes(Kind::Integer) || self.takes(Kind::Number) {
            T::deserialize(NotNull(v.into_deserializer())).map(Slot::Typed)
        } else {
            Ok(Slot::Raw(Value::from(v)))
        }
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Slot<T>, E> {
        if self.takes(Kind::Number) {
            T::deserialize(NotNull(v.into_deserializer())).map(Slot::Typed)
        } else {
            Ok(Slot::Raw(Value::from(v)))
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Slot<T>, E> {
        if self.takes(Kind::String) {
            T::deserialize(NotNull(v.into_deserializer())).map(Slot::Typed)
        } else {
            Ok(Slot::Raw(Value::String(v.to_owned())))
        }
    }

    fn visit_unit<E: de::Error>(self) -> Result<Slot<T>, E> {
        if self.takes(Kind::Null) {
            T::deserialize(().into_deserializer()).map(Slot::Typed)
        } else {
            Ok(Slot::Raw(Value::Null))
        }
    }

    fn visit_none<E: de::Error>(self) -> Result<Slot<T>, E> {
        self.visit_unit()
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Slot<T>, A::Error> {
        let d = de::value::SeqAccessDeserializer::new(seq);
        if self.takes(Kind::Array) {
            T::deserialize(NotNull(d)).map(Slot::Typed)
        } else {
            Value::deserialize(d).map(Slot::Raw)
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Slot<T>, A::Error> {
        let d = de::value::MapAccessDeserializer::new(map);
        if self.takes(Kind::Object) {
            T::deserialize(NotNull(d)).map(Slot::Typed)
        } else {
            Value::deserialize(d).map(Slot::Raw)
        }
    }
}

/// The JSON of a merged-union slot, for a member that keeps it as an unknown member.
pub fn slot_value<T: Serialize, E: de::Error>(slot: Slot<T>) -> Result<Value, E> {
    match slot {
        Slot::Typed(t) => to_value(&t),
        Slot::Raw(v) => Ok(v),
    }
}

/// A deserializer for a value already known not to be `null`: an `Option` decoding from it
/// gets `Some`. (serde's in-memory deserializers answer `deserialize_option` by visiting the
/// value itself, which `Option`'s visitor rejects.)
struct NotNull<D>(D);

impl<'de, D: Deserializer<'de>> Deserializer<'de> for NotNull<D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        visitor.visit_some(self.0)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}
