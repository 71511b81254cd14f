//! `mcp-typed check -- SERVER…` (crate mcp-typed-cli), the live stdio proxy, with real peers on
//! both sides: the Python SDK client against server-everything and the TypeScript SDK client
//! against the Python SDK server, at every revision each pair speaks.
//!
//! Each run is client → tap → proxy → tap → server (`tests/peers/tap.py` logs the exact text
//! of every line it relays). The test asserts that the bytes on both sides of the proxy are
//! the same, line for line in each direction, and that the proxy's live report equals what
//! `check FILE` says of the captured traffic (message by message, and the summary). Then a
//! deliberately broken server (`tests/peers/replay_server.py` replaying
//! `tests/fixtures/check/broken-server.jsonl`) behind the proxy: every finding named, with its
//! JSON Pointer, and the exit status 1.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use mcp_tests::peers::{peers, scripts};
use serde_json::Value;

use mcp_tests::mcp_typed_binary as checker;

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("check-proxy");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// The lines of a tap log, per direction, exactly as written.
fn per_direction(log: &Path) -> (Vec<String>, Vec<String>) {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let (mut c2s, mut s2c) = (Vec::new(), Vec::new());
    for line in text.lines() {
        if line.starts_with(r#"{"dir":"c2s""#) {
            c2s.push(line.to_owned());
        } else {
            s2c.push(line.to_owned());
        }
    }
    (c2s, s2c)
}

/// JSON reports per direction (file and line numbers left out), and the summary.
fn reports(text: &str) -> (Vec<Value>, Vec<Value>, Value) {
    let (mut c2s, mut s2c, mut summary) = (Vec::new(), Vec::new(), Value::Null);
    for line in text.lines() {
        let mut report: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        if let Some(s) = report.get("summary") {
            summary = s.clone();
            continue;
        }
        let object = report.as_object_mut().unwrap();
        object.remove("file");
        object.remove("line");
        match object.get("dir").and_then(Value::as_str) {
            Some("c2s") => c2s.push(report),
            _ => s2c.push(report),
        }
    }
    (c2s, s2c, summary)
}

