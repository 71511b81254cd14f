//! The `validate-traffic` example of `mcp-typed`, run as a user runs it, on the traffic samples
//! in `tests/fixtures/traffic/`.
//!
//! The example is built once (`cargo build -p mcp-typed --all-features --example
//! validate-traffic`, from the workspace root) and its binary run directly by every test.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use mcp_tests::workspace;

/// The path of the built example.
fn binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        mcp_tests::example_binary("mcp-typed", "validate-traffic", &["--all-features"])
    })
}

fn fixture(name: &str) -> PathBuf {
    workspace().join("tests/fixtures/traffic").join(name)
}

/// Runs the example with `args`, feeding `stdin`.
fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(binary())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start validate-traffic");
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_owned();
    // From a thread, so that a large output cannot block the child while it waits for input;
    // a child that exits without reading (usage errors) closes the pipe, which is fine.
    let writer = std::thread::spawn(move || match pipe.write_all(input.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => panic!("writing stdin: {e}"),
        _ => {}
    });
    let out = child.wait_with_output().expect("run validate-traffic");
    writer.join().unwrap();
    out
}

/// Runs on a fixture file and returns (exit code, stdout lines, stderr).
fn check(revision: &str, extra: &[&str], file: &str) -> (i32, Vec<String>, String) {
    let path = fixture(file);
    let mut args = vec!["--revision", revision];
    args.extend_from_slice(extra);
    args.push(path.to_str().unwrap());
    let out = run(&args, "");
    (
        out.status.code().expect("exited normally"),
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Compares output lines with the expected ones, showing both in full on a mismatch.
fn assert_lines(what: &str, got: &[String], expected: &[&str]) {
    assert!(
        got == expected,
        "{what}: unexpected output\n--- got:\n{}\n--- expected:\n{}",
        got.join("\n"),
        expected.join("\n")
    );
}

#[test]
fn good_2025_11_25_session_is_typed_line_by_line() {
    let (code, lines, stderr) = check("2025-11-25", &[], "session-2025-11-25.jsonl");
    assert_lines(
        "session-2025-11-25.jsonl",
        &lines,
        &[
            "ok request InitializeRequest (initialize)",
            "ok response to initialize (InitializeResult)",
            "ok notification InitializedNotification (notifications/initialized)",
            "ok request ListToolsRequest (tools/list)",
            "ok response to tools/list (ListToolsResult)",
            "ok request CallToolRequest (tools/call)",
            "ok notification ProgressNotification (notifications/progress)",
            "ok notification LoggingMessageNotification (notifications/message)",
            "ok response to tools/call (CallToolResult)",
            "ok request CallToolRequest (tools/call)",
            "ok error -32602 to tools/call",
            "ok request Custom (vendor/x); note: /: custom method \"vendor/x\" (ClientRequest) (not in 2025-11-25)",
            "ok response to vendor/x (untyped); note: /result: answers a method 2025-11-25 does not define, not checked",
            "ok notification Custom (vendor/x); note: /: custom method \"vendor/x\" (ServerNotification) (not in 2025-11-25)",
            "ok request PingRequest (ping)",
            // Named as the request's result type: `EmptyResult` (an alias of `Result`).
            "ok response to ping (EmptyResult)",
            // Both sides use id 5: each response pairs with the other side's request.
            "ok request CallToolRequest (tools/call)",
            "ok request PingRequest (ping)",
            "ok response to ping (EmptyResult)",
            "ok response to tools/call (CallToolResult)",
            // A line without `dir`: both sides' unions are tried.
            "ok notification CancelledNotification (notifications/cancelled)",
            "21 passed, 0 failed",
        ],
    );
    assert_eq!(code, 0, "exit status; stderr: {stderr}");
    assert!(stderr.is_empty(), "stderr: {stderr}");
}

#[test]
fn bad_lines_are_reported_with_their_reason_and_fail_the_run() {
    let (code, lines, _) = check("2025-11-25", &[], "bad-lines-2025-11-25.jsonl");
    let expected: [(&str, &[&str]); 9] = [
        ("ok request CallToolRequest (tools/call)", &[]),
        // Only the result type of `tools/call` knows the content types: an unknown one is
        // kept whole and noted, not an error.
        (
            "ok response to tools/call (CallToolResult); note: /result/content/0: unknown ContentBlock `type` \"picture\" (not in 2025-11-25)",
            &[],
        ),
        ("error JSONRPCMessage: ", &["`jsonrpc`", "\"1.0\""]),
        // The truncated line 4: the parser stops at the start of line 5, and reading goes on
        // there.
        ("error invalid JSON at line 5 column 1: ", &["expected"]),
        // The request on the invalid line was never recorded: a response to no request is a
        // protocol error (it was `ok response` before `mcp_typed::check` checked ids).
        (
            "error response: /id: no request from the client with id 3 awaits a response (none was sent, or it was answered already)",
            &[],
        ),
        // A request that cannot be read: its id and method, and the error to answer with.
        (
            "error request id 4 (tools/call), answer -32602: ClientRequest: ",
            &["missing member `name`", "at /params"],
        ),
        (
            "ok notification ProgressNotification (notifications/progress)",
            &[],
        ),
        // A method of the other side, with a direction given.
        (
            "error request id 9 (sampling/createMessage), answer -32601: wrong direction: CreateMessageRequest is a ServerRequest, not a ClientRequest (sent c2s)",
            &[],
        ),
        ("3 passed, 5 failed", &[]),
    ];
    assert_eq!(
        lines.len(),
        expected.len(),
        "one line per input line and a summary:\n{}",
        lines.join("\n")
    );
    for (line, (start, needles)) in lines.iter().zip(expected) {
        if needles.is_empty() {
            assert_eq!(line, start);
            continue;
        }
        assert!(
            line.starts_with(start),
            "{line:?} should start with {start:?}"
        );
        for needle in needles {
            assert!(line.contains(needle), "{line:?} should mention {needle}");
        }
    }
    assert_eq!(code, 1, "a failed line makes the exit status non-zero");
}

#[test]
fn definition_mode_decodes_each_line_as_that_definition() {
    let (code, lines, _) = check(
        "draft",
        &["--definition", "ContentBlock"],
        "content-blocks.jsonl",
    );
    assert_eq!(lines.len(), 7, "{}", lines.join("\n"));
    assert_lines(
        "content-blocks.jsonl",
        &lines[..5],
        &[
            "ok ContentBlock (TextContent)",
            "ok ContentBlock (ImageContent)",
            "ok ContentBlock (AudioContent)",
            "ok ContentBlock (ResourceLink)",
            // A content type of no revision yet: kept whole, and said so.
            "ok ContentBlock (Unknown); note: /: unknown ContentBlock `type` \"video\" (not in DRAFT-2026-v1)",
        ],
    );
    assert!(
        lines[5].starts_with("error missing member `text` in a TextContent object"),
        "{}",
        lines[5]
    );
    assert_eq!(lines[6], "5 passed, 1 failed");
    assert_eq!(code, 1);

    // A struct definition, from standard input, wrapped lines too.
    let input = concat!(
        r#"{"content":[{"type":"text","text":"a"}],"resultType":"complete"}"#,
        "\n\n",
        r#"{"dir":"s2c","msg":{"content":[],"isError":true,"resultType":"complete"}}"#,
        "\n"
    );
    let out = run(
        &["--revision", "draft", "--definition", "CallToolResult", "-"],
        input,
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "ok CallToolResult\nok CallToolResult\n2 passed, 0 failed\n"
    );
    assert!(out.status.success());
}

#[test]
fn every_revision_types_the_same_traffic() {
    for revision in [
        "2024-11-05",
        "2025-03-26",
        "2025-06-18",
        "2025-11-25",
        "2026-07-28",
        "draft",
    ] {
        let (code, lines, stderr) = check(revision, &[], "any-revision.jsonl");
        // From 2026-07-28 on, the only client notification is `notifications/cancelled`,
        // and `ClientNotification` is that notification's type itself.
        let cancelled = if matches!(revision, "2026-07-28" | "draft") {
            "ok notification ClientNotification (notifications/cancelled)"
        } else {
            "ok notification CancelledNotification (notifications/cancelled)"
        };
        let shown = if revision == "draft" {
            "DRAFT-2026-v1"
        } else {
            revision
        };
        let custom = format!(
            "ok request Custom (vendor.example/search); note: /: custom method \"vendor.example/search\" (ClientRequest) (not in {shown})"
        );
        // `resultType` came with 2026-07-28.
        let result = if !matches!(revision, "2026-07-28" | "draft") {
            format!(
                "ok response to tools/call (CallToolResult); note: /result/resultType: unknown member (not in {revision})"
            )
        } else {
            "ok response to tools/call (CallToolResult)".to_owned()
        };
        assert_lines(
            revision,
            &lines,
            &[
                &custom,
                "ok error -32601 to vendor.example/search",
                "ok request CallToolRequest (tools/call)",
                "ok notification ProgressNotification (notifications/progress)",
                &result,
                cancelled,
                "6 passed, 0 failed",
            ],
        );
        assert_eq!(code, 0, "{revision}: {stderr}");
    }
}

#[test]
fn draft_session_types_input_required_and_complete_results() {
    let (code, lines, stderr) = check("draft", &[], "session-draft.jsonl");
    assert_lines(
        "session-draft.jsonl",
        &lines,
        &[
            "ok request DiscoverRequest (server/discover)",
            "ok response to server/discover (DiscoverResult)",
            "ok request CallToolRequest (tools/call)",
            "ok response to tools/call (InputRequiredResult)",
            "ok request CallToolRequest (tools/call)",
            "ok notification ProgressNotification (notifications/progress)",
            "ok response to tools/call (CallToolResult)",
            "ok notification ClientNotification (notifications/cancelled)",
            "8 passed, 0 failed",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn same_line_differs_by_revision() {
    // `elicitation/create` from the server: typed from 2025-06-18 on, a custom method before.
    let line = r#"{"dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}}}"#;
    let expect = [
        (
            "2025-03-26",
            "ok request Custom (elicitation/create); note: /: custom method \"elicitation/create\" (ServerRequest) (not in 2025-03-26)",
        ),
        (
            "2025-06-18",
            "ok request ElicitRequest (elicitation/create)",
        ),
    ];
    for (revision, first) in expect {
        let out = run(&["--revision", revision, "-"], line);
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            format!("{first}\n1 passed, 0 failed\n"),
            "{revision}"
        );
    }
    // Batches exist in 2025-03-26 only.
    let batch = r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]"#;
    let out = run(&["--revision", "2025-03-26", "-"], batch);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "ok batch [request PingRequest (ping), notification InitializedNotification (notifications/initialized)]\n1 passed, 0 failed\n"
    );
    let out = run(&["--revision", "2025-06-18", "-"], batch);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("error JSONRPCMessage: "), "{stdout}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn usage_errors_exit_with_2_and_say_why() {
    let out = run(&["--revision", "2025-01-01", "-"], "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("2025-01-01") && stderr.contains("2025-11-25") && stderr.contains("draft"),
        "{stderr}"
    );

    let out = run(
        &["--revision", "2025-11-25", "--definition", "Nope", "-"],
        "{}",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("`Nope`") && stderr.contains("CallToolResult"),
        "{stderr}"
    );

    let out = run(&["--revision", "draft", "/nonexistent/traffic.jsonl"], "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("/nonexistent/traffic.jsonl"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn pretty_printed_and_concatenated_values_are_read_whole() {
    // One pretty-printed document, then two values on one line, then a broken line and a
    // value after it: four messages and one error, never one error per line.
    let input = r#"{
  "jsonrpc": "2.0",
  "id": 1,
  "method": "tools/call",
  "params": {
    "name": "book_table",
    "arguments": {"date": "2026-12-24"}
  }
}
{"jsonrpc":"2.0","id":1,"result":{"content":[]}} {"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":
{"jsonrpc":"2.0","id":2,"method":"ping"}
"#;
    let out = run(&["--revision", "2025-11-25", "-"], input);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        [
            "ok request CallToolRequest (tools/call)",
            "ok response to tools/call (CallToolResult)",
            "ok notification InitializedNotification (notifications/initialized)",
            // The broken value runs into the next line's; reading resumes after it.
            "error invalid JSON at line 13 column 0: EOF while parsing an object",
            "ok request PingRequest (ping)",
            "4 passed, 1 failed",
        ],
        "{stdout}"
    );
}

#[test]
fn errata_and_unknown_shapes_are_noted_on_ok_lines() {
    let input = concat!(
        r#"{"dir":"s2c","msg":{"jsonrpc":"2.0","id":3,"method":"elicitation/create","params":{"message":"Height?","requestedSchema":{"type":"object","properties":{"h":{"type":"number"}}}}}}"#,
        "\n",
        r#"{"dir":"c2s","msg":{"jsonrpc":"2.0","id":3,"result":{"action":"accept","content":{"h":1.75}}}}"#,
        "\n",
        r#"{"dir":"s2c","msg":{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}}"#,
        "\n",
        r#"{"dir":"c2s","msg":{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"x","vendorFlag":true}}}"#,
        "\n",
    );
    let out = run(&["--revision", "2025-06-18", "-"], input);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        concat!(
            "ok request ElicitRequest (elicitation/create)\n",
            "ok response to elicitation/create (ElicitResult); note: erratum elicit-content-numbers: /result/content/h\n",
            "ok error -32700; note: erratum jsonrpc-error-id-null: /id\n",
            "ok request CallToolRequest (tools/call); note: /params/vendorFlag: unknown member (not in 2025-06-18)\n",
            "4 passed, 0 failed\n",
        )
    );
}

// ---------------------------------------------------------------------------------------------
// Real traffic (tests/fixtures/real-traffic, captured from the pinned SDK peers by
// tests/peers/capture.sh)

fn real(file: &str) -> PathBuf {
    workspace().join("tests/fixtures/real-traffic").join(file)
}

/// Each captured session, decoded with the types of the revision its peers negotiated: every
/// message decodes and re-encodes unchanged, except where a peer sent a newer revision's
/// shape that the negotiated revision's types cannot hold; those are errors naming that
/// revision, and counted here so that none appears or disappears unnoticed.
#[test]
fn real_sdk_traffic_decodes_with_the_negotiated_revision() {
    // (file, messages, errors that are newer revisions' shapes)
    const EXPECTED: &[(&str, usize, usize)] = &[
        ("py-client-everything-2024-11-05.jsonl", 148, 0),
        ("py-client-everything-2025-03-26.jsonl", 149, 0),
        // server-everything sends a URL-mode elicitation (2025-11-25) to a 2025-06-18 client.
        ("py-client-everything-2025-06-18.jsonl", 149, 1),
        ("py-client-everything-2025-11-25.jsonl", 148, 0),
        ("py-client-py-server-2024-11-05.jsonl", 74, 0),
        ("py-client-py-server-2025-03-26.jsonl", 74, 0),
        ("py-client-py-server-2025-06-18.jsonl", 74, 0),
        ("py-client-py-server-2025-11-25.jsonl", 74, 0),
        ("py-client-py-server-2026-07-28.jsonl", 70, 0),
        // The TS client runs tasks (2025-11-25) whatever the negotiated revision: task
        // results on older sessions.
        ("ts-client-everything-2024-11-05.jsonl", 181, 2),
        ("ts-client-everything-2025-03-26.jsonl", 181, 2),
        ("ts-client-everything-2025-06-18.jsonl", 181, 4),
        ("ts-client-everything-2025-11-25.jsonl", 181, 0),
        ("ts-client-py-server-2024-11-05.jsonl", 74, 0),
        ("ts-client-py-server-2025-03-26.jsonl", 74, 0),
        ("ts-client-py-server-2025-06-18.jsonl", 74, 0),
        ("ts-client-py-server-2025-11-25.jsonl", 74, 0),
    ];
    let captures: Vec<serde_json::Value> = serde_json::from_str(
        &std::fs::read_to_string(real("captures.json")).expect("captures.json"),
    )
    .unwrap();
    let mut checked = 0;
    for c in &captures {
        let file = c["file"].as_str().unwrap();
        let Some(&(_, messages, newer)) = EXPECTED.iter().find(|e| e.0 == file) else {
            // (`captures.json` lists every pairing and revision tried.)
            // Only the refused negotiations (`*-rejected.jsonl`) are not sessions.
            assert!(
                file.ends_with("-rejected.jsonl"),
                "{file} is not in EXPECTED"
            );
            continue;
        };
        let revision = c["negotiated"].as_str().unwrap();
        let path = real(file);
        let out = run(&["--revision", revision, path.to_str().unwrap()], "");
        let stdout = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = stdout.lines().collect();
        let (summary, results) = lines.split_last().unwrap();
        assert_eq!(results.len(), messages, "{file}: messages");
        let failed: Vec<&&str> = results.iter().filter(|l| !l.starts_with("ok ")).collect();
        // The Python SDK server logs (`notifications/message`) without declaring `logging`.
        let (unlogged, failed): (Vec<&&str>, Vec<&&str>) = failed
            .into_iter()
            .partition(|l| l.contains("`notifications/message` needs the server's `logging`"));
        let unlogged = unlogged.len();
        assert_eq!(
            unlogged,
            if file.contains("-py-server-") { 2 } else { 0 },
            "{file}"
        );
        for f in &failed {
            assert!(
                f.starts_with("error ") && f.contains("; a 2025-11-25 shape ("),
                "{file} ({revision}): not a newer revision's shape: {f}"
            );
        }
        assert_eq!(failed.len(), newer, "{file}: {failed:#?}");
        assert_eq!(
            *summary,
            format!(
                "{} passed, {} failed",
                messages - newer - unlogged,
                newer + unlogged
            ),
            "{file}"
        );
        checked += 1;
    }
    assert_eq!(checked, EXPECTED.len());
}

/// Every message the Python SDK's own validators reject (tests/fixtures/real-traffic/
/// sdk-invalid.json, written by tests/peers/sdk_validate.py) is flagged by ours too: an
/// error, or an `ok` with a note saying what it holds beyond its revision. None passes as a
/// plain `ok`, but for the one place where the SDK lags the schema: mcp 2.3.0 does not
/// implement 2025-11-25's tasks, which the official schema defines and our types decode.
#[test]
fn messages_the_sdk_rejects_are_flagged() {
    let invalid: Vec<serde_json::Value> = serde_json::from_str(
        &std::fs::read_to_string(real("sdk-invalid.json")).expect("sdk-invalid.json"),
    )
    .unwrap();
    let captures: Vec<serde_json::Value> = serde_json::from_str(
        &std::fs::read_to_string(real("captures.json")).expect("captures.json"),
    )
    .unwrap();
    assert!(!invalid.is_empty());
    let mut sdk_lags = 0;
    let mut outputs = std::collections::BTreeMap::new();
    for entry in &invalid {
        let file = entry["file"].as_str().unwrap();
        let line = entry["line"].as_u64().unwrap() as usize;
        let lines = outputs.entry(file.to_owned()).or_insert_with(|| {
            let revision = captures
                .iter()
                .find(|c| c["file"] == file)
                .and_then(|c| c["negotiated"].as_str())
                .unwrap_or_else(|| panic!("{file} is not in captures.json"));
            let path = real(file);
            let out = run(&["--revision", revision, path.to_str().unwrap()], "");
            String::from_utf8(out.stdout)
                .unwrap()
                .lines()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        });
        let ours = &lines[line - 1];
        if ours.starts_with("error ") || ours.contains("; note: ") {
            continue;
        }
        const TASK_TYPES: &[&str] = &[
            "(CreateTaskResult)",
            "(GetTaskResult)",
            "(GetTaskPayloadResult)",
            "(ListTasksResult)",
            "GetTaskRequest (tasks/get)",
            "GetTaskPayloadRequest (tasks/result)",
            "ListTasksRequest (tasks/list)",
            "TaskStatusNotification (notifications/tasks/status)",
        ];
        assert!(
            file.ends_with("-2025-11-25.jsonl") && TASK_TYPES.iter().any(|t| ours.contains(t)),
            "{file}:{line}: the SDK says {:?}, we say {ours:?}",
            entry["reason"]
        );
        sdk_lags += 1;
    }
    assert_eq!(
        sdk_lags, 25,
        "2025-11-25 task messages the SDK does not model"
    );
}
