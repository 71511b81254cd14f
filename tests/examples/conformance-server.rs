//! The server the official MCP conformance suite (`@modelcontextprotocol/conformance`) tests:
//! an MCP 2025-11-25 server over Streamable HTTP on loopback, serving the tools, resources and
//! prompts the suite's server scenarios call (those of its reference `everything-server.ts`).
//! At 2026-07-28 (stateless requests) it serves only the tool of the `input-required-result-*`
//! elicitation scenarios, asking through an `InputRequiredResult`.
//! Every elicitation form is a `#[derive(Elicit)]` struct, and the answers are read back
//! through it. Run: `cargo run -p mcp-tests --example conformance-server -- --http 127.0.0.1:3000`
//! (port 0 picks a free port; the URL is printed to stderr).

#[path = "support/streamable_http.rs"]
mod streamable_http;

use std::net::SocketAddr;

use mcp_typed::elicit::{ElicitOutcome, to_typed};
use mcp_typed::v2025_11_25::*;
use mcp_typed::{Elicit, ElicitEnum, JsonObject, Map, ProtocolVersion, ToolSchema};
use serde_json::{Value, json};

/// 1×1 red PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A minimal WAV file.
const WAV: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/// `test_elicitation`: the form the scenario `tools-call-elicitation` describes.
#[derive(Elicit)]
struct UserInfo {
    /// User's response
    username: String,
    /// User's email address
    email: String,
}

/// `test_elicitation_sep1034_defaults`: a default for every primitive kind (SEP-1034).
#[derive(Elicit)]
struct Defaults {
    /// User name
    #[elicit(default = "John Doe")]
    name: String,
    /// User age
    #[elicit(default = 30)]
    age: i64,
    /// User score
    #[elicit(default = 95.5)]
    score: f64,
    /// User status
    #[elicit(default = "active")]
    status: Status,
    /// Verification status
    #[elicit(default = true)]
    verified: bool,
}

#[derive(Elicit)]
#[elicit(rename_all = "lowercase")]
enum Status {
    Active,
    Inactive,
    Pending,
}

/// `test_elicitation_sep1330_enums`: the five kinds of enum (SEP-1330).
#[derive(Elicit)]
#[elicit(rename_all = "camelCase")]
struct Enums {
    /// Select one option
    untitled_single: Option<Untitled>,
    /// Select one option with titles
    titled_single: Option<TitledOption>,
    /// Select one option (legacy)
    #[elicit(legacy_enum_names)]
    legacy_enum: Option<Legacy>,
    /// Select multiple options
    #[elicit(min_items = 1, max_items = 3)]
    untitled_multi: Option<Vec<Untitled>>,
    /// Select multiple options with titles
    #[elicit(min_items = 1, max_items = 3)]
    titled_multi: Option<Vec<TitledChoice>>,
}

#[derive(Elicit)]
#[elicit(rename_all = "lowercase")]
enum Untitled {
    Option1,
    Option2,
    Option3,
}

#[derive(Elicit)]
#[elicit(rename_all = "lowercase")]
enum TitledOption {
    #[elicit(title = "First Option")]
    Value1,
    #[elicit(title = "Second Option")]
    Value2,
    #[elicit(title = "Third Option")]
    Value3,
}

#[derive(Elicit)]
#[elicit(rename_all = "lowercase")]
enum Legacy {
    #[elicit(title = "Option One")]
    Opt1,
    #[elicit(title = "Option Two")]
    Opt2,
    #[elicit(title = "Option Three")]
    Opt3,
}

#[derive(Elicit)]
#[elicit(rename_all = "lowercase")]
enum TitledChoice {
    #[elicit(title = "First Choice")]
    Value1,
    #[elicit(title = "Second Choice")]
    Value2,
    #[elicit(title = "Third Choice")]
    Value3,
}

/// The accepted content, as read through the form, shown in the tool's result.
trait Content {
    fn content(&self) -> Value;
}

