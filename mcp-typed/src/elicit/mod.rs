//! Elicitation forms from Rust structs: `#[derive(Elicit)]` and its runtime.
//!
//! ```
//! use mcp_typed::elicit::{Elicit, ElicitOutcome};
//! use mcp_typed::ProtocolVersion;
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
//!     #[elicit(default = "tea")]
//!     drink: Drink,
//! }
//!
//! #[derive(Elicit, Debug, PartialEq)]
//! #[elicit(rename_all = "lowercase")]
//! enum Drink {
//!     Tea,
//!     #[elicit(title = "Coffee (black)")]
//!     Coffee,
//! }
//!
//! let schema = serde_json::to_value(Contact::requested_schema()).unwrap();
//! assert_eq!(schema["required"], serde_json::json!(["fullName"]));
//!
//! let params = Contact::form_params("Who are you?", ProtocolVersion::V2025_11_25).unwrap();
//! assert_eq!(params.to_value()["mode"], "form");
//! assert_eq!(params.to_value()["requestedSchema"]["properties"]["age"]["default"], 30);
//!
//! // 2025-06-18 has `default` on booleans only: the others are not sent, but reading
//! // content still applies them.
//! let params = Contact::form_params("Who are you?", ProtocolVersion::V2025_06_18).unwrap();
//! assert_eq!(params.to_value()["requestedSchema"]["properties"]["age"].get("default"), None);
//!
//! let result = serde_json::json!({ "action": "accept", "content": { "fullName": "Ada" } });
//! assert_eq!(
//!     Contact::outcome(&result).unwrap(),
//!     ElicitOutcome::Accepted(Contact {
//!         full_name: "Ada".into(),
//!         email: None,
//!         age: 30,
//!         drink: Drink::Tea,
//!     })
//! );
//! ```
//!
//! # Field types
//!
//! | Rust type | property |
//! |---|---|
//! | `String` | `string` |
//! | `bool` | `boolean` |
//! | `i8`..`i64`, `u8`..`u64`, `isize`, `usize` | `integer`; types narrower than 64 bits add their own `minimum`/`maximum`, unsigned ones `minimum: 0` (content is always checked against the type's full range) |
//! | `f32`, `f64` | `number` |
//! | a fieldless enum deriving `Elicit` | single-select: `enum`, or `oneOf: [{const, title}]` when a variant has a title |
//! | `Vec`/`BTreeSet`/`HashSet` of such an enum | multi-select: `type: array` with `items.enum` or `items.anyOf` |
//! | `chrono::NaiveDate`, `chrono::DateTime<Utc \| FixedOffset>` (feature `chrono`) | `string` with `format: date` / `date-time` |
//! | `url::Url` (feature `url`) | `string` with `format: uri` |
//! | `Option<T>` of any of these | the same, not in `required` |
//!
//! A field is `required` unless it is an `Option` or has a `default`; omitted fields with a
//! `default` get it when content is read. Type aliases and paths work: what the derive cannot
//! see is checked through traits whose errors name the field's type and say what is allowed.
//!
//! # Attributes
//!
//! On the struct: `rename_all = ".."` (serde's rules; `#[serde(rename_all)]` is honoured too),
//! `title`, `description` (else the doc comment), `min_revision = "2025-06-18"` (the oldest
//! revision the form must render for: see [Revisions](#revisions)), `crate = "path"` (where
//! `mcp_typed` is).
//!
//! On an enum: `rename_all`, `crate`. On a variant: `rename`, `title`.
//!
//! On a field: `rename` (or `#[serde(rename)]`), `title`, `description` (else the doc
//! comment), `default`, `since = "2025-11-25"` (on a field that is not required: older
//! revisions leave it out, see [Revisions](#revisions)), and by type:
//! - strings: `min_length`, `max_length` (in Unicode code points), `format` (`email`, `uri`,
//!   `date`, `date-time`), `pattern` (a regex, unanchored as in JSON Schema; the spec's
//!   `StringSchema` has no `pattern`, so it is enforced when reading content but not sent);
//! - integers and numbers: `minimum`, `maximum`;
//! - multi-selects: `min_items`, `max_items`, `default = ["a", "b"]`;
//! - single-selects: `legacy_enum_names`, to send `enum` + `enumNames` (the spec's deprecated
//!   `LegacyTitledEnumSchema`) instead of `oneOf`;
//! - `not_sensitive`: allow a field name that looks like a secret (`password`, `token`,
//!   `api_key`, `credit_card`, `pin`, ...). Form mode must not ask for sensitive data: use
//!   [`UrlElicitation`] for that.
//!
//! Everything is checked at compile time, and every mistake is reported at once: unknown keys,
//! keys that do not fit the field's type, `min > max`, defaults of the wrong type, outside
//! their bounds or not among the enum's values, invalid patterns, unknown formats.
//!
//! # Revisions
//!
//! The form is described once, revision-neutrally, as a [`FormSchema`]; it renders to the
//! `requestedSchema` of each revision that has elicitation ([`FormSchema::render`]).
//!
//! What a revision has no place for but that only guides the user is left out, not refused:
//! 2025-06-18 allows a `default` on boolean fields only, so the defaults of other fields are
//! not sent there (they still fill omitted fields when content is read, in every revision),
//! and its titled single-selects become `enum` + `enumNames`.
//!
//! What a revision cannot express is refused with a [`RenderError`] naming every such field
//! at once ([`RenderError::fields`]): multi-selects in 2025-06-18 ("2025-06-18 cannot express
//! these fields: `extras` (multi-select enum), `tags` (multi-select enum); use 2025-11-25 or
//! later"), and in any revision a default that has no JSON value. Revisions before 2025-06-18
//! have no elicitation at all. [`ElicitTyped`] gives the same messages as the generated types
//! of a [`revision`].
//!
//! One struct serves every revision when the fields an older revision cannot express are
//! left out of it: `#[elicit(since = "2025-11-25")]` on a field that is not required (an
//! `Option`, or one with a `default`) leaves it out of the `requestedSchema` of revisions
//! before 2025-11-25 ([`FormSchema::fields_in`]); [`FormSchema::check`] does not look at it
//! there, and reading content is unchanged (the field is absent: `None`, or its default).
//! `#[elicit(min_revision = "2025-06-18")]` on the struct makes this a compile-time promise:
//! every field must be expressible in every revision from `min_revision` on (from its `since`
//! on), so a multi-select without `since` is a compile error naming the field, rather than a
//! [`RenderError`] at run time. Without `min_revision`, nothing is checked at compile time.
//!
//! ```
//! use mcp_typed::elicit::Elicit;
//! use mcp_typed::ProtocolVersion;
//!
//! #[derive(Elicit)]
//! enum Extra { Meal, Wifi }
//!
//! #[derive(Elicit)]
//! #[elicit(min_revision = "2025-06-18")]
//! struct Booking {
//!     name: String,
//!     #[elicit(since = "2025-11-25")] // a multi-select: 2025-06-18 has none
//!     extras: Option<Vec<Extra>>,
//! }
//!
//! let old = Booking::requested_schema().to_value(ProtocolVersion::V2025_06_18).unwrap();
//! assert_eq!(old["properties"].as_object().unwrap().len(), 1);
//! let new = Booking::requested_schema().to_value(ProtocolVersion::V2025_11_25).unwrap();
//! assert_eq!(new["properties"]["extras"]["type"], "array");
//! ```

