use mcp_typed::Elicit;

// `idn-email` is JSON Schema's, and a client reads it in a received form, but the spec's
// StringSchema does not list it: the derive does not send it.
#[derive(Elicit)]
struct Form {
    #[elicit(format = "idn-email")]
    address: String,
}

fn main() {}
