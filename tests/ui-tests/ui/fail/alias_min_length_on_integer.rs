use mcp_typed::Elicit;

type Count = u32;

#[derive(Elicit)]
struct Form {
    #[elicit(min_length = 1)]
    count: Count,
}

fn main() {}
