//! Support code called by the generated (de)serializers.
//!
//! Generated code (in this crate or in a crate whose `build.rs` runs `mcp-typed-codegen`) refers to
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

pub use crate::decode::DecodeError;
pub use crate::tools::{ArgumentsError, arguments_as};
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

/// Decodes a [`TaggedUnion`] from a map: fields before the tag are buffered (as their JSON
/// text when the input is a string or slice read by `serde_json`, see [`Buffered`]), the rest
/// stream into the variant's builder.
pub fn visit_tagged<'de, T: TaggedUnion<'de>, A: MapAccess<'de>>(
    mut map: A,
) -> Result<T, A::Error> {
    let mut before: Vec<(Key<'de>, Buffered<'de>)> = Vec::new();
    loop {
        let Some(key) = map.next_key::<Key<'de>>()? else {
            let mut builder = T::builder_for(None).map_err(de::Error::custom)?;
            feed_buffered(&mut builder, before)?;
            return builder.finish();
        };
        if &*key == T::TAG {
            let tag = map.next_value::<Key<'de>>()?;
            let mut builder = T::builder_for(Some(&tag)).map_err(de::Error::custom)?;
            // In input order, so that a catch-all variant keeps the object as it came.
            feed_buffered(&mut builder, before)?;
            builder.field(key, tag.0.into_deserializer())?;
            return drain_map(builder, map);
        }
        before.push((key, map.next_value::<Buffered<'de>>()?));
    }
}

fn feed_buffered<'de, B: ObjectBuilder<'de>, E: de::Error>(
    builder: &mut B,
    fields: Vec<(Key<'de>, Buffered<'de>)>,
) -> Result<(), E> {
    for (key, value) in fields {
        match value {
            Buffered::Raw(text) => {
                let mut de = serde_json::Deserializer::from_str(text);
                builder
                    .field(key, &mut de)
                    .and_then(|()| de.end())
                    .map_err(|e| E::custom(without_position(&e)))?;
            }
            Buffered::Value(value) => builder.field(key, value).map_err(E::custom)?,
        }
    }
    Ok(())
}

/// The message of an error raised while decoding buffered text, without serde_json's
/// " at line L column C", which would count from the start of the buffered member rather
/// than of the input (the outer deserializer adds its own position).
fn without_position(e: &serde_json::Error) -> String {
    let message = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    match message.strip_suffix(&suffix) {
        Some(bare) if e.line() != 0 => bare.to_owned(),
        _ => message,
    }
}

/// The name under which `serde_json` hands out the text of a value instead of decoding it
/// (what `serde_json::value::RawValue` asks for, with its `raw_value` feature).
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// A member read before a union's tag, kept until the tag names the variant.
///
/// From `serde_json::from_str`/`from_slice` this is the member's JSON text, borrowed from the
/// input: skipping it costs little, and the variant's builder then decodes it once, typed.
/// Any other deserializer (a `Value`, a reader, another format) yields a [`Value`], as
/// before; both are decoded by the builder with the same checks.
pub enum Buffered<'de> {
    /// The member's JSON text.
    Raw(&'de str),
    /// The member, decoded untyped.
    Value(Value),
}

impl<'de> Deserialize<'de> for Buffered<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_newtype_struct(RAW_VALUE_TOKEN, BufferedVisitor)
    }
}

struct BufferedVisitor;

