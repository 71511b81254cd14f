//! Objects: the builder a generated type's fields stream into, and the field-level helpers
//! its generated `field`/`finish` call (one occurrence per key, `const` members checked,
//! every missing required member named at once, unknown members kept).

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};

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

/// Receives the fields of one JSON object and produces the decoded value.
///
/// Implemented by the generated builder of each object type, of each union, and by
/// [`MapBuilder`] for raw objects.
pub trait ObjectBuilder<'de>: Sized {
    /// What [`finish`](Self::finish) produces.
    type Output;
    /// Consumes the value of `key`.
    fn field<D: Deserializer<'de>>(&mut self, key: Key<'de>, value: D) -> Result<(), D::Error>;
    /// Consumes `key` whose value is a string read already: a union's tag, a message's
    /// `method`, a merged union's member. The generated builders take it without a
    /// deserializer (a constant is compared, a `String` member stored), so that the tag is not
    /// written out as JSON text and parsed again; this default goes through [`field`](Self::field).
    fn field_str<E: de::Error>(&mut self, key: Key<'de>, value: &str) -> Result<(), E> {
        self.field(key, de::value::StrDeserializer::<E>::new(value))
    }
    /// Checks that every required field was present and builds the value.
    fn finish<E: de::Error>(self) -> Result<Self::Output, E>;
}

/// A type that is decoded from a JSON object through a builder.
pub trait Buildable<'de>: Sized {
    /// The builder; `Default` is its empty state. It takes fields of any input lifetime, so
    /// that members buffered as owned text can be fed to it too.
    type Builder: for<'a> ObjectBuilder<'a, Output = Self> + Default;
    /// Used in "invalid type" errors: "expected {EXPECTING}".
    const EXPECTING: &'static str;
}

pub(crate) struct FieldSeed<'a, 'de, B> {
    pub(crate) builder: &'a mut B,
    pub(crate) key: Key<'de>,
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
    insert_extra(extra, key, v)
}

/// Keeps an unknown member, refusing a second one of the same name.
fn insert_extra<E: de::Error>(
    extra: &mut Map<String, Value>,
    key: Key<'_>,
    value: Value,
) -> Result<(), E> {
    let key = key.0.into_owned();
    if extra.contains_key(&key) {
        return Err(E::custom(format_args!("duplicate field `{key}`")));
    }
    extra.insert(key, value);
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
    const_str_value(seen, name, expected, &got)
}

/// [`const_str`] for a value read already ([`ObjectBuilder::field_str`]).
pub fn const_str_value<E: de::Error>(
    seen: &mut bool,
    name: &'static str,
    expected: &'static str,
    got: &str,
) -> Result<(), E> {
    if *seen {
        return Err(E::duplicate_field(name));
    }
    if got != expected {
        return Err(E::custom(format_args!(
            "invalid value for `{name}`: expected {expected:?}, found {got:?}"
        )));
    }
    *seen = true;
    Ok(())
}

/// [`set`] of a `String` member for a value read already ([`ObjectBuilder::field_str`]).
pub fn set_str<E: de::Error>(
    slot: &mut Option<String>,
    name: &'static str,
    value: &str,
) -> Result<(), E> {
    if slot.is_some() {
        return Err(E::duplicate_field(name));
    }
    *slot = Some(value.to_owned());
    Ok(())
}

