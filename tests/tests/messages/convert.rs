//! `mcp_typed::convert`: values moved between revisions, losslessly up, with every dropped
//! member listed down, and errors naming the JSON path where a value has no meaning.

use mcp_tests::workspace;
use mcp_typed::Unknowns as _;
use mcp_typed::convert::{self, ConversionError};
use mcp_typed::{v2024_11_05 as r1, v2025_06_18 as r3, v2025_11_25 as r4, v2026_07_28 as r5};
use serde_json::{Value, json};

#[test]
fn a_newer_tool_downgrades_listing_what_is_dropped_and_upgrades_back() {
    let tool = json!({"name": "book", "title": "Book", "icons": [{"src": "https://a.example/i.png"}],
        "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"},
        "x-vendor": 1});
    let new: r4::Tool = serde_json::from_value(tool.clone()).unwrap();
    let down = convert::downgrade::<r3::Tool>(&new).unwrap();
    // What 2025-06-18 lacks is dropped and listed (in encoding order); the vendor member,
    // unknown to both, stays.
    assert_eq!(down.dropped, ["/icons", "/execution"]);
    let old = serde_json::to_value(&down.value).unwrap();
    let mut expected = tool.clone();
    for p in ["icons", "execution"] {
        expected.as_object_mut().unwrap().remove(p);
    }
    assert_eq!(old, expected);
    // And back up: nothing else lost.
    let back: r4::Tool = convert::upgrade(&down.value).unwrap();
    assert_eq!(serde_json::to_value(&back).unwrap(), expected);
}

