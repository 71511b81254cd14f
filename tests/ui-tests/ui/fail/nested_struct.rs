use mcp_typed::Elicit;

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
