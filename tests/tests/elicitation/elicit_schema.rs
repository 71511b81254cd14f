//! The schemas `#[derive(Elicit)]` emits: exact JSON, every revision's generated types and
//! official schema definitions, the everything server's form, and what older revisions
//! cannot express.

use crate::elicit_support::*;
use mcp_typed::ProtocolVersion::{self, *};
use mcp_typed::elicit::{
    ElicitTyped, FieldType, Inexpressible, InexpressibleField, UrlElicitation,
    url_elicitation_required_error,
};
use mcp_typed::{Elicit, FormSchema};
use serde_json::{Value, json};

const FORM_REVISIONS: [ProtocolVersion; 3] = [V2025_11_25, V2026_07_28, Draft];

#[test]
fn booking_schema_is_exactly_this_json_in_field_order() {
    let text = serde_json::to_string(Booking::requested_schema()).unwrap();
    let expected = json!({
        "type": "object",
        "properties": {
            "alternativeDate": {
                "type": "string",
                "title": "Alternative date",
                "description": "Date you want instead",
                "format": "date"
            },
            "checkAlternative": { "type": "boolean", "default": true },
            "name": { "type": "string", "minLength": 1, "maxLength": 50 },
            "email": { "type": "string", "format": "email" },
            "guests": { "type": "integer", "minimum": 1, "maximum": 12, "default": 2 },
            "budget": { "type": "number" },
            "seating": {
                "type": "string",
                "oneOf": [
                    { "const": "Window", "title": "Window seat" },
                    { "const": "Aisle", "title": "Aisle seat" }
                ]
            },
            "extras": {
                "type": "array",
                "minItems": 1,
                "maxItems": 2,
                "items": { "type": "string", "enum": ["extra_legroom", "meal", "wifi"] }
            }
        },
        "required": ["alternativeDate", "name", "seating", "extras"]
    });
    // Compared as text: the order of properties is part of the contract.
    assert_eq!(text, expected.to_string());
}

#[test]
fn numbers_add_their_types_own_bounds() {
    let schema = serde_json::to_value(Numbers::requested_schema()).unwrap();
    let p = &schema["properties"];
    assert_eq!(schema["title"], "Numbers");
    assert_eq!(schema["description"], "One of each numeric type");
    assert_eq!(
        p["a_i8"],
        json!({"type": "integer", "minimum": -128, "maximum": 127})
    );
    assert_eq!(
        p["a_i16"],
        json!({"type": "integer", "minimum": -32768, "maximum": 32767})
    );
    assert_eq!(
        p["a_i32"],
        json!({"type": "integer", "minimum": -2147483648i64, "maximum": 2147483647})
    );
    assert_eq!(p["a_i64"], json!({"type": "integer"}));
    assert_eq!(p["a_isize"], json!({"type": "integer"}));
    assert_eq!(
        p["a_u8"],
        json!({"type": "integer", "minimum": 0, "maximum": 255})
    );
    assert_eq!(
        p["a_u16"],
        json!({"type": "integer", "minimum": 0, "maximum": 65535})
    );
    assert_eq!(
        p["a_u32"],
        json!({"type": "integer", "minimum": 0, "maximum": 4294967295u64})
    );
    assert_eq!(p["a_u64"], json!({"type": "integer", "minimum": 0}));
    assert_eq!(p["a_usize"], json!({"type": "integer", "minimum": 0}));
    assert_eq!(
        p["a_f32"],
        json!({"type": "number", "minimum": -1.5, "maximum": 2.5})
    );
    assert_eq!(p["a_f64"], json!({"type": "number"}));
    assert_eq!(
        p["small"],
        json!({"type": "integer", "minimum": -10, "maximum": 10, "default": -3})
    );
    assert_eq!(
        p["ratio"],
        json!({"type": "number", "minimum": 0, "maximum": 1, "default": 0.5})
    );
    let required: Vec<&str> = schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(!required.contains(&"a_f64") && !required.contains(&"small"));
    assert!(required.contains(&"a_u64"));
}

