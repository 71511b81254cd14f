#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod formats;
pub mod sensitive;

pub use formats::Format;
pub use sensitive::{SENSITIVE_PAIRS, SENSITIVE_WORDS, sensitive_name};

// `ProtocolVersion`: written by `mcp-typed-codegen generate` from `schema/manifest.json`
// (`revisions.rs`, marked `@generated`), with its hand-written methods beside it.
#[rustfmt::skip]
mod revisions;
pub use revisions::ProtocolVersion;

mod protocol_version;
pub use protocol_version::UnknownProtocolVersion;
