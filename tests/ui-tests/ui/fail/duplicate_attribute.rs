use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(title = "Name")]
    #[elicit(title = "Full name")]
    name: String,
}

fn main() {}
