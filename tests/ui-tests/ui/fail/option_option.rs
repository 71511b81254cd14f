use mcp_types::Elicit;

#[derive(Elicit)]
struct Form {
    nickname: Option<Option<String>>,
}

fn main() {}
