use mcp_typed::Elicit;

type Pair = (u8, u8);
type Names = Option<String>;

#[derive(Elicit)]
struct Form {
    pair: Pair,
    names: Names,
}

fn main() {}