pub mod client;
mod field;
mod request;
mod schema;
pub(crate) mod typed;
mod validate;
mod validated;

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
    Constraints, DefaultValue, EnumOption, FieldSchema, FieldType, FormSchema, Format,
    Inexpressible, InexpressibleField, Num, Pattern, RenderError, Rendered,
};
pub use typed::ElicitTyped;
pub use validated::Validated;

/// Revisions with elicitation as types, naming their generated types; used with
/// [`ElicitTyped`]: `Booking::typed_form_params::<revision::V2025_11_25>("..")`.
pub mod revision {
    pub use mcp_typed_runtime::elicitation::{InputRevision, Revision, UrlRevision};
    // The markers, generated with the types. Empty when no revision with elicitation is
    // enabled.
    #[allow(unused_imports)]
    pub use mcp_typed_types::elicitation::*;
}
pub use validate::{
    ContentError, Violation, ViolationKind, format_matches, is_date_time, is_email, is_full_date,
    is_idn_email, is_uri, validate,
};

pub use mcp_typed_macros::Elicit;

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
            return Err(RenderError::unsupported(
                version,
                "input requests (InputRequiredResult) exist from 2026-07-28 on; send an \
                 elicitation/create request instead",
            ));
        }
        Self::elicit_request(message, version)
    }

    /// Reads an `ElicitResult` (any revision's generated type, an `InputResponses` entry, or
    /// a `serde_json::Value`): accepted content is checked with [`Elicit::from_content`].
    fn outcome(result: &impl Serialize) -> Result<ElicitOutcome<Self>, OutcomeError> {
        request::outcome(result)
    }
}
