//! [`JsonObject`]: an open JSON object (`_meta`, tool `arguments`, `structuredContent`, the
//! members of a schema), kept as the text it came in until it is read.

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::OnceLock;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::json::{Buffered, serialize_raw};
use crate::pull::{self, Decode, Kind, Parser, plain_end};

/// An open JSON object: a member the schema types as "any object" (`_meta`, a tool call's
/// `arguments`, `structuredContent`, the members of a tool's `inputSchema`, capability
/// objects).
///
/// Decoded, it keeps the object's text as it came (without the whitespace between its tokens,
/// as serde_json writes JSON), checked by the same rules a `Value` is built by (so the same
/// errors at the same JSON pointers), and builds its [`Map`] only when first read. Encoded
/// unchanged, it writes that text back: members in their order, numbers as written (`1e2`
/// stays `1e2`, a 30-digit integer keeps its digits), escapes as written, a repeated key kept
/// (a `Map` and most JSON readers take its last value).
///
/// It reads and writes as the `Map` it holds: `obj.get("k")`, `obj.len()`,
/// `for (k, v) in &obj` work as on a `Map` (through `Deref`, which builds the map once), and
/// `obj.insert(k, v)` through `DerefMut` (after which it is encoded from the map). A `Map`
/// converts with `.into()` both ways; [`JsonObject::parse`] decodes it as a type of yours.
///
/// It serializes through serde_json's raw-value protocol (what
/// `serde_json::value::RawValue` writes): serde_json (`to_string`, `to_writer`, `to_value`)
/// writes the object; another serde format would see serde_json's private raw-value struct
/// while the text is kept, so serialize [`JsonObject::to_map`] there.
///
/// ```
/// use mcp_typed_runtime::{JsonObject, Map, Value};
///
/// let obj: JsonObject = serde_json::from_str(r#"{"b": 1e2, "a": [true]}"#).unwrap();
/// assert_eq!(obj.get("b"), Some(&Value::from(100.0)));
/// assert_eq!(serde_json::to_string(&obj).unwrap(), r#"{"b":1e2,"a":[true]}"#);
///
/// let mut edited = obj.clone();
/// edited.insert("c".into(), Value::Null);
/// assert_eq!(serde_json::to_string(&edited).unwrap(), r#"{"b":100.0,"a":[true],"c":null}"#);
///
/// let map: Map<String, Value> = edited.into();
/// assert_eq!(map.len(), 3);
/// ```
#[derive(Clone)]
pub struct JsonObject {
    /// The object's JSON text while the map was not changed; empty once it was (the map is
    /// then the value).
    text: Box<str>,
    /// The members, built from `text` when first read (or given).
    map: OnceLock<Box<Map<String, Value>>>,
}

impl JsonObject {
    /// An object without members.
    pub fn new() -> Self {
        JsonObject::from_checked("{}")
    }

    /// Text read as one JSON object by the rules of [`pull::value`] (so building its map
    /// cannot fail), kept without the whitespace between its tokens.
    fn from_checked(text: &str) -> Self {
        JsonObject {
            text: compact(text).unwrap_or_else(|| text.into()),
            map: OnceLock::new(),
        }
    }

    /// `text` if it is one JSON object (whitespace around it allowed, and dropped).
    pub fn from_text(text: &str) -> Result<Self, pull::Error> {
        pull::from_str(text)
    }

    /// The object's JSON text: as it came while unchanged, else the map written by serde_json.
    pub fn to_text(&self) -> String {
        if self.text.is_empty() {
            crate::to_string(&**self).expect("a Map always encodes")
        } else {
            self.text.to_string()
        }
    }

    /// The text as it came, while the map was not changed.
    pub(crate) fn kept_text(&self) -> Option<&str> {
        (!self.text.is_empty()).then_some(&*self.text)
    }

    /// The members as a map, moved out (built from the text if it was never read).
    pub fn into_map(mut self) -> Map<String, Value> {
        self.members();
        self.map.take().map(|m| *m).unwrap_or_default()
    }

    /// The members as a map, cloned.
    pub fn to_map(&self) -> Map<String, Value> {
        (**self).clone()
    }

    /// The object decoded as a `T` (from its text when it was not changed, without building
    /// the map).
    pub fn parse<T: DeserializeOwned>(&self) -> serde_json::Result<T> {
        if self.text.is_empty() {
            T::deserialize(&Value::Object((**self).clone()))
        } else {
            serde_json::from_str(&self.text)
        }
    }

    /// The map, built from the text on first use.
    fn members(&self) -> &Map<String, Value> {
        self.map.get_or_init(|| {
            // The text was read by `pull::value`'s rules (`from_checked`'s callers) and a
            // changed object has its map already: building cannot fail.
            let built = pull::from_str::<Map<String, Value>>(&self.text);
            debug_assert!(built.is_ok(), "checked JSON object text: {built:?}");
            Box::new(built.unwrap_or_default())
        })
    }
}

