use mcp_typed::Elicit;

#[derive(Elicit)]
enum Extra {
    Meal,
    Wifi,
}

#[derive(Elicit)]
struct Form {
    #[elicit(min_items = 2, max_items = 1)]
    extras: Vec<Extra>,
}

fn main() {}
