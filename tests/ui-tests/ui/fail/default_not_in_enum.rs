use mcp_typed::Elicit;

#[derive(Elicit)]
#[elicit(rename_all = "lowercase")]
enum Seating {
    Window,
    Aisle,
}

#[derive(Elicit)]
struct Form {
    #[elicit(default = "Window")]
    seating: Seating,
}

fn main() {}