#[test]
fn selects_renames_and_legacy_names() {
    let schema = serde_json::to_value(Selects::requested_schema()).unwrap();
    let p = &schema["properties"];
    assert_eq!(
        p["btree"],
        json!({
            "type": "array", "minItems": 0, "maxItems": 3,
            "items": {"type": "string", "enum": ["extra_legroom", "meal", "wifi"]},
            "default": ["meal", "wifi"]
        })
    );
    assert_eq!(
        p["hash"],
        json!({
            "type": "array", "title": "Colours",
            "items": {"type": "string", "enum": ["deep-red", "GREEN", "blue!"]}
        })
    );
    assert_eq!(
        p["color"],
        json!({"type": "string", "enum": ["deep-red", "GREEN", "blue!"], "default": "GREEN"})
    );
    assert_eq!(
        p["titled_multi"],
        json!({
            "type": "array",
            "items": {"anyOf": [
                {"const": "Window", "title": "Window seat"},
                {"const": "Aisle", "title": "Aisle seat"}
            ]},
            "default": ["Window"]
        })
    );
    assert_eq!(
        p["legacy"],
        json!({
            "type": "string",
            "enum": ["Window", "Aisle"],
            "enumNames": ["Window seat", "Aisle seat"],
            "default": "Aisle"
        })
    );
    assert_eq!(schema["required"], json!(["vec"]));
}

#[test]
fn serde_renames_and_raw_identifiers() {
    let schema = serde_json::to_value(Strings::requested_schema()).unwrap();
    let names: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    let mut sorted = vec!["EMAIL", "HOMEPAGE", "DAY", "WHEN", "plain", "TYPE"];
    sorted.sort();
    let mut names: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    names.sort();
    assert_eq!(names, sorted);
    assert_eq!(
        schema["properties"]["plain"],
        json!({"type": "string", "minLength": 2, "maxLength": 5, "default": "héllo"})
    );
}

/// The form of the reference "everything" server's `trigger-elicitation-request` tool
/// (`@modelcontextprotocol/server-everything` 2026.8.31, dist/tools/trigger-elicitation-request.js).
#[allow(clippy::approx_constant)] // the server's own 3.14
fn everything_server_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {
                "title": "String",
                "type": "string",
                "description": "Your full, legal name",
            },
            "check": {
                "title": "Boolean",
                "type": "boolean",
                "description": "Agree to the terms and conditions",
            },
            "firstLine": {
                "title": "String with default",
                "type": "string",
                "description": "Favorite first line of a story",
                "default": "It was a dark and stormy night.",
            },
            "email": {
                "title": "String with email format",
                "type": "string",
                "format": "email",
                "description": "Your email address (will be verified, and never shared with anyone else)",
            },
            "homepage": {
                "type": "string",
                "format": "uri",
                "title": "String with uri format",
                "description": "Portfolio / personal website",
            },
            "birthdate": {
                "title": "String with date format",
                "type": "string",
                "format": "date",
                "description": "Your date of birth",
            },
            "integer": {
                "title": "Integer",
                "type": "integer",
                "description": "Your favorite integer (do not give us your phone number, pin, or other sensitive info)",
                "minimum": 1,
                "maximum": 100,
                "default": 42,
            },
            "number": {
                "title": "Number in range 1-1000",
                "type": "number",
                "description": "Favorite number (there are no wrong answers)",
                "minimum": 0,
                "maximum": 1000,
                "default": 3.14,
            },
            "untitledSingleSelectEnum": {
                "type": "string",
                "title": "Untitled Single Select Enum",
                "description": "Choose your favorite friend",
                "enum": ["Monica", "Rachel", "Joey", "Chandler", "Ross", "Phoebe"],
                "default": "Monica",
            },
            "untitledMultipleSelectEnum": {
                "type": "array",
                "title": "Untitled Multiple Select Enum",
                "description": "Choose your favorite instruments",
                "minItems": 1,
                "maxItems": 3,
                "items": { "type": "string", "enum": ["Guitar", "Piano", "Violin", "Drums", "Bass"] },
                "default": ["Guitar"],
            },
            "titledSingleSelectEnum": {
                "type": "string",
                "title": "Titled Single Select Enum",
                "description": "Choose your favorite hero",
                "oneOf": [
                    { "const": "hero-1", "title": "Superman" },
                    { "const": "hero-2", "title": "Green Lantern" },
                    { "const": "hero-3", "title": "Wonder Woman" },
                ],
                "default": "hero-1",
            },
            "titledMultipleSelectEnum": {
                "type": "array",
                "title": "Titled Multiple Select Enum",
                "description": "Choose your favorite types of fish",
                "minItems": 1,
                "maxItems": 3,
                "items": {
                    "anyOf": [
                        { "const": "fish-1", "title": "Tuna" },
                        { "const": "fish-2", "title": "Salmon" },
                        { "const": "fish-3", "title": "Trout" },
                    ],
                },
                "default": ["fish-1"],
            },
            "legacyTitledEnum": {
                "type": "string",
                "title": "Legacy Titled Single Select Enum",
                "description": "Choose your favorite type of pet",
                "enum": ["pet-1", "pet-2", "pet-3", "pet-4", "pet-5"],
                "enumNames": ["Cats", "Dogs", "Birds", "Fish", "Reptiles"],
                "default": "pet-1",
            },
        },
        "required": ["name"],
    })
}

