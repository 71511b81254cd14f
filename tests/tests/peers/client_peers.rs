//! The client session (`ClientSession` run by `Connection`) against real servers: the pinned
//! `@modelcontextprotocol/server-everything` at every revision it speaks and the Python SDK's
//! `MCPServer` (`tests/peers/py_server.py`) at 2025-06-18, 2025-11-25 and 2026-07-28. Forms
//! are answered through the received-form model, sampling and roots by one handler that
//! records what reached it. Every line of each session goes through the traffic checker:
//! anything the client sent that its revision does not allow fails the test (strict in what
//! we send); what the server sends beyond the revision is only listed (`--nocapture`).
//!
//! The capability rule is tested with clients declaring no elicitation, forms only, and URLs
//! only: a form never reaches the handler of a client that did not declare forms, and what
//! each server does instead is pinned as measured.

use std::collections::BTreeSet;
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use mcp_tests::peers::{peers, scripts};
use mcp_typed::ProtocolVersion;
use mcp_typed::check::{Checker, Direction as Sender, NoteKind, Verdict};
use mcp_typed::elicit::client::{Consent, Form, FormReply, UrlRequest};
use mcp_typed::session::{
    ClientError, ClientHandler, ClientInfo, ClientSession, Connection, Direction, Refusal,
};
use mcp_typed::v2025_11_25 as mcp;
use serde_json::{Value, json};

#[derive(Debug, Clone, Copy)]
enum Peer {
    /// `@modelcontextprotocol/server-everything` (TypeScript SDK), stdio.
    Everything,
    /// `tests/peers/py_server.py` (Python SDK `MCPServer`), stdio.
    Python,
}

/// The user behind the client: fills forms through the form model, consents to URLs, lends
/// a canned model and one root, and records every request that reached it.
#[derive(Debug, Default)]
pub(super) struct User {
    pub(super) forms: Vec<String>,
    pub(super) urls: Vec<String>,
    pub(super) samples: Vec<String>,
    pub(super) roots: usize,
}

impl ClientHandler for User {
    fn form(&mut self, form: &Form) -> FormReply {
        self.forms.push(form.message().to_owned());
        let mut answer = form.answer();
        // The fields of both servers' forms; the others keep what the form model prefills.
        for field in form.fields() {
            let name = field.name.as_str();
            let set = match name {
                "name" => answer.set_text(name, "Ada Lovelace"),
                "check" | "subscribe" => answer.set_bool(name, true),
                "integer" => answer.set_integer(name, 7),
                "age" => answer.set_integer(name, 36),
                "color" => answer.set_choice(name, "blue"),
                _ => continue,
            };
            if let Err(e) = set {
                panic!("`{name}` of {form:?}: {e}");
            }
        }
        answer.accept().expect("the answer fits the form")
    }

    fn url(&mut self, request: UrlRequest) -> FormReply {
        self.urls.push(request.shown_url().to_owned());
        assert!(request.warnings().is_empty(), "{:?}", request.warnings());
        // Consented, and "opened" without a browser.
        let consented = request.consent(Consent::given_by_user());
        consented.open_with(|_| Ok::<_, ()>(())).unwrap()
    }

    fn roots(&mut self) -> Result<Vec<mcp::Root>, Refusal> {
        self.roots += 1;
        Ok(vec![mcp::Root::new("file:///work/project")])
    }

    fn sample(
        &mut self,
        params: &mcp::CreateMessageRequestParams,
    ) -> Result<mcp::CreateMessageResult, Refusal> {
        let asked = serde_json::to_value(&params.messages[0].content).unwrap();
        self.samples
            .push(asked["text"].as_str().unwrap_or("?").to_owned());
        let reply = mcp::TextContent::new("Hello from the canned model");
        Ok(
            mcp::CreateMessageResult::new(mcp::Role::Assistant, reply, "canned-model")
                .with_stop_reason("endTurn"),
        )
    }
}

