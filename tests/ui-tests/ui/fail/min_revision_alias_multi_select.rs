use mcp_typed::Elicit;

#[derive(Elicit)]
enum Extra {
    Meal,
    Wifi,
}

// The derive cannot see that this is a multi-select: a constant check finds it.
type Extras = Vec<Extra>;

#[derive(Elicit)]
#[elicit(min_revision = "2025-06-18")]
struct Form {
    extras: Extras,
    maybe: Option<Extras>,
    #[elicit(since = "2025-11-25")]
    later: Option<Extras>,
}

fn main() {}
