//! The README's two whole programs, `tests/examples/first-server.rs` ("Serving several
//! revisions") and the client side of `first-client.rs` ("Writing a client"): shown in the
//! README as they are, and the server driven over stdio by a `Connection` at every revision
//! with forms, its form answered through the form model (no real peer needed; the client is
//! run against server-everything in `tests/tests/peers/everything_client.rs`).

use std::process::Command;

use mcp_typed::ProtocolVersion;
use mcp_typed::elicit::client::{Form, FormReply};
use mcp_typed::session::{ClientHandler, ClientInfo, ClientSession, Connection};
use mcp_typed::v2025_11_25 as mcp;

const README: &str = include_str!("../../../README.md");

#[test]
fn the_readme_shows_both_programs_whole_and_under_40_lines() {
    for (name, text) in [
        (
            "first-server.rs",
            include_str!("../../examples/first-server.rs"),
        ),
        (
            "first-client.rs",
            include_str!("../../examples/first-client.rs"),
        ),
    ] {
        assert!(
            README.contains(text),
            "README.md shows tests/examples/{name} as it is"
        );
        assert!(
            text.lines().count() < 40,
            "{name}: {} lines",
            text.lines().count()
        );
    }
}

/// Answers the one form with `count`.
struct Answers(i64);

impl ClientHandler for Answers {
    fn form(&mut self, form: &Form) -> FormReply {
        let mut answer = form.answer();
        answer.set_integer("count", self.0).unwrap();
        answer.accept().unwrap_or(FormReply::Cancel)
    }
}

#[test]
fn the_readme_server_asks_its_form_in_every_revision_with_forms() {
    let server = mcp_tests::example_binary("mcp-tests", "first-server", &[]);
    for version in [
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ] {
        for (count, said) in [(4, "Booked for 4."), (40, "Not booked.")] {
            let info = ClientInfo::new(mcp::Implementation::new("readme", "1"))
                .with_versions([version])
                .with_forms();
            let session = ClientSession::new(info, Answers(count));
            let mut client = Connection::spawn(&mut Command::new(&server), session).unwrap();
            assert_eq!(client.server().version, version);
            let tools = client.list_tools().unwrap();
            assert_eq!(tools[0].description.as_deref(), Some("Books a table"));
            let result = client.call_tool("book", &()).unwrap();
            let text = serde_json::to_value(&result.content).unwrap()[0]["text"].clone();
            assert_eq!(text, said, "{version}, {count} guests");
            assert!(client.close().unwrap().unwrap().success());
        }
    }
}
