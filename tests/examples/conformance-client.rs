//! A 2025-11-25 MCP client over Streamable HTTP for the official conformance suite's client
//! scenario `elicitation-sep1034-client-defaults`: `conformance client --command
//! <this> --scenario elicitation-sep1034-client-defaults` starts a server and appends its URL.
//! The client initializes (declaring form elicitation), lists the tools, calls
//! `test_client_elicitation_defaults`, and accepts the form the server sends through the
//! received-form model (`mcp_typed::elicit::client`): every field the user left empty (here:
//! all of them) pre-filled with the default the form declares, the answer validated against
//! the form before it is sent.

use std::io::{BufRead, BufReader};

use mcp_typed::ProtocolVersion;
use mcp_typed::elicit::client::Form;
use mcp_typed::v2025_11_25::*;
use serde_json::{Map, Value};

/// The tool the scenario's server offers.
const TOOL: &str = "test_client_elicitation_defaults";

#[derive(Clone)]
struct Client {
    agent: ureq::Agent,
    url: String,
    session: Option<String>,
    version: String,
}

type Failure = String;

impl Client {
    /// POSTs one message; for a request, reads its SSE stream (or JSON body) up to its
    /// response, answering the server's requests on the way with `answer`.
    fn post(
        &mut self,
        message: &ClientMessage,
        answer: &mut dyn FnMut(&ServerRequest) -> Result<ClientResult, Failure>,
    ) -> Result<Option<Value>, Failure> {
        let body = serde_json::to_string(message).expect("messages encode");
        let mut request = self
            .agent
            .post(&self.url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", &self.version);
        if let Some(session) = &self.session {
            request = request.header("Mcp-Session-Id", session);
        }
        let response = request
            .send(&body)
            .map_err(|e| format!("POST {}: {e}", self.url))?;
        let status = response.status();
        if let Some(id) = response.headers().get("mcp-session-id") {
            self.session = Some(id.to_str().map_err(|e| e.to_string())?.to_owned());
        }
        let id = match message {
            ClientMessage::Request(request) => ClientMessage::request_id(request),
            _ => None,
        };
        let Some(id) = id else {
            return match status.as_u16() {
                200..=299 => Ok(None),
                code => Err(format!("HTTP {code} for {body}")),
            };
        };
        if !status.is_success() {
            let text = response.into_body().read_to_string().unwrap_or_default();
            return Err(format!("HTTP {status} for {body}: {text}"));
        }
        let id = serde_json::to_value(&id).expect("ids encode");
        let sse = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        let mut reader = BufReader::new(response.into_body().into_reader());
        if !sse {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut reader, &mut text).map_err(|e| e.to_string())?;
            return serde_json::from_str(&text)
                .map(Some)
                .map_err(|e| e.to_string());
        }
        let mut lines = reader.lines();
        while let Some(text) = next_event(&mut lines)? {
            let value: Value = serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))?;
            if value.get("method").is_none() && value.get("id") == Some(&id) {
                return Ok(Some(value));
            }
            self.handle(&text, answer)?;
        }
        Err(format!("the stream ended without the response to {body}"))
    }
}

impl Client {
    /// A message of the server's other than the awaited response: requests are answered.
    fn handle(
        &mut self,
        text: &str,
        answer: &mut dyn FnMut(&ServerRequest) -> Result<ClientResult, Failure>,
    ) -> Result<(), Failure> {
        match ServerMessage::from_json(text) {
            Ok(ServerMessage::Request(request)) => {
                let Some(id) = ServerMessage::request_id(&request) else {
                    return Ok(());
                };
                let reply = match answer(&request) {
                    Ok(result) => ClientMessage::response(id, result),
                    Err(e) => ClientMessage::error(Some(id), INVALID_PARAMS, e),
                };
                self.post(&reply, &mut |_| Err("unexpected".into()))?;
            }
            Ok(_) => {} // notifications
            Err(e) => eprintln!("conformance-client: undecodable message {text}: {e:?}"),
        }
        Ok(())
    }

