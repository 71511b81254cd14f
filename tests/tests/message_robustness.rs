//! The one-pass message decoders (`ClientMessage`, `ServerMessage` of every revision) on
//! untrusted input: message-shaped objects with arbitrary members and values, and arbitrary
//! text. Nothing panics; whatever decodes re-encodes to JSON that decodes to the same value;
//! deep nesting is an error, not a stack overflow.

use mcp_tests::arbitrary_json::any_json;
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
        check::<mcp_types::v2024_11_05::ClientMessage>($text);
        check::<mcp_types::v2024_11_05::ServerMessage>($text);
        check::<mcp_types::v2025_03_26::ClientMessage>($text);
        check::<mcp_types::v2025_03_26::ServerMessage>($text);
        check::<mcp_types::v2025_06_18::ClientMessage>($text);
        check::<mcp_types::v2025_06_18::ServerMessage>($text);
        check::<mcp_types::v2025_11_25::ClientMessage>($text);
        check::<mcp_types::v2025_11_25::ServerMessage>($text);
        check::<mcp_types::v2026_07_28::ClientMessage>($text);
        check::<mcp_types::v2026_07_28::ServerMessage>($text);
        check::<mcp_types::draft::ClientMessage>($text);
        check::<mcp_types::draft::ServerMessage>($text);
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

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    for depth in [200, 100_000] {
        let nested = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let text = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"x","arguments":{{"a":{nested}}}}}}}"#
        );
        let e = serde_json::from_str::<mcp_types::v2025_11_25::ClientMessage>(&text).unwrap_err();
        assert!(e.to_string().contains("recursion limit"), "{e}");
        // A response keeps its result raw (read without recursion): the error comes when
        // the result is typed.
        let text = format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[],"structuredContent":{{"a":{nested}}}}}}}"#
        );
        let m = serde_json::from_str::<mcp_types::v2025_11_25::ServerMessage>(&text).unwrap();
        let mcp_types::v2025_11_25::ServerMessage::Response(r) = m else {
            panic!()
        };
        let e = r
            .result_as::<mcp_types::v2025_11_25::CallToolRequest>()
            .unwrap_err();
        assert!(e.to_string().contains("recursion limit"), "{e}");
    }
}
