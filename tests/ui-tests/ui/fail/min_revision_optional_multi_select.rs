use mcp_typed::Elicit;

#[derive(Elicit)]
enum Extra {
    Meal,
    Wifi,
}

#[derive(Elicit)]
#[elicit(min_revision = "2025-06-18")]
struct Form {
    name: String,
    // Optional, but 2025-06-18 cannot send it: it needs `since`.
    extras: Option<Vec<Extra>>,
    #[elicit(default = ["Meal"])]
    picks: Vec<Extra>,
    // Fine: left out of 2025-06-18.
    #[elicit(since = "2025-11-25")]
    more: Option<Vec<Extra>>,
}

fn main() {}
