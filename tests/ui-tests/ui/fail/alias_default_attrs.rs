use mcp_typed::Elicit;

type Name = String;
type Count = u8;

#[derive(Elicit)]
struct Form {
    #[elicit(pattern = "^[a-z]+$", max_length = 2, default = "ABC")]
    name: Name,
    #[elicit(maximum = 10, default = 11)]
    count: Count,
}

fn main() {}
