//! The generated types of each revision behind plain functions: decoding a message (or a part
//! of one) with the union its direction calls for, re-encoding it, and naming what it became.

use std::fmt;

use super::Direction;
use crate::{DefinitionVisitor, ProtocolVersion, Unknown, Unknowns};

/// A decoded value: a short name of its type (the variant chosen for a union), its
/// re-encoding (JSON text, compared with the input by [`super::diff::diff_text`]), and what it
/// holds that the revision does not define.
pub(crate) struct Typed {
    pub label: String,
    pub encoded: String,
    pub unknowns: Vec<Unknown>,
}

/// Why a value did not decode: where (a JSON Pointer into the decoded text) and what the
/// decoder said (serde's message, without its line and column).
#[derive(Debug, Clone)]
pub(crate) struct Failure {
    pub pointer: String,
    pub message: String,
}

impl Failure {
    /// The failure as text, with the pointer prefixed by `at` (where the decoded text sits in
    /// the message) and the revision:
    /// ``missing member `name` in a CallToolRequestParams object at /params (2025-11-25)``.
    pub fn describe(&self, at: &str, version: ProtocolVersion) -> String {
        let pointer = self.pointer_in(at);
        let shown = if pointer.is_empty() { "/" } else { &pointer };
        format!("{} at {shown} ({version})", self.message)
    }

    /// The pointer, from the root of the message.
    pub fn pointer_in(&self, at: &str) -> String {
        format!("{at}{}", self.pointer)
    }
}

/// A decoded value, or the decoding error.
pub(crate) type Decoded = Result<Typed, Failure>;

/// Decodes `text` as `T` (an error names its JSON pointer) and encodes it again; `name` is
/// `T`'s Rust name, the label of a struct (a union's is its member's type).
fn decode<T>(text: &str, name: &'static str) -> Decoded
where
    T: serde::de::DeserializeOwned + serde::Serialize + Unknowns + crate::runtime::Decode,
{
    let value: T = crate::convert::decode(text).map_err(|e| Failure {
        pointer: e.pointer,
        message: e.message,
    })?;
    let encoded = crate::to_string(&value).map_err(|e| Failure {
        pointer: String::new(),
        message: format!("re-encoding failed: {e}"),
    })?;
    Ok(Typed {
        label: value.chosen().unwrap_or(name).to_owned(),
        encoded,
        unknowns: value.unknowns(),
    })
}

/// [`decode`] for the type `with_definition` picks, labelled `Union (Member)` for a union.
struct DecodeAs<'a>(&'a str);

impl DefinitionVisitor for DecodeAs<'_> {
    type Output = Decoded;
    fn visit<T>(self, rust_name: &'static str) -> Decoded
    where
        T: serde::Serialize
            + serde::de::DeserializeOwned
            + fmt::Debug
            + Clone
            + PartialEq
            + Unknowns
            + crate::runtime::Decode
            + 'static,
    {
        decode::<T>(self.0, rust_name).map(|mut t| {
            if t.label != rust_name {
                t.label = format!("{rust_name} ({})", t.label);
            }
            t
        })
    }
}

/// [`decode`] for the result type `with_result_of` picks, with its name.
struct DecodeNamed<'a>(&'a str);

impl DefinitionVisitor for DecodeNamed<'_> {
    type Output = (&'static str, Decoded);
    fn visit<T>(self, rust_name: &'static str) -> (&'static str, Decoded)
    where
        T: serde::Serialize
            + serde::de::DeserializeOwned
            + fmt::Debug
            + Clone
            + PartialEq
            + Unknowns
            + crate::runtime::Decode
            + 'static,
    {
        (rust_name, decode::<T>(self.0, rust_name))
    }
}

