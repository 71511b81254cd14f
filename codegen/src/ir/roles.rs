//! What each type is for in the protocol, read off the schema's structure: requests (their
//! method, params, result and direction), notifications, results, the messages each side
//! sends, and the tool call the shorthands are for.
//!
//! The schema says it with its unions: `ClientRequest` lists what a client asks,
//! `ServerResult` what a server answers, and so on; a request or a notification is a member
//! with a fixed `method`. Those unions are the protocol's entry points, named here
//! (`ENTRY_POINTS`, `ENVELOPE`) and nowhere else: no type is classified by its name. The
//! one thing the schema does not link is a request and its result. They are paired by their
//! names' stem ([`naming::stem`]: `CallToolRequest` and `CallToolResult` are both
//! `CallTool…`) among the results of the answering side only, and the answer is what the
//! request's response holds (`CallToolResultResponse.result` from 2026-07-28 on: the result,
//! or the input the server still needs).

use super::{ConstValue, Module, Struct, TypeId, TypeKind, TypeRef, naming};

/// Who sends a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// The client sends it (`ClientRequest`, `ClientNotification`, `ClientResult`).
    ClientToServer,
    /// The server sends it (`ServerRequest`, `ServerNotification`, `ServerResult`, and from
    /// 2026-07-28 the `InputRequest`s of a result).
    ServerToClient,
    /// Both do (`ping`, `notifications/cancelled`).
    Both,
}

impl Direction {
    fn join(self, other: Direction) -> Direction {
        if self == other { self } else { Direction::Both }
    }
}

/// What a type is for in the protocol.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Role {
    /// Nothing the protocol names.
    #[default]
    None,
    /// A request: a member of a request union with a fixed `method`.
    Request(Request),
    /// A notification: a member of a notification union with a fixed `method`.
    Notification(Notification),
    /// A result: a member of a result union, sent the way it says.
    Result(Direction),
    /// An error object with a fixed `code` ([`codes`](super::codes)).
    ErrorCode {
        /// The code.
        code: i64,
        /// The module constant that holds it (`URL_ELICITATION_REQUIRED`, or JSON-RPC's
        /// `PARSE_ERROR` for the code it already names).
        constant: String,
    },
}

/// A request type.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// Its fixed `method` (`"tools/call"`).
    pub method: String,
    /// Its `params` member.
    pub params: Option<Params>,
    /// Who sends it.
    pub direction: Direction,
    /// The result definition it is paired with (`CallToolResult`), if any.
    pub answer: Option<TypeId>,
    /// What a successful response holds: the `result` of the request's own response type
    /// where the schema declares one, else the answer, else the empty result; `None` in a
    /// schema without results.
    pub result: Option<TypeRef>,
}

/// A notification type.
#[derive(Debug, Clone, PartialEq)]
pub struct Notification {
    /// Its fixed `method` (`"notifications/cancelled"`).
    pub method: String,
    /// Its `params` member.
    pub params: Option<Params>,
    /// Who sends it.
    pub direction: Direction,
}

/// The `params` member of a request or notification.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// The field's Rust name.
    pub field: String,
    /// Its type.
    pub ty: TypeRef,
    /// The field is an `Option` of the type.
    pub optional: bool,
}

/// What the protocol's structure gives the emitter beyond each type's [`Role`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Protocol {
    /// The JSON-RPC messages of each side; `None` for a schema without the JSON-RPC
    /// definitions (one that is not MCP's).
    pub messages: Option<Messages>,
    /// The `tools/call` request's params and result, where they have the usual shape.
    pub tool_call: ToolCall,
    /// The types of a tool's `inputSchema` and `outputSchema` (the items of the `tools/list`
    /// result's `tools`).
    pub tool_schemas: Vec<TypeId>,
}

