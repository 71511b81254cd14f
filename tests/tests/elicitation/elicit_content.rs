//! `from_content` and `outcome`: every rule, every violation reported at once with its field.

use std::collections::BTreeSet;

use crate::elicit_support::*;
use mcp_typed::elicit::{ElicitOutcome, OutcomeError, ViolationKind};
use mcp_typed::{ContentError, Elicit};
use serde_json::{Map, Value, json};

fn content(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => panic!("not an object"),
    }
}

fn errors<T: Elicit + std::fmt::Debug>(value: Value) -> ContentError {
    T::from_content(&content(value)).expect_err("content should be rejected")
}

/// The (field, kind) of every violation, kinds as their Debug variant name.
fn summary(error: &ContentError) -> Vec<(String, String)> {
    error
        .violations()
        .iter()
        .map(|v| {
            let kind = format!("{:?}", v.kind);
            let name = kind.split([' ', '{', '(']).next().unwrap().to_owned();
            (v.field.clone(), name)
        })
        .collect()
}

fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected
        .iter()
        .map(|(f, k)| ((*f).to_owned(), (*k).to_owned()))
        .collect()
}

fn valid_booking() -> Value {
    json!({
        "alternativeDate": "2025-03-01",
        "checkAlternative": false,
        "name": "Ada Lovelace",
        "email": "ada@example.com",
        "guests": 4,
        "budget": 120.5,
        "seating": "Aisle",
        "extras": ["meal", "wifi"],
    })
}

#[test]
fn valid_content_is_read() {
    let booking = Booking::from_content(&content(valid_booking())).unwrap();
    assert_eq!(
        booking,
        Booking {
            alternative_date: "2025-03-01".into(),
            check_alternative: false,
            name: "Ada Lovelace".into(),
            email: Some("ada@example.com".into()),
            guests: 4,
            budget: Some(120.5),
            seating: Seating::Aisle,
            extras: vec![Extra::Meal, Extra::Wifi],
        }
    );
}

#[test]
fn defaults_fill_omitted_fields() {
    let booking = Booking::from_content(&content(json!({
        "alternativeDate": "2025-03-01", "name": "Ada", "seating": "Window", "extras": ["meal"]
    })))
    .unwrap();
    assert!(booking.check_alternative, "default = true");
    assert_eq!(booking.guests, 2, "default = 2");
    assert_eq!(booking.email, None, "Option without default stays None");

    let selects = Selects::from_content(&content(json!({"vec": []}))).unwrap();
    assert_eq!(selects.btree, BTreeSet::from([Extra::Meal, Extra::Wifi]));
    assert_eq!(selects.color, Color::Green);
    assert_eq!(selects.titled_multi, vec![Seating::Window]);
    assert_eq!(selects.legacy, Seating::Aisle);
    assert_eq!(selects.hash, None);

    let strings = Strings::from_content(&content(json!({}))).unwrap();
    assert_eq!(strings.email, "a@example.com");
    assert_eq!(
        strings.day.as_deref(),
        Some("2024-02-29"),
        "Option with a default gets it"
    );
    assert_eq!(strings.text, "héllo");

    let everything = EverythingForm::from_content(&content(json!({"name": "Ada"}))).unwrap();
    assert_eq!(everything.integer, 42);
    assert_eq!(everything.number.to_string(), "3.14");
    assert_eq!(
        everything.untitled_multiple_select_enum,
        vec![Instrument::Guitar]
    );
    assert_eq!(everything.titled_single_select_enum, Hero::Superman);
    assert_eq!(everything.legacy_titled_enum, Pet::Cats);
}

