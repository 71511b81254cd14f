//! The writer against serde_json: the same bytes for every value, the same error texts.

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde::Serialize;
use serde_json::Value;

use super::{Plain, to_string, to_vec, to_writer, write_str};
use crate::pull::tests::{json_text, json_value};
use crate::{JsonObject, RawJson};

/// `value` written by the writer and by serde_json: the same text, or both refused with the
/// same message.
fn same<T: Serialize + ?Sized>(value: &T) -> Result<(), TestCaseError> {
    match (to_string(value), serde_json::to_string(value)) {
        (Ok(ours), Ok(theirs)) => prop_assert_eq!(ours, theirs),
        (Err(ours), Err(theirs)) => prop_assert_eq!(ours.to_string(), theirs.to_string()),
        (ours, theirs) => prop_assert!(false, "writer {ours:?}, serde_json {theirs:?}"),
    }
    Ok(())
}

/// Strings heavy in what must be escaped, around the sixteen-byte steps of the scan.
fn escapable() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        prop::sample::select(vec![
            '"', '\\', '\n', '\r', '\t', '\u{8}', '\u{c}', '\0', '\u{1f}', '\u{7f}', '/', 'é', '€',
            '😀'
        ]),
        (0u8..0x20).prop_map(char::from),
        any::<char>(),
        Just('a'),
    ];
    prop::collection::vec(piece, 0..80).prop_map(|c| c.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn strings_as_serde_json(s in escapable()) {
        same(&s)?;
        // As a key too, and at every offset of the scan.
        let mut map = BTreeMap::new();
        map.insert(s.clone(), s.len());
        same(&map)?;
        for cut in (0..=s.len()).filter(|&i| s.is_char_boundary(i)) {
            let mut out = Vec::new();
            write_str(&mut out, &s[cut..]);
            prop_assert_eq!(out, serde_json::to_vec(&s[cut..]).unwrap());
        }
    }

    /// What generated types write names and constants as: the same text as serde_json
    /// writes for the string (the writer copies it unscanned), as a value and as a key, at
    /// every length around the sixteen-byte block.
    #[test]
    fn plain_strings_as_serde_json(s in "[a-zA-Z0-9/_ $.é€😀-]{0,40}") {
        struct Member(Plain, Plain);
        impl Serialize for Member {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeMap;
                let mut m = s.serialize_map(None)?;
                m.serialize_entry(&self.0, &self.1)?;
                m.serialize_entry(&self.1, &[&self.0])?;
                m.end()
            }
        }
        let s: &'static str = Box::leak(s.into_boxed_str());
        prop_assert_eq!(to_string(&Plain(s)).unwrap(), serde_json::to_string(s).unwrap());
        let member = Member(Plain(s), Plain("x"));
        same(&member)?;
        prop_assert_eq!(
            serde_json::to_value(&member).unwrap(),
            serde_json::json!({ s: "x", "x": [s] })
        );
    }

    #[test]
    fn values_as_serde_json(v in json_value()) {
        same(&v)?;
        prop_assert_eq!(to_vec(&v).unwrap(), serde_json::to_vec(&v).unwrap());
        let mut out = Vec::new();
        to_writer(&mut out, &v).unwrap();
        prop_assert_eq!(out, serde_json::to_vec(&v).unwrap());
    }

    /// Text kept as written (`JsonObject` while unchanged, `RawJson`) goes out as it is, as
    /// serde_json writes it; a changed `JsonObject` is written from its map.
    #[test]
    fn kept_text_as_serde_json(text in json_text()) {
        let Ok(raw) = RawJson::from_string(text.clone()) else { return Ok(()) };
        same(&raw)?;
        let wrapped = format!("{{\"k\":{text}}}");
        if let Ok(mut obj) = JsonObject::from_text(&wrapped) {
            same(&obj)?;
            obj.insert("added".into(), Value::from("\u{1}"));
            same(&obj)?;
        }
    }
}

#[derive(Serialize)]
enum Shape {
    Unit,
    Newtype(i8),
    Tuple(u16, char),
    Struct { a: Option<f32>, b: (), c: Vec<u8> },
}

#[derive(Serialize)]
struct Unit;

#[derive(Serialize)]
struct Newtype(String);

#[derive(Serialize)]
struct Tuple(i128, u128, Unit);

#[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    K,
}