impl<'de> Visitor<'de> for BufferedVisitor {
    type Value = Buffered<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }
    // Deserializers that do not know the token: the member is read as a `Value`, through
    // whichever of these the deserializer calls (mirroring `Value`'s own visitor).
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Buffered<'de>, D::Error> {
        Value::deserialize(d).map(Buffered::Value)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Buffered<'de>, E> {
        Ok(Buffered::Value(Value::Bool(v)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Buffered<'de>, E> {
        Ok(Buffered::Value(Value::from(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Buffered<'de>, E> {
        Ok(Buffered::Value(Value::from(v)))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Buffered<'de>, E> {
        Ok(Buffered::Value(
            Number::from_f64(v).map_or(Value::Null, Value::Number),
        ))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Buffered<'de>, E> {
        Ok(Buffered::Value(Value::String(v.to_owned())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Buffered<'de>, E> {
        Ok(Buffered::Value(Value::String(v)))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Buffered<'de>, E> {
        Ok(Buffered::Value(Value::Null))
    }
    fn visit_none<E: de::Error>(self) -> Result<Buffered<'de>, E> {
        Ok(Buffered::Value(Value::Null))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Buffered<'de>, D::Error> {
        Value::deserialize(d).map(Buffered::Value)
    }
    fn visit_seq<S: de::SeqAccess<'de>>(self, seq: S) -> Result<Buffered<'de>, S::Error> {
        Value::deserialize(de::value::SeqAccessDeserializer::new(seq)).map(Buffered::Value)
    }
    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Buffered<'de>, M::Error> {
        let Some(first) = map.next_key::<Key<'de>>()? else {
            return Ok(Buffered::Value(Value::Object(Map::new())));
        };
        if &*first == RAW_VALUE_TOKEN {
            // serde_json answering the token: the value is the member's text.
            return match map.next_value::<Key<'de>>()?.0 {
                Cow::Borrowed(text) => Ok(Buffered::Raw(text)),
                // Read from an `io::Read` or a `Value`: no text to borrow.
                Cow::Owned(text) => serde_json::from_str(&text)
                    .map(Buffered::Value)
                    .map_err(de::Error::custom),
            };
        }
        let mut object = Map::new();
        object.insert(first.into_owned(), map.next_value()?);
        while let Some((key, value)) = map.next_entry::<String, Value>()? {
            object.insert(key, value);
        }
        Ok(Buffered::Value(Value::Object(object)))
    }
}

/// The message for an object without the tag of a union whose every member requires it.
pub fn missing_tag(union: &str, tag: &str, expected: &[&str]) -> String {
    format!(
        "missing field `{tag}` for {union} (one of {})",
        quote_list(expected)
    )
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
        T: Serialize
            + serde::de::DeserializeOwned
            + fmt::Debug
            + Clone
            + PartialEq
            + Unknowns
            + 'static;
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

/// The JSON Pointer (RFC 6901) of the value being inspected: a growing string with a stack
/// of segment starts, so descending and returning cost no allocation per level.
#[derive(Debug, Default)]
pub struct JsonPath {
    path: String,
    starts: Vec<usize>,
}

impl JsonPath {
    /// Descends into member or index `token`.
    pub fn push(&mut self, token: &str) {
        self.starts.push(self.path.len());
        self.path.push('/');
        for c in token.chars() {
            match c {
                '~' => self.path.push_str("~0"),
                '/' => self.path.push_str("~1"),
                c => self.path.push(c),
            }
        }
    }

    /// Descends into array index `i`.
    pub fn push_index(&mut self, i: usize) {
        self.starts.push(self.path.len());
        self.path.push('/');
        self.path.push_str(&i.to_string());
    }

    /// Returns to the parent.
    pub fn pop(&mut self) {
        if let Some(start) = self.starts.pop() {
            self.path.truncate(start);
        }
    }

    /// The pointer so far (`""` is the root).
    pub fn as_str(&self) -> &str {
        &self.path
    }
}

/// Something a decoded value holds that its revision does not define: kept whole (so it
/// re-encodes unchanged) and reported by [`Unknowns::unknowns`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Unknown {
    /// JSON Pointer of the value from the root of the inspected value (`""` is the root,
    /// `/content/1` the second content block).
    pub pointer: String,
    /// What it is.
    pub kind: UnknownKind,
}

/// What kind of thing an [`Unknown`] is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UnknownKind {
    /// A member the object's type does not declare (kept in its `extra` map). The pointer
    /// names the member.
    Member,
    /// A tag value that no variant of the union has, e.g. content `type` `"audio"` in
    /// 2024-11-05 (kept in the union's `Unknown` variant).
    Variant {
        /// The union's schema name (`ContentBlock`).
        union: &'static str,
        /// The tag property (`type`).
        tag: &'static str,
        /// The tag's value (`None` if it is not a string).
        value: Option<String>,
    },
    /// A method the revision does not define (kept in the union's `Custom` variant).
    Method {
        /// The union's schema name (`ClientRequest`).
        union: &'static str,
        /// The method (`None` if it is not a string).
        method: Option<String>,
    },
}