/// The generated types of one revision, behind plain functions.
pub(crate) struct Revision {
    pub version: ProtocolVersion,
    /// `JSONRPCMessage`.
    pub message: fn(&str) -> Decoded,
    pub client_request: fn(&str) -> Decoded,
    /// `ServerRequest`, or `InputRequest` in revisions that have no `ServerRequest`.
    pub server_request: fn(&str) -> Decoded,
    pub server_request_union: &'static str,
    pub client_notification: fn(&str) -> Decoded,
    pub server_notification: fn(&str) -> Decoded,
    /// The result of the request with this `method` (its type's name, and the decoded
    /// value); `None` for a method the revision does not define.
    pub result: fn(&str, &str) -> Option<(&'static str, Decoded)>,
    /// `CreateTaskResult`, the result of a task-augmented request (params with `task`), in
    /// revisions that have tasks.
    pub task_result: Option<fn(&str) -> Decoded>,
    /// The type generated for a schema definition; `None` when there is no such definition.
    pub definition: fn(&str, &str) -> Option<Decoded>,
    pub definitions: &'static [&'static str],
    /// The request and notification methods the revision defines.
    pub requests: &'static [&'static str],
    pub notifications: &'static [&'static str],
}

impl Revision {
    /// Whether the revision has the `initialize` handshake (2026-07-28 is stateless).
    pub fn has_initialize(&self) -> bool {
        self.requests.contains(&"initialize")
    }

    /// Whether the revision defines `method` (a request or a notification).
    pub fn defines(&self, method: &str) -> bool {
        self.requests.contains(&method) || self.notifications.contains(&method)
    }
}

/// One revision's table, from what its generated module lists (`REQUEST_METHODS`,
/// `NOTIFICATION_METHODS`, `with_result_of`, `with_definition`): nothing here is kept by hand.
macro_rules! revision {
    ($version:expr, $m:ident, $server_request:ident) => {
        revision!($version, $m, $server_request, None)
    };
    ($version:expr, $m:ident, $server_request:ident, tasks) => {
        revision!(
            $version,
            $m,
            $server_request,
            Some(|text| decode::<crate::$m::CreateTaskResult>(text, "CreateTaskResult"))
        )
    };
    ($version:expr, $m:ident, $server_request:ident, $task_result:expr) => {{
        use crate::$m as m;
        Revision {
            version: $version,
            message: |text| decode::<m::JsonRpcMessage>(text, "JsonRpcMessage"),
            client_request: |text| decode::<m::ClientRequest>(text, "ClientRequest"),
            server_request: |text| decode::<m::$server_request>(text, stringify!($server_request)),
            server_request_union: stringify!($server_request),
            client_notification: |text| decode::<m::ClientNotification>(text, "ClientNotification"),
            server_notification: |text| decode::<m::ServerNotification>(text, "ServerNotification"),
            result: |method, text| m::with_result_of(method, DecodeNamed(text)),
            task_result: $task_result,
            definition: |name, text| m::with_definition(name, DecodeAs(text)),
            definitions: m::DEFINITIONS,
            requests: m::REQUEST_METHODS,
            notifications: m::NOTIFICATION_METHODS,
        }
    }};
}

static V2024_11_05: Revision = revision!(ProtocolVersion::V2024_11_05, v2024_11_05, ServerRequest);
static V2025_03_26: Revision = revision!(ProtocolVersion::V2025_03_26, v2025_03_26, ServerRequest);
static V2025_06_18: Revision = revision!(ProtocolVersion::V2025_06_18, v2025_06_18, ServerRequest);
static V2025_11_25: Revision = revision!(
    ProtocolVersion::V2025_11_25,
    v2025_11_25,
    ServerRequest,
    tasks
);
static V2026_07_28: Revision = revision!(ProtocolVersion::V2026_07_28, v2026_07_28, InputRequest);
// The draft's schema is 2026-07-28's (the `draft` module is an alias of `v2026_07_28`): the
// same types, named by the draft's version in what is reported.
static DRAFT: Revision = revision!(ProtocolVersion::Draft, v2026_07_28, InputRequest);

