use mcp_types::Elicit;

const NAME: &str = "Ada";

#[derive(Elicit)]
struct Form {
    #[elicit(default = NAME)]
    name: String,
}

fn main() {}