impl Default for JsonObject {
    fn default() -> Self {
        JsonObject::new()
    }
}

/// JSON `text` without the whitespace between its tokens, as serde_json writes it; `None` when
/// it has none (the text as it is). Strings are passed sixteen bytes at a time (eight without
/// SSE2).
pub(crate) fn compact(text: &str) -> Option<Box<str>> {
    let bytes = text.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    // `bytes[kept..i]` is not copied yet.
    let (mut i, mut kept) = (0, 0);
    while let Some(&b) = bytes.get(i) {
        match b {
            b'"' => {
                i += 1;
                loop {
                    i = plain_end::<false>(bytes, i);
                    match bytes.get(i) {
                        Some(b'"') | None => break,
                        Some(b'\\') => i += 2,
                        Some(_) => i += 1,
                    }
                }
                i += 1;
            }
            b' ' | b'\t' | b'\n' | b'\r' => {
                let o = out.get_or_insert_with(|| Vec::with_capacity(bytes.len()));
                o.extend_from_slice(&bytes[kept..i]);
                while let Some(b' ' | b'\t' | b'\n' | b'\r') = bytes.get(i) {
                    i += 1;
                }
                kept = i;
            }
            _ => i += 1,
        }
    }
    let mut out = out?;
    out.extend_from_slice(bytes.get(kept..).unwrap_or_default());
    // Only ASCII whitespace between tokens was left out: still UTF-8.
    String::from_utf8(out).ok().map(String::into_boxed_str)
}

impl Deref for JsonObject {
    type Target = Map<String, Value>;

    #[inline]
    fn deref(&self) -> &Map<String, Value> {
        self.members()
    }
}

impl DerefMut for JsonObject {
    /// The map, to change: from now on the object is encoded from it.
    fn deref_mut(&mut self) -> &mut Map<String, Value> {
        self.members();
        self.text = Box::default();
        self.map.get_mut().expect("built just above")
    }
}

impl PartialEq for JsonObject {
    /// Equal when the members are (the same text, or equal maps).
    fn eq(&self, other: &Self) -> bool {
        (!self.text.is_empty() && self.text == other.text) || **self == **other
    }
}

impl Eq for JsonObject {}

impl PartialEq<Map<String, Value>> for JsonObject {
    fn eq(&self, other: &Map<String, Value>) -> bool {
        **self == *other
    }
}

impl PartialEq<Value> for JsonObject {
    fn eq(&self, other: &Value) -> bool {
        other.as_object() == Some(&**self)
    }
}

impl fmt::Debug for JsonObject {
    /// As the map.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl fmt::Display for JsonObject {
    /// The JSON text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.text.is_empty() {
            f.write_str(&self.to_text())
        } else {
            f.write_str(&self.text)
        }
    }
}

impl From<Map<String, Value>> for JsonObject {
    fn from(map: Map<String, Value>) -> Self {
        JsonObject {
            text: Box::default(),
            map: OnceLock::from(Box::new(map)),
        }
    }
}

impl From<JsonObject> for Map<String, Value> {
    fn from(obj: JsonObject) -> Self {
        obj.into_map()
    }
}

impl From<JsonObject> for Value {
    fn from(obj: JsonObject) -> Self {
        Value::Object(obj.into_map())
    }
}

impl FromIterator<(String, Value)> for JsonObject {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Self {
        Map::from_iter(iter).into()
    }
}

impl Extend<(String, Value)> for JsonObject {
    fn extend<I: IntoIterator<Item = (String, Value)>>(&mut self, iter: I) {
        (**self).extend(iter);
    }
}

impl IntoIterator for JsonObject {
    type Item = (String, Value);
    type IntoIter = serde_json::map::IntoIter;

    fn into_iter(self) -> Self::IntoIter {
        self.into_map().into_iter()
    }
}

impl<'a> IntoIterator for &'a JsonObject {
    type Item = (&'a String, &'a Value);
    type IntoIter = serde_json::map::Iter<'a>;

    fn into_iter(self) -> Self::IntoIter {
        (**self).iter()
    }
}

impl Serialize for JsonObject {
    /// Unchanged, its text (serde_json's raw-value protocol); changed, the map.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.text.is_empty() {
            (**self).serialize(s)
        } else {
            serialize_raw(&self.text, s)
        }
    }
}

impl<'de> Deserialize<'de> for JsonObject {
    /// From a JSON object (its text, from serde_json's `from_str`/`from_slice`).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = Buffered::deserialize(d)?;
        JsonObject::from_text(text.text()).map_err(serde::de::Error::custom)
    }
}