/// 2025-06-18 allows `default` on booleans only, so the other defaults are not sent; a client
/// of that revision that leaves those fields out still gets them when the result is read.
#[test]
fn defaults_2025_06_18_does_not_send_still_fill_omitted_fields() {
    use mcp_typed::ProtocolVersion::V2025_06_18;
    let params = Preferences::form_params("Your preferences", V2025_06_18)
        .unwrap()
        .to_value();
    let properties = &params["requestedSchema"]["properties"];
    for name in [
        "partySize",
        "offset",
        "tipRatio",
        "seating",
        "extra",
        "note",
    ] {
        assert_eq!(properties[name].get("default"), None, "{name}");
    }
    assert_eq!(properties["notify"]["default"], true);

    let defaults = Preferences {
        notify: true,
        newsletter: Some(false),
        party_size: 3,
        offset: Some(-40),
        tip_ratio: 0.25,
        seating: Seating::Aisle,
        extra: Extra::Meal,
        note: "none".to_owned(),
        nickname: None,
    };
    for result in [
        json!({"action": "accept", "content": {}}),
        json!({"action": "accept"}),
    ] {
        let r: mcp_typed::v2025_06_18::ElicitResult =
            serde_json::from_value(result.clone()).unwrap();
        assert_eq!(
            Preferences::outcome(&r),
            Ok(ElicitOutcome::Accepted(defaults.clone())),
            "{result}"
        );
    }

    // What the client sends wins over the default, and is checked as before.
    let r: mcp_typed::v2025_06_18::ElicitResult = serde_json::from_value(json!({
        "action": "accept",
        "content": {"notify": false, "partySize": 8, "seating": "Window", "nickname": "Ada"},
    }))
    .unwrap();
    assert_eq!(
        Preferences::outcome(&r),
        Ok(ElicitOutcome::Accepted(Preferences {
            notify: false,
            party_size: 8,
            seating: Seating::Window,
            nickname: Some("Ada".to_owned()),
            ..defaults
        }))
    );
    let r: mcp_typed::v2025_06_18::ElicitResult = serde_json::from_value(json!({
        "action": "accept", "content": {"partySize": 11, "extra": "cake"},
    }))
    .unwrap();
    match Preferences::outcome(&r) {
        Err(OutcomeError::Content(e)) => assert_eq!(
            summary(&e),
            pairs(&[("partySize", "OutOfRange"), ("extra", "NotAnOption")])
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn every_violation_is_reported_at_once_in_field_order() {
    let e = errors::<Booking>(json!({
        "alternativeDate": "2024-02-30",
        "checkAlternative": "yes",
        "name": "",
        "email": "not-an-email",
        "guests": 13,
        "budget": "a lot",
        "seating": "Middle",
        "extras": ["meal", "meal", "pool", 3],
        "unexpected": true,
    }));
    assert_eq!(
        summary(&e),
        pairs(&[
            ("alternativeDate", "InvalidFormat"),
            ("checkAlternative", "WrongType"),
            ("name", "TooShort"),
            ("name", "PatternMismatch"),
            ("email", "InvalidFormat"),
            ("guests", "OutOfRange"),
            ("budget", "WrongType"),
            ("seating", "NotAnOption"),
            ("extras", "DuplicateItem"),
            ("extras", "ItemNotAnOption"),
            ("extras", "ItemNotAnOption"),
            ("extras", "TooManyItems"),
            ("unexpected", "UnknownKey"),
        ])
    );
    let text = e.to_string();
    assert!(
        text.starts_with("invalid elicitation content (13 problems):"),
        "{text}"
    );
    assert!(
        text.contains("field `guests`: 13 is out of range (1..=12)"),
        "{text}"
    );
}

#[test]
fn missing_required_fields() {
    let e = errors::<Booking>(json!({}));
    assert_eq!(
        summary(&e),
        pairs(&[
            ("alternativeDate", "Missing"),
            ("name", "Missing"),
            ("seating", "Missing"),
            ("extras", "Missing"),
        ])
    );
    assert!(e.concerns("name") && !e.concerns("guests"));
}

#[test]
fn integers_are_integers_within_their_types_range() {
    let base = || {
        json!({
            "a_i8": 0, "a_i16": 0, "a_i32": 0, "a_i64": 0, "a_isize": 0, "a_u8": 0,
            "a_u16": 0, "a_u32": 0, "a_u64": 0, "a_usize": 0, "a_f32": 0
        })
    };
    let numbers = Numbers::from_content(&content(base())).unwrap();
    assert_eq!(numbers.small, -3);
    assert_eq!(numbers.ratio, 0.5);

    // 3.0 is the integer 3, as in JSON Schema.
    let mut v = base();
    v["a_u8"] = json!(3.0);
    assert_eq!(Numbers::from_content(&content(v)).unwrap().a_u8, 3);

    let cases = [
        ("a_i8", json!(128)),
        ("a_i8", json!(-129)),
        ("a_i16", json!(40000)),
        ("a_i32", json!(2147483648u64)),
        ("a_i64", json!(9223372036854775808u64)),
        ("a_isize", json!(1e19)),
        ("a_u8", json!(-1)),
        ("a_u8", json!(256)),
        ("a_u16", json!(65536)),
        ("a_u32", json!(-5)),
        ("a_u64", json!(-1)),
        ("a_usize", json!(1e20)),
        ("small", json!(11)),
        ("small", json!(-11)),
        ("ratio", json!(1.5)),
        ("a_f32", json!(2.6)),
        ("a_f32", json!(-1e39)),
    ];
    for (field, value) in cases {
        let mut v = base();
        v[field] = value.clone();
        let e = errors::<Numbers>(v);
        assert_eq!(
            summary(&e),
            pairs(&[(field, "OutOfRange")]),
            "{field} = {value}"
        );
    }
    for (field, value) in [("a_u8", json!(1.5)), ("small", json!(-0.25))] {
        let mut v = base();
        v[field] = value;
        assert_eq!(
            summary(&errors::<Numbers>(v)),
            pairs(&[(field, "NotAnInteger")])
        );
    }
    for (field, value) in [
        ("a_i32", json!("1")),
        ("a_f64", json!(true)),
        ("a_u8", json!(null)),
    ] {
        let mut v = base();
        v[field] = value;
        assert_eq!(
            summary(&errors::<Numbers>(v)),
            pairs(&[(field, "WrongType")])
        );
    }
    // The extremes of each type are accepted.
    let mut v = base();
    v["a_i64"] = json!(i64::MIN);
    v["a_u64"] = json!(u64::MAX);
    v["a_i8"] = json!(-128);
    let n = Numbers::from_content(&content(v)).unwrap();
    assert_eq!((n.a_i64, n.a_u64, n.a_i8), (i64::MIN, u64::MAX, -128));
}

/// An `i64` field whose `minimum` is beyond 2^53, where `f64` cannot tell neighbours apart.
#[derive(Elicit, Debug)]
struct Big {
    #[elicit(minimum = 9007199254740993)]
    big: i64,
    any: Option<u64>,
}

#[test]
fn integers_of_any_size_meet_the_rust_types_range() {
    // Integral numbers beyond every Rust type are refused by the type's range, named.
    for (field, value, range) in [
        (
            "a_i64",
            json!(1e20),
            "(-9223372036854775808..=9223372036854775807)",
        ),
        ("a_u8", json!(1e20), "(0..=255)"),
        ("a_u8", json!(-1e20), "(0..=255)"),
        (
            "a_u64",
            json!(18446744073709551616.0),
            "(0..=18446744073709551615)",
        ),
        ("a_i8", json!(1e300), "(-128..=127)"),
    ] {
        let mut v = json!({
            "a_i8": 0, "a_i16": 0, "a_i32": 0, "a_i64": 0, "a_isize": 0, "a_u8": 0,
            "a_u16": 0, "a_u32": 0, "a_u64": 0, "a_usize": 0, "a_f32": 0
        });
        v[field] = value.clone();
        let e = errors::<Numbers>(v);
        assert_eq!(
            summary(&e),
            pairs(&[(field, "OutOfRange")]),
            "{field} = {value}"
        );
        assert!(
            e.to_string().ends_with(&format!("is out of range {range}")),
            "{field} = {value}: {e}"
        );
    }
    // An integral f64 within u64 (the one below 2^64) is a u64 (it was refused beyond 1.8e19
    // before).
    let big = Big::from_content(&content(
        json!({"big": 9007199254740993_i64, "any": 18446744073709549568.0}),
    ))
    .unwrap();
    assert_eq!(big.big, 9007199254740993);
    assert_eq!(big.any, Some(18446744073709549568));
    // The bound is compared exactly: 9007199254740992 is below 9007199254740993, as an
    // integer or as an f64.
    for value in [json!(9007199254740992_i64), json!(9007199254740992.0)] {
        let e = errors::<Big>(json!({ "big": value }));
        assert_eq!(summary(&e), pairs(&[("big", "OutOfRange")]), "{value}");
        assert!(
            e.to_string()
                .ends_with("is out of range (9007199254740993..=9223372036854775807)"),
            "{e}"
        );
    }
}

#[test]
fn lengths_count_code_points() {
    let ok = json!({"plain": "ééééé"});
    assert_eq!(Strings::from_content(&content(ok)).unwrap().text, "ééééé");
    let e = errors::<Strings>(json!({"plain": "éééééé"}));
    assert_eq!(summary(&e), pairs(&[("plain", "TooLong")]));
    assert!(matches!(
        e.violations()[0].kind,
        ViolationKind::TooLong { length: 6, max: 5 }
    ));
    let e = errors::<Strings>(json!({"plain": "😀"}));
    assert!(matches!(
        e.violations()[0].kind,
        ViolationKind::TooShort { length: 1, min: 2 }
    ));
}

#[test]
fn formats() {
    let good = json!({
        "EMAIL": "user.name+tag@sub.example.org",
        "HOMEPAGE": "https://example.com/path?q=1#frag",
        "DAY": "2000-02-29",
        "WHEN": "1985-04-12T23:20:50.52Z",
    });
    Strings::from_content(&content(good)).unwrap();
    // RFC 5321 mailboxes beyond dot-atoms.
    for email in [
        "\"Ada Lovelace\"@example.org",
        "ada@[192.0.2.1]",
        "ada@[IPv6:2001:db8::1]",
        "ada@localhost",
    ] {
        let strings = Strings::from_content(&content(json!({ "EMAIL": email }))).unwrap();
        assert_eq!(strings.email, email);
    }
    for (field, value) in [
        ("EMAIL", "no-at-sign"),
        ("EMAIL", "a@"),
        // RFC 5322's name-addr, not an RFC 5321 Mailbox.
        ("EMAIL", "Ada <ada@example.com>"),
        ("EMAIL", "ada@exa_mple.com"),
        // `idn-email`, not `email`.
        ("EMAIL", "zoë@example.com"),
        ("EMAIL", "ada@bücher.example"),
        ("EMAIL", "ada..l@example.com"),
        ("HOMEPAGE", "no scheme"),
        ("HOMEPAGE", "/relative/path"),
        ("HOMEPAGE", "http://exa mple.com"),
        ("DAY", "1900-02-29"),
        ("DAY", "2024-1-01"),
        ("DAY", "2024-04-31"),
        ("WHEN", "2024-01-01"),
        ("WHEN", "2024-01-01T25:00:00Z"),
        ("WHEN", "2024-01-01T10:00:00"),
        ("WHEN", "2024-01-01T10:00:00+0100"),
    ] {
        let e = errors::<Strings>(json!({ field: value }));
        assert_eq!(
            summary(&e),
            pairs(&[(field, "InvalidFormat")]),
            "{field} = {value}"
        );
    }
}

#[test]
fn selects() {
    let e = errors::<Selects>(json!({"vec": "meal", "color": "green", "seating": 1}));
    assert_eq!(
        summary(&e),
        pairs(&[
            ("vec", "WrongType"),
            ("color", "NotAnOption"),
            ("seating", "WrongType")
        ])
    );
    let e =
        errors::<Selects>(json!({"vec": [], "btree": ["meal", "wifi", "extra_legroom", "meal"]}));
    assert_eq!(
        summary(&e),
        pairs(&[("btree", "DuplicateItem"), ("btree", "TooManyItems")])
    );
    let ok =
        Selects::from_content(&content(json!({"vec": [], "hash": ["blue!", "deep-red"]}))).unwrap();
    assert_eq!(ok.hash.unwrap().len(), 2);
    let e = errors::<Booking>(json!({
        "alternativeDate": "2025-03-01", "name": "Ada", "seating": "Window", "extras": []
    }));
    assert_eq!(summary(&e), pairs(&[("extras", "TooFewItems")]));
}

#[test]
fn outcomes_from_values_and_generated_types() {
    let accepted = json!({"action": "accept", "content": valid_booking()});
    assert!(matches!(
        Booking::outcome(&accepted),
        Ok(ElicitOutcome::Accepted(_))
    ));
    assert_eq!(
        Booking::outcome(&json!({"action": "decline"})),
        Ok(ElicitOutcome::Declined)
    );
    assert_eq!(
        Booking::outcome(&json!({"action": "cancel"})),
        Ok(ElicitOutcome::Cancelled)
    );
    // An accept without content reads an empty form.
    assert_eq!(
        Empty::outcome(&json!({"action": "accept"})),
        Ok(ElicitOutcome::Accepted(Empty {}))
    );
    match Booking::outcome(&json!({"action": "accept"})) {
        Err(OutcomeError::Content(e)) => assert!(e.concerns("name")),
        other => panic!("{other:?}"),
    }
    for bad in [
        json!({}),
        json!({"action": "maybe"}),
        json!([1]),
        json!({"action": "accept", "content": 3}),
    ] {
        assert!(
            matches!(Booking::outcome(&bad), Err(OutcomeError::Malformed(_))),
            "{bad}"
        );
    }

    // The generated ElicitResult of each revision.
    let r: mcp_typed::v2025_06_18::ElicitResult = serde_json::from_value(
        json!({"action": "accept", "content": {"name": "Ada", "seating": "Window"}}),
    )
    .unwrap();
    assert!(matches!(
        Legacy::outcome(&r),
        Ok(ElicitOutcome::Accepted(Legacy {
            subscribe: false,
            ..
        }))
    ));
    // (The spec's ElicitResult content holds strings, integers, booleans and string arrays:
    // no fractions, so the budget is whole here.)
    let mut whole = accepted.clone();
    whole["content"]["budget"] = json!(120);
    let r: mcp_typed::v2025_11_25::ElicitResult = serde_json::from_value(whole.clone()).unwrap();
    assert_eq!(Booking::outcome(&r).unwrap().accepted().unwrap().guests, 4);
    let r: mcp_typed::v2026_07_28::ElicitResult =
        serde_json::from_value(json!({"action": "decline"})).unwrap();
    assert_eq!(Booking::outcome(&r), Ok(ElicitOutcome::Declined));
    let r: mcp_typed::draft::ElicitResult =
        serde_json::from_value(json!({"action": "cancel"})).unwrap();
    assert_eq!(Booking::outcome(&r), Ok(ElicitOutcome::Cancelled));

    // An InputResponses entry of 2026-07-28 is an ElicitResult too.
    let responses: mcp_typed::v2026_07_28::InputResponses =
        serde_json::from_value(json!({"booking": whole})).unwrap();
    let entry = responses.get("booking").unwrap();
    assert!(matches!(
        Booking::outcome(entry),
        Ok(ElicitOutcome::Accepted(_))
    ));
}

#[test]
fn never_panics_on_odd_content() {
    let odd = [
        json!({"name": {"nested": [1, 2, {"deep": null}]}}),
        json!({"guests": 1e308, "budget": -1e308, "extras": [[], {}, null]}),
        json!({"alternativeDate": "\u{0}\u{ffff}", "name": "\u{1F600}".repeat(100)}),
        json!({"extras": [], "seating": ""}),
        json!({"": null, "guests": -0.0}),
    ];
    for value in odd {
        let _ = Booking::from_content(&content(value.clone()));
        let _ = Numbers::from_content(&content(value.clone()));
        let _ = Selects::from_content(&content(value.clone()));
        let _ = Strings::from_content(&content(value.clone()));
        let _ = EverythingForm::from_content(&content(value));
    }
}