/// Every line of a session, in order, as the session's observer saw it.
pub(super) type Lines = Arc<Mutex<Vec<(Direction, String)>>>;

pub(super) fn info() -> ClientInfo {
    ClientInfo::new(mcp::Implementation::new("client-peers", "1.0"))
}

const EVERYTHING: &str = "@modelcontextprotocol/server-everything";

/// Starts `peer` and negotiates with it as `info` says.
fn start(peer: Peer, info: ClientInfo) -> Result<(Connection<User>, Lines), ClientError> {
    let peers = peers();
    let mut command = match peer {
        Peer::Everything => {
            let mut node = peers.node();
            node.arg(peers.package_file(EVERYTHING, "dist/index.js"))
                .arg("stdio");
            node
        }
        Peer::Python => {
            let mut python = peers.python();
            python.arg(scripts().join("py_server.py"));
            python
        }
    };
    command.stderr(Stdio::null());
    let lines = Lines::default();
    let seen = lines.clone();
    let session = ClientSession::new(info, User::default()).observe(move |t| {
        seen.lock().unwrap().push((t.direction, t.line.to_owned()));
    });
    Ok((Connection::spawn(&mut command, session)?, lines))
}

/// Checks the session's lines in order. Fails on anything the client sent that is not a valid
/// message of the revision, or holds what the revision does not define; lists (and returns)
/// what the checker noted or refused in the server's lines, once each, array indices as `*`.
/// The checker must have learnt `version` from the traffic.
pub(super) fn audit(label: &str, version: ProtocolVersion, lines: &Lines) -> BTreeSet<String> {
    let mut checker = Checker::new();
    let (mut ours, mut theirs) = (Vec::new(), BTreeSet::new());
    for (direction, line) in lines.lock().unwrap().iter() {
        let sender = match direction {
            Direction::Out => Sender::ClientToServer,
            Direction::In => Sender::ServerToClient,
        };
        let report = checker.check(Some(sender), line);
        let beyond = (report.notes.iter()).any(|n| n.kind == NoteKind::BeyondRevision);
        match sender {
            Sender::ClientToServer if report.verdict == Verdict::Error || beyond => {
                ours.push(format!("{report}\n    {line}"));
            }
            Sender::ClientToServer => {}
            Sender::ServerToClient => {
                let what = &report.what;
                let problems =
                    (report.problems.iter()).map(|p| format!("error {what}: {}", p.message));
                let notes = (report.notes.iter()).map(|n| format!("{what}: {}", n.message));
                theirs.extend(problems.chain(notes).map(|n| any_index(&n)));
            }
        }
    }
    assert_eq!(checker.revision(), Some(version), "{label}");
    assert!(
        ours.is_empty(),
        "{label}: the client sent\n{}",
        ours.join("\n")
    );
    for note in &theirs {
        eprintln!("{label}: the server sent {note}");
    }
    theirs
}

/// `/tools/3/title` → `/tools/*/title`.
fn any_index(text: &str) -> String {
    let parts = text.split('/').map(|p| {
        let index = !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
        if index { "*" } else { p }
    });
    parts.collect::<Vec<_>>().join("/")
}

/// The text of a result's text blocks, one per line.
pub(super) fn text(result: &mcp::CallToolResult) -> String {
    let blocks = serde_json::to_value(&result.content).unwrap();
    let texts = blocks.as_array().unwrap().iter();
    let texts: Vec<&str> = texts.filter_map(|b| b["text"].as_str()).collect();
    texts.join("\n")
}

/// A tool's result that is not a tool error.
pub(super) fn call(
    server: &mut Connection<User>,
    name: &str,
    arguments: Value,
) -> mcp::CallToolResult {
    let result = (server.call_tool(name, &arguments)).unwrap_or_else(|e| panic!("`{name}`: {e}"));
    assert_ne!(result.is_error, Some(true), "`{name}`: {}", text(&result));
    result
}

pub(super) fn tool_names(server: &mut Connection<User>) -> Vec<String> {
    let tools = server.list_tools().expect("tools/list");
    tools.into_iter().map(|t| t.name).collect()
}

