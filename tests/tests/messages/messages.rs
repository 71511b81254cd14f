//! Constructors and the typed messages per direction (`ClientMessage`, `ServerMessage`).

use mcp_tests::workspace;
use serde_json::Value;

/// The lines of the issue, unchanged.
#[test]
fn a_server_builds_and_reads_messages_in_a_few_lines() {
    use mcp_typed::v2025_11_25::*;
    let text = CallToolResult::new(vec![TextContent::new("booked").into()]);
    let reply = ServerMessage::response(RequestId::from(7), text.clone());
    let line = serde_json::to_string(&reply).unwrap();
    let back: ServerMessage = serde_json::from_str(&line).unwrap();
    let ServerMessage::Response(resp) = back else {
        panic!()
    };
    assert_eq!(resp.result_as::<CallToolRequest>().unwrap(), text);
    let incoming: ClientMessage = serde_json::from_str(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"book_table","arguments":{"date":"2026-12-24"}}}"#).unwrap();
    assert!(matches!(
        incoming,
        ClientMessage::Request(ClientRequest::CallTool(_))
    ));
    let err = ServerMessage::error(None, INVALID_PARAMS, "bad date");
    assert_eq!(
        serde_json::to_value(&err).unwrap()["id"],
        serde_json::Value::Null
    );
}

#[test]
fn messages_encode_exactly_and_tags_come_first() {
    use mcp_typed::v2025_11_25::*;
    let reply = ServerMessage::response(
        7,
        CallToolResult::new(vec![TextContent::new("booked").into()]).with_is_error(false),
    );
    assert_eq!(
        serde_json::to_string(&reply).unwrap(),
        r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"booked"}],"isError":false}}"#
    );
    let err = ServerMessage::error(Some("r-1".into()), METHOD_NOT_FOUND, "no such method");
    assert_eq!(
        serde_json::to_string(&err).unwrap(),
        r#"{"jsonrpc":"2.0","id":"r-1","error":{"code":-32601,"message":"no such method"}}"#
    );
    let ping = ServerMessage::request(PingRequest::new(3));
    assert_eq!(
        serde_json::to_string(&ping).unwrap(),
        r#"{"jsonrpc":"2.0","method":"ping","id":3}"#
    );
    assert_eq!(RequestId::from("a").to_string(), "a");
    assert_eq!(RequestId::from(12).to_string(), "12");
    assert_eq!(URL_ELICITATION_REQUIRED, -32042);
}

