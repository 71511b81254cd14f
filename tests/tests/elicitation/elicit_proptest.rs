//! Property tests: content generated from a form's schema is accepted (by `from_content` and
//! by the JSON Schema the form renders to); content mutated to break one rule is rejected,
//! naming the field; arbitrary JSON never panics.

use crate::elicit_support::*;
use mcp_typed::elicit::{FieldSchema, FieldType, FormSchema, Format, Num, ViolationKind};
use mcp_typed::{ContentError, Elicit};
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{Map, Value, json};

/// `cases` cases, no regression files written into the source tree.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---- valid content from a schema ----

fn date() -> impl Strategy<Value = String> {
    (1u32..=9999, 1u32..=12, 1u32..=28).prop_map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}"))
}

fn string_for(field: &FieldSchema) -> BoxedStrategy<String> {
    let c = &field.constraints;
    let min = c.min_length.unwrap_or(0) as usize;
    let max = c.max_length.map_or(min + 20, |m| m as usize);
    if let Some(pattern) = &c.pattern {
        // The test forms' patterns are `^[class]+$`: generate from the class.
        let class = pattern
            .as_str()
            .trim_start_matches('^')
            .trim_end_matches('$')
            .trim_end_matches('+');
        let regex = format!("{class}{{{},{max}}}", min.max(1));
        return proptest::string::string_regex(&regex).unwrap().boxed();
    }
    match field.format() {
        Some(Format::Date) => date().boxed(),
        Some(Format::DateTime) => {
            let offset = prop_oneof![
                Just("Z".to_owned()),
                (0u32..24, 0u32..60, any::<bool>()).prop_map(|(h, m, plus)| {
                    format!("{}{h:02}:{m:02}", if plus { '+' } else { '-' })
                })
            ];
            let fraction = prop_oneof![Just(String::new()), "\\.[0-9]{1,6}"];
            prop_oneof![
                (date(), 0u32..24, 0u32..60, 0u32..60, fraction, offset)
                    .prop_map(|(d, h, m, s, f, tz)| format!("{d}T{h:02}:{m:02}:{s:02}{f}{tz}")),
                // A leap second, at 23:59 UTC.
                date().prop_map(|d| format!("{d}T23:59:60Z")),
            ]
            .boxed()
        }
        Some(Format::Email | Format::IdnEmail) => {
            "[a-z][a-z0-9]{0,4}(\\.[a-z0-9]{1,4})?@[a-z]{1,8}\\.(com|org|io)".boxed()
        }
        Some(Format::Uri) => "(https|http|urn|mailto):[a-z]{1,8}(/[a-z0-9]{0,5}){0,3}".boxed(),
        None => proptest::collection::vec(
            prop_oneof![
                any::<char>().prop_filter("printable", |c| !c.is_control()),
                Just('é'),
                Just('😀')
            ],
            min..=max,
        )
        .prop_map(|chars| chars.into_iter().collect())
        .boxed(),
    }
}

fn bound(n: Option<Num>) -> Option<f64> {
    n.map(Num::as_f64)
}

fn value_for(field: &'static FieldSchema) -> BoxedStrategy<Value> {
    let c = &field.constraints;
    match field.ty {
        FieldType::String { .. } => string_for(field).prop_map(Value::String).boxed(),
        FieldType::Boolean => any::<bool>().prop_map(Value::Bool).boxed(),
        FieldType::Integer { .. } => {
            let min = match field.effective_minimum() {
                Some(Num::Int(i)) => i,
                _ => i128::from(i64::MIN),
            };
            let max = match field.effective_maximum() {
                Some(Num::Int(i)) => i,
                _ => i128::from(u64::MAX),
            };
            prop_oneof![Just(min), Just(max), min..=max]
                .prop_map(|i| match i64::try_from(i) {
                    Ok(i) => json!(i),
                    Err(_) => json!(u64::try_from(i).unwrap()),
                })
                .boxed()
        }
        FieldType::Number { max_magnitude } => {
            let min = bound(c.minimum).unwrap_or(-max_magnitude);
            let max = bound(c.maximum).unwrap_or(max_magnitude);
            prop_oneof![Just(min), Just(max), min..=max]
                .prop_map(|f| json!(f))
                .boxed()
        }
        FieldType::SingleSelect { options } => proptest::sample::select(options)
            .prop_map(|o| json!(o.value))
            .boxed(),
        FieldType::MultiSelect { options } => {
            let min = c.min_items.unwrap_or(0) as usize;
            let max = (c.max_items.unwrap_or(u64::MAX) as usize).min(options.len());
            proptest::sample::subsequence(options, min..=max)
                .prop_shuffle()
                .prop_map(|chosen| json!(chosen.iter().map(|o| o.value).collect::<Vec<_>>()))
                .boxed()
        }
    }
}

