//! Typed conversions into the generated types of each revision.
//!
//! The derive renders JSON; these read it back as the revision's generated types (which is
//! also how the tests prove that every rendered schema is one the revision accepts).

use serde::de::DeserializeOwned;

use super::request::to_typed;
use super::{Elicit, RenderError, UrlElicitation};
use crate::ProtocolVersion;

pub use mcp_typed_runtime::elicitation::{InputRevision, Revision, UrlRevision};

fn convert<T: DeserializeOwned>(
    value: &impl serde::Serialize,
    version: ProtocolVersion,
) -> Result<T, RenderError> {
    to_typed(value).map_err(|e| {
        RenderError::unsupported(
            version,
            format!("the generated type rejects the rendered JSON: {e}"),
        )
    })
}

// The revisions with elicitation (the types implementing `Revision`, `UrlRevision` and
// `InputRevision`) are generated from each revision's schema: `mcp_typed_types::elicitation`.

/// Typed forms of [`Elicit`]'s messages, for a [`Revision`]. Implemented for every
/// `T: Elicit`.
pub trait ElicitTyped: Elicit {
    /// The `requestedSchema` as `R`'s generated type.
    fn typed_requested_schema<R: Revision>() -> Result<R::RequestedSchema, RenderError> {
        let rendered = Self::requested_schema().render(R::VERSION)?;
        convert(&rendered, R::VERSION)
    }

    /// The form-mode `elicitation/create` params as `R`'s generated type.
    fn typed_form_params<R: Revision>(
        message: impl Into<String>,
    ) -> Result<R::FormParams, RenderError> {
        convert(&Self::form_params(message, R::VERSION)?, R::VERSION)
    }

    /// The `InputRequiredResult.inputRequests` entry as `R`'s generated `InputRequest`.
    fn typed_input_request<R: InputRevision>(
        message: impl Into<String>,
    ) -> Result<R::InputRequest, RenderError> {
        convert(&Self::input_request(message, R::VERSION)?, R::VERSION)
    }
}

impl<T: Elicit> ElicitTyped for T {}

impl UrlElicitation {
    /// The `ElicitRequestURLParams` as `R`'s generated type.
    pub fn typed_params<R: UrlRevision>(&self) -> Result<R::UrlParams, RenderError> {
        convert(&self.params(R::VERSION)?, R::VERSION)
    }
}
