#![doc = include_str!("../README.md")]
//!
//! # The library
//!
//! The commands live in the binary (`src/main.rs`, one module per command); the library holds
//! what a program or a test can call without running it: [`tools_client`], the MCP client
//! behind `mcp-typed tools --server` and `--url`, and [`http`], the Streamable HTTP transport
//! it runs a client session over (any [`mcp_typed::session::ClientSession`] can).

#![deny(missing_docs)]

pub mod http;
pub mod tools_client;
