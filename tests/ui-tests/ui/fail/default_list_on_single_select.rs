use mcp_typed::Elicit;

#[derive(Elicit)]
enum Seating {
    Window,
    Aisle,
}

#[derive(Elicit)]
struct Form {
    #[elicit(default = ["Window"])]
    seating: Seating,
}

fn main() {}
