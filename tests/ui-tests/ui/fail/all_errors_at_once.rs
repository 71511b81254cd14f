use mcp_typed::Elicit;

#[derive(Elicit)]
#[elicit(rename_all = "shout")]
struct Form {
    #[elicit(min_length = 1)]
    age: u8,
    password: String,
    #[elicit(format = "phone")]
    phone: String,
    #[elicit(default = "x")]
    agree: bool,
    point: (u8, u8),
    #[elicit(colour = "red")]
    name: String,
}

fn main() {}
