use mcp_typed::Elicit;

const NAME: &str = "Ada";

#[derive(Elicit)]
struct Form {
    #[elicit(default = NAME)]
    name: String,
}

fn main() {}