/// [`set_extra_value`] for a string read already ([`ObjectBuilder::field_str`]).
pub fn set_extra_str<E: de::Error>(
    extra: &mut Map<String, Value>,
    key: Key<'_>,
    value: &str,
) -> Result<(), E> {
    insert_extra(extra, key, Value::String(value.to_owned()))
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
    fn field_str<E: de::Error>(&mut self, key: Key<'de>, value: &str) -> Result<(), E> {
        set_extra_str(&mut self.0, key, value)
    }
    fn finish<E: de::Error>(self) -> Result<Map<String, Value>, E> {
        Ok(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `{"jsonrpc": "2.0", "code": -1, "name": …, "size"?: …}`, as the generator writes it.
    #[derive(Debug, PartialEq)]
    struct Thing {
        name: String,
        size: Option<u32>,
        extra: Map<String, Value>,
    }

    #[derive(Default)]
    struct ThingBuilder {
        jsonrpc: bool,
        code: bool,
        name: Option<String>,
        size: Option<u32>,
        extra: Map<String, Value>,
    }

    impl<'de> ObjectBuilder<'de> for ThingBuilder {
        type Output = Thing;
        fn field<D: Deserializer<'de>>(&mut self, key: Key<'de>, value: D) -> Result<(), D::Error> {
            match &*key {
                "jsonrpc" => const_str(&mut self.jsonrpc, "jsonrpc", "2.0", value),
                "code" => const_int(&mut self.code, "code", -1, value),
                "name" => set(&mut self.name, "name", value),
                "size" => set(&mut self.size, "size", value),
                _ => set_extra_value(&mut self.extra, key, value),
            }
        }
        fn finish<E: de::Error>(self) -> Result<Thing, E> {
            check_required(&[
                ("jsonrpc", !self.jsonrpc),
                ("code", !self.code),
                ("name", self.name.is_none()),
            ])?;
            Ok(Thing {
                name: required(self.name, "name")?,
                size: self.size,
                extra: self.extra,
            })
        }
    }

    impl<'de> Buildable<'de> for Thing {
        type Builder = ThingBuilder;
        const EXPECTING: &'static str = "a Thing object";
    }

    impl<'de> Deserialize<'de> for Thing {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            deserialize_object(d)
        }
    }

    fn decode(text: &str) -> Result<Thing, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    #[test]
    fn fields_stream_into_the_builder_and_unknown_members_are_kept_in_order() {
        let t = decode(r#"{"z":1,"jsonrpc":"2.0","name":"n","code":-1,"a":[true]}"#).unwrap();
        assert_eq!((t.name.as_str(), t.size), ("n", None));
        assert_eq!(t.extra.keys().collect::<Vec<_>>(), ["z", "a"]);
    }

    #[test]
    fn constants_are_checked_and_named() {
        let e = decode(r#"{"jsonrpc":"1.0","code":-1,"name":"n"}"#).unwrap_err();
        assert!(
            e.starts_with(r#"invalid value for `jsonrpc`: expected "2.0", found "1.0""#),
            "{e}"
        );
        let e = decode(r#"{"jsonrpc":"2.0","code":7,"name":"n"}"#).unwrap_err();
        assert!(
            e.starts_with("invalid value for `code`: expected -1, found 7"),
            "{e}"
        );
    }

    #[test]
    fn every_missing_member_is_named_at_once_and_duplicates_are_refused() {
        let e = decode(r#"{"code":-1}"#).unwrap_err();
        assert!(e.starts_with("missing fields `jsonrpc`, `name`"), "{e}");
        let e = decode(r#"{"jsonrpc":"2.0","code":-1}"#).unwrap_err();
        assert!(e.starts_with("missing field `name`"), "{e}");
        let e = decode(r#"{"jsonrpc":"2.0","code":-1,"name":"a","name":"b"}"#).unwrap_err();
        assert!(e.starts_with("duplicate field `name`"), "{e}");
        let e = decode(r#"{"jsonrpc":"2.0","jsonrpc":"2.0","code":-1,"name":"a"}"#).unwrap_err();
        assert!(e.starts_with("duplicate field `jsonrpc`"), "{e}");
        let e = decode(r#"[1]"#).unwrap_err();
        assert!(e.contains("expected a Thing object"), "{e}");
    }

    #[test]
    fn map_builder_keeps_raw_objects_whole() {
        let mut b = MapBuilder::default();
        let v: Value = serde_json::from_str(r#"{"k":{"deep":[1,2]}}"#).unwrap();
        for (k, v) in v.as_object().unwrap() {
            b.field(Key(k.clone().into()), v.clone()).unwrap();
        }
        let m: Map<String, Value> = ObjectBuilder::finish::<serde_json::Error>(b).unwrap();
        assert_eq!(Value::Object(m), v);
    }
}
