//! The elicitation content check: `Elicit::from_content` (validate and convert in one step)
//! against what a user of a generic validator does, the `jsonschema` crate validating the
//! content against the form's rendered `requestedSchema` followed by serde.

use mcp_typed::Elicit;
use serde::Deserialize;
use serde_json::{Map, Value, json};

/// A booking form with one field of each kind a form can hold.
#[derive(Elicit, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Booking {
    /// Guest name
    #[elicit(min_length = 1, max_length = 80)]
    pub name: String,
    /// Where the confirmation goes
    #[elicit(format = "email")]
    pub email: String,
    /// Arrival date
    #[elicit(format = "date")]
    pub arrival: String,
    /// Number of guests
    #[elicit(minimum = 1, maximum = 12)]
    pub guests: i64,
    /// Budget per night
    #[elicit(minimum = 0)]
    pub budget: f64,
    /// Breakfast included?
    pub breakfast: bool,
    /// Room kind
    pub room: Room,
    /// Extras
    #[elicit(max_items = 3)]
    pub extras: Vec<Extra>,
    /// Reference code
    #[elicit(pattern = "^[A-Z]{3}-[0-9]{4}$")]
    pub reference: String,
}

/// A room kind.
#[derive(Elicit, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum Room {
    Single,
    Double,
    Suite,
}

/// An extra.
#[derive(Elicit, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum Extra {
    Parking,
    Crib,
    Pets,
    Spa,
}

/// Content a client sends back for [`Booking`].
pub fn content() -> Map<String, Value> {
    match json!({
        "name": "Ada Lovelace",
        "email": "ada@example.com",
        "arrival": "2026-12-24",
        "guests": 2,
        "budget": 180.5,
        "breakfast": true,
        "room": "double",
        "extras": ["parking", "spa"],
        "reference": "ABC-1234"
    }) {
        Value::Object(map) => map,
        _ => unreachable!("a JSON object literal"),
    }
}

/// The form's `requestedSchema` as JSON, for a generic validator.
pub fn requested_schema() -> Value {
    serde_json::to_value(Booking::requested_schema()).expect("a form schema encodes")
}

/// A `jsonschema` validator for the form (formats checked, as `from_content` does).
pub fn validator() -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(&requested_schema())
        .expect("the rendered requestedSchema is a valid JSON Schema")
}

/// `from_content`: validate and convert. (Never inlined, so that callgrind sees each call.)
#[inline(never)]
pub fn with_elicit(content: &Map<String, Value>) -> Option<Booking> {
    Booking::from_content(content).ok()
}

/// `jsonschema` validation, then serde (from the borrowed value: no copy). (Never inlined.)
#[inline(never)]
pub fn with_jsonschema(validator: &jsonschema::Validator, content: &Value) -> Option<Booking> {
    if !validator.is_valid(content) {
        return None;
    }
    Booking::deserialize(content).ok()
}