    /// Opens the session's `GET` stream, where a server sends the requests it makes outside
    /// of any request of ours. Returns once the server has accepted it: a server drops such
    /// a request when no stream is open, so the stream must be up before we ask for anything
    /// that makes the server ask back.
    fn open_stream(&self) -> Result<impl std::io::Read + Send + 'static, Failure> {
        let mut request = self
            .agent
            .get(&self.url)
            .header("Accept", "text/event-stream")
            .header("MCP-Protocol-Version", &self.version);
        if let Some(session) = &self.session {
            request = request.header("Mcp-Session-Id", session);
        }
        let response = request
            .call()
            .map_err(|e| format!("GET {}: {e}", self.url))?;
        if !response.status().is_success() {
            return Err(format!("GET {}: HTTP {}", self.url, response.status()));
        }
        Ok(response.into_body().into_reader())
    }

    /// Answers the requests that come on the `GET` stream.
    fn listen(mut self, stream: impl std::io::Read) -> Result<(), Failure> {
        let mut lines = BufReader::new(stream).lines();
        while let Some(text) = next_event(&mut lines)? {
            self.handle(&text, &mut accept_with_defaults)?;
        }
        Ok(())
    }
}

/// The next server-sent event's data (`data:` lines up to a blank line); `None` at the end.
fn next_event(
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
) -> Result<Option<String>, Failure> {
    let mut data = String::new();
    for line in lines {
        let line = line.map_err(|e| format!("reading the stream: {e}"))?;
        if let Some(rest) = line.strip_prefix("data:") {
            data.push_str(rest.strip_prefix(' ').unwrap_or(rest));
        } else if line.is_empty() && !data.is_empty() {
            return Ok(Some(data));
        }
    }
    Ok(None)
}

/// Accepts a form with every field at the default the form declares: the received-form
/// model pre-fills them ([`Form::answer`]), and its validator checks the answer before it is
/// sent. A form the model cannot read is answered with the error it names.
fn accept_with_defaults(request: &ServerRequest) -> Result<ClientResult, Failure> {
    let ServerRequest::Elicit(elicit) = request else {
        return Err("this client answers elicitation/create only".into());
    };
    let form = Form::from_params(&elicit.params, ProtocolVersion::V2025_11_25)
        .map_err(|e| e.to_string())?;
    let reply = form.answer().accept().map_err(|e| e.to_string())?;
    let result: ElicitResult = reply.to_result().map_err(|e| e.to_string())?;
    Ok(result.into())
}

fn run(url: String) -> Result<(), Failure> {
    let config = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build();
    let version = std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION")
        .unwrap_or_else(|_| "2025-11-25".to_owned());
    let mut client = Client {
        agent: ureq::Agent::new_with_config(config),
        url,
        session: None,
        version: version.clone(),
    };
    let mut none = |_: &ServerRequest| Err::<ClientResult, _>("not now".to_owned());
    let elicitation = ClientCapabilitiesElicitation::new().with_form(Map::new());
    let capabilities = ClientCapabilities::new().with_elicitation(elicitation);
    let init = InitializeRequestParams::new(
        version,
        capabilities,
        Implementation::new("mcp-typed-conformance-client", "0.1.0"),
    );
    let init = ClientMessage::request(InitializeRequest::new(1, init));
    let reply = client
        .post(&init, &mut none)?
        .ok_or("no initialize response")?;
    if let Some(v) = reply
        .pointer("/result/protocolVersion")
        .and_then(Value::as_str)
    {
        client.version = v.to_owned();
    }
    let initialized = ClientMessage::notification(InitializedNotification::new());
    client.post(&initialized, &mut none)?;
    let listener = client.clone();
    let stream = client.open_stream()?;
    std::thread::spawn(move || {
        if let Err(e) = listener.listen(stream) {
            eprintln!("conformance-client: the GET stream: {e}");
        }
    });
    let list = ClientMessage::request(ListToolsRequest::new(2));
    let tools = client
        .post(&list, &mut none)?
        .ok_or("no tools/list response")?;
    let listed = tools.pointer("/result/tools").and_then(Value::as_array);
    if !listed.is_some_and(|t| t.iter().any(|t| t["name"] == TOOL)) {
        return Err(format!("the server does not offer {TOOL}: {tools}"));
    }
    let call = ClientMessage::request(CallToolRequest::new(3, CallToolRequestParams::new(TOOL)));
    let result = client
        .post(&call, &mut accept_with_defaults)?
        .ok_or("no tools/call response")?;
    eprintln!("conformance-client: {result}");
    Ok(())
}

fn main() {
    let Some(url) = std::env::args().nth(1) else {
        eprintln!("usage: conformance-client <server URL>");
        std::process::exit(2);
    };
    if let Err(e) = run(url) {
        eprintln!("conformance-client: {e}");
        std::process::exit(1);
    }
}
