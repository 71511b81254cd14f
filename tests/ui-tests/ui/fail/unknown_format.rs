use mcp_types::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(format = "phone")]
    phone_number: String,
}

fn main() {}
