//! The JSON-RPC envelope, decided by its members (`method`, `result`, `error`), for the
//! methods of the slice. Shared runtime code: the per-revision part is the method table and
//! `params` (what the generator emits for a method set).

use mcp_typed::v2025_11_25::Error as RpcError;
use mcp_typed::v2025_11_25::*;
use serde_json::{Map, Value};

use crate::pull::Error;
use crate::pull::{Decode, Kind, Pull, const_str, value, wrong};

/// The result type a response is typed as (the request it answers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultKind {
    /// `initialize`.
    Initialize,
    /// `tools/list`.
    ListTools,
    /// `tools/call`.
    CallTool,
}

/// A typed result (unboxed, as the generated `ServerResult`).
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum TypedResult {
    /// Of `initialize`.
    Initialize(InitializeResult),
    /// Of `tools/list`.
    ListTools(ListToolsResult),
    /// Of `tools/call`.
    CallTool(CallToolResult),
    /// Of a request not known: the result's text.
    Raw(String),
}

/// A decoded message (the slice's methods; unboxed, as the generated `ClientMessage`).
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    /// A client's request.
    Request(ClientRequest),
    /// A client's notification.
    ClientNote(ClientNotification),
    /// A server's notification.
    ServerNote(ServerNotification),
    /// A successful response, its result typed.
    Response {
        /// The id answered.
        id: RequestId,
        /// The result.
        result: TypedResult,
        /// Other members.
        extra: Map<String, Value>,
    },
    /// An error response.
    Error(JsonRpcErrorResponse),
}

/// The slice's methods (the generator emits this table per method set).
const METHODS: &[&str] = &[
    "initialize",
    "tools/list",
    "tools/call",
    "notifications/initialized",
    "notifications/progress",
];

#[allow(clippy::large_enum_variant)]
enum Params {
    Initialize(InitializeRequestParams),
    ListTools(PaginatedRequestParams),
    CallTool(CallToolRequestParams),
    Initialized(NotificationParams),
    Progress(ProgressNotificationParams),
}

/// The params of method `m` (index in [`METHODS`]).
fn params<'a, P: Pull<'a>>(p: &mut P, m: usize) -> Result<Params, Error> {
    Ok(match m {
        0 => Params::Initialize(Decode::decode(p)?),
        1 => Params::ListTools(Decode::decode(p)?),
        2 => Params::CallTool(Decode::decode(p)?),
        3 => Params::Initialized(Decode::decode(p)?),
        _ => Params::Progress(Decode::decode(p)?),
    })
}

/// A result typed as `kind`.
pub fn typed_result<'a, P: Pull<'a>>(p: &mut P, kind: ResultKind) -> Result<TypedResult, Error> {
    Ok(match kind {
        ResultKind::Initialize => TypedResult::Initialize(Decode::decode(p)?),
        ResultKind::ListTools => TypedResult::ListTools(Decode::decode(p)?),
        ResultKind::CallTool => TypedResult::CallTool(Decode::decode(p)?),
    })
}

enum Key {
    Jsonrpc,
    Id,
    Method,
    Params,
    Result,
    Error,
    Other(String),
}

fn key(k: &str) -> Key {
    match k {
        "jsonrpc" => Key::Jsonrpc,
        "id" => Key::Id,
        "method" => Key::Method,
        "params" => Key::Params,
        "result" => Key::Result,
        "error" => Key::Error,
        other => Key::Other(other.to_owned()),
    }
}

fn missing(what: &str) -> Error {
    Error::new(format!("missing member `{what}`"), None)
}

