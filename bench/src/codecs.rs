//! One [`Codec`] per library measured: how it decodes a message off the wire and encodes it
//! back, the way a user of that library would.

use serde::Serialize;
use serde::ser::SerializeMap as _;
use serde_json::Value;

use crate::corpus::{Answers, Dir, Message};

/// A library's way of decoding and encoding MCP messages.
pub trait Codec {
    /// The name used in tables and on the command line.
    const NAME: &'static str;
    /// What a decoded message is.
    type Decoded;
    /// Decodes one message.
    fn decode(message: &Message) -> Result<Self::Decoded, String>;
    /// Encodes a decoded message, appending to `out`.
    fn encode(decoded: &Self::Decoded, out: &mut Vec<u8>) -> Result<(), String>;
}

fn text_err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

fn write_json(value: &impl Serialize, out: &mut Vec<u8>) -> Result<(), String> {
    serde_json::to_writer(out, value).map_err(text_err)
}

/// mcp-typed's writer (`mcp_typed::to_writer`: serde_json's text, strings scanned sixteen
/// bytes at a time), the encoding of every `mcp-typed` codec.
fn write_typed(value: &impl Serialize, out: &mut Vec<u8>) -> Result<(), String> {
    mcp_typed::to_writer(out, value).map_err(text_err)
}

// ---------------------------------------------------------------------------------------------
// mcp-typed, typed: ClientMessage / ServerMessage, results typed by the request they answer

mod typed {
    use mcp_typed::runtime::{Awaits, RawJson, ResultType};
    use mcp_typed::v2025_11_25 as t;

    /// A result typed as the answered request's `RequestMethod::Result`.
    #[derive(Debug, Clone, serde::Serialize)]
    #[serde(untagged)]
    pub enum TypedResult {
        /// Answers a client request.
        Server(t::ServerResult),
        /// Answers a server request.
        Client(t::ClientResult),
        /// Answers a task-augmented request.
        CreateTask(t::CreateTaskResult),
        /// Answers a request the revision does not define (or one not in the corpus).
        Raw(RawJson),
    }

    /// How the result of one request is typed: the type its response's decoder is told to
    /// await, and how the value is taken from the response (decoded already when it was
    /// awaited, else from its text, as `ResultResponse::into_result_as` does).
    #[derive(Clone, Copy)]
    pub struct Typer {
        pub awaited: ResultType,
        pub take: fn(RawJson) -> Result<TypedResult, String>,
    }

    /// The answer awaited, for a response decoded by `from_json_awaiting`: as a session with
    /// this one request in flight would say (its type, whatever the id, and before the id).
    pub struct OnePending(pub Option<ResultType>);

    impl Awaits<t::RequestId> for OnePending {
        fn result_type(&self, _: &t::RequestId) -> Option<ResultType> {
            self.0
        }
        fn guess(&self) -> Option<ResultType> {
            self.0
        }
    }

    /// `R`'s result: decoded already when it was awaited, else from its text (what
    /// `ResultResponse::into_result_as` and `ClientSession::take` call).
    fn take<R: mcp_typed::RequestMethod>(raw: RawJson) -> Result<R::Result, String>
    where
        R::Result: serde::de::DeserializeOwned,
    {
        R::result_from_raw(raw).map_err(super::text_err)
    }

    fn server<R>() -> Option<Typer>
    where
        R: mcp_typed::RequestMethod,
        R::Result: mcp_typed::runtime::Decode
            + serde::de::DeserializeOwned
            + Clone
            + Send
            + Sync
            + 'static
            + Into<t::ServerResult>,
    {
        Some(Typer {
            awaited: ResultType::of::<R>(),
            take: |raw| take::<R>(raw).map(|v| TypedResult::Server(v.into())),
        })
    }

    fn client<R>() -> Option<Typer>
    where
        R: mcp_typed::RequestMethod,
        R::Result: mcp_typed::runtime::Decode
            + serde::de::DeserializeOwned
            + Clone
            + Send
            + Sync
            + 'static
            + Into<t::ClientResult>,
    {
        Some(Typer {
            awaited: ResultType::of::<R>(),
            take: |raw| take::<R>(raw).map(|v| TypedResult::Client(v.into())),
        })
    }

