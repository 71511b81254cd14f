use mcp_typed::Elicit;

#[derive(Elicit)]
enum Size {
    Small,
    Large,
}

#[derive(Elicit)]
struct Form {
    #[elicit(min_items = 1)]
    size: Size,
}

fn main() {}