impl Decode for JsonObject {
    /// The object read as [`pull::value`] reads one (the same errors at the same pointers),
    /// building nothing, and its text kept.
    fn decode(p: &mut Parser<'_>) -> Result<Self, pull::Error> {
        match p.peek()? {
            Kind::Object => {
                let start = p.mark();
                pull::read(p)?;
                let text = p.text(start, p.mark()).trim_end();
                if text.is_empty() {
                    // Not UTF-8 (only from `from_slice`): as the map builder reports it.
                    return p.at(start).detached(pull::value).map(|v| match v {
                        Value::Object(map) => map.into(),
                        _ => JsonObject::new(),
                    });
                }
                Ok(JsonObject::from_checked(text))
            }
            k => Err(p.wrong("a map", k)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(text: &str) -> JsonObject {
        pull::from_str(text).unwrap()
    }

    #[test]
    fn keeps_the_text_until_changed_and_builds_the_map_once_when_read() {
        let obj = decoded(r#"{"z":1,"a":{"n":1e2},"big":123456789012345678901234567890}"#);
        assert!(obj.map.get().is_none());
        assert_eq!(
            serde_json::to_string(&obj).unwrap(),
            r#"{"z":1,"a":{"n":1e2},"big":123456789012345678901234567890}"#
        );
        assert_eq!(obj.keys().collect::<Vec<_>>(), ["z", "a", "big"]);
        assert!(obj.map.get().is_some());
        // Still encoded from its text after being read.
        assert!(serde_json::to_string(&obj).unwrap().contains("1e2"));

        let mut changed = obj.clone();
        changed.remove("big");
        assert_eq!(
            serde_json::to_string(&changed).unwrap(),
            r#"{"z":1,"a":{"n":100.0}}"#
        );
        assert_ne!(changed, obj);
    }

    #[test]
    fn kept_without_the_whitespace_between_tokens() {
        let obj = decoded(
            "{\n  \"a\": \"x y\\n\\\" z \\\\\",\r\n\t\"b\": [1, 2],\"long string with spaces\" :{ } }",
        );
        assert_eq!(
            obj.to_text(),
            r#"{"a":"x y\n\" z \\","b":[1,2],"long string with spaces":{}}"#
        );
        assert_eq!(obj.get("a"), Some(&Value::from("x y\n\" z \\")));
        // Compact text is kept as it is.
        assert_eq!(compact(r#"{"a b":"c d","e":[1,"\" "]}"#), None);
    }

    #[test]
    fn equal_by_members_whatever_the_text() {
        assert_eq!(decoded(r#"{"a": 1}"#), decoded(r#"{"a":1}"#));
        assert_ne!(decoded(r#"{"a":1}"#), decoded(r#"{"a":2}"#));
        let map: Map<String, Value> = serde_json::from_str(r#"{"a":1}"#).unwrap();
        assert_eq!(decoded(r#"{ "a" : 1 }"#), map);
        assert_eq!(JsonObject::from(map.clone()), decoded(r#"{"a":1}"#));
        assert_eq!(format!("{:?}", decoded(r#"{"a":1}"#)), format!("{map:?}"));
    }

    #[test]
    fn refuses_what_a_map_refuses_at_the_same_place() {
        for text in [
            r#"[1]"#,
            r#"{"a":1e400}"#,
            r#"{"a":{"b":"\ud800"}}"#,
            r#"{"a":[1,]}"#,
            r#"{"a":1"#,
            r#" { "x" : 1 , "a" : { "b" : [ 1 , { "c" : 1e999 } ] } } "#,
        ] {
            let ours = pull::from_str::<JsonObject>(text).map(|_| ()).unwrap_err();
            let map = pull::from_str::<Map<String, Value>>(text)
                .map(|_| ())
                .unwrap_err();
            assert_eq!(ours.to_string(), map.to_string(), "{text}");
            assert_eq!(ours.pointer(), map.pointer(), "{text}");
        }
    }

    #[test]
    fn serde_paths_agree_with_the_decoder() {
        let text = r#"{"k":[1,{"x":null}],"s":"é"}"#;
        let via_serde: JsonObject = serde_json::from_str(text).unwrap();
        assert_eq!(via_serde.to_text(), text);
        let via_value: JsonObject =
            serde_json::from_value(serde_json::from_str(text).unwrap()).unwrap();
        assert_eq!(via_value, via_serde);
        assert_eq!(
            serde_json::to_value(&via_serde).unwrap(),
            serde_json::from_str::<Value>(text).unwrap()
        );
        assert!(serde_json::from_str::<JsonObject>("[]").is_err());
        #[derive(serde::Deserialize, PartialEq, Debug)]
        struct S {
            s: String,
        }
        assert_eq!(via_serde.parse::<S>().unwrap(), S { s: "é".into() });
        assert_eq!(via_serde.clone().into_map().len(), 2);
    }
}
