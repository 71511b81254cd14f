use mcp_typed::Elicit;

#[derive(Elicit)]
enum Choice {
    Plain,
    WithText(String),
    WithFields { count: u8 },
}

fn main() {}