/// The message types the generator adds beside the schema's.
#[derive(Debug, Clone, PartialEq)]
pub struct Messages {
    /// `RequestId`.
    pub request_id: TypeId,
    /// The error response (`JSONRPCError`, `JSONRPCErrorResponse`).
    pub error_response: TypeId,
    /// The name of the successful-response type the generator adds.
    pub result_response: String,
    /// The generic result every response envelope holds (`Result`), if it is a struct.
    pub generic_result: Option<TypeId>,
    /// The typed results that convert into the generic one: the struct members of
    /// `ServerResult`, then `ClientResult`, each once.
    pub typed_results: Vec<TypeId>,
    /// The messages of each side that has notifications: the client's, then the server's.
    pub sides: Vec<Side>,
}

/// One side's messages: `ClientMessage` or `ServerMessage`.
#[derive(Debug, Clone, PartialEq)]
pub struct Side {
    /// Who sends them.
    pub sender: Party,
    /// The name of the message type the generator adds for it.
    pub message: String,
    /// The name of the other side's message type: what an error reply to it is.
    pub reply: String,
    /// The requests it sends (none for a server from 2026-07-28 on).
    pub requests: Option<MessageSet>,
    /// The notifications it sends.
    pub notifications: MessageSet,
    /// The results it sends: its result union, else the generic result.
    pub result: Option<TypeId>,
}

/// One end of a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Party {
    /// The client.
    Client,
    /// The server.
    Server,
}

impl Party {
    /// The message type the generator adds for what this side sends (`ClientMessage`).
    pub fn message_name(self) -> &'static str {
        match self {
            Party::Client => naming::CLIENT_MESSAGE,
            Party::Server => naming::SERVER_MESSAGE,
        }
    }

    /// `"client"` or `"server"`.
    pub fn name(self) -> &'static str {
        match self {
            Party::Client => "client",
            Party::Server => "server",
        }
    }

    /// The other end.
    pub fn other(self) -> Party {
        match self {
            Party::Client => Party::Server,
            Party::Server => Party::Client,
        }
    }
}

/// A request or notification union, or the one request or notification type a revision has
/// in its place.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageSet {
    /// The union (or the single type), through an alias.
    pub ty: TypeId,
    /// Requests or notifications.
    pub kind: SetKind,
    /// The members declare `jsonrpc` (and requests `id`) themselves.
    pub envelope: bool,
    /// The members, in union order.
    pub members: Vec<TypeId>,
}

/// What a [`MessageSet`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetKind {
    /// Requests.
    Requests,
    /// Notifications.
    Notifications,
}

/// The `tools/call` request's shorthands.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolCall {
    /// `arguments_as`, on the request's params.
    pub arguments_as: Option<ArgumentsAs>,
    /// `text`, `error` and `texts`, on the request's result.
    pub result: Option<ToolResult>,
}

/// The params of `tools/call` with `name: String` and raw-object `arguments`.
#[derive(Debug, Clone, PartialEq)]
pub struct ArgumentsAs {
    /// The params type.
    pub params: TypeId,
    /// The Rust name of `name`.
    pub name: String,
    /// The Rust name of `arguments`.
    pub arguments: String,
}

/// The result of `tools/call`, when its required members are `content` (and, from 2026-07-28,
/// `resultType`) and it has a boolean `isError`.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    /// The result type.
    pub ty: TypeId,
    /// The Rust name of `content`.
    pub content: String,
    /// The Rust name of `isError`.
    pub is_error: String,
    /// The Rust name of the required `resultType`, set to `"complete"` (the value the schema
    /// names for a result that is the answer), where the result has one.
    pub complete: Option<String>,
    /// The content block with `type: "text"`, built with `new(text)`.
    pub text_block: TypeId,
    /// The Rust name of the text block's `text`.
    pub text: String,
    /// The union of `content`'s items.
    pub content_union: TypeId,
    /// Its variant holding a text block.
    pub text_variant: String,
}

