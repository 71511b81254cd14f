use mcp_typed::Elicit;

#[derive(Elicit)]
#[elicit(title = "Sizes")]
enum Size {
    Small,
    Large,
}

fn main() {}
