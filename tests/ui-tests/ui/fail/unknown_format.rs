use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(format = "phone")]
    phone_number: String,
}

fn main() {}