/// The protocol's entry points: (schema definition, what it lists, who sends it, the
/// definition listing the answers of a request union).
const ENTRY_POINTS: &[(&str, Entry, Direction, Option<&str>)] = &[
    (
        "ClientRequest",
        Entry::Requests,
        Direction::ClientToServer,
        Some("ServerResult"),
    ),
    (
        "ServerRequest",
        Entry::Requests,
        Direction::ServerToClient,
        Some("ClientResult"),
    ),
    // From 2026-07-28 on, what a server asks of a client travels in a result
    // (`InputRequiredResult.inputRequests`), answered in the client's next request.
    (
        "InputRequest",
        Entry::Requests,
        Direction::ServerToClient,
        Some("InputResponse"),
    ),
    (
        "ClientNotification",
        Entry::Notifications,
        Direction::ClientToServer,
        None,
    ),
    (
        "ServerNotification",
        Entry::Notifications,
        Direction::ServerToClient,
        None,
    ),
    (
        "ClientResult",
        Entry::Results,
        Direction::ClientToServer,
        None,
    ),
    (
        "ServerResult",
        Entry::Results,
        Direction::ServerToClient,
        None,
    ),
    (
        "InputResponse",
        Entry::Results,
        Direction::ClientToServer,
        None,
    ),
];

/// The union of every JSON-RPC message: a request, a notification, a result or an error
/// envelope.
const ENVELOPE: &str = "JSONRPCMessage";

/// The sides' unions: (sender, requests, notifications, results).
const SIDES: [(Party, &str, &str, &str); 2] = [
    (
        Party::Client,
        "ClientRequest",
        "ClientNotification",
        "ClientResult",
    ),
    (
        Party::Server,
        "ServerRequest",
        "ServerNotification",
        "ServerResult",
    ),
];

/// The `method` of the request whose shorthands [`ToolCall`] describes.
const TOOLS_CALL: &str = "tools/call";
/// The `method` of the request whose result lists the tools.
const TOOLS_LIST: &str = "tools/list";

/// What an entry point lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    Requests,
    Notifications,
    Results,
}

/// An entry point as found in a module.
struct Root {
    /// The definition itself.
    own: TypeId,
    /// Through an alias.
    ty: TypeId,
    /// Its members (itself, for a single struct).
    members: Vec<TypeId>,
}

fn root(module: &Module, schema_name: &str) -> Option<Root> {
    let own = module.schema_id(schema_name)?;
    let ty = match &module.def(own).kind {
        TypeKind::Alias(TypeRef::Named(n)) => module.id(n)?,
        _ => own,
    };
    let members = match &module.def(ty).kind {
        TypeKind::Struct(_) => vec![ty],
        TypeKind::Union(u) => u
            .variants
            .iter()
            .filter_map(|v| match &v.ty {
                TypeRef::Named(n) => module.id(n),
                _ => None,
            })
            .collect(),
        _ => return None,
    };
    Some(Root { own, ty, members })
}

/// The struct a type stands for (through aliases), with its id.
fn as_struct(module: &Module, id: TypeId) -> Option<(TypeId, &Struct)> {
    let TypeRef::Named(n) = module.resolve(&named(module, id)).clone() else {
        return None;
    };
    let id = module.id(&n)?;
    match &module.def(id).kind {
        TypeKind::Struct(s) => Some((id, s)),
        _ => None,
    }
}

fn method(s: &Struct) -> Option<&str> {
    match s.const_field("method").map(|c| &c.value) {
        Some(ConstValue::Str(m)) => Some(m),
        _ => None,
    }
}

fn params(s: &Struct) -> Option<Params> {
    s.field("params").map(|f| Params {
        field: f.rust_name.clone(),
        ty: f.ty.clone(),
        optional: f.wraps_option(),
    })
}

fn schema_name(module: &Module, id: TypeId) -> &str {
    let t = module.def(id);
    t.schema_name.as_deref().unwrap_or(&t.name)
}