/// Decodes one message sent by a server (`from_server`) or a client. `kind_of` says which
/// result type answers an id (the caller's table of requests sent). The members before the
/// deciding one are kept as marks: `params` before `method`, and `result` before `id`, are
/// skipped and decoded from their mark afterwards (jiter: parsed again; simd-json's tape:
/// walked once) — unless `guess` names the result type to try when the result comes before
/// the id (e.g. that of the only request pending): then the result is typed in one pass, and
/// decoded again from its mark only if the id turns out to answer another type.
pub fn decode_message<'a, P: Pull<'a>>(
    p: &mut P,
    from_server: bool,
    kind_of: &dyn Fn(&RequestId) -> Option<ResultKind>,
    guess: Option<ResultKind>,
) -> Result<Msg, Error> {
    let kind = p.peek()?;
    if kind != Kind::Obj {
        return Err(wrong(p, "a JSON-RPC message", kind));
    }
    let mut jsonrpc = false;
    let mut id: Option<RequestId> = None;
    let mut null_id = false;
    let mut method: Option<Option<usize>> = None;
    let mut params_value: Option<Params> = None;
    let mut params_mark = None;
    let mut result: Option<TypedResult> = None;
    // Where a result typed in one pass started, and as what.
    let mut result_span: Option<(usize, ResultKind)> = None;
    // Where a result skipped starts and ends.
    let mut result_mark = None;
    let mut error: Option<RpcError> = None;
    let mut extra = Map::new();
    let mut next = p.obj_first()?.map(key);
    while let Some(k) = next {
        match k {
            Key::Jsonrpc => {
                const_str(p, "2.0").map_err(|e| e.in_key("jsonrpc"))?;
                jsonrpc = true;
            }
            Key::Id => {
                if p.peek()? == Kind::Null {
                    p.null()?;
                    null_id = true;
                } else {
                    id = Some(RequestId::decode(p).map_err(|e| e.in_key("id"))?);
                }
            }
            Key::Method => {
                let m = match p.peek()? {
                    Kind::Str => {
                        let s = p.str()?;
                        METHODS.iter().position(|m| *m == s)
                    }
                    k => return Err(wrong(p, "a string", k).in_key("method")),
                };
                method = Some(m);
            }
            Key::Params => match method {
                Some(Some(m)) => {
                    params_value = Some(params(p, m).map_err(|e| e.in_key("params"))?);
                }
                _ => {
                    p.peek()?;
                    params_mark = Some(p.mark());
                    p.skip()?;
                }
            },
            Key::Result => match id.as_ref().map_or(guess, kind_of) {
                Some(kind) => {
                    p.peek()?;
                    let start = p.mark();
                    result = Some(typed_result(p, kind).map_err(|e| e.in_key("result"))?);
                    result_span = Some((start, kind));
                }
                None => {
                    p.peek()?;
                    let start = p.mark();
                    p.skip()?;
                    result_mark = Some((start, p.mark()));
                }
            },
            Key::Error => {
                error = Some(RpcError::decode(p).map_err(|e| e.in_key("error"))?);
            }
            Key::Other(k) => {
                let v = value(p)?;
                extra.insert(k, v);
            }
        }
        next = p.obj_next()?.map(key);
    }
    if !jsonrpc {
        return Err(missing("jsonrpc"));
    }
    if let Some(m) = method {
        let m = m.ok_or_else(|| Error::new("a method outside the spike's slice", None))?;
        if let Some(mark) = params_mark {
            params_value = Some(params(&mut p.at(mark), m).map_err(|e| e.in_key("params"))?);
        }
        return Ok(match (m, params_value) {
            (0, Some(Params::Initialize(params))) => {
                let id = id.ok_or_else(|| missing("id"))?;
                Msg::Request(ClientRequest::Initialize(InitializeRequest {
                    id,
                    params,
                    extra: extra.into(),
                }))
            }
            (1, params) => {
                let id = id.ok_or_else(|| missing("id"))?;
                let params = match params {
                    Some(Params::ListTools(p)) => Some(p),
                    _ => None,
                };
                Msg::Request(ClientRequest::ListTools(ListToolsRequest {
                    id,
                    params,
                    extra: extra.into(),
                }))
            }
            (2, Some(Params::CallTool(params))) => {
                let id = id.ok_or_else(|| missing("id"))?;
                Msg::Request(ClientRequest::CallTool(CallToolRequest {
                    id,
                    params,
                    extra: extra.into(),
                }))
            }
            (3, params) => {
                let params = match params {
                    Some(Params::Initialized(p)) => Some(p),
                    _ => None,
                };
                Msg::ClientNote(ClientNotification::Initialized(InitializedNotification {
                    params,
                    extra: extra.into(),
                }))
            }
            (4, Some(Params::Progress(params))) => {
                let n = ProgressNotification {
                    params,
                    extra: extra.into(),
                };
                if from_server {
                    Msg::ServerNote(ServerNotification::Progress(n))
                } else {
                    Msg::ClientNote(ClientNotification::Progress(n))
                }
            }
            _ => return Err(missing("params")),
        });
    }
    if let Some(error) = error {
        let _ = null_id;
        return Ok(Msg::Error(JsonRpcErrorResponse {
            id,
            error,
            extra: extra.into(),
        }));
    }
    let id = id.ok_or_else(|| missing("id"))?;
    let result = match (result, result_mark) {
        // Typed in one pass, as the type the id answers (else decoded again from its mark).
        (Some(r), _) => match (result_span, kind_of(&id)) {
            (Some((_, guessed)), Some(kind)) if guessed == kind => r,
            (Some((start, _)), Some(kind)) => {
                typed_result(&mut p.at(start), kind).map_err(|e| e.in_key("result"))?
            }
            _ => r,
        },
        (None, Some((start, end))) => match kind_of(&id) {
            Some(kind) => typed_result(&mut p.at(start), kind).map_err(|e| e.in_key("result"))?,
            None => TypedResult::Raw(p.raw(start, end)),
        },
        (None, None) => return Err(missing("result")),
    };
    Ok(Msg::Response { id, result, extra })
}
