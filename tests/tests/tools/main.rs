//! Typed bindings for a server's tools: those `build.rs` generates from captured tool lists, and
//! `mcp-typed tools --url` against a live server over Streamable HTTP (the tests that call
//! server-everything need feature `interop`). One test binary (`cargo test -p mcp-tests --test
//! tools`).

// `pub`: the generated bindings count as used, as at the root of a crate of their own;
// `tool_bindings` checks them under `#![deny(warnings)]` and uses only some of them.
pub mod tool_bindings;
mod tools_http;
