#![doc = include_str!("../README.md")]
//!
//! # What is here
//!
//! For users: [`Unknowns`] (what a decoded value holds beyond its revision), the traits every
//! generated type implements ([`RequestMethod`], [`NotificationMethod`], [`DefinitionVisitor`],
//! [`ToolSchema`]), [`ResultResponse`] (a response kept raw until typed, or typed as it is read when
//! [`Awaiting`] says which request it answers), [`DecodeError`] (a
//! line that did not decode, with the reply owed for it), [`convert`] (moving a value between
//! revisions, or to another crate's model), [`ProtocolVersion`], [`elicitation`] (the revisions
//! with elicitation as types) and [`tools`] (typed tool arguments and outputs).
//!
//! For generated code: the support its (de)serializers call, re-exported flat at the crate
//! root because generated code names it `mcp_typed_runtime::X`. It is public so that such
//! code compiles, but it is not part of the API a user calls directly, and may change together
//! with the generator; the docs hide it.
//!
//! The decoding model ([`pull`]): one decoder on a pull parser (jiter) that every generated
//! type's decoder calls — one object loop, one array loop, one string and number reader, one
//! open-JSON builder — so that per type only a key table and the code storing each member
//! are generated. Unions read their tag and continue the member's object from there (one
//! pass when the tag comes first, as every encoder writes it); unions told apart by their
//! members read the object, score the members, and decode the chosen one from the object's
//! start. serde stays the contract: every generated `Deserialize` hands the value's JSON text
//! to the same decoder ([`pull::deserialize`]). By concern: `pull` (the decoder), `json`
//! (JSON text, the serde bridge's input, kind checks), `messages` (one message per direction,
//! raw results), `encoding` (writing unknown members and envelopes back).

#![deny(missing_docs)]

// serde's traits without its derive support, under the name the code and generated code use
// (`serde` re-exports these same traits); the unit tests, which derive, get serde itself from
// the dev-dependencies.
#[cfg(not(test))]
#[doc(hidden)]
pub extern crate serde_core as serde;
#[cfg(test)]
#[doc(hidden)]
pub use serde;

pub mod convert;
mod decode;
pub mod elicitation;
mod extra;
pub(crate) mod object;
mod ser;
pub mod tools;
pub mod traits;
pub mod unknowns;

#[doc(hidden)]
pub mod encoding;
#[doc(hidden)]
pub mod json;
#[doc(hidden)]
pub mod messages;
#[doc(hidden)]
pub mod pull;

pub use decode::DecodeError;
pub use extra::Extra;
pub use json::RawJson;
pub use mcp_typed_rules::{ProtocolVersion, UnknownProtocolVersion};
pub use messages::{Awaiting, Awaits, ResultResponse, ResultType};
pub use object::JsonObject;
/// The shared decoder's trait: every generated type implements it (see [`pull`]).
pub use pull::Decode;
pub use ser::{Plain, to_string, to_vec, to_writer};
pub use tools::{ArgumentsError, ToolOutputError};
pub use traits::{DefinitionVisitor, NotificationMethod, RequestMethod, ToolSchema};
pub use unknowns::{JsonPath, Unknown, UnknownKind, Unknowns};

/// The map types the generated types use, for building values: [`IndexMap`] for typed maps
/// (`additionalProperties` with a schema), [`JsonObject`] for open objects, [`Map`] and
/// [`Value`] for raw JSON ([`Extra`], a
/// `Map` that takes no room until used, for the members a type does not declare). All keep
/// member order.
pub use indexmap::IndexMap;
pub use serde_json::{Map, Number, Value};

// What generated code calls, by path: everything flat.
#[doc(hidden)]
pub use encoding::*;
#[doc(hidden)]
pub use json::*;
#[doc(hidden)]
pub use messages::*;
#[doc(hidden)]
pub use serde_json;
#[doc(hidden)]
pub use serde_json::value::RawValue;
#[doc(hidden)]
pub use tools::arguments_as;
#[doc(hidden)]
pub use unknowns::*;
