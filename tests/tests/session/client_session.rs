//! `ClientSession` against the project's own `ServerSession` (in process, line by line) at
//! every revision, and against scripted server lines for what a well-behaved server never
//! sends. The interop tests with real servers are in `tests/tests/peers/client_peers.rs`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_tests::guests;
use mcp_typed::ProtocolVersion;
use mcp_typed::elicit::client::{Form, FormReply, UrlRequest};
use mcp_typed::session::{
    ClientError, ClientHandler, ClientInfo, ClientSession, Context, Handler, Info, Refusal,
    ServerSession,
};
use mcp_typed::v2025_11_25 as mcp;
use serde_json::{Value, json};

/// `ask` asks for `Guests`; `book` echoes its `guests` argument; `tools/list` lists both.
struct Tools;

impl Handler for Tools {
    fn request(
        &mut self,
        request: &mcp::ClientRequest,
        cx: &mut Context<'_>,
    ) -> Result<mcp::ServerResult, Refusal> {
        match request {
            mcp::ClientRequest::ListTools(_) => {
                let schema = mcp::ToolInputSchema::new();
                let tools = ["ask", "book"].map(|name| mcp::Tool::new(name, schema.clone()));
                Ok(mcp::ListToolsResult::new(tools.to_vec()).into())
            }
            mcp::ClientRequest::CallTool(call) if call.params.name == "ask" => guests::ask(cx),
            mcp::ClientRequest::CallTool(call) => guests::book(call),
            other => Err(Refusal::method_not_found(other.method())),
        }
    }
}

fn server(versions: &[ProtocolVersion]) -> ServerSession<Tools> {
    let capabilities =
        mcp::ServerCapabilities::new().with_tools(mcp::ServerCapabilitiesTools::new());
    let info = Info::new(mcp::Implementation::new("tools", "1"), capabilities);
    let info = if versions.is_empty() {
        info
    } else {
        info.with_versions(versions.iter().copied())
    };
    ServerSession::new(info, Tools)
}

/// Fills every form with `count`, and says what it was shown.
#[derive(Default)]
struct Fills {
    count: i64,
    shown: Vec<String>,
    roots: bool,
}

impl ClientHandler for Fills {
    fn form(&mut self, form: &Form) -> FormReply {
        let field = form.field("count").expect("the form has `count`");
        self.shown
            .push(format!("{}: {}", form.message(), field.kind));
        let mut answer = form.answer();
        answer
            .set_integer("count", self.count)
            .expect("an integer field");
        // What a user who types a number out of range sees: the answer is not accepted.
        answer.accept().unwrap_or(FormReply::Cancel)
    }

    fn url(&mut self, request: UrlRequest) -> FormReply {
        self.shown.push(request.shown_url().to_owned());
        request.decline()
    }

    fn roots(&mut self) -> Result<Vec<mcp::Root>, Refusal> {
        self.roots = true;
        Ok(vec![mcp::Root::new("file:///work")])
    }
}

/// Passes lines between the two until neither has anything to say.
fn pump<C: ClientHandler>(
    client: &mut ClientSession<C>,
    server: &mut ServerSession<Tools>,
    lines: Vec<String>,
) {
    let mut to_server = lines;
    while !to_server.is_empty() {
        let to_client: Vec<String> = to_server
            .drain(..)
            .flat_map(|l| server.receive(&l))
            .collect();
        to_server = to_client.iter().flat_map(|l| client.receive(l)).collect();
    }
}

fn connected<C: ClientHandler>(
    info: ClientInfo,
    handler: C,
    server: &mut ServerSession<Tools>,
) -> ClientSession<C> {
    let mut client = ClientSession::new(info, handler);
    let hello = client.connect();
    pump(&mut client, server, hello);
    client
}

fn info() -> ClientInfo {
    ClientInfo::new(mcp::Implementation::new("client", "1"))
}

/// Sends `make`'s request, lets the server answer, and takes the typed result.
fn call<C: ClientHandler, R>(
    client: &mut ClientSession<C>,
    server: &mut ServerSession<Tools>,
    make: impl FnOnce(mcp::RequestId) -> R,
) -> Result<R::Result, ClientError>
where
    R: mcp_typed::RequestMethod + Into<mcp::ClientRequest>,
    R::Result: serde::de::DeserializeOwned,
{
    let (pending, line) = client.request(make)?;
    pump(client, server, vec![line]);
    client.take(&pending).expect("answered")
}

