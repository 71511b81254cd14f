use mcp_typed::Elicit;

#[derive(Elicit)]
#[elicit(min_length = 1, title = "Form")]
struct Form {
    name: String,
}

fn main() {}
