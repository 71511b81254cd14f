use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    nickname: Option<Option<String>>,
}

fn main() {}