fn tool(name: &str, arguments: Value) -> impl FnOnce(mcp::RequestId) -> mcp::CallToolRequest {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    let params = mcp::CallToolRequestParams::new(name).with_arguments(arguments);
    move |id| mcp::CallToolRequest::new(id, params)
}

fn text(result: &mcp::CallToolResult) -> String {
    let block = serde_json::to_value(&result.content[0]).unwrap();
    block["text"].as_str().unwrap().to_owned()
}

const EVERY: [ProtocolVersion; 5] = [
    ProtocolVersion::V2024_11_05,
    ProtocolVersion::V2025_03_26,
    ProtocolVersion::V2025_06_18,
    ProtocolVersion::V2025_11_25,
    ProtocolVersion::V2026_07_28,
];

#[test]
fn negotiates_each_revision_and_types_each_result() {
    for version in EVERY {
        let mut server = server(&[]);
        let mut client = connected(info().with_versions([version]), (), &mut server);
        assert_eq!(client.version(), Some(version), "{:?}", client.failure());
        assert_eq!(server.version(), Some(version));
        let about = client.server().unwrap();
        assert!(about.capabilities.tools.is_some(), "{version}");
        assert_eq!(
            about.implementation.as_ref().map(|i| i.name.as_str()),
            Some("tools")
        );

        let tools = call(&mut client, &mut server, mcp::ListToolsRequest::new).unwrap();
        let names: Vec<&str> = tools.tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["ask", "book"], "{version}");
        let booked = call(&mut client, &mut server, tool("book", json!({"guests": 3}))).unwrap();
        assert_eq!(text(&booked), "3 guests", "{version}");
        // A refused argument is the tool's error, which the model reads: a result.
        let refused = call(&mut client, &mut server, tool("book", json!({}))).unwrap();
        assert_eq!(refused.is_error, Some(true), "{version}");
        assert!(
            text(&refused).contains("guests"),
            "{version}: {}",
            text(&refused)
        );
    }
}

#[test]
fn prefers_2026_07_28_and_falls_back_to_initialize() {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let seen = lines.clone();
    let mut server = server(&[ProtocolVersion::V2025_11_25, ProtocolVersion::V2025_06_18]);
    let mut client = ClientSession::new(info(), ()).observe(move |t| {
        seen.lock()
            .unwrap()
            .push(format!("{:?} {}", t.direction, t.method.unwrap_or("-")));
    });
    let hello = client.connect();
    pump(&mut client, &mut server, hello);
    assert_eq!(client.version(), Some(ProtocolVersion::V2025_11_25));
    assert_eq!(
        *lines.lock().unwrap(),
        [
            "Out server/discover",
            "In -", // the server's error: it does not serve 2026-07-28
            "Out initialize",
            "In -",
            "Out notifications/initialized",
        ]
    );
}

#[test]
fn takes_the_server_s_counter_offer_only_when_it_speaks_it() {
    let older = [ProtocolVersion::V2025_06_18];
    let mut server1 = server(&older);
    let both = info().with_versions([ProtocolVersion::V2025_11_25, ProtocolVersion::V2025_06_18]);
    let client = connected(both, (), &mut server1);
    assert_eq!(client.version(), Some(ProtocolVersion::V2025_06_18));

    let mut server2 = server(&older);
    let newest = info().with_versions([ProtocolVersion::V2025_11_25]);
    let mut client = connected(newest, (), &mut server2);
    assert_eq!(client.version(), None);
    let why = client.failure().unwrap();
    assert!(
        why.contains("answered `initialize` with 2025-06-18"),
        "{why}"
    );
    let refused = client.request(mcp::ListToolsRequest::new).unwrap_err();
    assert!(matches!(refused, ClientError::NotReady(_)), "{refused}");
}