impl Content for UserInfo {
    fn content(&self) -> Value {
        json!({"username": self.username, "email": self.email})
    }
}

impl Content for Defaults {
    fn content(&self) -> Value {
        json!({
            "name": self.name,
            "age": self.age,
            "score": self.score,
            "status": self.status.value(),
            "verified": self.verified,
        })
    }
}

impl Content for Enums {
    fn content(&self) -> Value {
        fn many<E: ElicitEnum>(values: &Option<Vec<E>>) -> Option<Vec<&'static str>> {
            values.as_ref().map(|v| v.iter().map(E::value).collect())
        }
        json!({
            "untitledSingle": self.untitled_single.as_ref().map(ElicitEnum::value),
            "titledSingle": self.titled_single.as_ref().map(ElicitEnum::value),
            "legacyEnum": self.legacy_enum.as_ref().map(ElicitEnum::value),
            "untitledMulti": many(&self.untitled_multi),
            "titledMulti": many(&self.titled_multi),
        })
    }
}

/// What a request of ours to the client is for: the `tools/call` it answers, and how to read
/// the answer.
struct Waiting {
    id: RequestId,
    call: RequestId,
    kind: Kind,
}

#[derive(Clone, Copy)]
enum Kind {
    UserInfo,
    Defaults,
    Enums,
    Sampling,
}

/// One client's session.
#[derive(Default)]
struct Conformance {
    client: ClientCapabilities,
    waiting: Vec<Waiting>,
    next_id: i64,
}

impl streamable_http::Session for Conformance {
    fn receive(&mut self, message: &str) -> Vec<String> {
        if stateless::is_2026_07_28(message) {
            return vec![stateless::handle(message)];
        }
        let out = match ClientMessage::from_json(message) {
            Ok(message) => self.handle(message),
            Err(e) => vec![e.into_reply()],
        };
        out.iter()
            .map(|m| serde_json::to_string(m).expect("messages encode"))
            .collect()
    }
}

impl Conformance {
    fn handle(&mut self, message: ClientMessage) -> Vec<ServerMessage> {
        match message {
            ClientMessage::Request(request) => match ClientMessage::request_id(&request) {
                Some(id) => self.request(id, request),
                None => Vec::new(),
            },
            ClientMessage::Response(answer) => self.answered(&answer.id, Ok(&answer)),
            ClientMessage::Error(error) => match error.id.clone() {
                Some(id) => self.answered(&id, Err(&error.error)),
                None => Vec::new(),
            },
            ClientMessage::Notification(_) => Vec::new(),
        }
    }