#[test]
fn the_everything_servers_form_as_one_struct() {
    let ours = serde_json::to_value(EverythingForm::requested_schema()).unwrap();
    assert_eq!(ours, everything_server_schema());
    let keys: Vec<&String> = ours["properties"].as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 13);
    // And the same as the message the server sends, in each revision that can express it.
    for version in FORM_REVISIONS {
        let params =
            EverythingForm::form_params("Please provide inputs for the following fields:", version)
                .unwrap()
                .to_value();
        assert_eq!(params["requestedSchema"], everything_server_schema());
    }
}

/// Every property must be one of the spec's `PrimitiveSchemaDefinition`s.
fn assert_properties_valid(revision: &str, schema: &Value) {
    for (name, property) in schema["properties"].as_object().unwrap() {
        let validator = definition(revision, "PrimitiveSchemaDefinition");
        assert!(
            validator.is_valid(property),
            "{revision}: property {name} is not a PrimitiveSchemaDefinition: {property}"
        );
    }
}

#[test]
fn every_form_fits_the_generated_types_and_the_official_schemas_of_2025_11_25_and_later() {
    for (name, form) in all_forms() {
        for version in FORM_REVISIONS {
            let revision = dir(version);
            let params = FormParamsOf(form, version).value();
            assert_valid(revision, "ElicitRequestFormParams", &params);
            assert_properties_valid(revision, &params["requestedSchema"]);
            let request = json!({"method": "elicitation/create", "params": params});
            if version != V2025_11_25 {
                // 2026-07-28 and the draft: ElicitRequest has no JSON-RPC envelope.
                assert_valid(revision, "ElicitRequest", &request);
            } else {
                let mut with_envelope = request.clone();
                with_envelope["jsonrpc"] = json!("2.0");
                with_envelope["id"] = json!(1);
                assert_valid(revision, "ElicitRequest", &with_envelope);
            }
            let _ = name;
        }
    }
}