/// The form a tool asks is shown through the received-form model and answered, whatever the
/// revision: `elicitation/create` up to 2025-11-25, an `input_required` result and a retry in
/// 2026-07-28.
#[test]
fn answers_forms_through_the_form_model_in_every_revision_with_elicitation() {
    for version in [
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ] {
        let mut server = server(&[]);
        let handler = Fills {
            count: 4,
            ..Fills::default()
        };
        let mut client = connected(
            info().with_versions([version]).with_forms(),
            handler,
            &mut server,
        );
        let asked = call(&mut client, &mut server, tool("ask", json!({}))).unwrap();
        assert_eq!(text(&asked), "4 guests", "{version}");
        assert_eq!(
            client.handler().shown,
            ["How many?: a whole number between 1 and 12"],
            "{version}"
        );

        // Out of range: `accept` refuses it, the handler cancels, the tool hears so.
        client.handler().count = 40;
        let cancelled = call(&mut client, &mut server, tool("ask", json!({}))).unwrap();
        assert_eq!(text(&cancelled), "cancelled", "{version}");
    }
}

/// The capability rule, both ways: a server asks forms only of a client that declared them,
/// and a client refuses what it did not declare without asking its handler.
#[test]
fn forms_are_asked_only_of_clients_that_declared_them() {
    for version in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        for (declared, asked) in [
            (info(), false),
            (info().with_forms(), true),
            (info().with_urls(), false),
        ] {
            let mut server = server(&[]);
            let handler = Fills {
                count: 2,
                ..Fills::default()
            };
            let mut client = connected(declared.with_versions([version]), handler, &mut server);
            let result = call(&mut client, &mut server, tool("ask", json!({})));
            if asked {
                assert_eq!(text(&result.unwrap()), "2 guests", "{version}");
            } else if version == ProtocolVersion::V2026_07_28 {
                // That revision's error for a capability the request did not declare.
                let Err(ClientError::Rejected { code, .. }) = result else {
                    panic!("{result:?}")
                };
                assert_eq!(code, -32021, "{version}");
            } else {
                let result = result.unwrap();
                assert_eq!(result.is_error, Some(true));
                assert!(text(&result).contains("did not declare form elicitation"));
            }
            assert_eq!(
                client.handler().shown.len(),
                usize::from(asked),
                "{version}"
            );
        }
    }
}

/// A client connected to a scripted server at `version`, with `info`'s capabilities.
fn scripted<C: ClientHandler>(info: ClientInfo, handler: C) -> ClientSession<C> {
    let mut client =
        ClientSession::new(info.with_versions([ProtocolVersion::V2025_11_25]), handler);
    client.connect();
    let sent = client.receive(
        r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#,
    );
    assert_eq!(
        sent,
        [r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#]
    );
    client
}

fn reply(client: &mut ClientSession<impl ClientHandler>, line: Value) -> Value {
    let sent = client.receive(&line.to_string());
    assert_eq!(sent.len(), 1, "{sent:?}");
    serde_json::from_str(&sent[0]).unwrap()
}

#[test]
fn refuses_server_requests_for_capabilities_it_did_not_declare() {
    let url = json!({"jsonrpc": "2.0", "id": "u", "method": "elicitation/create", "params": {
        "mode": "url", "message": "Sign in", "url": "https://auth.example.com/x", "elicitationId": "e1"}});
    let roots = json!({"jsonrpc": "2.0", "id": "r", "method": "roots/list"});
    let sampling = json!({"jsonrpc": "2.0", "id": "s", "method": "sampling/createMessage",
        "params": {"messages": [], "maxTokens": 5}});

    let mut forms_only = scripted(info().with_forms(), Fills::default());
    let refused = reply(&mut forms_only, url.clone());
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(
        reply(&mut forms_only, roots.clone())["error"]["code"],
        -32601
    );
    assert_eq!(
        reply(&mut forms_only, sampling.clone())["error"]["code"],
        -32601
    );
    assert!(forms_only.handler().shown.is_empty() && !forms_only.handler().roots);

    let mut both = scripted(info().with_urls().with_roots(false), Fills::default());
    assert_eq!(
        reply(&mut both, url)["result"],
        json!({"action": "decline"})
    );
    assert_eq!(both.handler().shown, ["https://auth.example.com/x"]);
    let listed = reply(&mut both, roots);
    assert_eq!(
        listed["result"],
        json!({"roots": [{"uri": "file:///work"}]})
    );
    // Declared, but the handler does not sample: `-32601` from the default method.
    assert_eq!(reply(&mut both, sampling)["error"]["code"], -32601);
    assert_eq!(
        reply(
            &mut both,
            json!({"jsonrpc": "2.0", "id": 9, "method": "ping"})
        )["result"],
        json!({})
    );
}

/// An accepted answer that breaks the form is never sent: the server gets `-32603`.
#[test]
fn does_not_send_an_answer_that_breaks_the_form() {
    struct Breaks;
    impl ClientHandler for Breaks {
        fn form(&mut self, _: &Form) -> FormReply {
            let Value::Object(content) = json!({"count": 99}) else {
                unreachable!()
            };
            FormReply::Accept(content)
        }
    }
    let mut client = scripted(info().with_forms(), Breaks);
    let error = reply(
        &mut client,
        json!({"jsonrpc": "2.0", "id": "f", "method": "elicitation/create",
        "params": {"mode": "form", "message": "How many?", "requestedSchema": {"type": "object",
        "properties": {"count": {"type": "integer", "maximum": 12}}}}}),
    );
    assert_eq!(error["error"]["code"], -32603, "{error}");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("count"),
        "{error}"
    );
}

