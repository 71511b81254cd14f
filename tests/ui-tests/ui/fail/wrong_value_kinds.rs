use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(title = 5, min_length = -1, max_length = "3", minimum = "one")]
    name: String,
}

fn main() {}
