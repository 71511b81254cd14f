//! `tests/examples/everything-client.rs` against the real `@modelcontextprotocol/server-everything`
//! (pinned in `tests/peers/versions.env`), once per revision the server accepts, plus one it
//! does not. Every line of each session goes through the traffic checker in the session's
//! revision (the example's observer); these tests read its JSON summary.
//!
//! server-everything does not gate what it sends by the negotiated revision, so the older
//! sessions carry content the revision does not define. Those values decode into catch-all
//! variants and re-encode unchanged; the example lists them (`beyond_revision`) and the tests
//! pin exactly which ones, while any failure (a line that does not decode or round-trip, or
//! anything we send beyond the revision) fails them.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Arguments over the minimal ones the example builds from each tool's input schema.
const TOOL_ARGUMENTS: [&str; 3] = [
    // 10 seconds by default.
    r#"trigger-long-running-operation={"duration":0.2,"steps":2}"#,
    // By default it downloads a file from GitHub.
    r#"gzip-file-as-resource={"data":"data:text/plain;base64,aGVsbG8K"}"#,
    // Asks a form while its task runs.
    r#"simulate-research-query={"ambiguous":true}"#,
];

/// The tools server-everything registers for every client.
const TOOLS: [&str; 13] = [
    "echo",
    "get-annotated-message",
    "get-env",
    "get-resource-links",
    "get-resource-reference",
    "get-structured-content",
    "get-sum",
    "get-tiny-image",
    "gzip-file-as-resource",
    "toggle-simulated-logging",
    "toggle-subscriber-updates",
    "trigger-long-running-operation",
    // Registered after `initialize`, for clients with the capabilities they need:
    "simulate-research-query",
];

fn example() -> &'static PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| mcp_tests::example_binary("mcp-tests", "everything-client", &[]))
}

