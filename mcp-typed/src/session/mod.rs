//! One program, every revision: a session codec that reads each peer's messages into one set
//! of types and writes them back in the session's revision, and a server that asks for forms
//! the same way whatever the revision.
//!
//! - [`Codec`]: for a handshake-era session (2024-11-05 to 2025-11-25) of the revision
//!   `initialize` negotiated, [`Codec::decode`] reads an incoming line into the 2025-11-25
//!   message type of its direction (or gives the error response owed, in the session's
//!   revision, with the request's id), and [`Codec::encode`] writes an outgoing 2025-11-25
//!   message in the session's revision. Where the two revisions say the same thing in
//!   different shapes, a [`bridge`] translates; what the session's revision cannot carry
//!   is dropped and listed ([`Encoded::dropped`]) or refused naming its JSON path, as
//!   [`crate::convert`] does. Nothing is dropped silently.
//! - [`ServerSession`]: a server written once against 2025-11-25 types ([`Handler`]) that serves the
//!   handshake-era revisions through a [`Codec`] and 2026-07-28's stateless requests (its
//!   `server/discover`, results with `resultType` and cache hints) from the same handler. A
//!   tool asks for a derived form with [`Context::elicit`] and gets an
//!   [`ElicitOutcome`](crate::elicit::ElicitOutcome) back: the server sends `elicitation/create`
//!   and runs the tool again with the answer up to 2025-11-25, and returns an
//!   `InputRequiredResult` whose retry carries the answer in 2026-07-28.
//!
//! ```
//! # #[cfg(all(feature = "v2025_06_18", feature = "v2025_11_25"))] {
//! use mcp_typed::ProtocolVersion;
//! use mcp_typed::session::{Codec, Server as Side};
//! use mcp_typed::v2025_11_25 as mcp;
//!
//! let mut codec = Codec::<Side>::new(ProtocolVersion::V2025_06_18);
//! let line = r#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#;
//! let request = codec.decode(line).unwrap(); // a 2025-11-25 ClientMessage
//! assert!(matches!(request, mcp::ClientMessage::Request(mcp::ClientRequest::ListTools(_))));
//! let reply = mcp::ServerMessage::response(7, mcp::ListToolsResult::new(vec![]));
//! assert_eq!(codec.encode(&reply).unwrap().line, r#"{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}"#);
//! # }
//! ```

pub mod bridge;
mod server;

mod client;
mod connection;

pub use client::{ClientError, ClientHandler, ClientInfo, ClientSession, Pending, ServerInfo};
pub use connection::{Connection, PageError};
pub use server::{Context, Handler, Info, Refusal, ServerSession};

use std::marker::PhantomData;

use serde_json::Value;

use crate::ProtocolVersion;
use crate::convert::{self, ConversionError};
use crate::v2025_11_25 as app;
use bridge::Bridged;

/// The server's side of a session: it reads [`app::ClientMessage`]s and writes
/// [`app::ServerMessage`]s.
#[derive(Debug, Clone, Copy)]
pub enum Server {}

/// The client's side of a session: it reads [`app::ServerMessage`]s and writes
/// [`app::ClientMessage`]s.
#[derive(Debug, Clone, Copy)]
pub enum Client {}

/// Which side of a session a [`Codec`] is on.
pub trait Side: sealed::Sealed {
    /// What this side reads (2025-11-25 types).
    type Incoming;
    /// What this side writes (2025-11-25 types).
    type Outgoing;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Server {}
    impl Sealed for super::Client {}
}

impl Side for Server {
    type Incoming = app::ClientMessage;
    type Outgoing = app::ServerMessage;
}

impl Side for Client {
    type Incoming = app::ServerMessage;
    type Outgoing = app::ClientMessage;
}

/// A session's codec: its revision, and nothing else to know (a handshake-era session's
/// revision is fixed by `initialize`; [`Codec::set_version`] after negotiating).
#[derive(Debug, Clone)]
pub struct Codec<S: Side> {
    version: ProtocolVersion,
    side: PhantomData<S>,
}

/// An incoming line that cannot be read: why, and the error response owed to the peer,
/// already written in the session's revision (with the request's id where it could be read).
#[derive(Debug, Clone, PartialEq)]
pub struct Refused {
    /// What is wrong.
    pub message: String,
    /// The error response to send back, as a line of JSON.
    pub reply: String,
}

/// An outgoing message written in the session's revision.
#[derive(Debug, Clone, PartialEq)]
pub struct Encoded {
    /// The message, as a line of JSON.
    pub line: String,
    /// What the session's revision cannot carry, left out (JSON Pointers).
    pub dropped: Vec<String>,
    /// What was translated, and where.
    pub bridged: Vec<Bridged>,
}