/// Valid content for `form`; optional fields are present or not.
fn content_for(form: &'static FormSchema) -> BoxedStrategy<Map<String, Value>> {
    let fields: Vec<BoxedStrategy<Option<(String, Value)>>> = form
        .fields
        .iter()
        .map(|f| {
            let entry = value_for(f).prop_map(move |v| Some((f.name.to_owned(), v)));
            if f.required {
                entry.boxed()
            } else {
                prop_oneof![Just(None), entry].boxed()
            }
        })
        .collect();
    fields
        .prop_map(|entries| entries.into_iter().flatten().collect())
        .boxed()
}

// ---- one rule broken ----

/// Ways to break `field` in `content`, each with the violation expected.
fn mutations(
    field: &FieldSchema,
    content: &Map<String, Value>,
) -> Vec<(Option<Value>, &'static str)> {
    let c = &field.constraints;
    let mut out: Vec<(Option<Value>, &'static str)> = Vec::new();
    if field.required {
        out.push((None, "Missing"));
    }
    let wrong = match field.ty {
        FieldType::String { .. } | FieldType::SingleSelect { .. } => json!(12),
        FieldType::Integer { .. } | FieldType::Number { .. } => json!("12"),
        FieldType::Boolean => json!("true"),
        FieldType::MultiSelect { .. } => json!({"a": 1}),
    };
    out.push((Some(wrong), "WrongType"));
    out.push((Some(Value::Null), "WrongType"));
    let current = content.get(field.name);
    match field.ty {
        FieldType::String { .. } => {
            if let Some(min) = c.min_length.filter(|m| *m > 0) {
                out.push((Some(json!("é".repeat(min as usize - 1))), "TooShort"));
            }
            if let Some(max) = c.max_length {
                let filler = if c.pattern.is_some() { "a" } else { "é" };
                out.push((Some(json!(filler.repeat(max as usize + 1))), "TooLong"));
            }
            if c.pattern.is_some() {
                out.push((Some(json!("Ada 1")), "PatternMismatch"));
            }
            if field.format().is_some() {
                out.push((Some(json!("not valid at all")), "InvalidFormat"));
            }
        }
        FieldType::Integer { .. } => {
            if let Some(Num::Int(min)) = field.effective_minimum() {
                out.push((Some(exact(min - 1)), "OutOfRange"));
            }
            if let Some(Num::Int(max)) = field.effective_maximum() {
                out.push((Some(exact(max + 1)), "OutOfRange"));
            }
            out.push((Some(json!(1.5)), "NotAnInteger"));
        }
        FieldType::Number { .. } => {
            if let Some(min) = bound(c.minimum) {
                out.push((Some(json!(min - 0.5)), "OutOfRange"));
            }
            if let Some(max) = bound(c.maximum) {
                out.push((Some(json!(max + 0.5)), "OutOfRange"));
            }
        }
        FieldType::Boolean => {}
        FieldType::SingleSelect { .. } => out.push((Some(json!("not-an-option")), "NotAnOption")),
        FieldType::MultiSelect { options } => {
            let items: Vec<Value> = current
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let within_max = |n: usize| c.max_items.is_none_or(|m| n as u64 <= m);
            if within_max(items.len() + 1) {
                let mut more = items.clone();
                more.push(json!("not-an-option"));
                out.push((Some(json!(more)), "ItemNotAnOption"));
                if let Some(first) = items.first() {
                    let mut twice = items.clone();
                    twice.push(first.clone());
                    out.push((Some(json!(twice)), "DuplicateItem"));
                }
            }
            if let Some(max) = c.max_items.filter(|m| (*m as usize) < options.len()) {
                let all: Vec<&str> = options.iter().map(|o| o.value).collect();
                let _ = max;
                out.push((Some(json!(all)), "TooManyItems"));
            }
            if let Some(min) = c.min_items.filter(|m| *m > 0) {
                let fewer: Vec<&str> = options
                    .iter()
                    .take(min as usize - 1)
                    .map(|o| o.value)
                    .collect();
                out.push((Some(json!(fewer)), "TooFewItems"));
            }
        }
    }
    out
}

/// `i` as a JSON integer, or beyond every 64-bit integer when JSON integers cannot hold it.
fn exact(i: i128) -> Value {
    if let Ok(i) = i64::try_from(i) {
        json!(i)
    } else if let Ok(u) = u64::try_from(i) {
        json!(u)
    } else if i < 0 {
        json!(-1e19)
    } else {
        json!(1e20)
    }
}

fn kind_name(kind: &ViolationKind) -> String {
    let debug = format!("{kind:?}");
    debug.split([' ', '{', '(']).next().unwrap().to_owned()
}

fn check_rejected(error: ContentError, field: &str, expected: &str) -> Result<(), TestCaseError> {
    let all: Vec<(String, String)> = error
        .violations()
        .iter()
        .map(|v| (v.field.clone(), kind_name(&v.kind)))
        .collect();
    prop_assert!(
        all.iter().all(|(f, _)| f == field),
        "only `{field}` should be named: {all:?}"
    );
    prop_assert!(
        all.iter().any(|(_, k)| k == expected),
        "expected {expected} on `{field}`: {all:?}"
    );
    Ok(())
}

macro_rules! form_properties {
    ($($module:ident: $form:ty),* $(,)?) => {$(
        mod $module {
            use super::*;

            proptest! {
                #![proptest_config(config(256))]

                #[test]
                fn generated_content_is_accepted(content in content_for(<$form>::requested_schema())) {
                    let read = <$form>::from_content(&content);
                    prop_assert!(read.is_ok(), "{:?}\n{}", read.err(), Value::Object(content.clone()));
                    // The rendered requestedSchema is a JSON Schema: it accepts the content too.
                    let schema = serde_json::to_value(<$form>::requested_schema()).unwrap();
                    let validator = jsonschema::options().should_validate_formats(true).build(&schema).unwrap();
                    let instance = Value::Object(content);
                    prop_assert!(validator.is_valid(&instance), "{instance}");
                }

                #[test]
                fn one_broken_rule_is_rejected_naming_the_field(
                    content in content_for(<$form>::requested_schema()),
                    which_field in any::<Index>(),
                    which_mutation in any::<Index>(),
                ) {
                    let form = <$form>::requested_schema();
                    prop_assume!(!form.fields.is_empty());
                    let field = which_field.get(form.fields);
                    let options = mutations(field, &content);
                    let (value, expected) = which_mutation.get(&options).clone();
                    let mut broken = content.clone();
                    match value {
                        Some(v) => { broken.insert(field.name.to_owned(), v); }
                        None => { broken.remove(field.name); }
                    }
                    match <$form>::from_content(&broken) {
                        Ok(_) => prop_assert!(false, "accepted {expected} on {}: {}", field.name, Value::Object(broken)),
                        Err(e) => check_rejected(e, field.name, expected)?,
                    }
                }

                #[test]
                fn unknown_keys_are_rejected(
                    content in content_for(<$form>::requested_schema()),
                    key in "[a-z_]{1,12}",
                ) {
                    let form = <$form>::requested_schema();
                    prop_assume!(form.fields.iter().all(|f| f.name != key));
                    let mut broken = content;
                    broken.insert(key.clone(), json!(1));
                    match <$form>::from_content(&broken) {
                        Ok(_) => prop_assert!(false, "accepted unknown key {key}"),
                        Err(e) => check_rejected(e, &key, "UnknownKey")?,
                    }
                }
            }
        }
    )*};
}

form_properties!(
    booking: Booking,
    numbers: Numbers,
    selects: Selects,
    strings: Strings,
    legacy: Legacy,
    preferences: Preferences,
    everything: EverythingForm,
);

fn arbitrary_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|i| json!(i)),
        any::<u64>().prop_map(|u| json!(u)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        ".{0,12}".prop_map(Value::String),
        prop_oneof![
            Just("Window"),
            Just("meal"),
            Just("2024-02-29"),
            Just("a@b.co")
        ]
        .prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::btree_map(".{0,6}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Keys of every test form, so that arbitrary content hits real fields too.
fn key() -> impl Strategy<Value = String> {
    let names: Vec<&'static str> = all_forms()
        .into_iter()
        .flat_map(|(_, f)| f.fields.iter().map(|f| f.name))
        .collect();
    prop_oneof![
        proptest::sample::select(names).prop_map(str::to_owned),
        ".{0,8}"
    ]
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn arbitrary_content_never_panics(
        content in proptest::collection::btree_map(key(), arbitrary_json(), 0..10)
    ) {
        let content: Map<String, Value> = content.into_iter().collect();
        let _ = Booking::from_content(&content);
        let _ = Numbers::from_content(&content);
        let _ = Selects::from_content(&content);
        let _ = Strings::from_content(&content);
        let _ = Legacy::from_content(&content);
        let _ = Preferences::from_content(&content);
        let _ = EverythingForm::from_content(&content);
        let _ = Empty::from_content(&content);
        let result = json!({"action": "accept", "content": Value::Object(content)});
        let _ = Booking::outcome(&result);
    }
}
