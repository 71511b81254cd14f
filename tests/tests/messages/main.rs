//! The generated types and messages, offline: decoding, encoding, constructors, conversions
//! between revisions, the official examples and schemas, untrusted input and its cost, and the
//! rmcp adapter. One test binary (`cargo test -p mcp-tests --test messages`).
//!
//! `input_limits` installs a counting `#[global_allocator]` for the whole binary; it counts per
//! thread, so the other modules' tests running beside it do not change its numbers.

mod awaited_results;
mod constructors;
mod conversion_props;
mod convert;
mod decoder_oracle;
mod fuzz_regressions;
mod input_limits;
mod lossless_decoding;
mod message_robustness;
mod messages;
mod pitfalls;
mod rmcp_adapter;
mod schema_props;
// `pub`: the snapshot's types and constructors count as used, as at the root of a crate of
// their own; `shapes` checks them under `#![deny(warnings)]` and calls only some of them.
pub mod shapes;
mod spec_examples;
mod string_members;
