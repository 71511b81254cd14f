//! What `ServerSession` decides for the handler: it asks for a form only a client that
//! declared form elicitation, answers a method the session's revision does not define itself,
//! shows every line to an observer, and knows its revision in 2026-07-28 too. Driven line by
//! line through `receive`, with a handler that counts what reaches it.

use std::sync::{Arc, Mutex};

use mcp_tests::guests;
use mcp_typed::ProtocolVersion;
use mcp_typed::session::{Context, Direction, Handler, Info, Refusal, ServerSession};
use mcp_typed::v2025_11_25 as mcp;
use serde_json::{Value, json};

/// `ask` asks for `Guests` (and says whether it could have); `book` reads its arguments with
/// `?`; every request that reaches the handler is counted by method.
#[derive(Default)]
struct Tools {
    reached: Vec<String>,
}

impl Handler for Tools {
    fn request(
        &mut self,
        request: &mcp::ClientRequest,
        cx: &mut Context<'_>,
    ) -> Result<mcp::ServerResult, Refusal> {
        self.reached.push(request.method().to_owned());
        match request {
            mcp::ClientRequest::CallTool(call) if call.params.name == "ask" => guests::ask(cx),
            mcp::ClientRequest::CallTool(call) if call.params.name == "book" => guests::book(call),
            mcp::ClientRequest::CallTool(_) => {
                Ok(mcp::CallToolResult::text(format!("can elicit: {}", cx.can_elicit())).into())
            }
            _ => Ok(mcp::McpResult::new().into()),
        }
    }
}

fn session() -> ServerSession<Tools> {
    let info = Info::new(
        mcp::Implementation::new("rules", "1"),
        mcp::ServerCapabilities::new().with_tools(mcp::ServerCapabilitiesTools::new()),
    );
    ServerSession::new(info, Tools::default())
}

fn send(s: &mut ServerSession<Tools>, message: Value) -> Vec<Value> {
    s.receive(&message.to_string())
        .iter()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// A session at `revision` whose client declared `capabilities`.
fn initialized(revision: &str, capabilities: Value) -> ServerSession<Tools> {
    let mut s = session();
    let init = send(
        &mut s,
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": revision, "capabilities": capabilities,
            "clientInfo": {"name": "t", "version": "1"}}}),
    );
    assert_eq!(init[0]["result"]["protocolVersion"], revision, "{init:?}");
    s
}

fn call(id: i64, tool: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments}})
}

#[test]
fn a_form_is_asked_only_of_a_client_that_declared_form_elicitation() {
    let cases = [
        ("2025-06-18", json!({}), false),
        ("2025-06-18", json!({"elicitation": {}}), true),
        ("2025-11-25", json!({}), false),
        ("2025-11-25", json!({"roots": {}}), false),
        // An empty `elicitation` means form mode; `url` alone excludes it.
        ("2025-11-25", json!({"elicitation": {}}), true),
        ("2025-11-25", json!({"elicitation": {"form": {}}}), true),
        ("2025-11-25", json!({"elicitation": {"url": {}}}), false),
        (
            "2025-11-25",
            json!({"elicitation": {"form": {}, "url": {}}}),
            true,
        ),
    ];
    for (revision, capabilities, declared) in cases {
        let mut s = initialized(revision, capabilities.clone());
        let can = send(&mut s, call(1, "can", json!({})));
        assert_eq!(
            can[0]["result"]["content"][0]["text"],
            format!("can elicit: {declared}"),
            "{revision} {capabilities}"
        );
        assert_eq!(
            s.client_capabilities().map(|c| c.elicitation.is_some()),
            Some(capabilities.get("elicitation").is_some())
        );
        let out = send(&mut s, call(2, "ask", json!({})));
        assert_eq!(out.len(), 1, "{revision} {capabilities}: {out:?}");
        if declared {
            assert_eq!(out[0]["method"], "elicitation/create", "{out:?}");
        } else {
            // Nothing asked: the tool's result says why.
            assert_eq!(out[0]["id"], 2, "{out:?}");
            assert_eq!(out[0]["result"]["isError"], true, "{out:?}");
            let text = out[0]["result"]["content"][0]["text"].as_str().unwrap();
            assert!(text.contains("did not declare form elicitation"), "{text}");
        }
    }
}

fn stateless(id: i64, method: &str, params: Value, capabilities: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    });
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