/// Renders `form` for `version` as params (the trait methods need a type; this works on the
/// schema directly).
struct FormParamsOf(&'static FormSchema, ProtocolVersion);

impl FormParamsOf {
    fn value(&self) -> Value {
        mcp_typed::elicit::FormParams::new(self.0, "Please fill in", self.1)
            .unwrap_or_else(|e| panic!("{e}"))
            .to_value()
    }
}

macro_rules! typed_everywhere {
    ($($form:ty),*) => {$(
        {
            use mcp_typed::elicit::revision as r;
            let schema = <$form>::typed_requested_schema::<r::V2025_11_25>().unwrap();
            assert_eq!(
                serde_json::to_value(&schema).unwrap(),
                serde_json::to_value(<$form>::requested_schema()).unwrap()
            );
            let order: Vec<&String> = schema.properties.keys().collect();
            let expected: Vec<&str> = <$form>::requested_schema().fields.iter().map(|f| f.name).collect();
            assert_eq!(order, expected, "properties keep field order in the generated type");
            let params = <$form>::typed_form_params::<r::V2025_11_25>("m").unwrap();
            assert_eq!(params.message, "m");
            assert!(params.mode.is_some());
            let params = <$form>::typed_form_params::<r::V2026_07_28>("m").unwrap();
            assert_eq!(params.requested_schema.properties.len(), expected.len());
            let params = <$form>::typed_form_params::<r::Draft>("m").unwrap();
            assert_eq!(params.requested_schema.properties.len(), expected.len());
            let input = <$form>::typed_input_request::<r::V2026_07_28>("m").unwrap();
            assert!(matches!(input, mcp_typed::v2026_07_28::InputRequest::Elicit(_)));
        }
    )*};
}

#[test]
fn every_form_deserializes_into_the_generated_types() {
    typed_everywhere!(
        Booking,
        Numbers,
        Selects,
        Strings,
        Legacy,
        Preferences,
        Empty,
        EverythingForm
    );
    // Each kind of property lands in the right variant of PrimitiveSchemaDefinition.
    use mcp_typed::v2025_11_25::PrimitiveSchemaDefinition as P;
    let schema =
        EverythingForm::typed_requested_schema::<mcp_typed::elicit::revision::V2025_11_25>()
            .unwrap();
    let kinds: Vec<&str> = schema
        .properties
        .values()
        .map(|p| match p {
            P::String(_) => "string",
            P::Number(_) => "number",
            P::Boolean(_) => "boolean",
            P::UntitledSingleSelectEnum(_) => "untitled-single",
            P::TitledSingleSelectEnum(_) => "titled-single",
            P::UntitledMultiSelectEnum(_) => "untitled-multi",
            P::TitledMultiSelectEnum(_) => "titled-multi",
            P::LegacyTitledEnum(_) => "legacy",
            // (The generated union may have a catch-all variant for unknown shapes.)
            #[allow(unreachable_patterns)]
            other => panic!("not a known kind of property: {other:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "string",
            "boolean",
            "string",
            "string",
            "string",
            "string",
            "number",
            "number",
            "untitled-single",
            "untitled-multi",
            "titled-single",
            "titled-multi",
            "legacy"
        ]
    );
}

/// Every property of a 2025-06-18 `requestedSchema` must be one of that revision's
/// `PrimitiveSchemaDefinition`s, with no member the definition does not declare. (The official
/// definitions leave `additionalProperties` open, so a `default` on a `NumberSchema` would pass
/// them unnoticed; here each is closed.)
fn assert_properties_strictly_valid_2025_06_18(schema: &Value) {
    let mut root = mcp_tests::schema("2025-06-18");
    for name in [
        "StringSchema",
        "NumberSchema",
        "BooleanSchema",
        "EnumSchema",
    ] {
        root["definitions"][name]["additionalProperties"] = json!(false);
    }
    root["$ref"] = json!("#/definitions/PrimitiveSchemaDefinition");
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&root)
        .unwrap();
    for (name, property) in schema["properties"].as_object().unwrap() {
        assert!(
            validator.is_valid(property),
            "2025-06-18: property {name} has a member its definition lacks: {property}"
        );
    }
}

/// Checks params rendered for 2025-06-18 against everything that describes that revision: the
/// official `ElicitRequest`, closed property definitions, and the generated types.
fn assert_fits_2025_06_18(params: &Value) {
    assert!(params.get("mode").is_none(), "2025-06-18 has no mode");
    let request = json!({"method": "elicitation/create", "params": params});
    assert_valid("2025-06-18", "ElicitRequest", &request);
    assert_properties_valid("2025-06-18", &params["requestedSchema"]);
    assert_properties_strictly_valid_2025_06_18(&params["requestedSchema"]);
    let typed: mcp_typed::v2025_06_18::ElicitRequestParams =
        mcp_typed::elicit::to_typed(params).unwrap();
    assert_eq!(
        serde_json::to_value(&typed).unwrap(),
        *params,
        "the generated type keeps the params as they are"
    );
}

#[test]
fn revision_2025_06_18_uses_enum_names_and_refuses_what_it_cannot_express() {
    use mcp_typed::elicit::revision::V2025_06_18 as R0618;
    let params = Legacy::form_params("Hi", V2025_06_18).unwrap().to_value();
    assert_eq!(
        params["requestedSchema"]["properties"]["seating"],
        json!({"type": "string", "enum": ["Window", "Aisle"], "enumNames": ["Window seat", "Aisle seat"]})
    );
    assert_fits_2025_06_18(&params);
    let typed = Legacy::typed_form_params::<R0618>("Hi").unwrap();
    assert_eq!(typed.requested_schema.properties.len(), 7);

    // A default on a non-boolean field is no reason to refuse: Booking is refused for its
    // multi-select only, not for `guests`' default.
    let e = Booking::form_params("Hi", V2025_06_18).unwrap_err();
    assert_eq!(e.version(), V2025_06_18);
    assert_eq!(
        e.fields(),
        [InexpressibleField {
            name: "extras",
            reason: Inexpressible::MultiSelect
        }]
    );
    assert_eq!(
        e.to_string(),
        "2025-06-18 cannot express this field: `extras` (multi-select enum); \
         use 2025-11-25 or later"
    );

    // Every multi-select is named at once, in field order.
    let e = Selects::form_params("Hi", V2025_06_18).unwrap_err();
    let names: Vec<&str> = e.fields().iter().map(|f| f.name).collect();
    assert_eq!(names, ["vec", "btree", "hash", "titled_multi"]);
    assert!(
        e.fields()
            .iter()
            .all(|f| f.reason == Inexpressible::MultiSelect)
    );
    assert_eq!(
        e.to_string(),
        "2025-06-18 cannot express these fields: `vec` (multi-select enum), \
         `btree` (multi-select enum), `hash` (multi-select enum), \
         `titled_multi` (multi-select enum); use 2025-11-25 or later"
    );

    // The typed path refuses with the same error.
    let e = EverythingForm::typed_requested_schema::<R0618>().unwrap_err();
    let names: Vec<&str> = e.fields().iter().map(|f| f.name).collect();
    assert_eq!(
        names,
        ["untitledMultipleSelectEnum", "titledMultipleSelectEnum"]
    );
    assert_eq!(
        Some(e),
        EverythingForm::requested_schema().check(V2025_06_18).err()
    );
}

#[test]
fn revision_2025_06_18_leaves_out_the_defaults_it_has_no_place_for() {
    use mcp_typed::elicit::revision::V2025_06_18 as R0618;
    let rendered = Preferences::requested_schema().render(V2025_06_18).unwrap();
    let text = serde_json::to_string(&rendered).unwrap();
    let expected = json!({
        "type": "object",
        "properties": {
            "notify": { "type": "boolean", "default": true },
            "newsletter": { "type": "boolean", "default": false },
            "partySize": { "type": "integer", "minimum": 1, "maximum": 10 },
            "offset": { "type": "integer", "minimum": -2147483648i64, "maximum": 2147483647 },
            "tipRatio": { "type": "number", "minimum": 0, "maximum": 1 },
            "seating": {
                "type": "string",
                "enum": ["Window", "Aisle"],
                "enumNames": ["Window seat", "Aisle seat"]
            },
            "extra": { "type": "string", "enum": ["extra_legroom", "meal", "wifi"] },
            "note": { "type": "string", "maxLength": 20 },
            "nickname": { "type": "string" }
        }
    });
    // No `required`: every field has a default or is an Option. Compared as text: the order
    // of properties is part of the contract.
    assert_eq!(text, expected.to_string());

    let params = Preferences::form_params("Your preferences", V2025_06_18)
        .unwrap()
        .to_value();
    assert_eq!(params["requestedSchema"], expected);
    assert_fits_2025_06_18(&params);
    let typed = Preferences::typed_form_params::<R0618>("Your preferences").unwrap();
    assert_eq!(typed.requested_schema.properties.len(), 9);

    // 2025-11-25 and later send every default.
    for version in FORM_REVISIONS {
        let schema = Preferences::requested_schema().to_value(version).unwrap();
        let p = &schema["properties"];
        assert_eq!(p["partySize"]["default"], 3, "{version}");
        assert_eq!(p["offset"]["default"], -40, "{version}");
        assert_eq!(p["tipRatio"]["default"], 0.25, "{version}");
        assert_eq!(p["seating"]["default"], "Aisle", "{version}");
        assert_eq!(p["extra"]["default"], "meal", "{version}");
        assert_eq!(p["note"]["default"], "none", "{version}");
        assert_eq!(p["notify"]["default"], true, "{version}");
    }

    // The forms that were refused for their defaults alone render now.
    for (name, schema) in [
        ("Numbers", Numbers::requested_schema()),
        ("Strings", Strings::requested_schema()),
    ] {
        let params = FormParamsOf(schema, V2025_06_18).value();
        assert_fits_2025_06_18(&params);
        let properties = params["requestedSchema"]["properties"].as_object().unwrap();
        assert!(
            properties.values().all(|p| p.get("default").is_none()),
            "{name}: {properties:?}"
        );
    }
}

#[test]
fn every_form_2025_06_18_can_express_fits_its_schema_and_the_others_are_refused() {
    let mut expressible = Vec::new();
    for (name, form) in all_forms() {
        let multi_selects: Vec<&str> = form
            .fields
            .iter()
            .filter(|f| matches!(f.ty, FieldType::MultiSelect { .. }))
            .map(|f| f.name)
            .collect();
        match mcp_typed::elicit::FormParams::new(form, "Please fill in", V2025_06_18) {
            Ok(params) => {
                assert!(multi_selects.is_empty(), "{name}: {multi_selects:?}");
                expressible.push(name);
                let params = params.to_value();
                assert_fits_2025_06_18(&params);
                let properties = params["requestedSchema"]["properties"].as_object().unwrap();
                assert_eq!(properties.len(), form.fields.len(), "{name}");
                // Booleans keep their default; no other property has one.
                for field in form.fields {
                    let rendered = properties[field.name].get("default");
                    match (field.ty, field.constraints.default) {
                        (FieldType::Boolean, Some(default)) => {
                            assert_eq!(rendered, Some(&default.to_json()), "{name}.{}", field.name)
                        }
                        _ => assert_eq!(rendered, None, "{name}.{}", field.name),
                    }
                }
            }
            Err(e) => {
                // Refused for the multi-selects, every one of them named, and nothing else.
                let named: Vec<&str> = e.fields().iter().map(|f| f.name).collect();
                assert_eq!(named, multi_selects, "{name}: {e}");
                for field in &multi_selects {
                    assert!(e.to_string().contains(&format!("`{field}`")), "{name}: {e}");
                }
            }
        }
    }
    assert_eq!(
        expressible,
        ["Numbers", "Strings", "Legacy", "Preferences", "Empty"]
    );
}

/// A default with no JSON value (an integer beyond 64 bits on a `number` field): refused in
/// every revision, together with what else the revision cannot express.
#[test]
fn defaults_without_a_json_value_are_refused_everywhere() {
    #[derive(Elicit, Debug)]
    #[allow(dead_code)] // only its form is used
    struct Huge {
        #[elicit(default = 100000000000000000000000000000)]
        big: f64,
        tags: Vec<Extra>,
        fine: Option<f64>,
    }
    let e = Huge::form_params("Hi", V2025_06_18).unwrap_err();
    assert_eq!(
        e.fields(),
        [
            InexpressibleField {
                name: "big",
                reason: Inexpressible::DefaultNotJson
            },
            InexpressibleField {
                name: "tags",
                reason: Inexpressible::MultiSelect
            },
        ]
    );
    // No revision would take `big`, so no later one is advised.
    assert_eq!(
        e.to_string(),
        "2025-06-18 cannot express these fields: `big` (default is not a JSON value), \
         `tags` (multi-select enum)"
    );
    for version in FORM_REVISIONS {
        let e = Huge::form_params("Hi", version).unwrap_err();
        assert_eq!(
            e.fields(),
            [InexpressibleField {
                name: "big",
                reason: Inexpressible::DefaultNotJson
            }],
            "{version}"
        );
    }
}

#[test]
fn elicitation_does_not_exist_before_2025_06_18() {
    for version in [V2024_11_05, V2025_03_26] {
        let e = Legacy::form_params("Hi", version).unwrap_err();
        assert_eq!(e.version(), version);
        assert_eq!(e.fields(), []);
        assert!(e.to_string().contains("does not exist"), "{e}");
        // Even for a form with fields older revisions could not express either.
        let e = Selects::requested_schema().render(version).unwrap_err();
        assert_eq!(e.fields(), []);
        assert!(Empty::requested_schema().render(version).is_err());
        let url = UrlElicitation::new("id", "https://example.com", "m").unwrap();
        assert!(url.params(version).is_err());
    }
}

#[test]
fn input_requests_of_2026_07_28() {
    for version in [V2026_07_28, Draft] {
        let entry = Booking::input_request("Pick a date", version)
            .unwrap()
            .to_value();
        assert_eq!(entry["method"], "elicitation/create");
        assert_eq!(entry["params"]["mode"], "form");
        let result = json!({
            "resultType": "input_required",
            "inputRequests": { "booking": entry },
        });
        assert_valid(dir(version), "InputRequiredResult", &result);
        assert_valid(dir(version), "InputRequests", &result["inputRequests"]);
    }
    for version in [V2025_06_18, V2025_11_25] {
        let e = Booking::input_request("Pick a date", version).unwrap_err();
        assert!(e.to_string().contains("2026-07-28"), "{e}");
    }
}

#[test]
fn url_mode_params_error_and_notification() {
    use mcp_typed::elicit::revision as r;
    let url = UrlElicitation::new(
        "el-1",
        "https://mcp.example.com/ui/set_api_key",
        "Set your key",
    )
    .unwrap();
    assert!(UrlElicitation::new("x", "not a uri", "m").is_err());
    assert!(UrlElicitation::new("x", "/relative", "m").is_err());

    let p = url.params(V2025_11_25).unwrap().to_value();
    assert_eq!(
        p,
        json!({"mode": "url", "elicitationId": "el-1", "url": "https://mcp.example.com/ui/set_api_key", "message": "Set your key"})
    );
    assert_valid("2025-11-25", "ElicitRequestURLParams", &p);
    let typed = url.typed_params::<r::V2025_11_25>().unwrap();
    assert_eq!(typed.elicitation_id, "el-1");

    for version in [V2026_07_28, Draft] {
        let p = url.params(version).unwrap().to_value();
        assert!(
            p.get("elicitationId").is_none(),
            "{version} has no elicitationId"
        );
        assert_valid(dir(version), "ElicitRequestURLParams", &p);
        let request = url.params(version).unwrap().into_request().to_value();
        assert_valid(dir(version), "ElicitRequest", &request);
    }
    assert_eq!(url.typed_params::<r::V2026_07_28>().unwrap().url, url.url());
    assert_eq!(
        url.typed_params::<r::Draft>().unwrap().message,
        "Set your key"
    );
    assert!(url.params(V2025_06_18).is_err());

    let error = url_elicitation_required_error(
        "Authorization required",
        std::slice::from_ref(&url),
        V2025_11_25,
    )
    .unwrap();
    assert_eq!(error["code"], -32042);
    let response = json!({"jsonrpc": "2.0", "id": 7, "error": error});
    assert_valid("2025-11-25", "URLElicitationRequiredError", &response);
    let typed: mcp_typed::v2025_11_25::UrlElicitationRequiredError =
        serde_json::from_value(response).unwrap();
    assert_eq!(typed.error.data.elicitations.len(), 1);
    for version in [V2025_06_18, V2026_07_28, Draft] {
        assert!(url_elicitation_required_error("m", std::slice::from_ref(&url), version).is_err());
        assert!(url.complete_notification(version).is_err());
    }

    let mut notification = url.complete_notification(V2025_11_25).unwrap();
    notification["jsonrpc"] = json!("2.0");
    assert_valid(
        "2025-11-25",
        "ElicitationCompleteNotification",
        &notification,
    );
    let typed: mcp_typed::v2025_11_25::ElicitationCompleteNotification =
        serde_json::from_value(notification).unwrap();
    assert_eq!(typed.params.elicitation_id, "el-1");
}

#[test]
fn defaults_validate_against_their_own_property_schemas() {
    // Each default must satisfy the property schema it sits in (jsonschema checks formats,
    // ranges, enum membership and item counts).
    for (name, form) in all_forms() {
        let schema = serde_json::to_value(form).unwrap();
        for (property, definition) in schema["properties"].as_object().unwrap() {
            if let Some(default) = definition.get("default") {
                let mut own = definition.clone();
                own.as_object_mut().unwrap().remove("default");
                let validator = jsonschema::options()
                    .should_validate_formats(true)
                    .build(&own)
                    .unwrap();
                assert!(
                    validator.is_valid(default),
                    "{name}.{property}: default {default} vs {own}"
                );
            }
        }
    }
}
