use mcp_typed::Elicit;
use std::collections::BTreeSet;

#[derive(Elicit, PartialEq, Eq, PartialOrd, Ord)]
enum Extra {
    Meal,
    Wifi,
}

#[derive(Elicit)]
#[elicit(min_revision = "2025-06-18")]
struct Form {
    name: String,
    #[elicit(min_items = 1)]
    extras: Vec<Extra>,
    picks: BTreeSet<Extra>,
}

fn main() {}
