//! What peers send beyond the schema's letter, decoded losslessly, on messages written here (no
//! peer runs and no capture is read; `messages.rs` and `../session/session_codec.rs` decode the
//! captured sessions of `tests/fixtures/real-traffic`): the errata of `schema/errata.json` apply to
//! exactly the revisions they list; every tagged union keeps an unknown tag whole
//! (`Unknown`/`Custom` variants, reported by `mcp_typed::Unknowns`); a newer revision's shape on
//! an older session round-trips and is reported, or is an error naming the member, never a
//! lossy decode; decimal answers stay decimals; a derived form keeps its member order.

use mcp_tests::workspace;
use mcp_typed::elicit::ElicitOutcome;
use mcp_typed::{DefinitionVisitor, Elicit, ProtocolVersion, Unknown, UnknownKind, Unknowns};
use mcp_typed_codegen::ir::TypeKind;
use mcp_typed_codegen::ir::union::ObjectPlan;
use mcp_typed_codegen::load::errata::Errata;
use serde_json::{Value, json};

const REVISIONS: [&str; 6] = [
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
    "draft",
];

fn schema_text(revision: &str) -> String {
    let path = mcp_typed_codegen::source::resolve(revision, None, &workspace()).unwrap();
    std::fs::read_to_string(path).unwrap()
}

/// Every erratum applies to exactly the official files it lists, with every patch that
/// names a pointer of that file's dialect applying.
#[test]
fn errata_apply_to_exactly_the_revisions_they_list() {
    let errata = Errata::builtin();
    for revision in REVISIONS {
        let mut doc: Value = serde_json::from_str(&schema_text(revision)).unwrap();
        let applied: Vec<String> = errata.apply(&mut doc).into_iter().map(|a| a.id).collect();
        let listed: Vec<String> = errata
            .errata
            .iter()
            .filter(|e| e.revisions.iter().any(|r| r == revision))
            .map(|e| e.id.clone())
            .collect();
        assert_eq!(applied, listed, "{revision}");
        // Applying twice changes nothing more: each patch checks the value it replaces.
        assert!(errata.apply(&mut doc).is_empty(), "{revision}");
    }
}

// ---------------------------------------------------------------------------------------------
// Unknown tags are kept whole, in every tagged union of every revision

/// Decodes a value as the definition's type; checks it re-encodes unchanged and returns
/// what `Unknowns` reports.
struct KeptWhole(Value);