#[test]
fn a_2026_07_28_form_needs_the_capability_in_the_request() {
    let ask = json!({"name": "ask", "arguments": {}});
    let mut s = session();
    let out = send(&mut s, stateless(1, "tools/call", ask.clone(), json!({})));
    assert_eq!(
        out[0]["error"]["code"],
        mcp_typed::v2026_07_28::MISSING_REQUIRED_CLIENT_CAPABILITY,
        "{out:?}"
    );
    assert_eq!(
        out[0]["error"]["data"],
        json!({"requiredCapabilities": {"elicitation": {}}})
    );
    // The error is 2026-07-28's own type.
    serde_json::from_value::<mcp_typed::v2026_07_28::MissingRequiredClientCapabilityError>(
        out[0].clone(),
    )
    .unwrap();
    let out = send(
        &mut s,
        stateless(2, "tools/call", ask, json!({"elicitation": {}})),
    );
    assert_eq!(out[0]["result"]["resultType"], "input_required", "{out:?}");
}

#[test]
fn a_method_the_revision_does_not_define_is_answered_by_the_session() {
    // 2026-07-28 removed `ping`: not 2025-11-25's ping there.
    let mut s = session();
    let out = send(&mut s, stateless(1, "ping", json!({}), json!({})));
    assert_eq!(out[0]["error"]["code"], -32601, "{out:?}");
    assert_eq!(out[0]["id"], 1);
    // 2025-06-18 has no tasks.
    let mut s = initialized("2025-06-18", json!({}));
    let out = send(
        &mut s,
        json!({"jsonrpc": "2.0", "id": 3, "method": "tasks/get", "params": {"taskId": "t"}}),
    );
    assert_eq!(out[0]["error"]["code"], -32601, "{out:?}");
    assert_eq!(out[0]["id"], 3);
    assert!(
        out[0]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("`tasks/get` is not a method of 2025-06-18"),
        "{out:?}"
    );
    // A method of this revision, and one no revision defines, reach the handler.
    send(
        &mut s,
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list"}),
    );
    send(
        &mut s,
        json!({"jsonrpc": "2.0", "id": 5, "method": "x-vendor/stats"}),
    );
    assert_eq!(s.handler().reached, ["tools/list", "x-vendor/stats"]);
}

#[test]
fn an_observer_sees_every_line_in_and_out() {
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let log = Arc::clone(&seen);
    let mut s = session().observe(move |t| {
        log.lock().unwrap().push(format!(
            "{:?} {} {} {}",
            t.direction,
            t.kind.unwrap_or("-"),
            t.method.unwrap_or("-"),
            t.error.map_or("ok", |_| "undecodable")
        ));
        if t.direction == Direction::In {
            assert!(!t.line.is_empty());
        }
    });
    assert_eq!(s.version(), None);
    s.receive(
        &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "t", "version": "1"}}})
        .to_string(),
    );
    s.receive(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    s.receive(&call(1, "ask", json!({})).to_string());
    s.receive(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":7}}"#);
    s.receive("not json");
    assert_eq!(
        *seen.lock().unwrap(),
        [
            "In request initialize ok",
            "Out response - ok",
            "In notification notifications/initialized ok",
            "In request tools/call ok",
            "Out request elicitation/create ok",
            "In request tools/call undecodable",
            "Out error - ok",
            "In - - undecodable",
            "Out error - ok",
        ]
    );
    assert_eq!(s.version(), Some(ProtocolVersion::V2025_11_25));
}

#[test]
fn a_2026_07_28_session_knows_its_revision() {
    let mut s = session();
    assert_eq!(s.version(), None);
    send(&mut s, stateless(1, "tools/list", json!({}), json!({})));
    assert_eq!(s.version(), Some(ProtocolVersion::V2026_07_28));
}

#[test]
fn a_handler_propagates_an_arguments_error_with_a_question_mark() {
    let mut s = initialized("2025-11-25", json!({}));
    let out = send(&mut s, call(1, "book", json!({"guests": "four"})));
    assert_eq!(out[0]["result"]["isError"], true, "{out:?}");
    let text = out[0]["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("guests"), "{text}");
    let out = send(&mut s, call(2, "book", json!({"guests": 4})));
    assert_eq!(out[0]["result"]["content"][0]["text"], "4 guests");
}
