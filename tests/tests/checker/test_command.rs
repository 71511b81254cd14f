//! `mcp-typed test -- SERVER…`: the project's booking example (no peer needed), and the real
//! peers (feature `interop`): server-everything at every revision it speaks and the Python SDK
//! server. The report is read as JSON.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

use mcp_tests::mcp_typed_binary as mcp_typed;

/// `mcp-typed test --json ARGS -- SERVER…`: the output and the report.
fn test(args: &[&str], server: &[&Path]) -> (Output, Value) {
    let mut command = Command::new(mcp_typed());
    command.arg("test").arg("--json").args(args);
    if !server.is_empty() {
        command.arg("--").args(server);
    }
    let out = command.output().expect("run mcp-typed test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON report ({e}, {}):\n{stdout}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out, report)
}

/// The revisions with their status: `["2025-06-18 tested", "2024-11-05 not_served"…]`.
fn statuses(report: &Value) -> Vec<String> {
    let runs = report["revisions"].as_array().unwrap().iter();
    runs.map(|r| {
        format!(
            "{} {}",
            r["revision"].as_str().unwrap(),
            r["status"].as_str().unwrap()
        )
    })
    .collect()
}

/// Every finding of every revision: `revision level [capability] rule what at pointer`.
fn findings(report: &Value, level: &str) -> Vec<String> {
    let mut out = Vec::new();
    for run in report["revisions"].as_array().unwrap() {
        for f in run["findings"].as_array().unwrap() {
            if f["level"] == level {
                out.push(format!(
                    "{} [{}] {} {} at {}",
                    run["revision"].as_str().unwrap(),
                    f["capability"].as_str().unwrap(),
                    f["rule"].as_str().unwrap(),
                    f["what"].as_str().unwrap(),
                    f["pointer"].as_str().unwrap()
                ));
            }
        }
    }
    out
}

/// The run of `revision` in a report.
fn run<'a>(report: &'a Value, revision: &str) -> &'a Value {
    let runs = report["revisions"].as_array().unwrap();
    runs.iter().find(|r| r["revision"] == revision).unwrap()
}

fn cell<'a>(report: &'a Value, revision: &str, capability: &str) -> &'a Value {
    &run(report, revision)["matrix"][capability]
}

fn booking() -> PathBuf {
    mcp_tests::example_binary("mcp-tests", "booking-server", &[])
}

/// The booking example serves 2025-06-18, 2025-11-25 and 2026-07-28; every message both ways
/// passes the checker; its tools are not annotated read-only, so they are listed, not called.
#[test]
fn the_booking_example_passes_and_its_tools_are_not_called_without_consent() {
    let (out, report) = test(&[], &[&booking()]);
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert_eq!(
        statuses(&report),
        [
            "2024-11-05 not_served",
            "2025-03-26 not_served",
            "2025-06-18 tested",
            "2025-11-25 tested",
            "2026-07-28 tested"
        ]
    );
    assert_eq!(findings(&report, "error"), Vec::<String>::new());
    for revision in ["2025-06-18", "2025-11-25", "2026-07-28"] {
        // `tools/list` only.
        assert_eq!(
            cell(&report, revision, "tools")["exercised"],
            1,
            "{revision}"
        );
        assert_eq!(cell(&report, revision, "elicitation")["exercised"], 0);
        assert_eq!(cell(&report, revision, "resources")["offered"], true);
    }
    let run = &report["revisions"][4];
    assert_eq!(
        run["tools"]["book_table"],
        json!({"plan": "skip", "because": "not annotated readOnlyHint (name it with --tool, or --call-all)"})
    );
}

/// With consent, the tools named are called: `survey`'s form is answered with a valid answer
/// through the form model (2026-07-28: an `input_required` result and a retry), `book_table`
/// with a generated date, and its invalid call (no `date`) is refused as a tool error.
#[test]
fn with_consent_the_booking_tools_are_called_and_their_forms_answered() {
    let (out, report) = test(
        &[
            "--tool",
            "survey",
            "--tool",
            "book_table",
            "--revision",
            "2025-11-25",
            "--revision",
            "2026-07-28",
        ],
        &[&booking()],
    );
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert_eq!(
        statuses(&report),
        ["2025-11-25 tested", "2026-07-28 tested"]
    );
    for revision in ["2025-11-25", "2026-07-28"] {
        let asked = cell(&report, revision, "elicitation");
        assert_eq!(asked["exercised"], 1, "{revision}: {report}");
        // tools/list, book_table's valid and invalid calls, survey's call, and the list
        // after the cancelled call.
        assert_eq!(
            cell(&report, revision, "tools")["exercised"],
            5,
            "{revision}: {report}"
        );
    }
    // No error, and no note: every call succeeded (the invalid one was refused as it should).
    assert_eq!(findings(&report, "error"), Vec::<String>::new());
    assert_eq!(findings(&report, "note"), Vec::<String>::new());
}