impl fmt::Display for Unknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "/"
        } else {
            &self.pointer
        };
        write!(f, "{at}: {}", self.kind)
    }
}

impl fmt::Display for UnknownKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnknownKind::Member => write!(f, "unknown member"),
            UnknownKind::Variant { union, tag, value } => match value {
                Some(v) => write!(f, "unknown {union} `{tag}` {v:?}"),
                None => write!(f, "unknown {union} `{tag}`"),
            },
            UnknownKind::Method { union, method } => match method {
                Some(m) => write!(f, "custom method {m:?} ({union})"),
                None => write!(f, "custom method ({union})"),
            },
        }
    }
}

impl Unknown {
    /// The report for a union's catch-all variant holding `object`, tagged by `tag`.
    pub fn tagged(
        at: &JsonPath,
        union: &'static str,
        tag: &'static str,
        object: &Map<String, Value>,
        method: bool,
    ) -> Unknown {
        let value = object.get(tag).and_then(Value::as_str).map(str::to_owned);
        Unknown {
            pointer: at.as_str().to_owned(),
            kind: if method {
                UnknownKind::Method {
                    union,
                    method: value,
                }
            } else {
                UnknownKind::Variant { union, tag, value }
            },
        }
    }
}

/// Reports every member of a raw `extra` map but `_meta`, which the specification allows on
/// every request, notification and result whether or not a revision's schema lists it.
pub fn unknown_value_members(
    extra: &Map<String, Value>,
    at: &mut JsonPath,
    out: &mut Vec<Unknown>,
) {
    for key in extra.keys().filter(|k| *k != "_meta") {
        at.push(key);
        out.push(Unknown {
            pointer: at.as_str().to_owned(),
            kind: UnknownKind::Member,
        });
        at.pop();
    }
}

/// "Did anything unknown come in?": implemented by every generated type.
///
/// Decoding is lossless: a member a type does not declare is kept in its `extra` map, a
/// content block (or other tagged value) of a newer revision in its union's `Unknown`
/// variant, an undefined method in `Custom`. Nothing of that is an error, so that a peer
/// speaking a newer revision never breaks a session; this trait tells what was kept.
/// Members inside free-form objects are expected, not unknown: `_meta` (vendor keys are
/// welcome there by the specification) and objects the schema declares open
/// (`additionalProperties`: tool `arguments`, the generic `Result`).
pub trait Unknowns {
    /// Appends what this value holds that its revision does not define; `at` is this
    /// value's pointer.
    fn collect_unknowns(&self, at: &mut JsonPath, out: &mut Vec<Unknown>);

    /// Everything this value holds that its revision does not define, in document order.
    /// Empty for a value that follows its revision to the letter.
    fn unknowns(&self) -> Vec<Unknown> {
        let mut out = Vec::new();
        self.collect_unknowns(&mut JsonPath::default(), &mut out);
        out
    }

    /// Whether [`unknowns`](Self::unknowns) is non-empty.
    fn has_unknowns(&self) -> bool {
        !self.unknowns().is_empty()
    }
}

macro_rules! nothing_unknown {
    ($($t:ty),*) => {
        $(impl Unknowns for $t {
            fn collect_unknowns(&self, _: &mut JsonPath, _: &mut Vec<Unknown>) {}
        })*
    };
}

nothing_unknown!(String, bool, i64, u64, Number, Value, Map<String, Value>);

impl<T: Unknowns> Unknowns for Option<T> {
    fn collect_unknowns(&self, at: &mut JsonPath, out: &mut Vec<Unknown>) {
        if let Some(v) = self {
            v.collect_unknowns(at, out);
        }
    }
}

impl<T: Unknowns> Unknowns for Box<T> {
    fn collect_unknowns(&self, at: &mut JsonPath, out: &mut Vec<Unknown>) {
        (**self).collect_unknowns(at, out);
    }
}

