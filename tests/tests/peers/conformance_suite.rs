//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
//! `tests/peers/versions.env`, run on the Node.js 22 installed beside it) against
//! `tests/examples/conformance-server.rs` over Streamable HTTP on loopback.
//!
//! Two runs against one server process:
//! - the suite's requirement set for 2025-11-25 (`--requirements 2025-11-25`): every scenario,
//!   the elicitation ones by name, must pass, and the suite must exit 0;
//! - every server scenario (`--suite all`, the 2026-07-28 and extension ones too): the four
//!   elicitation ones must pass, and the result of each must be the one recorded in
//!   `tests/fixtures/conformance-server.json` (pass, or fail with which checks), so a
//!   regression and an unrecorded improvement both fail, with a diff.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::time::Instant;

use mcp_tests::HttpExample;
use mcp_tests::peers::conformance;
use serde_json::{Value, json};

/// The elicitation scenarios of the 2025-11-25 requirement set.
const ELICITATION: [&str; 3] = [
    "tools-call-elicitation",
    "elicitation-sep1034-defaults",
    "elicitation-sep1330-enums",
];

/// Every elicitation scenario of the suite's server scenarios (sorted), the 2026-07-28 one
/// (an `InputRequiredResult` round trip, stateless) included.
const ALL_ELICITATION: [&str; 4] = [
    "elicitation-sep1034-defaults",
    "elicitation-sep1330-enums",
    "input-required-result-basic-elicitation",
    "tools-call-elicitation",
];

/// What the suite found for one scenario: its checks, or, when the scenario threw before
/// writing any, the suite's message.
type Outcome = Result<Vec<Value>, String>;

/// Runs `conformance server --url <url> <args>` with results in `out`; returns whether it
/// exited successfully, its output, and what each scenario found.
fn run(
    server: &HttpExample,
    args: &[&str],
    out: &Path,
) -> (bool, String, BTreeMap<String, Outcome>) {
    if out.exists() {
        std::fs::remove_dir_all(out).expect("clear the results folder");
    }
    let started = Instant::now();
    let output = conformance()
        .command()
        .args(["server", "--url", &server.url, "--output-dir"])
        .arg(out)
        .args(args)
        .output()
        .expect("run the conformance suite");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let results = results(out, &text);
    eprintln!(
        "conformance server {}: {} scenarios in {:.1?}",
        args.join(" "),
        results.len(),
        started.elapsed()
    );
    (output.status.success(), text, results)
}

/// `<out>/server-<scenario>-<timestamp>/checks.json`, by scenario.
fn results(out: &Path, text: &str) -> BTreeMap<String, Outcome> {
    let mut results = BTreeMap::new();
    let dirs = std::fs::read_dir(out).unwrap_or_else(|e| {
        panic!(
            "the suite wrote no results to {}: {e}\n{text}",
            out.display()
        )
    });
    for dir in dirs {
        let dir = dir.expect("read the results folder").path();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let scenario = scenario_name(&name)
            .unwrap_or_else(|| panic!("unexpected results folder {}", dir.display()));
        let file = dir.join("checks.json");
        let outcome =
            match std::fs::read_to_string(&file) {
                Ok(json) => Ok(serde_json::from_str(&json)
                    .unwrap_or_else(|e| panic!("{}: {e}", file.display()))),
                // The scenario threw: the suite printed why.
                Err(_) => {
                    let lead = format!("Failed to run scenario {scenario}: ");
                    let why = text.lines().find_map(|l| l.strip_prefix(lead.as_str()));
                    Err(why.unwrap_or("no checks.json and no message").to_owned())
                }
            };
        let previous = results.insert(scenario.to_owned(), outcome);
        assert!(
            previous.is_none(),
            "{scenario} ran twice in {}",
            out.display()
        );
    }
    results
}

/// `server-<scenario>-2026-11-22T16-55-11-316Z` → `<scenario>`.
fn scenario_name(folder: &str) -> Option<&str> {
    let rest = folder.strip_prefix("server-")?;
    // The timestamp is the last six `-`-separated pieces: YYYY MM DDTHH MM SS mmmZ.
    let cut = rest.rmatch_indices('-').nth(5)?.0;
    let (scenario, stamp) = (&rest[..cut], &rest[cut + 1..]);
    (stamp.len() == "2026-11-22T16-55-11-316Z".len() && stamp.ends_with('Z')).then_some(scenario)
}