#[test]
fn matches_results_by_id_whatever_their_order() {
    let mut client = scripted(info(), ());
    let (tools, _) = client.request(mcp::ListToolsRequest::new).unwrap();
    let (prompts, _) = client.request(mcp::ListPromptsRequest::new).unwrap();
    let (ping, _) = client.request(mcp::PingRequest::new).unwrap();
    assert_eq!(client.in_flight(), 3);
    client.receive(
        &json!({"jsonrpc": "2.0", "id": prompts.id(), "result": {"prompts": [{"name": "p"}]}})
            .to_string(),
    );
    client.receive(
        &json!({"jsonrpc": "2.0", "id": ping.id(), "error": {"code": -32601, "message": "no"}})
            .to_string(),
    );
    assert!(client.take(&tools).is_none(), "not answered yet");
    client
        .receive(&json!({"jsonrpc": "2.0", "id": tools.id(), "result": {"tools": 5}}).to_string());

    let prompts: mcp::ListPromptsResult = client.take(&prompts).unwrap().unwrap();
    assert_eq!(prompts.prompts[0].name, "p");
    let Some(Err(ClientError::Rejected { method, code, .. })) = client.take(&ping) else {
        panic!()
    };
    assert_eq!((method.as_str(), code), ("ping", -32601));
    let Some(Err(ClientError::InvalidResult { method, message })) = client.take(&tools) else {
        panic!()
    };
    assert_eq!(method, "tools/list");
    assert!(message.contains("invalid type"), "{message}");
    assert!(client.take(&tools).is_none(), "taken once");
    assert_eq!(client.in_flight(), 0);
}

#[test]
fn cancels_and_times_out_by_id() {
    let mut client = scripted(info(), ());
    let (slow, _) = client.request(tool("book", json!({"guests": 1}))).unwrap();
    let cancel: Value =
        serde_json::from_str(&client.cancel(&slow, Some("enough")).unwrap()).unwrap();
    assert_eq!(
        cancel,
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
               "params": {"requestId": slow.id(), "reason": "enough"}})
    );
    // A late answer is ignored; the result says it was cancelled.
    client.receive(
        &json!({"jsonrpc": "2.0", "id": slow.id(), "result": {"content": []}}).to_string(),
    );
    assert!(matches!(
        client.take(&slow),
        Some(Err(ClientError::Cancelled { .. }))
    ));
    assert!(client.cancel(&slow, None).is_none());

    let (late, _) = client.request(mcp::ListToolsRequest::new).unwrap();
    assert!(client.expire(Duration::from_secs(60)).is_empty(), "not yet");
    let cancels = client.expire(Duration::ZERO);
    assert_eq!(cancels.len(), 1);
    assert!(cancels[0].contains("timed out"), "{}", cancels[0]);
    assert!(matches!(
        client.take(&late),
        Some(Err(ClientError::TimedOut { .. }))
    ));
}

/// Strict in what we send: a request the session's revision cannot carry is refused, naming
/// what does not fit, and nothing is sent.
#[test]
fn refuses_to_send_what_the_revision_cannot_carry() {
    let mut server26 = server(&[]);
    let mut client = connected(
        info().with_versions([ProtocolVersion::V2026_07_28]),
        (),
        &mut server26,
    );
    let error = client.request(mcp::PingRequest::new).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("`ping` is not a method of 2026-07-28"),
        "{error}"
    );

    let mut server18 = server(&[]);
    let mut client = connected(
        info().with_versions([ProtocolVersion::V2025_06_18]),
        (),
        &mut server18,
    );
    let params = mcp::CallToolRequestParams::new("book").with_task(mcp::TaskMetadata::new());
    let error = client
        .request(|id| mcp::CallToolRequest::new(id, params))
        .unwrap_err();
    let ClientError::Unsendable {
        version, message, ..
    } = &error
    else {
        panic!("{error}")
    };
    assert_eq!(*version, ProtocolVersion::V2025_06_18);
    assert!(message.contains("/params/task"), "{message}");
    assert_eq!(client.in_flight(), 0);
}