/// `--dry-run` lists and plans, and calls nothing, even with `--call-all`.
#[test]
fn a_dry_run_calls_nothing() {
    let (out, report) = test(
        &["--dry-run", "--call-all", "--revision", "2025-11-25"],
        &[&booking()],
    );
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert_eq!(cell(&report, "2025-11-25", "tools")["exercised"], 1);
    assert_eq!(
        report["revisions"][0]["tools"]["book_table"]["plan"],
        "call"
    );
}

fn server_everything() -> PathBuf {
    mcp_tests::peers::peers()
        .package_file("@modelcontextprotocol/server-everything", "dist/index.js")
}

/// server-everything over stdio: every revision it speaks (2024-11-05 … 2025-11-25; it answers
/// `server/discover` with -32601), no error in any message either way, its read-only tools
/// called (its others listed, not called), and what it declares exercised.
#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn server_everything_passes_at_every_revision_it_speaks() {
    let node = PathBuf::from("node");
    let (out, report) = test(&[], &[&node, &server_everything(), Path::new("stdio")]);
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert_eq!(
        statuses(&report),
        [
            "2024-11-05 tested",
            "2025-03-26 tested",
            "2025-06-18 tested",
            "2025-11-25 tested",
            "2026-07-28 not_served"
        ]
    );
    assert_eq!(findings(&report, "error"), Vec::<String>::new());
    for revision in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        for capability in ["tools", "prompts", "resources", "completions", "logging"] {
            let cell = cell(&report, revision, capability);
            assert_eq!(cell["offered"], true, "{revision} {capability}");
            assert!(
                cell["exercised"].as_u64() > Some(0),
                "{revision} {capability}: {cell}"
            );
        }
    }
    let plan = &report["revisions"][3]["tools"];
    assert_eq!(plan["get-sum"]["plan"], "call", "{plan}");
    assert_eq!(plan["toggle-simulated-logging"]["plan"], "skip", "{plan}");
}

/// The Python SDK server 2.3.0 with every tool allowed: it speaks every revision (2026-07-28
/// with `server/discover`); its forms are answered (2026-07-28: through `input_required`), its
/// sampling and roots requests too. What it gets wrong, and nothing else: up to 2025-11-25 its
/// `slow_count` tool logs with `notifications/message` although its `initialize` result
/// declares no `logging` capability (the spec: a server that sends log messages declares it);
/// in 2026-07-28 it sends none (no request asked for a log level).
#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn the_python_sdk_server_is_exercised_with_every_tool_allowed() {
    let python = PathBuf::from(mcp_tests::peers::peers().python().get_program());
    let script = mcp_tests::workspace().join("tests/peers/py_server.py");
    let (out, report) = test(&["--call-all"], &[&python, &script]);
    assert_eq!(
        statuses(&report),
        [
            "2024-11-05 tested",
            "2025-03-26 tested",
            "2025-06-18 tested",
            "2025-11-25 tested",
            "2026-07-28 tested"
        ],
        "{report}"
    );
    let mut errors = findings(&report, "error");
    errors.dedup();
    let log = "[logging] capability s2c notification LoggingMessageNotification \
               (notifications/message) at /method";
    assert_eq!(
        errors,
        ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"].map(|r| format!("{r} {log}")),
        "{report}"
    );
    assert_eq!(out.status.code(), Some(1), "{report}");
    for revision in ["2025-06-18", "2025-11-25", "2026-07-28"] {
        for capability in ["elicitation", "sampling", "roots"] {
            let cell = cell(&report, revision, capability);
            assert!(
                cell["exercised"].as_u64() > Some(0),
                "{revision} {capability}: {report}"
            );
        }
    }
}

