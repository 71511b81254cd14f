use mcp_types::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(format = "date")]
    day: chrono::NaiveDate,
}

fn main() {}
