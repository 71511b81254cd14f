//! [rmcp](https://docs.rs/rmcp), the official Rust SDK (feature `rmcp`): derived forms sent
//! with this crate's exact schema, and conversions between rmcp's model and this crate's types.
//!
//! # Forms
//!
//! [`ElicitExt::elicit_form`] on rmcp's server peer asks for a `#[derive(Elicit)]` form in the
//! revision the session negotiated and reads the answer with the form's strict validation:
//!
//! ```no_run
//! use mcp_typed::rmcp::ElicitExt;
//! use mcp_typed::{Elicit, ElicitOutcome};
//! # async fn tool(peer: rmcp::Peer<rmcp::RoleServer>) -> Result<String, mcp_typed::rmcp::ElicitError> {
//! #[derive(Elicit)]
//! struct Guests {
//!     #[elicit(minimum = 1, maximum = 12)]
//!     count: u8,
//! }
//!
//! Ok(match peer.elicit_form::<Guests>("How many guests?").await? {
//!     ElicitOutcome::Accepted(guests) => format!("{} guests", guests.count),
//!     ElicitOutcome::Declined | ElicitOutcome::Cancelled => "no booking".to_owned(),
//! })
//! # }
//! ```
//!
//! The params on the wire are [`Elicit::form_params`] for the negotiated revision, member for
//! member: they are sent as a raw request, not through rmcp's `ElicitRequestParams`, which
//! writes `mode: "form"` into 2025-06-18 sessions (that revision has no `mode`). rmcp itself
//! adds one member to every request it sends, `_meta.progressToken`, which every revision
//! with elicitation allows.
//!
//! The answer comes back through rmcp's `ClientResult`, which keeps `action`, `content` and
//! `_meta` of an `ElicitResult` (and a result it cannot read whole); the content is then read
//! by [`Elicit::outcome`]: required fields, types, ranges, lengths, formats and options are
//! checked, and every violation is named ([`ElicitError::Content`]).
//!
//! # Conversions
//!
//! rmcp has one model, for its `ProtocolVersion::LATEST` (2026-07-28), which it also uses for
//! older sessions. With this feature the generated types implement `TryFrom` to and from the
//! rmcp type of the same definition in that revision, except the `initialize` messages, which 2026-07-28 no longer has: those pair
//! with 2025-11-25, the newest revision with the `initialize` handshake.
//!
//! | rmcp (`rmcp::model`) | this crate |
//! |---|---|
//! | `CallToolRequestParams` | [`v2026_07_28::CallToolRequestParams`](crate::v2026_07_28::CallToolRequestParams) |
//! | `CallToolResult` | [`v2026_07_28::CallToolResult`](crate::v2026_07_28::CallToolResult) |
//! | `Tool` | [`v2026_07_28::Tool`](crate::v2026_07_28::Tool) |
//! | `ContentBlock` | [`v2026_07_28::ContentBlock`](crate::v2026_07_28::ContentBlock) |
//! | `ElicitResult` | [`v2026_07_28::ElicitResult`](crate::v2026_07_28::ElicitResult) |
//! | `InitializeRequestParams` | [`v2025_11_25::InitializeRequestParams`](crate::v2025_11_25::InitializeRequestParams) |
//! | `InitializeResult` | [`v2025_11_25::InitializeResult`](crate::v2025_11_25::InitializeResult) |
//!
//! Other pairs (another revision's types, rmcp's `ClientJsonRpcMessage`…) go through
//! [`from_rmcp`] and [`to_rmcp`] directly. Both work on the JSON text, never on a
//! `serde_json::Value` of an rmcp type, so rmcp's `f32` fields keep their digits (`0.8`, not
//! the `0.800000011920929` that `serde_json::to_value` makes of them).
//!
//! - rmcp → this crate ([`from_rmcp`]) keeps everything rmcp holds: what the revision does not
//!   define is kept as unknown members (see [`Unknowns`](crate::Unknowns)). It fails, naming
//!   the JSON Pointer, where the value breaks the revision (a 2026-07-28 `CallToolResult`
//!   without `resultType`, say).
//! - this crate → rmcp ([`to_rmcp`]) fails where rmcp would not give the same JSON back: a
//!   member its model has no place for, one it would add (`mode`, `elicitationId: ""`), a
//!   number it would write differently. The error names the first such JSON Pointer.

use std::fmt;
use std::future::Future;

use ::rmcp::model::{ClientResult, CustomRequest, ErrorData, ServerRequest};
use ::rmcp::service::{Peer, RoleServer, ServiceError};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::ProtocolVersion;
use crate::convert::{self, ConversionError};
use crate::elicit::{
    ContentError, ELICIT_METHOD, Elicit, ElicitOutcome, OutcomeError, RenderError,
};

