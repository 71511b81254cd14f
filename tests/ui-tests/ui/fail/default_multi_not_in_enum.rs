use mcp_typed::Elicit;

#[derive(Elicit)]
enum Extra {
    Meal,
    Wifi,
}

#[derive(Elicit)]
struct Form {
    #[elicit(default = ["Meal", "Pool"])]
    extras: Vec<Extra>,
}

fn main() {}