fn passed(outcome: &Outcome) -> bool {
    outcome
        .as_ref()
        .is_ok_and(|checks| checks.iter().all(|c| c["status"] != "FAILURE"))
}

/// A scenario's result as recorded: `pass`, or `fail` with the ids of the failing checks
/// (`threw` when it stopped before any) and the first failure's message, for the reader; the
/// message is not compared.
fn summary(outcome: &Outcome) -> Value {
    let checks = match outcome {
        Ok(checks) => checks,
        Err(why) => return json!({ "result": "fail", "failed": ["threw"], "reason": why }),
    };
    let failed: Vec<&Value> = checks.iter().filter(|c| c["status"] == "FAILURE").collect();
    if failed.is_empty() {
        return json!({ "result": "pass" });
    }
    let mut ids: Vec<&str> = failed.iter().filter_map(|c| c["id"].as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    let reason = failed[0]["errorMessage"].as_str().unwrap_or("(no message)");
    json!({ "result": "fail", "failed": ids, "reason": reason })
}

fn expectation_file() -> PathBuf {
    mcp_tests::workspace()
        .join("tests")
        .join("fixtures")
        .join("conformance-server.json")
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs npm, and the network once to install the conformance suite and its Node 22: feature `interop` (.ci/run turns it on)"
)]
fn official_conformance_suite() {
    conformance(); // install first: a missing npm fails here, saying what to install
    let server = HttpExample::start("conformance-server");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("conformance-results");

    // The 2025-11-25 requirement set: all of it passes.
    let (ok, text, required) = run(
        &server,
        &["--requirements", "2025-11-25"],
        &out.join("2025-11-25"),
    );
    let failing: Vec<String> = required
        .iter()
        .filter(|(_, outcome)| !passed(outcome))
        .map(|(name, outcome)| format!("{name}: {}", summary(outcome)))
        .collect();
    assert!(
        failing.is_empty() && ok,
        "2025-11-25 requirement set: {} of {} scenarios fail:\n{}\n\nsuite output:\n{text}\n\nserver log:\n{}",
        failing.len(),
        required.len(),
        failing.join("\n"),
        server.log()
    );
    for name in ELICITATION {
        let checks = required
            .get(name)
            .and_then(|outcome| outcome.as_ref().ok())
            .unwrap_or_else(|| panic!("the 2025-11-25 set no longer runs {name}: {text}"));
        // Each elicitation scenario checks the form the server sent, not just that it ran.
        assert!(
            checks.iter().filter(|c| c["status"] == "SUCCESS").count() >= 2,
            "{name} passed without its checks: {checks:#?}"
        );
    }
    let listed: Vec<&str> = required
        .keys()
        .map(String::as_str)
        .filter(|n| n.contains("elicitation"))
        .collect();
    assert_eq!(listed, {
        let mut e = ELICITATION.to_vec();
        e.sort_unstable();
        e
    });

    // Every server scenario: as recorded.
    let (_, text, all) = run(&server, &["--suite", "all"], &out.join("all"));
    // Every elicitation scenario the suite has, at either wire, passes.
    let elicitation: Vec<&str> = all
        .keys()
        .map(String::as_str)
        .filter(|n| n.contains("elicitation"))
        .collect();
    assert_eq!(
        elicitation, ALL_ELICITATION,
        "the suite's elicitation scenarios changed"
    );
    for name in ALL_ELICITATION {
        assert!(
            passed(&all[name]),
            "{name} fails: {}\n\nsuite output:\n{text}",
            summary(&all[name])
        );
    }
    let actual: BTreeMap<&str, Value> = all
        .iter()
        .map(|(name, checks)| (name.as_str(), summary(checks)))
        .collect();
    let path = expectation_file();
    let expected: BTreeMap<String, Value> = serde_json::from_str(
        &std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let names: BTreeSet<&str> = expected
        .keys()
        .map(String::as_str)
        .chain(actual.keys().copied())
        .collect();
    let mut diff = Vec::new();
    for name in names {
        let (want, got) = (expected.get(name), actual.get(name));
        // The reason is for the reader; the result and the failing checks are compared.
        let compared = |v: Option<&Value>| v.map(|v| (v["result"].clone(), v["failed"].clone()));
        if compared(want) != compared(got) {
            diff.push(format!(
                "{name}:\n  recorded: {}\n  now:      {}",
                show(want),
                show(got)
            ));
        }
    }
    let passed = actual.values().filter(|v| v["result"] == "pass").count();
    eprintln!("--suite all: {passed} of {} scenarios pass", actual.len());
    assert!(
        diff.is_empty(),
        "the conformance results differ from {} (update it if the change is intended):\n{}\n\n\
         the whole result now:\n{}\n\nsuite output:\n{text}",
        path.display(),
        diff.join("\n"),
        serde_json::to_string_pretty(&actual).unwrap()
    );
}

fn show(v: Option<&Value>) -> String {
    v.map_or_else(|| "(not run)".to_owned(), Value::to_string)
}

/// One raw HTTP/1.1 exchange with the example; returns the status, the headers (names
/// lower-cased) and the body. `read_body: false` returns once the headers are in, keeping the
/// connection (an open SSE stream) alive in the returned stream.
fn http(
    server: &HttpExample,
    method: &str,
    headers: &[(&str, &str)],
    body: &str,
    read_body: bool,
) -> (u16, BTreeMap<String, String>, String, std::net::TcpStream) {
    use std::io::{Read, Write};
    let authority = server
        .url
        .strip_prefix("http://")
        .and_then(|u| u.strip_suffix("/mcp"))
        .expect("http://<authority>/mcp");
    let mut stream = std::net::TcpStream::connect(authority).expect("connect to the example");
    let mut request = format!("{method} /mcp HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        request.push_str(&format!("Host: {authority}\r\n"));
    }
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    request.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    stream.write_all(request.as_bytes()).expect("send");
    let mut reader = BufReader::new(stream.try_clone().expect("clone the stream"));
    let mut status = String::new();
    reader.read_line(&mut status).expect("read the status line");
    let code = status
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP status line: {status:?}"));
    let mut fields = BTreeMap::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).expect("read a header");
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (k, v) = line.split_once(':').expect("a header line");
        fields.insert(k.to_ascii_lowercase(), v.trim().to_owned());
    }
    let mut text = String::new();
    if read_body {
        reader.read_to_string(&mut text).expect("read the body");
    }
    (code, fields, text, stream)
}

