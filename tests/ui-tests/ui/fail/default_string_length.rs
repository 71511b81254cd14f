use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(max_length = 5, default = "much too long")]
    name: String,
    #[elicit(min_length = 3, default = "ab")]
    code: String,
}

fn main() {}
