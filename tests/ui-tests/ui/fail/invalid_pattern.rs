use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(pattern = "^[a-z+$")]
    handle: String,
}

fn main() {}
