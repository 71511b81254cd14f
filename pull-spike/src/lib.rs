//! Issue 31 spike: one shared decoder on a pull parser, on two parsers (jiter and
//! simd-json's tape), for a slice of 2025-11-25 (the JSON-RPC envelope, `initialize`,
//! `tools/list`, `tools/call`, `notifications/initialized`, `notifications/progress`, error
//! responses), decoding into the generated types, and measured against `serde_json::Value`
//! and today's generated decoder on the same messages (BENCHMARKS.md, "Issue 31: choosing
//! the pull parser"). Unpublished; nothing here is a dependency of the library crates.

#[path = "../../bench/src/corpus.rs"]
pub mod corpus;
pub mod messages;
pub mod parsers;
pub mod pull;
pub mod types;

use std::hint::black_box;

use corpus::{Corpus, Dir, Message};
use messages::{Msg, ResultKind, TypedResult, decode_message};
use parsers::{JiterPull, SimdPull};
use serde_json::Value;

/// The result kind a message of the corpus is typed as (by the request it answers).
pub fn result_kind(m: &Message) -> Option<ResultKind> {
    let a = m.answers.as_ref().filter(|a| !a.task)?;
    match a.method.as_str() {
        "initialize" => Some(ResultKind::Initialize),
        "tools/list" => Some(ResultKind::ListTools),
        "tools/call" => Some(ResultKind::CallTool),
        _ => None,
    }
}

/// Whether a message of the real corpus is in the spike's slice: a client's `initialize`,
/// `tools/list` or `tools/call` request, `notifications/initialized` or
/// `notifications/progress`, a server's response to one of those requests, an error.
pub fn in_slice(m: &Message) -> bool {
    let Ok(v) = serde_json::from_str::<Value>(&m.text) else {
        return false;
    };
    let has_id = v.get("id").is_some();
    match v.get("method").and_then(Value::as_str) {
        Some("initialize" | "tools/list" | "tools/call") => has_id && m.dir == Dir::C2s,
        Some("notifications/initialized" | "notifications/progress") => !has_id,
        Some(_) => false,
        None if v.get("error").is_some() => true,
        None => m.dir == Dir::S2c && result_kind(m).is_some(),
    }
}

/// The slice of the real corpus, or the whole of it (`real`).
pub fn corpus(name: &str) -> anyhow::Result<Corpus> {
    let mut c = Corpus::by_name("real")?;
    match name {
        "real" => {}
        "slice" => {
            c.messages.retain(in_slice);
            c.name = "slice";
        }
        other => anyhow::bail!("unknown corpus `{other}` (slice, real)"),
    }
    Ok(c)
}

/// The codecs measured.
pub const CODECS: [&str; 10] = [
    "serde_json::Value",
    "mcp-typed",
    "jiter",
    "jiter, results in one pass",
    "jiter, one pass, open JSON as text",
    "simd-json",
    "IgnoredAny",
    "jiter skip",
    "simd-json tape",
    "jiter, every string copied",
];

/// Today's decoder: `ClientMessage`/`ServerMessage::from_json`, results typed with
/// `result_as` (as `mcp-bench`'s `mcp-typed` codec).
pub fn decode_mcp_typed(m: &Message) -> Result<Msg, String> {
    use mcp_typed::v2025_11_25::{
        CallToolRequest, ClientMessage, InitializeRequest, ListToolsRequest, ServerMessage,
    };
    let r = match m.dir {
        Dir::C2s => match ClientMessage::from_json(&m.text).map_err(|e| e.to_string())? {
            ClientMessage::Request(r) => return Ok(Msg::Request(r)),
            ClientMessage::Notification(n) => return Ok(Msg::ClientNote(n)),
            ClientMessage::Error(e) => return Ok(Msg::Error(e)),
            ClientMessage::Response(r) => r,
        },
        Dir::S2c => match ServerMessage::from_json(&m.text).map_err(|e| e.to_string())? {
            ServerMessage::Request(_) => return Err("a server request".into()),
            ServerMessage::Notification(n) => return Ok(Msg::ServerNote(n)),
            ServerMessage::Error(e) => return Ok(Msg::Error(e)),
            ServerMessage::Response(r) => r,
        },
    };
    let e = |e: serde_json::Error| e.to_string();
    let result = match result_kind(m) {
        Some(ResultKind::Initialize) => {
            TypedResult::Initialize(r.result_as::<InitializeRequest>().map_err(e)?)
        }
        Some(ResultKind::ListTools) => {
            TypedResult::ListTools(r.result_as::<ListToolsRequest>().map_err(e)?)
        }
        Some(ResultKind::CallTool) => {
            TypedResult::CallTool(r.result_as::<CallToolRequest>().map_err(e)?)
        }
        None => TypedResult::Raw(r.result.get().to_owned()),
    };
    Ok(Msg::Response {
        id: r.id,
        result,
        extra: r.extra.into(),
    })
}

/// The shared decoder on jiter.
pub fn decode_jiter(m: &Message) -> Result<Msg, pull::Error> {
    decode_jiter_with(m, false, false)
}

/// The shared decoder on jiter; `one_pass`: a result that comes before its id is typed as
/// the guessed type (here the right one: the corpus pairs each response with its request),
/// not skipped and parsed again; `open_as_text`: see [`pull::Pull::open_as_text`].
pub fn decode_jiter_with(
    m: &Message,
    one_pass: bool,
    open_as_text: bool,
) -> Result<Msg, pull::Error> {
    let kind = result_kind(m);
    let mut p = JiterPull::new(&m.text);
    if open_as_text {
        p = p.with_open_as_text();
    }
    let msg = decode_message(
        &mut p,
        m.dir == Dir::S2c,
        &|_| kind,
        kind.filter(|_| one_pass),
    )?;
    p.finish()?;
    Ok(msg)
}