/// Runs one session; the exit status, the JSON summary (the last stdout line) and how long
/// it took.
fn session(revision: &str) -> (Output, Value, Duration) {
    let server = mcp_tests::peers::peers()
        .package_file("@modelcontextprotocol/server-everything", "dist/index.js");
    let mut cmd = Command::new(example());
    cmd.args(["--revision", revision, "--timeout", "20"]);
    for arguments in TOOL_ARGUMENTS {
        cmd.args(["--arguments", arguments]);
    }
    cmd.arg("--").arg("node").arg(&server).arg("stdio");
    let started = Instant::now();
    let out = cmd.output().expect("run the example");
    let took = started.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let summary = stdout
        .lines()
        .last()
        .and_then(|l| serde_json::from_str(l).ok())
        .unwrap_or_else(|| {
            panic!(
                "{revision}: no JSON summary ({}):\n{stdout}\n{}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            )
        });
    (out, summary, took)
}

/// What every session at an accepted revision shows: the handshake at that revision, every
/// tool called, and the results and progress notifications the calls asked for.
fn check_session(revision: &str, summary: &Value, tools: &[&str]) {
    assert_eq!(summary["error"], Value::Null, "{revision}: {summary}");
    assert_eq!(summary["negotiated"], revision, "{summary}");
    let called: Vec<&String> = summary["tools_called"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    let mut expected: Vec<&str> = tools.to_vec();
    expected.sort();
    assert_eq!(called, expected, "{revision}: the tools listed and called");
    let received = &summary["received"];
    assert_eq!(
        received["notifications/progress"], 2,
        "{revision}: {received}"
    );
    // Each call answered (a task's call by its `CreateTaskResult`).
    let calls: u64 = received
        .as_object()
        .unwrap()
        .iter()
        .filter(|(what, _)| what.starts_with("response to tools/call"))
        .map(|(_, n)| n.as_u64().unwrap())
        .sum();
    assert_eq!(calls, tools.len() as u64, "{revision}: {received}");
    // Every resource read: the 7 documents, `resources/list`'s dynamic ones, one template.
    assert_eq!(
        received["response to resources/read (ReadResourceResult)"], 8,
        "{revision}: {received}"
    );
    assert_eq!(
        received["response to prompts/get (GetPromptResult)"], 4,
        "{revision}: {received}"
    );
}

/// What the server sent beyond the session's revision, other than members (values of a newer
/// revision kept whole in a catch-all variant).
fn beyond_revision(summary: &Value) -> Vec<&str> {
    let all = summary["beyond_revision"].as_array().unwrap().iter();
    all.map(|b| b.as_str().unwrap())
        .filter(|b| {
            !b.ends_with(&format!(
                "unknown member (not in {})",
                summary["negotiated"].as_str().unwrap()
            ))
        })
        .collect()
}

/// The server requests the client answered, by kind. `roots/list` counts as answered once
/// however often it came: server-everything asks for the roots 350 ms after `initialized`
/// (`server/index.js`), and `get-roots-list` asks again when that answer is not cached yet
/// (`server/roots.js`), which depends on timing (seen once and twice at 2025-06-18).
fn answered(summary: &Value) -> Value {
    let mut answered = summary["answered"].clone();
    if let Some(n) = answered.get_mut("roots/list") {
        assert!(n.as_u64().is_some_and(|n| n >= 1), "{summary}");
        *n = json!(1);
    }
    answered
}

/// The failures of a session: anything we sent that the checker refused, and anything the
/// server sent that it refused.
fn failures(summary: &Value) -> Vec<String> {
    let all = summary["failures"].as_array().unwrap().iter();
    all.map(|f| f.as_str().unwrap().to_owned()).collect()
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn a_2025_11_25_session_is_typed_through_and_answers_every_kind_of_server_request() {
    let (out, summary, took) = session("2025-11-25");
    assert!(out.status.success(), "{summary}");
    assert_eq!(failures(&summary), Vec::<String>::new(), "{summary}");
    let tools = [
        &TOOLS[..],
        &[
            "get-roots-list",
            "trigger-elicitation-request",
            "trigger-sampling-request",
        ],
        &["trigger-url-elicitation"],
    ]
    .concat();
    check_session("2025-11-25", &summary, &tools);
    // The answers rotate: the form accepted (with content built from its schema), the URL
    // declined, the research task's form cancelled.
    assert_eq!(
        answered(&summary),
        json!({
            "elicitation/create form accept": 1,
            "elicitation/create url decline": 1,
            "elicitation/create form cancel": 1,
            "roots/list": 1,
            "sampling/createMessage": 1,
        }),
        "{summary}"
    );
    // The task-only tool ran as a task, with its status reported.
    let outcome = &summary["tools_called"];
    assert!(
        outcome.as_object().unwrap().values().all(|o| o == "ok"),
        "{outcome}"
    );
    let received = &summary["received"];
    assert_eq!(
        received["response to tasks/result (GetTaskPayloadResult)"],
        1
    );
    assert!(received["notifications/tasks/status"].as_u64() >= Some(3));
    // Only one member 2025-11-25 does not define: `additionalProperties` in an output schema.
    let unknown = summary["beyond_revision"].as_array().unwrap();
    assert_eq!(unknown.len(), 1, "{summary}");
    assert!(
        unknown[0]
            .as_str()
            .unwrap()
            .ends_with("/outputSchema/additionalProperties: unknown member (not in 2025-11-25)"),
        "{summary}"
    );
    eprintln!("2025-11-25: {took:?}");
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn a_2025_06_18_session_has_forms_without_modes() {
    let (out, summary, took) = session("2025-06-18");
    let tools = [
        &TOOLS[..],
        &[
            "get-roots-list",
            "trigger-elicitation-request",
            "trigger-sampling-request",
        ],
    ]
    .concat();
    check_session("2025-06-18", &summary, &tools);
    assert_eq!(
        answered(&summary),
        json!({"elicitation/create form accept": 1, "roots/list": 1, "sampling/createMessage": 1}),
        "{summary}"
    );
    // server-everything asks multi-select fields, which 2025-06-18 does not define: they come
    // whole in `PrimitiveSchemaDefinition::Unknown`, and the client still accepts the form.
    let unknown = "unknown PrimitiveSchemaDefinition `type` \"array\" (not in 2025-06-18)";
    assert_eq!(
        beyond_revision(&summary),
        [
            format!("/params/requestedSchema/properties/untitledMultipleSelectEnum: {unknown}"),
            format!("/params/requestedSchema/properties/titledMultipleSelectEnum: {unknown}"),
        ],
        "{summary}"
    );
    assert_eq!(failures(&summary), Vec::<String>::new(), "{summary}");
    assert!(out.status.success(), "{summary}");
    // The task-only tool is called as a plain call (2025-06-18 has no tasks): the server refuses.
    assert_eq!(summary["tools_called"]["simulate-research-query"], "error");
    eprintln!("2025-06-18: {took:?}");
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn sessions_at_2025_03_26_and_2024_11_05_have_sampling_and_roots_but_no_elicitation() {
    for revision in ["2025-03-26", "2024-11-05"] {
        let (out, summary, took) = session(revision);
        let tools = [&TOOLS[..], &["get-roots-list", "trigger-sampling-request"]].concat();
        check_session(revision, &summary, &tools);
        assert_eq!(
            answered(&summary),
            json!({"roots/list": 1, "sampling/createMessage": 1}),
            "{summary}"
        );
        // `resource_link` content (2025-06-18) in `get-resource-links` (3) and
        // `gzip-file-as-resource` (1): kept whole in the content union's `Unknown`.
        let link = format!(
            "unknown CallToolResultContentItem `type` \"resource_link\" (not in {revision})"
        );
        assert_eq!(
            beyond_revision(&summary),
            [1, 2, 3, 0].map(|i| format!("/result/content/{i}: {link}")),
            "{revision}: {summary}"
        );
        assert_eq!(failures(&summary), Vec::<String>::new(), "{summary}");
        assert!(out.status.success(), "{revision}: {summary}");
        eprintln!("{revision}: {took:?}");
    }
}

/// server-everything does not serve 2026-07-28 (it answers `server/discover` with `-32601`):
/// a client that speaks only that revision ends at once with an error saying so.
#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn a_revision_the_server_does_not_accept_ends_with_a_clear_error() {
    let (out, summary, took) = session("2026-07-28");
    assert_eq!(out.status.code(), Some(1), "{summary}");
    let error = summary["error"].as_str().unwrap();
    assert!(
        error.starts_with(
            "the session is not ready: the server does not serve 2026-07-28 (it answered \
             `server/discover` with error -32601"
        ),
        "{error}"
    );
    assert_eq!(
        (&summary["sent"], &summary["received"]),
        (
            &json!({"server/discover": 1}),
            &json!({"error -32601 to server/discover": 1})
        )
    );
    assert_eq!(failures(&summary), Vec::<String>::new());
    assert!(took < Duration::from_secs(10), "{took:?}");
}

/// `tests/examples/first-client.rs`, the README's "Writing a client", against server-everything:
/// it negotiates (falling back from 2026-07-28 to 2025-11-25), lists the tools and reads a
/// typed result. The README shows the file as it is.
#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn the_readme_client_lists_and_calls_tools() {
    let example = include_str!("../../examples/first-client.rs");
    let readme = include_str!("../../../README.md");
    assert!(
        readme.contains(example),
        "README.md shows tests/examples/first-client.rs whole"
    );
    let server = mcp_tests::peers::peers()
        .package_file("@modelcontextprotocol/server-everything", "dist/index.js");
    let binary = mcp_tests::example_binary("mcp-tests", "first-client", &[]);
    let out = Command::new(binary)
        .arg("node")
        .arg(&server)
        .arg("stdio")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run the example");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.starts_with("echo: Echoes back the input string\n"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("get-sum: [{\"type\":\"text\",\"text\":\"The sum of 1 and 2 is 3.\"}]\n"),
        "{stdout}"
    );
}
