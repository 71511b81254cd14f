//! The traits every revision's generated types implement, so that code can be generic over
//! requests, notifications, definitions and tool schemas of any revision.

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::unknowns::Unknowns;

/// A JSON-RPC request type: its method, parameters and result, linked at the type level.
pub trait RequestMethod {
    /// The `method` value.
    const METHOD: &'static str;
    /// The type of `params` as the schema declares it (an `Option` when optional).
    type Params;
    /// The `result` of a successful response.
    type Result;
    /// The request's parameters.
    fn params(&self) -> &Self::Params;
    /// Decodes this request's `result` from its JSON text (what
    /// [`ResultResponse::result_as`](crate::ResultResponse::result_as) calls).
    ///
    /// The generated requests implement it in the crate that holds them, out of line: a
    /// release build does not share generic code between crates, so
    /// `serde_json::from_str::<R::Result>` called from a user's crate would compile every
    /// result type's decoder again there.
    fn result_from_json(text: &str) -> serde_json::Result<Self::Result>
    where
        Self::Result: serde::de::DeserializeOwned,
    {
        serde_json::from_str(text)
    }

    /// The type this request's result decodes as, for the message decoder to decode it in
    /// the same pass as the response ([`Awaiting`](crate::Awaiting)); `None` (the default):
    /// the result is kept as text and decoded by [`result_from_raw`](Self::result_from_raw).
    /// The generated requests give their result type.
    fn result_type() -> Option<crate::ResultType> {
        None
    }

    /// This request's result from a response's raw `result`: the value decoded while the
    /// response was read, when the decoder was told this request's result type
    /// ([`result_type`](Self::result_type)), else decoded from the text
    /// ([`result_from_json`](Self::result_from_json)).
    fn result_from_raw(raw: crate::RawJson) -> serde_json::Result<Self::Result>
    where
        Self::Result: serde::de::DeserializeOwned,
    {
        Self::result_from_json(raw.get())
    }
}

/// A JSON-RPC notification type: its method and parameters.
pub trait NotificationMethod {
    /// The `method` value.
    const METHOD: &'static str;
    /// The type of `params` as the schema declares it (an `Option` when optional).
    type Params;
    /// The notification's parameters.
    fn params(&self) -> &Self::Params;
}

/// Receives the Rust type generated for a schema definition; see each revision module's
/// `with_definition`. Lets tools work on "the type of definition X" chosen at run time
/// (the conformance tests, `validate-traffic --definition`), at no cost unless used.
pub trait DefinitionVisitor {
    /// What the visit produces.
    type Output;
    /// Called with the definition's type as `T`.
    fn visit<T>(self, rust_name: &'static str) -> Self::Output
    where
        T: Serialize
            + serde::de::DeserializeOwned
            + fmt::Debug
            + Clone
            + PartialEq
            + Unknowns
            + crate::pull::Decode
            + 'static;
}

/// The type of a tool's `inputSchema` or `outputSchema` (each revision's `ToolInputSchema`…):
/// built from raw JSON or, with the `schemars` feature, from a Rust type, as rmcp users do.
pub trait ToolSchema: serde::de::DeserializeOwned {
    /// The schema from JSON; an error when it is not an object schema (`"type": "object"`).
    fn from_json(schema: Value) -> serde_json::Result<Self> {
        crate::from_json_value(&schema)
    }

    /// The JSON Schema that `schemars` derives for `T` (its `$schema`, `title`… kept as
    /// members); an error when `T` is not a struct-like type.
    #[cfg(feature = "schemars")]
    fn for_type<T: schemars::JsonSchema>() -> serde_json::Result<Self> {
        Self::from_json(schemars::schema_for!(T).to_value())
    }
}
