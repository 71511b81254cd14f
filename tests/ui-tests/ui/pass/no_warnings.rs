#![deny(warnings, unused, clippy::all)]

use mcp_typed::Elicit;

/// A documented form.
#[derive(Elicit)]
pub struct Form {
    /// Documented field.
    pub name: String,
    /// Another.
    #[elicit(default = 3)]
    pub count: u8,
}

/// A documented enum.
#[derive(Elicit)]
pub enum Choice {
    /// A.
    A,
}

/// No fields.
#[derive(Elicit)]
pub struct Nothing {}

fn main() {
    let _ = Form::requested_schema();
    let _ = Nothing::from_content(&serde_json::Map::new());
    let _ = Choice::A;
}
