//! `mcp_typed::check`, the library behind the `validate-traffic` example and the traffic
//! checkers built on it: the captured real traffic checked with the revision learned from the
//! traffic itself, and hand-written sessions with one bad message of each kind.

use std::collections::BTreeMap;
use std::path::PathBuf;

use expect_test::{Expect, expect};
use mcp_tests::workspace;
use mcp_typed::ProtocolVersion;
use mcp_typed::check::{self, Checker, Direction, NoteKind, ProblemKind, Report, Verdict};

fn real(file: &str) -> PathBuf {
    workspace().join("tests/fixtures/real-traffic").join(file)
}

fn read(path: PathBuf) -> String {
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Checks every value of a capture, in order.
fn run(checker: &mut Checker, text: &str) -> Vec<Report> {
    check::split_values(text)
        .into_iter()
        .map(|(_, value)| match value {
            Ok(line) => checker.check_line(line),
            Err(e) => checker.unreadable(e),
        })
        .collect()
}

fn lines(reports: &[Report]) -> Vec<String> {
    reports.iter().map(Report::to_string).collect()
}

/// Each captured session (tests/fixtures/real-traffic, captured from the pinned SDK peers by
/// tests/peers/capture.sh), checked by a `Checker::new()` that learns the revision from the
/// traffic: it ends on the revision `captures.json` says was negotiated (the refused
/// negotiations of `*-rejected.jsonl` too); the only errors are the messages a peer sent in
/// a newer revision's shape (the 9 that `validate_traffic.rs` counts), no protocol problem;
/// a session negotiated at once gives exactly the lines of `Checker::with_revision`. The
/// summaries are snapshotted, so that any change in notes or problems shows.
#[test]
fn real_traffic_learns_its_revision_and_has_only_the_known_errors() {
    // (file, messages, errors that are newer revisions' shapes)
    const EXPECTED: &[(&str, usize, usize)] = &[
        ("py-client-everything-2024-11-05.jsonl", 148, 0),
        ("py-client-everything-2025-03-26.jsonl", 149, 0),
        // server-everything sends a URL-mode elicitation (2025-11-25) to a 2025-06-18 client.
        ("py-client-everything-2025-06-18.jsonl", 149, 1),
        ("py-client-everything-2025-11-25.jsonl", 148, 0),
        ("py-client-everything-2026-07-28-rejected.jsonl", 6, 0),
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
        ("ts-client-everything-2026-07-28-rejected.jsonl", 6, 0),
        ("ts-client-py-server-2024-11-05.jsonl", 74, 0),
        ("ts-client-py-server-2025-03-26.jsonl", 74, 0),
        ("ts-client-py-server-2025-06-18.jsonl", 74, 0),
        ("ts-client-py-server-2025-11-25.jsonl", 74, 0),
        ("ts-client-py-server-2026-07-28-rejected.jsonl", 6, 0),
    ];
    let captures: Vec<serde_json::Value> =
        serde_json::from_str(&read(real("captures.json"))).unwrap();
    assert_eq!(captures.len(), EXPECTED.len(), "a capture is missing here");
    let mut table = Vec::new();
    let mut total = 0;
    for c in &captures {
        let file = c["file"].as_str().unwrap();
        let &(_, messages, newer) = EXPECTED
            .iter()
            .find(|e| e.0 == file)
            .unwrap_or_else(|| panic!("{file} is not in EXPECTED"));
        let negotiated: ProtocolVersion = c["negotiated"].as_str().unwrap().parse().unwrap();
        let text = read(real(file));

        let mut learned = Checker::new();
        let reports = run(&mut learned, &text);
        assert_eq!(
            learned.revision(),
            Some(negotiated),
            "{file}: revision learned"
        );
        assert_eq!(reports.len(), messages, "{file}: messages");
        let failed: Vec<&Report> = reports
            .iter()
            .filter(|r| r.verdict == Verdict::Error)
            .collect();
        // The Python SDK server logs (`notifications/message`) without declaring `logging`.
        let (unlogged, failed): (Vec<&Report>, Vec<&Report>) = failed.into_iter().partition(|r| {
            r.problems.iter().all(|p| {
                p.message
                    .contains("`notifications/message` needs the server's `logging`")
            })
        });
        let py_server = file.contains("-py-server-") && !file.ends_with("-rejected.jsonl");
        assert_eq!(unlogged.len(), if py_server { 2 } else { 0 }, "{file}");
        for r in &failed {
            assert!(
                r.problems.iter().all(|p| p.kind == ProblemKind::Schema)
                    && r.to_string().contains("; a 2025-11-25 shape ("),
                "{file}: not a newer revision's shape: {r}"
            );
        }
        assert_eq!(failed.len(), newer, "{file}: {failed:#?}");

        let mut fixed = Checker::with_revision(negotiated);
        let fixed_reports = run(&mut fixed, &text);
        if !file.ends_with("-rejected.jsonl") {
            assert_eq!(lines(&reports), lines(&fixed_reports), "{file}");
            assert!(
                reports.iter().all(|r| r.revision == Some(negotiated)),
                "{file}"
            );
        }
        let s = learned.summary();
        assert_eq!(s.messages, messages);
        assert_eq!(s.failed(), newer + unlogged.len());
        table.push(format!(
            "{file}: {} ok, {} noted, {} error; revisions {:?}; notes {:?}; problems {:?}",
            s.verdicts.ok, s.verdicts.noted, s.verdicts.error, s.revisions, s.notes, s.problems
        ));
        total += messages;
    }
    assert_eq!(
        total, 1998,
        "the README's 1,980 messages and the 18 of the refusals"
    );
    expect![[r#"
        py-client-everything-2024-11-05.jsonl: 135 ok, 13 noted, 0 error; revisions {"2024-11-05": 148}; notes {"beyond_revision": 87, "vendor": 1}; problems {}
        py-client-everything-2025-03-26.jsonl: 136 ok, 13 noted, 0 error; revisions {"2025-03-26": 149}; notes {"beyond_revision": 69, "vendor": 1}; problems {}
        py-client-everything-2025-06-18.jsonl: 139 ok, 9 noted, 1 error; revisions {"2025-06-18": 149}; notes {"beyond_revision": 73, "erratum": 2, "vendor": 1}; problems {"schema": 1}
        py-client-everything-2025-11-25.jsonl: 144 ok, 4 noted, 0 error; revisions {"2025-11-25": 148}; notes {"beyond_revision": 1, "erratum": 2, "vendor": 1}; problems {}
        py-client-everything-2026-07-28-rejected.jsonl: 6 ok, 0 noted, 0 error; revisions {"2025-11-25": 4, "2026-07-28": 2}; notes {}; problems {}
        py-client-py-server-2024-11-05.jsonl: 56 ok, 16 noted, 2 error; revisions {"2024-11-05": 74}; notes {"beyond_revision": 30, "vendor": 1}; problems {"capability": 2}
        py-client-py-server-2025-03-26.jsonl: 59 ok, 13 noted, 2 error; revisions {"2025-03-26": 74}; notes {"beyond_revision": 26, "vendor": 1}; problems {"capability": 2}
        py-client-py-server-2025-06-18.jsonl: 64 ok, 8 noted, 2 error; revisions {"2025-06-18": 74}; notes {"beyond_revision": 39, "erratum": 2, "vendor": 1}; problems {"capability": 2}
        py-client-py-server-2025-11-25.jsonl: 64 ok, 8 noted, 2 error; revisions {"2025-11-25": 74}; notes {"beyond_revision": 23, "erratum": 2, "vendor": 1}; problems {"capability": 2}
        py-client-py-server-2026-07-28.jsonl: 64 ok, 4 noted, 2 error; revisions {"2026-07-28": 70}; notes {"beyond_revision": 2, "erratum": 2}; problems {"capability": 2}
        ts-client-everything-2024-11-05.jsonl: 129 ok, 50 noted, 2 error; revisions {"2024-11-05": 181}; notes {"beyond_revision": 117, "untyped": 16, "vendor": 1}; problems {"schema": 2}
        ts-client-everything-2025-03-26.jsonl: 129 ok, 50 noted, 2 error; revisions {"2025-03-26": 181}; notes {"beyond_revision": 97, "untyped": 16, "vendor": 1}; problems {"schema": 2}
        ts-client-everything-2025-06-18.jsonl: 137 ok, 40 noted, 4 error; revisions {"2025-06-18": 181}; notes {"beyond_revision": 99, "erratum": 2, "untyped": 9, "vendor": 1}; problems {"schema": 4}
        ts-client-everything-2025-11-25.jsonl: 173 ok, 8 noted, 0 error; revisions {"2025-11-25": 181}; notes {"beyond_revision": 5, "erratum": 2, "vendor": 1}; problems {}
        ts-client-everything-2026-07-28-rejected.jsonl: 5 ok, 1 noted, 0 error; revisions {"2025-11-25": 6}; notes {"revision_assumed": 1}; problems {}
        ts-client-py-server-2024-11-05.jsonl: 48 ok, 24 noted, 2 error; revisions {"2024-11-05": 74}; notes {"beyond_revision": 35, "untyped": 4, "vendor": 1}; problems {"capability": 2}
        ts-client-py-server-2025-03-26.jsonl: 51 ok, 21 noted, 2 error; revisions {"2025-03-26": 74}; notes {"beyond_revision": 31, "untyped": 4, "vendor": 1}; problems {"capability": 2}
        ts-client-py-server-2025-06-18.jsonl: 63 ok, 9 noted, 2 error; revisions {"2025-06-18": 74}; notes {"beyond_revision": 40, "erratum": 2, "vendor": 1}; problems {"capability": 2}
        ts-client-py-server-2025-11-25.jsonl: 64 ok, 8 noted, 2 error; revisions {"2025-11-25": 74}; notes {"beyond_revision": 23, "erratum": 2, "vendor": 1}; problems {"capability": 2}
        ts-client-py-server-2026-07-28-rejected.jsonl: 5 ok, 1 noted, 0 error; revisions {"2025-11-25": 6}; notes {"revision_assumed": 1}; problems {}"#]].assert_eq(&table.join("\n"));
}

/// Each report of a checked file: its revision and line, then each problem's and note's
/// kind and pointer.
fn describe(reports: &[Report]) -> String {
    let mut out = String::new();
    for r in reports {
        let revision = r.revision.map_or("-", ProtocolVersion::as_str);
        out.push_str(&format!("[{revision}] {r}\n"));
        for p in &r.problems {
            out.push_str(&format!("    {} {:?}\n", p.kind.name(), p.pointer));
        }
        for n in &r.notes {
            let kind = match &n.kind {
                NoteKind::Erratum { id } => format!("erratum {id}"),
                k => k.name().to_owned(),
            };
            out.push_str(&format!("    note {kind} {:?}\n", n.pointer));
        }
    }
    out
}

fn check_fixture(file: &str, lines: Expect, summary: Expect) -> (Checker, Vec<Report>) {
    let text = read(workspace().join("tests/fixtures/check").join(file));
    let mut checker = Checker::new();
    let reports = run(&mut checker, &text);
    lines.assert_eq(&describe(&reports));
    summary.assert_eq(&serde_json::to_string_pretty(&checker.summary()).unwrap());
    (checker, reports)
}

/// A 2025-11-25 session with one bad message of each kind: a schema error, a lossy
/// re-encoding, a response to no request, requests the receiver's capabilities do not allow,
/// a request of the wrong direction, a form asking for a password, a URL elicitation over
/// plain http; and notes: an erratum, members beyond the revision, a vendor method.
#[test]
fn broken_server_session() {
    let (checker, reports) = check_fixture(
        "broken-server.jsonl",
        expect![[r#"
            [2025-11-25] ok request InitializeRequest (initialize)
            [2025-11-25] ok response to initialize (InitializeResult)
            [2025-11-25] ok notification InitializedNotification (notifications/initialized)
            [2025-11-25] ok request CallToolRequest (tools/call)
            [2025-11-25] error response to tools/call: CallToolResult: missing member `text` in a TextContent object at /result/content/1 (2025-11-25)
                schema "/result/content/1"
            [2025-11-25] lossy /id: null -> (absent)
                lossy "/id"
                note erratum jsonrpc-error-id-null "/id"
            [2025-11-25] error response: /id: no request from the client with id 99 awaits a response (none was sent, or it was answered already)
                unknown_id "/id"
            [2025-11-25] error request CreateMessageRequest (sampling/createMessage): /method: `sampling/createMessage` needs the client's `sampling` capability, not declared in the client's initialize request
                capability "/method"
            [2025-11-25] error request id 2 (tools/call), answer -32601: wrong direction: CallToolRequest is a ClientRequest, not a ServerRequest (sent s2c)
                wrong_direction "/method"
            [2025-11-25] error request ElicitRequest (elicitation/create): /params/requestedSchema/properties/password: form-mode elicitation asks for sensitive data (`password`): the spec forbids requesting passwords, secrets, tokens, API keys or payment data in form mode; URL mode is for those
                sensitive_field "/params/requestedSchema/properties/password"
            [2025-11-25] error request ElicitRequest (elicitation/create): /params/url: URL-mode elicitation over plain http to a host that is not this machine (http://pay.example.com/checkout?order=7): what the user enters there can be read or changed on the way; use https
                insecure_url "/params/url"
            [2025-11-25] ok request ElicitRequest (elicitation/create)
            [2025-11-25] ok response to elicitation/create (ElicitResult); note: erratum elicit-content-numbers: /result/content/height
                note erratum elicit-content-numbers "/result/content/height"
            [2025-11-25] ok request CallToolRequest (tools/call)
            [2025-11-25] ok response to tools/call (CallToolResult); note: /result/resultType: unknown member (not in 2025-11-25); note: /result/x-trace: unknown member (not in 2025-11-25)
                note beyond_revision "/result/resultType"
                note vendor "/result/x-trace"
            [2025-11-25] ok request Custom (vendor.example/search); note: /: custom method "vendor.example/search" (ClientRequest) (not in 2025-11-25)
                note vendor ""
            [2025-11-25] ok error -32601 to vendor.example/search
            [2025-11-25] error request CompleteRequest (completion/complete): /method: `completion/complete` needs the server's `completions` capability, not declared in the server's initialize result
                capability "/method"
            [2025-11-25] ok error -32601 to completion/complete
        "#]],
        expect![[r#"
            {
              "messages": 19,
              "verdicts": {
                "ok": 8,
                "noted": 3,
                "error": 8
              },
              "revisions": {
                "2025-11-25": 19
              },
              "notes": {
                "beyond_revision": 1,
                "erratum": 2,
                "vendor": 2
              },
              "problems": {
                "capability": 2,
                "insecure_url": 1,
                "lossy": 1,
                "schema": 1,
                "sensitive_field": 1,
                "unknown_id": 1,
                "wrong_direction": 1
              }
            }"#]],
    );
    assert_eq!(checker.revision(), Some(ProtocolVersion::V2025_11_25));
    // The JSON of one report.
    let password = reports
        .iter()
        .find(|r| {
            r.problems
                .iter()
                .any(|p| p.kind == ProblemKind::SensitiveField)
        })
        .unwrap();
    expect![[r#"
        {
          "verdict": "error",
          "revision": "2025-11-25",
          "what": "request ElicitRequest (elicitation/create)",
          "answer": null,
          "notes": [],
          "problems": [
            {
              "kind": "sensitive_field",
              "pointer": "/params/requestedSchema/properties/password",
              "message": "/params/requestedSchema/properties/password: form-mode elicitation asks for sensitive data (`password`): the spec forbids requesting passwords, secrets, tokens, API keys or payment data in form mode; URL mode is for those"
            }
          ]
        }"#]].assert_eq(&serde_json::to_string_pretty(password).unwrap());
}

/// A 2026-07-28 stateless session: the revision comes from each request's `_meta`, the
/// client's capabilities too, the server's from `server/discover`; the input requests of an
/// `InputRequiredResult` are checked against the capabilities the request carried.
#[test]
fn stateless_session_learns_from_meta() {
    let text = read(workspace().join("tests/fixtures/check/stateless-2026-07-28.jsonl"));
    let mut checker = Checker::new();
    assert_eq!(checker.revision(), None);
    let first = text.lines().next().unwrap();
    let report = checker.check_line(first);
    assert_eq!(checker.revision(), Some(ProtocolVersion::V2026_07_28));
    assert_eq!(report.revision, Some(ProtocolVersion::V2026_07_28));
    assert_eq!(
        report.to_string(),
        "ok request DiscoverRequest (server/discover)"
    );

    check_fixture(
        "stateless-2026-07-28.jsonl",
        expect![[r#"
            [2026-07-28] ok request DiscoverRequest (server/discover)
            [2026-07-28] ok response to server/discover (DiscoverResult)
            [2026-07-28] ok request CallToolRequest (tools/call)
            [2026-07-28] error response to tools/call (InputRequiredResult): /result/inputRequests/login/params/requestedSchema/properties/pin_code: form-mode elicitation asks for sensitive data (`pin`): the spec forbids requesting passwords, secrets, tokens, API keys or payment data in form mode; URL mode is for those; /result/inputRequests/pay/params/mode: `elicitation/create` needs the client's `elicitation.url` capability, not declared in the request's _meta clientCapabilities; /result/inputRequests/pay/params/url: URL-mode elicitation over plain http to a host that is not this machine (http://pay.example.com/checkout): what the user enters there can be read or changed on the way; use https; /result/inputRequests/ask/method: `sampling/createMessage` needs the client's `sampling` capability, not declared in the request's _meta clientCapabilities
                sensitive_field "/result/inputRequests/login/params/requestedSchema/properties/pin_code"
                capability "/result/inputRequests/pay/params/mode"
                insecure_url "/result/inputRequests/pay/params/url"
                capability "/result/inputRequests/ask/method"
            [2026-07-28] error request GetPromptRequest (prompts/get): /method: `prompts/get` needs the server's `prompts` capability, not declared in the server's server/discover result
                capability "/method"
            [2026-07-28] ok request ListToolsRequest (tools/list)
            [2026-07-28] ok response to tools/list (ListToolsResult)
        "#]],
        expect![[r#"
            {
              "messages": 7,
              "verdicts": {
                "ok": 5,
                "noted": 0,
                "error": 2
              },
              "revisions": {
                "2026-07-28": 7
              },
              "notes": {},
              "problems": {
                "capability": 3,
                "insecure_url": 1,
                "sensitive_field": 1
              }
            }"#]],
    );
}

/// Before anything says which revision a session speaks, the latest is assumed, and said.
#[test]
fn the_revision_is_assumed_only_until_learned() {
    let mut checker = Checker::new();
    let c2s = Some(Direction::ClientToServer);
    let s2c = Some(Direction::ServerToClient);
    let r = checker.check(
        s2c,
        r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"early"}}"#,
    );
    assert_eq!(r.verdict, Verdict::Noted);
    assert_eq!(r.revision, Some(ProtocolVersion::latest()));
    assert_eq!(r.notes[0].kind, NoteKind::RevisionAssumed);
    // A version this crate does not know: the newest with `initialize`, said so.
    let r = checker.check(
        c2s,
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2099-01-01","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
    );
    assert_eq!(
        r.to_string(),
        "ok request InitializeRequest (initialize); note: protocolVersion \"2099-01-01\" is no revision this crate knows: checked against 2025-11-25"
    );
    assert_eq!(r.notes[0].pointer, "/params/protocolVersion");
    // The negotiated one from then on.
    let r = checker.check(
        s2c,
        r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-03-26","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#,
    );
    assert_eq!(
        r.to_string(),
        "ok response to initialize (InitializeResult)"
    );
    assert_eq!(r.revision, Some(ProtocolVersion::V2025_03_26));
    assert_eq!(checker.revision(), Some(ProtocolVersion::V2025_03_26));
    // Without a direction: both sides' types, and a response answers either side.
    let r = checker.check(None, r#"{"jsonrpc":"2.0","id":"a","method":"ping"}"#);
    assert_eq!(r.to_string(), "ok request PingRequest (ping)");
    let r = checker.check(None, r#"{"jsonrpc":"2.0","id":"a","result":{}}"#);
    assert_eq!(r.to_string(), "ok response to ping (EmptyResult)");
    let r = checker.check(None, r#"{"jsonrpc":"2.0","id":"a","result":{}}"#);
    assert_eq!(
        r.to_string(),
        "error response: /id: no request with id \"a\" awaits a response (none was sent, or it was answered already)"
    );
    // The client declared no `roots`: a server asking for them breaks the handshake's terms,
    // whichever direction the line says (none here: `roots/list` is the server's).
    let r = checker.check(None, r#"{"jsonrpc":"2.0","id":2,"method":"roots/list"}"#);
    assert_eq!(
        r.to_string(),
        "error request ListRootsRequest (roots/list): /method: `roots/list` needs the client's `roots` capability, not declared in the client's initialize request"
    );
    let s = checker.summary();
    assert_eq!((s.messages, s.passed(), s.failed()), (7, 5, 2));
}

/// The sensitive-field heuristic stays public here (its one copy is `mcp-typed-rules`', which
/// `#[derive(Elicit)]` uses too).
#[test]
fn sensitive_names_are_public() {
    assert!(check::SENSITIVE_WORDS.contains(&"password"));
    assert!(check::SENSITIVE_PAIRS.contains(&("api", "key")));
    assert_eq!(
        check::sensitive_name("userPassword").as_deref(),
        Some("password")
    );
    assert_eq!(check::sensitive_name("apiKey").as_deref(), Some("api_key"));
    assert_eq!(check::sensitive_name("keyboard"), None);
}

/// Kinds serialize by the names `Summary` counts them under.
#[test]
fn summary_counts_by_kind_name() {
    let mut checker = Checker::with_revision(ProtocolVersion::V2025_11_25);
    checker.check(None, "{oops");
    checker.unreadable("invalid JSON at line 3 column 1: EOF");
    let s = checker.summary();
    assert_eq!(s.problems, BTreeMap::from([("invalid_json", 2)]));
    assert_eq!(s.revisions, BTreeMap::from([("none", 2)]));
    assert_eq!(s.to_string(), "0 passed, 2 failed");
}
