//! One struct for every revision: `#[elicit(since = "..")]` leaves an optional field out of
//! the `requestedSchema` of older revisions, and `#[elicit(min_revision = "..")]` makes the
//! derive check at compile time that the form renders for every revision from that one on
//! (the compile errors are in `tests/ui-tests/ui/fail/since_*` and `min_revision_*`).

use crate::elicit_support::{assert_valid, dir};
use mcp_typed::ProtocolVersion::{self, *};
use mcp_typed::elicit::client::{FieldKind, Form};
use mcp_typed::elicit::{Elicit, ElicitOutcome, ElicitTyped, FieldSchema, Inexpressible};
use serde_json::{Map, Value, json};

#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq)]
#[elicit(rename_all = "snake_case")]
enum Extra {
    ExtraLegroom,
    Meal,
    Wifi,
}

#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq)]
enum Topping {
    #[elicit(title = "Cheese")]
    Cheese,
    #[elicit(title = "Olives")]
    Olives,
}

/// A table for one evening
#[derive(Elicit, Debug, PartialEq)]
#[elicit(rename_all = "camelCase", min_revision = "2025-06-18")]
struct Booking {
    /// Your name
    #[elicit(min_length = 1)]
    name: String,
    #[elicit(minimum = 1, maximum = 12)]
    guests: u8,
    /// What else you would like
    #[elicit(since = "2025-11-25", max_items = 2)]
    extras: Option<Vec<Extra>>,
    /// A titled multi-select with a default: not required either.
    #[elicit(since = "2025-11-25", default = ["Cheese"])]
    toppings: Vec<Topping>,
}

/// Fields that appear in later revisions only, one per step.
#[derive(Elicit, Debug, PartialEq)]
#[elicit(min_revision = "2025-06-18")]
struct Steps {
    always: bool,
    #[elicit(since = "2025-11-25")]
    from_2025_11_25: Option<String>,
    #[elicit(since = "2026-07-28", default = 3)]
    from_2026_07_28: i32,
    #[elicit(since = "DRAFT-2026-v1")]
    from_draft: Option<Vec<Extra>>,
}

/// The revisions with elicitation, oldest first.
fn form_revisions() -> impl Iterator<Item = ProtocolVersion> {
    ProtocolVersion::ALL
        .into_iter()
        .filter(|v| *v >= ProtocolVersion::ELICITATION)
}

