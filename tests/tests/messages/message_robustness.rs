//! The one-pass message decoders (`ClientMessage`, `ServerMessage` of every revision) on
//! untrusted input: message-shaped objects with arbitrary members and values, and arbitrary
//! text. Nothing panics; whatever decodes re-encodes to JSON that decodes to the same value;
//! deep nesting is an error, not a stack overflow.

use mcp_tests::arbitrary_json::any_json;
use mcp_typed::{Elicit, Unknowns};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// Objects shaped like messages: some of `jsonrpc`, `id`, `method`, `params`, `result`,
/// `error`, with plausible or arbitrary values, in any order.
fn message_like() -> impl Strategy<Value = Value> {
    let method = prop_oneof![
        Just(json!("tools/call")),
        Just(json!("initialize")),
        Just(json!("ping")),
        Just(json!("notifications/initialized")),
        Just(json!("notifications/progress")),
        Just(json!("elicitation/create")),
        Just(json!("vendor/x")),
        any_json(1),
    ];
    let id = prop_oneof![
        Just(json!(1)),
        Just(json!("a")),
        Just(Value::Null),
        any_json(1)
    ];
    let members = (
        prop::option::of(prop_oneof![Just(json!("2.0")), any_json(0)]),
        prop::option::of(id),
        prop::option::of(method),
        prop::option::of(any_json(3)),
        prop::option::of(any_json(3)),
        prop::option::of(prop_oneof![
            Just(json!({"code": -32601, "message": "m"})),
            any_json(2)
        ]),
        any::<u64>(),
    );
    members.prop_map(|(jsonrpc, id, method, params, result, error, order)| {
        let mut entries: Vec<(&str, Value)> = [
            ("jsonrpc", jsonrpc),
            ("id", id),
            ("method", method),
            ("params", params),
            ("result", result),
            ("error", error),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k, v)))
        .collect();
        // A deterministic shuffle: decoders must not depend on member order.
        let n = entries.len().max(1) as u64;
        entries.rotate_left((order % n) as usize);
        Value::Object(
            entries
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect::<Map<_, _>>(),
        )
    })
}

macro_rules! check_all {
    ($text:expr) => {{
        check::<mcp_typed::v2024_11_05::ClientMessage>($text);
        check::<mcp_typed::v2024_11_05::ServerMessage>($text);
        check::<mcp_typed::v2025_03_26::ClientMessage>($text);
        check::<mcp_typed::v2025_03_26::ServerMessage>($text);
        check::<mcp_typed::v2025_06_18::ClientMessage>($text);
        check::<mcp_typed::v2025_06_18::ServerMessage>($text);
        check::<mcp_typed::v2025_11_25::ClientMessage>($text);
        check::<mcp_typed::v2025_11_25::ServerMessage>($text);
        check::<mcp_typed::v2026_07_28::ClientMessage>($text);
        check::<mcp_typed::v2026_07_28::ServerMessage>($text);
        check::<mcp_typed::draft::ClientMessage>($text);
        check::<mcp_typed::draft::ServerMessage>($text);
    }};
}

/// Decoding never panics; a decoded value re-encodes to JSON that decodes to the same value.
fn check<T>(text: &str)
where
    T: serde::de::DeserializeOwned + serde::Serialize + PartialEq + std::fmt::Debug,
{
    if let Ok(v) = serde_json::from_str::<T>(text) {
        let again = serde_json::to_string(&v).unwrap();
        let back: T = serde_json::from_str(&again).unwrap_or_else(|e| {
            panic!("{text}\nre-encoded as {again}\nwhich does not decode: {e}")
        });
        assert_eq!(back, v, "{text}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn message_shaped_objects_never_panic_and_round_trip(m in message_like()) {
        check_all!(&m.to_string());
    }

    #[test]
    fn arbitrary_text_never_panics(s in "\\PC{0,64}") {
        check_all!(&s);
    }
}

/// `depth` nested arrays, or objects (`{"a":{"a":…}}`).
fn nested(depth: usize, objects: bool) -> String {
    if objects {
        format!("{}{{}}{}", r#"{"a":"#.repeat(depth), "}".repeat(depth))
    } else {
        format!("{}{}", "[".repeat(depth), "]".repeat(depth))
    }
}

/// Where nesting can hide in a message: raw JSON members (`arguments`, `_meta`, a result's
/// `structuredContent`, an error's `data`), at the bottom of the recursion limit and far
/// beyond it (100 000 levels, which would overflow any recursive reader's stack).
#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    use mcp_typed::v2025_11_25 as m;
    for depth in [200, 100_000] {
        for objects in [false, true] {
            let nested = nested(depth, objects);
            // Decoded in one pass: serde_json's recursion limit refuses it, naming nothing
            // worse than "recursion limit exceeded" at a line and column.
            for text in [
                format!(
                    r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"x","arguments":{{"a":{nested}}}}}}}"#
                ),
                format!(
                    r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":1,"progress":1,"_meta":{{"a":{nested}}}}}}}"#
                ),
                format!(
                    r#"{{"jsonrpc":"2.0","id":1,"error":{{"code":1,"message":"m","data":{nested}}}}}"#
                ),
            ] {
                let e = serde_json::from_str::<m::ClientMessage>(&text).unwrap_err();
                assert!(e.to_string().contains("recursion limit"), "{e}");
                let e = serde_json::from_str::<m::JsonRpcMessage>(&text).unwrap_err();
                assert!(e.to_string().contains("recursion limit"), "{e}");
                // The error response sent back for it is a message like any other.
                let reply = m::ClientMessage::from_json(&text).unwrap_err().into_reply();
                assert!(matches!(reply, m::ServerMessage::Error(_)), "{reply:?}");
            }
            // A response keeps its result raw (skipped without recursion): the error comes
            // when the result is typed, or when anything reads it as JSON.
            let text = format!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[],"structuredContent":{{"a":{nested}}}}}}}"#
            );
            let message = serde_json::from_str::<m::ServerMessage>(&text).unwrap();
            assert!(message.unknowns().is_empty());
            let m::ServerMessage::Response(r) = &message else {
                panic!("{message:?}")
            };
            let e = r.result_as::<m::CallToolRequest>().unwrap_err();
            assert!(e.to_string().contains("recursion limit"), "{e}");
            let e = r.result_into::<Value>().unwrap_err();
            assert!(e.to_string().contains("recursion limit"), "{e}");
            // Conversions carry the raw result across revisions untouched, in both
            // directions.
            let down =
                mcp_typed::convert::downgrade::<mcp_typed::v2025_06_18::ServerMessage>(&message)
                    .unwrap();
            assert!(down.dropped.is_empty());
            let up: m::ServerMessage = mcp_typed::convert::upgrade(&down.value).unwrap();
            assert_eq!(up, message);
            // So do the elicitation readers: content that is too deep is an error.
            let raw = serde_json::value::RawValue::from_string(format!(
                r#"{{"action":"accept","content":{{"a":{nested}}}}}"#
            ))
            .unwrap();
            assert!(Form::outcome(&raw).is_err());
        }
    }
}

#[derive(mcp_typed::Elicit, Debug)]
#[allow(dead_code)]
struct Form {
    a: Option<String>,
}