/// Forms on rmcp's server peer (`Peer<RoleServer>`, e.g. `RequestContext::peer` in a tool).
pub trait ElicitExt {
    /// Sends `elicitation/create` for the form `T` in the negotiated revision
    /// ([`Elicit::form_params`]) and reads the answer with [`Elicit::outcome`].
    ///
    /// Refused before anything is sent when the session has not negotiated a revision, the
    /// client did not declare form elicitation, or the revision cannot express the form (no
    /// elicitation before 2025-06-18; from 2026-07-28 on a server asks by returning an
    /// `InputRequiredResult` built with [`Elicit::input_request`] instead).
    fn elicit_form<T: Elicit>(
        &self,
        message: impl Into<String> + Send,
    ) -> impl Future<Output = Result<ElicitOutcome<T>, ElicitError>> + Send;
}

impl ElicitExt for Peer<RoleServer> {
    async fn elicit_form<T: Elicit>(
        &self,
        message: impl Into<String> + Send,
    ) -> Result<ElicitOutcome<T>, ElicitError> {
        let params = {
            let info = self.peer_info().ok_or(ElicitError::NotNegotiated)?;
            let version = info.protocol_version.as_str();
            let version = version
                .parse::<ProtocolVersion>()
                .map_err(|_| ElicitError::UnknownVersion(version.to_owned()))?;
            if version >= ProtocolVersion::V2026_07_28 {
                return Err(ElicitError::Form(RenderError::unsupported(
                    version,
                    "servers cannot send requests from 2026-07-28 on; return an \
                     InputRequiredResult holding Elicit::input_request instead",
                )));
            }
            let params = T::form_params(message, version).map_err(ElicitError::Form)?;
            let declared = info.capabilities.elicitation.as_ref().is_some_and(|e| {
                // 2025-11-25: `{}` means form mode; `{"url": {}}` alone excludes it.
                e.form.is_some() || e.url.is_none()
            });
            if !declared {
                return Err(ElicitError::NotDeclared(version));
            }
            params.to_value()
        };
        let request = CustomRequest::new(ELICIT_METHOD, Some(params));
        let answer = self
            .send_request(ServerRequest::CustomRequest(request))
            .await
            .map_err(|e| match e {
                ServiceError::McpError(error) => ElicitError::Rejected(error),
                e => ElicitError::Transport(e),
            })?;
        let answer = match answer {
            ClientResult::ElicitResult(r) => to_json(&r),
            ClientResult::CustomResult(r) => Ok(r.0),
            ClientResult::EmptyResult(_) => Ok(Value::Object(Default::default())),
            other => Err(format!(
                "a result of another request: {}",
                crate::to_string(&other).unwrap_or_default()
            )),
        }
        .map_err(|what| ElicitError::Malformed(format!("the client answered with {what}")))?;
        T::outcome(&answer).map_err(|e| match e {
            OutcomeError::Content(e) => ElicitError::Content(e),
            OutcomeError::Malformed(why) => ElicitError::Malformed(why),
        })
    }
}

fn to_json(value: &impl Serialize) -> Result<Value, String> {
    crate::to_string(value)
        .and_then(|text| serde_json::from_str(&text))
        .map_err(|e| e.to_string())
}

/// Why [`ElicitExt::elicit_form`] has no outcome.
#[derive(Debug)]
#[non_exhaustive]
pub enum ElicitError {
    /// The session has no `initialize` handshake: none yet, or a 2026-07-28 session (whose
    /// server asks for input with an `InputRequiredResult` instead).
    NotNegotiated,
    /// The session negotiated a revision this crate does not know.
    UnknownVersion(String),
    /// The client did not declare form elicitation in its capabilities.
    NotDeclared(ProtocolVersion),
    /// The negotiated revision cannot express the form (nothing was sent).
    Form(RenderError),
    /// The client answered with a JSON-RPC error.
    Rejected(ErrorData),
    /// The request was not sent or its answer not received: the transport closed, the
    /// request timed out or was cancelled, or rmcp refused to send it.
    Transport(ServiceError),
    /// The answer is not an `ElicitResult` (no or unknown `action`, `content` not an object…).
    Malformed(String),
    /// The user accepted, but the content does not fit the form; names every field at fault.
    Content(ContentError),
}

