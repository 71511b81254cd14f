use mcp_types::Elicit;

#[derive(Elicit)]
enum Size {
    #[elicit(description = "Small size")]
    Small,
    Large,
}

fn main() {}
