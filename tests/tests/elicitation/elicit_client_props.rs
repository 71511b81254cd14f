//! One validator for both sides: for random derived-form shapes, a client that reads the
//! rendered `requestedSchema` back as a received form gives the same verdicts on random
//! content as the derived form itself.
//!
//! What a form's Rust types know but the schema cannot say is kept out of the generated
//! content, on purpose and only that: integers stay within ±2^40 (an `i64` field's own range
//! is not written), floats within ±1e12 (an integral float is an integer; an `f32` field's
//! range is not written either), and no `pattern` (the spec's `StringSchema` has none, so it
//! is enforced by the server only).

use mcp_typed::ProtocolVersion;
use mcp_typed::elicit::client::Form;
use mcp_typed::elicit::{
    Constraints, EnumOption, FieldSchema, FieldType, FormSchema, Format, Num, validate,
};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

fn leak<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

fn options() -> impl Strategy<Value = &'static [EnumOption]> {
    (1usize..5, any::<bool>()).prop_map(|(n, titled)| {
        leak(
            (0..n)
                .map(|i| EnumOption {
                    value: Box::leak(format!("o{i}").into_boxed_str()),
                    title: (titled && i % 2 == 0)
                        .then(|| &*Box::leak(format!("Option {i}").into_boxed_str())),
                })
                .collect(),
        )
    })
}

const INTEGER_TYPES: [(i128, i128); 7] = [
    (i8::MIN as i128, i8::MAX as i128),
    (0, u8::MAX as i128),
    (i16::MIN as i128, i16::MAX as i128),
    (0, u16::MAX as i128),
    (i32::MIN as i128, i32::MAX as i128),
    (0, u32::MAX as i128),
    (i64::MIN as i128, i64::MAX as i128),
];

/// A field of any kind, with random constraints.
fn field(index: usize) -> impl Strategy<Value = FieldSchema> {
    let kind = prop_oneof![
        (
            proptest::option::of(0u64..4),
            proptest::option::of(0u64..8),
            proptest::option::of(proptest::sample::select(Format::ALL.to_vec()))
        )
            .prop_map(|(min, max, format)| {
                let mut c = Constraints::none();
                (c.min_length, c.max_length, c.format) = (min, max, format);
                (FieldType::String { format: None }, c)
            }),
        (
            proptest::sample::select(INTEGER_TYPES.to_vec()),
            proptest::option::of(-50i128..50),
            proptest::option::of(-50i128..200)
        )
            .prop_map(|((min, max), lo, hi)| {
                let mut c = Constraints::none();
                c.minimum = lo.map(Num::Int);
                c.maximum = hi.map(Num::Int);
                (FieldType::Integer { min, max }, c)
            }),
        (
            any::<bool>(),
            proptest::option::of(-10.0f64..10.0),
            proptest::option::of(-10.0f64..100.0)
        )
            .prop_map(|(single, lo, hi)| {
                let mut c = Constraints::none();
                c.minimum = lo.map(Num::Float);
                c.maximum = hi.map(Num::Float);
                let max_magnitude = if single { f32::MAX as f64 } else { f64::MAX };
                (FieldType::Number { max_magnitude }, c)
            }),
        Just((FieldType::Boolean, Constraints::none())),
        (options(), any::<bool>()).prop_map(|(options, legacy)| {
            let mut c = Constraints::none();
            c.legacy_enum_names = legacy;
            (FieldType::SingleSelect { options }, c)
        }),
        (
            options(),
            proptest::option::of(0u64..3),
            proptest::option::of(0u64..4)
        )
            .prop_map(|(options, min, max)| {
                let mut c = Constraints::none();
                (c.min_items, c.max_items) = (min, max);
                (FieldType::MultiSelect { options }, c)
            }),
    ];
    (kind, any::<bool>()).prop_map(move |((ty, constraints), required)| FieldSchema {
        name: Box::leak(format!("f{index}").into_boxed_str()),
        title: None,
        description: None,
        required,
        ty,
        constraints,
    })
}

fn form() -> impl Strategy<Value = &'static FormSchema> {
    (0usize..6)
        .prop_flat_map(|n| (0..n).map(field).collect::<Vec<_>>())
        .prop_map(|fields| {
            &*Box::leak(Box::new(FormSchema {
                title: None,
                description: None,
                fields: leak(fields),
            }))
        })
}

