//! Compiles the generator's snapshot (`codegen/tests/snapshots/shapes.rs`) and checks that the
//! generated code behaves as documented, one shape at a time.

#![deny(warnings)]

include!("../../../codegen/tests/snapshots/shapes.rs");

use serde_json::{Value, json};
use shapes::*;

fn decode<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, String> {
    serde_json::from_value(v).map_err(|e| e.to_string())
}

fn round_trip<T: serde::de::DeserializeOwned + serde::Serialize>(v: Value) -> Value {
    serde_json::to_value(decode::<T>(v).unwrap()).unwrap()
}

#[test]
fn constants_are_checked_and_written() {
    let ping: Ping = decode(json!({"jsonrpc": "2.0", "method": "ping", "id": 1})).unwrap();
    assert_eq!(ping.id, Id::Integer(1));
    assert_eq!(Ping::METHOD, "ping");
    assert_eq!(
        serde_json::to_value(&ping).unwrap(),
        json!({"jsonrpc": "2.0", "method": "ping", "id": 1})
    );
    let e = decode::<Ping>(json!({"jsonrpc": "2.0", "method": "pong", "id": 1})).unwrap_err();
    assert_eq!(
        e,
        r#"invalid value: string "pong", expected "ping" at `/method`"#
    );
    let e = decode::<Ping>(json!({"method": "ping"})).unwrap_err();
    assert_eq!(e, "missing members `id`, `jsonrpc` in a Ping object");
}

#[test]
fn open_method_tag_keeps_unknown_methods_whole() {
    let m: Message =
        decode(json!({"id": "a", "jsonrpc": "2.0", "method": "pong", "ttl": null})).unwrap();
    assert!(matches!(m, Message::Pong(Pong { ttl: None, .. })), "{m:?}");
    let raw = json!({"jsonrpc": "2.0", "method": "vendor/x", "id": 3, "params": {"k": [1, 2.5]}});
    let m: Message = decode(raw.clone()).unwrap();
    assert!(
        matches!(&m, Message::Custom(map) if map["method"] == "vendor/x"),
        "{m:?}"
    );
    assert_eq!(serde_json::to_value(&m).unwrap(), raw);
    let e = decode::<Message>(json!({"id": 1})).unwrap_err();
    assert!(e.contains("missing member `method`"), "{e}");
}

