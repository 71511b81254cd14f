use mcp_types::Elicit;

#[derive(Elicit)]
struct Address {
    street: String,
}

#[derive(Elicit)]
struct Person {
    name: String,
    address: Address,
}

fn main() {}
