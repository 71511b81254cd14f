#![doc = include_str!("../README.md")]
//!
//! # The library
//!
//! The commands live in the binary (`src/main.rs`, one module per command); the library holds
//! what a program or a test can call without running it: [`tools_client`], the MCP client
//! behind `mcp-typed tools --server` and `--url`; [`http`], the Streamable HTTP transport it
//! runs a client session over (any [`mcp_typed::session::ClientSession`] can); [`arguments`], a
//! tool's arguments made from its input schema (a valid value, and an invalid one with what is
//! wrong with it).

#![deny(missing_docs)]

pub mod arguments;
pub mod http;
pub mod tools_client;
