//! Unions: tagged unions decoded by their discriminator (members before it buffered as their
//! JSON text, everything after streamed), and the slots and kind checks of unions told apart
//! by shape.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, IntoDeserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

use super::*;

/// A union whose variants are told apart by the value of one property (the tag).
pub trait TaggedUnion<'de>: Sized {
    /// The builder chosen by the tag; its output is the union. It takes fields of any input
    /// lifetime, so that members buffered as owned text can be fed to it too.
    type Builder: for<'a> ObjectBuilder<'a, Output = Self>;
    /// The tag property's name.
    const TAG: &'static str;
    /// Used in "invalid type" errors.
    const EXPECTING: &'static str;
    /// The builder for a tag value; `None` when the object has no tag. `Err` carries the
    /// message for an unknown or missing tag.
    fn builder_for(tag: Option<&str>) -> Result<Self::Builder, String>;
}

/// Decodes a [`TaggedUnion`] from a map: fields before the tag are buffered as their JSON
/// text (see [`Buffered`]), the tag too, and the rest stream into the variant's builder.
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
            builder.field_str(key, &tag)?;
            return drain_map(builder, map);
        }
        before.push((key, map.next_value::<Buffered<'de>>()?));
    }
}

fn feed_buffered<'de, B: for<'a> ObjectBuilder<'a>, E: de::Error>(
    builder: &mut B,
    fields: Vec<(Key<'de>, Buffered<'de>)>,
) -> Result<(), E> {
    for (key, value) in fields {
        feed_text(builder, key, value.text())?;
    }
    Ok(())
}

/// Feeds one member, given as JSON text, to a builder.
///
/// In the generated code the builders are only ever driven by `serde_json`'s text deserializer
/// (a buffered member, a tag, a merged union's member: all go through their text), so each
/// builder is compiled once rather than once more for every other deserializer it could
/// meet (a `Value`, a string deserializer…), which is most of what the generated code costs to build.
pub fn feed_text<'k, B: for<'a> ObjectBuilder<'a>, E: de::Error>(
    builder: &mut B,
    key: Key<'k>,
    text: &str,
) -> Result<(), E> {
    let mut de = serde_json::Deserializer::from_str(text);
    builder
        .field(key, &mut de)
        .and_then(|()| de.end())
        .map_err(|e| E::custom(without_position(&e)))
}

/// The JSON text of a string read already, for a builder member that is not a plain string
/// (see [`ObjectBuilder::field_str`]).
#[inline]
pub fn string_text(s: &str) -> String {
    // Tags and methods need no escape as a rule: quoted as they are, without the encoder.
    if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        let mut text = String::with_capacity(s.len() + 2);
        text.push('"');
        text.push_str(s);
        text.push('"');
        return text;
    }
    serde_json::to_string(s).expect("a string always encodes")
}

/// The JSON text of a value: straight to bytes (`Value`'s `Display` goes through
/// `fmt::Write`, several times slower), strings quoted without the encoder when they can be.
#[inline]
pub(crate) fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => string_text(s),
        _ => serde_json::to_string(v).expect("a Value always encodes"),
    }
}

/// [`feed_text`] for a member held as a [`Value`] (merged unions); a string goes to
/// [`ObjectBuilder::field_str`], without text.
pub fn feed_value<'k, B: for<'a> ObjectBuilder<'a>, E: de::Error>(
    builder: &mut B,
    key: Key<'k>,
    value: Value,
) -> Result<(), E> {
    match value {
        Value::String(s) => builder.field_str(key, &s),
        value => feed_text(builder, key, &value_text(&value)),
    }
}