/// Gives every type its [`Role`] and the module its [`Protocol`].
pub fn assign(module: &mut Module) {
    let roots: Vec<Found> = ENTRY_POINTS
        .iter()
        .filter_map(|&(name, entry, direction, answers)| {
            Some(Found {
                entry,
                direction,
                root: root(module, name)?,
                answers: answers
                    .and_then(|a| root(module, a))
                    .map(|r| r.members)
                    .unwrap_or_default(),
            })
        })
        .collect();
    let (mut roles, answered_by) = classify(module, &roots);
    let envelope = Envelope::find(module);
    let root_ids: Vec<TypeId> = roots.iter().map(|f| f.root.own).collect();
    let empty = envelope
        .as_ref()
        .and_then(|e| e.generic_result)
        .map(|generic| empty_result(module, generic, &root_ids));
    for (request, answers) in &answered_by {
        let answer = answer(module, *request, answers);
        let result = match answer {
            Some(a) => Some(response_result(module, a).unwrap_or_else(|| named(module, a))),
            None => empty.clone(),
        };
        if let Role::Request(r) = &mut roles[request.0] {
            r.answer = answer;
            r.result = result;
        }
    }
    for (t, role) in module.types.iter_mut().zip(roles) {
        t.role = role;
    }
    module.protocol = Protocol {
        messages: envelope.and_then(|e| messages(module, e)),
        tool_call: tool_call(module),
        tool_schemas: tool_schemas(module),
    };
}

/// An entry point found in the module, with the members of the union answering it.
struct Found {
    entry: Entry,
    direction: Direction,
    root: Root,
    answers: Vec<TypeId>,
}

/// The role of every member of an entry point (by type id), and each request with the
/// results that may answer it. A type in two unions of one kind is sent both ways.
fn classify(module: &Module, roots: &[Found]) -> (Vec<Role>, Vec<(TypeId, Vec<TypeId>)>) {
    let mut roles: Vec<Role> = vec![Role::None; module.types.len()];
    let mut answered_by: Vec<(TypeId, Vec<TypeId>)> = Vec::new();
    for found in roots {
        let direction = found.direction;
        for &member in &found.root.members {
            let Some((id, s)) = as_struct(module, member) else {
                continue;
            };
            let role = &mut roles[id.0];
            match (found.entry, method(s), role) {
                (Entry::Requests, Some(_), Role::Request(r)) => {
                    r.direction = r.direction.join(direction);
                }
                (Entry::Requests, Some(method), role) => {
                    *role = Role::Request(Request {
                        method: method.to_owned(),
                        params: params(s),
                        direction,
                        answer: None,
                        result: None,
                    });
                }
                (Entry::Notifications, Some(_), Role::Notification(n)) => {
                    n.direction = n.direction.join(direction);
                }
                (Entry::Notifications, Some(method), role) => {
                    *role = Role::Notification(Notification {
                        method: method.to_owned(),
                        params: params(s),
                        direction,
                    });
                }
                (Entry::Results, _, Role::Result(d)) => *d = d.join(direction),
                (Entry::Results, _, role) => *role = Role::Result(direction),
                (Entry::Requests | Entry::Notifications, None, _) => continue,
            }
            if found.entry == Entry::Requests {
                match answered_by.iter_mut().find(|(r, _)| *r == id) {
                    Some((_, all)) => all.extend(&found.answers),
                    None => answered_by.push((id, found.answers.clone())),
                }
            }
        }
    }
    (roles, answered_by)
}

fn named(module: &Module, id: TypeId) -> TypeRef {
    TypeRef::Named(module.def(id).name.clone())
}

/// The answer of `request` among `answers`: the one whose name has the same stem.
fn answer(module: &Module, request: TypeId, answers: &[TypeId]) -> Option<TypeId> {
    let stem = naming::stem(schema_name(module, request));
    if stem.is_empty() {
        return None;
    }
    answers
        .iter()
        .copied()
        .find(|&a| naming::stem(schema_name(module, a)) == stem)
}

