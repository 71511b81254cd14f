//! `mcp-typed check` against hostile input (issue 33): bytes that are not UTF-8, notifications
//! a capability does not allow, signals, lines without end, documents nested too deep, and one
//! direction that must not wait on the other. Each test runs the binary, in file mode or as a
//! proxy in front of a small server (`cat`, `sh`), and reads its reports.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use mcp_tests::mcp_typed_binary as checker;

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("check-hardening");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Runs `mcp-typed check ARGS` with `input` on stdin, to its end.
fn run(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(checker())
        .arg("check")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

/// The JSON reports of a `--json` run (the summary last).
fn json_lines(text: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(text)
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The problems of a report as `kind pointer`.
fn problems(report: &Value) -> Vec<String> {
    report["problems"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            format!(
                "{} {}",
                p["kind"].as_str().unwrap(),
                p["pointer"].as_str().unwrap()
            )
        })
        .collect()
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#;

#[test]
fn invalid_utf8_is_named_in_a_file_and_the_rest_is_still_checked() {
    let file = scratch("utf8.jsonl");
    let mut text = Vec::new();
    text.extend_from_slice(INIT.as_bytes());
    text.extend_from_slice(b"\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":{\"_meta\":{\"n\":\"\xff\xfe\"}}}\n");
    text.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n");
    std::fs::write(&file, &text).unwrap();
    let out = run(&["--json", "--dir", "c2s", file.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let reports = json_lines(&out.stdout);
    assert_eq!(
        reports.len(),
        4,
        "three messages and the summary: {reports:?}"
    );
    assert_eq!(reports[0]["verdict"], "ok");
    assert_eq!(reports[1]["line"], 2);
    assert_eq!(
        problems(&reports[1]),
        [
            "invalid_utf8 /params/_meta/n",
            "invalid_utf8 /params/_meta/n"
        ]
    );
    let message = reports[1]["problems"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("invalid UTF-8 at byte 64 of the line (bytes ff)"),
        "{message}"
    );
    assert_eq!(reports[1]["what"], "request PingRequest (ping)");
    assert_eq!(reports[2]["line"], 3);
    assert_eq!(reports[2]["verdict"], "ok");
    assert_eq!(reports[3]["summary"]["problems"]["invalid_utf8"], 2);
}

#[test]
fn invalid_utf8_through_the_proxy_is_forwarded_unchanged_and_named() {
    let mut input = Vec::new();
    input.extend_from_slice(INIT.as_bytes());
    input.extend_from_slice(b"\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\",\"params\":{\"_meta\":{\"x\":\"a\xc3\"}}}\n");
    let report = scratch("utf8-proxy.log");
    let out = run(
        &["--json", "--report", report.to_str().unwrap(), "--", "cat"],
        &input,
    );
    assert_eq!(out.stdout, input, "every byte passed on as it came");
    assert_eq!(out.status.code(), Some(1));
    let reports = json_lines(&std::fs::read(&report).unwrap());
    let bad: Vec<&Value> = reports
        .iter()
        .filter(|r| problems(r).iter().any(|p| p.starts_with("invalid_utf8")))
        .collect();
    // `cat` sends it back: once each way.
    assert_eq!(bad.len(), 2, "{reports:?}");
    for r in bad {
        assert_eq!(problems(r)[0], "invalid_utf8 /params/_meta/x");
        let message = r["problems"][0]["message"].as_str().unwrap();
        assert!(
            message.contains("at byte 79 of the line (bytes c3)"),
            "{message}"
        );
    }
}

/// The problems of checking `messages` (`(dir, text)`) as one session, as `kind pointer`
/// per message.
fn session_problems(messages: &[(&str, String)]) -> Vec<Vec<String>> {
    use mcp_typed::check::Checker;
    let mut checker = Checker::new();
    messages
        .iter()
        .map(|(dir, text)| {
            let report = checker.check(Some(dir.parse().unwrap()), text);
            report
                .problems
                .iter()
                .map(|p| format!("{} {}", p.kind.name(), p.pointer))
                .collect()
        })
        .collect()
}

#[test]
fn notifications_need_their_capabilities_in_every_revision_with_initialize() {
    for revision in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let init = |client_caps: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"{revision}","capabilities":{client_caps},"clientInfo":{{"name":"c","version":"1"}}}}}}"#
            )
        };
        let result = |server_caps: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"protocolVersion":"{revision}","capabilities":{server_caps},"serverInfo":{{"name":"s","version":"1"}}}}}}"#
            )
        };
        let note = |method: &str, params: &str| {
            format!(r#"{{"jsonrpc":"2.0","method":"{method}","params":{params}}}"#)
        };
        let list_changed = |what: &str| note(&format!("notifications/{what}/list_changed"), "{}");
        let updated = note("notifications/resources/updated", r#"{"uri":"file:///a"}"#);
        let log = note("notifications/message", r#"{"level":"info","data":"x"}"#);
        // Declared without the sub-capabilities: each notification is a problem.
        let got = session_problems(&[
            ("c2s", init(r#"{"roots":{}}"#)),
            (
                "s2c",
                result(
                    r#"{"prompts":{},"resources":{"subscribe":false},"tools":{"listChanged":false}}"#,
                ),
            ),
            ("s2c", list_changed("prompts")),
            ("s2c", list_changed("resources")),
            ("s2c", list_changed("tools")),
            ("s2c", updated.clone()),
            ("s2c", log.clone()),
            ("c2s", list_changed("roots")),
        ]);
        let expected: Vec<Vec<String>> = [
            vec![],
            vec![],
            vec!["capability /method".to_owned()],
            vec!["capability /method".to_owned()],
            vec!["capability /method".to_owned()],
            vec!["capability /method".to_owned()],
            vec!["capability /method".to_owned()],
            vec!["capability /method".to_owned()],
        ]
        .into();
        assert_eq!(got, expected, "{revision}");
        // Declared: none is.
        let got = session_problems(&[
            ("c2s", init(r#"{"roots":{"listChanged":true}}"#)),
            (
                "s2c",
                result(
                    r#"{"prompts":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},"tools":{"listChanged":true},"logging":{}}"#,
                ),
            ),
            ("s2c", list_changed("prompts")),
            ("s2c", list_changed("resources")),
            ("s2c", list_changed("tools")),
            ("s2c", updated),
            ("s2c", log),
            ("c2s", list_changed("roots")),
        ]);
        assert!(got.iter().all(Vec::is_empty), "{revision}: {got:?}");
    }
}

#[test]
fn capability_problems_name_the_capability() {
    use mcp_typed::check::Checker;
    let mut checker = Checker::new();
    let c2s = Some("c2s".parse().unwrap());
    let s2c = Some("s2c".parse().unwrap());
    checker.check(c2s, r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{}},"sampling":{}},"clientInfo":{"name":"c","version":"1"}}}"#);
    checker.check(s2c, r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"prompts":{}},"serverInfo":{"name":"s","version":"1"}}}"#);
    let report = checker.check(
        s2c,
        r#"{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}"#,
    );
    assert_eq!(
        report.to_string(),
        "error notification PromptListChangedNotification (notifications/prompts/list_changed): /method: `notifications/prompts/list_changed` needs the server's `prompts.listChanged` capability, not declared in the server's initialize result"
    );
    let report = checker.check(s2c, r#"{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"e"}}"#);
    assert_eq!(
        report.problems[0].message,
        "/method: `notifications/elicitation/complete` needs the client's `elicitation.url` capability, not declared in the client's initialize request"
    );
    let report = checker.check(s2c, r#"{"jsonrpc":"2.0","id":5,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5,"includeContext":"allServers","tools":[],"task":{}}}"#);
    let pointers: Vec<&str> = report.problems.iter().map(|p| p.pointer.as_str()).collect();
    assert_eq!(
        pointers,
        ["/params/includeContext", "/params/task"],
        "{report}"
    );
}

#[test]
fn a_message_sent_just_before_the_server_dies_is_reported() {
    for _ in 0..10 {
        let out = run(
            &["--", "false"],
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n",
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            stderr.lines().last(),
            Some("1 passed, 0 failed"),
            "{stderr}"
        );
        assert_eq!(out.status.code(), Some(1), "false's status");
    }
}

/// Whether process `pid` exists (a zombie counts).
fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 checks the process, sends nothing.
    unsafe { libc::kill(pid, 0) == 0 }
}

/// Starts the proxy in front of `server` (a `sh -c` script that writes its pid to `$PIDFILE`),
/// sends a ping, waits until the server runs and the ping is reported, sends `signal` to the
/// proxy; returns the proxy's status, how long it took to end, the server's pid and the
/// report.
fn signalled(
    name: &str,
    server: &str,
    signal: i32,
) -> (Option<i32>, std::time::Duration, i32, String) {
    use std::time::{Duration, Instant};
    let pidfile = scratch(&format!("{name}.pid"));
    let report = scratch(&format!("{name}.log"));
    let mut child = Command::new(checker())
        .args([
            "check",
            "--report",
            report.to_str().unwrap(),
            "--",
            "sh",
            "-c",
            server,
        ])
        .env("PIDFILE", &pidfile)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n")
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let pid = loop {
        let text = std::fs::read_to_string(&pidfile).unwrap_or_default();
        let reported = std::fs::read_to_string(&report).unwrap_or_default();
        if let (Ok(pid), true) = (text.trim().parse::<i32>(), reported.contains("c2s ok")) {
            break pid;
        }
        assert!(Instant::now() < deadline, "the server never started");
        std::thread::sleep(Duration::from_millis(20));
    };
    let start = Instant::now();
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(child.id() as i32, signal) };
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the proxy did not end"
        );
        std::thread::sleep(Duration::from_millis(5));
    };
    let took = start.elapsed();
    drop(stdin);
    (
        status.code(),
        took,
        pid,
        std::fs::read_to_string(&report).unwrap(),
    )
}

