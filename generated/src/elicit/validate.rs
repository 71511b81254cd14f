//! Strict validation of the `content` of an `ElicitResult` against a [`FormSchema`].

use std::fmt;

use serde_json::{Map, Value};

use super::field::json_integer;
pub use super::formats::{is_date_time, is_email, is_full_date, is_uri};
use super::schema::{EnumOption, FieldSchema, FieldType, FormSchema, Format, Num, Pattern};

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
    /// A number outside `minimum`/`maximum` or the range of the field's type.
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
            let Some(number) = value.as_number() else {
                return push(wrong_type(value));
            };
            let Some(i) = json_integer(value) else {
                let f = number.as_f64().unwrap_or(f64::NAN);
                return push(if f.is_finite() && f.fract() != 0.0 {
                    ViolationKind::NotAnInteger
                } else {
                    out_of_range(number.to_string(), field)
                });
            };
            let below = field.minimum.is_some_and(|min| match min {
                Num::Int(min) => i < min,
                Num::Float(min) => (i as f64) < min,
            });
            let above = field.maximum.is_some_and(|max| match max {
                Num::Int(max) => i > max,
                Num::Float(max) => (i as f64) > max,
            });
            if below || above {
                push(out_of_range(number.to_string(), field));
            }
        }
        RuleKind::Number { max_magnitude } => {
            let Some(number) = value.as_number() else {
                return push(wrong_type(value));
            };
            let f = number.as_f64().unwrap_or(f64::NAN);
            let outside = !f.is_finite()
                || f.abs() > max_magnitude
                || field.minimum.is_some_and(|min| f < min.as_f64())
                || field.maximum.is_some_and(|max| f > max.as_f64());
            if outside {
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
    }
}

#[cfg(test)]
mod tests {
    use super::Seen;

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
