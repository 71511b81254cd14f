use mcp_types::Elicit;

#[derive(Elicit)]
struct Item {
    name: String,
}

#[derive(Elicit)]
struct Form {
    items: Vec<Item>,
}

fn main() {}