impl<T: Unknowns> Unknowns for Vec<T> {
    fn collect_unknowns(&self, at: &mut JsonPath, out: &mut Vec<Unknown>) {
        for (i, v) in self.iter().enumerate() {
            at.push_index(i);
            v.collect_unknowns(at, out);
            at.pop();
        }
    }
}

impl<T: Unknowns> Unknowns for IndexMap<String, T> {
    fn collect_unknowns(&self, at: &mut JsonPath, out: &mut Vec<Unknown>) {
        for (k, v) in self {
            at.push(k);
            v.collect_unknowns(at, out);
            at.pop();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Typed messages per direction (`ClientMessage`, `ServerMessage` of each revision)

pub use serde_json::value::RawValue;

/// A successful JSON-RPC response whose `result` is kept as the raw JSON it came as, until the
/// caller says which request it answers ([`result_as`](Self::result_as)): a response names no
/// method, so only the caller knows the result's type.
#[derive(Debug, Clone)]
pub struct ResultResponse<Id> {
    /// The id of the request answered.
    pub id: Id,
    /// The `result` member, exactly as received (or as encoded by [`Self::new`]).
    pub result: Box<RawValue>,
    /// Members besides `jsonrpc`, `id` and `result`, kept so that nothing is lost.
    pub extra: Map<String, Value>,
}

impl<Id> ResultResponse<Id> {
    /// A response to request `id` with `result` (encoded once, now).
    pub fn new(id: Id, result: &impl Serialize) -> Self {
        ResultResponse {
            id,
            result: serde_json::value::to_raw_value(result).expect("generated types always encode"),
            extra: Map::new(),
        }
    }

    /// The result decoded as the result type of request `R` (`RequestMethod::Result`):
    /// `response.result_as::<CallToolRequest>()` gives a `CallToolResult`.
    pub fn result_as<R>(&self) -> serde_json::Result<R::Result>
    where
        R: RequestMethod,
        R::Result: serde::de::DeserializeOwned,
    {
        serde_json::from_str(self.result.get())
    }

    /// The result decoded as `T`.
    pub fn result_into<T: serde::de::DeserializeOwned>(&self) -> serde_json::Result<T> {
        serde_json::from_str(self.result.get())
    }
}

impl<Id: PartialEq> PartialEq for ResultResponse<Id> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && self.result.get() == other.result.get() && self.extra == other.extra
    }
}

impl<Id: Serialize> Serialize for ResultResponse<Id> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("jsonrpc", "2.0")?;
        m.serialize_entry("id", &self.id)?;
        m.serialize_entry("result", &self.result)?;
        serialize_extra_value(&mut m, &self.extra)?;
        m.end()
    }
}

impl<Id> Unknowns for ResultResponse<Id> {
    fn collect_unknowns(&self, at: &mut JsonPath, out: &mut Vec<Unknown>) {
        unknown_value_members(&self.extra, at, out);
    }
}

/// The requests or the notifications one side sends (a union tagged by `method`, or a single
/// type), as the message decoder sees them.
pub trait MethodSet<'de>: Sized {
    /// The builder for one method.
    type Builder: ObjectBuilder<'de, Output = Self>;
    /// Whether the members declare the JSON-RPC envelope (`jsonrpc`, and `id` for requests)
    /// themselves, as from 2025-11-25 on; before, the message keeps it.
    const ENVELOPE: bool;
    /// Whether `method` is one of the set's.
    fn knows(method: &str) -> bool;
    /// The builder for a method the set knows.
    fn builder(method: &str) -> Result<Self::Builder, String>;
    /// The value for a method the set does not know, kept whole; `None` when the set has no
    /// catch-all.
    fn custom(raw: Map<String, Value>) -> Option<Self>;
}

/// A decoded message, before the revision's enum takes it.
pub enum MessageParts<Req, Note, Id, Err> {
    /// A request; the id is here when the request type does not hold it.
    Request(Option<Id>, Req),
    /// A notification.
    Notification(Note),
    /// A successful response.
    Response(ResultResponse<Id>),
    /// An error response.
    Error(Err),
}

