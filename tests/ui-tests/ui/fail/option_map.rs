use mcp_typed::Elicit;

use std::collections::BTreeMap;

#[derive(Elicit)]
struct Form {
    labels: Option<BTreeMap<String, u8>>,
}

fn main() {}
