use mcp_types::Elicit;

#[derive(Elicit)]
#[elicit(title = "Sizes")]
enum Size {
    Small,
    Large,
}

fn main() {}
