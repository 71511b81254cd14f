//! Strict validation of the `content` of an `ElicitResult` against a [`FormSchema`].

use std::cmp::Ordering;
use std::fmt;

use serde_json::{Map, Value};

use super::schema::{EnumOption, FieldSchema, FieldType, FormSchema, Format, Num, Pattern};
pub use mcp_typed_rules::formats::{is_date_time, is_email, is_full_date, is_idn_email, is_uri};

/// The content of an accepted elicitation does not fit the form. Lists every violation found,
/// in field order, then unknown keys.
#[derive(Debug, Clone, PartialEq)]
pub struct ContentError {
    violations: Vec<Violation>,
}

impl ContentError {
    /// Every violation, each naming its field.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// Whether some violation concerns `field`.
    pub fn concerns(&self, field: &str) -> bool {
        self.violations.iter().any(|v| v.field == field)
    }

    pub(crate) fn from_violations(violations: Vec<Violation>) -> ContentError {
        ContentError { violations }
    }
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.violations.as_slice() {
            [one] => write!(f, "invalid elicitation content: {one}"),
            many => {
                write!(f, "invalid elicitation content ({} problems):", many.len())?;
                for v in many {
                    write!(f, "\n- {v}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ContentError {}

/// One problem with one property of the content.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// The property (wire name) concerned.
    pub field: String,
    /// What is wrong.
    pub kind: ViolationKind,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "field `{}`: {}", self.field, self.kind)
    }
}

/// What is wrong with a property.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ViolationKind {
    /// A required property is absent.
    Missing,
    /// The value has the wrong JSON type.
    WrongType {
        /// The JSON type the field takes.
        expected: &'static str,
        /// The JSON type received.
        found: &'static str,
    },
    /// A number with a fractional part where an integer is required.
    NotAnInteger,
    /// A number outside `minimum`/`maximum` or the range of the field's type (an integer of
    /// any size is in range when neither bounds it).
    OutOfRange {
        /// The value received, as JSON.
        value: String,
        /// The smallest allowed value.
        minimum: Option<String>,
        /// The largest allowed value.
        maximum: Option<String>,
    },
    /// A string shorter than `minLength` (lengths count Unicode code points).
    TooShort {
        /// Its length.
        length: usize,
        /// `minLength`.
        min: u64,
    },
    /// A string longer than `maxLength`.
    TooLong {
        /// Its length.
        length: usize,
        /// `maxLength`.
        max: u64,
    },
    /// A string that does not match `pattern`.
    PatternMismatch {
        /// The pattern.
        pattern: String,
    },
    /// A string that is not in its `format`.
    InvalidFormat {
        /// The format.
        format: Format,
    },
    /// A single-select value that is not one of the options.
    NotAnOption {
        /// The value received.
        value: String,
    },
    /// A multi-select item that is not a string option.
    ItemNotAnOption {
        /// The item's position.
        index: usize,
        /// The item, as JSON.
        value: String,
    },
    /// A multi-select item given twice.
    DuplicateItem {
        /// The repeated value.
        value: String,
    },
    /// Fewer items than `minItems`.
    TooFewItems {
        /// How many were given.
        count: usize,
        /// `minItems`.
        min: u64,
    },
    /// More items than `maxItems`.
    TooManyItems {
        /// How many were given.
        count: usize,
        /// `maxItems`.
        max: u64,
    },
    /// A property the form does not have.
    UnknownKey,
    /// A value that passed every check but that the field's type cannot hold.
    Unrepresentable,
}

impl fmt::Display for ViolationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ViolationKind::Missing => f.write_str("required but missing"),
            ViolationKind::WrongType { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            ViolationKind::NotAnInteger => f.write_str("expected an integer, found a fraction"),
            ViolationKind::OutOfRange {
                value,
                minimum,
                maximum,
            } => {
                write!(f, "{value} is out of range")?;
                match (minimum, maximum) {
                    (Some(min), Some(max)) => write!(f, " ({min}..={max})"),
                    (Some(min), None) => write!(f, " (at least {min})"),
                    (None, Some(max)) => write!(f, " (at most {max})"),
                    (None, None) => Ok(()),
                }
            }
            ViolationKind::TooShort { length, min } => {
                write!(f, "too short: {length} characters, at least {min} required")
            }
            ViolationKind::TooLong { length, max } => {
                write!(f, "too long: {length} characters, at most {max} allowed")
            }
            ViolationKind::PatternMismatch { pattern } => {
                write!(f, "does not match the pattern `{pattern}`")
            }
            ViolationKind::InvalidFormat { format } => write!(f, "not a valid {format}"),
            ViolationKind::NotAnOption { value } => {
                write!(f, "{value:?} is not one of the options")
            }
            ViolationKind::ItemNotAnOption { index, value } => {
                write!(f, "item {index} ({value}) is not one of the options")
            }
            ViolationKind::DuplicateItem { value } => write!(f, "{value:?} is selected twice"),
            ViolationKind::TooFewItems { count, min } => {
                write!(f, "{count} selected, at least {min} required")
            }
            ViolationKind::TooManyItems { count, max } => {
                write!(f, "{count} selected, at most {max} allowed")
            }
            ViolationKind::UnknownKey => f.write_str("not a field of this form"),
            ViolationKind::Unrepresentable => {
                f.write_str("valid, but the field's Rust type cannot hold it")
            }
        }
    }
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn num_to_string(n: Num) -> String {
    match n.to_json() {
        Some(n) => n.to_string(),
        None => format!("{n:?}"),
    }
}