    /// How to type the result of a request `answers` (sent by the other side); `None` for a
    /// method the revision does not define (the result stays raw).
    pub fn typer(answers: &super::Answers, from_server: bool) -> Option<Typer> {
        if answers.task {
            return Some(Typer {
                awaited: ResultType::decoding::<t::CreateTaskResult>(),
                take: |raw| {
                    raw.into_typed()
                        .map(TypedResult::CreateTask)
                        .map_err(super::text_err)
                },
            });
        }
        if from_server {
            match answers.method.as_str() {
                "initialize" => server::<t::InitializeRequest>(),
                "ping" => server::<t::PingRequest>(),
                "resources/list" => server::<t::ListResourcesRequest>(),
                "resources/templates/list" => server::<t::ListResourceTemplatesRequest>(),
                "resources/read" => server::<t::ReadResourceRequest>(),
                "resources/subscribe" => server::<t::SubscribeRequest>(),
                "resources/unsubscribe" => server::<t::UnsubscribeRequest>(),
                "prompts/list" => server::<t::ListPromptsRequest>(),
                "prompts/get" => server::<t::GetPromptRequest>(),
                "tools/list" => server::<t::ListToolsRequest>(),
                "tools/call" => server::<t::CallToolRequest>(),
                "tasks/get" => server::<t::GetTaskRequest>(),
                "tasks/result" => server::<t::GetTaskPayloadRequest>(),
                "tasks/cancel" => server::<t::CancelTaskRequest>(),
                "tasks/list" => server::<t::ListTasksRequest>(),
                "logging/setLevel" => server::<t::SetLevelRequest>(),
                "completion/complete" => server::<t::CompleteRequest>(),
                _ => None,
            }
        } else {
            match answers.method.as_str() {
                "ping" => client::<t::PingRequest>(),
                "tasks/get" => client::<t::GetTaskRequest>(),
                "tasks/result" => client::<t::GetTaskPayloadRequest>(),
                "tasks/cancel" => client::<t::CancelTaskRequest>(),
                "tasks/list" => client::<t::ListTasksRequest>(),
                "sampling/createMessage" => client::<t::CreateMessageRequest>(),
                "roots/list" => client::<t::ListRootsRequest>(),
                "elicitation/create" => client::<t::ElicitRequest>(),
                _ => None,
            }
        }
    }
}

pub use typed::TypedResult;

/// A message decoded by [`McpTypes`].
#[derive(Debug, Clone)]
pub enum TypedMessage {
    /// A client's request, notification or error (responses are [`Self::Response`]).
    Client(mcp_typed::v2025_11_25::ClientMessage),
    /// A server's request, notification or error.
    Server(mcp_typed::v2025_11_25::ServerMessage),
    /// A successful response with its result typed.
    Response {
        /// The id of the request answered.
        id: mcp_typed::v2025_11_25::RequestId,
        /// The typed result.
        result: TypedResult,
        /// Other members, kept.
        extra: mcp_typed::Extra,
    },
}

impl Serialize for TypedMessage {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            TypedMessage::Client(m) => m.serialize(s),
            TypedMessage::Server(m) => m.serialize(s),
            TypedMessage::Response { id, result, extra } => {
                let mut m = s.serialize_map(None)?;
                m.serialize_entry("jsonrpc", "2.0")?;
                m.serialize_entry("id", id)?;
                m.serialize_entry("result", result)?;
                for (k, v) in extra {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
        }
    }
}

/// `mcp-typed` 2025-11-25: `ClientMessage` / `ServerMessage` by direction, each response's
/// result typed as the answered request's `RequestMethod::Result` in the same pass
/// (`from_json_awaiting`, told the type as a session with the request in flight would be,
/// then `into_result_as`'s taking of the value). The intended path.
pub struct McpTypes;

impl Codec for McpTypes {
    const NAME: &'static str = "mcp-typed";
    type Decoded = TypedMessage;

    fn decode(message: &Message) -> Result<TypedMessage, String> {
        decode_typed(message, true)
    }

    fn encode(decoded: &TypedMessage, out: &mut Vec<u8>) -> Result<(), String> {
        write_typed(decoded, out)
    }
}

/// [`McpTypes`] with each result kept as text by `from_json` and typed afterwards from it
/// (`result_as`): a program that does not say which results it awaits.
pub struct McpTypesLater;

impl Codec for McpTypesLater {
    const NAME: &'static str = "mcp-typed-later";
    type Decoded = TypedMessage;