    fn request(&mut self, id: RequestId, request: ClientRequest) -> Vec<ServerMessage> {
        let result: ServerResult = match request {
            ClientRequest::Initialize(init) => {
                self.client = *init.params.capabilities;
                let version = ProtocolVersion::negotiate(
                    &init.params.protocol_version,
                    &[ProtocolVersion::V2025_11_25],
                )
                .expect("one revision supported");
                let capabilities = ServerCapabilities::new()
                    .with_tools(ServerCapabilitiesTools::new().with_list_changed(true))
                    .with_resources(
                        ServerCapabilitiesResources::new()
                            .with_subscribe(true)
                            .with_list_changed(true),
                    )
                    .with_prompts(ServerCapabilitiesPrompts::new().with_list_changed(true))
                    .with_logging(JsonObject::new())
                    .with_completions(JsonObject::new());
                let server = Implementation::new("mcp-typed-conformance-server", "0.1.0");
                InitializeResult::new(version.as_str(), capabilities, server).into()
            }
            ClientRequest::Ping(_) => McpResult::new().into(),
            ClientRequest::SetLevel(set) => {
                let level = serde_json::to_value(&set.params.level).expect("levels encode");
                let log = log(
                    LoggingLevel::Info,
                    json!(format!("Log level set to: {level}")),
                );
                return vec![log, ServerMessage::response(id, McpResult::new())];
            }
            ClientRequest::Complete(_) => CompleteResult::new(
                CompleteResultCompletion::new(Vec::new())
                    .with_total(0)
                    .with_has_more(false),
            )
            .into(),
            ClientRequest::ListTools(_) => ListToolsResult::new(tools()).into(),
            ClientRequest::CallTool(call) => return self.call(id, call.params),
            ClientRequest::ListResources(_) => ListResourcesResult::new(resources()).into(),
            ClientRequest::ListResourceTemplates(_) => {
                let template = ResourceTemplate::new("template", "test://template/{id}/data")
                    .with_title("Resource Template")
                    .with_description("A resource template with parameter substitution")
                    .with_mime_type("application/json");
                ListResourceTemplatesResult::new(vec![template]).into()
            }
            ClientRequest::ReadResource(read) => match read_resource(&read.params.uri) {
                Some(contents) => ReadResourceResult::new(contents).into(),
                None => {
                    let message = format!("Resource not found: {}", read.params.uri);
                    let error = ServerMessage::error(Some(id), RESOURCE_NOT_FOUND, message);
                    return vec![error];
                }
            },
            ClientRequest::Subscribe(_) | ClientRequest::Unsubscribe(_) => McpResult::new().into(),
            ClientRequest::ListPrompts(_) => ListPromptsResult::new(prompts()).into(),
            ClientRequest::GetPrompt(get) => {
                let args = get.params.arguments.unwrap_or_default();
                match prompt(&get.params.name, &args) {
                    Ok(messages) => GetPromptResult::new(messages).into(),
                    Err(e) => return vec![ServerMessage::error(Some(id), INVALID_PARAMS, e)],
                }
            }
            _ => {
                return vec![ServerMessage::error(
                    Some(id),
                    METHOD_NOT_FOUND,
                    "not supported",
                )];
            }
        };
        vec![ServerMessage::response(id, result)]
    }