impl DefinitionVisitor for KeptWhole {
    type Output = Result<Vec<Unknown>, String>;
    fn visit<T>(self, _: &'static str) -> Self::Output
    where
        T: serde::Serialize
            + serde::de::DeserializeOwned
            + std::fmt::Debug
            + Clone
            + PartialEq
            + Unknowns
            + 'static,
    {
        let v: T = serde_json::from_value(self.0.clone()).map_err(|e| e.to_string())?;
        let again = serde_json::to_value(&v).map_err(|e| e.to_string())?;
        if again != self.0 {
            return Err(format!("re-encoded as {again}"));
        }
        // Member order too: the value was built with the tag last.
        let text = serde_json::to_string(&v).unwrap();
        if text != self.0.to_string() {
            return Err(format!("member order changed: {text}"));
        }
        Ok(v.unknowns())
    }
}

macro_rules! with_definition {
    ($revision:expr, $name:expr, $visitor:expr) => {
        match $revision {
            "2024-11-05" => mcp_typed::v2024_11_05::with_definition($name, $visitor),
            "2025-03-26" => mcp_typed::v2025_03_26::with_definition($name, $visitor),
            "2025-06-18" => mcp_typed::v2025_06_18::with_definition($name, $visitor),
            "2025-11-25" => mcp_typed::v2025_11_25::with_definition($name, $visitor),
            "2026-07-28" => mcp_typed::v2026_07_28::with_definition($name, $visitor),
            "draft" => mcp_typed::draft::with_definition($name, $visitor),
            other => panic!("no revision {other}"),
        }
    };
}

/// For every union definition that a tag decides (content `type`, `method`, elicitation
/// `mode`, schema `type`…), in every revision: an object whose tag no member has, with
/// members of every JSON kind, decodes to the catch-all variant, re-encodes byte for byte
/// (member order kept), and is the one thing `unknowns()` reports.
#[test]
fn every_tagged_union_keeps_an_unknown_tag_whole() {
    let mut checked = 0;
    for revision in REVISIONS {
        let path = mcp_typed_codegen::source::resolve(revision, None, &workspace()).unwrap();
        let module = mcp_typed_codegen::Builder::new()
            .schema_path(path)
            .model()
            .unwrap();
        for t in &module.types {
            let (Some(def), TypeKind::Union(u)) = (&t.schema_name, &t.kind) else {
                continue;
            };
            let ObjectPlan::Tagged(tagged) = &u.plan.object else {
                continue;
            };
            let future = "x-from-a-future-revision";
            let input = json!({
                "zeta": {"nested": [1, 2.5, null, "s"], "empty": {}},
                "alpha": 50,
                "_meta": {"com.example/k": true},
                tagged.tag.clone(): future,
            });
            let unknowns = with_definition!(revision, def, KeptWhole(input.clone()))
                .unwrap_or_else(|| panic!("{revision}: no definition {def}"))
                .unwrap_or_else(|e| panic!("{revision} {def}: {input} is not kept whole: {e}"));
            let expected = if tagged.tag == "method" {
                UnknownKind::Method {
                    union: leak(def),
                    method: Some(future.to_owned()),
                }
            } else {
                UnknownKind::Variant {
                    union: leak(def),
                    tag: leak(&tagged.tag),
                    value: Some(future.to_owned()),
                }
            };
            assert_eq!(
                unknowns,
                [Unknown {
                    pointer: String::new(),
                    kind: expected
                }],
                "{revision} {def}"
            );
            checked += 1;
        }
    }
    // ContentBlock, ClientRequest, ServerNotification, PrimitiveSchemaDefinition… : the
    // count pins that no union silently stops being decided by its tag.
    assert_eq!(
        checked, 39,
        "tagged union definitions across the six revisions"
    );
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

/// A 2024-11-05 session where the server sends audio and resource_link blocks (both from
/// 2025-03-26 / 2025-06-18): the result decodes, re-encodes byte for byte, and says what it
/// kept.
#[test]
fn newer_content_blocks_on_a_2024_11_05_session_round_trip_and_are_reported() {
    use mcp_typed::v2024_11_05::{CallToolResult, CallToolResultContentItem};
    let text = r#"{
        "content": [
            {"type": "text", "text": "here"},
            {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
            {"type": "resource_link", "uri": "file:///a.txt", "name": "a.txt", "annotations": {"priority": 0.5}},
            {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
        ],
        "isError": false
    }"#;
    let result: CallToolResult = serde_json::from_str(text).unwrap();
    let compact: Value = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&result).unwrap(), compact.to_string());
    assert!(matches!(
        result.content[1],
        CallToolResultContentItem::Unknown(_)
    ));
    assert!(matches!(
        result.content[3],
        CallToolResultContentItem::Image(_)
    ));
    let reports: Vec<String> = result.unknowns().iter().map(ToString::to_string).collect();
    assert_eq!(
        reports,
        [
            r#"/content/1: unknown CallToolResultContentItem `type` "audio""#,
            r#"/content/2: unknown CallToolResultContentItem `type` "resource_link""#,
        ]
    );
    assert!(result.has_unknowns());
    // The same blocks are plain, typed content in 2025-06-18.
    let typed: mcp_typed::v2025_06_18::CallToolResult = serde_json::from_str(text).unwrap();
    assert!(!typed.has_unknowns());
}

/// A URL-mode elicitation (2025-11-25) cannot be held by 2025-06-18's `ElicitRequest`, which
/// requires `requestedSchema`: an error naming that member, never a lossy decode.
#[test]
fn a_shape_the_older_revision_cannot_hold_is_an_error() {
    let url = json!({"jsonrpc": "2.0", "id": 5, "method": "elicitation/create",
        "params": {"mode": "url", "url": "https://example.com/verify", "message": "Open",
                   "elicitationId": "e-1"}});
    let e = serde_json::from_value::<mcp_typed::v2025_06_18::ServerRequest>(url.clone())
        .unwrap_err()
        .to_string();
    assert!(e.contains("`requestedSchema`"), "{e}");
    let newer: mcp_typed::v2025_11_25::ServerRequest = serde_json::from_value(url).unwrap();
    assert!(!newer.has_unknowns());
}

// ---------------------------------------------------------------------------------------------
// Decimal answers (erratum elicit-content-numbers)

#[derive(Elicit, Debug, PartialEq)]
#[elicit(rename_all = "camelCase")]
struct Measure {
    #[elicit(minimum = 0, maximum = 300)]
    height_cm: f64,
    #[elicit(default = 3.14)]
    ratio: f64,
    count: i64,
}

/// A server reads `35.5` and an echoed `3.14` default into `f64` fields through the
/// generated `ElicitResult` of each revision with elicitation; integers stay integers.
#[test]
fn decimal_answers_decode_through_every_generated_elicit_result() {
    let answer = r#"{"action":"accept","content":{"heightCm":35.5,"ratio":3.14,"count":7}}"#;
    let expected = Measure {
        height_cm: 35.5,
        ratio: 3.14,
        count: 7,
    };
    macro_rules! check {
        ($m:ident) => {{
            let result: mcp_typed::$m::ElicitResult =
                serde_json::from_str(answer).unwrap_or_else(|e| panic!("{}: {e}", stringify!($m)));
            assert_eq!(serde_json::to_string(&result).unwrap(), answer);
            assert!(!result.has_unknowns());
            match Measure::outcome(&result).unwrap() {
                ElicitOutcome::Accepted(m) => assert_eq!(m, expected, "{}", stringify!($m)),
                other => panic!("{other:?}"),
            }
        }};
    }
    check!(v2025_06_18);
    check!(v2025_11_25);
    check!(v2026_07_28);
    check!(draft);
    // 2026-07-28: the same answer inside a retried request's `inputResponses`.
    let responses: mcp_typed::v2026_07_28::InputResponses =
        serde_json::from_str(&format!(r#"{{"ask":{answer}}}"#)).unwrap();
    match Measure::outcome(&responses["ask"]).unwrap() {
        ElicitOutcome::Accepted(m) => assert_eq!(m, expected),
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Member order

#[derive(Elicit, Debug)]
#[elicit(rename_all = "camelCase")]
#[allow(dead_code)] // only its form is used
struct Ordered {
    zebra: String,
    middle: bool,
    alpha: i64,
    #[elicit(title = "Beta")]
    beta: Option<String>,
}

/// A derived form sent through the generic envelope (`JsonRpcRequest.params` is a raw JSON
/// object) keeps its fields in declaration order, and the tag leads.
#[test]
fn a_form_through_the_generic_request_keeps_its_field_order() {
    let params = Ordered::form_params("Fill in", ProtocolVersion::V2025_11_25).unwrap();
    let Value::Object(params) = params.to_value() else {
        panic!()
    };
    let request = mcp_typed::v2025_11_25::JsonRpcRequest {
        id: mcp_typed::v2025_11_25::RequestId::Integer(1),
        method: "elicitation/create".to_owned(),
        params: Some(params.into()),
        extra: Default::default(),
    };
    let text = serde_json::to_string(&request).unwrap();
    let order = |keys: &[&str]| {
        let at: Vec<usize> = keys.iter().map(|k| text.find(k).unwrap()).collect();
        assert!(
            at.windows(2).all(|w| w[0] < w[1]),
            "{keys:?} out of order in {text}"
        );
    };
    order(&["\"zebra\"", "\"middle\"", "\"alpha\"", "\"beta\""]);
    order(&["\"jsonrpc\"", "\"method\"", "\"params\""]);
    // And back: decoding keeps the order too.
    let back: mcp_typed::v2025_11_25::JsonRpcRequest = serde_json::from_str(&text).unwrap();
    assert_eq!(serde_json::to_string(&back).unwrap(), text);
}
