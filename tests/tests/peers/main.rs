//! Runs against programs this repository does not build: the pinned MCP SDK peers (Node.js and
//! Python, `tests/peers/install.sh`), the official conformance suite and tmux. Every test here
//! but `conformance_suite::streamable_http_refusals_and_sessions` needs feature `interop`;
//! without it they are listed as ignored, each with what it needs. One test binary (`cargo test
//! -p mcp-tests --features interop --test peers`).

mod booking_peers;
mod client_http;
mod client_peers;
mod conformance_suite;
mod elicit_sdk_agreement;
mod elicit_terminal;
mod everything_client;
mod peers_install;
mod rmcp_server;