/// The types of `version`.
pub(crate) fn revision(version: ProtocolVersion) -> &'static Revision {
    match version {
        ProtocolVersion::V2024_11_05 => &V2024_11_05,
        ProtocolVersion::V2025_03_26 => &V2025_03_26,
        ProtocolVersion::V2025_06_18 => &V2025_06_18,
        ProtocolVersion::V2025_11_25 => &V2025_11_25,
        ProtocolVersion::V2026_07_28 => &V2026_07_28,
        ProtocolVersion::Draft => &DRAFT,
    }
}

/// The newest revision with the `initialize` handshake.
pub(crate) fn newest_with_initialize() -> ProtocolVersion {
    ProtocolVersion::ALL
        .iter()
        .rev()
        .copied()
        .find(|v| revision(*v).has_initialize())
        .expect("some revision has initialize")
}

/// Whether some revision defines `method`.
pub(crate) fn defined_anywhere(method: &str) -> bool {
    ProtocolVersion::ALL
        .iter()
        .any(|v| revision(*v).defines(method))
}

/// How decoding with the union(s) of a direction went.
pub(crate) enum UnionDecoded {
    /// Decoded: a typed variant, or the `Custom` one. `sender` is the side whose union typed
    /// it (`None` for `Custom` without a direction).
    Typed {
        typed: Typed,
        sender: Option<Direction>,
    },
    /// The union(s) of the sender rejected it: `(union, failure)` for each.
    Failed(Vec<(&'static str, Failure)>),
    /// With a direction given, a method only the other side sends: its type and union.
    WrongDirection {
        label: String,
        union: &'static str,
        expected: &'static str,
        sent: Direction,
    },
}

/// Decodes with the union(s) for `dir`: the typed variant wins over an error, an error over
/// `Custom` (a method that one side's union does not know is no excuse for the other side's
/// union rejecting it). With a direction, a method only the other side may send is an error;
/// `defined`: whether the revision defines the method at all (if not, the other side's union
/// would only make it `Custom` too, and is not tried).
pub(crate) fn decode_union(
    dir: Option<Direction>,
    text: &str,
    client: (&'static str, fn(&str) -> Decoded),
    server: (&'static str, fn(&str) -> Decoded),
    defined: bool,
) -> UnionDecoded {
    let client = (client.0, client.1, Direction::ClientToServer);
    let server = (server.0, server.1, Direction::ServerToClient);
    let (mine, theirs): (&[_], _) = match dir {
        Some(Direction::ClientToServer) => (&[client], Some(server)),
        Some(Direction::ServerToClient) => (&[server], Some(client)),
        None => (&[client, server], None),
    };
    let mut custom = None;
    let mut errors = Vec::new();
    for (union, decode, sender) in mine {
        match decode(text) {
            Ok(t) if t.label != "Custom" => {
                return UnionDecoded::Typed {
                    typed: t,
                    sender: Some(*sender),
                };
            }
            Ok(custom_variant) => custom = Some(custom_variant),
            Err(e) => errors.push((*union, e)),
        }
    }
    if !errors.is_empty() {
        return UnionDecoded::Failed(errors);
    }
    if let (Some((union, decode, _)), Some(sent), true) = (theirs, dir, defined)
        && let Ok(t) = decode(text)
        && t.label != "Custom"
    {
        return UnionDecoded::WrongDirection {
            label: t.label,
            union,
            expected: mine[0].0,
            sent,
        };
    }
    UnionDecoded::Typed {
        typed: custom.expect("one union was tried"),
        sender: dir,
    }
}

/// For a value `version` cannot decode: `; a <revision> shape (<type>)` naming the oldest
/// newer revision whose types take it, so that a reader sees a peer speaking past the
/// negotiated revision rather than a broken message. Empty when none does.
pub(crate) fn newer_revision(
    version: ProtocolVersion,
    decode: impl Fn(&Revision) -> Option<String>,
) -> String {
    ProtocolVersion::ALL
        .iter()
        .filter(|v| **v > version && **v != ProtocolVersion::Draft)
        .find_map(|v| decode(revision(*v)).map(|label| format!("; a {v} shape ({label})")))
        .unwrap_or_default()
}
