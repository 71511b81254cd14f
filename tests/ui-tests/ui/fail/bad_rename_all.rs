use mcp_typed::Elicit;

#[derive(Elicit)]
#[elicit(rename_all = "camel")]
struct Form {
    first_name: String,
}

fn main() {}
