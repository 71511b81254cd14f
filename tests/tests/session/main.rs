//! Whole sessions, offline: `mcp_typed::session::Codec` on the captured real traffic and on
//! random forms, `tests/examples/booking-server.rs` driven over a pipe as a client would, and
//! what `ServerSession` decides for a handler (`server_rules`).
//! One test binary (`cargo test -p mcp-tests --test session`).

mod booking_server;
mod client_session;
mod readme_programs;
mod server_rules;
mod session_codec;