fn schema_text(form: &mcp_typed::FormSchema, version: ProtocolVersion) -> String {
    serde_json::to_string(&form.render(version).unwrap()).unwrap()
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

#[test]
fn older_revisions_leave_later_fields_out() {
    // Compared as text: the order of properties is part of the contract.
    let expected = json!({
        "type": "object",
        "description": "A table for one evening",
        "properties": {
            "name": { "type": "string", "description": "Your name", "minLength": 1 },
            "guests": { "type": "integer", "minimum": 1, "maximum": 12 }
        },
        "required": ["name", "guests"]
    });
    let form = Booking::requested_schema();
    assert_eq!(schema_text(form, V2025_06_18), expected.to_string());
    assert_eq!(form.check(V2025_06_18), Ok(()));

    let params = Booking::form_params("Book", V2025_06_18)
        .unwrap()
        .to_value();
    assert_eq!(
        params,
        json!({ "message": "Book", "requestedSchema": expected })
    );
    // The official schema and the generated type of 2025-06-18 take it.
    assert_valid(
        "2025-06-18",
        "ElicitRequest",
        &json!({"method": "elicitation/create", "params": params}),
    );
    let typed =
        Booking::typed_form_params::<mcp_typed::elicit::revision::V2025_06_18>("Book").unwrap();
    assert_eq!(typed.requested_schema.properties.len(), 2);
}

#[test]
fn later_revisions_have_every_field() {
    let expected = json!({
        "type": "object",
        "description": "A table for one evening",
        "properties": {
            "name": { "type": "string", "description": "Your name", "minLength": 1 },
            "guests": { "type": "integer", "minimum": 1, "maximum": 12 },
            "extras": {
                "type": "array",
                "description": "What else you would like",
                "maxItems": 2,
                "items": { "type": "string", "enum": ["extra_legroom", "meal", "wifi"] }
            },
            "toppings": {
                "type": "array",
                "description": "A titled multi-select with a default: not required either.",
                "items": { "anyOf": [
                    { "const": "Cheese", "title": "Cheese" },
                    { "const": "Olives", "title": "Olives" }
                ] },
                "default": ["Cheese"]
            }
        },
        "required": ["name", "guests"]
    });
    let form = Booking::requested_schema();
    for version in [V2025_11_25, V2026_07_28, Draft] {
        assert_eq!(
            schema_text(form, version),
            expected.to_string(),
            "{version}"
        );
        assert_eq!(form.check(version), Ok(()));
    }
    // `requested_schema()` serializes as the latest revision renders.
    assert_eq!(
        serde_json::to_string(form).unwrap(),
        schema_text(form, ProtocolVersion::latest())
    );
}

#[test]
fn each_revision_has_the_fields_from_their_since_on() {
    // The properties rendered, and `fields_in`, which says the same in field order.
    let names = |version| -> Vec<&'static str> {
        let form = Steps::requested_schema();
        let schema = form.to_value(version).unwrap();
        let in_schema: std::collections::BTreeSet<&str> = schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let names: Vec<&'static str> = form.fields_in(version).map(|f| f.name).collect();
        assert_eq!(in_schema, names.iter().copied().collect(), "{version}");
        names
    };
    assert_eq!(names(V2025_06_18), ["always"]);
    assert_eq!(names(V2025_11_25), ["always", "from_2025_11_25"]);
    assert_eq!(
        names(V2026_07_28),
        ["always", "from_2025_11_25", "from_2026_07_28"]
    );
    assert_eq!(
        names(Draft),
        ["always", "from_2025_11_25", "from_2026_07_28", "from_draft"]
    );
    // The field the draft adds is not in the latest released revision's schema.
    let latest = serde_json::to_value(Steps::requested_schema()).unwrap();
    assert_eq!(
        latest,
        Steps::requested_schema().to_value(V2026_07_28).unwrap()
    );
    assert!(latest["properties"].get("from_draft").is_none());

    let since: Vec<Option<ProtocolVersion>> = Steps::requested_schema()
        .fields
        .iter()
        .map(|f| f.constraints.since)
        .collect();
    assert_eq!(
        since,
        [None, Some(V2025_11_25), Some(V2026_07_28), Some(Draft)]
    );
}

#[test]
fn content_reads_back_in_every_revision() {
    // 2025-06-18: the later fields are absent, so None and their defaults.
    let old = json!({"action": "accept", "content": {"name": "Ada", "guests": 2}});
    assert_eq!(
        Booking::outcome(&old).unwrap(),
        ElicitOutcome::Accepted(Booking {
            name: "Ada".into(),
            guests: 2,
            extras: None,
            toppings: vec![Topping::Cheese],
        })
    );
    // 2025-11-25 and later: present.
    let new = json!({"action": "accept", "content": {
        "name": "Ada", "guests": 2, "extras": ["meal", "wifi"], "toppings": []
    }});
    assert_eq!(
        Booking::outcome(&new).unwrap(),
        ElicitOutcome::Accepted(Booking {
            name: "Ada".into(),
            guests: 2,
            extras: Some(vec![Extra::Meal, Extra::Wifi]),
            toppings: vec![],
        })
    );
    // Reading checks them as before, in whatever revision.
    let bad = json!({"action": "accept", "content": {
        "name": "Ada", "guests": 2, "extras": ["meal", "wifi", "extra_legroom"]
    }});
    let e = Booking::outcome(&bad).unwrap_err();
    assert!(e.to_string().contains("`extras`"), "{e}");

    let steps = Steps::from_content(&object(json!({"always": true}))).unwrap();
    assert_eq!(
        steps,
        Steps {
            always: true,
            from_2025_11_25: None,
            from_2026_07_28: 3,
            from_draft: None,
        }
    );
}