enum MessageState<'de, Req: MethodSet<'de>, Note: MethodSet<'de>, Id, Err: Buildable<'de>> {
    Undecided(Vec<(Key<'de>, Value)>),
    Request(Req::Builder),
    Notification(Note::Builder),
    Custom(MapBuilder),
    Response(Option<Box<RawValue>>),
    Error(Err::Builder),
    #[allow(dead_code)]
    Marker(PhantomData<Id>),
}

impl<'de, Req: MethodSet<'de>, Note: MethodSet<'de>, Id, Err: Buildable<'de>>
    MessageState<'de, Req, Note, Id, Err>
{
    /// Whether the message itself takes `jsonrpc` and `id` (their typed part does not
    /// declare them), once decided.
    fn keeps_envelope(&self) -> bool {
        match self {
            MessageState::Request(_) | MessageState::Custom(_) => !Req::ENVELOPE,
            MessageState::Notification(_) => !Note::ENVELOPE,
            MessageState::Response(_) => true,
            _ => false,
        }
    }
}

/// Decodes one JSON-RPC message of one direction straight from the deserializer: the fields
/// before the deciding member (`method`, `result` or `error`) are buffered — `jsonrpc` and
/// `id` as a rule — and everything after it streams into the typed builder. The `method`
/// value picks the request or notification type; a method neither set knows is kept whole
/// in the set's catch-all, a request when the message has an `id`.
pub fn visit_message<'de, A, Req, Note, Id, Err>(
    mut map: A,
) -> Result<MessageParts<Req, Note, Id, Err>, A::Error>
where
    A: MapAccess<'de>,
    Req: MethodSet<'de>,
    Note: MethodSet<'de>,
    Id: Deserialize<'de>,
    Err: Buildable<'de>,
{
    let mut state: MessageState<'de, Req, Note, Id, Err> = MessageState::Undecided(Vec::new());
    let mut id: Option<Id> = None;
    let mut jsonrpc = false;
    let mut extra = Map::new();
    while let Some(key) = map.next_key::<Key<'de>>()? {
        if state.keeps_envelope() && (&*key == "jsonrpc" || &*key == "id") {
            take_envelope(&key, &mut jsonrpc, &mut id, map.next_value_seed(ValueSeed)?)
                .map_err(de::Error::custom)?;
            continue;
        }
        match &mut state {
            MessageState::Undecided(before) => match &*key {
                "method" => {
                    let method = map.next_value::<Key<'de>>()?;
                    let before = std::mem::take(before);
                    state = if Req::knows(&method) {
                        MessageState::Request(Req::builder(&method).map_err(de::Error::custom)?)
                    } else if Note::knows(&method) {
                        MessageState::Notification(
                            Note::builder(&method).map_err(de::Error::custom)?,
                        )
                    } else {
                        MessageState::Custom(MapBuilder::default())
                    };
                    for (k, v) in before {
                        feed::<Req, Note, Id, Err, A::Error>(
                            &mut state,
                            &mut jsonrpc,
                            &mut id,
                            &mut extra,
                            k,
                            v,
                        )?;
                    }
                    feed::<Req, Note, Id, Err, A::Error>(
                        &mut state,
                        &mut jsonrpc,
                        &mut id,
                        &mut extra,
                        key,
                        Value::String(method.into_owned()),
                    )?;
                }
                "result" => {
                    let result = map.next_value::<Box<RawValue>>()?;
                    let before = std::mem::take(before);
                    state = MessageState::Response(Some(result));
                    for (k, v) in before {
                        feed::<Req, Note, Id, Err, A::Error>(
                            &mut state,
                            &mut jsonrpc,
                            &mut id,
                            &mut extra,
                            k,
                            v,
                        )?;
                    }
                }
                "error" => {
                    let before = std::mem::take(before);
                    let mut b = Err::Builder::default();
                    for (k, v) in before {
                        b.field(k, v).map_err(de::Error::custom)?;
                    }
                    b.field(key, map.next_value_seed(ValueSeed)?)
                        .map_err(de::Error::custom)?;
                    state = MessageState::Error(b);
                }
                _ => before.push((key, map.next_value()?)),
            },
            MessageState::Request(b) => map.next_value_seed(FieldSeed { builder: b, key })?,
            MessageState::Notification(b) => map.next_value_seed(FieldSeed { builder: b, key })?,
            MessageState::Custom(b) => map.next_value_seed(FieldSeed { builder: b, key })?,
            MessageState::Error(b) => map.next_value_seed(FieldSeed { builder: b, key })?,
            MessageState::Response(_) => {
                set_extra_value(&mut extra, key, map.next_value_seed(ValueSeed)?)
                    .map_err(de::Error::custom)?
            }
            MessageState::Marker(_) => unreachable!("never constructed"),
        }
    }
    let need_jsonrpc = |envelope: bool| -> Result<(), A::Error> {
        if envelope || jsonrpc {
            Ok(())
        } else {
            Err(de::Error::missing_field("jsonrpc"))
        }
    };
    match state {
        MessageState::Undecided(_) => Err(de::Error::custom(
            "not a JSON-RPC message: no `method`, `result` or `error`",
        )),
        MessageState::Request(b) => {
            need_jsonrpc(Req::ENVELOPE)?;
            if !Req::ENVELOPE && id.is_none() {
                return Err(de::Error::missing_field("id"));
            }
            Ok(MessageParts::Request(id, b.finish()?))
        }
        MessageState::Notification(b) => {
            need_jsonrpc(Note::ENVELOPE)?;
            Ok(MessageParts::Notification(b.finish()?))
        }
        MessageState::Custom(MapBuilder(raw)) => {
            let is_request = id.is_some() || raw.contains_key("id");
            if is_request {
                need_jsonrpc(Req::ENVELOPE)?;
                let method = raw
                    .get("method")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned();
                // Only a side that sends no requests has no catch-all for them.
                let req = Req::custom(raw).ok_or_else(|| {
                    de::Error::custom(format_args!(
                        "request method {method:?} is not one this side sends in this revision \
                         (from 2026-07-28 on, a server asks for input by returning an \
                         InputRequiredResult instead of sending requests)"
                    ))
                })?;
                Ok(MessageParts::Request(id, req))
            } else {
                need_jsonrpc(Req::ENVELOPE)?;
                let method = raw
                    .get("method")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned();
                let note = Note::custom(raw).ok_or_else(|| {
                    de::Error::custom(format_args!(
                        "notification method {method:?} is not one this side sends"
                    ))
                })?;
                Ok(MessageParts::Notification(note))
            }
        }
        MessageState::Response(result) => {
            need_jsonrpc(false)?;
            Ok(MessageParts::Response(ResultResponse {
                id: id.ok_or_else(|| de::Error::missing_field("id"))?,
                result: result.expect("set when decided"),
                extra,
            }))
        }
        MessageState::Error(b) => Ok(MessageParts::Error(b.finish()?)),
        MessageState::Marker(_) => unreachable!("never constructed"),
    }
}

