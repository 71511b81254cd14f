//! `Validated<T>`: the derive's checks behind serde's `Deserialize`, and (feature `schemars`)
//! a `schemars::JsonSchema` whose schema is the form's `requestedSchema`, as rmcp's
//! `peer.elicit::<T>()` needs.

use crate::elicit_support::*;
use mcp_typed::Elicit;
use mcp_typed::elicit::Validated;
use schemars::JsonSchema;
use serde_json::json;

#[test]
fn deserializes_through_from_content() {
    let ok: Validated<Booking> = serde_json::from_value(json!({
        "alternativeDate": "2025-03-01", "name": "Ada", "seating": "Window", "extras": ["meal"]
    }))
    .unwrap();
    assert_eq!(ok.guests, 2, "defaults apply");
    assert_eq!(ok.into_inner().extras, vec![Extra::Meal]);

    let err = serde_json::from_value::<Validated<Booking>>(json!({"name": 5, "zzz": 1}))
        .unwrap_err()
        .to_string();
    for part in ["field `alternativeDate`", "field `name`", "field `zzz`"] {
        assert!(err.contains(part), "{err}");
    }
    assert!(serde_json::from_value::<Validated<Booking>>(json!([1])).is_err());
}

#[test]
fn json_schema_is_the_requested_schema() {
    let mut generator = schemars::SchemaGenerator::default();
    for (schema, form) in [
        (
            Validated::<Booking>::json_schema(&mut generator),
            Booking::requested_schema(),
        ),
        (
            Validated::<EverythingForm>::json_schema(&mut generator),
            EverythingForm::requested_schema(),
        ),
        (
            Validated::<Empty>::json_schema(&mut generator),
            Empty::requested_schema(),
        ),
    ] {
        assert_eq!(schema.as_value(), &serde_json::to_value(form).unwrap());
    }
    assert!(Validated::<Booking>::inline_schema());
    assert_eq!(Validated::<Booking>::schema_name(), "Booking");

    // As a root schema, schemars adds only its own `$schema` and `title`.
    let root = schemars::schema_for!(Validated<Booking>);
    let mut value = root.to_value();
    let object = value.as_object_mut().unwrap();
    assert!(object.remove("$schema").is_some());
    object.remove("title");
    assert_eq!(
        value,
        serde_json::to_value(Booking::requested_schema()).unwrap()
    );
}
