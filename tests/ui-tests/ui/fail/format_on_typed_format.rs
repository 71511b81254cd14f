use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(format = "date")]
    day: chrono::NaiveDate,
}

fn main() {}
