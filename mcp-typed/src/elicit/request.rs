//! The messages of elicitation: `elicitation/create` params (form and URL mode), the
//! 2026-07-28 input request, the `-32042` URL-elicitation-required error and
//! `notifications/elicitation/complete`; and reading an `ElicitResult`.

use std::fmt;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};

use super::schema::{Dialect, FormSchema, RenderError};
use super::validate::is_uri;
use super::{ContentError, Elicit};
use crate::ProtocolVersion;

/// The method of the elicitation request.
pub const ELICIT_METHOD: &str = "elicitation/create";
/// The method of the notification that ends a URL-mode elicitation (2025-11-25).
pub const ELICITATION_COMPLETE_METHOD: &str = "notifications/elicitation/complete";
/// The JSON-RPC error code of `URLElicitationRequiredError` (2025-11-25).
pub const URL_ELICITATION_REQUIRED: i64 = -32042;

/// `elicitation/create` params of a form (`ElicitRequestFormParams`, or the params of the
/// 2025-06-18 `ElicitRequest`). Serializes in field order; checked for the revision when made.
#[derive(Debug, Clone)]
pub struct FormParams {
    version: ProtocolVersion,
    message: String,
    form: &'static FormSchema,
}

impl FormParams {
    /// Params asking for `form` with `message`, for `version`.
    pub fn new(
        form: &'static FormSchema,
        message: impl Into<String>,
        version: ProtocolVersion,
    ) -> Result<FormParams, RenderError> {
        form.check(version)?;
        Ok(FormParams {
            version,
            message: message.into(),
            form,
        })
    }

    /// The revision these params are for.
    pub fn version(&self) -> ProtocolVersion {
        self.version
    }

    /// The params as a JSON value.
    pub fn to_value(&self) -> Value {
        to_value(self)
    }

    /// The `{ "method": "elicitation/create", "params": .. }` request (without the JSON-RPC
    /// envelope; this is also the value of an `InputRequests` entry in 2026-07-28).
    pub fn into_request(self) -> ElicitRequest<FormParams> {
        ElicitRequest { params: self }
    }
}

impl Serialize for FormParams {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let dialect = Dialect::of(self.version).map_err(serde::ser::Error::custom)?;
        let mut map = serializer.serialize_map(None)?;
        if dialect == Dialect::Current {
            map.serialize_entry("mode", "form")?;
        }
        map.serialize_entry("message", &self.message)?;
        let schema = self
            .form
            .render(self.version)
            .map_err(serde::ser::Error::custom)?;
        map.serialize_entry("requestedSchema", &schema)?;
        map.end()
    }
}

/// `{ "method": "elicitation/create", "params": P }`.
#[derive(Debug, Clone)]
pub struct ElicitRequest<P> {
    /// The params.
    pub params: P,
}

impl<P: Serialize> ElicitRequest<P> {
    /// The request as a JSON value.
    pub fn to_value(&self) -> Value {
        to_value(self)
    }
}

impl<P: Serialize> Serialize for ElicitRequest<P> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("method", ELICIT_METHOD)?;
        map.serialize_entry("params", &self.params)?;
        map.end()
    }
}

fn to_value(value: &impl Serialize) -> Value {
    // Our Serialize impls write only strings, numbers, booleans, arrays and maps with string
    // keys, and check the revision before they can be made, so this cannot fail.
    crate::runtime::json_value(value).unwrap_or(Value::Null)
}

/// Serializes `value` and reads it back as `T` (for example a generated
/// `v2025_11_25::ElicitRequestFormParams`), keeping the order of every map.
pub fn to_typed<T: serde::de::DeserializeOwned>(value: &impl Serialize) -> serde_json::Result<T> {
    let bytes = crate::to_vec(value)?;
    serde_json::from_slice(&bytes)
}

/// A URL-mode elicitation: send the user to `url` (for sensitive data such as credentials or
/// payments, which form mode must not ask for).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlElicitation {
    elicitation_id: String,
    url: String,
    message: String,
}

/// The URL given to [`UrlElicitation::new`] is not an RFC 3986 URI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidUrl(pub String);

impl fmt::Display for InvalidUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not an absolute URI (RFC 3986)", self.0)
    }
}

impl std::error::Error for InvalidUrl {}

impl UrlElicitation {
    /// A URL elicitation. `elicitation_id` must be unique within the server; it is sent in
    /// 2025-11-25 (later revisions have no such field).
    pub fn new(
        elicitation_id: impl Into<String>,
        url: impl Into<String>,
        message: impl Into<String>,
    ) -> Result<UrlElicitation, InvalidUrl> {
        let url = url.into();
        if !is_uri(&url) {
            return Err(InvalidUrl(url));
        }
        Ok(UrlElicitation {
            elicitation_id: elicitation_id.into(),
            url,
            message: message.into(),
        })
    }

    /// The elicitation's ID.
    pub fn elicitation_id(&self) -> &str {
        &self.elicitation_id
    }