/// simd-json's buffers, kept from message to message (as a decoder would).
pub struct SimdState {
    buffers: simd_json::Buffers,
    tape: Option<simd_json::tape::Tape<'static>>,
    input: Vec<u8>,
}

impl Default for SimdState {
    fn default() -> Self {
        SimdState {
            buffers: simd_json::Buffers::default(),
            tape: Some(simd_json::tape::Tape::null().reset()),
            input: Vec::new(),
        }
    }
}

/// The shared decoder on simd-json's tape (the input copied, padded, into a mutable buffer:
/// simd-json unescapes strings in place).
pub fn decode_simd(state: &mut SimdState, m: &Message) -> Result<Msg, pull::Error> {
    let kind = result_kind(m);
    let mut input = std::mem::take(&mut state.input);
    input.clear();
    input.extend_from_slice(m.text.as_bytes());
    input.resize(m.text.len() + simd_json::INPUT_PADDING, b' ');
    let mut tape = state
        .tape
        .take()
        .unwrap_or_else(simd_json::tape::Tape::null)
        .reset();
    let out = match simd_json::fill_tape_padded(
        &mut input,
        m.text.len(),
        &mut state.buffers,
        &mut tape,
    ) {
        Ok(()) => decode_message(
            &mut SimdPull::new(&tape.0),
            m.dir == Dir::S2c,
            &|_| kind,
            None,
        ),
        Err(e) => Err(pull::Error::new(e.to_string(), Some(e.index()))),
    };
    state.tape = Some(tape.reset());
    state.input = input;
    out
}

/// Walks a value, copying each string value into a `String` dropped at once.
fn copy_strings<'a, P: pull::Pull<'a>>(p: &mut P) -> Result<(), pull::Error> {
    use pull::Kind;
    match p.peek()? {
        Kind::Str => drop(black_box(p.str()?.to_owned())),
        Kind::Obj => {
            let mut more = p.obj_first()?.is_some();
            while more {
                copy_strings(p)?;
                more = p.obj_next()?.is_some();
            }
        }
        Kind::Arr => {
            let mut more = p.arr_first()?;
            while more {
                copy_strings(p)?;
                more = p.arr_next()?;
            }
        }
        Kind::Num => {
            p.num()?;
        }
        Kind::Bool => {
            p.bool()?;
        }
        Kind::Null => p.null()?,
    }
    Ok(())
}

/// One decode pass of `codec` over `messages`: how many decoded.
pub fn decode_pass(codec: &str, messages: &[Message]) -> Option<usize> {
    let ok = |r: bool| r as usize;
    Some(match codec {
        "serde_json::Value" => messages
            .iter()
            .map(|m| ok(black_box(serde_json::from_str::<Value>(&m.text)).is_ok()))
            .sum(),
        "IgnoredAny" => messages
            .iter()
            .map(|m| ok(black_box(serde_json::from_str::<serde::de::IgnoredAny>(&m.text)).is_ok()))
            .sum(),
        "mcp-typed" => messages
            .iter()
            .map(|m| ok(black_box(decode_mcp_typed(m)).is_ok()))
            .sum(),
        "jiter" => messages
            .iter()
            .map(|m| ok(black_box(decode_jiter(m)).is_ok()))
            .sum(),
        "jiter, results in one pass" => messages
            .iter()
            .map(|m| ok(black_box(decode_jiter_with(m, true, false)).is_ok()))
            .sum(),
        "jiter, one pass, open JSON as text" => messages
            .iter()
            .map(|m| ok(black_box(decode_jiter_with(m, true, true)).is_ok()))
            .sum(),
        // The parse floors: validate and skip (jiter), build the tape (simd-json).
        "jiter skip" => messages
            .iter()
            .map(|m| {
                let mut j = jiter::Jiter::new(m.text.as_bytes());
                ok(black_box(j.next_skip().and_then(|()| j.finish())).is_ok())
            })
            .sum(),
        // The floor of any decoder with owned strings: the scan, plus every string value
        // allocated, copied and freed (keys only matched).
        "jiter, every string copied" => messages
            .iter()
            .map(|m| ok(black_box(copy_strings(&mut JiterPull::new(&m.text))).is_ok()))
            .sum(),
        "simd-json tape" => {
            let mut buffers = simd_json::Buffers::default();
            let mut input = Vec::new();
            let mut tape = Some(simd_json::tape::Tape::null().reset());
            messages
                .iter()
                .map(|m| {
                    input.clear();
                    input.extend_from_slice(m.text.as_bytes());
                    input.resize(m.text.len() + simd_json::INPUT_PADDING, b' ');
                    let mut t = tape
                        .take()
                        .unwrap_or_else(simd_json::tape::Tape::null)
                        .reset();
                    let r =
                        simd_json::fill_tape_padded(&mut input, m.text.len(), &mut buffers, &mut t);
                    let r = ok(black_box(r).is_ok());
                    tape = Some(t.reset());
                    r
                })
                .sum()
        }
        "simd-json" => {
            let mut state = SimdState::default();
            messages
                .iter()
                .map(|m| ok(black_box(decode_simd(&mut state, m)).is_ok()))
                .sum()
        }
        _ => return None,
    })
}
