use mcp_typed::ProtocolVersion;
use mcp_typed::elicit::{Elicit, ElicitOutcome};

#[derive(Elicit, Debug, PartialEq)]
#[elicit(rename_all = "snake_case")]
enum Extra {
    Meal,
    Wifi,
}

type Extras = Vec<Extra>;

#[derive(Elicit, Debug, PartialEq)]
#[elicit(min_revision = "2025-06-18")]
struct Booking {
    name: String,
    #[elicit(since = "2025-11-25", min_items = 1)]
    extras: Option<Vec<Extra>>,
    #[elicit(since = "2025-11-25", default = ["wifi"])]
    picks: Extras,
    #[elicit(since = "2026-07-28", default = 2)]
    guests: u8,
}

// A form that serves 2025-11-25 on may have multi-selects anywhere.
#[derive(Elicit, Debug, PartialEq)]
#[elicit(min_revision = "2025-11-25")]
struct Later {
    extras: Vec<Extra>,
    #[elicit(since = "2025-11-25")]
    more: Option<Extras>,
}

// `since` without `min_revision`.
#[derive(Elicit, Debug, PartialEq)]
struct Plain {
    #[elicit(since = "DRAFT-2026-v1")]
    note: Option<String>,
}

fn main() {
    for version in ProtocolVersion::ALL
        .into_iter()
        .filter(|v| *v >= ProtocolVersion::V2025_06_18)
    {
        Booking::form_params("m", version).unwrap();
        Plain::form_params("m", version).unwrap();
    }
    let schema = Booking::requested_schema()
        .to_value(ProtocolVersion::V2025_06_18)
        .unwrap();
    assert_eq!(schema["properties"].as_object().unwrap().len(), 1);
    assert!(Later::form_params("m", ProtocolVersion::V2025_06_18).is_err());
    Later::form_params("m", ProtocolVersion::V2025_11_25).unwrap();
    let answer = serde_json::json!({"action": "accept", "content": {"name": "Ada"}});
    assert_eq!(
        Booking::outcome(&answer).unwrap(),
        ElicitOutcome::Accepted(Booking {
            name: "Ada".into(),
            extras: None,
            picks: vec![Extra::Wifi],
            guests: 2,
        })
    );
}
