//! Checking MCP traffic against the negotiated revision: the library (`mcp_typed::check`), its
//! `validate-traffic` example and the live proxy `mcp-typed check -- SERVER…` (whose tests run
//! real peers: feature `interop`). One test binary (`cargo test -p mcp-tests --test checker`).

mod check_capability_tables;
mod check_hardening;
mod check_lib;
mod check_proxy;
mod test_command;
mod validate_traffic;
