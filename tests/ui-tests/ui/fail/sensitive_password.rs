use mcp_typed::Elicit;

#[derive(Elicit)]
struct Login {
    user: String,
    password: String,
}

fn main() {}