/// What validation needs to know of one field, borrowed from a derived form
/// ([`FieldSchema`]) or a received one ([`Field`](super::client::Field)): both are checked
/// by the same code, so they cannot disagree.
#[derive(Clone, Copy)]
pub(crate) struct FieldRules<'a> {
    pub name: &'a str,
    pub kind: RuleKind<'a>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub pattern: Option<&'a Pattern>,
    pub format: Option<Format>,
    /// The tightest bounds in force (for integers, the Rust type's own included).
    pub minimum: Option<Num>,
    pub maximum: Option<Num>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
}

/// The kind of value a field takes.
#[derive(Clone, Copy)]
pub(crate) enum RuleKind<'a> {
    String,
    Integer,
    Number { max_magnitude: f64 },
    Boolean,
    SingleSelect(Options<'a>),
    MultiSelect(Options<'a>),
}

impl RuleKind<'_> {
    fn json_type(&self) -> &'static str {
        match self {
            RuleKind::String | RuleKind::SingleSelect(_) => "string",
            RuleKind::Integer => "integer",
            RuleKind::Number { .. } => "number",
            RuleKind::Boolean => "boolean",
            RuleKind::MultiSelect(_) => "array",
        }
    }
}

/// The options of a select, as either kind of form holds them.
#[derive(Clone, Copy)]
pub(crate) enum Options<'a> {
    Derived(&'a [EnumOption]),
    Received(&'a [super::client::Choice]),
}

impl Options<'_> {
    fn len(&self) -> usize {
        match self {
            Options::Derived(o) => o.len(),
            Options::Received(o) => o.len(),
        }
    }

    fn position(&self, value: &str) -> Option<usize> {
        match self {
            Options::Derived(o) => o.iter().position(|o| o.value == value),
            Options::Received(o) => o.iter().position(|o| o.value == value),
        }
    }
}

