use mcp_types::Elicit;

#[derive(Elicit)]
struct Login {
    user: String,
    password: String,
}

fn main() {}