#[test]
fn unknown_tag_values_are_kept_whole_and_reported() {
    use mcp_typed::Unknowns as _;
    let audio = json!({"type": "audio", "data": ""});
    let b: Block = decode(audio.clone()).unwrap();
    let Block::Unknown(raw) = &b else {
        panic!("{b:?}")
    };
    assert_eq!(Value::from(raw.clone()), audio);
    assert_eq!(serde_json::to_value(&b).unwrap(), audio);
    assert_eq!(
        b.unknowns()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        [r#"/: unknown Block `type` "audio""#]
    );
    // A known tag with content that does not fit is still an error naming the field.
    let e = decode::<Block>(json!({"type": "integer", "minimum": "x"})).unwrap_err();
    assert!(e.contains("\"x\""), "{e}");
}

#[test]
fn shared_tag_value_is_settled_by_shape() {
    let b: Block = decode(json!({"type": "text", "text": "hi"})).unwrap();
    assert!(matches!(b, Block::Text(_)), "{b:?}");
    let b: Block = decode(json!({"type": "text", "enum": ["a", "b"]})).unwrap();
    assert!(matches!(b, Block::Choice(_)), "{b:?}");
    // The same keys in another order: the tag need not come first.
    let b: Block = decode(json!({"enum": ["a"], "type": "text"})).unwrap();
    assert!(matches!(b, Block::Choice(_)), "{b:?}");
    let n: Block = decode(json!({"type": "integer", "minimum": 3})).unwrap();
    let Block::McpNumber(n) = n else {
        panic!("{n:?}")
    };
    assert_eq!(
        n.minimum.unwrap().to_string(),
        "3",
        "integers stay integers"
    );
}

#[test]
fn optional_tag_defaults_to_the_member_that_may_omit_it() {
    let p: Params = decode(json!({"message": "hi"})).unwrap();
    assert!(matches!(&p, Params::Form(Form { mode: None, .. })), "{p:?}");
    assert_eq!(
        serde_json::to_value(&p).unwrap(),
        json!({"message": "hi"}),
        "no mode added"
    );
    let p: Params = decode(json!({"mode": "url", "url": "https://x"})).unwrap();
    assert!(matches!(p, Params::Link(_)), "{p:?}");
}

#[test]
fn all_of_refines_and_integer_constants_are_checked() {
    let s: Special = decode(json!({"error": {"code": -32042, "message": "m"}})).unwrap();
    assert_eq!(s.error.message, "m");
    assert_eq!(SpecialError::CODE, -32042);
    let e = decode::<Special>(json!({"error": {"code": 1, "message": "m"}})).unwrap_err();
    assert!(
        e.starts_with("invalid value: integer `1`, expected -32042 at `/error/code`"),
        "{e}"
    );
}

#[test]
fn unknown_members_survive_and_names_do_not_collide() {
    let v = json!({"jsonrpc": "2.0", "method": "ping", "id": "x",
                   "params": {"extra": "declared", "type": "t", "vendor": {"a": 1}}, "top": true});
    let p: Ping = decode(v.clone()).unwrap();
    let params = p.params.as_ref().unwrap();
    assert_eq!(params.extra.as_deref(), Some("declared"));
    assert_eq!(params.r#type.as_deref(), Some("t"));
    assert_eq!(params.extra_members["vendor"], json!({"a": 1}));
    assert_eq!(p.extra["top"], json!(true));
    assert_eq!(serde_json::to_value(&p).unwrap(), v);
}

#[test]
fn numbers_keep_their_form_and_null_differs_from_absent() {
    let v = json!({"jsonrpc": "2.0", "method": "pong", "id": 1, "progress": 50, "ttl": null});
    assert_eq!(round_trip::<Pong>(v.clone()).to_string(), v.to_string());
    let v = json!({"jsonrpc": "2.0", "method": "pong", "id": 1, "progress": 0.8, "ttl": 5});
    assert_eq!(round_trip::<Pong>(v.clone()).to_string(), v.to_string());
    let e = decode::<Pong>(json!({"jsonrpc": "2.0", "method": "pong", "id": 1})).unwrap_err();
    assert_eq!(
        e, "missing member `ttl` in a Pong object",
        "a required nullable member must be present"
    );
    let c: Closed = decode(json!({"any": null})).unwrap();
    assert_eq!(
        c.any,
        Some(Value::Null),
        "null is kept, not taken for absent"
    );
    assert_eq!(serde_json::to_value(&c).unwrap(), json!({"any": null}));
}

#[test]
fn closed_objects_reject_unknown_members() {
    let e = decode::<Closed>(json!({"a": true, "b": 1})).unwrap_err();
    assert_eq!(e, "unknown member `b`, expected one of `a`, `any` at `/b`");
}

#[test]
fn recursive_json_kind_union_and_prelude_names() {
    let v = json!({"a": [1, "x", true, {"b": []}]});
    assert_eq!(round_trip::<McpValue>(v.clone()), v);
    assert!(
        decode::<McpValue>(json!(1.5)).is_err(),
        "the schema allows no fractions here"
    );
    let r: McpResult = decode(json!({"_meta": {"k": 1}, "x": 2})).unwrap();
    assert_eq!(r.extra["x"], json!(2));
    // `Result`, `Option` and `String` still mean the prelude's after the glob import above.
    let ok: Result<Option<String>, ()> = Ok(None);
    assert!(ok.is_ok());
}

#[test]
fn string_enums_and_kind_unions() {
    assert_eq!(decode::<Role>(json!("user")).unwrap(), Role::User);
    assert_eq!(
        decode::<Role>(json!("admin")).unwrap_err(),
        "unknown variant `admin`, expected one of `assistant`, `user`"
    );
    assert_eq!(decode::<Id>(json!("a")).unwrap(), Id::String("a".into()));
    assert!(decode::<Id>(json!(true)).is_err());
}

#[test]
fn typed_unknown_members_decode_in_place_beside_the_declared_ones() {
    let t: Tally = decode(json!({"b": 2, "total": 3, "a": 1})).unwrap();
    assert_eq!(t.total, 3);
    assert_eq!(
        t.extra
            .iter()
            .map(|(k, v)| (k.as_str(), *v))
            .collect::<Vec<_>>(),
        [("b", 2), ("a", 1)],
        "the others in input order, decoded as the schema says"
    );
    assert_eq!(
        serde_json::to_value(&t).unwrap(),
        json!({"total": 3, "b": 2, "a": 1})
    );
    // Errors after an unknown member was kept: the map is dropped, the error placed.
    let e = decode::<Tally>(json!({"b": 2, "total": "3"})).unwrap_err();
    assert_eq!(e, "invalid type: string \"3\", expected i64 at `/total`");
    let e = decode::<Tally>(json!({"b": 2, "c": true})).unwrap_err();
    assert_eq!(e, "invalid type: boolean `true`, expected i64 at `/c`");
    let e = decode::<Tally>(json!({"b": 2})).unwrap_err();
    assert_eq!(e, "missing member `total` in a Tally object");
}