impl FieldSchema {
    pub(crate) fn rules(&self) -> FieldRules<'_> {
        let c = &self.constraints;
        FieldRules {
            name: self.name,
            kind: match self.ty {
                FieldType::String { .. } => RuleKind::String,
                FieldType::Integer { .. } => RuleKind::Integer,
                FieldType::Number { max_magnitude } => RuleKind::Number { max_magnitude },
                FieldType::Boolean => RuleKind::Boolean,
                FieldType::SingleSelect { options } => {
                    RuleKind::SingleSelect(Options::Derived(options))
                }
                FieldType::MultiSelect { options } => {
                    RuleKind::MultiSelect(Options::Derived(options))
                }
            },
            min_length: c.min_length,
            max_length: c.max_length,
            pattern: c.pattern.as_ref(),
            format: self.format(),
            minimum: self
                .effective_minimum()
                .or_else(|| own_float_bound(self.ty, -1.0)),
            maximum: self
                .effective_maximum()
                .or_else(|| own_float_bound(self.ty, 1.0)),
            min_items: c.min_items,
            max_items: c.max_items,
        }
    }
}

/// An `f32` field's own limit (`sign` × its largest magnitude), as bounds are reported.
fn own_float_bound(ty: FieldType, sign: f64) -> Option<Num> {
    match ty {
        FieldType::Number { max_magnitude } if max_magnitude < f64::MAX => {
            Some(Num::Float(sign * max_magnitude))
        }
        _ => None,
    }
}

/// Checks one present value against its field; pushes every violation found.
pub(crate) fn check_value(field: &FieldRules<'_>, value: &Value, out: &mut Vec<Violation>) {
    let mut push = |kind| {
        out.push(Violation {
            field: field.name.to_owned(),
            kind,
        })
    };
    let wrong_type = |value: &Value| ViolationKind::WrongType {
        expected: field.kind.json_type(),
        found: json_type(value),
    };
    match field.kind {
        RuleKind::String => {
            let Some(s) = value.as_str() else {
                return push(wrong_type(value));
            };
            // A string of `b` bytes has between `b / 4` (rounded up) and `b` code points:
            // they are counted only when the bounds cannot settle it from `b`.
            let bytes = s.len() as u64;
            let surely_fits = field.min_length.is_none_or(|min| bytes.div_ceil(4) >= min)
                && field.max_length.is_none_or(|max| bytes <= max);
            if !surely_fits {
                let length = s.chars().count();
                if let Some(min) = field.min_length
                    && (length as u64) < min
                {
                    push(ViolationKind::TooShort { length, min });
                }
                if let Some(max) = field.max_length
                    && (length as u64) > max
                {
                    push(ViolationKind::TooLong { length, max });
                }
            }
            if let Some(pattern) = field.pattern
                && pattern.is_match(s) != Some(true)
            {
                push(ViolationKind::PatternMismatch {
                    pattern: pattern.as_str().to_owned(),
                });
            }
            if let Some(format) = field.format
                && !format_matches(format, s)
            {
                push(ViolationKind::InvalidFormat { format });
            }
        }
        RuleKind::Boolean => {
            if !value.is_boolean() {
                push(wrong_type(value));
            }
        }
        RuleKind::Integer => {
            // JSON Schema's integer: any number whose fractional part is zero (`1e20`, `3.0`),
            // of any size; the bounds in force (a Rust field's type's own among them) are
            // compared exactly.
            let Some(number) = value.as_number() else {
                return push(wrong_type(value));
            };
            let n = Num::of_json(number);
            if !n.is_integer() {
                return push(ViolationKind::NotAnInteger);
            }
            if outside_bounds(n, field) {
                push(out_of_range(number.to_string(), field));
            }
        }
        RuleKind::Number { max_magnitude } => {
            let Some(number) = value.as_number() else {
                return push(wrong_type(value));
            };
            let n = Num::of_json(number);
            // (A JSON number is finite.)
            if n.as_f64().abs() > max_magnitude || outside_bounds(n, field) {
                push(out_of_range(number.to_string(), field));
            }
        }
        RuleKind::SingleSelect(options) => {
            let Some(s) = value.as_str() else {
                return push(wrong_type(value));
            };
            if options.position(s).is_none() {
                push(ViolationKind::NotAnOption {
                    value: s.to_owned(),
                });
            }
        }
        RuleKind::MultiSelect(options) => {
            let Some(items) = value.as_array() else {
                return push(wrong_type(value));
            };
            let mut seen = Seen::new(options.len());
            for (index, item) in items.iter().enumerate() {
                let option = item.as_str().and_then(|s| Some((s, options.position(s)?)));
                match option {
                    Some((s, option)) => {
                        if !seen.insert(option) {
                            push(ViolationKind::DuplicateItem {
                                value: s.to_owned(),
                            });
                        }
                    }
                    _ => push(ViolationKind::ItemNotAnOption {
                        index,
                        value: item.to_string(),
                    }),
                }
            }
            let count = items.len();
            if let Some(min) = field.min_items
                && (count as u64) < min
            {
                push(ViolationKind::TooFewItems { count, min });
            }
            if let Some(max) = field.max_items
                && (count as u64) > max
            {
                push(ViolationKind::TooManyItems { count, max });
            }
        }
    }
}

