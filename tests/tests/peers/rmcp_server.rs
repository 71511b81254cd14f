//! `tests/examples/rmcp-server.rs` (rmcp, the official Rust SDK, with a derived form) driven
//! by the real Python SDK client (`tests/peers/rmcp_py.py`) at every revision both speak:
//! the form the client receives is byte for byte ours, and accept, decline, cancel and
//! content that breaks the form come back as the tool's result.

use std::path::PathBuf;

use mcp_typed::{Elicit, ProtocolVersion};
use serde_json::{Value, json};

#[allow(dead_code)]
#[path = "../../examples/rmcp-server.rs"]
mod server;
use server::Booking;

const MESSAGE: &str = "Booking a table on 2026-12-24: who is coming?";

/// What the client did and saw: its output (`negotiated`, `calls`) and the raw messages the
/// server wrote (`s2c` lines of the tap log).
struct Session {
    out: Value,
    from_server: Vec<Value>,
}

/// Runs the Python client against the example at `revision`, answering one `book_table` call
/// with each of `answers`.
fn session(revision: &str, answers: Value) -> Session {
    let server = mcp_tests::example_binary("mcp-tests", "rmcp-server", &[]);
    let dir = scratch(revision);
    let (log, answers_file) = (dir.join("raw.jsonl"), dir.join("answers.json"));
    std::fs::write(&answers_file, answers.to_string()).unwrap();
    let out = mcp_tests::peers::peers()
        .python()
        .arg(mcp_tests::peers::scripts().join("rmcp_py.py"))
        .args(["--revision", revision, "--log"])
        .arg(&log)
        .arg("--answers")
        .arg(&answers_file)
        .arg("--")
        .arg(&server)
        .output()
        .expect("run the Python client");
    assert!(
        out.status.success(),
        "rmcp_py.py at {revision} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out: Value = serde_json::from_slice(&out.stdout).expect("the client prints JSON");
    assert_eq!(out["negotiated"], revision, "{out}");
    let from_server = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|l| l["dir"] == "s2c")
        .map(|l| l["msg"].clone())
        .collect();
    Session { out, from_server }
}

fn scratch(revision: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("rmcp-server-{revision}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

impl Session {
    /// The tool results, as `(isError, text)`.
    fn calls(&self) -> Vec<(bool, String)> {
        self.out["calls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c["isError"] == true, c["text"].as_str().unwrap().to_owned()))
            .collect()
    }

    /// The params of every `elicitation/create` the server sent, as it wrote them.
    fn forms(&self) -> Vec<&Value> {
        self.from_server
            .iter()
            .filter(|m| m["method"] == "elicitation/create")
            .map(|m| &m["params"])
            .collect()
    }
}

/// Accept (with a default applied), decline, cancel, and two answers that break the form.
fn answers() -> Value {
    json!([
        {"action": "accept", "content": {"name": "Ada", "guests": 4, "budget": 35.5}},
        {"action": "decline"},
        {"action": "cancel"},
        {"action": "accept", "content": {"name": "", "guests": 40, "budget": "cheap"}},
        {"action": "accept", "content": {"guests": 2.5, "terrace": "yes", "dog": true}},
    ])
}

fn forms_at(version: ProtocolVersion) {
    let s = session(version.as_str(), answers());
    let calls = s.calls();
    assert_eq!(
        calls[..3],
        [
            (
                false,
                "Booked 2026-12-24 for Ada (4 guests, terrace: false, budget: 35.5 EUR).".into()
            ),
            (false, "Not booked: you declined.".into()),
            (false, "Not booked: you cancelled.".into()),
        ],
    );
    // Content that breaks the form: a tool error naming every field at fault.
    assert_eq!(
        calls[3],
        (
            true,
            "invalid elicitation content (3 problems):\n\
             - field `name`: too short: 0 characters, at least 1 required\n\
             - field `guests`: 40 is out of range (1..=12)\n\
             - field `budget`: expected number, found string"
                .into()
        )
    );
    let (is_error, text) = &calls[4];
    assert!(is_error, "{text}");
    for fault in [
        "field `name`: required but missing",
        "field `guests`: expected an integer, found a fraction",
        "field `terrace`: expected boolean, found string",
        "field `dog`",
    ] {
        assert!(text.contains(fault), "{fault:?} not in {text:?}");
    }

    // What the client received is our form for this revision, member for member; rmcp adds
    // only its progress token.
    let forms = s.forms();
    assert_eq!(forms.len(), 5, "one form per call");
    let ours = Booking::form_params(MESSAGE, version).unwrap().to_value();
    for (n, form) in forms.iter().enumerate() {
        let mut form = form.as_object().unwrap().clone();
        let meta = form.shift_remove("_meta").expect("rmcp's _meta");
        assert_eq!(meta, json!({"progressToken": n}));
        assert_eq!(
            Value::Object(form).to_string(),
            ours.to_string(),
            "form {n} at {version}"
        );
    }
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn forms_with_a_2025_11_25_python_client() {
    forms_at(ProtocolVersion::V2025_11_25);
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn forms_with_a_2025_06_18_python_client() {
    forms_at(ProtocolVersion::V2025_06_18);
    // The revision has no `mode`; rmcp's own ElicitRequestParams would write one.
    let params = Booking::form_params(MESSAGE, ProtocolVersion::V2025_06_18).unwrap();
    assert_eq!(params.to_value().get("mode"), None);
}

/// Before 2025-06-18 there is no elicitation, and from 2026-07-28 on a server does not send
/// requests: the tool says so and nothing is sent.
#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn no_form_where_the_revision_has_no_elicitation_request() {
    for (revision, says) in [
        (
            "2024-11-05",
            "cannot ask for the form: MCP 2024-11-05: elicitation does not exist in this revision",
        ),
        (
            "2025-03-26",
            "cannot ask for the form: MCP 2025-03-26: elicitation does not exist in this revision",
        ),
        (
            "2026-07-28",
            "the session has no initialize handshake, so no negotiated revision to ask in \
             (from 2026-07-28 on, return an InputRequiredResult instead)",
        ),
    ] {
        let s = session(revision, json!([{"action": "decline"}]));
        let calls = s.calls();
        assert_eq!(calls.len(), 1);
        assert!(calls[0].0, "{revision}: {calls:?}");
        assert!(calls[0].1.starts_with(says), "{revision}: {calls:?}");
        assert!(s.forms().is_empty(), "{revision}: a form was sent");
        assert_eq!(s.out["unused"], 1);
    }
}
