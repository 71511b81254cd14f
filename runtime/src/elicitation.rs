//! The revisions with elicitation as types: each names its generated form, params and result
//! types, so that code can be generic over them (`mcp_typed::elicit::ElicitTyped`). The
//! markers that implement these traits are generated with each revision's types
//! (`mcp_typed::elicit::revision`).

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::ProtocolVersion;

/// Implemented by generated revision markers only; not a trait to implement by hand.
#[doc(hidden)]
pub mod sealed {
    /// Only the generated revision markers implement [`Revision`](super::Revision).
    pub trait Sealed {}
}

/// A revision with elicitation, as a type: names its generated types.
pub trait Revision: sealed::Sealed {
    /// The revision.
    const VERSION: ProtocolVersion;
    /// The type of `requestedSchema`.
    type RequestedSchema: DeserializeOwned;
    /// The params of a form-mode `elicitation/create`.
    type FormParams: DeserializeOwned;
    /// `ElicitResult`, the client's answer.
    type ElicitResult: DeserializeOwned + Serialize;
}

/// A revision with URL-mode elicitation.
pub trait UrlRevision: Revision {
    /// `ElicitRequestURLParams`.
    type UrlParams: DeserializeOwned;
}

/// A revision where servers ask for input by returning `InputRequiredResult`.
pub trait InputRevision: Revision {
    /// A value of `InputRequests`.
    type InputRequest: DeserializeOwned;
}
