//! The `validate-traffic` example of `mcp-types`, run as a user runs it, on the traffic samples
//! in `tests/fixtures/traffic/`.
//!
//! The example is built once (`cargo build -p mcp-types --all-features --example
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
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
        let out = Command::new(cargo)
            .current_dir(workspace())
            .args([
                "build",
                "-p",
                "mcp-types",
                "--all-features",
                "--example",
                "validate-traffic",
                "--message-format=json-render-diagnostics",
            ])
            .output()
            .expect("run cargo");
        assert!(
            out.status.success(),
            "building the example failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout)
            .expect("cargo's messages are UTF-8")
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .find(|m| {
                m["reason"] == "compiler-artifact" && m["target"]["name"] == "validate-traffic"
            })
            .and_then(|m| m["executable"].as_str().map(PathBuf::from))
            .expect("cargo reports the example's executable")
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
            "ok request Custom (vendor/x)",
            "ok response to vendor/x (untyped)",
            "ok notification Custom (vendor/x)",
            "ok request PingRequest (ping)",
            // `EmptyResult` is an alias of `Result`, generated as `McpResult`.
            "ok response to ping (McpResult)",
            // Both sides use id 5: each response pairs with the other side's request.
            "ok request CallToolRequest (tools/call)",
            "ok request PingRequest (ping)",
            "ok response to ping (McpResult)",
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
        // Only the result type of `tools/call` knows the content types: the envelope alone
        // would accept this.
        (
            "error result of tools/call: ",
            &["`type`", "\"picture\"", "ContentBlock"],
        ),
        ("error JSONRPCMessage: ", &["JSONRPCMessage"]),
        ("error invalid JSON: ", &["EOF"]),
        // The request on the invalid line was never recorded.
        ("ok response", &[]),
        ("error ClientRequest: ", &["missing field `name`"]),
        (
            "ok notification ProgressNotification (notifications/progress)",
            &[],
        ),
        // A method of the other side, with a direction given.
        (
            "error wrong direction: CreateMessageRequest is a ServerRequest, not a ClientRequest (sent c2s)",
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
        &lines[..4],
        &[
            "ok ContentBlock (TextContent)",
            "ok ContentBlock (ImageContent)",
            "ok ContentBlock (AudioContent)",
            "ok ContentBlock (ResourceLink)",
        ],
    );
    assert!(
        lines[4].starts_with("error invalid `type` \"video\" for ContentBlock"),
        "{}",
        lines[4]
    );
    assert!(
        lines[5].starts_with("error missing field `text`"),
        "{}",
        lines[5]
    );
    assert_eq!(lines[6], "4 passed, 2 failed");
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
        assert_lines(
            revision,
            &lines,
            &[
                "ok request Custom (vendor.example/search)",
                "ok error -32601 to vendor.example/search",
                "ok request CallToolRequest (tools/call)",
                "ok notification ProgressNotification (notifications/progress)",
                "ok response to tools/call (CallToolResult)",
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
        ("2025-03-26", "ok request Custom (elicitation/create)"),
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