    fn call(&mut self, id: RequestId, params: CallToolRequestParams) -> Vec<ServerMessage> {
        let args = params.arguments.map(Map::from).unwrap_or_default();
        let arg = |name: &str| {
            args.get(name)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        let result = match params.name.as_str() {
            "test_simple_text" => text("This is a simple text response for testing."),
            "test_image_content" => {
                CallToolResult::new(vec![ImageContent::new(PNG, "image/png").into()])
            }
            "test_audio_content" => {
                CallToolResult::new(vec![AudioContent::new(WAV, "audio/wav").into()])
            }
            "test_embedded_resource" => {
                let resource = TextResourceContents::new(
                    "test://embedded-resource",
                    "This is an embedded resource content.",
                )
                .with_mime_type("text/plain");
                CallToolResult::new(vec![EmbeddedResource::new(resource).into()])
            }
            "test_multiple_content_types" => {
                let resource = TextResourceContents::new(
                    "test://mixed-content-resource",
                    json!({"test": "data", "value": 123}).to_string(),
                )
                .with_mime_type("application/json");
                CallToolResult::new(vec![
                    TextContent::new("Multiple content types test:").into(),
                    ImageContent::new(PNG, "image/png").into(),
                    EmbeddedResource::new(resource).into(),
                ])
            }
            "test_tool_with_logging" => {
                let mut out: Vec<ServerMessage> = [
                    "Tool execution started",
                    "Tool processing data",
                    "Tool execution completed",
                ]
                .into_iter()
                .map(|m| log(LoggingLevel::Info, json!(m)))
                .collect();
                out.push(reply(id, text("Tool with logging executed successfully")));
                return out;
            }
            "test_tool_with_progress" => {
                let token = params.meta.and_then(|m| m.progress_token);
                let token = token.unwrap_or(ProgressToken::Integer(0));
                let mut out: Vec<ServerMessage> = [0, 50, 100]
                    .into_iter()
                    .map(|step| {
                        let params = ProgressNotificationParams::new(token.clone(), step)
                            .with_total(100)
                            .with_message(format!("Completed step {step} of 100"));
                        ServerMessage::notification(ProgressNotification::new(params))
                    })
                    .collect();
                let shown = match &token {
                    ProgressToken::String(s) => s.clone(),
                    ProgressToken::Integer(i) => i.to_string(),
                };
                out.push(reply(id, text(shown)));
                return out;
            }
            "test_error_handling" => {
                text("This tool intentionally returns an error for testing").with_is_error(true)
            }
            "test_sampling" => {
                if self.client.sampling.is_none() {
                    return vec![reply(id, refused("sampling"))];
                }
                let message = SamplingMessage::new(Role::User, TextContent::new(arg("prompt")));
                let params = CreateMessageRequestParams::new(vec![message], 100);
                let ask = self.ask(id, Kind::Sampling);
                return vec![ServerMessage::request(CreateMessageRequest::new(
                    ask, params,
                ))];
            }
            "test_elicitation" => {
                return self.elicit::<UserInfo>(id, &arg("message"), Kind::UserInfo);
            }
            "test_elicitation_sep1034_defaults" => {
                let message = "Please review and update the form fields with defaults";
                return self.elicit::<Defaults>(id, message, Kind::Defaults);
            }
            "test_elicitation_sep1330_enums" => {
                let message = "Please select options from the enum fields";
                return self.elicit::<Enums>(id, message, Kind::Enums);
            }
            "json_schema_2020_12_tool" => text(format!(
                "JSON Schema 2020-12 tool called with: {}",
                Value::Object(args.clone())
            )),
            name => {
                let message = format!("Unknown tool: {name}");
                return vec![ServerMessage::error(Some(id), INVALID_PARAMS, message)];
            }
        };
        vec![reply(id, result)]
    }

    /// A new id for a request of ours, remembered as answering `call`.
    fn ask(&mut self, call: RequestId, kind: Kind) -> RequestId {
        self.next_id += 1;
        let id = RequestId::from(format!("server-{}", self.next_id));
        self.waiting.push(Waiting {
            id: id.clone(),
            call,
            kind,
        });
        id
    }

    /// Asks the client to fill in form `T`; the `tools/call` is answered when it does.
    fn elicit<T: Elicit>(
        &mut self,
        call: RequestId,
        message: &str,
        kind: Kind,
    ) -> Vec<ServerMessage> {
        if self.client.elicitation.is_none() {
            return vec![reply(call, refused("elicitation"))];
        }
        let params = T::form_params(message, ProtocolVersion::V2025_11_25)
            .map_err(|e| e.to_string())
            .and_then(|p| to_typed::<ElicitRequestFormParams>(&p).map_err(|e| e.to_string()));
        let params = match params {
            Ok(params) => params,
            Err(e) => return vec![reply(call, text(e).with_is_error(true))],
        };
        let ask = self.ask(call, kind);
        vec![ServerMessage::request(ElicitRequest::new(ask, params))]
    }

    /// The client answered a request of ours: the `tools/call` it was for gets its result.
    fn answered(
        &mut self,
        id: &RequestId,
        answer: Result<&ResultResponse, &Error>,
    ) -> Vec<ServerMessage> {
        let Some(at) = self.waiting.iter().position(|w| w.id == *id) else {
            return Vec::new(); // not ours, or answered twice
        };
        let Waiting { call, kind, .. } = self.waiting.remove(at);
        let answer = match answer {
            Ok(answer) => answer,
            Err(error) => {
                let message = format!("The client refused: {} ({})", error.message, error.code);
                return vec![reply(call, text(message).with_is_error(true))];
            }
        };
        let result = match kind {
            Kind::Sampling => match answer.result_as::<CreateMessageRequest>() {
                Ok(r) => match r.content {
                    CreateMessageResultContent::Text(t) => {
                        text(format!("LLM response: {}", t.text))
                    }
                    _ => text("LLM response: (not text)"),
                },
                Err(e) => text(format!("Unreadable sampling result: {e}")).with_is_error(true),
            },
            Kind::UserInfo => form_reply::<UserInfo>(answer, "User response"),
            Kind::Defaults => form_reply::<Defaults>(answer, "Elicitation completed"),
            Kind::Enums => form_reply::<Enums>(answer, "Elicitation completed"),
        };
        vec![reply(call, result)]
    }
}

/// Reads an elicitation answer through its form and says what it was.
fn form_reply<T: Elicit + Content>(answer: &ResultResponse, lead: &str) -> CallToolResult {
    let outcome = answer
        .result_as::<ElicitRequest>()
        .map_err(|e| e.to_string())
        .and_then(|r| T::outcome(&r).map_err(|e| e.to_string()));
    match outcome {
        Ok(ElicitOutcome::Accepted(form)) => {
            text(format!("{lead}: action=accept, content={}", form.content()))
        }
        Ok(ElicitOutcome::Declined) => text(format!("{lead}: action=decline")),
        Ok(ElicitOutcome::Cancelled) => text(format!("{lead}: action=cancel")),
        Err(e) => text(format!("Invalid elicitation answer: {e}")).with_is_error(true),
    }
}

fn refused(what: &str) -> CallToolResult {
    text(format!(
        "The client does not support {what} (no `{what}` capability)"
    ))
    .with_is_error(true)
}

fn text(s: impl Into<String>) -> CallToolResult {
    CallToolResult::new(vec![TextContent::new(s).into()])
}

fn reply(id: RequestId, result: CallToolResult) -> ServerMessage {
    ServerMessage::response(id, result)
}

fn log(level: LoggingLevel, data: Value) -> ServerMessage {
    let params =
        LoggingMessageNotificationParams::new(level, data).with_logger("conformance-server");
    ServerMessage::notification(LoggingMessageNotification::new(params))
}

fn tools() -> Vec<Tool> {
    let no_args = ToolInputSchema::new;
    let string_arg = |name: &str, description: &str| {
        let schema = json!({
            "type": "object",
            "properties": {name: {"type": "string", "description": description}},
            "required": [name],
        });
        ToolInputSchema::from_json(schema).expect("an object schema")
    };
    let json_schema_2020_12 = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "$anchor": "addressDef",
                "type": "object",
                "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
            },
        },
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"},
            "email": {"type": "string"},
        },
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false,
    });
    let json_schema_2020_12 =
        ToolInputSchema::from_json(json_schema_2020_12).expect("an object schema");
    [
        (
            "test_simple_text",
            no_args(),
            "Tests simple text content response",
        ),
        (
            "test_image_content",
            no_args(),
            "Tests image content response",
        ),
        (
            "test_audio_content",
            no_args(),
            "Tests audio content response",
        ),
        (
            "test_embedded_resource",
            no_args(),
            "Tests embedded resource content response",
        ),
        (
            "test_multiple_content_types",
            no_args(),
            "Tests response with multiple content types (text, image, resource)",
        ),
        (
            "test_tool_with_logging",
            no_args(),
            "Tests tool that emits log messages during execution",
        ),
        (
            "test_tool_with_progress",
            no_args(),
            "Tests tool that reports progress notifications",
        ),
        (
            "test_error_handling",
            no_args(),
            "Tests error response handling",
        ),
        (
            "test_sampling",
            string_arg("prompt", "The prompt to send to the LLM"),
            "Tests server-initiated sampling (LLM completion request)",
        ),
        (
            "test_elicitation",
            string_arg("message", "The message to show the user"),
            "Tests server-initiated elicitation (user input request)",
        ),
        (
            "test_elicitation_sep1034_defaults",
            no_args(),
            "Tests elicitation with default values per SEP-1034",
        ),
        (
            "test_elicitation_sep1330_enums",
            no_args(),
            "Tests elicitation with enum schema improvements per SEP-1330",
        ),
        (
            "json_schema_2020_12_tool",
            json_schema_2020_12,
            "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)",
        ),
    ]
    .into_iter()
    .map(|(name, schema, description)| Tool::new(name, schema).with_description(description))
    .collect()
}

