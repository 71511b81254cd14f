use mcp_types::Elicit;

#[derive(Elicit)]
#[elicit(min_length = 1, title = "Form")]
struct Form {
    name: String,
}

fn main() {}