/// The transport's refusals, each with the status the Streamable HTTP transport prescribes and
/// a JSON-RPC error body saying what was wrong; and the session life cycle.
#[test]
fn streamable_http_refusals_and_sessions() {
    let server = HttpExample::start("conformance-server");
    let json = ("Content-Type", "application/json");
    let accept = ("Accept", "application/json, text/event-stream");
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    let refused =
        |(code, _, body, _): (u16, BTreeMap<String, String>, String, _), want: u16, says: &str| {
            assert_eq!(code, want, "{body}");
            let body: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
            let message = body["error"]["message"].as_str().unwrap_or_default();
            assert!(
                message.contains(says),
                "{want}: {message:?} should say {says:?}"
            );
        };

    refused(
        http(
            &server,
            "POST",
            &[json, ("Accept", "application/json")],
            initialize,
            true,
        ),
        406,
        "text/event-stream",
    );
    refused(
        http(
            &server,
            "POST",
            &[("Content-Type", "text/plain"), accept],
            initialize,
            true,
        ),
        415,
        "application/json",
    );
    refused(
        http(&server, "POST", &[json, accept], "[1", true),
        400,
        "parse error",
    );
    refused(
        http(&server, "POST", &[json, accept], &format!("[{list}]"), true),
        400,
        "batches",
    );
    refused(
        http(&server, "POST", &[json, accept], list, true),
        400,
        "Mcp-Session-Id",
    );
    let evil = [json, accept, ("Origin", "http://evil.example.com")];
    refused(
        http(&server, "POST", &evil, initialize, true),
        403,
        "DNS-rebinding",
    );
    let evil_host = [json, accept, ("Host", "evil.example.com")];
    refused(
        http(&server, "POST", &evil_host, initialize, true),
        403,
        "DNS-rebinding",
    );

    // A session: its id, the negotiated revision on the stream, then the id required.
    let (code, headers, body, _) = http(
        &server,
        "POST",
        &[json, accept, ("Origin", "http://localhost:3000")],
        initialize,
        true,
    );
    assert_eq!(code, 200, "{body}");
    assert_eq!(headers["content-type"], "text/event-stream");
    assert!(body.contains(r#""protocolVersion":"2025-11-25""#), "{body}");
    let id = headers["mcp-session-id"].clone();
    let session = ("Mcp-Session-Id", id.as_str());
    let version = ("MCP-Protocol-Version", "2025-11-25");
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let (code, _, body, _) = http(
        &server,
        "POST",
        &[json, accept, session, version],
        initialized,
        true,
    );
    assert_eq!((code, body.as_str()), (202, ""));
    let (code, _, body, _) = http(
        &server,
        "POST",
        &[json, accept, session, version],
        list,
        true,
    );
    assert_eq!(code, 200, "{body}");
    assert!(
        body.contains("test_elicitation_sep1330_enums") && body.contains(r#""id":2"#),
        "{body}"
    );
    let other = ("MCP-Protocol-Version", "2025-06-18");
    refused(
        http(&server, "POST", &[json, accept, session, other], list, true),
        400,
        "not the session's revision",
    );

    // One GET stream at a time.
    let sse = ("Accept", "text/event-stream");
    let (code, headers, _, open) = http(&server, "GET", &[sse, session, version], "", false);
    assert_eq!(
        (code, headers["content-type"].as_str()),
        (200, "text/event-stream")
    );
    refused(
        http(&server, "GET", &[sse, session, version], "", true),
        409,
        "already has an open GET stream",
    );
    drop(open);

    // DELETE ends it.
    let (code, _, body, _) = http(&server, "DELETE", &[session, version], "", true);
    assert_eq!(code, 200, "{body}");
    refused(
        http(
            &server,
            "POST",
            &[json, accept, session, version],
            list,
            true,
        ),
        404,
        "not found",
    );
    refused(
        http(&server, "DELETE", &[session, version], "", true),
        404,
        "not found",
    );
}

/// The suite's client scenario `elicitation-sep1034-client-defaults` against
/// `tests/examples/conformance-client.rs`: the suite serves a form whose fields all have
/// defaults on its own Streamable HTTP server and checks the client sends them all back.
#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs npm, and the network once to install the conformance suite and its Node 22: feature `interop` (.ci/run turns it on)"
)]
fn client_scenario_elicitation_defaults() {
    conformance();
    let client = mcp_tests::example_binary("mcp-tests", "conformance-client", &[]);
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("conformance-client-results");
    if out.exists() {
        std::fs::remove_dir_all(&out).expect("clear the results folder");
    }
    let scenario = "elicitation-sep1034-client-defaults";
    let output = conformance()
        .command()
        .args(["client", "--scenario", scenario, "--command"])
        .arg(&client)
        .arg("--output-dir")
        .arg(&out)
        .output()
        .expect("run the conformance suite");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let dir = std::fs::read_dir(&out)
        .unwrap_or_else(|e| panic!("no results in {}: {e}\n{text}", out.display()))
        .map(|d| d.expect("read the results folder").path())
        .find(|d| {
            d.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(scenario)
        })
        .unwrap_or_else(|| panic!("no results for {scenario}:\n{text}"));
    let checks: Vec<Value> = serde_json::from_str(
        &std::fs::read_to_string(dir.join("checks.json")).expect("checks.json"),
    )
    .expect("checks.json is JSON");
    // Every check but the INFO traffic log: one per primitive kind, each a success.
    let verdicts: Vec<(String, String)> = checks
        .iter()
        .filter(|c| c["status"] != "INFO")
        .map(|c| {
            (
                c["id"].as_str().unwrap_or("?").to_owned(),
                c["status"].as_str().unwrap_or("?").to_owned(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = ["string", "integer", "number", "enum", "boolean"]
        .iter()
        .map(|kind| {
            (
                format!("client-elicitation-sep1034-{kind}-default"),
                "SUCCESS".to_owned(),
            )
        })
        .collect();
    assert_eq!(verdicts, want, "{text}");
    assert!(output.status.success(), "{text}");
}
