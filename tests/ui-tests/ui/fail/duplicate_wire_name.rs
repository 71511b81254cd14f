use mcp_typed::Elicit;

#[derive(Elicit)]
#[elicit(rename_all = "camelCase")]
struct Form {
    first_name: String,
    #[elicit(rename = "firstName")]
    given_name: String,
}

fn main() {}