/// The message of an error raised while decoding buffered text, without serde_json's
/// " at line L column C", which would count from the start of the buffered member rather
/// than of the input (the outer deserializer adds its own position).
pub(crate) fn without_position(e: &serde_json::Error) -> String {
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

/// A member read before a union's or a message's deciding member, kept as JSON text until
/// that member names the variant.
///
/// From `serde_json::from_str`/`from_slice` this is the member's text, borrowed from the
/// input: skipping it costs little, and the variant's builder then decodes it once, typed.
/// Any other deserializer (a `Value`, a reader, another format) gives the member as owned
/// text (read as a [`Value`] and written out), which the builder decodes the same way.
pub enum Buffered<'de> {
    /// The member's JSON text, borrowed from the input.
    Raw(&'de str),
    /// The member's JSON text, when the input has none to borrow.
    Owned(String),
}

impl<'de> Buffered<'de> {
    /// The member's JSON text.
    #[inline]
    pub fn text(&self) -> &str {
        match self {
            Buffered::Raw(text) => text,
            Buffered::Owned(text) => text,
        }
    }

    fn value(v: Value) -> Buffered<'de> {
        Buffered::Owned(value_text(&v))
    }
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
        Value::deserialize(d).map(Buffered::value)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Buffered<'de>, E> {
        Ok(Buffered::value(Value::Bool(v)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Buffered<'de>, E> {
        Ok(Buffered::value(Value::from(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Buffered<'de>, E> {
        Ok(Buffered::value(Value::from(v)))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Buffered<'de>, E> {
        Ok(Buffered::value(
            Number::from_f64(v).map_or(Value::Null, Value::Number),
        ))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Buffered<'de>, E> {
        Ok(Buffered::value(Value::String(v.to_owned())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Buffered<'de>, E> {
        Ok(Buffered::value(Value::String(v)))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Buffered<'de>, E> {
        Ok(Buffered::value(Value::Null))
    }
    fn visit_none<E: de::Error>(self) -> Result<Buffered<'de>, E> {
        Ok(Buffered::value(Value::Null))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Buffered<'de>, D::Error> {
        Value::deserialize(d).map(Buffered::value)
    }
    fn visit_seq<S: de::SeqAccess<'de>>(self, seq: S) -> Result<Buffered<'de>, S::Error> {
        Value::deserialize(de::value::SeqAccessDeserializer::new(seq)).map(Buffered::value)
    }
    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Buffered<'de>, M::Error> {
        let Some(first) = map.next_key::<Key<'de>>()? else {
            return Ok(Buffered::value(Value::Object(Map::new())));
        };
        if &*first == RAW_VALUE_TOKEN {
            // serde_json answering the token: the value is the member's text, borrowed
            // unless read from an `io::Read` or a `Value`.
            return Ok(match map.next_value::<Key<'de>>()?.0 {
                Cow::Borrowed(text) => Buffered::Raw(text),
                Cow::Owned(text) => Buffered::Owned(text),
            });
        }
        let mut object = Map::new();
        object.insert(first.into_owned(), map.next_value()?);
        while let Some((key, value)) = map.next_entry::<String, Value>()? {
            object.insert(key, value);
        }
        Ok(Buffered::value(Value::Object(object)))
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
/// merged union does not declare and so keeps among its unknown fields (through its text:
/// see [`feed_text`] for why).
pub fn to_value<T: Serialize, E: de::Error>(v: &T) -> Result<Value, E> {
    crate::json_value(v).map_err(E::custom)
}

/// Decodes a buffered JSON value into a builder slot (merged unions), through its text (see
/// [`feed_text`]).
pub fn from_value<T: serde::de::DeserializeOwned, E: de::Error>(v: Value) -> Result<T, E> {
    from_json_value(&v).map_err(E::custom)
}

/// JSON kind of a buffered value, for union selection.
#[inline]
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
#[inline]
pub fn has_keys(v: Option<&Value>, required: &[&str]) -> bool {
    match v {
        Some(Value::Object(m)) => required.iter().all(|k| m.contains_key(*k)),
        _ => false,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `{"type": "text", "text": …}` or, for any other `type`, the object kept whole.
    #[derive(Debug, PartialEq)]
    enum Block {
        Text(String),
        Unknown(Map<String, Value>),
    }

    #[derive(Default)]
    struct TextBuilder {
        seen_type: bool,
        text: Option<String>,
    }

    impl<'de> ObjectBuilder<'de> for TextBuilder {
        type Output = Block;
        fn field<D: Deserializer<'de>>(&mut self, key: Key<'de>, value: D) -> Result<(), D::Error> {
            match &*key {
                "type" => const_str(&mut self.seen_type, "type", "text", value),
                "text" => set(&mut self.text, "text", value),
                _ => deny_unknown(key, value, &["type", "text"]),
            }
        }
        fn finish<E: de::Error>(self) -> Result<Block, E> {
            Ok(Block::Text(required(self.text, "text")?))
        }
    }

    enum BlockBuilder {
        Text(TextBuilder),
        Unknown(MapBuilder),
    }

    impl<'de> ObjectBuilder<'de> for BlockBuilder {
        type Output = Block;
        fn field<D: Deserializer<'de>>(&mut self, key: Key<'de>, value: D) -> Result<(), D::Error> {
            match self {
                BlockBuilder::Text(b) => b.field(key, value),
                BlockBuilder::Unknown(b) => b.field(key, value),
            }
        }
        fn finish<E: de::Error>(self) -> Result<Block, E> {
            match self {
                BlockBuilder::Text(b) => b.finish(),
                BlockBuilder::Unknown(b) => b.finish().map(Block::Unknown),
            }
        }
    }

    impl<'de> TaggedUnion<'de> for Block {
        type Builder = BlockBuilder;
        const TAG: &'static str = "type";
        const EXPECTING: &'static str = "a content block";
        fn builder_for(tag: Option<&str>) -> Result<BlockBuilder, String> {
            match tag {
                Some("text") => Ok(BlockBuilder::Text(TextBuilder::default())),
                Some(_) => Ok(BlockBuilder::Unknown(MapBuilder::default())),
                None => Err(missing_tag("Block", "type", &["text"])),
            }
        }
    }

    struct BlockVisitor;
    impl<'de> Visitor<'de> for BlockVisitor {
        type Value = Block;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(Block::EXPECTING)
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Block, A::Error> {
            visit_tagged(map)
        }
    }
    impl<'de> Deserialize<'de> for Block {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_map(BlockVisitor)
        }
    }

    #[test]
    fn the_tag_picks_the_variant_wherever_it_is() {
        let first: Block = serde_json::from_str(r#"{"type":"text","text":"hi"}"#).unwrap();
        let later: Block = serde_json::from_str(r#"{"text":"hi","type":"text"}"#).unwrap();
        assert_eq!(first, Block::Text("hi".into()));
        assert_eq!(
            later, first,
            "members before the tag are buffered, then fed in order"
        );
        // From a `Value` (not text), the buffered members are values: same result.
        let v = serde_json::json!({"text": "hi", "type": "text"});
        assert_eq!(serde_json::from_value::<Block>(v).unwrap(), first);
    }

    #[test]
    fn an_unknown_tag_keeps_the_object_whole_in_input_order() {
        let b: Block = serde_json::from_str(r#"{"a":1,"type":"video","url":"u"}"#).unwrap();
        let Block::Unknown(m) = b else {
            panic!("{b:?}")
        };
        assert_eq!(m.keys().collect::<Vec<_>>(), ["a", "type", "url"]);
    }

    #[test]
    fn a_member_the_variant_does_not_allow_is_refused_by_name() {
        let e = serde_json::from_str::<Block>(r#"{"type":"text","text":"t","x":1}"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("unknown field `x`, expected `type` or `text`"),
            "{e}"
        );
    }

    #[test]
    fn errors_say_what_is_missing_and_where() {
        let e = serde_json::from_str::<Block>(r#"{"text":"hi"}"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(r#"missing field `type` for Block (one of "text")"#),
            "{e}"
        );
        // An error in a buffered member is reported without the buffer's own position.
        let e = serde_json::from_str::<Block>(r#"{"text":5,"type":"text"}"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("invalid type: integer `5`, expected a string"),
            "{e}"
        );
        assert_eq!(
            e.matches("line").count(),
            1,
            "one position, the outer one: {e}"
        );
    }

    #[test]
    fn kinded_slots_type_what_fits_and_keep_the_rest_raw() {
        let kinds: &'static [Kind] = &[Kind::String];
        let mut slot: Option<Slot<String>> = None;
        set_kinded(&mut slot, "x", kinds, serde_json::json!("s")).unwrap();
        assert!(matches!(&slot, Some(Slot::Typed(s)) if s == "s"));
        let mut slot: Option<Slot<String>> = None;
        set_kinded(&mut slot, "x", kinds, serde_json::json!([1])).unwrap();
        assert!(matches!(&slot, Some(Slot::Raw(v)) if *v == serde_json::json!([1])));
        let e = set_kinded(&mut slot, "x", kinds, serde_json::json!("again")).unwrap_err();
        assert_eq!(e.to_string(), "duplicate field `x`");
        assert!(is_kind(&serde_json::json!(3), Kind::Integer));
        assert!(!is_kind(&serde_json::json!(3.5), Kind::Integer));
        assert!(is_kind(&serde_json::json!(3.5), Kind::Number));
        let obj = serde_json::json!({"a": 1, "b": null});
        assert!(has_keys(Some(&obj), &["a", "b"]));
        assert!(!has_keys(Some(&obj), &["c"]));
    }
}