/// A buffered member of a message, given to the state decided since.
fn feed<'de, Req, Note, Id, Err, E>(
    state: &mut MessageState<'de, Req, Note, Id, Err>,
    jsonrpc: &mut bool,
    id: &mut Option<Id>,
    extra: &mut Map<String, Value>,
    key: Key<'de>,
    value: Value,
) -> Result<(), E>
where
    Req: MethodSet<'de>,
    Note: MethodSet<'de>,
    Id: Deserialize<'de>,
    Err: Buildable<'de>,
    E: de::Error,
{
    if state.keeps_envelope() && (&*key == "jsonrpc" || &*key == "id") {
        return take_envelope(&key, jsonrpc, id, value).map_err(E::custom);
    }
    match state {
        MessageState::Request(b) => b.field(key, value).map_err(E::custom),
        MessageState::Notification(b) => b.field(key, value).map_err(E::custom),
        MessageState::Custom(b) => b.field(key, value).map_err(E::custom),
        MessageState::Error(b) => b.field(key, value).map_err(E::custom),
        MessageState::Response(_) => set_extra_value(extra, key, value).map_err(E::custom),
        MessageState::Undecided(_) | MessageState::Marker(_) => {
            unreachable!("fed only once decided")
        }
    }
}

/// `jsonrpc` (must be "2.0") or `id` of a message whose typed part does not hold them.
fn take_envelope<'de, Id: Deserialize<'de>>(
    key: &str,
    jsonrpc: &mut bool,
    id: &mut Option<Id>,
    value: Value,
) -> Result<(), serde_json::Error> {
    if key == "jsonrpc" {
        if *jsonrpc {
            return Err(de::Error::duplicate_field("jsonrpc"));
        }
        if value != "2.0" {
            return Err(de::Error::custom(format_args!(
                "invalid value for `jsonrpc`: expected \"2.0\", found {value}"
            )));
        }
        *jsonrpc = true;
    } else {
        if id.is_some() {
            return Err(de::Error::duplicate_field("id"));
        }
        *id = Some(Id::deserialize(value)?);
    }
    Ok(())
}