/// The handshake-era revisions this build has (a codec serves these).
pub fn revisions() -> Vec<ProtocolVersion> {
    let built = [
        (cfg!(feature = "v2024_11_05"), ProtocolVersion::V2024_11_05),
        (cfg!(feature = "v2025_03_26"), ProtocolVersion::V2025_03_26),
        (cfg!(feature = "v2025_06_18"), ProtocolVersion::V2025_06_18),
        (true, ProtocolVersion::V2025_11_25),
    ];
    built.into_iter().filter(|b| b.0).map(|b| b.1).collect()
}

/// Runs `$body` with `$wire` naming the module of `$version`'s types; `$other` for a revision
/// this build has no handshake-era types for.
macro_rules! on_wire {
    ($version:expr, $wire:ident => $body:expr, else $other:expr) => {
        match $version {
            #[cfg(feature = "v2024_11_05")]
            ProtocolVersion::V2024_11_05 => {
                use crate::v2024_11_05 as $wire;
                $body
            }
            #[cfg(feature = "v2025_03_26")]
            ProtocolVersion::V2025_03_26 => {
                use crate::v2025_03_26 as $wire;
                $body
            }
            #[cfg(feature = "v2025_06_18")]
            ProtocolVersion::V2025_06_18 => {
                use crate::v2025_06_18 as $wire;
                $body
            }
            ProtocolVersion::V2025_11_25 => {
                use crate::v2025_11_25 as $wire;
                $body
            }
            #[allow(unreachable_patterns)]
            _ => $other,
        }
    };
}

fn unsupported(version: ProtocolVersion) -> String {
    format!(
        "{version} is not a handshake-era revision this build has (features: {})",
        revisions()
            .iter()
            .map(|v| v.feature())
            .collect::<Vec<_>>()
            .join(", ")
    )
}
/// Which way a line went, for an observer ([`ServerSession::observe`], [`ClientSession::observe`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Read from the peer.
    In,
    /// Written to the peer.
    Out,
}

/// One line a session read or wrote, as its observer sees it.
#[derive(Debug, Clone, Copy)]
pub struct Traffic<'a> {
    /// Which way it went.
    pub direction: Direction,
    /// The line, as read or written.
    pub line: &'a str,
    /// `"request"`, `"notification"`, `"response"` or `"error"`; `None` for a line that is
    /// not a JSON-RPC message.
    pub kind: Option<&'static str>,
    /// The method of a request or notification.
    pub method: Option<&'a str>,
    /// For an incoming line the session could not read: why (the error response owed
    /// follows among the outgoing lines).
    pub error: Option<&'a str>,
}

pub(crate) struct Observer(Box<dyn FnMut(&Traffic<'_>) + Send>);

impl std::fmt::Debug for Observer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Observer")
    }
}

impl Observer {
    pub(crate) fn see(&mut self, direction: Direction, line: &str, error: Option<&str>) {
        let peek: Option<Value> = serde_json::from_str(line).ok();
        let member = |name: &str| peek.as_ref().and_then(|v| v.get(name));
        let method = member("method").and_then(Value::as_str);
        let kind = match (method, member("id"), member("result"), member("error")) {
            (Some(_), Some(_), _, _) => Some("request"),
            (Some(_), None, _, _) => Some("notification"),
            (None, _, Some(_), _) => Some("response"),
            (None, _, None, Some(_)) => Some("error"),
            _ => None,
        };
        (self.0)(&Traffic {
            direction,
            line,
            kind,
            method,
            error,
        });
    }
}

fn line(value: &impl serde::Serialize) -> String {
    mcp_typed_runtime::to_string(value).expect("messages encode")
}

