use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(placeholder = "Your name", title = "Name")]
    name: String,
}

fn main() {}
