use mcp_typed::Elicit;

type Small = u8;

#[derive(Elicit)]
enum Seating {
    Window,
    Aisle,
}
type Seat = Seating;

#[derive(Elicit)]
struct Form {
    #[elicit(default = 300)]
    small: Small,
    #[elicit(default = "Middle")]
    seat: Seat,
    #[elicit(default = true)]
    other: Seat,
    #[elicit(minimum = 1)]
    seat_again: Seat,
}

fn main() {}
