use mcp_typed::Elicit;

use std::collections::HashMap;

#[derive(Elicit)]
struct Form {
    labels: HashMap<String, String>,
}

fn main() {}