/// Before 2025-11-25 the request types do not hold `jsonrpc` and `id`: the message does, and
/// nothing ends up among the request's unknown members.
#[test]
fn older_revisions_keep_the_envelope_in_the_message() {
    use mcp_typed::Unknowns as _;
    use mcp_typed::v2024_11_05::*;
    let line = r#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"x"}}"#;
    let m: ClientMessage = serde_json::from_str(line).unwrap();
    let ClientMessage::Request(id, ClientRequest::CallTool(call)) = &m else {
        panic!("{m:?}")
    };
    assert_eq!(id, &RequestId::from("a"));
    assert_eq!(call.params.name, "x");
    assert!(!m.has_unknowns(), "{:?}", m.unknowns());
    assert_eq!(serde_json::to_string(&m).unwrap(), line);
    // Member order on the wire does not matter.
    let shuffled = r#"{"params":{"name":"x"},"method":"tools/call","id":"a","jsonrpc":"2.0"}"#;
    assert_eq!(serde_json::from_str::<ClientMessage>(shuffled).unwrap(), m);
    // Requests are told from notifications by their method, unknown ones by their id.
    let n: ClientMessage =
        serde_json::from_str(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).unwrap();
    assert!(matches!(
        n,
        ClientMessage::Notification(ClientNotification::Initialized(_))
    ));
    let c: ClientMessage =
        serde_json::from_str(r#"{"jsonrpc":"2.0","id":4,"method":"x/y","params":{}}"#).unwrap();
    assert!(
        matches!(c, ClientMessage::Request(_, ClientRequest::Custom(_))),
        "{c:?}"
    );
    let c: ClientMessage = serde_json::from_str(r#"{"jsonrpc":"2.0","method":"x/y"}"#).unwrap();
    assert!(
        matches!(
            c,
            ClientMessage::Notification(ClientNotification::Custom(_))
        ),
        "{c:?}"
    );
    // Errors name what is wrong.
    for (bad, needle) in [
        (r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#, "\"1.0\""),
        (r#"{"id":1,"method":"ping"}"#, "`jsonrpc`"),
        (r#"{"jsonrpc":"2.0","method":"ping"}"#, "`id`"),
        (
            r#"{"jsonrpc":"2.0","id":1}"#,
            "no `method`, `result` or `error`",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#,
            "`name`",
        ),
    ] {
        let e = serde_json::from_str::<ClientMessage>(bad)
            .unwrap_err()
            .to_string();
        assert!(e.contains(needle), "{bad}: {e}");
    }
}

// ---------------------------------------------------------------------------------------------
// The one-pass decode agrees with the two-step path on every message we have

/// What the two-step path says a message is: its JSON-RPC kind and, for requests and
/// notifications, the typed variant's re-encoding.
fn two_step<M, Req, Note>(text: &str, envelope: &Value) -> (String, Value)
where
    Req: serde::de::DeserializeOwned + serde::Serialize + std::fmt::Debug,
    Note: serde::de::DeserializeOwned + serde::Serialize + std::fmt::Debug,
{
    let _ = std::marker::PhantomData::<M>;
    if envelope.get("method").is_some() {
        if envelope.get("id").is_some() {
            let r: Req = serde_json::from_str(text).unwrap();
            return (variant(&r), serde_json::to_value(&r).unwrap());
        }
        let n: Note = serde_json::from_str(text).unwrap();
        return (variant(&n), serde_json::to_value(&n).unwrap());
    }
    let kind = if envelope.get("error").is_some() {
        "Error"
    } else {
        "Response"
    };
    (kind.to_owned(), envelope.clone())
}

/// The variant name a `Debug` rendering starts with, one level into a message.
fn variant<T: std::fmt::Debug>(v: &T) -> String {
    let s = format!("{v:?}");
    s.split(['(', ' ', '{']).next().unwrap_or("").to_owned()
}

macro_rules! agree {
    ($m:ident, $lines:expr) => {{
        use mcp_typed::$m as m;
        let mut checked = 0;
        for (dir, text) in $lines {
            let envelope: Value = serde_json::from_str(&text).unwrap();
            let what = format!("{} {}: {text}", stringify!($m), dir);
            match dir {
                "c2s" => {
                    let msg: m::ClientMessage =
                        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{what}: {e}"));
                    let (kind, _) =
                        two_step::<(), m::ClientRequest, m::ClientNotification>(&text, &envelope);
                    check_agreement(&what, &msg, &kind, &envelope);
                }
                _ => {
                    let msg: m::ServerMessage =
                        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{what}: {e}"));
                    let kind = if envelope.get("method").is_some() && envelope.get("id").is_some() {
                        // Server requests: `ServerRequest`, or none in revisions whose
                        // servers send none (then the line is not a ServerMessage at all).
                        variant_of_server_request!($m, &text)
                    } else {
                        two_step::<(), m::ClientRequest, m::ServerNotification>(&text, &envelope).0
                    };
                    check_agreement(&what, &msg, &kind, &envelope);
                }
            }
            checked += 1;
        }
        checked
    }};
}

macro_rules! variant_of_server_request {
    (v2026_07_28, $text:expr) => {
        panic!("2026-07-28 servers send no requests")
    };
    (draft, $text:expr) => {
        panic!("draft servers send no requests")
    };
    ($m:ident, $text:expr) => {
        variant(&serde_json::from_str::<mcp_typed::$m::ServerRequest>($text).unwrap())
    };
}

/// The message decodes to the same typed variant and re-encodes to the same JSON.
fn check_agreement<T: serde::Serialize + std::fmt::Debug>(
    what: &str,
    msg: &T,
    kind: &str,
    envelope: &Value,
) {
    let rendered = format!("{msg:?}");
    assert!(
        rendered.contains(&format!("{kind}(")),
        "{what}: decoded as {}, the two-step path says {kind}",
        &rendered[..rendered.len().min(120)]
    );
    assert_eq!(&serde_json::to_value(msg).unwrap(), envelope, "{what}");
}

/// `(dir, message text)` of a captured real-traffic file.
fn captured(file: &str) -> Vec<(&'static str, String)> {
    let text = std::fs::read_to_string(workspace().join("tests/fixtures/real-traffic").join(file))
        .unwrap();
    text.lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let dir = if v["dir"] == "c2s" { "c2s" } else { "s2c" };
            (dir, v["msg"].to_string())
        })
        .collect()
}

/// Lines that are a newer revision's shape on an older session (see
/// ../checker/validate_traffic.rs): they are not messages of the negotiated revision.
fn decodable_in<T: serde::de::DeserializeOwned>(
    lines: Vec<(&'static str, String)>,
) -> Vec<(&'static str, String)> {
    lines
        .into_iter()
        .filter(|(_, t)| serde_json::from_str::<T>(t).is_ok())
        .collect()
}

#[test]
fn one_pass_decode_agrees_with_the_two_step_path_on_real_traffic() {
    let mut total = 0;
    for (revision, files) in [
        (
            "2024-11-05",
            [
                "py-client-everything",
                "ts-client-everything",
                "ts-client-py-server",
                "py-client-py-server",
            ],
        ),
        (
            "2025-03-26",
            [
                "py-client-everything",
                "ts-client-everything",
                "ts-client-py-server",
                "py-client-py-server",
            ],
        ),
        (
            "2025-06-18",
            [
                "py-client-everything",
                "ts-client-everything",
                "ts-client-py-server",
                "py-client-py-server",
            ],
        ),
        (
            "2025-11-25",
            [
                "py-client-everything",
                "ts-client-everything",
                "ts-client-py-server",
                "py-client-py-server",
            ],
        ),
    ] {
        for f in files {
            let lines = captured(&format!("{f}-{revision}.jsonl"));
            total += match revision {
                "2024-11-05" => agree!(
                    v2024_11_05,
                    decodable_in::<mcp_typed::v2024_11_05::JsonRpcMessage>(lines)
                ),
                "2025-03-26" => agree!(
                    v2025_03_26,
                    decodable_in::<mcp_typed::v2025_03_26::JsonRpcMessage>(lines)
                ),
                "2025-06-18" => agree!(
                    v2025_06_18,
                    lines
                        .into_iter()
                        .filter(|(d, t)| {
                            // The URL-mode elicitation request that 2025-06-18 cannot hold.
                            !(*d == "s2c"
                                && serde_json::from_str::<mcp_typed::v2025_06_18::ServerRequest>(t)
                                    .is_err()
                                && t.contains("\"mode\":\"url\""))
                        })
                        .collect::<Vec<_>>()
                ),
                _ => agree!(v2025_11_25, lines),
            };
        }
    }
    let lines = captured("py-client-py-server-2026-07-28.jsonl");
    total += agree!(v2026_07_28, lines);
    assert!(total > 1900, "{total} messages compared");
}

macro_rules! official_examples_agree {
    ($m:ident, $revision:literal) => {{
        use mcp_typed::$m as m;
        let mut checked = 0;
        for (def, file, json) in mcp_tests::spec_examples($revision) {
            if json.get("jsonrpc").is_none() {
                continue;
            }
            let what = format!("{} {def}/{file}", $revision);
            let text = json.to_string();
            let has = |k: &str| json.get(k).is_some();
            let client = serde_json::from_str::<m::ClientMessage>(&text);
            let server = serde_json::from_str::<m::ServerMessage>(&text);
            // Which side sends it, by the two-step path: the union that knows the method.
            let (rendered, encoded) = if has("method") && has("id") {
                let r: m::ClientRequest = serde_json::from_str(&text).unwrap();
                assert!(
                    !matches!(r, m::ClientRequest::Custom(_)),
                    "{what}: not a client request"
                );
                let msg = client.unwrap_or_else(|e| panic!("{what}: {e}"));
                assert!(
                    format!("{msg:?}").contains(&format!("Request({}(", variant(&r))),
                    "{what}: {msg:?}"
                );
                (format!("{msg:?}"), serde_json::to_value(&msg).unwrap())
            } else if has("method") {
                match serde_json::from_str::<m::ServerNotification>(&text) {
                    Ok(n) if !format!("{n:?}").starts_with("Custom") => {
                        let msg = server.unwrap_or_else(|e| panic!("{what}: {e}"));
                        (format!("{msg:?}"), serde_json::to_value(&msg).unwrap())
                    }
                    _ => {
                        let msg = client.unwrap_or_else(|e| panic!("{what}: {e}"));
                        (format!("{msg:?}"), serde_json::to_value(&msg).unwrap())
                    }
                }
            } else {
                // Responses and errors read the same from either side.
                let c = client.unwrap_or_else(|e| panic!("{what}: {e}"));
                let s = server.unwrap_or_else(|e| panic!("{what}: {e}"));
                let kind = if has("error") { "Error(" } else { "Response(" };
                assert!(format!("{s:?}").starts_with(kind), "{what}: {s:?}");
                assert_eq!(serde_json::to_value(&s).unwrap(), json, "{what}");
                (format!("{c:?}"), serde_json::to_value(&c).unwrap())
            };
            assert!(!rendered.contains("Custom("), "{what}: {rendered}");
            assert_eq!(encoded, json, "{what}");
            checked += 1;
        }
        checked
    }};
}

/// Every full message among the official examples decodes in one pass into the variant the
/// two-step path (envelope, then the side's union) gives, and re-encodes unchanged.
#[test]
fn one_pass_decode_agrees_with_the_two_step_path_on_the_official_examples() {
    let n = official_examples_agree!(v2026_07_28, "2026-07-28")
        + official_examples_agree!(draft, "draft");
    assert_eq!(n, 64, "example messages (32 per revision)");
}

/// A typed result goes into the schema's generic response envelope as it is.
#[test]
fn typed_results_convert_into_the_generic_envelope() {
    use mcp_typed::v2025_11_25::*;
    let result = CallToolResult::new(vec![TextContent::new("booked").into()]);
    let envelope = JsonRpcResultResponse::new(7, result.clone());
    assert_eq!(
        serde_json::to_value(&envelope).unwrap(),
        serde_json::to_value(ServerMessage::response(7, result)).unwrap()
    );
}

/// A tool's `inputSchema` from a Rust type (feature `schemars`), as rmcp users write it.
#[test]
fn tool_input_schema_from_a_schemars_type() {
    use mcp_typed::ToolSchema as _;
    use mcp_typed::v2025_11_25::*;
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct BookArgs {
        /// The day to book
        date: String,
        guests: Option<u8>,
    }
    let schema = ToolInputSchema::for_type::<BookArgs>().unwrap();
    assert_eq!(schema.required.as_deref(), Some(&["date".to_owned()][..]));
    let props = schema.properties.as_ref().unwrap();
    assert_eq!(props.keys().collect::<Vec<_>>(), ["date", "guests"]);
    assert_eq!(props["date"]["description"], "The day to book");
    // `$schema` and `title` are kept, and the tool encodes as one object schema.
    let tool = Tool::new("book_table", schema);
    let json = serde_json::to_value(&tool).unwrap();
    assert_eq!(json["inputSchema"]["type"], "object");
    assert_eq!(json["inputSchema"]["title"], "BookArgs");
    // Not an object schema: an error, not a broken tool.
    assert!(ToolInputSchema::for_type::<String>().is_err());
    assert!(ToolInputSchema::from_json(serde_json::json!({"type": "string"})).is_err());
}

/// Members read before a union's tag (`mode` written last, as the SDKs do) are buffered; from
/// a string or slice as their text, from a reader or a `Value` as values. Every input path
/// decodes the same value, keeps unknown members in place, and reports a bad buffered member
/// with the message of the tag-first path and one position only.
#[test]
fn members_before_a_late_tag_decode_the_same_from_every_input() {
    use mcp_typed::v2025_11_25::*;
    let form = r#"{"message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"title":"Name","type":"string","minLength":1},"age":{"type":"integer","minimum":0}},"required":["name"]},"mode":"form"}"#;
    let url = r#"{"message":"Sign in","x-later":{"a":[1,2.5,"é\n"]},"url":"https://example.com/a","elicitationId":"e1","mode":"url"}"#;
    for text in [form, url] {
        let from_str: ElicitRequestParams = serde_json::from_str(text).unwrap();
        let from_slice: ElicitRequestParams = serde_json::from_slice(text.as_bytes()).unwrap();
        let from_reader: ElicitRequestParams = serde_json::from_reader(text.as_bytes()).unwrap();
        let value: Value = serde_json::from_str(text).unwrap();
        let from_value: ElicitRequestParams = serde_json::from_value(value).unwrap();
        assert_eq!(from_str, from_slice);
        assert_eq!(from_str, from_reader);
        assert_eq!(from_str, from_value);
        assert_eq!(
            serde_json::to_value(&from_str).unwrap(),
            serde_json::from_str::<Value>(text).unwrap()
        );
    }
    let ElicitRequestParams::Url(url) = serde_json::from_str(url).unwrap() else {
        panic!("`mode: url` picks the url variant")
    };
    assert_eq!(url.extra.keys().collect::<Vec<_>>(), ["x-later"]);
    assert_eq!(url.extra["x-later"]["a"][2], "é\n");

    let bad_late =
        r#"{"message":5,"requestedSchema":{"type":"object","properties":{}},"mode":"form"}"#;
    let bad_first =
        r#"{"mode":"form","message":5,"requestedSchema":{"type":"object","properties":{}}}"#;
    let late = serde_json::from_str::<ElicitRequestParams>(bad_late)
        .unwrap_err()
        .to_string();
    let first = serde_json::from_str::<ElicitRequestParams>(bad_first)
        .unwrap_err()
        .to_string();
    // The same error whether the tag comes first or last, naming the member by its pointer.
    assert_eq!(
        late,
        "invalid type: integer `5`, expected a string at `/message`"
    );
    assert_eq!(late, first);
    // A bad member nested in one read before the tag: its whole pointer.
    let nested = r#"{"message":"m","requestedSchema":{"type":"object","properties":{"n":{"type":"string","minLength":"1"}}},"mode":"form"}"#;
    let err = serde_json::from_str::<ElicitRequestParams>(nested)
        .unwrap_err()
        .to_string();
    assert!(
        err.ends_with(" at `/requestedSchema/properties/n/minLength`"),
        "{err}"
    );
    assert!(
        serde_json::from_value::<ElicitRequestParams>(serde_json::from_str(nested).unwrap())
            .is_err()
    );
}

/// What a tool handler writes every time: the request's method, its arguments as the tool's
/// own type (errors naming the argument), a text result or a failed one; and a request built
/// with its one id.
#[test]
fn a_tool_handler_reads_arguments_and_answers_in_one_line_each() {
    use mcp_typed::v2025_11_25::*;
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Booking {
        date: String,
        guests: u32,
    }
    let line = r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"book","arguments":{"date":"2026-12-24","guests":"four"}}}"#;
    let Ok(ClientMessage::Request(request)) = ClientMessage::from_json(line) else {
        panic!("a request")
    };
    assert_eq!(request.method(), "tools/call");
    let ClientRequest::CallTool(call) = request else {
        panic!("tools/call")
    };
    let e = call.params.arguments_as::<Booking>().unwrap_err();
    assert_eq!(e.path, "guests");
    let reply = ServerMessage::response(call.id, CallToolResult::error(e.to_string()));
    let sent = serde_json::to_value(&reply).unwrap();
    assert_eq!(sent["id"], 9);
    assert_eq!(sent["result"]["isError"], true);
    assert!(
        sent["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("tool \"book\": arguments at guests: invalid type: string \"four\"")
    );
    let ok = CallToolRequestParams::new("book").with_arguments(
        serde_json::json!({"date": "d", "guests": 2})
            .as_object()
            .unwrap()
            .clone(),
    );
    assert_eq!(
        ok.arguments_as::<Booking>().unwrap(),
        Booking {
            date: "d".into(),
            guests: 2
        }
    );
    assert_eq!(
        serde_json::to_value(CallToolResult::text("booked")).unwrap(),
        serde_json::json!({"content": [{"type": "text", "text": "booked"}]})
    );
    // A client reads the text blocks back, in order, skipping other kinds.
    let mixed: CallToolResult = serde_json::from_value(serde_json::json!({"content": [
        {"type": "text", "text": "one"},
        {"type": "image", "data": "AA==", "mimeType": "image/png"},
        {"type": "text", "text": "two"}
    ]}))
    .unwrap();
    assert_eq!(mixed.texts().collect::<Vec<_>>(), ["one", "two"]);
    // 2026-07-28's results say they are complete.
    assert_eq!(
        serde_json::to_value(mcp_typed::v2026_07_28::CallToolResult::text("ok")).unwrap(),
        serde_json::json!({"resultType": "complete", "content": [{"type": "text", "text": "ok"}]})
    );
    // A custom method keeps its name; notifications have one too.
    let Ok(ClientMessage::Request(custom)) =
        ClientMessage::from_json(r#"{"jsonrpc":"2.0","id":1,"method":"x/y"}"#)
    else {
        panic!("a request")
    };
    assert_eq!(custom.method(), "x/y");
    assert_eq!(
        ClientNotification::from(InitializedNotification::new()).method(),
        "notifications/initialized"
    );
    // The request holds its id; the message takes it from there.
    let ping = ClientMessage::request(PingRequest::new("p-1"));
    assert_eq!(serde_json::to_value(&ping).unwrap()["id"], "p-1");
    // Older revisions keep the id in the message.
    let old = mcp_typed::v2025_06_18::ClientMessage::request(
        5,
        mcp_typed::v2025_06_18::PingRequest::new(),
    );
    assert_eq!(serde_json::to_value(&old).unwrap()["id"], 5);
}

/// An error response's id is one `Option` in every revision: from 2025-11-25 on the member
/// is optional, and the errata also allow JSON-RPC 2.0's `"id": null`; both read as `None`,
/// which is written as the schema spells it: absent from 2025-11-25 on, `null` before (the
/// member is required there).
#[test]
fn an_error_without_an_id_reads_the_same_absent_or_null() {
    use mcp_typed::v2025_11_25::*;
    let absent = r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#;
    let null = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#;
    let with = r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32700,"message":"Parse error"}}"#;
    for (text, id) in [
        (absent, None),
        (null, None),
        (with, Some(RequestId::from(7))),
    ] {
        let Ok(ClientMessage::Error(e)) = ClientMessage::from_json(text) else {
            panic!("not an error response: {text}");
        };
        assert_eq!(e.id, id, "{text}");
    }
    let sent = ServerMessage::error(None, PARSE_ERROR, "Parse error");
    assert_eq!(serde_json::to_string(&sent).unwrap(), absent);
    let e = JsonRpcErrorResponse::new(Error::new(PARSE_ERROR, "x")).with_id(3);
    assert_eq!(e.id, Some(RequestId::from(3)));
    let older = mcp_typed::v2025_06_18::ServerMessage::error(
        None,
        mcp_typed::v2025_06_18::PARSE_ERROR,
        "Parse error",
    );
    assert_eq!(serde_json::to_string(&older).unwrap(), null);
}

/// Every decoded request has an id to answer: a custom method's request is refused like a
/// typed one when its `id` is no request id, with the error JSON-RPC prescribes.
#[test]
fn a_custom_request_has_a_valid_id_or_is_refused() {
    use mcp_typed::v2025_11_25::*;
    let ok = r#"{"jsonrpc":"2.0","id":"a","method":"x/y"}"#;
    let Ok(ClientMessage::Request(request)) = ClientMessage::from_json(ok) else {
        panic!("a custom request")
    };
    assert_eq!(
        ClientMessage::request_id(&request),
        Some(RequestId::from("a"))
    );
    for bad in [
        r#"{"jsonrpc":"2.0","id":{"x":1},"method":"x/y"}"#,
        r#"{"jsonrpc":"2.0","id":null,"method":"x/y"}"#,
        r#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#,
    ] {
        let e = ClientMessage::from_json(bad).unwrap_err();
        assert!(e.to_string().contains("id"), "{bad}: {e}");
        let reply = serde_json::to_value(e.reply()).unwrap();
        assert_eq!(reply["error"]["code"], INVALID_REQUEST, "{bad}");
        assert_eq!(reply["id"], Value::Null, "{bad}");
    }
}