/// Reads any value as a [`Value`] (a seed, so that a `Value` can be read where a seed is
/// expected).
struct ValueSeed;

impl<'de> DeserializeSeed<'de> for ValueSeed {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
}

/// Writes a value's members into a map being written, for a message whose typed part does not
/// hold the JSON-RPC envelope (requests and notifications before 2025-11-25): the message
/// writes `jsonrpc` and `id`, then the request's own members through this.
pub fn serialize_members<M: serde::ser::SerializeMap, T: Serialize + ?Sized>(
    map: &mut M,
    value: &T,
) -> Result<(), M::Error> {
    value.serialize(MembersSerializer { map })
}

struct MembersSerializer<'a, M> {
    map: &'a mut M,
}

fn not_an_object<E: serde::ser::Error>() -> E {
    E::custom("a message's typed part must encode as a JSON object")
}

impl<'a, M: serde::ser::SerializeMap> serde::Serializer for MembersSerializer<'a, M> {
    type Ok = ();
    type Error = M::Error;
    type SerializeSeq = serde::ser::Impossible<(), M::Error>;
    type SerializeTuple = serde::ser::Impossible<(), M::Error>;
    type SerializeTupleStruct = serde::ser::Impossible<(), M::Error>;
    type SerializeTupleVariant = serde::ser::Impossible<(), M::Error>;
    type SerializeMap = Self;
    type SerializeStruct = serde::ser::Impossible<(), M::Error>;
    type SerializeStructVariant = serde::ser::Impossible<(), M::Error>;