/// Every request of a 2026-07-28 session carries the revision, the client and its
/// capabilities in `_meta`; notifications reach the handler typed.
#[test]
fn a_2026_07_28_request_says_who_asks_and_notifications_arrive_typed() {
    #[derive(Default)]
    struct Notes(Vec<String>);
    impl ClientHandler for Notes {
        fn notification(&mut self, n: &mcp::ServerNotification) {
            self.0.push(n.method().to_owned());
        }
    }
    let mut server = server(&[]);
    let mut client = connected(
        info()
            .with_versions([ProtocolVersion::V2026_07_28])
            .with_forms(),
        Notes::default(),
        &mut server,
    );
    let (_, line) = client.request(mcp::ListToolsRequest::new).unwrap();
    let sent: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(
        sent["params"]["_meta"],
        json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
               "io.modelcontextprotocol/clientInfo": {"name": "client", "version": "1"},
               "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}})
    );
    client.receive(r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#);
    client.receive(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":0.5}}"#);
    assert_eq!(
        client.handler().0,
        ["notifications/tools/list_changed", "notifications/progress"]
    );
}

/// A 2026-07-28 input request without `params` (`roots/list`, as the Python SDK sends it) is
/// answered, and the request retried with the answer and the server's state. (It was read
/// with `"params": null` and refused as a request the client does not know.)
#[test]
fn answers_a_2026_07_28_input_request_without_params() {
    let mut client = ClientSession::new(
        info()
            .with_versions([ProtocolVersion::V2026_07_28])
            .with_roots(false),
        Fills::default(),
    );
    client.connect();
    client.receive(
        r#"{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"resultType":"complete"}}"#,
    );
    assert_eq!(client.version(), Some(ProtocolVersion::V2026_07_28));
    let (roots, _) = client.request(tool("roots", json!({}))).unwrap();
    let retry = client.receive(
        &json!({"jsonrpc": "2.0", "id": roots.id(), "result": {"resultType": "input_required",
            "inputRequests": {"ask_roots": {"method": "roots/list"}}, "requestState": "s1"}})
        .to_string(),
    );
    assert!(client.handler().roots);
    assert_eq!(retry.len(), 1, "{retry:?}");
    let retry: Value = serde_json::from_str(&retry[0]).unwrap();
    assert_eq!(retry["method"], "tools/call");
    assert_eq!(
        retry["params"]["inputResponses"],
        json!({"ask_roots": {"roots": [{"uri": "file:///work"}]}})
    );
    assert_eq!(retry["params"]["requestState"], "s1");
    client.receive(
        &json!({"jsonrpc": "2.0", "id": retry["id"], "result": {"content": [
            {"type": "text", "text": "file:///work"}]}})
        .to_string(),
    );
    let listed = client.take(&roots).unwrap().unwrap();
    assert_eq!(text(&listed), "file:///work");
}

/// What a server sends is untrusted: any line, JSON or not, at any point of a session, never
/// makes the session panic, and a request on its way is still answered by its own response
/// afterwards (nothing a bad line says moves or drops it).
mod untrusted {
    use super::*;
    use proptest::prelude::*;

    /// Lines a confused or hostile server may write: JSON-RPC-shaped objects with random
    /// members (ids of ours and not, results of any type, methods of every kind), and junk.
    fn line() -> impl Strategy<Value = String> {
        let id = prop_oneof![
            Just(json!(1)),
            Just(json!(2)),
            Just(json!(3)),
            Just(json!("2")),
            Just(json!(null)),
            any::<i64>().prop_map(|n| json!(n)),
        ];
        let value = prop_oneof![
            Just(json!({})),
            Just(json!(null)),
            Just(json!([])),
            Just(json!({"tools": 5})),
            Just(
                json!({"resultType": "input_required", "inputRequests": {"k": {"method": "roots/list"}}})
            ),
            Just(json!({"resultType": "input_required", "inputRequests": 7})),
            Just(json!({"content": [{"type": "text"}]})),
            ".*".prop_map(Value::String),
        ];
        let method = prop_oneof![
            Just("ping"),
            Just("roots/list"),
            Just("sampling/createMessage"),
            Just("elicitation/create"),
            Just("notifications/progress"),
            Just("notifications/elicitation/complete"),
            Just("tasks/get"),
            Just("x/custom"),
        ];
        prop_oneof![
            (id.clone(), value.clone())
                .prop_map(|(id, v)| json!({"jsonrpc": "2.0", "id": id, "result": v}).to_string()),
            (id.clone(), value.clone())
                .prop_map(|(id, v)| json!({"jsonrpc": "2.0", "id": id, "error": v}).to_string()),
            (id, method.clone(), value.clone()).prop_map(|(id, m, p)| {
                json!({"jsonrpc": "2.0", "id": id, "method": m, "params": p}).to_string()
            }),
            (method, value)
                .prop_map(|(m, p)| json!({"jsonrpc": "2.0", "method": m, "params": p}).to_string()),
            ".{0,40}",
            Just("{\"jsonrpc\":\"2.0\",\"id\":".repeat(200)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn no_line_panics_and_a_pending_request_keeps_its_answer(
            lines in proptest::collection::vec(line(), 0..12),
            version in proptest::sample::select(vec![ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28]),
        ) {
            let mut server = server(&[]);
            let info = info().with_versions([version]).with_forms().with_urls().with_roots(true).with_sampling();
            let mut client = connected(info, Fills { count: 2, ..Fills::default() }, &mut server);
            prop_assert_eq!(client.version(), Some(version));
            let (tools, line_out) = client.request(mcp::ListToolsRequest::new).unwrap();
            // What the session sends meanwhile goes to the server too (a retry, when a line
            // answered our request with `input_required`).
            let mut sent = vec![line_out];
            for line in &lines {
                sent.extend(client.receive(line));
                sent.extend(client.receive_bytes(line.as_bytes()));
            }
            // Whatever came, if the list is still on its way, the server's own answer ends it.
            if !client.is_done(&tools) {
                pump(&mut client, &mut server, sent);
                let listed = client.take(&tools).expect("answered");
                prop_assert_eq!(listed.unwrap().tools.len(), 2);
            }
        }
    }
}

/// A server line that never ends is not kept without bound: past 64 MiB the connection ends
/// with an error saying so.
#[test]
fn a_line_that_never_ends_ends_the_connection() {
    use std::io::Read;
    let hello = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-11-25\",\
                 \"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"s\",\"version\":\"1\"}}}\n";
    let endless = std::io::Cursor::new(hello).chain(std::io::repeat(b'a').take((64 << 20) + 1));
    let info = info().with_versions([ProtocolVersion::V2025_11_25]);
    let mut server = mcp_typed::session::Connection::over(
        std::io::BufReader::new(endless),
        std::io::sink(),
        ClientSession::new(info, ()),
    )
    .unwrap();
    let error = server.list_tools().unwrap_err();
    assert!(
        error
            .to_string()
            .contains("a line longer than 67108864 bytes"),
        "{error}"
    );
}

/// A `Connection` says what went wrong in types a program can match: a server that cannot be
/// started, one that ends before it answers (with its status), one that never answers.
#[test]
#[cfg(unix)]
fn a_connection_that_cannot_negotiate_says_why() {
    use mcp_typed::session::Connection;
    use std::process::Command;
    let info = || info().with_versions([ProtocolVersion::V2025_11_25]);
    let short = Duration::from_millis(300);
    let start = |command: &mut Command| {
        Connection::spawn_with_timeout(command, ClientSession::new(info(), ()), short).map(drop)
    };
    let Err(ClientError::Start { program, .. }) = start(&mut Command::new("/nonexistent/server"))
    else {
        panic!("not a start error")
    };
    assert_eq!(program, "/nonexistent/server");
    let ended = start(Command::new("sh").args(["-c", "exit 3"]));
    assert_eq!(
        ended,
        Err(ClientError::Ended {
            status: Some("exit status: 3".to_owned())
        })
    );
    let silent = start(Command::new("sleep").arg("5"));
    assert_eq!(
        silent,
        Err(ClientError::TimedOut {
            method: "initialize".to_owned(),
            after: short
        })
    );
}