/// One session of `client` with `server` through the proxy at `revision`.
fn session(client: &str, server: &str, revision: &str) {
    let peers = peers();
    let python = peers.cache.join("venv/bin/python");
    let name = format!("{client}-{server}-{revision}");
    let (outer, inner, report) = (
        scratch(&format!("{name}.outer.jsonl")),
        scratch(&format!("{name}.inner.jsonl")),
        scratch(&format!("{name}.report.jsonl")),
    );
    let server_cmd: Vec<String> = match server {
        "everything" => vec![
            "node".into(),
            peers
                .package_file("@modelcontextprotocol/server-everything", "dist/index.js")
                .display()
                .to_string(),
            "stdio".into(),
        ],
        _ => vec![
            python.display().to_string(),
            scripts().join("py_server.py").display().to_string(),
        ],
    };
    let mut proxied: Vec<String> = vec![
        checker().display().to_string(),
        "check".into(),
        "--json".into(),
        "--report".into(),
        report.display().to_string(),
        "--".into(),
        python.display().to_string(),
        scripts().join("tap.py").display().to_string(),
        "--log".into(),
        inner.display().to_string(),
        "--".into(),
    ];
    proxied.extend(server_cmd);
    let mut cmd = match client {
        "py" => {
            let mut cmd = peers.python();
            cmd.arg(scripts().join("py_client.py"));
            cmd
        }
        _ => {
            let mut cmd = peers.node();
            cmd.arg(scripts().join("ts_client.mjs"))
                .arg("--node-modules")
                .arg(peers.node_modules())
                .arg("--python")
                .arg(&python);
            cmd
        }
    };
    let out = cmd
        .args(["--revision", revision, "--log"])
        .arg(&outer)
        .arg("--")
        .args(&proxied)
        .stdout(Stdio::null())
        .output()
        .expect("run the client");
    let stderr = String::from_utf8_lossy(&out.stderr);

    // The proxy passed every line unchanged, both ways.
    let (outer_c2s, outer_s2c) = per_direction(&outer);
    let (inner_c2s, inner_s2c) = per_direction(&inner);
    assert!(
        outer_c2s.len() > 10 && outer_s2c.len() > 10,
        "{name}: too little traffic\n{stderr}"
    );
    assert_eq!(outer_c2s, inner_c2s, "{name}: client→server lines differ");
    assert_eq!(outer_s2c, inner_s2c, "{name}: server→client lines differ");

    // The live report is what `check FILE` says of the same traffic.
    let live = std::fs::read_to_string(&report).expect("the proxy's report");
    let file = Command::new(checker())
        .args(["check", "--json"])
        .arg(&inner)
        .output()
        .expect("run check FILE");
    let file = String::from_utf8(file.stdout).unwrap();
    let (live_c2s, live_s2c, live_summary) = reports(&live);
    let (file_c2s, file_s2c, file_summary) = reports(&file);
    assert_eq!(live_c2s, file_c2s, "{name}: client→server reports differ");
    assert_eq!(live_s2c, file_s2c, "{name}: server→client reports differ");
    assert_eq!(live_summary, file_summary, "{name}");
    assert_eq!(
        live_summary["messages"].as_u64().unwrap() as usize,
        outer_c2s.len() + outer_s2c.len()
    );
    eprintln!("{name}: {live_summary}");
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn python_sdk_client_and_server_everything_through_the_proxy() {
    std::thread::scope(|s| {
        for revision in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
            s.spawn(move || session("py", "everything", revision));
        }
    });
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn typescript_sdk_client_and_python_sdk_server_through_the_proxy() {
    std::thread::scope(|s| {
        for revision in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
            s.spawn(move || session("ts", "py-server", revision));
        }
    });
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn a_broken_server_behind_the_proxy_gets_every_finding_named() {
    let capture = mcp_tests::workspace().join("tests/fixtures/check/broken-server.jsonl");
    let received = scratch("broken.received");
    let python = peers().cache.join("venv/bin/python");
    let mut proxy = Command::new(checker())
        .args(["check", "--json", "--"])
        .arg(&python)
        .arg(scripts().join("replay_server.py"))
        .arg(&capture)
        .arg(&received)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the proxy");
    // The client's side of the capture, exactly as captured, one line at a time.
    let text = std::fs::read_to_string(&capture).unwrap();
    let raw = |line: &str| line[line.find(r#""msg":"#).unwrap() + 6..line.len() - 1].to_owned();
    let sent: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with(r#"{"dir":"c2s""#))
        .map(raw)
        .collect();
    let expected: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with(r#"{"dir":"s2c""#))
        .map(raw)
        .collect();
    let mut stdin = proxy.stdin.take().unwrap();
    let stdout = BufReader::new(proxy.stdout.take().unwrap());
    let reader = std::thread::spawn(move || stdout.lines().map(Result::unwrap).collect::<Vec<_>>());
    for line in &sent {
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    drop(stdin);
    let out = proxy.wait_with_output().unwrap();
    let got = reader.join().unwrap();
    // Bytes through unchanged both ways.
    assert_eq!(got, expected, "server→client lines");
    let arrived: Vec<String> = std::fs::read_to_string(&received)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(arrived, sent, "client→server lines");
    assert_eq!(out.status.code(), Some(1), "errors found: exit status 1");

    let (c2s, s2c, _) = reports(&String::from_utf8_lossy(&out.stderr));
    let problems: Vec<(String, String)> = c2s
        .iter()
        .chain(&s2c)
        .flat_map(|r| r["problems"].as_array().cloned().unwrap_or_default())
        .map(|p| {
            (
                p["kind"].as_str().unwrap_or_default().to_owned(),
                p["pointer"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    for (kind, pointer) in [
        ("schema", "/result/content/1"),
        ("unknown_id", "/id"),
        ("capability", "/method"),
        ("wrong_direction", "/method"),
        (
            "sensitive_field",
            "/params/requestedSchema/properties/password",
        ),
        ("insecure_url", "/params/url"),
    ] {
        assert!(
            problems.iter().any(|p| p.0 == kind && p.1 == pointer),
            "no {kind} at {pointer}: {problems:?}"
        );
    }
    let notes: Vec<String> = c2s
        .iter()
        .chain(&s2c)
        .flat_map(|r| r["notes"].as_array().cloned().unwrap_or_default())
        .map(|n| n["kind"].as_str().unwrap_or_default().to_owned())
        .collect();
    for kind in ["erratum", "beyond_revision"] {
        assert!(notes.iter().any(|n| n == kind), "no {kind} note: {notes:?}");
    }
}

/// `check --url`: the Python SDK client over Streamable HTTP through the proxy to the booking
/// server, at 2025-11-25 (a session, answers on SSE streams) and 2026-07-28 (stateless, forms
/// through `InputRequiredResult`): the SDK client's own checks all pass through the proxy, and
/// every message the two exchanged is reported, with no error.
#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn python_sdk_client_over_streamable_http_through_the_proxy() {
    let server = mcp_tests::HttpExample::start("booking-server");
    let report = scratch("http.report.jsonl");
    let mut proxy = Command::new(checker())
        .args(["check", "--json", "--report"])
        .arg(&report)
        .args(["--url", &server.url, "--listen", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the proxy");
    let mut first = String::new();
    BufReader::new(proxy.stderr.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://") && !w.contains(&server.url))
        .unwrap_or_else(|| panic!("no address in {first:?}"))
        .trim_end_matches(',')
        .to_owned();
    let python = peers().cache.join("venv/bin/python");
    for revision in ["2025-11-25", "2026-07-28"] {
        let out = Command::new(&python)
            .arg(scripts().join("booking_py.py"))
            .args(["--revision", revision, "--url", &url])
            .output()
            .expect("run the Python SDK client");
        let driver: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        assert!(
            out.status.success() && driver["failures"] == serde_json::json!([]),
            "{revision}: {driver}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(driver["checks"].as_u64().unwrap_or(0) >= 20, "{driver}");
        assert_eq!(driver["negotiated"], revision);
    }
    let _ = proxy.kill();
    let _ = proxy.wait();
    let (c2s, s2c, _) = reports(&std::fs::read_to_string(&report).unwrap());
    assert!(
        c2s.len() >= 20 && s2c.len() >= 20,
        "{} / {}",
        c2s.len(),
        s2c.len()
    );
    let errors: Vec<&Value> = c2s
        .iter()
        .chain(&s2c)
        .filter(|r| r["verdict"] == "error")
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    for revision in ["2025-11-25", "2026-07-28"] {
        assert!(
            s2c.iter().any(|r| r["revision"] == revision),
            "nothing checked at {revision}"
        );
    }
}
