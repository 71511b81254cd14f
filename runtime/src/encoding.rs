//! Encoding: kept unknown members written back in place, a request's members written into the
//! message that holds its envelope, and one generated type re-read as another.

use serde::Serialize;

use super::*;

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

/// Writes member `key` when `value` is present (an optional member; absent, nothing is
/// written). One line of a generated `Serialize` impl.
#[inline]
pub fn serialize_some<M, K, V>(map: &mut M, key: &K, value: &Option<V>) -> Result<(), M::Error>
where
    M: serde::ser::SerializeMap,
    K: Serialize + ?Sized,
    V: Serialize,
{
    match value {
        Some(v) => map.serialize_entry(key, v),
        None => Ok(()),
    }
}

/// [`serialize_extra`] for the members kept as open JSON.
#[inline]
pub fn serialize_extra_value<M: serde::ser::SerializeMap>(
    map: &mut M,
    extra: &Extra,
) -> Result<(), M::Error> {
    for (k, v) in extra.kept().into_iter().flatten() {
        map.serialize_entry(k, v)?;
    }
    Ok(())
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
    E::custom("a message's typed part must encode as a JSON object (a map or a struct)")
}

impl<'a, M: serde::ser::SerializeMap> serde::Serializer for MembersSerializer<'a, M> {
    type Ok = ();
    type Error = M::Error;
    type SerializeSeq = serde::ser::Impossible<(), M::Error>;
    type SerializeTuple = serde::ser::Impossible<(), M::Error>;
    type SerializeTupleStruct = serde::ser::Impossible<(), M::Error>;
    type SerializeTupleVariant = serde::ser::Impossible<(), M::Error>;
    type SerializeMap = Self;
    type SerializeStruct = Self;
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
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, M::Error> {
        Ok(self)
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

/// A struct's fields are members too (a hand-written `Serialize` derive, say).
impl<M: serde::ser::SerializeMap> serde::ser::SerializeStruct for MembersSerializer<'_, M> {
    type Ok = ();
    type Error = M::Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), M::Error> {
        self.map.serialize_entry(key, value)
    }
    fn end(self) -> Result<(), M::Error> {
        Ok(())
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

/// One generated type as another that takes the same JSON (a typed result as the generic
/// `Result`, which takes any object): through its JSON text.
pub fn retype<T: Serialize, U: serde::de::DeserializeOwned>(value: &T) -> U {
    crate::to_string(value)
        .and_then(|text| serde_json::from_str(&text))
        .expect("the target type takes every value of the source type")
}

/// `serde_json::to_value`, through the JSON text.
///
/// In the generated code (mcp-typed's, a build.rs user's), types are only ever written by
/// the runtime's writer ([`crate::to_string`]) and read by serde_json's text deserializer, so
/// that each type's code is compiled for those two alone: `serde_json::to_value` would compile every type it reaches once more for the
/// `Value` serializer, `from_value` once more for the `Value` deserializer. The cost is a
/// write and a parse on paths that want a tree anyway (conversions, bridges, forms).
pub fn json_value<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Value> {
    serde_json::from_str(&crate::to_string(value)?)
}

/// `serde_json::from_value`, through the JSON text (see [`json_value`] for why). The error
/// says what `from_value`'s would, without a position in a text the caller never saw.
pub fn from_json_value<T: serde::de::DeserializeOwned>(value: &Value) -> serde_json::Result<T> {
    serde_json::from_str(&crate::json::value_text(value))
        .map_err(|e| serde::de::Error::custom(crate::json::without_position(&e)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::ser::SerializeMap;

    /// A message-level writer: the envelope first, then a value's own members.
    struct Envelope<'a, T>(&'a T);
    impl<T: Serialize> Serialize for Envelope<'_, T> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut m = s.serialize_map(None)?;
            m.serialize_entry("jsonrpc", "2.0")?;
            serialize_members(&mut m, self.0)?;
            m.end()
        }
    }

    #[derive(Serialize)]
    struct Ping {
        method: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        params: Option<u8>,
    }

    #[test]
    fn a_value_s_members_join_the_enclosing_object_in_order() {
        let json = serde_json::to_string(&Envelope(&Ping {
            method: "ping",
            params: Some(1),
        }));
        assert_eq!(
            json.unwrap(),
            r#"{"jsonrpc":"2.0","method":"ping","params":1}"#
        );
        let map: Map<String, Value> = serde_json::from_str(r#"{"b":1,"a":2}"#).unwrap();
        let json = serde_json::to_string(&Envelope(&map)).unwrap();
        assert_eq!(json, r#"{"jsonrpc":"2.0","b":1,"a":2}"#);
    }

    #[test]
    fn only_objects_have_members() {
        for bad in [
            serde_json::json!(1),
            serde_json::json!([1]),
            serde_json::json!("s"),
        ] {
            let e = serde_json::to_string(&Envelope(&bad)).unwrap_err();
            assert!(e.to_string().contains("object"), "{bad}: {e}");
        }
    }

    #[test]
    fn kept_members_are_written_back_in_place() {
        struct WithExtra(Extra, IndexMap<String, u8>);
        impl Serialize for WithExtra {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut m = s.serialize_map(None)?;
                m.serialize_entry("known", &true)?;
                serialize_extra_value(&mut m, &self.0)?;
                serialize_extra(&mut m, &self.1)?;
                m.end()
            }
        }
        let raw: Extra = serde_json::from_str(r#"{"z":null,"y":[1]}"#).unwrap();
        let typed = IndexMap::from([("x".to_owned(), 9u8)]);
        let json = serde_json::to_string(&WithExtra(raw, typed)).unwrap();
        assert_eq!(json, r#"{"known":true,"z":null,"y":[1],"x":9}"#);
        let back: Map<String, Value> = retype(&serde_json::json!({"k": 1}));
        assert_eq!(back["k"], 1);
    }
}
