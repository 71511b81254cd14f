use mcp_typed::Elicit;

#[derive(Elicit)]
enum Size {
    #[elicit(description = "Small size")]
    Small,
    Large,
}

fn main() {}
