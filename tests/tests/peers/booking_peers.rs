//! `tests/examples/booking-server.rs` driven by the real Python SDK client (2025-06-18,
//! 2025-11-25, 2026-07-28) and the real TypeScript SDK client (2025-06-18, 2025-11-25) over
//! stdio and over Streamable HTTP (`--http`): the drivers (`tests/peers/booking_py.py`, `booking_ts.mjs`) check every answer the
//! SDKs hand them, and every message exchanged, captured by `tap.py`, must decode as a typed
//! message of the negotiated revision and encode back to the same JSON value — results included,
//! read as the result type of the request they answer (stdio runs, where `tap.py` sees every
//! line; over HTTP the drivers' checks of what the SDKs hand them are the test).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use mcp_tests::peers::{peers, scripts};
use mcp_typed::{RequestMethod, Unknowns, v2025_06_18 as v06, v2025_11_25 as v11};
use mcp_typed::{ResultResponse, v2026_07_28 as v26};
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Peer {
    Python,
    TypeScript,
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn python_sdk_2025_06_18() {
    exchange(Peer::Python, "2025-06-18");
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn python_sdk_2025_11_25() {
    exchange(Peer::Python, "2025-11-25");
}

/// Stateless: `server/discover`, per-request `_meta`, forms through `InputRequiredResult` and
/// the SDK's retry with `inputResponses`.
#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn python_sdk_2026_07_28() {
    exchange(Peer::Python, "2026-07-28");
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn typescript_sdk_2025_06_18() {
    exchange(Peer::TypeScript, "2025-06-18");
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn typescript_sdk_2025_11_25() {
    exchange(Peer::TypeScript, "2025-11-25");
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn python_sdk_over_streamable_http() {
    for revision in ["2025-06-18", "2025-11-25", "2026-07-28"] {
        over_http(Peer::Python, revision);
    }
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn typescript_sdk_over_streamable_http() {
    for revision in ["2025-06-18", "2025-11-25"] {
        over_http(Peer::TypeScript, revision);
    }
}

fn server() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| mcp_tests::example_binary("mcp-tests", "booking-server", &[]))
}

/// The peer's driver, as a command to give the server to.
fn driver(peer: Peer) -> std::process::Command {
    let peers = peers();
    match peer {
        Peer::Python => {
            let mut cmd = peers.python();
            cmd.arg(scripts().join("booking_py.py"));
            cmd
        }
        Peer::TypeScript => {
            let mut cmd = peers.node();
            cmd.arg(scripts().join("booking_ts.mjs"));
            cmd.arg("--node-modules").arg(peers.node_modules());
            cmd.arg("--python")
                .arg(peers.cache.join("venv").join("bin").join("python"));
            cmd
        }
    }
}

/// Runs the driver (its arguments given) and returns its report; panics naming the SDK and
/// revision when it saw a wrong answer.
fn run(peer: Peer, revision: &str, mut driver: std::process::Command) -> Value {
    let out = driver.output().expect("run the driver");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "{peer:?} {revision}: the driver printed no report ({e}):\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert!(
        out.status.success(),
        "{peer:?} {revision}: the SDK client saw wrong answers:\n{report:#}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    report
}

/// The same session over Streamable HTTP, one server per run.
fn over_http(peer: Peer, revision: &str) {
    let server = mcp_tests::HttpExample::start("booking-server");
    let mut driver = driver(peer);
    driver.args(["--revision", revision, "--url", &server.url]);
    let started = std::time::Instant::now();
    let report = run(peer, revision, driver);
    println!(
        "{peer:?} SDK, {revision}, Streamable HTTP: {} checks by the driver, {:.1}s",
        report["checks"],
        started.elapsed().as_secs_f64()
    );
    assert!(report["checks"].as_u64().unwrap_or(0) >= 20, "{report}");
}

/// Runs the peer's driver against the server at `revision` over stdio, then checks the
/// capture.
fn exchange(peer: Peer, revision: &str) {
    let log =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("booking-{peer:?}-{revision}.jsonl"));
    let _ = std::fs::remove_file(&log);
    let mut driver = driver(peer);
    driver
        .args(["--revision", revision, "--log"])
        .arg(&log)
        .arg("--")
        .arg(server());
    let started = std::time::Instant::now();
    let report = run(peer, revision, driver);

    let capture = std::fs::read_to_string(&log).expect("tap.py wrote the capture");
    let messages: Vec<(Direction, String)> = capture
        .lines()
        .map(|line| {
            let entry: Value = serde_json::from_str(line).expect("tap.py writes JSON lines");
            let msg = entry
                .get("msg")
                .unwrap_or_else(|| panic!("not JSON on the wire: {line}"));
            let dir = if entry["dir"] == "c2s" {
                Direction::ToServer
            } else {
                Direction::ToClient
            };
            (dir, msg.to_string())
        })
        .collect();
    let check = match revision {
        "2025-06-18" => round_trip_v06,
        "2025-11-25" => round_trip_v11,
        "2026-07-28" => round_trip_v26,
        other => panic!("no round trip for {other}"),
    };
    let (failures, beyond) = check(&messages);
    let to_server = messages
        .iter()
        .filter(|m| m.0 == Direction::ToServer)
        .count();
    println!(
        "{peer:?} SDK, {revision}: {} messages exchanged ({to_server} client→server, {} server→client), \
         {} checks by the driver, {} round-trip failures, {} members beyond the revision, {:.1}s",
        messages.len(),
        messages.len() - to_server,
        report["checks"],
        failures.len(),
        beyond.len(),
        started.elapsed().as_secs_f64()
    );
    for b in &beyond {
        println!("  beyond {revision}: {b}");
    }
    assert!(
        messages.len() >= 30,
        "{peer:?} {revision}: only {} messages captured",
        messages.len()
    );
    assert!(
        failures.is_empty(),
        "{peer:?} {revision}: round-trip failures:\n{}",
        failures.join("\n")
    );
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Direction {
    ToServer,
    ToClient,
}

/// For one revision's module: decodes every message as its `ClientMessage`/`ServerMessage`,
/// and every result as the result type of the request it answers (`$request`s: the methods
/// used); each must encode back to the JSON value it came as. Returns the failures and what
/// `Unknowns` reports (members the revision does not define, kept).
macro_rules! round_trip {
    ($name:ident, $m:ident: $($request:ident),+) => {
        fn $name(messages: &[(Direction, String)]) -> (Vec<String>, Vec<String>) {
            let (mut failures, mut beyond) = (Vec::new(), Vec::new());
            // The method of each request, by its direction and id.
            let mut methods: HashMap<(bool, String), String> = HashMap::new();
            for (n, (dir, text)) in messages.iter().enumerate() {
                let value: Value = serde_json::from_str(text).expect("captured JSON");
                let to_server = *dir == Direction::ToServer;
                if let (Some(method), Some(id)) = (value["method"].as_str(), value.get("id")) {
                    methods.insert((to_server, id.to_string()), method.to_owned());
                }
                let answered = methods.get(&(!to_server, value["id"].to_string())).cloned();
                let (encoded, unknowns, response) = if to_server {
                    match $m::ClientMessage::from_json(text) {
                        Ok(m) => {
                            let response = match &m {
                                $m::ClientMessage::Response(r) => Some(r.clone()),
                                _ => None,
                            };
                            (serde_json::to_string(&m).unwrap(), m.unknowns(), response)
                        }
                        Err(e) => {
                            failures.push(format!("#{n} does not decode: {}\n  {text}", serde_json::to_string(e.reply()).unwrap()));
                            continue;
                        }
                    }
                } else {
                    match $m::ServerMessage::from_json(text) {
                        Ok(m) => {
                            let response = match &m {
                                $m::ServerMessage::Response(r) => Some(r.clone()),
                                _ => None,
                            };
                            (serde_json::to_string(&m).unwrap(), m.unknowns(), response)
                        }
                        Err(e) => {
                            failures.push(format!("#{n} does not decode: {}\n  {text}", serde_json::to_string(e.reply()).unwrap()));
                            continue;
                        }
                    }
                };
                if !same_json(&encoded, text) {
                    failures.push(format!("#{n} encodes differently:\n  got  {encoded}\n  sent {text}"));
                }
                beyond.extend(unknowns.into_iter().map(|u| format!("#{n} {}: {}", u.pointer, u.kind)));
                let Some(response) = response else { continue };
                let Some(method) = answered else {
                    failures.push(format!("#{n} answers no request sent: {text}"));
                    continue;
                };
                match typed_result(&method, &response, |r: &ResultResponse<$m::RequestId>, m| {
                    $(if m == <$m::$request as RequestMethod>::METHOD {
                        return Some(r.result_as::<$m::$request>().and_then(|v| serde_json::to_string(&v)));
                    })+
                    None
                }) {
                    Ok(()) => {}
                    Err(e) => failures.push(format!("#{n}, the result of `{method}`: {e}\n  {text}")),
                }
            }
            (failures, beyond)
        }
    };
}

/// Decodes a response's result with `decode` (the result type of `method`) and compares it,
/// encoded again, with the result received.
fn typed_result<Id>(
    method: &str,
    response: &ResultResponse<Id>,
    decode: impl Fn(&ResultResponse<Id>, &str) -> Option<serde_json::Result<String>>,
) -> Result<(), String> {
    match decode(response, method) {
        None => Err(format!("no typed result listed for `{method}`")),
        Some(Err(e)) => Err(format!("does not decode: {e}")),
        Some(Ok(text)) if text != response.result.get() => {
            Err(format!("encodes differently: {text}"))
        }
        Some(Ok(_)) => Ok(()),
    }
}

/// The same JSON value: members in any order (typed values write theirs in the schema's
/// order), numbers by value.
fn same_json(a: &str, b: &str) -> bool {
    let parse = |t: &str| serde_json::from_str::<Value>(t).expect("JSON");
    mcp_tests::json_eq(&parse(a), &parse(b))
}

round_trip!(round_trip_v06, v06: InitializeRequest, PingRequest, ListToolsRequest, CallToolRequest,
    ListResourcesRequest, ReadResourceRequest, ListPromptsRequest, GetPromptRequest, ElicitRequest);
round_trip!(round_trip_v11, v11: InitializeRequest, PingRequest, ListToolsRequest, CallToolRequest,
    ListResourcesRequest, ReadResourceRequest, ListPromptsRequest, GetPromptRequest, ElicitRequest);
round_trip!(round_trip_v26, v26: DiscoverRequest, ListToolsRequest, CallToolRequest,
    ListResourcesRequest, ReadResourceRequest, ListPromptsRequest, GetPromptRequest);
