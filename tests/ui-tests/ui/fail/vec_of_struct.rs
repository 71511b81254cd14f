use mcp_typed::Elicit;

#[derive(Elicit)]
struct Item {
    name: String,
}

#[derive(Elicit)]
struct Form {
    items: Vec<Item>,
}

fn main() {}