fn resources() -> Vec<Resource> {
    [
        (
            "static-text",
            "test://static-text",
            "Static Text Resource",
            "A static text resource for testing",
            "text/plain",
        ),
        (
            "static-binary",
            "test://static-binary",
            "Static Binary Resource",
            "A static binary resource (image) for testing",
            "image/png",
        ),
        (
            "watched-resource",
            "test://watched-resource",
            "Watched Resource",
            "A resource clients may subscribe to",
            "text/plain",
        ),
    ]
    .into_iter()
    .map(|(name, uri, title, description, mime)| {
        Resource::new(name, uri)
            .with_title(title)
            .with_description(description)
            .with_mime_type(mime)
    })
    .collect()
}

fn read_resource(uri: &str) -> Option<Vec<ReadResourceResultContentsItem>> {
    let text = |text: String, mime: &str| {
        TextResourceContents::new(uri, text)
            .with_mime_type(mime)
            .into()
    };
    let item = match uri {
        "test://static-text" => text(
            "This is the content of the static text resource.".into(),
            "text/plain",
        ),
        "test://static-binary" => BlobResourceContents::new(uri, PNG)
            .with_mime_type("image/png")
            .into(),
        "test://watched-resource" => text("Watched resource content".into(), "text/plain"),
        _ => {
            let id = uri
                .strip_prefix("test://template/")?
                .strip_suffix("/data")?;
            if id.is_empty() || id.contains('/') {
                return None;
            }
            let data =
                json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")});
            text(data.to_string(), "application/json")
        }
    };
    Some(vec![item])
}

