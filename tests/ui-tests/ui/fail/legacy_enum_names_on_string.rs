use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(legacy_enum_names)]
    name: String,
}

fn main() {}