    fn decode(message: &Message) -> Result<TypedMessage, String> {
        decode_typed(message, false)
    }

    fn encode(decoded: &TypedMessage, out: &mut Vec<u8>) -> Result<(), String> {
        write_typed(decoded, out)
    }
}

fn decode_typed(message: &Message, awaiting: bool) -> Result<TypedMessage, String> {
    use mcp_typed::v2025_11_25::{ClientMessage, ServerMessage};
    let typer = (message.answers.as_ref()).and_then(|a| typed::typer(a, message.dir == Dir::S2c));
    let awaits = typed::OnePending(typer.filter(|_| awaiting).map(|t| t.awaited));
    let response = match message.dir {
        Dir::C2s => match ClientMessage::from_json_awaiting(&message.text, &awaits) {
            Ok(ClientMessage::Response(r)) => r,
            Ok(m) => return Ok(TypedMessage::Client(m)),
            Err(e) => return Err(error_text(e.reply())),
        },
        Dir::S2c => match ServerMessage::from_json_awaiting(&message.text, &awaits) {
            Ok(ServerMessage::Response(r)) => r,
            Ok(m) => return Ok(TypedMessage::Server(m)),
            Err(e) => return Err(error_text(e.reply())),
        },
    };
    let mcp_typed::runtime::ResultResponse { id, result, extra } = response;
    let result = match typer {
        Some(typer) => (typer.take)(result)?,
        None => TypedResult::Raw(result),
    };
    Ok(TypedMessage::Response { id, result, extra })
}

fn error_text(reply: &impl Serialize) -> String {
    serde_json::to_string(reply).unwrap_or_else(|e| e.to_string())
}

/// `mcp-typed` 2025-11-25 `JsonRpcMessage`: the schema's own envelope (params and results as
/// maps).
pub struct McpTypesEnvelope;

impl Codec for McpTypesEnvelope {
    const NAME: &'static str = "mcp-typed-envelope";
    type Decoded = mcp_typed::v2025_11_25::JsonRpcMessage;

    fn decode(message: &Message) -> Result<Self::Decoded, String> {
        serde_json::from_str(&message.text).map_err(text_err)
    }

    fn encode(decoded: &Self::Decoded, out: &mut Vec<u8>) -> Result<(), String> {
        write_typed(decoded, out)
    }
}

/// rmcp (the official SDK's model, no default features): `ClientJsonRpcMessage` /
/// `ServerJsonRpcMessage` by direction.
pub struct Rmcp;

/// A message decoded by [`Rmcp`].
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum RmcpMessage {
    /// Sent by a client.
    Client(rmcp::model::ClientJsonRpcMessage),
    /// Sent by a server.
    Server(rmcp::model::ServerJsonRpcMessage),
}

impl Codec for Rmcp {
    const NAME: &'static str = "rmcp";
    type Decoded = RmcpMessage;

    fn decode(message: &Message) -> Result<RmcpMessage, String> {
        match message.dir {
            Dir::C2s => serde_json::from_str(&message.text).map(RmcpMessage::Client),
            Dir::S2c => serde_json::from_str(&message.text).map(RmcpMessage::Server),
        }
        .map_err(text_err)
    }

    fn encode(decoded: &RmcpMessage, out: &mut Vec<u8>) -> Result<(), String> {
        write_json(decoded, out)
    }
}

/// rust-mcp-schema 2.x, 2025-11-25 (`schema_utils`): `ClientMessage` / `ServerMessage` by
/// direction.
pub struct RustMcpSchema;

/// A message decoded by [`RustMcpSchema`].
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum RustMcpSchemaMessage {
    /// Sent by a client.
    Client(rust_mcp_schema::schema_utils::ClientMessage),
    /// Sent by a server.
    Server(rust_mcp_schema::schema_utils::ServerMessage),
}

impl Codec for RustMcpSchema {
    const NAME: &'static str = "rust-mcp-schema";
    type Decoded = RustMcpSchemaMessage;

    fn decode(message: &Message) -> Result<RustMcpSchemaMessage, String> {
        match message.dir {
            Dir::C2s => serde_json::from_str(&message.text).map(RustMcpSchemaMessage::Client),
            Dir::S2c => serde_json::from_str(&message.text).map(RustMcpSchemaMessage::Server),
        }
        .map_err(text_err)
    }