fn prompts() -> Vec<Prompt> {
    let arg = |name: &str, description: &str| {
        PromptArgument::new(name)
            .with_description(description)
            .with_required(true)
    };
    vec![
        Prompt::new("test_simple_prompt")
            .with_title("Simple Test Prompt")
            .with_description("A simple prompt without arguments"),
        Prompt::new("test_prompt_with_arguments")
            .with_title("Prompt With Arguments")
            .with_description("A prompt with required arguments")
            .with_arguments(vec![
                arg("arg1", "First test argument"),
                arg("arg2", "Second test argument"),
            ]),
        Prompt::new("test_prompt_with_embedded_resource")
            .with_title("Prompt With Embedded Resource")
            .with_description("A prompt that includes an embedded resource")
            .with_arguments(vec![arg("resourceUri", "URI of the resource to embed")]),
        Prompt::new("test_prompt_with_image")
            .with_title("Prompt With Image")
            .with_description("A prompt that includes image content"),
    ]
}

fn prompt(
    name: &str,
    args: &mcp_typed::IndexMap<String, String>,
) -> Result<Vec<PromptMessage>, String> {
    let arg = |name: &str| {
        args.get(name)
            .cloned()
            .ok_or_else(|| format!("missing required argument `{name}`"))
    };
    let user = |content: ContentBlock| PromptMessage::new(Role::User, content);
    Ok(match name {
        "test_simple_prompt" => {
            vec![user(
                TextContent::new("This is a simple prompt for testing.").into(),
            )]
        }
        "test_prompt_with_arguments" => {
            let (arg1, arg2) = (arg("arg1")?, arg("arg2")?);
            let text = format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'");
            vec![user(TextContent::new(text).into())]
        }
        "test_prompt_with_embedded_resource" => {
            let resource = TextResourceContents::new(
                arg("resourceUri")?,
                "Embedded resource content for testing.",
            )
            .with_mime_type("text/plain");
            vec![
                user(EmbeddedResource::new(resource).into()),
                user(TextContent::new("Please process the embedded resource above.").into()),
            ]
        }
        "test_prompt_with_image" => vec![
            user(ImageContent::new(PNG, "image/png").into()),
            user(TextContent::new("Please analyze the image above.").into()),
        ],
        _ => return Err(format!("Unknown prompt: {name}")),
    })
}