/// The `result` of the response type declared for `answer` (a JSON-RPC envelope whose
/// `result` is the answer, or a union with it), if the schema declares one.
fn response_result(module: &Module, answer: TypeId) -> Option<TypeRef> {
    let answer = named(module, answer);
    module.types.iter().find_map(|t| {
        let TypeKind::Struct(s) = &t.kind else {
            return None;
        };
        s.const_field("jsonrpc")?;
        s.field("id")?;
        let result = s.field("result")?;
        let holds = result.ty == answer
            || match module.resolve(&result.ty) {
                TypeRef::Named(n) => match module.get(n).map(|u| &u.kind) {
                    Some(TypeKind::Union(u)) => u.variants.iter().any(|v| v.ty == answer),
                    _ => false,
                },
                _ => false,
            };
        holds.then(|| result.ty.clone())
    })
}

/// The result of a request paired with none: a definition that is only another name for
/// the generic result (`EmptyResult`) and no entry point, else the generic result.
fn empty_result(module: &Module, generic: TypeId, roots: &[TypeId]) -> TypeRef {
    let generic = named(module, generic);
    module
        .types
        .iter()
        .enumerate()
        .find(|(i, t)| {
            t.schema_name.is_some()
                && !roots.contains(&TypeId(*i))
                && matches!(&t.kind, TypeKind::Alias(target) if *target == generic)
        })
        .map_or(generic, |(_, t)| TypeRef::Named(t.name.clone()))
}

/// The JSON-RPC envelopes, from the members of [`ENVELOPE`].
struct Envelope {
    /// The type of a request's `id`.
    request_id: TypeId,
    /// The error envelope.
    error: TypeId,
    /// The type of a successful response's `result`.
    generic_result: Option<TypeId>,
}

impl Envelope {
    fn find(module: &Module) -> Option<Envelope> {
        let root = root(module, ENVELOPE)?;
        let members: Vec<(TypeId, &Struct)> = root
            .members
            .iter()
            .filter_map(|&m| as_struct(module, m))
            .collect();
        let with = |member: &str| {
            members
                .iter()
                .find(|(_, s)| s.field(member).is_some())
                .copied()
        };
        let (_, request) = members
            .iter()
            .find(|(_, s)| s.field("id").is_some() && s.field("method").is_some())?;
        let TypeRef::Named(id) = &request.field("id")?.ty else {
            return None;
        };
        let (error, _) = with("error")?;
        let generic_result = with("result").and_then(|(_, s)| match &s.field("result")?.ty {
            TypeRef::Named(n) => module.id(n),
            _ => None,
        });
        Some(Envelope {
            request_id: module.id(id)?,
            error,
            generic_result,
        })
    }
}

fn message_set(module: &Module, root: &Root, kind: SetKind) -> MessageSet {
    let structs: Vec<&Struct> = match &module.def(root.ty).kind {
        TypeKind::Struct(s) => vec![s],
        _ => root
            .members
            .iter()
            .filter_map(|&m| as_struct(module, m).map(|(_, s)| s))
            .collect(),
    };
    MessageSet {
        ty: root.ty,
        kind,
        envelope: !structs.is_empty() && structs.iter().all(|s| s.const_field("jsonrpc").is_some()),
        members: root.members.clone(),
    }
}

fn messages(module: &Module, envelope: Envelope) -> Option<Messages> {
    // The generator's own names must be free.
    let names = [
        naming::RESULT_RESPONSE,
        Party::Client.message_name(),
        Party::Server.message_name(),
    ];
    if names.iter().any(|n| module.by_name.contains_key(*n)) {
        return None;
    }
    let mut sides = Vec::new();
    for (sender, requests, notifications, results) in SIDES {
        let Some(notifications) = root(module, notifications) else {
            continue;
        };
        sides.push(Side {
            sender,
            message: sender.message_name().to_owned(),
            reply: sender.other().message_name().to_owned(),
            requests: root(module, requests).map(|r| message_set(module, &r, SetKind::Requests)),
            notifications: message_set(module, &notifications, SetKind::Notifications),
            result: module.schema_id(results).or(envelope.generic_result),
        });
    }
    let generic_result = envelope
        .generic_result
        .filter(|&g| matches!(module.def(g).kind, TypeKind::Struct(_)));
    let mut typed_results = Vec::new();
    if let Some(generic) = generic_result {
        let mut seen = vec![generic];
        // The server's results first.
        for (_, _, _, results) in SIDES.iter().rev() {
            let Some(own) = module.schema_id(results) else {
                continue;
            };
            let TypeKind::Union(u) = &module.def(own).kind else {
                continue;
            };
            for v in &u.variants {
                let TypeRef::Named(n) = &v.ty else { continue };
                let Some(id) = module.id(n) else { continue };
                if seen.contains(&id) || module.as_struct(&v.ty).is_none() {
                    continue;
                }
                seen.push(id);
                typed_results.push(id);
            }
        }
    }
    Some(Messages {
        request_id: envelope.request_id,
        error_response: envelope.error,
        result_response: naming::RESULT_RESPONSE.to_owned(),
        generic_result,
        typed_results,
        sides,
    })
}

