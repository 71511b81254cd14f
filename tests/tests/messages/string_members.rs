//! Members a decoder reads as a string before the builder that takes them is chosen (a tagged
//! union's tag, a message's `method`, the members a merged union buffers) are handed to that
//! builder without going through JSON text again (`ObjectBuilder::field_str`). They must decode
//! exactly as any other member does: the same values, the same errors, nothing lost. The
//! reference is the generic path, `serde_json::from_value`, which feeds every member through a
//! deserializer.

use mcp_typed::v2025_11_25::{
    ClientMessage, ClientRequest, ContentBlock, PrimitiveSchemaDefinition, ServerMessage,
};
use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// Decodes `text` (no key twice) from text and from the `Value` it parses to: both agree, on
/// the value or on the error message (without position). Returns the text decoder's result.
fn both<T: DeserializeOwned + PartialEq + std::fmt::Debug>(text: &str) -> Result<T, String> {
    let from_text = serde_json::from_str::<T>(text).map_err(|e| bare(&e));
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        let from_value = serde_json::from_value::<T>(value).map_err(|e| bare(&e));
        assert_eq!(from_text, from_value, "text and Value disagree on {text}");
    }
    from_text
}

fn bare(e: &serde_json::Error) -> String {
    let m = e.to_string();
    match m.find(" at line ") {
        Some(i) => m[..i].to_owned(),
        None => m,
    }
}