#[derive(Serialize)]
struct Everything<'a> {
    shapes: Vec<Shape>,
    newtype: Newtype,
    tuple: Tuple,
    #[serde(with = "serde_bytes_as_bytes")]
    bytes: &'a [u8],
    floats: [f64; 6],
    small: (i8, i16, i32, u8, u32, f32),
    none: Option<bool>,
    raw: Box<serde_json::value::RawValue>,
    int_keys: BTreeMap<i64, bool>,
    u128_keys: BTreeMap<u128, ()>,
    bool_keys: BTreeMap<bool, u8>,
    char_keys: BTreeMap<char, u8>,
    variant_keys: BTreeMap<Key, u8>,
    newtype_keys: BTreeMap<NewtypeKey, u8>,
}

#[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
struct NewtypeKey(String);

/// `serialize_bytes` (serde's derive writes a `&[u8]` as a sequence otherwise).
mod serde_bytes_as_bytes {
    pub fn serialize<S: serde::Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(v)
    }
}

/// Every shape of serde's data model, each as serde_json writes it.
#[test]
fn every_shape_as_serde_json() {
    let value = Everything {
        shapes: vec![
            Shape::Unit,
            Shape::Newtype(-3),
            Shape::Tuple(7, '"'),
            Shape::Struct {
                a: Some(0.1),
                b: (),
                c: vec![0, 255],
            },
            Shape::Struct {
                a: Some(f32::NAN),
                b: (),
                c: vec![],
            },
        ],
        newtype: Newtype("n\u{0}".into()),
        tuple: Tuple(i128::MIN, u128::MAX, Unit),
        bytes: &[1, 2, 250],
        floats: [0.0, -0.0, 1e300, 5e-324, f64::INFINITY, f64::NAN],
        small: (-1, -300, 70_000, 200, 4_000_000_000, 1.5),
        none: None,
        raw: serde_json::value::RawValue::from_string(r#"{ "kept" : [1e2] }"#.into()).unwrap(),
        int_keys: [(-5, true), (i64::MAX, false)].into(),
        u128_keys: [(u128::MAX, ())].into(),
        bool_keys: [(true, 1), (false, 0)].into(),
        char_keys: [('\n', 1), ('é', 2)].into(),
        variant_keys: [(Key::K, 1)].into(),
        newtype_keys: [(NewtypeKey("\"".into()), 1)].into(),
    };
    same(&value).unwrap();
    // Each of the above was written (not an error on both sides).
    let text = to_string(&value).unwrap();
    assert!(text.contains(r#""raw":{ "kept" : [1e2] }"#), "{text}");
    assert!(
        text.contains(r#""floats":[0.0,-0.0,1e+300,5e-324,null,null]"#),
        "{text}"
    );
    assert!(text.contains(r#"{"Tuple":[7,"\""]}"#), "{text}");
}

/// Keys serde_json refuses, refused with its words; floats as keys as serde_json writes them.
#[test]
fn keys_as_serde_json() {
    #[derive(Serialize)]
    struct FloatKeys(#[serde(serialize_with = "float_map")] f64);
    fn float_map<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(v, &1)?;
        m.serialize_entry(&Some(2.5f32), &2)?;
        m.end()
    }
    for f in [1.0, -0.5, 1e300, f64::NAN, f64::INFINITY] {
        same(&FloatKeys(f)).unwrap();
    }
    let seq_key: BTreeMap<Vec<u8>, u8> = [(vec![1], 1)].into();
    let unit_key: BTreeMap<(), u8> = [((), 1)].into();
    let none_key: BTreeMap<Option<u8>, u8> = [(None, 1)].into();
    same(&seq_key).unwrap();
    same(&unit_key).unwrap();
    same(&none_key).unwrap();
    assert_eq!(
        to_string(&seq_key).unwrap_err().to_string(),
        "key must be a string"
    );
}

/// A `Number` under serde_json's `arbitrary_precision` (which a crate of the user's program
/// may turn on: features unify) writes itself as serde_json's number struct; serde_json then
/// writes the digits as they are, and so does the writer. (This build has the feature off, so
/// serde_json itself cannot be the reference here.)
#[test]
fn arbitrary_precision_numbers_are_written_as_their_digits() {
    struct Digits(&'static str);
    impl Serialize for Digits {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let mut st = s.serialize_struct("$serde_json::private::Number", 1)?;
            st.serialize_field("$serde_json::private::Number", self.0)?;
            st.end()
        }
    }
    let digits = "123456789012345678901234567890.5e-3";
    assert_eq!(to_string(&[Digits(digits)]).unwrap(), format!("[{digits}]"));
}

/// A `Plain` string that needs an escape is the caller's bug: caught in debug builds.
#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "needs an escape")]
fn plain_string_needing_an_escape_is_caught() {
    let _ = to_string(&Plain("a\"b"));
}
