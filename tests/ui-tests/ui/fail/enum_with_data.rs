use mcp_types::Elicit;

#[derive(Elicit)]
enum Choice {
    Plain,
    WithText(String),
    WithFields { count: u8 },
}

fn main() {}