/// The request with this `method`, and its struct.
fn request<'m>(module: &'m Module, method: &str) -> Option<(TypeId, &'m Request)> {
    module
        .types
        .iter()
        .enumerate()
        .find_map(|(i, t)| match &t.role {
            Role::Request(r) if r.method == method => Some((TypeId(i), r)),
            _ => None,
        })
}

fn tool_call(module: &Module) -> ToolCall {
    let Some((_, call)) = request(module, TOOLS_CALL) else {
        return ToolCall::default();
    };
    ToolCall {
        arguments_as: call
            .params
            .as_ref()
            .and_then(|p| arguments_as(module, &p.ty)),
        result: call.answer.and_then(|a| tool_result(module, a)),
    }
}

fn arguments_as(module: &Module, params: &TypeRef) -> Option<ArgumentsAs> {
    let TypeRef::Named(n) = params else {
        return None;
    };
    let id = module.id(n)?;
    let TypeKind::Struct(s) = &module.def(id).kind else {
        return None;
    };
    let (name, args) = (s.field("name")?, s.field("arguments")?);
    (name.required && name.ty == TypeRef::String && !args.required && args.ty == TypeRef::Object)
        .then(|| ArgumentsAs {
            params: id,
            name: name.rust_name.clone(),
            arguments: args.rust_name.clone(),
        })
}

fn tool_result(module: &Module, id: TypeId) -> Option<ToolResult> {
    let TypeKind::Struct(s) = &module.def(id).kind else {
        return None;
    };
    let (content, is_error) = (s.field("content")?, s.field("isError")?);
    let TypeRef::Array(item) = &content.ty else {
        return None;
    };
    if is_error.ty != TypeRef::Boolean {
        return None;
    }
    let required: Vec<&str> = s
        .fields
        .iter()
        .filter(|f| f.required)
        .map(|f| f.json_name.as_str())
        .collect();
    let complete = match required.as_slice() {
        ["content"] => None,
        ["resultType", "content"] | ["content", "resultType"] => {
            let f = s.field("resultType")?;
            (f.ty == TypeRef::String).then(|| f.rust_name.clone())
        }
        _ => return None,
    };
    // The text block: the member of `content`'s items with `type: "text"` and a string
    // `text`, its only required field.
    let TypeRef::Named(union) = module.resolve(item) else {
        return None;
    };
    let union = module.id(union)?;
    let TypeKind::Union(u) = &module.def(union).kind else {
        return None;
    };
    let (variant, text_block, text) = u.variants.iter().find_map(|v| {
        let TypeRef::Named(n) = &v.ty else {
            return None;
        };
        let block = module.id(n)?;
        let TypeKind::Struct(b) = &module.def(block).kind else {
            return None;
        };
        let is_text =
            b.const_field("type").map(|c| &c.value) == Some(&ConstValue::Str("text".to_owned()));
        let text = b.field("text")?;
        let only_text = b.fields.iter().filter(|f| f.required).count() == 1;
        (is_text && text.required && text.ty == TypeRef::String && only_text)
            .then(|| (v.rust_name.clone(), block, text.rust_name.clone()))
    })?;
    Some(ToolResult {
        ty: id,
        content: content.rust_name.clone(),
        is_error: is_error.rust_name.clone(),
        complete,
        text_block,
        text,
        content_union: union,
        text_variant: variant,
    })
}

