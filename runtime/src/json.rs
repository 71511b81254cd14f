//! JSON text and `Value` helpers: the text of any deserializer's value ([`Buffered`], the
//! bridge from serde to the shared decoder), a string's or a value's JSON text, and the kind
//! checks generated code uses to tell apart the members of a union by shape.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};

use super::*;

/// An object key, borrowed from the input when the deserializer allows it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key<'de>(pub Cow<'de, str>);

impl std::ops::Deref for Key<'_> {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Key<'_> {
    /// The key as an owned string.
    #[inline]
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

/// The JSON text of a string.
#[inline]
pub fn string_text(s: &str) -> String {
    // Tags and methods need no escape as a rule: quoted as they are, found by the scan the
    // parser and the writer share.
    if crate::pull::plain_end::<false>(s.as_bytes(), 0) == s.len() {
        let mut text = String::with_capacity(s.len() + 2);
        text.push('"');
        text.push_str(s);
        text.push('"');
        return text;
    }
    crate::to_string(s).expect("a string always encodes")
}

/// The JSON text of a value: straight to bytes (`Value`'s `Display` goes through
/// `fmt::Write`, several times slower), strings quoted without the encoder when they can be.
#[inline]
pub(crate) fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => string_text(s),
        _ => crate::to_string(v).expect("a Value always encodes"),
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
pub(crate) const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// The JSON text of a value, from any deserializer (what the generated `Deserialize` impls
/// hand to the shared decoder, `pull::deserialize`).
///
/// From `serde_json::from_str`/`from_slice` this is the member's text, borrowed from the
/// input: skipping it costs little, and the decoder then decodes it once, typed.
/// Any other deserializer (a `Value`, a reader, another format) gives the member as owned
/// text (read as a [`Value`] and written out), which the decoder decodes the same way.
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

/// The JSON kind of a value, for picking a union's member (generated code).
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

/// Checks that an object has every key of `required` (used to pick between union
/// variants whose nested objects differ only in what they require).
#[inline]
pub fn has_keys(v: Option<&Value>, required: &[&str]) -> bool {
    match v {
        Some(Value::Object(m)) => required.iter().all(|k| m.contains_key(*k)),
        _ => false,
    }
}

/// The JSON text of one value as received — a response's `result` until the caller says
/// which request it answers — checked to be JSON when read, and not parsed again until
/// decoded (`serde_json::value::RawValue` can only be made from text by parsing it once more).
/// Encodes as that text, unchanged, as `RawValue` does.
///
/// When the message decoder was told the type (a result the caller awaits: see
/// [`Awaiting`](crate::Awaiting)), the value decoded from that text while the message was
/// read is kept with it ([`RawJson::decoded`]), so the text is not parsed a second time.
/// Equality and hashing are the text's.
#[derive(Clone)]
pub struct RawJson {
    text: Box<str>,
    decoded: Option<Decoded>,
}

/// A value decoded from a [`RawJson`]'s text, of the type the decoder was told.
pub(crate) type Decoded = std::sync::Arc<dyn std::any::Any + Send + Sync>;

impl RawJson {
    /// The text.
    #[inline]
    pub fn get(&self) -> &str {
        &self.text
    }

    /// `text` if it is one JSON value (whitespace around it allowed and kept).
    pub fn from_string(text: String) -> Result<RawJson, crate::pull::Error> {
        let mut p = crate::pull::Parser::new(&text);
        p.skip_raw()?;
        p.finish()?;
        Ok(RawJson::checked_owned(text.into_boxed_str()))
    }

    /// Text the caller has read as one JSON value already (the message decoder skipped it).
    pub(crate) fn checked(text: &str) -> RawJson {
        RawJson::checked_owned(text.into())
    }

    /// Text the caller has read as one JSON value already, with the value it decoded from it.
    pub(crate) fn checked_decoded(text: &str, decoded: Decoded) -> RawJson {
        RawJson {
            text: text.into(),
            decoded: Some(decoded),
        }
    }

    fn checked_owned(text: Box<str>) -> RawJson {
        RawJson {
            text,
            decoded: None,
        }
    }

    /// The JSON text of `value`, as serde_json writes it.
    pub fn encode(value: &impl serde::Serialize) -> serde_json::Result<RawJson> {
        crate::to_string(value).map(|t| RawJson::checked_owned(t.into_boxed_str()))
    }

    /// The value decoded from the text while the message was read, if it was decoded as a
    /// `T` (the message decoder was told to expect a `T` here); `None` otherwise, and then
    /// only the text is kept.
    pub fn decoded<T: 'static>(&self) -> Option<&T> {
        self.decoded.as_deref()?.downcast_ref()
    }

    /// [`RawJson::decoded`], by value: the value itself when no clone of this `RawJson`
    /// shares it, else a clone of it; `Err(self)` when it was not decoded as a `T`.
    pub fn into_decoded<T: Clone + Send + Sync + 'static>(mut self) -> Result<T, RawJson> {
        match self.decoded.take().map(|d| d.downcast::<T>()) {
            Some(Ok(value)) => Ok(std::sync::Arc::unwrap_or_clone(value)),
            Some(Err(other)) => {
                self.decoded = Some(other);
                Err(self)
            }
            None => Err(self),
        }
    }

    /// The value as a `T`: the one decoded while the message was read, when it was decoded as
    /// a `T` (moved out, as by [`RawJson::into_decoded`]), else decoded from the text now.
    pub fn into_typed<T: Decode + Clone + Send + Sync + 'static>(
        self,
    ) -> Result<T, crate::pull::Error> {
        self.into_decoded()
            .or_else(|raw| crate::pull::from_str(raw.get()))
    }
}

impl PartialEq for RawJson {
    fn eq(&self, other: &RawJson) -> bool {
        self.text == other.text
    }
}

impl Eq for RawJson {}

impl std::hash::Hash for RawJson {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.text.hash(state)
    }
}

impl fmt::Debug for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("RawJson")
            .field(&format_args!("{}", &self.text))
            .finish()
    }
}

impl fmt::Display for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl serde::Serialize for RawJson {
    /// serde_json's own protocol for raw text (what `RawValue` writes): the text goes out as
    /// it is, to a string or a `Value` alike.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_raw(&self.text, s)
    }
}

/// `text`, JSON already, written as it is through serde_json's protocol for raw text (what
/// `RawValue` writes: serde_json writes the text to a string, and parses it for a `Value`;
/// another serde format sees a struct of serde_json's).
pub(crate) fn serialize_raw<S: serde::Serializer>(text: &str, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct as _;
    let mut st = s.serialize_struct(RAW_VALUE_TOKEN, 1)?;
    st.serialize_field(RAW_VALUE_TOKEN, text)?;
    st.end()
}

impl<'de> Deserialize<'de> for RawJson {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = Buffered::deserialize(d)?;
        RawJson::from_string(text.text().to_owned()).map_err(de::Error::custom)
    }
}