#[test]
fn a_tag_after_other_members_or_repeated_decodes_as_any_member() {
    let first: ContentBlock = both(r#"{"type":"text","text":"hi"}"#).unwrap();
    let later: ContentBlock = both(r#"{"text":"hi","type":"text"}"#).unwrap();
    assert_eq!(first, later);
    // (A `Value` cannot hold a key twice: the text decoder alone.)
    let twice = r#"{"type":"text","text":"hi","type":"text"}"#;
    assert_eq!(
        bare(&serde_json::from_str::<ContentBlock>(twice).unwrap_err()),
        "duplicate member `type` at `/type`"
    );
    // A tag this revision does not define: kept whole, the tag a string among the others.
    let unknown: ContentBlock = both(r#"{"a":1,"type":"video","url":"u"}"#).unwrap();
    assert_eq!(
        serde_json::to_string(&unknown).unwrap(),
        r#"{"a":1,"type":"video","url":"u"}"#
    );
}

#[test]
fn a_method_after_params_picks_the_request_and_a_second_one_is_refused() {
    let text = r#"{"params":{"name":"echo"},"id":7,"jsonrpc":"2.0","method":"tools/call"}"#;
    let m = ClientMessage::from_json(text).unwrap();
    let ClientMessage::Request(ClientRequest::CallTool(call)) = &m else {
        panic!("{m:?}")
    };
    assert_eq!(call.params.name, "echo");
    let twice = r#"{"jsonrpc":"2.0","id":7,"method":"ping","method":"ping"}"#;
    assert!(
        ClientMessage::from_json(twice)
            .unwrap_err()
            .message()
            .starts_with("duplicate member `method`"),
    );
    // A method neither side defines: kept whole with its `method`, re-encoded unchanged.
    let custom = r#"{"jsonrpc":"2.0","id":1,"method":"vendor/x","params":{"k":[1]}}"#;
    let m = ServerMessage::from_json(custom).unwrap();
    assert_eq!(serde_json::to_string(&m).unwrap(), custom);
}

#[test]
fn a_method_written_with_escapes_picks_the_same_request() {
    // The envelope keeps a plain `method` as a slice of the input and an escaped one as its
    // decoded copy: first or last, both pick the request a plain one picks.
    for text in [
        r#"{"jsonrpc":"2.0","id":7,"method":"tools\/call","params":{"name":"echo"}}"#,
        r#"{"params":{"name":"echo"},"id":7,"jsonrpc":"2.0","method":"tools\u002fcall"}"#,
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo"}}"#,
    ] {
        let m = ClientMessage::from_json(text).unwrap();
        let ClientMessage::Request(ClientRequest::CallTool(call)) = &m else {
            panic!("{text}: {m:?}")
        };
        assert_eq!(call.params.name, "echo", "{text}");
    }
    // Unknown with an escape: kept whole, its method decoded.
    let custom = r#"{"jsonrpc":"2.0","id":1,"method":"vendor\/x"}"#;
    let m = ServerMessage::from_json(custom).unwrap();
    assert_eq!(
        serde_json::to_value(&m).unwrap()["method"],
        json!("vendor/x")
    );
}

#[test]
fn a_member_the_message_envelope_reads_twice_is_refused_at_the_member() {
    // As typed objects name a repeated member (`/type` above), and as the old serde decoder's
    // position did (the oracle's former class `repeated-member-at-its-object`).
    let at = |e: &str| e.split(", line ").next().unwrap().to_owned();
    for (text, expected) in [
        (
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"},"jsonrpc":"2.0"}"#,
            "duplicate member `jsonrpc` at `/jsonrpc`",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"id":2,"result":{}}"#,
            "duplicate member `id` at `/id`",
        ),
        (
            r#"{"jsonrpc":"2.0","jsonrpc":"2.0","method":"ping"}"#,
            "duplicate member `jsonrpc` at `/jsonrpc`",
        ),
        // A response's members besides the envelope and `result`, kept: as unknown members.
        (
            r#"{"jsonrpc":"2.0","id":1,"result":{},"x":1,"x":2}"#,
            "duplicate member `x` at `/x`",
        ),
    ] {
        let e = ClientMessage::from_json(text).unwrap_err();
        assert_eq!(at(e.message()), expected, "{text}");
        let e = mcp_typed::v2025_06_18::ServerMessage::from_json(text).unwrap_err();
        assert_eq!(at(e.message()), expected, "{text} (2025-06-18)");
    }
    // Before 2025-11-25 the envelope holds a request's `id`.
    let e = mcp_typed::v2025_06_18::ClientMessage::from_json(
        r#"{"jsonrpc":"2.0","id":1,"method":"ping","id":2}"#,
    )
    .unwrap_err();
    assert_eq!(at(e.message()), "duplicate member `id` at `/id`");
}

#[test]
fn merged_union_members_keep_their_strings_and_their_errors() {
    let s: PrimitiveSchemaDefinition =
        both(r#"{"title":"Name","type":"string","description":"d","format":"email"}"#).unwrap();
    let PrimitiveSchemaDefinition::String(s) = s else {
        panic!("{s:?}")
    };
    assert_eq!(
        (s.title.as_deref(), s.description.as_deref()),
        (Some("Name"), Some("d"))
    );
    // A member of another kind than every variant declares: the closest variant's error
    // names it.
    let e = both::<PrimitiveSchemaDefinition>(r#"{"type":"string","title":5}"#).unwrap_err();
    assert!(
        e.starts_with("invalid type: integer `5`, expected a string at `/title`"),
        "{e}"
    );
    // A `type` no variant has: kept whole.
    let u: PrimitiveSchemaDefinition = both(r#"{"type":"strin","title":"t"}"#).unwrap();
    assert_eq!(
        serde_json::to_string(&u).unwrap(),
        r#"{"type":"strin","title":"t"}"#
    );
    // A member no variant declares, given as a string: kept as the string it was.
    let s: PrimitiveSchemaDefinition = both(r#"{"type":"boolean","x-ui":"toggle"}"#).unwrap();
    assert_eq!(
        serde_json::to_value(&s).unwrap(),
        json!({"type":"boolean","x-ui":"toggle"})
    );
}

/// A member of a content block or of a form property, as a JSON value: mostly strings (what
/// `field_str` takes), some of other kinds.
fn member() -> impl Strategy<Value = (String, Value)> {
    let key = prop_oneof![
        Just("type"),
        Just("text"),
        Just("title"),
        Just("description"),
        Just("format"),
        Just("default"),
        Just("mimeType"),
        Just("data"),
        Just("x"),
    ]
    .prop_map(str::to_owned);
    let value = prop_oneof![
        4 => prop_oneof![
            Just("text"), Just("string"), Just("boolean"), Just("image"), Just("email"),
            Just("video"), Just(""), Just("a\"b\\c\u{1}")
        ]
        .prop_map(|s| json!(s)),
        1 => prop_oneof![Just(json!(1)), Just(json!(true)), Just(Value::Null), Just(json!(["a"]))],
    ];
    (key, value)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Members in any order: the text decoder and the generic one agree.
    #[test]
    fn text_and_generic_decoders_agree(members in prop::collection::vec(member(), 0..6)) {
        let mut seen = std::collections::HashSet::new();
        let body: Vec<String> = members
            .iter()
            .filter(|(k, _)| seen.insert(k.clone()))
            .map(|(k, v)| format!("{}:{v}", json!(k)))
            .collect();
        let text = format!("{{{}}}", body.join(","));
        let _ = both::<ContentBlock>(&text);
        let _ = both::<PrimitiveSchemaDefinition>(&text);
    }
}