/// 2026-07-28 requests: stateless, each carrying its revision in `_meta`; a server asks for
/// input by returning an `InputRequiredResult` and the client calls again with the answers.
mod stateless {
    use mcp_typed::elicit::revision::V2026_07_28;
    use mcp_typed::elicit::{ElicitOutcome, ElicitTyped};
    use mcp_typed::v2026_07_28::*;
    use mcp_typed::{Elicit, IndexMap};

    /// `test_input_required_result_elicitation`'s form.
    #[derive(Elicit)]
    struct Name {
        name: String,
    }

    /// Whether a message is a 2026-07-28 request (its `_meta` names the revision).
    pub fn is_2026_07_28(message: &str) -> bool {
        let message: serde_json::Value = serde_json::from_str(message).unwrap_or_default();
        let version = message.pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion");
        version.and_then(serde_json::Value::as_str) == Some("2026-07-28")
    }

    pub fn handle(message: &str) -> String {
        let reply = match ClientMessage::from_json(message) {
            Ok(ClientMessage::Request(request)) => match ClientMessage::request_id(&request) {
                Some(id) => request_reply(id, request),
                None => ServerMessage::error(None, INVALID_REQUEST, "a request without an id"),
            },
            Ok(_) => ServerMessage::error(
                None,
                INVALID_REQUEST,
                "2026-07-28 messages here are requests",
            ),
            Err(e) => e.into_reply(),
        };
        serde_json::to_string(&reply).expect("messages encode")
    }

    fn request_reply(id: RequestId, request: ClientRequest) -> ServerMessage {
        let ClientRequest::CallTool(call) = request else {
            let message = "this server serves 2026-07-28 for `tools/call` of \
                           `test_input_required_result_elicitation` only";
            return ServerMessage::error(Some(id), METHOD_NOT_FOUND, message);
        };
        if call.params.name != "test_input_required_result_elicitation" {
            let message = format!("Unknown tool at 2026-07-28: {}", call.params.name);
            return ServerMessage::error(Some(id), INVALID_PARAMS, message);
        }
        let answer = call
            .params
            .input_responses
            .as_ref()
            .and_then(|r| r.get("user_name"));
        let Some(answer) = answer else {
            // Round 1: ask.
            let ask = match Name::typed_input_request::<V2026_07_28>("What is your name?") {
                Ok(ask) => ask,
                Err(e) => return ServerMessage::error(Some(id), INTERNAL_ERROR, e.to_string()),
            };
            let asks = IndexMap::from([("user_name".to_owned(), ask)]);
            return ServerMessage::response(
                id,
                InputRequiredResult::new().with_input_requests(asks),
            );
        };
        // Round 2: the answer, read through the form.
        let result = match Name::outcome(answer) {
            Ok(ElicitOutcome::Accepted(Name { name })) => text(format!("Hello, {name}!")),
            Ok(ElicitOutcome::Declined) => text("You declined to give your name."),
            Ok(ElicitOutcome::Cancelled) => text("You cancelled."),
            Err(e) => text(format!("Invalid answer for user_name: {e}")).with_is_error(true),
        };
        ServerMessage::response(id, result)
    }

    fn text(s: impl Into<String>) -> CallToolResult {
        CallToolResult::new("complete", vec![TextContent::new(s).into()])
    }
}

/// MCP's "resource not found" error code.
const RESOURCE_NOT_FOUND: i64 = -32002;

fn main() {
    let mut args = std::env::args().skip(1);
    let addr = match (args.next().as_deref(), args.next(), args.next()) {
        (Some("--http"), Some(addr), None) => addr.parse::<SocketAddr>().unwrap_or_else(|e| {
            eprintln!("conformance-server: --http {addr:?}: {e} (expected e.g. 127.0.0.1:3000)");
            std::process::exit(2)
        }),
        _ => {
            eprintln!("usage: conformance-server --http 127.0.0.1:PORT (port 0: any free port)");
            std::process::exit(2)
        }
    };
    if let Err(e) = streamable_http::serve(addr, Conformance::default) {
        eprintln!("conformance-server: {e}");
        std::process::exit(1);
    }
}