    fn encode(decoded: &RustMcpSchemaMessage, out: &mut Vec<u8>) -> Result<(), String> {
        write_json(decoded, out)
    }
}

/// typify 0.8's output for the 2025-06-18 schema (the newest it can take): `JsonrpcMessage`.
pub struct Typify;

impl Codec for Typify {
    const NAME: &'static str = "typify";
    type Decoded = crate::typify_2025_06_18::JsonrpcMessage;

    fn decode(message: &Message) -> Result<Self::Decoded, String> {
        serde_json::from_str(&message.text).map_err(text_err)
    }

    fn encode(decoded: &Self::Decoded, out: &mut Vec<u8>) -> Result<(), String> {
        write_json(decoded, out)
    }
}

/// `serde_json::Value` (untyped; with `preserve_order`, as the workspace builds it).
pub struct JsonValue;

impl Codec for JsonValue {
    const NAME: &'static str = "serde_json::Value";
    type Decoded = Value;

    fn decode(message: &Message) -> Result<Value, String> {
        serde_json::from_str(&message.text).map_err(text_err)
    }

    fn encode(decoded: &Value, out: &mut Vec<u8>) -> Result<(), String> {
        write_json(decoded, out)
    }
}

/// `serde::de::IgnoredAny`: parses and checks the JSON, builds nothing (the parse floor; it
/// cannot encode).
pub struct Floor;

impl Codec for Floor {
    const NAME: &'static str = "IgnoredAny";
    type Decoded = serde::de::IgnoredAny;

    fn decode(message: &Message) -> Result<Self::Decoded, String> {
        serde_json::from_str(&message.text).map_err(text_err)
    }

    fn encode(_: &Self::Decoded, _: &mut Vec<u8>) -> Result<(), String> {
        Err("IgnoredAny keeps nothing to encode".to_owned())
    }
}

/// What decoding and re-encoding a corpus with one codec did to it.
#[derive(Debug, Clone, Default)]
pub struct RoundTrip {
    /// Messages in the corpus.
    pub messages: usize,
    /// Messages the codec refused, with the first error.
    pub failed: Vec<(usize, String)>,
    /// Messages that decoded but came back different (as JSON values: member order is not
    /// compared, number types are: `50` is not `50.0`).
    pub changed: Vec<usize>,
}

/// Decodes and re-encodes every message, comparing the result with the original.
pub fn round_trip<C: Codec>(messages: &[Message]) -> RoundTrip {
    let mut report = RoundTrip {
        messages: messages.len(),
        ..RoundTrip::default()
    };
    let mut out = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        let decoded = match C::decode(m) {
            Ok(d) => d,
            Err(e) => {
                report.failed.push((i, e));
                continue;
            }
        };
        out.clear();
        if let Err(e) = C::encode(&decoded, &mut out) {
            report.failed.push((i, e));
            continue;
        }
        let before: Value = serde_json::from_str(&m.text).expect("the corpus is JSON");
        let after: Result<Value, _> = serde_json::from_slice(&out);
        if after.ok().as_ref() != Some(&before) {
            report.changed.push(i);
        }
    }
    report
}

/// Decodes every message (failures count as work done), returning how many decoded.
pub fn decode_all<C: Codec>(messages: &[Message]) -> usize {
    messages
        .iter()
        .filter(|m| std::hint::black_box(C::decode(m)).is_ok())
        .count()
}

/// The messages `C` decodes, decoded (the input of the encode benchmark).
pub fn decoded<C: Codec>(messages: &[Message]) -> Vec<C::Decoded> {
    messages.iter().filter_map(|m| C::decode(m).ok()).collect()
}

/// Encodes every decoded message into `out` (cleared first), returning the bytes written.
pub fn encode_all<C: Codec>(decoded: &[C::Decoded], out: &mut Vec<u8>) -> usize {
    out.clear();
    for d in decoded {
        // Encoding a value a codec itself decoded cannot fail for any codec measured here.
        let _ = C::encode(d, out);
        out.push(b'\n');
    }
    out.len()
}

/// Decodes and re-encodes every message into `out` (cleared first), returning the bytes
/// written.
pub fn round_trip_all<C: Codec>(messages: &[Message], out: &mut Vec<u8>) -> usize {
    out.clear();
    for m in messages {
        if let Ok(d) = C::decode(m) {
            let _ = C::encode(&d, out);
            out.push(b'\n');
        }
    }
    out.len()
}
