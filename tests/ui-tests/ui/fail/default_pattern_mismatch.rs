use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(pattern = "^[a-z]+$", default = "ABC")]
    handle: String,
}

fn main() {}