    fn serialize_map(self, _: Option<usize>) -> Result<Self, M::Error> {
        Ok(self)
    }
    fn serialize_bool(self, _: bool) -> Result<(), M::Error> {
        Err(not_an_object())
    }
    fn serialize_i8(self, _: i8) -> Result<(), M::Error> {
        Err(not_an_object())
    }
    fn serialize_i16(self, _: i16) -> Result<(), M::Error> {
        Err(not_an_object())
    }
    fn serialize_i32(self, _: i32) -> Result<(), M::Error> {
        Err(not_an_object())
    }
    fn serialize_i64(self, _: i64) -> Result<(), M::Error> {
        Err(not_an_object())
    }
    fn serialize_u8(self, _: u8) -> Result<(), M::Error> {
        Err(not_an_object())
    }
    fn serialize_u16(self, _: u16) -> Result<(), M::Error> {
        Err(not_an_object())
    }
    fn serialize_u32(self, _: u32) -> Result<(), M::Error> {
        Err(not_an_object())
    }
    fn serialize_u64(self, _: u64) -> Result<(), M::Error> {
        Err(not_an_object())
    }
    fn serialize_f32(self, _: f32) -> Result<(), M::Error> {
        Err(not_an_object())
    }
    fn serialize_f64(self, _: f64) -> Result<(), M::Error> {
        Err(not_an_object())
    }
    fn serialize_char(self, _: char) -> Result<(), M::Error> {
        Err(not_an_object())
    }
    fn serialize_str(self, _: &str) -> Result<(), M::Error> {
        Err(not_an_object())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), M::Error> {
        Err(not_an_object())
    }
    fn serialize_none(self) -> Result<(), M::Error> {
        Err(not_an_object())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), M::Error> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), M::Error> {
        Err(not_an_object())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), M::Error> {
        Err(not_an_object())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
    ) -> Result<(), M::Error> {
        Err(not_an_object())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<(), M::Error> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), M::Error> {
        Err(not_an_object())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, M::Error> {
        Err(not_an_object())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, M::Error> {
        Err(not_an_object())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, M::Error> {
        Err(not_an_object())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, M::Error> {
        Err(not_an_object())
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, M::Error> {
        Err(not_an_object())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, M::Error> {
        Err(not_an_object())
    }
}

impl<M: serde::ser::SerializeMap> serde::ser::SerializeMap for MembersSerializer<'_, M> {
    type Ok = ();
    type Error = M::Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), M::Error> {
        self.map.serialize_key(key)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), M::Error> {
        self.map.serialize_value(value)
    }
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<(), M::Error> {
        self.map.serialize_entry(key, value)
    }
    fn end(self) -> Result<(), M::Error> {
        Ok(())
    }
}

/// The requests of a side that sends none (the server from 2026-07-28 on, which asks for
/// input inside results instead).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoRequest {}

impl<'de> ObjectBuilder<'de> for NoRequest {
    type Output = NoRequest;
    fn field<D: Deserializer<'de>>(&mut self, _: Key<'de>, _: D) -> Result<(), D::Error> {
        match *self {}
    }
    fn finish<E: de::Error>(self) -> Result<NoRequest, E> {
        match self {}
    }
}

impl<'de> MethodSet<'de> for NoRequest {
    type Builder = NoRequest;
    const ENVELOPE: bool = true;
    fn knows(_: &str) -> bool {
        false
    }
    fn builder(method: &str) -> Result<NoRequest, String> {
        Err(format!("{method:?}: this side sends no requests"))
    }
    fn custom(_: Map<String, Value>) -> Option<NoRequest> {
        None
    }
}

/// The type of a tool's `inputSchema` or `outputSchema` (each revision's `ToolInputSchema`…):
/// built from raw JSON or, with the `schemars` feature, from a Rust type, as rmcp users do.
pub trait ToolSchema: serde::de::DeserializeOwned {
    /// The schema from JSON; an error when it is not an object schema (`"type": "object"`).
    fn from_json(schema: Value) -> serde_json::Result<Self> {
        serde_json::from_value(schema)
    }

    /// The JSON Schema that `schemars` derives for `T` (its `$schema`, `title`… kept as
    /// members); an error when `T` is not a struct-like type.
    #[cfg(feature = "schemars")]
    fn for_type<T: schemars::JsonSchema>() -> serde_json::Result<Self> {
        Self::from_json(schemars::schema_for!(T).to_value())
    }
}

/// What the receiver of a message it could not decode answers: the request's id as written
/// (when the text is JSON with one) and the JSON-RPC error code — `-32700` for text that is
/// not JSON, `-32602` for a request with an id and a method (its params are what failed),
/// `-32600` otherwise.
pub fn failed_message(text: &str) -> (Option<Box<RawValue>>, i64) {
    #[derive(Deserialize)]
    struct Probe {
        id: Option<Box<RawValue>>,
        method: Option<Box<RawValue>>,
    }
    if serde_json::from_str::<de::IgnoredAny>(text).is_err() {
        return (None, -32700);
    }
    if !text.trim_start().starts_with('{') {
        return (None, -32600);
    }
    match serde_json::from_str::<Probe>(text) {
        Ok(Probe {
            id: Some(id),
            method: Some(m),
        }) if m.get().starts_with('"') => (Some(id), -32602),
        Ok(p) => (p.id, -32600),
        Err(_) => (None, -32600),
    }
}

/// One generated type as another that takes the same JSON (a typed result as the generic
/// `Result`, which takes any object): through its JSON encoding.
pub fn retype<T: Serialize, U: serde::de::DeserializeOwned>(value: &T) -> U {
    serde_json::to_value(value)
        .and_then(U::deserialize)
        .expect("the target type takes every value of the source type")
}