/// The options of a multi-select already selected, by position: a bit set, allocated only
/// for an enum of more than 128 options.
enum Seen {
    Bits(u128),
    Flags(Vec<bool>),
}

impl Seen {
    fn new(options: usize) -> Seen {
        if options <= 128 {
            Seen::Bits(0)
        } else {
            Seen::Flags(vec![false; options])
        }
    }

    /// Marks option `index`; `false` if it was already marked.
    fn insert(&mut self, index: usize) -> bool {
        match self {
            Seen::Bits(bits) => {
                let bit = 1u128 << index;
                let new = *bits & bit == 0;
                *bits |= bit;
                new
            }
            Seen::Flags(flags) => !std::mem::replace(&mut flags[index], true),
        }
    }
}

/// Whether `n` is below `minimum` or above `maximum`, compared exactly.
fn outside_bounds(n: Num, field: &FieldRules<'_>) -> bool {
    let below = field
        .minimum
        .is_some_and(|min| matches!(n.cmp_exact(min), Some(Ordering::Less) | None));
    let above = field
        .maximum
        .is_some_and(|max| matches!(n.cmp_exact(max), Some(Ordering::Greater) | None));
    below || above
}

/// The violation of a number outside its bounds: the message names both (only a bounded
/// field's number can be out of range).
fn out_of_range(value: String, field: &FieldRules<'_>) -> ViolationKind {
    ViolationKind::OutOfRange {
        value,
        minimum: field.minimum.map(num_to_string),
        maximum: field.maximum.map(num_to_string),
    }
}

/// Pushes an [`ViolationKind::UnknownKey`] for every key of `content` the form lacks.
pub(crate) fn check_unknown_keys(
    form: &FormSchema,
    content: &Map<String, Value>,
    out: &mut Vec<Violation>,
) {
    for key in content.keys() {
        if !form.fields.iter().any(|f| f.name == key) {
            out.push(Violation {
                field: key.clone(),
                kind: ViolationKind::UnknownKey,
            });
        }
    }
}

/// Validates `content` against `form` without building a value: every violation, or none.
pub fn validate(form: &FormSchema, content: &Map<String, Value>) -> Result<(), ContentError> {
    let mut out = Vec::new();
    for field in form.fields {
        match content.get(field.name) {
            Some(value) => check_value(&field.rules(), value, &mut out),
            None if field.required => out.push(Violation {
                field: field.name.to_owned(),
                kind: ViolationKind::Missing,
            }),
            None => {}
        }
    }
    check_unknown_keys(form, content, &mut out);
    if out.is_empty() {
        Ok(())
    } else {
        Err(ContentError::from_violations(out))
    }
}

/// Whether `s` is in `format`.
pub fn format_matches(format: Format, s: &str) -> bool {
    match format {
        Format::Email => is_email(s),
        Format::Uri => is_uri(s),
        Format::Date => is_full_date(s),
        Format::DateTime => is_date_time(s),
        Format::IdnEmail => is_idn_email(s),
    }
}

#[cfg(test)]
mod tests {
    use super::Seen;
    use crate::ProtocolVersion;
    use crate::elicit::client::{Form, SetError};
    use serde_json::{Value, json};

