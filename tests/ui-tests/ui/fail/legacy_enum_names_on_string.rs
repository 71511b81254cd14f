use mcp_types::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(legacy_enum_names)]
    name: String,
}

fn main() {}