fn prompt_text(result: &mcp::GetPromptResult) -> String {
    let content = serde_json::to_value(&result.messages[0].content).unwrap();
    content["text"].as_str().unwrap_or_default().to_owned()
}

/// One session with server-everything at `version`: lists, read-only tools with their typed
/// results, a resource, prompts, and the server's requests (sampling, roots, a form from
/// 2025-06-18 on) answered through the handler.
fn everything(version: ProtocolVersion) {
    let label = format!("server-everything {version}");
    let info = (info().with_versions([version]).with_forms())
        .with_sampling()
        .with_roots(false);
    let (mut server, lines) = start(Peer::Everything, info).unwrap();
    assert_eq!(server.server().version, version);
    let implementation = server.server().implementation.clone().unwrap();
    assert!(
        implementation.name.contains("everything"),
        "{implementation:?}"
    );

    let tools = tool_names(&mut server);
    let forms = version >= ProtocolVersion::V2025_06_18;
    for name in [
        "echo",
        "get-sum",
        "trigger-sampling-request",
        "get-roots-list",
    ] {
        assert!(tools.iter().any(|t| t == name), "{label}: {tools:?}");
    }
    assert_eq!(
        tools.iter().any(|t| t == "trigger-elicitation-request"),
        forms,
        "{label}: {tools:?}"
    );

    let echo = call(&mut server, "echo", json!({"message": "hello"}));
    assert_eq!(text(&echo), "Echo: hello", "{label}");
    let sum = call(&mut server, "get-sum", json!({"a": 2, "b": 3.5}));
    assert_eq!(text(&sum), "The sum of 2 and 3.5 is 5.5.", "{label}");
    let weather = call(
        &mut server,
        "get-structured-content",
        json!({"location": "Chicago"}),
    );
    let expected = json!({"temperature": 36, "conditions": "Light rain / drizzle", "humidity": 82});
    assert_eq!(text(&weather), expected.to_string(), "{label}");
    // Typed in every revision: before 2025-06-18 a result may hold any member.
    let structured = weather.structured_content.map(Value::from);
    assert_eq!(structured, Some(expected), "{label}");

    let resources = server.list_resources().expect("resources/list");
    let templates = server
        .list_resource_templates()
        .expect("resources/templates/list");
    assert!(!templates.is_empty(), "{label}");
    let uri = "demo://resource/static/document/architecture.md";
    assert!(resources.iter().any(|r| r.uri == uri), "{label}: {uri}");
    let read = server.read_resource(uri).expect("resources/read");
    let contents = serde_json::to_value(&read.contents).unwrap();
    assert_eq!(contents[0]["uri"], uri, "{label}");
    assert!(
        contents[0]["text"].as_str().is_some_and(|t| t.len() > 100),
        "{label}: {contents}"
    );

    let prompts = server.list_prompts().expect("prompts/list");
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert!(names.contains(&"simple-prompt") && names.contains(&"args-prompt"));
    let simple = server
        .get_prompt("simple-prompt", [] as [(&str, &str); 0])
        .expect("prompts/get");
    assert_eq!(
        prompt_text(&simple),
        "This is a simple prompt without arguments."
    );
    let args = server
        .get_prompt("args-prompt", [("city", "Paris"), ("state", "Texas")])
        .expect("prompts/get");
    assert_eq!(prompt_text(&args), "What's weather in Paris, Texas?");

    let sampled = call(
        &mut server,
        "trigger-sampling-request",
        json!({"prompt": "hi"}),
    );
    assert!(
        text(&sampled).contains(r#""model": "canned-model""#),
        "{label}: {}",
        text(&sampled)
    );
    let roots = call(&mut server, "get-roots-list", json!({}));
    assert!(
        text(&roots).contains("file:///work/project"),
        "{label}: {}",
        text(&roots)
    );

    if forms {
        let asked = call(&mut server, "trigger-elicitation-request", json!({}));
        let shown = text(&asked);
        for line in [
            "- Name: Ada Lovelace",
            "- Agreed to terms: true",
            "- Favorite Integer: 7",
        ] {
            assert!(shown.contains(line), "{label}: {shown}");
        }
    }
    let user = server.session().handler();
    let expected: &[&str] = if forms {
        &["Please provide inputs for the following fields:"]
    } else {
        &[]
    };
    assert_eq!(user.forms, expected, "{label}");
    assert_eq!(
        user.samples,
        ["Resource trigger-sampling-request context: hi"]
    );
    assert!(user.roots >= 1, "{label}");
    server.close().unwrap();
    audit(&label, version, &lines);
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn server_everything_2024_11_05() {
    everything(ProtocolVersion::V2024_11_05);
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn server_everything_2025_03_26() {
    everything(ProtocolVersion::V2025_03_26);
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn server_everything_2025_06_18() {
    everything(ProtocolVersion::V2025_06_18);
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn server_everything_2025_11_25() {
    everything(ProtocolVersion::V2025_11_25);
}

/// The default client prefers 2026-07-28: it sends `server/discover`, which server-everything
/// does not serve (`-32601`), and falls back to `initialize` with 2025-11-25.
#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn server_everything_by_default_falls_back_from_discover_to_initialize() {
    let (mut server, lines) = start(Peer::Everything, info()).unwrap();
    assert_eq!(server.server().version, ProtocolVersion::V2025_11_25);
    let echo = call(&mut server, "echo", json!({"message": "again"}));
    assert_eq!(text(&echo), "Echo: again");
    server.close().unwrap();
    let handshake: Vec<String> = (lines.lock().unwrap().iter().take(4))
        .map(|(direction, line)| {
            let line: Value = serde_json::from_str(line).unwrap();
            let what = (line.get("method").cloned())
                .or_else(|| line.pointer("/error/code").cloned())
                .or_else(|| line.pointer("/result/protocolVersion").cloned());
            format!("{direction:?} {}", what.unwrap_or(Value::Null))
        })
        .collect();
    assert_eq!(
        handshake,
        [
            r#"Out "server/discover""#,
            "In -32601",
            r#"Out "initialize""#,
            r#"In "2025-11-25""#,
        ]
    );
    let label = "server-everything by default";
    audit(label, ProtocolVersion::V2025_11_25, &lines);

    // A client that speaks 2026-07-28 only has nothing to fall back to.
    let stateless = info().with_versions([ProtocolVersion::V2026_07_28]);
    let refused = start(Peer::Everything, stateless).map(|_| ());
    let Err(ClientError::NotReady(why)) = refused else {
        panic!("{refused:?}")
    };
    assert!(
        why.contains("no revision to offer in `initialize`"),
        "{why}"
    );
}

/// One session with the Python SDK server at `version`: a form, a sampling request and the
/// roots, each asked by a tool (up to 2025-11-25 as requests of the server, in 2026-07-28 as
/// an `input_required` result the session answers and retries), and typed results.
fn python(version: ProtocolVersion) {
    let label = format!("Python SDK {version}");
    let info = (info().with_versions([version]).with_forms())
        .with_sampling()
        .with_roots(false);
    let (mut server, lines) = start(Peer::Python, info).unwrap();
    let about = server.server().clone();
    assert_eq!(about.version, version);
    assert_eq!(about.implementation.unwrap().name, "py-peer-server");
    assert!(about.capabilities.tools.is_some(), "{label}");

    let tools = tool_names(&mut server);
    for name in ["register_user", "ask_llm", "list_client_roots", "add"] {
        assert!(tools.iter().any(|t| t == name), "{label}: {tools:?}");
    }
    let added = call(&mut server, "add", json!({"a": 1.5, "b": 2.25}));
    assert_eq!(text(&added), "3.75", "{label}");
    let structured = added.structured_content.map(Value::from);
    assert_eq!(structured, Some(json!({"result": 3.75})), "{label}");

    let registered = call(&mut server, "register_user", json!({}));
    assert_eq!(
        text(&registered),
        r#"registered: {"name":"Ada Lovelace","height_m":1.75,"age":36,"subscribe":true,"color":"blue"}"#,
        "{label}"
    );
    let sampled = call(&mut server, "ask_llm", json!({}));
    assert_eq!(
        text(&sampled),
        "model canned-model said: Hello from the canned model",
        "{label}"
    );
    let roots = call(&mut server, "list_client_roots", json!({}));
    assert_eq!(text(&roots), "file:///work/project", "{label}");

    let readme = server.read_resource("file:///peer/readme.txt").unwrap();
    let contents = serde_json::to_value(&readme.contents).unwrap();
    assert_eq!(contents[0]["text"], "This server exists to be captured.");
    let review = (server.get_prompt("review_code", [("code", "x = 1"), ("language", "rust")]))
        .expect("prompts/get");
    assert_eq!(prompt_text(&review), "Please review this rust code:\nx = 1");

    let user = server.session().handler();
    assert_eq!(user.forms, ["Please tell us about yourself"], "{label}");
    assert_eq!(user.samples, ["Say hi in 3 words"], "{label}");
    assert_eq!(user.roots, 1, "{label}");
    server.close().unwrap();

    // How the server asked: requests of its own, or (2026-07-28) `input_required` results
    // answered by retrying the call with `inputResponses`, once per tool that asked.
    let messages: Vec<(Direction, Value)> = (lines.lock().unwrap().iter())
        .map(|(direction, line)| (*direction, serde_json::from_str(line).unwrap()))
        .collect();
    let count = |direction: Direction, pointer: &str, value: Option<&str>| {
        (messages.iter())
            .filter(|(d, _)| *d == direction)
            .filter_map(|(_, m)| m.pointer(pointer))
            .filter(|v| value.is_none_or(|value| *v == value))
            .count()
    };
    let stateless = version == ProtocolVersion::V2026_07_28;
    let (requests, retries) = if stateless { (0, 3) } else { (3, 0) };
    let asked = ["elicitation/create", "sampling/createMessage", "roots/list"]
        .map(|m| count(Direction::In, "/method", Some(m)));
    assert_eq!(asked.iter().sum::<usize>(), requests, "{label}");
    let required = count(Direction::In, "/result/resultType", Some("input_required"));
    assert_eq!(required, retries, "{label}");
    let answered = count(Direction::Out, "/params/inputResponses", None);
    assert_eq!(answered, retries, "{label}");
    audit(&label, version, &lines);
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn python_sdk_2025_06_18() {
    python(ProtocolVersion::V2025_06_18);
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn python_sdk_2025_11_25() {
    python(ProtocolVersion::V2025_11_25);
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn python_sdk_2026_07_28() {
    python(ProtocolVersion::V2026_07_28);
}

/// Clients declaring no elicitation, forms only, URLs only.
fn declaring() -> [(&'static str, ClientInfo); 3] {
    [
        ("none", info()),
        ("forms", info().with_forms()),
        ("urls", info().with_urls()),
    ]
}

/// What the Python SDK (`mcp` 2.3.0) did, measured: it checks the capability itself before
/// running a tool whose resolver elicits a form, in every revision, and refuses the call with
/// `-32021` (2026-07-28's "missing required client capability", which it uses in the older
/// revisions too) and `data.requiredCapabilities: {"elicitation": {"form": {}}}`, for a client
/// without `elicitation` and for one with URL mode only. The tool is still listed. Nothing
/// reaches the client's handler.
#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn python_sdk_asks_forms_only_of_clients_that_declared_them() {
    for version in [
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ] {
        for (declared, info) in declaring() {
            let label = format!("Python SDK {version}, elicitation declared: {declared}");
            let (mut server, lines) = start(Peer::Python, info.with_versions([version])).unwrap();
            assert!(tool_names(&mut server).contains(&"register_user".to_owned()));
            let result = server.call_tool("register_user", &json!({}));
            let forms = declared == "forms";
            if forms {
                let result = result.unwrap();
                assert!(text(&result).starts_with("registered: "), "{label}");
            } else {
                let Err(ClientError::Rejected {
                    code,
                    message,
                    data,
                    ..
                }) = &result
                else {
                    panic!("{label}: {result:?}")
                };
                assert_eq!(*code, -32021, "{label}");
                assert!(
                    message.contains("did not declare the form elicitation capability"),
                    "{label}: {message}"
                );
                let required = json!({"requiredCapabilities": {"elicitation": {"form": {}}}});
                assert_eq!(data.as_deref(), Some(&required), "{label}");
            }
            let user = server.session().handler();
            assert_eq!(user.forms.len(), usize::from(forms), "{label}");
            assert!(user.urls.is_empty(), "{label}");
            server.close().unwrap();
            let noted = audit(&label, version, &lines);
            assert!(!noted.iter().any(|n| n.starts_with("error ")), "{label}");
        }
    }
}

/// What server-everything (TypeScript SDK) did, measured: it registers its elicitation tools
/// after `initialize`, for the clients whose capabilities have them:
/// `trigger-elicitation-request` for any `elicitation` (the modes are not looked at),
/// `trigger-url-elicitation` for `elicitation.url`. A client declaring no elicitation is not
/// offered them, nor is a 2025-06-18 client declaring URLs only (that revision has no modes:
/// the session leaves `elicitation` out). A 2025-11-25 client declaring URLs only is offered
/// the form tool and asked a form, against the spec (the checker says so): the session
/// refuses it with `-32602` without asking the handler, and the tool fails with that error.
/// The URL it asks through `trigger-url-elicitation` reaches the handler.
#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn server_everything_asks_forms_only_of_clients_that_declared_them() {
    for version in [ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25] {
        for (declared, info) in declaring() {
            let label = format!("server-everything {version}, elicitation declared: {declared}");
            let info = info.with_versions([version]);
            let (mut server, lines) = start(Peer::Everything, info).unwrap();
            let tools = tool_names(&mut server);
            let forms = declared == "forms";
            let urls = declared == "urls" && version >= ProtocolVersion::V2025_11_25;
            let listed = |name: &str| tools.iter().any(|t| t == name);
            assert_eq!(
                listed("trigger-elicitation-request"),
                forms || urls,
                "{label}"
            );
            assert_eq!(listed("trigger-url-elicitation"), urls, "{label}");
            if forms {
                let asked = call(&mut server, "trigger-elicitation-request", json!({}));
                assert!(text(&asked).contains("- Name: Ada Lovelace"), "{label}");
            }
            if urls {
                let refused = server.call_tool("trigger-elicitation-request", &json!({}));
                let refused = refused.unwrap_or_else(|e| panic!("{label}: {e}"));
                assert_eq!(refused.is_error, Some(true), "{label}");
                assert_eq!(
                    text(&refused),
                    "MCP error -32602: the client did not declare form elicitation"
                );

                let url = "https://example.com/consent";
                let arguments = json!({"url": url, "elicitationId": "e-1"});
                let done = call(&mut server, "trigger-url-elicitation", arguments);
                assert!(
                    text(&done).starts_with("✅ User completed the URL elicitation flow."),
                    "{label}: {}",
                    text(&done)
                );
                assert_eq!(server.session().handler().urls, [url], "{label}");
            }
            let user = server.session().handler();
            assert_eq!(user.forms.len(), usize::from(forms), "{label}");
            server.close().unwrap();
            let noted = audit(&label, version, &lines);
            let errors: Vec<&String> = noted.iter().filter(|n| n.starts_with("error ")).collect();
            let expected: &[&str] = if urls {
                &[
                    "error request ElicitRequest (elicitation/create): /method: `elicitation/create` \
                   needs the client's `elicitation.form` capability, not declared in the \
                   client's initialize request",
                ]
            } else {
                &[]
            };
            assert_eq!(errors, expected, "{label}");
        }
    }
}
