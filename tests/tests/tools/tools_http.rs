//! `mcp-typed tools --url`'s client (`tools_client::list_tools_http`): typed bindings asked of
//! a live server over Streamable HTTP (server-everything in its HTTP mode, on loopback,
//! installed by `tests/peers/install.sh`), then two of its tools called through those
//! bindings, over HTTP too, from a program built against them.

use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

// The generator's test helpers (a user crate against this checkout's mcp-typed): one copy.
#[path = "../../../codegen/tests/common/mod.rs"]
mod common;
use common::workspace;
use mcp_typed_cli::tools_client::list_tools_http;
use mcp_typed_codegen::ToolsBuilder;

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn bindings_from_a_live_http_server_call_two_of_its_tools() {
    let ws = workspace();
    let (_server, url) = mcp_tests::peers::peers().everything_http();
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path().join("http-user");
    std::fs::create_dir_all(krate.join("src")).unwrap();
    let headers = [("X-Test".to_owned(), "1".to_owned())];
    let listed = list_tools_http(&url, &headers, Duration::from_secs(30)).unwrap();
    assert_eq!(
        (
            listed.protocol_version.as_str(),
            listed.tools.len(),
            listed.pages
        ),
        ("2025-11-25", 13, 1)
    );
    std::fs::write(dir.path().join("tools.json"), listed.to_json()).unwrap();
    ToolsBuilder::new()
        .tool_list_path(dir.path().join("tools.json"))
        .generate()
        .unwrap()
        .write_to(krate.join("src/everything.rs"))
        .unwrap();
    // The same list as the stdio capture of the same server.
    let saved: serde_json::Value = serde_json::from_str(&listed.to_json()).unwrap();
    let captured: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(ws.join("tests/fixtures/tool-lists/server-everything.json"))
            .unwrap(),
    )
    .unwrap();
    assert_eq!(saved, captured);

    common::user_crate(
        &krate,
        "http-user",
        r#"ureq = { version = "3", default-features = false }"#,
        PROGRAM,
    );
    let (ok, text) = common::cargo_run(&krate, "tools-http", &[&url]);
    assert!(ok, "{text}");
    assert!(text.contains("echo: Echo: typed over HTTP"), "{text}");
    assert!(
        text.contains("get-sum: The sum of 2 and 40.5 is 42.5."),
        "{text}"
    );
}

/// A client of the generated bindings: initialize, then `echo` and `get-sum` through their
/// typed arguments, each answer decoded as the revision's `CallToolResult`.
const PROGRAM: &str = r#"#![deny(warnings)]

mod everything;

use mcp_typed::v2025_11_25::{
    CallToolResult, ClientCapabilities, ClientMessage, Implementation,
    InitializeRequest, InitializeRequestParams, InitializedNotification, ServerMessage,
};

struct Http {
    agent: ureq::Agent,
    url: String,
    session: Option<String>,
}

impl Http {
    /// POSTs a message; the JSON-RPC answer, from a JSON body or the SSE stream's last event.
    fn post(&mut self, message: &ClientMessage) -> Option<ServerMessage> {
        let mut request = self
            .agent
            .post(&self.url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2025-11-25");
        if let Some(s) = &self.session {
            request = request.header("Mcp-Session-Id", s);
        }
        let mut response = request.send(serde_json::to_string(message).unwrap()).unwrap();
        if let Some(s) = response.headers().get("mcp-session-id") {
            self.session = Some(s.to_str().unwrap().to_owned());
        }
        let body = response.body_mut().read_to_string().unwrap();
        let json = body
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .map(str::trim)
            .last()
            .unwrap_or(body.trim())
            .to_owned();
        (!json.is_empty()).then(|| ServerMessage::from_json(&json).unwrap())
    }

    fn call(&mut self, request: mcp_typed::v2025_11_25::CallToolRequest) -> String {
        let Some(ServerMessage::Response(r)) = self.post(&ClientMessage::request(request)) else {
            panic!("no response")
        };
        let result: CallToolResult = r
            .result_as::<mcp_typed::v2025_11_25::CallToolRequest>()
            .unwrap();
        result.texts().collect()
    }
}

fn main() {
    let url = std::env::args().nth(1).unwrap();
    let mut http = Http { agent: ureq::Agent::new_with_defaults(), url, session: None };
    let params = InitializeRequestParams::new(
        "2025-11-25",
        ClientCapabilities::new(),
        Implementation::new("http-user", "0"),
    );
    http.post(&ClientMessage::request(InitializeRequest::new(1, params))).unwrap();
    http.post(&ClientMessage::notification(InitializedNotification::new()));
    let echo = everything::EchoArgs { message: "typed over HTTP".into() }.request(2);
    println!("echo: {}", http.call(echo));
    let sum = everything::GetSumArgs { a: 2.0, b: 40.5 }.request(3);
    println!("get-sum: {}", http.call(sum));
}
"#;

/// A 2026-07-28 server has no `initialize`: `--url` asks it with `server/discover` and
/// `tools/list` carrying the revision in `_meta` (the project's booking example, which also
/// speaks 2025-11-25, answers at 2026-07-28).
#[test]
fn a_2026_07_28_server_is_asked_with_server_discover() {
    let booking = mcp_tests::example_binary("mcp-tests", "booking-server", &[]);
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr = format!("127.0.0.1:{port}");
    let child = Command::new(booking)
        .args(["--http", &addr])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let _server = mcp_tests::peers::Killed(child);
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(&addr).is_err() {
        assert!(
            Instant::now() < deadline,
            "booking-server did not listen on {addr}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let dir = tempfile::tempdir().unwrap();
    let listed =
        list_tools_http(&format!("http://{addr}/mcp"), &[], Duration::from_secs(30)).unwrap();
    assert_eq!(listed.protocol_version, "2026-07-28");
    assert_eq!(
        listed.server,
        ("booking-server".to_owned(), "0.1.0".to_owned())
    );
    let names: Vec<&str> = listed
        .tools
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["book_table", "survey"]);
    std::fs::write(dir.path().join("booking.json"), listed.to_json()).unwrap();
    let generated = ToolsBuilder::new()
        .tool_list_path(dir.path().join("booking.json"))
        .revision("2026-07-28")
        .generate()
        .unwrap();
    let code = generated.code();
    assert!(
        code.contains("pub mod book_table") && code.contains("mcp_typed::v2026_07_28"),
        "{code}"
    );
}
