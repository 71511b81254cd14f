//! Support code called by the generated (de)serializers.
//!
//! Generated code (in this crate or in a crate whose `build.rs` runs `mcp-typed-codegen`) refers to
//! these items by path. They are public so that such code compiles, but they are not part of
//! the API a user calls directly, and may change together with the generator.
//!
//! The decoding model: every generated object type has a *builder* ([`ObjectBuilder`]) that
//! receives one field at a time, straight from the deserializer's [`MapAccess`](serde::de::MapAccess). Unions that
//! carry a discriminator (`method`, `type`, `mode`…) read keys until they meet the
//! discriminator, pick the variant's builder, hand it the few fields read before the
//! discriminator, and stream every remaining field into it. Nothing is buffered when the
//! discriminator comes first, which is how every encoder in this crate writes it.
//!
//! By concern: [`objects`] (the builder of each object type and its field helpers),
//! [`unions`] (tagged and shape-told unions), [`messages`] (one message per direction, raw
//! results), [`encoding`] (writing unknown members and envelopes back). Everything is
//! re-exported here flat, because generated code names it `runtime::X`. What users call
//! lives in documented modules: [`crate::unknowns`], [`crate::traits`].

pub mod encoding;
pub mod messages;
pub mod objects;
pub mod unions;

pub use encoding::*;
pub use messages::*;
pub use objects::*;
pub use unions::*;

pub use crate::decode::DecodeError;
pub use crate::tools::{ArgumentsError, arguments_as};
pub use crate::traits::*;
pub use crate::unknowns::*;
pub use indexmap::IndexMap;
pub use serde;
pub use serde_json;
pub use serde_json::value::RawValue;
pub use serde_json::{Map, Number, Value};