#[test]
fn sigterm_reaches_the_server_and_every_message_read_is_reported() {
    let (status, took, pid, report) =
        signalled("term", r#"echo $$ > "$PIDFILE"; exec cat"#, libc::SIGTERM);
    assert_eq!(status, Some(128 + libc::SIGTERM), "{report}");
    assert!(!alive(pid), "the server {pid} still runs");
    assert!(took < std::time::Duration::from_secs(1), "{took:?}");
    assert!(report.contains("c2s ok request"), "{report}");
    assert!(report.ends_with("passed, 0 failed\n"), "{report}");
}

#[test]
fn sigint_to_a_server_that_ignores_it_ends_with_sigkill_after_the_timeout() {
    let (status, took, pid, report) = signalled(
        "int",
        r#"trap "" INT TERM; echo $$ > "$PIDFILE"; while :; do sleep 0.05; done"#,
        libc::SIGINT,
    );
    assert_eq!(status, Some(128 + libc::SIGINT), "{report}");
    assert!(!alive(pid), "the server {pid} still runs");
    // STOP_TIMEOUT is 2 s.
    assert!(took >= std::time::Duration::from_secs(2), "{took:?}");
    assert!(took < std::time::Duration::from_secs(4), "{took:?}");
    assert!(report.contains("c2s ok request"), "{report}");
}

/// The peak resident memory of process `pid`, in bytes (Linux).
fn peak_memory(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb * 1024
}

#[test]
fn a_line_over_max_line_is_passed_on_and_reported_never_kept() {
    use std::io::Read;
    const LONG: usize = 100 << 20;
    let report = scratch("long.log");
    let mut child = Command::new(checker())
        .args(["check", "--json", "--max-line", "1M", "--report"])
        .arg(&report)
        .args(["--", "cat"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let tail = format!("\n{INIT}\n").into_bytes();
    let tail_len = tail.len();
    let reader = std::thread::spawn(move || {
        // What came back through `cat`: its length, and that it is the bytes sent.
        let mut buffer = vec![0u8; 1 << 16];
        let (mut total, mut wrong) = (0usize, 0usize);
        let mut last = Vec::new();
        loop {
            let n = stdout.read(&mut buffer).unwrap();
            if n == 0 {
                break;
            }
            let start = total;
            total += n;
            for (i, b) in buffer[..n].iter().enumerate() {
                if start + i < LONG && *b != b'x' {
                    wrong += 1;
                }
            }
            last.extend_from_slice(&buffer[..n]);
            if last.len() > 4096 {
                last.drain(..last.len() - 4096);
            }
            if total == LONG + tail_len {
                return (total, wrong, last, peak_memory(pid));
            }
        }
        (total, wrong, last, 0)
    });
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..LONG / chunk.len() {
        stdin.write_all(&chunk).unwrap();
    }
    stdin.write_all(&tail).unwrap();
    let (total, wrong, last, peak) = reader.join().unwrap();
    drop(stdin);
    let status = child.wait().unwrap();
    assert_eq!(
        (total, wrong),
        (LONG + tail.len(), 0),
        "passed on unchanged"
    );
    assert!(last.ends_with(&tail));
    assert!(
        peak < 40 << 20,
        "peak memory {peak} bytes for a {LONG}-byte line"
    );
    assert_eq!(status.code(), Some(1));
    let reports = json_lines(&std::fs::read(&report).unwrap());
    let c2s: Vec<&Value> = reports.iter().filter(|r| r["dir"] == "c2s").collect();
    assert_eq!(c2s.len(), 2, "{reports:?}");
    assert_eq!(problems(c2s[0]), ["size_limit "]);
    assert_eq!(
        c2s[0]["problems"][0]["message"],
        "/: a line of 104857600 bytes, over the limit of 1048576 bytes per line: not read, not checked"
    );
    assert!(problems(c2s[1]).is_empty(), "{:?}", c2s[1]);
    eprintln!("peak memory of the proxy: {peak} bytes for a {LONG}-byte line");
}

#[test]
fn a_line_over_max_line_in_a_file_is_reported_and_the_rest_checked() {
    let file = scratch("long.jsonl");
    let long = format!(
        "{{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{{\"a\":\"{}\"}}}}",
        "y".repeat(200)
    );
    std::fs::write(&file, format!("{INIT}\n{long}\n{INIT}\n")).unwrap();
    let out = run(
        &[
            "--json",
            "--max-line",
            "200",
            "--dir",
            "c2s",
            file.to_str().unwrap(),
        ],
        b"",
    );
    let reports = json_lines(&out.stdout);
    assert_eq!(reports.len(), 4, "{reports:?}");
    assert_eq!(reports[1]["line"], 2);
    assert_eq!(problems(&reports[1]), ["size_limit "]);
    assert!(problems(&reports[2]).is_empty());
    assert_eq!(out.status.code(), Some(1));
    let out = run(&["--max-line", "0", "x"], b"");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

#[test]
fn a_document_nested_too_deep_is_said_to_be_so_not_invalid() {
    use mcp_typed::check::{Checker, MAX_DEPTH, split_values};
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let mut checker = Checker::new();
    let report = checker.check(None, &deep);
    assert_eq!(report.problems.len(), 1);
    assert_eq!(report.problems[0].kind.name(), "depth_limit");
    assert_eq!(
        report.to_string(),
        format!(
            "error /: JSON nested deeper than {MAX_DEPTH} levels (at line 1 column 128): valid as far as read, beyond the checker's depth limit, not checked"
        )
    );
    // At the limit: read, and checked (a batch of batches is no message).
    let at_limit = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
    assert_ne!(
        checker.check(None, &at_limit).problems[0].kind.name(),
        "depth_limit"
    );
    // A file: the deep line is given whole to the checker; the next line is read on.
    let text = format!("{deep}\n{INIT}\n");
    let values = split_values(&text);
    assert_eq!(values.len(), 2);
    assert_eq!(values[0], (1, Ok(deep.as_str())));
    assert_eq!(values[1], (2, Ok(INIT)));
    // Through the CLI.
    let file = scratch("deep.json");
    std::fs::write(&file, &text).unwrap();
    let out = run(&["--json", file.to_str().unwrap()], b"");
    let reports = json_lines(&out.stdout);
    assert_eq!(problems(&reports[0]), ["depth_limit "]);
    assert_eq!(reports[2]["summary"]["problems"]["depth_limit"], 1);
}

/// How long a small server-to-client message takes through the proxy while the proxy checks
/// a 10 MiB client-to-server message, `rounds` times: `binary` is `mcp-typed`, `pause` the
/// time a check of the big message takes at most (waited between rounds).
fn stalls(
    binary: &Path,
    rounds: usize,
    gap: std::time::Duration,
    pause: std::time::Duration,
) -> Vec<std::time::Duration> {
    use std::io::{BufRead, BufReader};
    use std::time::Instant;
    let fifo = scratch("stall.fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let mut child = Command::new(binary)
        .args(["check", "--report", "/dev/null", "--", "sh", "-c"])
        // (An asynchronous command's stdin is /dev/null unless redirected: fd 3 keeps ours.)
        .arg(r#"exec 3<&0; cat <&3 > /dev/null & exec cat "$FIFO" 3<&-"#)
        .env("FIFO", &fifo)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut server = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    stdin.write_all(format!("{INIT}\n").as_bytes()).unwrap();
    let blob = "A".repeat(10 << 20);
    let small = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n";
    let mut out = Vec::new();
    let mut line = String::new();
    for round in 0..rounds {
        let big = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"tools/call\",\"params\":{{\"name\":\"x\",\"arguments\":{{\"blob\":\"{blob}\"}}}}}}\n",
            round + 2
        );
        stdin.write_all(big.as_bytes()).unwrap();
        std::thread::sleep(gap);
        let start = Instant::now();
        server.write_all(small.as_bytes()).unwrap();
        line.clear();
        stdout.read_line(&mut line).unwrap();
        out.push(start.elapsed());
        assert_eq!(line, small);
        std::thread::sleep(pause);
    }
    drop(server);
    drop(stdin);
    child.wait().unwrap();
    out
}

#[test]
fn one_direction_does_not_wait_for_the_other_s_check() {
    use std::time::Duration;
    // MCP_CHECK_BINARY: another build (release) to measure; the numbers are printed.
    let binary = std::env::var_os("MCP_CHECK_BINARY").map(PathBuf::from);
    let rounds: usize = std::env::var("MCP_CHECK_ROUNDS").map_or(3, |r| r.parse().unwrap());
    let pause = if binary.is_some() { 300 } else { 2500 };
    let binary = binary.unwrap_or_else(|| checker().to_owned());
    // MCP_CHECK_GAP_MS: how long after writing the big message the small one goes (5 ms: the
    // proxy is still passing the big one on, and checking it).
    let gap: u64 = std::env::var("MCP_CHECK_GAP_MS").map_or(5, |r| r.parse().unwrap());
    let mut got = stalls(
        &binary,
        rounds,
        Duration::from_millis(gap),
        Duration::from_millis(pause),
    );
    got.sort();
    eprintln!(
        "stall of s2c after a 10 MiB c2s message, {rounds} rounds: median {:?}, max {:?}; all \
         (µs): {:?}",
        got[got.len() / 2],
        got[got.len() - 1],
        got.iter().map(|d| d.as_micros()).collect::<Vec<_>>()
    );
    // A debug build checks 10 MiB in about 2 s; the other direction must not wait for it.
    assert!(got[got.len() / 2] < Duration::from_millis(100), "{got:?}");
}

#[test]
fn the_hostile_traffic_script_passes() {
    let script = mcp_tests::workspace().join("tests/hostile/run.sh");
    let dir = scratch("hostile");
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new("bash")
        .arg(&script)
        .arg(checker())
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    eprintln!("{stdout}");
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout.matches("ok - ").count(), 6, "{stdout}");
}

/// `check --url`: a request body longer than `--max-line` is refused (413) from its
/// `Content-Length` alone; nothing of that size is allocated or waited for. (Was: a buffer of
/// the client's declared length, then a wait for the whole body.)
#[test]
fn an_http_body_over_max_line_is_refused_before_it_is_read() {
    use std::io::{BufRead, BufReader, Read};
    let mut proxy = Command::new(checker())
        .args(["check", "--max-line", "1K", "--listen", "127.0.0.1:0"])
        // No server answers there: the body is refused before anything is forwarded.
        .args(["--url", "http://127.0.0.1:9/mcp"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(proxy.stderr.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let address = first
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://")?.strip_suffix("/mcp,"))
        .unwrap_or_else(|| panic!("no address in {first:?}"))
        .to_owned();
    let mut client = std::net::TcpStream::connect(&address).unwrap();
    client
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    client
        .write_all(b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{")
        .unwrap();
    let mut answer = String::new();
    let read = client.read_to_string(&mut answer);
    let _ = proxy.kill();
    let _ = proxy.wait();
    read.unwrap();
    assert!(answer.starts_with("HTTP/1.1 413 "), "{answer}");
    assert!(
        answer
            .ends_with("a request body of 100000000 bytes is longer than --max-line (1024 bytes)"),
        "{answer}"
    );
}
