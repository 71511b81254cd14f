use mcp_types::Elicit;

#[derive(Elicit)]
struct Form<T> {
    value: T,
}

fn main() {}