#[test]
fn a_value_without_meaning_in_the_older_revision_is_an_error_naming_its_path() {
    let result: r3::CallToolResult = serde_json::from_value(json!({"content": [
        {"type": "text", "text": "a"},
        {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"}]}))
    .unwrap();
    let e = convert::downgrade::<r1::CallToolResult>(&result).unwrap_err();
    assert_eq!(e.pointer, "/content/1");
    assert!(e.message.contains("\"audio\""), "{e}");
    // A URL-mode elicitation has no form for 2025-06-18 to require.
    let url: r4::ElicitRequestParams = serde_json::from_value(json!({"mode": "url",
        "message": "Open", "url": "https://a.example", "elicitationId": "e"}))
    .unwrap();
    let e = convert::downgrade::<r3::ElicitRequestParams>(&url).unwrap_err();
    assert!(e.message.contains("`requestedSchema`"), "{e}");
    // Upgrading fails where the newer revision requires what the value lacks.
    let read: r4::ReadResourceResult =
        serde_json::from_value(json!({"contents": [{"uri": "file:///a", "text": "x"}]})).unwrap();
    let e: ConversionError = convert::upgrade::<r5::ReadResourceResult>(&read).unwrap_err();
    assert!(
        e.message.contains("ttlMs") || e.message.contains("cacheScope"),
        "{e}"
    );
}

/// Every message of the real 2025-06-18 sessions that is a 2025-06-18 message to the letter
/// (nothing unknown) upgrades to 2025-11-25 and comes back unchanged with nothing dropped (the
/// others still upgrade); every message of the 2025-11-25 sessions downgrades to
/// 2025-06-18 (or fails naming a path) and, upgraded again, is the original without exactly
/// the dropped members.
#[test]
fn real_traffic_crosses_revisions_losslessly() {
    let (mut crossed, mut refused) = (0, 0);
    for pairing in [
        "py-client-everything",
        "ts-client-everything",
        "ts-client-py-server",
        "py-client-py-server",
    ] {
        for (dir, msg) in lines(&format!("{pairing}-2025-06-18.jsonl")) {
            let text = msg.to_string();
            macro_rules! up_and_back {
                ($old:ty, $new:ty) => {{
                    let Ok(old) = serde_json::from_str::<$old>(&text) else {
                        continue;
                    };
                    let new: $new =
                        convert::upgrade(&old).unwrap_or_else(|e| panic!("{text}: {e}"));
                    if old.has_unknowns() {
                        // Sent past 2025-06-18 (a multi-select form…): in 2025-11-25 it means
                        // something, so it does not go back unnoticed.
                        continue;
                    }
                    let down =
                        convert::downgrade::<$old>(&new).unwrap_or_else(|e| panic!("{text}: {e}"));
                    assert_eq!(down.dropped, Vec::<String>::new(), "{text}");
                    assert_eq!(serde_json::to_value(&down.value).unwrap(), msg, "{text}");
                }};
            }
            if dir == "c2s" {
                up_and_back!(r3::ClientMessage, r4::ClientMessage);
            } else {
                up_and_back!(r3::ServerMessage, r4::ServerMessage);
            }
            crossed += 1;
        }
        for (dir, msg) in lines(&format!("{pairing}-2025-11-25.jsonl")) {
            let text = msg.to_string();
            macro_rules! down_and_up {
                ($new:ty, $old:ty) => {{
                    let new: $new = serde_json::from_str(&text).unwrap();
                    match convert::downgrade::<$old>(&new) {
                        Ok(down) => {
                            let up: $new = convert::upgrade(&down.value).unwrap();
                            let mut expected = msg.clone();
                            for p in &down.dropped {
                                let (parent, key) = p.rsplit_once('/').unwrap();
                                expected
                                    .pointer_mut(parent)
                                    .unwrap()
                                    .as_object_mut()
                                    .unwrap()
                                    .shift_remove(key);
                            }
                            assert_eq!(serde_json::to_value(&up).unwrap(), expected, "{text}");
                        }
                        // A 2025-11-25 shape that 2025-06-18 cannot hold: named by path.
                        Err(e) => {
                            assert!(
                                !e.pointer.is_empty() || e.message.contains('`'),
                                "{text}: the error names no path or member: {e}"
                            );
                            refused += 1;
                        }
                    }
                }};
            }
            if dir == "c2s" {
                down_and_up!(r4::ClientMessage, r3::ClientMessage);
            } else {
                down_and_up!(r4::ServerMessage, r3::ServerMessage);
            }
            crossed += 1;
        }
    }
    assert!(crossed > 800, "{crossed} messages crossed");
    // Task messages and URL-mode elicitations, which 2025-06-18 has no place for.
    assert!(refused * 10 < crossed, "{refused} of {crossed} refused");
}

fn lines(file: &str) -> Vec<(String, Value)> {
    std::fs::read_to_string(workspace().join("tests/fixtures/real-traffic").join(file))
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["dir"].as_str().unwrap().to_owned(), v["msg"].clone())
        })
        .collect()
}

/// What revisions replaced rather than changed is refused with what to do instead.
#[test]
fn structural_changes_are_refused_saying_what_to_do_instead() {
    let init: r4::ClientMessage = serde_json::from_value(json!({"jsonrpc": "2.0", "id": 1,
        "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "c", "version": "1"}}}))
    .unwrap();
    let e = convert::upgrade::<r5::ClientMessage>(&init).unwrap_err();
    assert!(
        e.message.contains("`initialize`") && e.message.contains("server/discover"),
        "{e}"
    );
    let tasks: r4::ClientMessage = serde_json::from_value(
        json!({"jsonrpc": "2.0", "id": 2, "method": "tasks/get", "params": {"taskId": "t"}}),
    )
    .unwrap();
    let e = convert::upgrade::<r5::ClientMessage>(&tasks).unwrap_err();
    assert!(e.message.contains("tasks exist in 2025-11-25 only"), "{e}");
    let elicit: r4::ServerMessage = serde_json::from_value(json!({"jsonrpc": "2.0", "id": 3,
        "method": "elicitation/create", "params": {"message": "m", "requestedSchema":
        {"type": "object", "properties": {}}}}))
    .unwrap();
    let e = convert::upgrade::<r5::ServerMessage>(&elicit).unwrap_err();
    assert!(e.message.contains("InputRequiredResult"), "{e}");
}

/// An error response without an id (2025-11-25 writes none when the request's id could not
/// be read) downgrades with `"id": null`, which 2025-06-18 requires, and comes back without.
#[test]
fn an_error_without_an_id_downgrades_with_a_null_id() {
    let new = mcp_typed::v2025_11_25::ServerMessage::error(None, -32700, "Parse error");
    let old = convert::downgrade::<mcp_typed::v2025_06_18::ServerMessage>(&new).unwrap();
    assert!(old.dropped.is_empty());
    assert_eq!(
        serde_json::to_string(&old.value).unwrap(),
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#
    );
    let back = convert::upgrade::<mcp_typed::v2025_11_25::ServerMessage>(&old.value).unwrap();
    assert_eq!(back, new);
    // With an id, nothing changes.
    let new = mcp_typed::v2025_11_25::ServerMessage::error(Some(5.into()), -32602, "bad");
    let old = convert::downgrade::<mcp_typed::v2025_06_18::ServerMessage>(&new).unwrap();
    assert_eq!(serde_json::to_value(&old.value).unwrap()["id"], 5);
}