/// Generates `decode` and `encode` for one side: `$in`/`$out` are the message type names.
macro_rules! side {
    ($side:ty, $in:ident, $out:ident) => {
        impl Codec<$side> {
            /// Reads one incoming line of the session's revision as its 2025-11-25 message.
            /// Members a newer revision dropped are kept (among unknown members); a method or
            /// shape 2025-11-25 gives another meaning is refused.
            pub fn decode(&mut self, text: &str) -> Result<app::$in, Refused> {
                self.decode_awaiting(text, &())
            }

            /// [`decode`](Self::decode), the results `awaits` gives a type for decoded in the
            /// same pass as their responses when the session's revision is 2025-11-25 (a
            /// result in another revision's types is kept as text).
            pub fn decode_awaiting(
                &mut self,
                text: &str,
                awaits: &dyn crate::runtime::Awaits<app::RequestId>,
            ) -> Result<app::$in, Refused> {
                let version = self.version;
                if version == ProtocolVersion::V2025_11_25 {
                    return app::$in::from_json_awaiting(text, awaits).map_err(|e| Refused {
                        message: e.to_string(),
                        reply: line(e.reply()),
                    });
                }
                on_wire!(version, wire => {
                    let message = wire::$in::from_json(text).map_err(|e| Refused {
                        message: e.to_string(),
                        reply: line(e.reply()),
                    })?;
                    // A request's id, to answer it (pre-2025-11-25 messages hold it apart).
                    let id = || {
                        let value = crate::runtime::json_value(&message).unwrap_or_default();
                        value
                            .get("method")
                            .and(value.get("id"))
                            .and_then(|id| crate::runtime::from_json_value(id).ok())
                    };
                    let upgraded = convert::upgrade::<app::$in>(&message).map_err(|e| {
                        let reply = wire::$out::error(id(), app::INVALID_REQUEST, format!(
                            "not a {version} message this program reads: {e}"
                        ));
                        Refused { message: e.to_string(), reply: line(&reply) }
                    })?;
                    // A method another revision defines and this one does not (2025-11-25's
                    // `tasks/get` in a 2025-06-18 session) is not that method here: answered
                    // `-32601`, never read as 2025-11-25's request. A method no revision
                    // defines stays a `Custom` request, for the program to answer.
                    if let app::$in::Request(request) = &upgraded {
                        let method = request.method();
                        if app::REQUEST_METHODS.contains(&method)
                            && !wire::REQUEST_METHODS.contains(&method)
                        {
                            let message = format!("`{method}` is not a method of {version}");
                            let reply = wire::$out::error(id(), app::METHOD_NOT_FOUND, message.clone());
                            return Err(Refused { message, reply: line(&reply) });
                        }
                    }
                    Ok(upgraded)
                }, else {
                    let message = unsupported(version);
                    let reply = app::$out::error(None, app::INTERNAL_ERROR, message.clone());
                    Err(Refused { message, reply: line(&reply) })
                })
            }

            /// Writes a 2025-11-25 message in the session's revision: bridged where the
            /// revision says the same thing differently, what it cannot carry dropped and
            /// listed; refused (naming the JSON path) where the message has no meaning there.
            pub fn encode(&mut self, message: &app::$out) -> Result<Encoded, ConversionError> {
                let version = self.version;
                if version == ProtocolVersion::V2025_11_25 {
                    return Ok(Encoded {
                        line: line(message),
                        dropped: Vec::new(),
                        bridged: Vec::new(),
                    });
                }
                // Only a form request or an error without id has a bridge (`bridge::down`):
                // every other message goes straight to the conversion, with no JSON tree built.
                let may_bridge = match message {
                    app::$out::Request(r) => r.method() == "elicitation/create",
                    app::$out::Error(e) => e.id.is_none(),
                    _ => false,
                };
                let mut bridged = Vec::new();
                let translated: app::$out;
                let message = if may_bridge {
                    let mut value = crate::runtime::json_value(message).map_err(|e| ConversionError {
                        pointer: String::new(),
                        message: e.to_string(),
                    })?;
                    bridged = bridge::down(&mut value, version);
                    translated = convert::decode(&value.to_string())?;
                    &translated
                } else {
                    message
                };
                on_wire!(version, wire => {
                    let down = convert::downgrade::<wire::$out>(message)?;
                    Ok(Encoded { line: line(&down.value), dropped: down.dropped, bridged })
                }, else Err(ConversionError { pointer: String::new(), message: unsupported(version) }))
            }
        }
    };
}

side!(Server, ClientMessage, ServerMessage);
side!(Client, ServerMessage, ClientMessage);

impl<S: Side> Codec<S> {
    /// A codec for a session of `version`.
    pub fn new(version: ProtocolVersion) -> Codec<S> {
        Codec {
            version,
            side: PhantomData,
        }
    }

    /// The session's revision.
    pub fn version(&self) -> ProtocolVersion {
        self.version
    }

    /// Sets the revision `initialize` negotiated.
    pub fn set_version(&mut self, version: ProtocolVersion) {
        self.version = version;
    }
}

/// `_meta["io.modelcontextprotocol/protocolVersion"]` of a request's params: a 2026-07-28
/// (stateless) request names its revision there.
pub fn requested_version(message: &Value) -> Option<&str> {
    message
        .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
        .and_then(Value::as_str)
}