/// Values near every field kind's limits, of every JSON type.
fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        (-(1i64 << 40)..(1i64 << 40)).prop_map(|i| json!(i)),
        (-300i64..300).prop_map(|i| json!(i)),
        (-1e12f64..1e12).prop_map(|f| json!(f)),
        (-20.0f64..120.0).prop_map(|f| json!(f)),
        any::<bool>().prop_map(Value::Bool),
        "[a-z@.:/0-9T-]{0,10}".prop_map(Value::String),
        prop_oneof![
            Just("a@b.co"),
            Just("https://x.io"),
            Just("2024-02-29"),
            Just("2024-02-29T10:00:00Z"),
            Just("o0"),
            Just("o1"),
            Just("o3"),
        ]
        .prop_map(|s| json!(s)),
        proptest::collection::vec(
            prop_oneof![
                Just(json!("o0")),
                Just(json!("o1")),
                Just(json!("o2")),
                Just(json!(1))
            ],
            0..4
        )
        .prop_map(Value::Array),
        Just(Value::Null),
    ]
}

fn content() -> impl Strategy<Value = Map<String, Value>> {
    proptest::collection::btree_map("f[0-6]|x", value(), 0..7).prop_map(|m| m.into_iter().collect())
}

/// `(field, kind)` of every violation, in order.
fn verdict(r: Result<(), mcp_typed::ContentError>) -> Vec<(String, String)> {
    match r {
        Ok(()) => Vec::new(),
        Err(e) => e
            .violations()
            .iter()
            .map(|v| {
                let kind = format!("{:?}", v.kind);
                let name = kind.split([' ', '{', '(']).next().unwrap_or("").to_owned();
                (v.field.clone(), name)
            })
            .collect(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn rendered_then_received_gives_the_same_verdicts(
        schema in form(),
        content in content(),
        revision in proptest::sample::select(vec![
            ProtocolVersion::V2025_06_18,
            ProtocolVersion::V2025_11_25,
            ProtocolVersion::V2026_07_28,
        ]),
    ) {
        let derived = validate(schema, &content);
        // The derived form converted directly: identical, messages included.
        let converted = Form::from_schema(schema, "m", revision);
        prop_assert_eq!(&converted.validate(&content), &derived);
        // Rendered for the revision and read back as a client reads it.
        let Ok(rendered) = schema.to_value(revision) else {
            // Multi-selects do not exist in 2025-06-18.
            return Ok(());
        };
        let params = json!({"message": "m", "requestedSchema": rendered});
        let received = Form::from_params(&params, revision)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{params}")))?;
        prop_assert_eq!(
            verdict(received.validate(&content)),
            verdict(derived),
            "{}\n{:?}",
            params,
            content
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, failure_persistence: None, ..ProptestConfig::default() })]

    /// `Form::example_answer` (what a program exercising a server answers with) fills every
    /// field some value fits (no `pattern` here) with one that does: accepted whenever every
    /// required field could be filled.
    #[test]
    fn an_example_answer_is_a_valid_answer(
        schema in form(),
        revision in proptest::sample::select(vec![
            ProtocolVersion::V2025_06_18,
            ProtocolVersion::V2025_11_25,
        ]),
    ) {
        let form = Form::from_schema(schema, "m", revision);
        let answer = form.example_answer();
        let content = answer.content().clone();
        for field in form.fields() {
            if let Some(value) = content.get(&field.name) {
                prop_assert!(field.check(value).is_ok(), "{}: {}", field.name, value);
            }
        }
        let complete = form.fields().iter().all(|f| !f.required || content.contains_key(&f.name));
        prop_assert_eq!(answer.accept().is_ok(), complete, "{:?}", content);

    }
}

/// Each kind of field, all required: `example_answer` fills every one, with the value its
/// documentation promises.
#[test]
fn an_example_answer_fills_every_kind_of_field() {
    let params = json!({"message": "m", "requestedSchema": {"type": "object", "properties": {
        "n": {"type": "integer", "minimum": 3},
        "below": {"type": "number", "maximum": 0.5},
        "ok": {"type": "boolean"},
        "pick": {"type": "string", "enum": ["a", "b"]},
        "many": {"type": "array", "minItems": 2, "items": {"type": "string", "enum": ["x", "y", "z"]}},
        "mail": {"type": "string", "format": "email"},
        "long": {"type": "string", "minLength": 9},
        "named": {"type": "string", "default": "Ada"}
    }, "required": ["n", "below", "ok", "pick", "many", "mail", "long", "named"]}});
    let form = Form::from_params(&params, ProtocolVersion::V2025_11_25).unwrap();
    let answer = form.example_answer();
    assert_eq!(
        Value::Object(answer.content().clone()),
        json!({"n": 3, "below": 0.5, "ok": true, "pick": "a", "many": ["x", "y"],
               "mail": "user@example.com", "long": "examplexx", "named": "Ada"})
    );
    assert!(answer.accept().is_ok());
}
