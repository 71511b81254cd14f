#![doc = include_str!("../README.md")]
//!
//! # Guarantees
//!
//! What the generated types guarantee:
//! - `const` members (`jsonrpc`, `method`, content `type`…) are checked when decoding and
//!   written when encoding; they are not fields, so they cannot be set wrong.
//! - Unions decode by their discriminator (`method`, `type`, `mode`…) or, where the schema
//!   has none, by the properties present — never by trying variants in turn. A tag value the
//!   revision does not define is kept whole: an unknown `method` in the union's `Custom`
//!   variant, any other unknown tag (a newer revision's content type…) in `Unknown`.
//! - Nothing is lost in a decode/encode round trip: unknown members are kept (`extra`),
//!   `{}` stays `{}`, integers stay integers (`number` is [`serde_json::Number`]), `null`
//!   stays distinct from an absent member, and member order is kept.
//! - Strict in what is sent, lossless in what is accepted: [`Unknowns::unknowns`] tells
//!   what a decoded value holds beyond its revision.
//! - Where the official schema contradicts what real peers send, the project's errata apply
//!   (`schema/errata.json`: decimal elicitation answers, `"id": null` error responses…).
//! - Request types implement [`RequestMethod`] (method, params and result type), and
//!   notifications [`NotificationMethod`].

#![deny(missing_docs)]

// The runtime the generated code calls (crate `mcp-typed-runtime`), and what users use of it,
// under the names it always had here. `runtime` stays for modules generated with the old
// default runtime path `::mcp_typed::runtime`. A module of glob re-exports rather than
// `pub use mcp_typed_runtime as runtime`: re-exporting the crate itself makes rustc write
// `std::option::Option<…>` instead of `Option<…>` in users' error messages.
#[doc(hidden)]
pub mod runtime {
    pub use mcp_typed_runtime::*;
}
pub use mcp_typed_runtime::{convert, tools, traits, unknowns};

pub use mcp_typed_runtime::{Awaiting, Awaits, ResultResponse, ResultType};
pub use traits::{DefinitionVisitor, NotificationMethod, RequestMethod, ToolSchema};
pub use unknowns::{JsonPath, Unknown, UnknownKind, Unknowns};

/// The map types the generated types use, for building values: [`IndexMap`] for typed maps
/// (`additionalProperties` with a schema), [`JsonObject`] for open objects (`_meta`,
/// `arguments`, `structuredContent`: kept as their text until read, then a [`Map`]), [`Map`]
/// and [`Value`] for raw JSON, [`Extra`] for the members a type does not declare (a `Map` that
/// takes no room until used). All keep member order.
pub use mcp_typed_runtime::IndexMap;
pub use mcp_typed_runtime::{Extra, JsonObject, Map, Number, Value};
/// JSON text as serde_json's functions of the same names write it, byte for byte, faster
/// (strings scanned sixteen bytes at a time): for messages and any other `Serialize` value.
pub use mcp_typed_runtime::{to_string, to_vec, to_writer};

// The generated code (crate `mcp-typed-types`, folder `generated/`): one module per revision
// (behind its feature), `latest`, the conversions between revisions. Everything in it is
// written by `mcp-typed-codegen generate` from `schema/manifest.json`.
// Without a revision feature (`--no-default-features --features elicit`) the glob brings
// nothing public.
#[allow(unused_imports)]
pub use mcp_typed_types::*;

pub use mcp_typed_runtime::DecodeError;

// `ProtocolVersion` is generated into `mcp-typed-rules` (the derive reads revisions with it).
pub use mcp_typed_runtime::{ProtocolVersion, UnknownProtocolVersion};

#[cfg(feature = "check")]
pub mod check;
#[cfg(feature = "elicit")]
pub mod elicit;
#[cfg(feature = "rmcp")]
pub mod rmcp;
#[cfg(feature = "elicit")]
pub use elicit::{ContentError, Elicit, ElicitEnum, ElicitOutcome, FormSchema, RenderError};

#[cfg(feature = "session")]
pub mod session;

pub use tools::{ArgumentsError, ToolOutputError};
