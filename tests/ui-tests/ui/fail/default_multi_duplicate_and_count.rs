use mcp_typed::Elicit;

#[derive(Elicit)]
enum Extra {
    Meal,
    Wifi,
}

#[derive(Elicit)]
struct Form {
    #[elicit(max_items = 1, default = ["Meal", "Meal"])]
    extras: Vec<Extra>,
}

fn main() {}
