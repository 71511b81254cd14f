use mcp_typed::elicit::ElicitOutcome;
use mcp_typed::{Elicit, ProtocolVersion};

#[derive(Elicit, Debug)]
#[elicit(rename_all = "camelCase")]
struct Booking {
    /// Date you want instead (doc comment → "description")
    #[elicit(title = "Alternative date", format = "date")]
    alternative_date: String,
    #[elicit(default = true)]
    check_alternative: bool,
    #[elicit(min_length = 1, max_length = 50, pattern = "^[A-Za-z ]+$")]
    name: String,
    #[elicit(format = "email")]
    email: Option<String>,
    #[elicit(minimum = 1, maximum = 12, default = 2)]
    guests: u8,
    budget: Option<f64>,
    seating: Seating,
    #[elicit(min_items = 1, max_items = 2)]
    extras: Vec<Extra>,
}

#[derive(Elicit, Debug, PartialEq)]
enum Seating {
    #[elicit(title = "Window seat")]
    Window,
    #[elicit(title = "Aisle seat")]
    Aisle,
}

#[derive(Elicit, Debug, PartialEq)]
enum Extra {
    Meal,
    Wifi,
}

fn main() {
    let schema = serde_json::to_value(Booking::requested_schema()).unwrap();
    assert_eq!(schema["properties"]["guests"]["maximum"], 12);
    Booking::form_params("When?", ProtocolVersion::V2025_11_25).unwrap();
    let result = serde_json::json!({
        "action": "accept",
        "content": {"alternativeDate": "2025-01-31", "name": "Ada", "seating": "Aisle", "extras": ["Wifi"]}
    });
    match Booking::outcome(&result).unwrap() {
        ElicitOutcome::Accepted(b) => {
            assert_eq!(b.seating, Seating::Aisle);
            assert_eq!(b.extras, vec![Extra::Wifi]);
            assert!(b.check_alternative && b.guests == 2 && b.email.is_none() && b.budget.is_none());
            assert_eq!((b.alternative_date.as_str(), b.name.as_str()), ("2025-01-31", "Ada"));
        }
        other => panic!("{other:?}"),
    }
}
