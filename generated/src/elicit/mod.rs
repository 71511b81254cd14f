//! Elicitation forms from Rust structs: `#[derive(Elicit)]` and its runtime.
//!
//! ```
//! use mcp_types::elicit::{Elicit, ElicitOutcome};
//! use mcp_types::ProtocolVersion;
//!
//! #[derive(Elicit, Debug, PartialEq)]
//! #[elicit(rename_all = "camelCase")]
//! struct Contact {
//!     /// Your full name
//!     #[elicit(min_length = 1)]
//!     full_name: String,
//!     #[elicit(format = "email")]
//!     email: Option<String>,
//!     #[elicit(minimum = 18, default = 30)]
//!     age: u8,
//! }
//!
//! let schema = serde_json::to_value(Contact::requested_schema()).unwrap();
//! assert_eq!(schema["required"], serde_json::json!(["fullName"]));
//!
//! let params = Contact::form_params("Who are you?", ProtocolVersion::V2025_11_25).unwrap();
//! assert_eq!(params.to_value()["mode"], "form");
//!
//! let result = serde_json::json!({ "action": "accept", "content": { "fullName": "Ada" } });
//! let outcome = Contact::outcome(&result).unwrap();
//! assert_eq!(
//!     outcome,
//!     ElicitOutcome::Accepted(Contact { full_name: "Ada".into(), email: None, age: 30 })
//! );
//! ```
//!
//! The form is described once, revision-neutrally, as a [`FormSchema`]; it renders to the
//! `requestedSchema` of each revision that has elicitation ([`FormSchema::render`]) and fails
//! with a [`RenderError`] for what a revision cannot express (multi-select and non-boolean
//! defaults in 2025-06-18; anything before 2025-06-18).

mod field;
mod request;
mod schema;
mod typed;
mod validate;

#[doc(hidden)]
pub mod __private;

use serde::Serialize;
use serde_json::{Map, Value};

pub use field::{ElicitEnum, FormField};
pub use request::{
    ELICIT_METHOD, ELICITATION_COMPLETE_METHOD, ElicitOutcome, ElicitRequest, FormParams,
    InvalidUrl, OutcomeError, URL_ELICITATION_REQUIRED, UrlElicitation, UrlParams, to_typed,
    url_elicitation_required_error,
};
pub use schema::{
    Constraints, DefaultValue, EnumOption, FieldSchema, FieldType, FormSchema, Format, Num,
    Pattern, RenderError, Rendered,
};
pub use typed::ElicitTyped;

/// Revisions with elicitation as types, naming their generated types; used with
/// [`ElicitTyped`]: `Booking::typed_form_params::<revision::V2025_11_25>("..")`.
pub mod revision {
    #[cfg(feature = "draft")]
    pub use super::typed::Draft;
    #[cfg(feature = "v2025_06_18")]
    pub use super::typed::V2025_06_18;
    #[cfg(feature = "v2025_11_25")]
    pub use super::typed::V2025_11_25;
    #[cfg(feature = "v2026_07_28")]
    pub use super::typed::V2026_07_28;
    pub use super::typed::{InputRevision, Revision, UrlRevision};
}
pub use validate::{
    ContentError, Violation, ViolationKind, format_matches, is_date_time, is_email, is_full_date,
    is_uri, validate,
};

pub use mcp_types_macros::Elicit;

use crate::ProtocolVersion;

/// A struct whose fields form an elicitation form. Derive it: `#[derive(Elicit)]`.
pub trait Elicit: Sized {
    /// The form, revision-neutral. Serializing it gives the latest revision's
    /// `requestedSchema`, properties in field order.
    fn requested_schema() -> &'static FormSchema;

    /// Reads the `content` of an accepted `ElicitResult`. Checks everything the form says
    /// (required fields, types, ranges including the field type's own, lengths in code
    /// points, patterns, formats, options, multi-select items and counts, unknown keys) and
    /// reports every violation at once. Omitted fields that declare a `default` get it.
    fn from_content(content: &Map<String, Value>) -> Result<Self, ContentError>;

    /// The `elicitation/create` params asking for this form, for `version`.
    fn form_params(
        message: impl Into<String>,
        version: ProtocolVersion,
    ) -> Result<FormParams, RenderError> {
        FormParams::new(Self::requested_schema(), message, version)
    }

    /// The `{ "method": "elicitation/create", "params": .. }` request for `version`.
    fn elicit_request(
        message: impl Into<String>,
        version: ProtocolVersion,
    ) -> Result<ElicitRequest<FormParams>, RenderError> {
        Ok(Self::form_params(message, version)?.into_request())
    }

    /// The value of an `InputRequiredResult.inputRequests` entry (2026-07-28 and later,
    /// where a server asks for input by returning it rather than by sending a request).
    fn input_request(
        message: impl Into<String>,
        version: ProtocolVersion,
    ) -> Result<ElicitRequest<FormParams>, RenderError> {
        if version < ProtocolVersion::V2026_07_28 {
            return Err(RenderError {
                version,
                field: None,
                reason: "input requests (InputRequiredResult) exist from 2026-07-28 on; send an \
                         elicitation/create request instead"
                    .to_owned(),
            });
        }
        Self::elicit_request(message, version)
    }

    /// Reads an `ElicitResult` (any revision's generated type, an `InputResponses` entry, or
    /// a `serde_json::Value`): accepted content is checked with [`Elicit::from_content`].
    fn outcome(result: &impl Serialize) -> Result<ElicitOutcome<Self>, OutcomeError> {
        request::outcome(result)
    }
}