fn tool_schemas(module: &Module) -> Vec<TypeId> {
    let Some(list) = request(module, TOOLS_LIST).and_then(|(_, r)| r.answer) else {
        return Vec::new();
    };
    let TypeKind::Struct(result) = &module.def(list).kind else {
        return Vec::new();
    };
    let Some(TypeRef::Array(item)) = result.field("tools").map(|f| &f.ty) else {
        return Vec::new();
    };
    let Some(tool) = module.as_struct(item) else {
        return Vec::new();
    };
    ["inputSchema", "outputSchema"]
        .iter()
        .filter_map(|member| {
            let f = tool.field(member)?;
            module.as_struct(&f.ty)?;
            match module.resolve(&f.ty) {
                TypeRef::Named(n) => module.id(n),
                _ => None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::SchemaDoc;
    use serde_json::json;

    fn r(name: &str) -> serde_json::Value {
        json!({ "$ref": format!("#/$defs/{name}") })
    }

    fn object(properties: serde_json::Value, required: &[&str]) -> serde_json::Value {
        json!({ "type": "object", "properties": properties, "required": required })
    }

    /// A protocol whose types are named against the grain: `PingAsk`, `CallToolReq`,
    /// `CancelledNote`, `Plain` for the text block.
    fn module() -> Module {
        let jsonrpc = json!({ "const": "2.0", "type": "string" });
        let defs = json!({
            "RequestId": { "type": ["string", "integer"] },
            "Result": { "type": "object", "properties": { "_meta": { "type": "object" } } },
            "EmptyResult": r("Result"),
            "JSONRPCRequest": object(json!({ "jsonrpc": jsonrpc, "id": r("RequestId"),
                "method": { "type": "string" } }), &["jsonrpc", "id", "method"]),
            "JSONRPCNotification": object(json!({ "jsonrpc": jsonrpc,
                "method": { "type": "string" } }), &["jsonrpc", "method"]),
            "JSONRPCResponse": object(json!({ "jsonrpc": jsonrpc, "id": r("RequestId"),
                "result": r("Result") }), &["jsonrpc", "id", "result"]),
            "JSONRPCError": object(json!({ "jsonrpc": jsonrpc, "id": r("RequestId"),
                "error": { "type": "object" } }), &["jsonrpc", "id", "error"]),
            "JSONRPCMessage": { "anyOf": [r("JSONRPCRequest"), r("JSONRPCNotification"),
                r("JSONRPCResponse"), r("JSONRPCError")] },
            "PingAsk": object(json!({ "method": { "const": "ping" } }), &["method"]),
            "CallToolReq": object(json!({ "method": { "const": "tools/call" },
                "params": object(json!({ "name": { "type": "string" },
                    "arguments": { "type": "object" } }), &["name"]) }), &["method", "params"]),
            "CallToolResult": object(json!({ "content": { "type": "array", "items": r("ContentBlock") },
                "isError": { "type": "boolean" } }), &["content"]),
            "Plain": object(json!({ "type": { "const": "text" }, "text": { "type": "string" } }),
                &["type", "text"]),
            "Picture": object(json!({ "type": { "const": "image" }, "data": { "type": "string" } }),
                &["type", "data"]),
            "ContentBlock": { "anyOf": [r("Picture"), r("Plain")] },
            "CancelledNote": object(json!({ "method": { "const": "notifications/cancelled" } }),
                &["method"]),
            "ClientRequest": { "anyOf": [r("PingAsk"), r("CallToolReq")] },
            "ServerRequest": { "anyOf": [r("PingAsk")] },
            "ClientNotification": { "anyOf": [r("CancelledNote")] },
            "ServerNotification": { "anyOf": [r("CancelledNote")] },
            "ClientResult": { "anyOf": [r("Result")] },
            "ServerResult": { "anyOf": [r("Result"), r("CallToolResult")] },
        });
        crate::ir::lower(&SchemaDoc::from_value(json!({ "$defs": defs })).unwrap()).unwrap()
    }

    /// By schema name (`JSONRPCError` is `JsonRpcError` in Rust).
    fn role<'m>(m: &'m Module, name: &str) -> &'m Role {
        &m.by_schema(name).unwrap().role
    }

    fn id(m: &Module, name: &str) -> TypeId {
        m.schema_id(name).unwrap()
    }

    #[test]
    fn roles_come_from_the_unions_not_the_names() {
        let m = module();
        let Role::Request(call) = role(&m, "CallToolReq") else {
            panic!("{:?}", role(&m, "CallToolReq"));
        };
        assert_eq!(call.method, "tools/call");
        assert_eq!(call.direction, Direction::ClientToServer);
        assert_eq!(call.answer, Some(id(&m, "CallToolResult")));
        assert_eq!(call.result, Some(TypeRef::Named("CallToolResult".into())));
        assert_eq!(
            call.params.as_ref().map(|p| &p.ty),
            Some(&TypeRef::Named("CallToolReqParams".into()))
        );
        // Both sides ask it; no result pairs with it: the empty result.
        let Role::Request(ping) = role(&m, "PingAsk") else {
            panic!("{:?}", role(&m, "PingAsk"));
        };
        assert_eq!(ping.direction, Direction::Both);
        assert_eq!(ping.answer, None);
        assert_eq!(ping.result, Some(TypeRef::Named("EmptyResult".into())));
        assert!(matches!(
            role(&m, "CancelledNote"),
            Role::Notification(Notification {
                direction: Direction::Both,
                ..
            })
        ));
        assert_eq!(
            role(&m, "CallToolResult"),
            &Role::Result(Direction::ServerToClient)
        );
        assert_eq!(role(&m, "Result"), &Role::Result(Direction::Both));
        // Not a member of any of the protocol's unions.
        assert_eq!(role(&m, "JSONRPCRequest"), &Role::None);
    }

    #[test]
    fn messages_and_the_tool_call_are_found_by_structure() {
        let m = module();
        let messages = m.protocol.messages.as_ref().expect("a JSON-RPC schema");
        assert_eq!(messages.request_id, id(&m, "RequestId"));
        assert_eq!(messages.error_response, id(&m, "JSONRPCError"));
        assert_eq!(messages.generic_result, Some(id(&m, "Result")));
        assert_eq!(messages.typed_results, [id(&m, "CallToolResult")]);
        let sides: Vec<(&str, &str, Option<TypeId>)> = messages
            .sides
            .iter()
            .map(|s| {
                (
                    s.message.as_str(),
                    s.reply.as_str(),
                    s.requests.as_ref().map(|r| r.ty),
                )
            })
            .collect();
        // A union of one member is that member (as 2026-07-28's `ClientNotification`).
        let (client, server) = (id(&m, "ClientRequest"), id(&m, "PingAsk"));
        assert_eq!(
            sides,
            [
                ("ClientMessage", "ServerMessage", Some(client)),
                ("ServerMessage", "ClientMessage", Some(server)),
            ]
        );
        let args = m
            .protocol
            .tool_call
            .arguments_as
            .as_ref()
            .expect("tools/call params");
        // An inline type, named for its place.
        assert_eq!(Some(args.params), m.id("CallToolReqParams"));
        let result = m
            .protocol
            .tool_call
            .result
            .as_ref()
            .expect("tools/call result");
        assert_eq!(result.text_block, id(&m, "Plain"));
        assert_eq!(result.content_union, id(&m, "ContentBlock"));
        assert_eq!(result.complete, None);
    }

    #[test]
    fn a_schema_without_the_protocol_has_no_roles() {
        let m = crate::ir::lower(
            &SchemaDoc::from_value(json!({ "$defs": {
                "PingRequest": object(json!({ "method": { "const": "ping" } }), &["method"])
            } }))
            .unwrap(),
        )
        .unwrap();
        assert_eq!(role(&m, "PingRequest"), &Role::None);
        assert_eq!(m.protocol, Protocol::default());
    }
}
