//! Whole sessions, offline: `mcp_typed::session::Codec` on the captured real traffic and on
//! random forms, and `tests/examples/booking-server.rs` driven over a pipe as a client would.
//! One test binary (`cargo test -p mcp-tests --test session`).

mod booking_server;
mod session_codec;
