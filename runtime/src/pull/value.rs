//! [`Decode`] and the shared readers: strings, numbers, booleans, open JSON ([`Value`]),
//! arrays and maps.

use indexmap::IndexMap;
use serde_json::{Map, Number, Value};

use super::parser::unexpected_number;
use super::{Error, Kind, Parser, Start};

/// Decodes the next value.
pub trait Decode: Sized {
    /// Decodes the next value (the parser ends after it).
    fn decode(p: &mut Parser<'_>) -> Result<Self, Error>;
}

/// An object type whose decoding may start after a union read its tag. Such a type
/// decodes on its own from its `{` (the blanket [`Decode`]).
pub trait DecodeObject: Sized {
    /// Decodes the object from `start`.
    fn decode_object(p: &mut Parser<'_>, start: Start) -> Result<Self, Error>;
}

impl<T: DecodeObject> Decode for T {
    #[inline]
    fn decode(p: &mut Parser<'_>) -> Result<Self, Error> {
        T::decode_object(p, Start::Value)
    }
}

/// The one number reader: serde_json's rules (with `float_roundtrip`): an integer is a `u64`
/// when non-negative and it fits, an `i64` when negative and it fits (`-0` is the float
/// `-0.0`), anything else the correctly rounded `f64`; a number too large for one ("1e400")
/// is an error, "number out of range".
pub fn number(p: &mut Parser<'_>) -> Result<Number, Error> {
    match p.peek()? {
        Kind::Number => p.number(),
        k => Err(p.wrong("a JSON number", k)),
    }
}

/// Open JSON: the one [`Value`] builder. Objects keep input order; a duplicate key is as in
/// serde_json (with `preserve_order`): the last value, at the first one's position.
pub fn value(p: &mut Parser<'_>) -> Result<Value, Error> {
    // Deeper than the parser lets any text nest: everything is built.
    const _: () = assert!(super::parser::MAX_DEPTH < u8::MAX);
    to_depth(p, u8::MAX)
}

/// The members of an object as open JSON, after `peek() == Object`.
fn members(p: &mut Parser<'_>) -> Result<Map<String, Value>, Error> {
    members_with(p, false, value)
}

/// The one loop over an object's members (after `peek() == Object`), each value read by
/// `read`; a repeated key refused ("duplicate member `k`") when `refuse_repeated`, else
/// serde_json's rule (the last value, at the first one's position).
fn members_with(
    p: &mut Parser<'_>,
    refuse_repeated: bool,
    mut read: impl FnMut(&mut Parser<'_>) -> Result<Value, Error>,
) -> Result<Map<String, Value>, Error> {
    let mut map = Map::new();
    let mut key = p.object_first()?.map(str::to_owned);
    while let Some(k) = key {
        let v = read(p).map_err(|e| e.in_member(&k))?;
        if refuse_repeated && map.contains_key(&k) {
            return Err(p.repeated(&k).in_member(&k));
        }
        map.insert(k, v);
        key = p.object_next()?.map(str::to_owned);
    }
    Ok(map)
}

/// An object kept whole as open JSON where a typed object was expected (a union's
/// catch-all for a tag it does not know, a message of a method no set knows, a union told
/// apart by members): its members in input order, a repeated key refused ("duplicate member
/// `k`") as a typed object refuses it among its unknown members. Values nested in it are open
/// JSON ([`value()`]: a repeated key keeps its last value, as in serde_json's maps), as a
/// `Map<String, Value>` member's are.
pub fn kept_whole(p: &mut Parser<'_>) -> Result<Map<String, Value>, Error> {
    match p.peek()? {
        Kind::Object => members_with(p, true, value),
        k => Err(p.wrong("a map", k)),
    }
}

/// [`value`], built `depth` levels down; below, containers are [`read`] and left empty.
pub(super) fn to_depth(p: &mut Parser<'_>, depth: u8) -> Result<Value, Error> {
    Ok(match p.peek()? {
        Kind::Null => {
            p.null()?;
            Value::Null
        }
        Kind::Bool => Value::Bool(p.bool()?),
        Kind::Number => Value::Number(p.number()?),
        Kind::String => Value::String(p.string()?),
        Kind::Array if depth == 0 => {
            read(p)?;
            Value::Array(Vec::new())
        }
        Kind::Object if depth == 0 => {
            read(p)?;
            Value::Object(Map::new())
        }
        Kind::Array => {
            let mut out = Vec::new();
            let mut more = p.array_first()?;
            while more {
                out.push(to_depth(p, depth - 1).map_err(|e| e.in_index(out.len()))?);
                more = p.array_next()?;
            }
            Value::Array(out)
        }
        Kind::Object => Value::Object(members_with(p, false, |p| to_depth(p, depth - 1))?),
    })
}

/// Reads the next value as [`value`] does, every string and number included (so the same
/// errors at the same pointers), building nothing.
pub(crate) fn read(p: &mut Parser<'_>) -> Result<(), Error> {
    match p.peek()? {
        Kind::Null => p.null(),
        Kind::Bool => p.bool().map(drop),
        Kind::Number => p.number().map(drop),
        Kind::String => p.check_str().map(drop),
        Kind::Array => {
            let mut i = 0;
            let mut more = p.array_first()?;
            while more {
                read(p).map_err(|e| e.in_index(i))?;
                i += 1;
                more = p.array_next()?;
            }
            Ok(())
        }
        Kind::Object => {
            // Keys are not kept: on an error, the key is read again from where it was.
            let mut key_mark = p.mark();
            let mut more = p.object_first()?.is_some();
            while more {
                read(p).map_err(|e| e.in_member(&p.key_at(key_mark)))?;
                key_mark = p.mark();
                more = p.object_next()?.is_some();
            }
            Ok(())
        }
    }
}

impl Decode for String {
    #[inline]
    fn decode(p: &mut Parser<'_>) -> Result<Self, Error> {
        match p.peek()? {
            Kind::String => p.string(),
            k => Err(p.wrong("a string", k)),
        }
    }
}

impl Decode for bool {
    #[inline]
    fn decode(p: &mut Parser<'_>) -> Result<Self, Error> {
        match p.peek()? {
            Kind::Bool => p.bool(),
            k => Err(p.wrong("a boolean", k)),
        }
    }
}

impl Decode for i64 {
    /// serde_json's: a float (even `1.0`, or `-0`) is of the wrong type; an integer beyond
    /// `i64` is an invalid value.
    fn decode(p: &mut Parser<'_>) -> Result<Self, Error> {
        let kind = p.peek()?;
        if kind != Kind::Number {
            return Err(p.wrong("i64", kind));
        }
        let mark = p.mark();
        let n = p.number()?;
        match n.as_i64() {
            Some(i) => Ok(i),
            None if n.is_f64() => Err(p.invalid_type(mark, &unexpected_number(&n), "i64")),
            None => Err(p.invalid_value(mark, &unexpected_number(&n), "i64")),
        }
    }
}

impl Decode for u64 {
    /// serde_json's: a float (even `1.0`) is of the wrong type; a negative integer is an
    /// invalid value.
    fn decode(p: &mut Parser<'_>) -> Result<Self, Error> {
        let kind = p.peek()?;
        if kind != Kind::Number {
            return Err(p.wrong("u64", kind));
        }
        let mark = p.mark();
        let n = p.number()?;
        match n.as_u64() {
            Some(u) => Ok(u),
            None if n.is_f64() => Err(p.invalid_type(mark, &unexpected_number(&n), "u64")),
            None => Err(p.invalid_value(mark, &unexpected_number(&n), "u64")),
        }
    }
}

impl Decode for Number {
    #[inline]
    fn decode(p: &mut Parser<'_>) -> Result<Self, Error> {
        number(p)
    }
}

impl Decode for Value {
    #[inline]
    fn decode(p: &mut Parser<'_>) -> Result<Self, Error> {
        value(p)
    }
}

impl Decode for Map<String, Value> {
    fn decode(p: &mut Parser<'_>) -> Result<Self, Error> {
        match p.peek()? {
            Kind::Object => members(p),
            k => Err(p.wrong("a map", k)),
        }
    }
}

impl<T: Decode> Decode for Vec<T> {
    /// The one array loop.
    fn decode(p: &mut Parser<'_>) -> Result<Self, Error> {
        match p.peek()? {
            Kind::Array => {
                let mut out = Vec::new();
                let mut more = p.array_first()?;
                while more {
                    out.push(T::decode(p).map_err(|e| e.in_index(out.len()))?);
                    more = p.array_next()?;
                }
                Ok(out)
            }
            k => Err(p.wrong("a sequence", k)),
        }
    }
}

impl<T: Decode> Decode for IndexMap<String, T> {
    /// A map from names to a decoded type, in input order; a duplicate key as in
    /// serde_json's maps: the last value, at the first one's position.
    fn decode(p: &mut Parser<'_>) -> Result<Self, Error> {
        match p.peek()? {
            Kind::Object => {
                let mut out = IndexMap::new();
                let mut key = p.object_first()?.map(str::to_owned);
                while let Some(k) = key {
                    let v = T::decode(p).map_err(|e| e.in_member(&k))?;
                    out.insert(k, v);
                    key = p.object_next()?.map(str::to_owned);
                }
                Ok(out)
            }
            k => Err(p.wrong("a map", k)),
        }
    }
}

impl<T: Decode> Decode for Option<T> {
    /// `null` is `None`.
    #[inline]
    fn decode(p: &mut Parser<'_>) -> Result<Self, Error> {
        match p.peek()? {
            Kind::Null => {
                p.null()?;
                Ok(None)
            }
            _ => T::decode(p).map(Some),
        }
    }
}