#[test]
fn without_since_the_runtime_error_is_unchanged() {
    #[derive(Elicit, Debug)]
    #[allow(dead_code)]
    struct Old {
        extras: Option<Vec<Extra>>,
    }
    let e = Old::form_params("m", V2025_06_18).unwrap_err();
    assert_eq!(e.fields().len(), 1);
    assert_eq!(e.fields()[0].reason, Inexpressible::MultiSelect);
    // No revision before 2025-06-18 has forms, `since` or not.
    for version in [V2024_11_05, V2025_03_26] {
        assert!(Booking::requested_schema().check(version).is_err());
        assert!(Booking::form_params("m", version).is_err());
    }
}

/// Reads content into a form's struct, keeping only whether it could.
type Read = fn(&Map<String, Value>) -> Result<(), mcp_typed::ContentError>;

/// A client of each revision reads the params a server of that revision sends: every field
/// the revision has, none other, with the same `required`, and each answer it builds reads
/// back into the struct.
#[test]
fn every_revision_receives_what_it_is_sent() {
    for version in form_revisions() {
        let forms: [(_, _, Read); 2] = [
            (
                Booking::requested_schema(),
                json!({"name": "Ada", "guests": 4, "extras": ["meal"], "toppings": ["Olives"]}),
                |c| Booking::from_content(c).map(drop),
            ),
            (
                Steps::requested_schema(),
                json!({"always": false, "from_2025_11_25": "x", "from_2026_07_28": 1, "from_draft": ["wifi"]}),
                |c| Steps::from_content(c).map(drop),
            ),
        ];
        for (form, sample, read) in forms {
            let params = mcp_typed::elicit::FormParams::new(form, "m", version)
                .unwrap_or_else(|e| panic!("{version}: {e}"))
                .to_value();
            let received = Form::from_params(&params, version)
                .unwrap_or_else(|e| panic!("{version}: {e}\n{params}"));
            let sent: Vec<&FieldSchema> = form.fields_in(version).collect();
            let got: Vec<(&str, bool)> = received
                .fields()
                .iter()
                .map(|f| (f.name.as_str(), f.required))
                .collect();
            let want: Vec<(&str, bool)> = sent.iter().map(|f| (f.name, f.required)).collect();
            assert_eq!(got, want, "{version}");
            assert!(
                received
                    .fields()
                    .iter()
                    .all(|f| version >= V2025_11_25
                        || !matches!(f.kind, FieldKind::MultiSelect { .. })),
                "{version}: a multi-select reached 2025-06-18"
            );
            // The official schema of the revision takes the request.
            let request = json!({"method": "elicitation/create", "params": params});
            let request = if version == V2025_06_18 || version == V2025_11_25 {
                let mut with_envelope = request;
                with_envelope["jsonrpc"] = json!("2.0");
                with_envelope["id"] = json!(1);
                with_envelope
            } else {
                request
            };
            assert_valid(dir(version), "ElicitRequest", &request);

            // An answer with what this revision asks for: valid for the client, and read
            // back by the server.
            let content: Map<String, Value> = object(sample.clone())
                .into_iter()
                .filter(|(k, _)| received.field(k).is_some())
                .collect();
            received
                .validate(&content)
                .unwrap_or_else(|e| panic!("{version}: {e}"));
            read(&content).unwrap_or_else(|e| panic!("{version}: {e}"));
        }
    }
}