/// server-everything over Streamable HTTP (`streamableHttp` on a free loopback port), a
/// session of its own per revision: the same revisions as over stdio, no error; 2026-07-28's
/// `server/discover` is refused with HTTP 400, which is reported as not served.
#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn server_everything_over_http_passes_at_every_revision_it_speaks() {
    let (_server, url) = mcp_tests::peers::peers().everything_http();
    let (out, report) = test(&["--url", &url], &[]);
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert_eq!(
        statuses(&report),
        [
            "2024-11-05 tested",
            "2025-03-26 tested",
            "2025-06-18 tested",
            "2025-11-25 tested",
            "2026-07-28 not_served"
        ]
    );
    assert_eq!(findings(&report, "error"), Vec::<String>::new());
    let why = report["revisions"][4]["why"].as_str().unwrap();
    assert!(
        why.contains("answered `server/discover` with error -32000"),
        "{why}"
    );
}

fn script(name: &str) -> PathBuf {
    mcp_tests::workspace().join("tests/peers").join(name)
}

/// `tests/peers/broken_server.py` plants one fault per kind (listed with its JSON Pointer in
/// `broken_server.faults.json`): every one is reported at its pointer, in each revision it is
/// planted in, and nothing else is (a fault in a message sent twice, such as `tools/list`, is
/// reported for each).
#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs python3 (standard library only): feature `interop` (.ci/run turns it on)"
)]
fn every_planted_fault_is_reported_at_its_pointer_and_nothing_else() {
    let faults: Value = serde_json::from_str(
        &std::fs::read_to_string(script("broken_server.faults.json")).unwrap(),
    )
    .unwrap();
    let python = PathBuf::from("python3");
    let (out, report) = test(&[], &[&python, &script("broken_server.py")]);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert_eq!(
        statuses(&report),
        [
            "2024-11-05 not_served",
            "2025-03-26 not_served",
            "2025-06-18 tested",
            "2025-11-25 tested",
            "2026-07-28 not_served"
        ]
    );
    for revision in ["2025-06-18", "2025-11-25"] {
        let mut planted: Vec<&str> = faults["faults"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| {
                f["revisions"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|r| r == revision)
            })
            .map(|f| f["pointer"].as_str().unwrap())
            .collect();
        planted.sort();
        planted.dedup();
        let run = run(&report, revision);
        let mut found: Vec<&str> = run["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["level"] == "error")
            .map(|f| f["pointer"].as_str().unwrap())
            .collect();
        found.sort();
        found.dedup();
        assert_eq!(found, planted, "{revision}: {run}");
    }
}

/// Side effects only with consent: `tests/peers/counting_server.py` counts the calls of its
/// tools that are not read-only (`touch`; `wipe`, destructive; `peek`, both hints) in
/// `MCP_COUNT_FILE`. By default none is called; with `--tool touch`, exactly that one (once
/// per revision, plus its invalid call, which the server refuses and does not count).
#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs python3 (standard library only): feature `interop` (.ci/run turns it on)"
)]
fn a_tool_with_side_effects_is_never_called_without_consent() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("test-command");
    std::fs::create_dir_all(&dir).unwrap();
    let count = dir.join("count");
    let _ = std::fs::remove_file(&count);
    let server = script("counting_server.py");
    let run = |extra: &[&str]| {
        let out = Command::new(mcp_typed())
            .arg("test")
            .arg("--json")
            .args(extra)
            .args(["--", "python3"])
            .arg(&server)
            .env("MCP_COUNT_FILE", &count)
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(findings(&report, "error"), Vec::<String>::new(), "{report}");
        report
    };
    let report = run(&[]);
    assert!(
        !count.exists(),
        "{}",
        std::fs::read_to_string(&count).unwrap_or_default()
    );
    let plan = &report["revisions"][3]["tools"];
    assert_eq!(plan["look"]["plan"], "call", "{plan}");
    for tool in ["touch", "wipe", "peek"] {
        assert_eq!(plan[tool]["plan"], "skip", "{tool}: {plan}");
    }
    run(&["--tool", "touch"]);
    let calls = std::fs::read_to_string(&count).unwrap();
    let tools: Vec<&str> = calls
        .lines()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    // One valid call per revision served (2025-03-26, 2025-06-18, 2025-11-25); the cancelled
    // call is `look`'s, the first callable tool.
    assert_eq!(tools, ["touch"; 3], "{calls}");
}
