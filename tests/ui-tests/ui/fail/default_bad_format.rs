use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(format = "email", default = "not-an-email")]
    email: String,
    #[elicit(format = "date", default = "2023-02-29")]
    day: String,
    #[elicit(format = "uri", default = "/relative")]
    homepage: String,
}

fn main() {}