/// `ProtocolVersion::ELICITATION` and `MULTI_SELECT`, with which the derive checks `since` and
/// `min_revision` at compile time, are where rendering finds forms and multi-selects begin.
#[test]
fn the_derives_thresholds_are_what_rendering_does() {
    #[derive(Elicit)]
    struct Nothing {}
    let first_with_forms = ProtocolVersion::ALL
        .into_iter()
        .find(|v| Nothing::requested_schema().check(*v).is_ok());
    assert_eq!(first_with_forms, Some(ProtocolVersion::ELICITATION));
    #[derive(Elicit)]
    #[allow(dead_code)]
    struct OneMulti {
        extras: Vec<Extra>,
    }
    let first_with_multi = ProtocolVersion::ALL
        .into_iter()
        .find(|v| OneMulti::requested_schema().check(*v).is_ok());
    assert_eq!(first_with_multi, Some(ProtocolVersion::MULTI_SELECT));
}

mod random_forms {
    //! Random forms with random `since`s (as the derive allows them: on fields that are not
    //! required), rendered for every revision with forms.

    use super::*;
    use mcp_typed::FormSchema;
    use mcp_typed::elicit::{Constraints, EnumOption, FieldType};
    use proptest::prelude::*;

    const OPTIONS: &[EnumOption] = &[
        EnumOption {
            value: "a",
            title: None,
        },
        EnumOption {
            value: "b",
            title: Some("B"),
        },
    ];

    fn field(index: usize) -> impl Strategy<Value = FieldSchema> {
        let ty = proptest::sample::select(vec![
            FieldType::String { format: None },
            FieldType::Integer {
                min: 0,
                max: i128::from(u8::MAX),
            },
            FieldType::Boolean,
            FieldType::SingleSelect { options: OPTIONS },
            FieldType::MultiSelect { options: OPTIONS },
        ]);
        let later: Vec<Option<ProtocolVersion>> = std::iter::once(None)
            .chain(form_revisions().skip(1).map(Some))
            .collect();
        (ty, any::<bool>(), proptest::sample::select(later)).prop_map(
            move |(ty, required, since)| {
                let mut constraints = Constraints::none();
                constraints.since = since.filter(|_| !required);
                FieldSchema {
                    name: Box::leak(format!("f{index}").into_boxed_str()),
                    title: None,
                    description: None,
                    required,
                    ty,
                    constraints,
                }
            },
        )
    }

    fn form() -> impl Strategy<Value = &'static FormSchema> {
        (0usize..6)
            .prop_flat_map(|n| (0..n).map(field).collect::<Vec<_>>())
            .prop_map(|fields| {
                &*Box::leak(Box::new(FormSchema {
                    title: None,
                    description: None,
                    fields: Box::leak(fields.into_boxed_slice()),
                }))
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

        /// A revision refuses a form exactly when a field it has is a multi-select it cannot
        /// express; otherwise its client reads back exactly the fields it has.
        #[test]
        fn each_revision_sends_and_receives_the_fields_it_has(form in form()) {
            for version in form_revisions() {
                let has: Vec<&FieldSchema> = form.fields_in(version).collect();
                let refused = version < V2025_11_25
                    && has.iter().any(|f| matches!(f.ty, FieldType::MultiSelect { .. }));
                let params = match mcp_typed::elicit::FormParams::new(form, "m", version) {
                    Ok(params) => params.to_value(),
                    Err(e) => {
                        prop_assert!(refused, "{version}: {e}");
                        continue;
                    }
                };
                prop_assert!(!refused, "{version}: {params}");
                let received = Form::from_params(&params, version)
                    .map_err(|e| TestCaseError::fail(format!("{version}: {e}\n{params}")))?;
                let got: Vec<(&str, bool)> = received
                    .fields()
                    .iter()
                    .map(|f| (f.name.as_str(), f.required))
                    .collect();
                let want: Vec<(&str, bool)> = has.iter().map(|f| (f.name, f.required)).collect();
                prop_assert_eq!(got, want, "{}", version);
            }
        }
    }
}