    /// The URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The `ElicitRequestURLParams` for `version` (2025-11-25 and later).
    pub fn params(&self, version: ProtocolVersion) -> Result<UrlParams<'_>, RenderError> {
        // Ordered, not listed: a revision added later has URL mode too until one drops it.
        if version >= ProtocolVersion::V2025_11_25 {
            Ok(UrlParams {
                elicitation: self,
                with_id: version == ProtocolVersion::V2025_11_25,
            })
        } else {
            Err(RenderError::unsupported(
                version,
                "URL-mode elicitation needs 2025-11-25 or later",
            ))
        }
    }

    /// The `notifications/elicitation/complete` notification (without the JSON-RPC envelope):
    /// `{ "method": .., "params": { "elicitationId": .. } }`. Only 2025-11-25 has it.
    pub fn complete_notification(&self, version: ProtocolVersion) -> Result<Value, RenderError> {
        only_2025_11_25(version, "notifications/elicitation/complete")?;
        Ok(serde_json::json!({
            "method": ELICITATION_COMPLETE_METHOD,
            "params": { "elicitationId": self.elicitation_id },
        }))
    }
}

fn only_2025_11_25(version: ProtocolVersion, what: &str) -> Result<(), RenderError> {
    if version == ProtocolVersion::V2025_11_25 {
        Ok(())
    } else {
        Err(RenderError::unsupported(
            version,
            format!(
                "{what} exists only in 2025-11-25 (2026-07-28 replaced it with input requests)"
            ),
        ))
    }
}

/// `ElicitRequestURLParams` of one revision.
#[derive(Debug, Clone, Copy)]
pub struct UrlParams<'a> {
    elicitation: &'a UrlElicitation,
    with_id: bool,
}

impl UrlParams<'_> {
    /// The params as a JSON value.
    pub fn to_value(&self) -> Value {
        to_value(self)
    }

    /// The `{ "method": "elicitation/create", "params": .. }` request.
    pub fn into_request(self) -> ElicitRequest<Self> {
        ElicitRequest { params: self }
    }
}

impl Serialize for UrlParams<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("mode", "url")?;
        if self.with_id {
            map.serialize_entry("elicitationId", &self.elicitation.elicitation_id)?;
        }
        map.serialize_entry("url", &self.elicitation.url)?;
        map.serialize_entry("message", &self.elicitation.message)?;
        map.end()
    }
}

/// The `error` object of a `URLElicitationRequiredError` (code `-32042`), telling the client
/// that the request needs these URL elicitations first. 2025-11-25 only.
pub fn url_elicitation_required_error(
    message: impl Into<String>,
    elicitations: &[UrlElicitation],
    version: ProtocolVersion,
) -> Result<Value, RenderError> {
    only_2025_11_25(version, "URLElicitationRequiredError (-32042)")?;
    let elicitations: Vec<Value> = elicitations
        .iter()
        .map(|e| UrlParams {
            elicitation: e,
            with_id: true,
        })
        .map(|p| p.to_value())
        .collect();
    Ok(serde_json::json!({
        "code": URL_ELICITATION_REQUIRED,
        "message": message.into(),
        "data": { "elicitations": elicitations },
    }))
}

/// What the user did with an elicitation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ElicitOutcome<T> {
    /// The user submitted the form; the content is valid.
    Accepted(T),
    /// The user explicitly declined.
    Declined,
    /// The user dismissed the request without choosing.
    Cancelled,
}

impl<T> ElicitOutcome<T> {
    /// The accepted value, if any.
    pub fn accepted(self) -> Option<T> {
        match self {
            ElicitOutcome::Accepted(value) => Some(value),
            _ => None,
        }
    }
}

/// An `ElicitResult` that cannot be read as an outcome of the form.
#[derive(Debug, Clone, PartialEq)]
pub enum OutcomeError {
    /// Not an `ElicitResult` (no or unknown `action`, `content` not an object, ...).
    Malformed(String),
    /// Accepted, but the content does not fit the form.
    Content(ContentError),
}

impl fmt::Display for OutcomeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutcomeError::Malformed(why) => write!(f, "malformed ElicitResult: {why}"),
            OutcomeError::Content(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for OutcomeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OutcomeError::Malformed(_) => None,
            OutcomeError::Content(e) => Some(e),
        }
    }
}

impl From<ContentError> for OutcomeError {
    fn from(e: ContentError) -> Self {
        OutcomeError::Content(e)
    }
}

/// Reads an `ElicitResult` (any revision's generated type, or a `serde_json::Value`).
pub(crate) fn outcome<T: Elicit>(
    result: &impl Serialize,
) -> Result<ElicitOutcome<T>, OutcomeError> {
    let value =
        crate::runtime::json_value(result).map_err(|e| OutcomeError::Malformed(e.to_string()))?;
    let Value::Object(result) = value else {
        return Err(OutcomeError::Malformed("not an object".to_owned()));
    };
    let content = match result.get("content") {
        None | Some(Value::Null) => None,
        Some(Value::Object(content)) => Some(content),
        Some(_) => {
            return Err(OutcomeError::Malformed(
                "`content` is not an object".to_owned(),
            ));
        }
    };
    match result.get("action").and_then(Value::as_str) {
        Some("accept") => {
            let empty = Map::new();
            Ok(ElicitOutcome::Accepted(T::from_content(
                content.unwrap_or(&empty),
            )?))
        }
        Some("decline") => Ok(ElicitOutcome::Declined),
        Some("cancel") => Ok(ElicitOutcome::Cancelled),
        Some(other) => Err(OutcomeError::Malformed(format!("unknown action `{other}`"))),
        None => Err(OutcomeError::Malformed("no `action`".to_owned())),
    }
}