impl fmt::Display for ElicitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ElicitError::NotNegotiated => f.write_str(
                "the session has no initialize handshake, so no negotiated revision to ask in \
                 (from 2026-07-28 on, return an InputRequiredResult instead)",
            ),
            ElicitError::UnknownVersion(v) => {
                write!(
                    f,
                    "the session negotiated an unknown protocol revision `{v}`"
                )
            }
            ElicitError::NotDeclared(v) => write!(
                f,
                "the client did not declare form elicitation (capabilities.elicitation) in {v}"
            ),
            ElicitError::Form(e) => write!(f, "cannot ask for the form: {e}"),
            ElicitError::Rejected(e) => write!(
                f,
                "the client answered elicitation/create with error {}: {}",
                e.code.0, e.message
            ),
            ElicitError::Transport(e) => write!(f, "elicitation/create failed: {e}"),
            ElicitError::Malformed(why) => write!(f, "malformed ElicitResult: {why}"),
            ElicitError::Content(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ElicitError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ElicitError::Form(e) => Some(e),
            ElicitError::Transport(e) => Some(e),
            ElicitError::Content(e) => Some(e),
            _ => None,
        }
    }
}

/// An rmcp value as this crate's `T`, through its JSON text. Fails, naming the JSON Pointer,
/// where the value is not a valid `T`.
pub fn from_rmcp<T: crate::runtime::Decode>(value: &impl Serialize) -> Result<T, ConversionError> {
    convert::from_model(value)
}

/// A value of this crate as rmcp's `R`, through its JSON text; refused where rmcp's model
/// would not give the same JSON back. The error names the first JSON Pointer where rmcp
/// would drop, add or change something.
pub fn to_rmcp<R: DeserializeOwned + Serialize>(
    value: &impl Serialize,
) -> Result<R, ConversionError> {
    convert::to_model(value, "rmcp")
}

/// An elicitation request an rmcp client received, read into this crate's client model:
/// a form to show, or a URL to offer (see [`crate::elicit::client`]).
#[derive(Debug, Clone, PartialEq)]
pub enum ReceivedElicitation {
    /// A form-mode request.
    Form(crate::elicit::client::Form),
    /// A URL-mode request.
    Url(crate::elicit::client::UrlRequest),
}

/// The building block of an rmcp client's `ClientHandler::create_elicitation`: reads rmcp's
/// `ElicitRequestParams` into the client model, lets `ui` answer (show the form, ask for
/// consent), checks an accepted form's content against the form — the same validation a
/// `#[derive(Elicit)]` server applies — and gives rmcp's `ElicitResult` back. A request that
/// cannot be shown is answered with `-32602` naming the property at fault; an accepted
/// answer that does not fit the form with `-32603` naming every violation (a bug in `ui`).
///
/// ```no_run
/// # use mcp_typed::elicit::client::FormReply;
/// # use mcp_typed::rmcp::{ReceivedElicitation, answer_elicitation};
/// # async fn handler(request: rmcp::model::ElicitRequestParams)
/// #     -> Result<rmcp::model::ElicitResult, rmcp::model::ErrorData> {
/// // In `impl ClientHandler`: `async fn create_elicitation(&self, request, context)`.
/// let version = mcp_typed::ProtocolVersion::V2025_11_25; // the negotiated revision
/// answer_elicitation(&request, version, |received| async move {
///     match received {
///         ReceivedElicitation::Form(form) => {
///             let mut answer = form.answer(); // defaults pre-filled
///             // … show `form.fields()`, set what the user typed with `answer.parse(..)` …
///             answer.accept().unwrap_or(FormReply::Cancel)
///         }
///         ReceivedElicitation::Url(url) => url.decline(),
///     }
/// })
/// .await
/// # }
/// ```
pub async fn answer_elicitation<F, Fut>(
    request: &::rmcp::model::ElicitRequestParams,
    version: ProtocolVersion,
    ui: F,
) -> Result<::rmcp::model::ElicitResult, ErrorData>
where
    F: FnOnce(ReceivedElicitation) -> Fut,
    Fut: Future<Output = crate::elicit::client::FormReply>,
{
    use crate::elicit::client::{Form, FormReply, UrlRequest};
    let wire = serde_json::to_value(request)
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
    let received = if wire.get("mode").and_then(Value::as_str) == Some("url") {
        let url = UrlRequest::from_params(&wire)
            .map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
        ReceivedElicitation::Url(url)
    } else {
        let form = Form::from_params(&wire, version)
            .map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
        ReceivedElicitation::Form(form)
    };
    let form = match &received {
        ReceivedElicitation::Form(form) => Some(form.clone()),
        ReceivedElicitation::Url(_) => None,
    };
    let reply = ui(received).await;
    if let (Some(form), FormReply::Accept(content)) = (&form, &reply) {
        form.validate(content).map_err(|e| {
            ErrorData::internal_error(
                format!("the client's answer does not fit the form: {e}"),
                None,
            )
        })?;
    }
    reply
        .to_result()
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))
}