    /// A received form with one field `n` of this schema.
    fn form(property: Value) -> Form {
        let params = json!({"message": "m", "requestedSchema": {
            "type": "object", "properties": {"n": property}, "required": ["n"]
        }});
        Form::from_params(&params, ProtocolVersion::V2025_11_25).unwrap()
    }

    fn verdict(form: &Form, value: Value) -> Result<(), String> {
        let content = json!({"n": value});
        form.validate(content.as_object().unwrap())
            .map_err(|e| e.to_string())
    }

    /// JSON text as serde_json reads it (integers beyond `u64` become `f64`).
    fn number(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn unbounded_integers_have_any_size() {
        let unbounded = form(json!({"type": "integer"}));
        for text in [
            "1e20",
            "-1e20",
            "100000000000000000000",
            "-100000000000000000000",
            "18446744073709551616",
            "1.0",
            "-0.0",
            "1e300",
            "1.7976931348623157e308",
            "9223372036854775807",
            "-9223372036854775808",
            "18446744073709551615",
        ] {
            assert_eq!(verdict(&unbounded, number(text)), Ok(()), "{text}");
        }
        for text in ["0.5", "1e-7", "-2.25"] {
            let e = verdict(&unbounded, number(text)).unwrap_err();
            assert!(
                e.ends_with("expected an integer, found a fraction"),
                "{text}: {e}"
            );
        }
    }

    #[test]
    fn integer_bounds_are_compared_exactly() {
        let above_2_53 = form(json!({"type": "integer", "minimum": 9007199254740993_u64}));
        // 9007199254740992 and 9007199254740993 are the same f64: no rounding here.
        assert_eq!(
            verdict(&above_2_53, json!(9007199254740992_u64)),
            Err(
                "invalid elicitation content: field `n`: 9007199254740992 is out of range \
                 (at least 9007199254740993)"
                    .into()
            )
        );
        assert!(verdict(&above_2_53, number("9007199254740992.0")).is_err());
        assert_eq!(verdict(&above_2_53, json!(9007199254740993_u64)), Ok(()));
        assert_eq!(verdict(&above_2_53, number("1e20")), Ok(()));

        let below_u64_max = form(json!({"type": "integer", "maximum": 18446744073709551615_u64}));
        assert_eq!(verdict(&below_u64_max, json!(u64::MAX)), Ok(()));
        // 2^64 as an f64: one more than the maximum, not rounded down to it.
        assert_eq!(
            verdict(&below_u64_max, number("18446744073709551616")),
            Err(
                "invalid elicitation content: field `n`: 1.8446744073709552e+19 is out of range \
                 (at most 18446744073709551615)"
                    .into()
            )
        );

        // A bound beyond u64 (read as an f64) against integers.
        let huge = form(json!({"type": "integer", "minimum": 1e20, "maximum": 1e21}));
        assert_eq!(verdict(&huge, number("100000000000000000000")), Ok(()));
        assert_eq!(verdict(&huge, number("1e21")), Ok(()));
        assert_eq!(
            verdict(&huge, json!(u64::MAX)),
            Err(
                "invalid elicitation content: field `n`: 18446744073709551615 is out of range \
                 (1e+20..=1e+21)"
                    .into()
            )
        );
        let fraction_bounds = form(json!({"type": "integer", "minimum": -2.5, "maximum": 2.5}));
        assert_eq!(verdict(&fraction_bounds, json!(-2)), Ok(()));
        assert_eq!(verdict(&fraction_bounds, json!(2.0)), Ok(()));
        assert!(verdict(&fraction_bounds, json!(-3)).is_err());
        assert!(verdict(&fraction_bounds, json!(3)).is_err());

        // Number fields compare exactly too.
        let number_field = form(json!({"type": "number", "maximum": 9007199254740992_u64}));
        assert!(verdict(&number_field, json!(9007199254740993_u64)).is_err());
        assert_eq!(verdict(&number_field, json!(9007199254740992.0)), Ok(()));
    }

    #[test]
    fn out_of_range_names_the_range() {
        for (property, value, range) in [
            (
                json!({"type": "integer", "minimum": 1, "maximum": 12}),
                json!(1e20),
                "(1..=12)",
            ),
            (
                json!({"type": "integer", "maximum": 12}),
                json!(1e20),
                "(at most 12)",
            ),
            (
                json!({"type": "integer", "minimum": 0}),
                json!(-1e20),
                "(at least 0)",
            ),
            (
                json!({"type": "number", "minimum": 0.5}),
                json!(0.25),
                "(at least 0.5)",
            ),
        ] {
            let e = verdict(&form(property.clone()), value.clone()).unwrap_err();
            assert!(
                e.ends_with(&format!("is out of range {range}")),
                "{property} {value}: {e}"
            );
        }
    }

    #[test]
    fn typed_integers_have_any_size() {
        let f = form(json!({"type": "integer"}));
        let field = &f.fields()[0];
        for (text, json) in [
            ("42", "42"),
            (" -7 ", "-7"),
            ("+7", "7"),
            ("007", "7"),
            ("1.0", "1"),
            ("1.000e3", "1000"),
            ("2.5e3", "2500"),
            ("25e-1", "2.5"),
            ("0.0", "0"),
            ("-0", "0"),
            ("0e999999999999999999999", "0"),
            ("9223372036854775807", "9223372036854775807"),
            ("-9223372036854775808", "-9223372036854775808"),
            ("18446744073709551615", "18446744073709551615"),
            ("100000000000000000000", "1e20"),
            ("-100000000000000000000", "-1e20"),
            ("1e20", "1e20"),
            ("1E20", "1e20"),
            ("1e+20", "1e20"),
            ("18446744073709551616", "1.8446744073709552e19"),
            ("1e22", "1e22"),
        ] {
            let read = field.read(text);
            if json == "2.5" {
                assert!(
                    matches!(read, Err(SetError::Unreadable { .. })),
                    "{text}: {read:?}"
                );
                continue;
            }
            assert_eq!(read, Ok(number(json)), "{text}");
            assert_eq!(field.check(&read.unwrap()), Ok(()), "{text}");
        }
        // Integers read as integers where they fit, as f64 beyond.
        assert!(field.read("18446744073709551615").unwrap().is_u64());
        assert!(field.read("1e3").unwrap().is_u64());
        assert!(field.read("1e20").unwrap().is_f64());
        for text in [
            "7.5", "1e-1", "", "-", "1.", ".5", "1e", "1e+", "0x10", "1_000", "inf", "NaN", "1 2",
            "e5",
        ] {
            let read = field.read(text);
            assert_eq!(
                read,
                Err(SetError::Unreadable {
                    field: "n".into(),
                    text: text.into(),
                    expected: "an integer"
                }),
                "{text:?}"
            );
        }
        // An integer no JSON number here carries exactly is refused, not rounded.
        // (1e23 and 1e308 too: no f64 is 10^23 or 10^308 exactly.)
        for text in [
            "100000000000000000001",
            "-9223372036854775809",
            "1e23",
            "1e308",
            "1e309",
            "123456789012345678901234567890",
        ] {
            let read = field.read(text);
            let Err(SetError::Unreadable { expected, .. }) = &read else {
                panic!("{text}: {read:?}");
            };
            assert!(expected.contains("exactly"), "{text}: {expected}");
        }
    }

    #[test]
    fn seen_marks_each_option_once() {
        // Both representations: the bit set (up to 128 options) and the flags.
        for options in [1, 3, 127, 128, 129, 300] {
            let mut seen = Seen::new(options);
            for index in (0..options).rev() {
                assert!(seen.insert(index), "{options} options, first {index}");
                assert!(!seen.insert(index), "{options} options, again {index}");
            }
            assert!(!seen.insert(0) && !seen.insert(options - 1));
        }
    }
}
