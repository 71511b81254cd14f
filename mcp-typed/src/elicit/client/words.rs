//! A received form's rules and problems in a person's words, for any client to show: what to
//! type in a field, with an example of the expected format ([`Field::hint`]), and why a value
//! was refused, naming the field by its title ([`Field::explain`], [`Field::explain_error`],
//! [`Form::explain`]).
//!
//! The `Display` of [`ViolationKind`] and [`SetError`] is for logs and error replies (it names
//! fields by their property name, ranges as `1..=100`); these are for the person filling in
//! the form.

use serde_json::Value;

use crate::elicit::schema::{Format, Num};
use crate::elicit::validate::{ContentError, ViolationKind};

use super::answer::SetError;
use super::form::{Field, FieldKind, Form};

/// What a value that is not in `format` is not: `a valid date`. (`Format::describe` and
/// `Format::example` give the words and an example of each format.)
fn noun(format: Format) -> &'static str {
    match format {
        Format::Date => "a valid date",
        Format::DateTime => "a valid date and time",
        Format::Email | Format::IdnEmail => "a valid email address",
        Format::Uri => "a valid address",
    }
}

/// A range in words: `between 1 and 100`, `at least 1`, `at most 100`, `exactly 5`.
fn range(min: Option<String>, max: Option<String>) -> Option<String> {
    match (min, max) {
        (Some(min), Some(max)) if min == max => Some(format!("exactly {min}")),
        (Some(min), Some(max)) => Some(format!("between {min} and {max}")),
        (Some(min), None) => Some(format!("at least {min}")),
        (None, Some(max)) => Some(format!("at most {max}")),
        (None, None) => None,
    }
}

fn characters(n: u64) -> &'static str {
    if n == 1 { "character" } else { "characters" }
}

/// A length limit in words: `between 2 and 20 characters`, `at most 20 characters`.
fn lengths(min: Option<u64>, max: Option<u64>) -> Option<String> {
    // `minLength: 0` is no limit.
    let min = min.filter(|&m| m > 0);
    let last = max.or(min)?;
    let span = range(min.map(|m| m.to_string()), max.map(|m| m.to_string()))?;
    Some(format!("{span} {}", characters(last)))
}

/// A kind of number with its range: `a whole number between 1 and 100`, `a number of at
/// least 0.5`.
fn ranged(noun: &str, min: Option<String>, max: Option<String>) -> String {
    match range(min, max) {
        Some(range) if range.starts_with("at ") => format!("{noun} of {range}"),
        Some(range) if range.starts_with("exactly ") => format!("{noun} equal to {}", &range[8..]),
        Some(range) => format!("{noun} {range}"),
        None => noun.to_owned(),
    }
}

/// A JSON type in words.
fn type_words(json_type: &str) -> &str {
    match json_type {
        "string" => "text",
        "integer" => "a whole number",
        "number" => "a number",
        "boolean" => "yes or no",
        "array" => "a list",
        "object" => "a group of values",
        "null" => "nothing (null)",
        other => other,
    }
}

fn quoted(text: &str) -> String {
    format!("“{text}”")
}

/// The kind of a field and its rules, in words: `text (an email address; at most 20
/// characters)`, `a whole number between 1 and 12`, `yes or no`, `one of: Small, Large`,
/// `between 1 and 2 of: red, green, blue`. (With an example of what to type: [`Field::hint`].)
impl std::fmt::Display for FieldKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ranged_num = |noun: &str, min: &Option<Num>, max: &Option<Num>| {
            ranged(noun, min.map(|n| n.to_string()), max.map(|n| n.to_string()))
        };
        match self {
            FieldKind::Text {
                format,
                min_length,
                max_length,
                pattern,
            } => {
                let mut rules = Vec::new();
                rules.extend(format.map(|format| format.describe().to_owned()));
                rules.extend(lengths(*min_length, *max_length));
                rules.extend(
                    pattern
                        .as_ref()
                        .map(|p| format!("matching the pattern {}", p.as_str())),
                );
                if rules.is_empty() {
                    f.write_str("text")
                } else {
                    write!(f, "text ({})", rules.join("; "))
                }
            }
            FieldKind::Integer { minimum, maximum } => {
                f.write_str(&ranged_num("a whole number", minimum, maximum))
            }
            FieldKind::Number { minimum, maximum } => {
                f.write_str(&ranged_num("a number", minimum, maximum))
            }
            FieldKind::Boolean => f.write_str("yes or no"),
            FieldKind::SingleSelect { options, .. } => write!(f, "one of: {}", labels(options)),
            FieldKind::MultiSelect {
                options,
                min_items,
                max_items,
            } => {
                let how_many = range(
                    min_items.filter(|&m| m > 0).map(|m| m.to_string()),
                    max_items.map(|m| m.to_string()),
                )
                .unwrap_or_else(|| "any".to_owned());
                write!(f, "{how_many} of: {}", labels(options))
            }
        }
    }
}

impl Field {
    /// What to type or choose in this field, in words, with an example of the expected
    /// format where there is one: `an email address, e.g. ada@example.com`, `a whole number
    /// between 1 and 100, e.g. 42`, `at most 20 characters`, `one of: Small, Large`,
    /// `yes or no`. `None` for free text with no rules (anything goes).
    ///
    /// The example of a number is the field's default when it has a valid one.
    pub fn hint(&self) -> Option<String> {
        match &self.kind {
            FieldKind::Text {
                format,
                min_length,
                max_length,
                pattern,
            } => {
                let mut parts = Vec::new();
                if let Some(format) = format {
                    parts.push(format!("{}, e.g. {}", format.describe(), format.example()));
                }
                if let Some(lengths) = lengths(*min_length, *max_length) {
                    parts.push(lengths);
                }
                if let Some(pattern) = pattern {
                    parts.push(format!("matching the pattern {}", pattern.as_str()));
                }
                (!parts.is_empty()).then(|| parts.join("; "))
            }
            FieldKind::Integer { minimum, maximum } => {
                Some(self.number_hint("a whole number", *minimum, *maximum, &[Value::from(42)]))
            }
            FieldKind::Number { minimum, maximum } => Some(self.number_hint(
                "a number",
                *minimum,
                *maximum,
                &[Value::from(2.5), Value::from(42)],
            )),
            FieldKind::Boolean => Some("yes or no".to_owned()),
            FieldKind::SingleSelect { options, .. } => Some(format!("one of: {}", labels(options))),
            FieldKind::MultiSelect {
                options,
                min_items,
                max_items,
            } => {
                let how_many = range(
                    min_items.filter(|&m| m > 0).map(|m| m.to_string()),
                    max_items.map(|m| m.to_string()),
                )
                .unwrap_or_else(|| "any".to_owned());
                Some(format!("{how_many} of: {}", labels(options)))
            }
        }
    }

    /// `a whole number between 1 and 100, e.g. 42`: the example is the first of the
    /// default, `tries`, the minimum and the maximum that the field accepts.
    fn number_hint(
        &self,
        noun: &str,
        minimum: Option<Num>,
        maximum: Option<Num>,
        tries: &[Value],
    ) -> String {
        let mut out = ranged(
            noun,
            minimum.map(|n| n.to_string()),
            maximum.map(|n| n.to_string()),
        );
        let bounds = [minimum, maximum]
            .into_iter()
            .flatten()
            .filter_map(|n| n.to_json().map(Value::Number));
        let example = self
            .default
            .iter()
            .cloned()
            .chain(tries.iter().cloned())
            .chain(bounds)
            .find(|v| self.check(v).is_ok());
        if let Some(example) = example {
            out.push_str(&format!(", e.g. {example}"));
        }
        out
    }

    /// What to do to fill this field in, for a message: `type a whole number between 1 and
    /// 100, e.g. 42`, `choose yes or no`.
    fn instruction(&self) -> String {
        match &self.kind {
            FieldKind::Text { .. } | FieldKind::Integer { .. } | FieldKind::Number { .. } => {
                match self.hint() {
                    Some(hint) => format!("type {hint}"),
                    None => "type a value".to_owned(),
                }
            }
            FieldKind::Boolean => "choose yes or no".to_owned(),
            FieldKind::SingleSelect { .. } => "choose one of the options".to_owned(),
            FieldKind::MultiSelect { min_items, .. } => match min_items {
                Some(min) if *min > 1 => format!("choose at least {min} options"),
                _ => "choose at least one option".to_owned(),
            },
        }
    }

    /// What this field takes, as a noun: `a whole number`, `text`.
    fn noun(&self) -> &'static str {
        match &self.kind {
            FieldKind::Text { .. } => "text",
            FieldKind::Integer { .. } => "a whole number",
            FieldKind::Number { .. } => "a number",
            FieldKind::Boolean => "yes or no",
            FieldKind::SingleSelect { .. } => "one of its options",
            FieldKind::MultiSelect { .. } => "a list of its options",
        }
    }

    /// The label of the option with this value, else the value.
    fn option_label<'a>(&'a self, value: &'a str) -> &'a str {
        self.kind
            .options()
            .unwrap_or_default()
            .iter()
            .find(|o| o.value == value)
            .map_or(value, |o| o.label())
    }

    /// Why a value was refused, in a person's words: the field named by its title, what is
    /// wrong, and what to type instead with an example (`Integer: 150 is too large; type a
    /// whole number between 1 and 100, e.g. 42.`). `kind` is one of the violations that
    /// [`Field::check`] (or [`Answer::validate`](super::Answer::validate)) found for this
    /// field.
    pub fn explain(&self, kind: &ViolationKind) -> String {
        let label = self.label();
        match kind {
            ViolationKind::Missing => format!("{label}: required; {}.", self.instruction()),
            ViolationKind::WrongType { expected, found } => format!(
                "{label}: {} where {} is expected.",
                type_words(found),
                type_words(expected)
            ),
            ViolationKind::NotAnInteger => {
                format!("{label}: not a whole number; {}.", self.instruction())
            }
            ViolationKind::OutOfRange {
                value,
                minimum,
                maximum,
            } => {
                let number = value.parse::<f64>().ok();
                let below = |bound: &Option<String>| {
                    bound
                        .as_deref()
                        .and_then(|b| b.parse::<f64>().ok())
                        .zip(number)
                };
                let side = if below(minimum).is_some_and(|(min, n)| n < min) {
                    "too small"
                } else if below(maximum).is_some_and(|(max, n)| n > max) {
                    "too large"
                } else {
                    "out of range"
                };
                if minimum.is_none() && maximum.is_none() {
                    format!("{label}: {value} is {side} for this field.")
                } else {
                    let what = ranged(self.noun(), minimum.clone(), maximum.clone());
                    format!("{label}: {value} is {side}; type {what}.")
                }
            }
            ViolationKind::TooShort { length, min } => format!(
                "{label}: too short ({length} {}); type at least {min} {}.",
                characters(*length as u64),
                characters(*min)
            ),
            ViolationKind::TooLong { length, max } => format!(
                "{label}: too long ({length} {}); type at most {max} {}.",
                characters(*length as u64),
                characters(*max)
            ),
            ViolationKind::PatternMismatch { pattern } => {
                format!("{label}: not in the expected form; it must match the pattern {pattern}.")
            }
            ViolationKind::InvalidFormat { format } => format!(
                "{label}: not {}; type {}, e.g. {}.",
                noun(*format),
                format.describe(),
                format.example()
            ),
            ViolationKind::NotAnOption { value } => format!(
                "{label}: {} is not one of the options; choose one of: {}.",
                quoted(value),
                labels(self.kind.options().unwrap_or_default())
            ),
            ViolationKind::ItemNotAnOption { index, value } => format!(
                "{label}: choice {} ({value}) is not one of the options.",
                index + 1
            ),
            ViolationKind::DuplicateItem { value } => format!(
                "{label}: {} is chosen twice; choose each option once.",
                quoted(self.option_label(value))
            ),
            ViolationKind::TooFewItems { count, min } => {
                format!("{label}: {count} chosen; choose at least {min}.")
            }
            ViolationKind::TooManyItems { count, max } => {
                format!("{label}: {count} chosen; choose at most {max}.")
            }
            ViolationKind::UnknownKey => {
                format!("{} is not a field of this form.", quoted(&self.name))
            }
            ViolationKind::Unrepresentable => format!(
                "{label}: the value fits the form, but the program that asked cannot hold it."
            ),
            // `ViolationKind` is non-exhaustive: a kind added before its words here is shown
            // by its own message, still naming the field by its title.
            #[allow(unreachable_patterns)]
            other => format!("{label}: {other}."),
        }
    }

    /// Why text typed for this field could not be read or set ([`Field::read`],
    /// [`Answer::parse`](super::Answer::parse), the setters), in a person's words:
    /// `Integer: “7.5” is not a whole number; type a whole number between 1 and 100, e.g. 42.`
    pub fn explain_error(&self, error: &SetError) -> String {
        let label = self.label();
        match error {
            SetError::UnknownField(name) => {
                format!("This form has no field {}.", quoted(name))
            }
            SetError::WrongKind { given, .. } => {
                format!("{label}: takes {}, not {given}.", self.noun())
            }
            SetError::Unreadable { text, .. } => format!(
                "{label}: {} is not {}; {}.",
                quoted(text),
                self.noun(),
                self.instruction()
            ),
            SetError::NotAnOption { value, .. } => format!(
                "{label}: {} is not one of the options; choose one of: {}.",
                quoted(value),
                labels(self.kind.options().unwrap_or_default())
            ),
            // Non-exhaustive, as above.
            #[allow(unreachable_patterns)]
            other => format!("{label}: {other}."),
        }
    }
}

/// The options' labels, comma-separated.
fn labels(options: &[super::form::Choice]) -> String {
    options
        .iter()
        .map(|o| o.label())
        .collect::<Vec<_>>()
        .join(", ")
}

impl Form {
    /// Every violation of `error` in a person's words ([`Field::explain`]), in its order;
    /// a key the form does not have is named as it was sent.
    ///
    /// ```
    /// use mcp_typed::elicit::client::Form;
    /// use mcp_typed::ProtocolVersion;
    ///
    /// let params = serde_json::json!({
    ///     "message": "Book a table",
    ///     "requestedSchema": {
    ///         "type": "object",
    ///         "properties": {
    ///             "guests": {"type": "integer", "title": "Guests", "minimum": 1, "maximum": 12},
    ///             "day": {"type": "string", "title": "Day", "format": "date"}
    ///         },
    ///         "required": ["guests", "day"]
    ///     }
    /// });
    /// let form = Form::from_params(&params, ProtocolVersion::V2025_11_25)?;
    ///
    /// // Before asking: what to type, with an example.
    /// let day = form.field("day").unwrap();
    /// assert_eq!(day.hint().as_deref(), Some("a date as year-month-day, e.g. 2026-03-14"));
    ///
    /// // After: why it was refused, by the field's title.
    /// let mut answer = form.answer();
    /// answer.parse("guests", "40")?.set_text("day", "14/03/2026")?;
    /// let error = answer.validate().unwrap_err();
    /// assert_eq!(form.explain(&error), [
    ///     "Guests: 40 is too large; type a whole number between 1 and 12.",
    ///     "Day: not a valid date; type a date as year-month-day, e.g. 2026-03-14.",
    /// ]);
    ///
    /// // Text that is not even a number.
    /// let guests = form.field("guests").unwrap();
    /// let error = guests.read("7.5").unwrap_err();
    /// assert_eq!(
    ///     guests.explain_error(&error),
    ///     "Guests: “7.5” is not a whole number; type a whole number between 1 and 12, e.g. 1."
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn explain(&self, error: &ContentError) -> Vec<String> {
        error
            .violations()
            .iter()
            .map(|v| match self.field(&v.field) {
                Some(field) => field.explain(&v.kind),
                None => match v.kind {
                    ViolationKind::UnknownKey => format!(
                        "The answer has {}, which is not a field of this form.",
                        quoted(&v.field)
                    ),
                    ref kind => format!("{}: {kind}.", v.field),
                },
            })
            .collect()
    }

    /// A [`SetError`] from an [`Answer`](super::Answer) of this form in a person's words
    /// ([`Field::explain_error`], the field found by the name the error holds).
    pub fn explain_error(&self, error: &SetError) -> String {
        let name = match error {
            SetError::WrongKind { field, .. }
            | SetError::Unreadable { field, .. }
            | SetError::NotAnOption { field, .. } => Some(field),
            _ => None,
        };
        match name.and_then(|n| self.field(n)) {
            Some(field) => field.explain_error(error),
            None => match error {
                SetError::UnknownField(name) => {
                    format!("This form has no field {}.", quoted(name))
                }
                other => format!("{other}."),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::ProtocolVersion;
    use crate::elicit::schema::Pattern;

    fn form() -> Form {
        let params = json!({
            "message": "All kinds",
            "requestedSchema": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "title": "Full name", "minLength": 2, "maxLength": 20},
                    "note": {"type": "string"},
                    "born": {"type": "string", "title": "Birthday", "format": "date"},
                    "at": {"type": "string", "title": "Start", "format": "date-time"},
                    "mail": {"type": "string", "title": "Email", "format": "email"},
                    "site": {"type": "string", "title": "Website", "format": "uri"},
                    "count": {"type": "integer", "title": "Count", "minimum": 1, "maximum": 100, "default": 7},
                    "any": {"type": "integer", "title": "Any integer"},
                    "price": {"type": "number", "title": "Price", "minimum": 0.5},
                    "ok": {"type": "boolean", "title": "Agree"},
                    "size": {"type": "string", "title": "Size", "oneOf": [
                        {"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}
                    ]},
                    "tags": {"type": "array", "title": "Tags", "minItems": 1, "maxItems": 2,
                        "items": {"type": "string", "enum": ["red", "green", "blue"]}}
                },
                "required": ["name", "ok", "size", "tags", "count"]
            }
        });
        Form::from_params(&params, ProtocolVersion::V2025_11_25).unwrap()
    }

    fn field<'f>(form: &'f Form, name: &str) -> &'f Field {
        form.field(name).unwrap()
    }

    /// The explanation of the only violation `value` gets in field `name`.
    fn refused(form: &Form, name: &str, value: Value) -> String {
        let error = field(form, name).check(&value).unwrap_err();
        let [violation] = error.violations() else {
            panic!("one violation expected: {error}");
        };
        field(form, name).explain(&violation.kind)
    }

    #[test]
    fn a_field_kind_displays_its_rules_in_words() {
        let form = form();
        let kind = |name| field(&form, name).kind.to_string();
        assert_eq!(kind("name"), "text (between 2 and 20 characters)");
        assert_eq!(kind("note"), "text");
        assert_eq!(kind("mail"), format!("text ({})", Format::Email.describe()));
        assert_eq!(kind("count"), "a whole number between 1 and 100");
        assert_eq!(kind("any"), "a whole number");
        assert_eq!(kind("ok"), "yes or no");
        assert_eq!(kind("size"), "one of: Small, Large");
        assert_eq!(kind("tags"), "between 1 and 2 of: red, green, blue");
    }

    #[test]
    fn a_form_reply_displays_its_action_and_content() {
        use crate::elicit::client::FormReply;
        let content = serde_json::Map::from_iter([("count".to_owned(), json!(4))]);
        assert_eq!(
            FormReply::Accept(content).to_string(),
            r#"accept {"count":4}"#
        );
        assert_eq!(FormReply::Decline.to_string(), "decline");
        assert_eq!(FormReply::Cancel.to_string(), "cancel");
    }

    #[test]
    fn words_hint_says_what_to_type_with_an_example() {
        let form = form();
        let hint = |name| field(&form, name).hint();
        assert_eq!(hint("name").as_deref(), Some("between 2 and 20 characters"));
        assert_eq!(hint("note"), None);
        assert_eq!(
            hint("born").as_deref(),
            Some("a date as year-month-day, e.g. 2026-03-14")
        );
        assert_eq!(
            hint("at").as_deref(),
            Some("a date and time with its time zone, e.g. 2026-03-14T09:30:00Z")
        );
        assert_eq!(
            hint("mail").as_deref(),
            Some("an email address, e.g. ada@example.com")
        );
        assert_eq!(
            hint("site").as_deref(),
            Some("a full address with its scheme, e.g. https://example.com/")
        );
        // The default is the example when it is valid.
        assert_eq!(
            hint("count").as_deref(),
            Some("a whole number between 1 and 100, e.g. 7")
        );
        assert_eq!(hint("any").as_deref(), Some("a whole number, e.g. 42"));
        assert_eq!(
            hint("price").as_deref(),
            Some("a number of at least 0.5, e.g. 2.5")
        );
        assert_eq!(hint("ok").as_deref(), Some("yes or no"));
        assert_eq!(hint("size").as_deref(), Some("one of: Small, Large"));
        assert_eq!(
            hint("tags").as_deref(),
            Some("between 1 and 2 of: red, green, blue")
        );
    }

    #[test]
    fn words_hint_of_limits_in_words() {
        let text = |min, max| Field {
            name: "t".into(),
            title: None,
            description: None,
            required: false,
            default: None,
            kind: FieldKind::Text {
                format: None,
                min_length: min,
                max_length: max,
                pattern: None,
            },
        };
        assert_eq!(
            text(None, Some(20)).hint().as_deref(),
            Some("at most 20 characters")
        );
        assert_eq!(
            text(Some(3), None).hint().as_deref(),
            Some("at least 3 characters")
        );
        assert_eq!(
            text(Some(1), Some(1)).hint().as_deref(),
            Some("exactly 1 character")
        );
        assert_eq!(text(Some(0), None).hint(), None);
        // An example outside the range is never given: the bound is.
        let small = Field {
            kind: FieldKind::Integer {
                minimum: Some(Num::Int(100)),
                maximum: Some(Num::Int(200)),
            },
            ..text(None, None)
        };
        assert_eq!(
            small.hint().as_deref(),
            Some("a whole number between 100 and 200, e.g. 100")
        );
        let pattern = Field {
            kind: FieldKind::Text {
                format: None,
                min_length: None,
                max_length: None,
                pattern: Some(Pattern::new("^[A-Z]{3}$")),
            },
            ..text(None, None)
        };
        assert_eq!(
            pattern.hint().as_deref(),
            Some("matching the pattern ^[A-Z]{3}$")
        );
    }

    #[test]
    fn words_explain_missing_per_kind() {
        let form = form();
        let missing = |name| field(&form, name).explain(&ViolationKind::Missing);
        assert_eq!(
            missing("name"),
            "Full name: required; type between 2 and 20 characters."
        );
        assert_eq!(missing("note"), "note: required; type a value.");
        assert_eq!(
            missing("count"),
            "Count: required; type a whole number between 1 and 100, e.g. 7."
        );
        assert_eq!(missing("ok"), "Agree: required; choose yes or no.");
        assert_eq!(
            missing("size"),
            "Size: required; choose one of the options."
        );
        assert_eq!(
            missing("tags"),
            "Tags: required; choose at least one option."
        );
        // And what Answer::validate reports for an empty answer, by title.
        let error = form.answer().validate().unwrap_err();
        let words = form.explain(&error);
        assert!(
            words.contains(&"Agree: required; choose yes or no.".to_owned()),
            "{words:?}"
        );
    }

    #[test]
    fn words_explain_wrong_type() {
        let form = form();
        assert_eq!(
            refused(&form, "count", json!("seven")),
            "Count: text where a whole number is expected."
        );
        assert_eq!(
            refused(&form, "ok", json!(1)),
            "Agree: a whole number where yes or no is expected."
        );
        assert_eq!(
            refused(&form, "tags", json!({"a": 1})),
            "Tags: a group of values where a list is expected."
        );
    }

    #[test]
    fn words_explain_not_an_integer() {
        let form = form();
        assert_eq!(
            refused(&form, "count", json!(7.5)),
            "Count: not a whole number; type a whole number between 1 and 100, e.g. 7."
        );
    }

    #[test]
    fn words_explain_out_of_range_in_words() {
        let form = form();
        assert_eq!(
            refused(&form, "count", json!(150)),
            "Count: 150 is too large; type a whole number between 1 and 100."
        );
        assert_eq!(
            refused(&form, "count", json!(0)),
            "Count: 0 is too small; type a whole number between 1 and 100."
        );
        assert_eq!(
            refused(&form, "price", json!(0.25)),
            "Price: 0.25 is too small; type a number of at least 0.5."
        );
        // No bounds named (a limit of the field's type, say).
        let kind = ViolationKind::OutOfRange {
            value: "1e400".into(),
            minimum: None,
            maximum: None,
        };
        assert_eq!(
            field(&form, "any").explain(&kind),
            "Any integer: 1e400 is out of range for this field."
        );
    }

    #[test]
    fn words_explain_lengths() {
        let form = form();
        assert_eq!(
            refused(&form, "name", json!("A")),
            "Full name: too short (1 character); type at least 2 characters."
        );
        assert_eq!(
            refused(
                &form,
                "name",
                json!("Ada Augusta King, Countess of Lovelace")
            ),
            "Full name: too long (38 characters); type at most 20 characters."
        );
    }

    #[test]
    fn words_explain_pattern_mismatch() {
        let field = Field {
            name: "code".into(),
            title: Some("Airport".into()),
            description: None,
            required: true,
            default: None,
            kind: FieldKind::Text {
                format: None,
                min_length: None,
                max_length: None,
                pattern: Some(Pattern::new("^[A-Z]{3}$")),
            },
        };
        let error = field.check(&json!("lhr")).unwrap_err();
        assert_eq!(
            field.explain(&error.violations()[0].kind),
            "Airport: not in the expected form; it must match the pattern ^[A-Z]{3}$."
        );
    }

    #[test]
    fn words_explain_every_format_with_an_example() {
        let form = form();
        assert_eq!(
            refused(&form, "born", json!("10/12/1815")),
            "Birthday: not a valid date; type a date as year-month-day, e.g. 2026-03-14."
        );
        assert_eq!(
            refused(&form, "at", json!("2026-03-14 09:30")),
            "Start: not a valid date and time; type a date and time with its time zone, \
             e.g. 2026-03-14T09:30:00Z."
        );
        assert_eq!(
            refused(&form, "mail", json!("ada@")),
            "Email: not a valid email address; type an email address, e.g. ada@example.com."
        );
        assert_eq!(
            refused(&form, "site", json!("example.com")),
            "Website: not a valid address; type a full address with its scheme, \
             e.g. https://example.com/."
        );
        // Each example is itself valid.
        for name in ["born", "at", "mail", "site"] {
            let FieldKind::Text {
                format: Some(format),
                ..
            } = field(&form, name).kind
            else {
                unreachable!()
            };
            assert!(
                field(&form, name).check(&json!(format.example())).is_ok(),
                "{format}"
            );
        }
    }

    #[test]
    fn words_explain_options() {
        let form = form();
        assert_eq!(
            refused(&form, "size", json!("m")),
            "Size: “m” is not one of the options; choose one of: Small, Large."
        );
        assert_eq!(
            refused(&form, "tags", json!(["red", 3])),
            "Tags: choice 2 (3) is not one of the options."
        );
        assert_eq!(
            refused(&form, "tags", json!(["red", "red"])),
            "Tags: “red” is chosen twice; choose each option once."
        );
        assert_eq!(
            refused(&form, "tags", json!([])),
            "Tags: 0 chosen; choose at least 1."
        );
        assert_eq!(
            refused(&form, "tags", json!(["red", "green", "blue"])),
            "Tags: 3 chosen; choose at most 2."
        );
    }

    #[test]
    fn words_explain_unknown_key_and_unrepresentable() {
        let form = form();
        let error = form
            .validate(
                &json!({"name": "Ada", "ok": true, "size": "s", "tags": ["red"], "count": 3, "extra": 1})
                    .as_object()
                    .unwrap()
                    .clone(),
            )
            .unwrap_err();
        assert_eq!(
            form.explain(&error),
            ["The answer has “extra”, which is not a field of this form."]
        );
        assert_eq!(
            field(&form, "note").explain(&ViolationKind::UnknownKey),
            "“note” is not a field of this form."
        );
        assert_eq!(
            field(&form, "count").explain(&ViolationKind::Unrepresentable),
            "Count: the value fits the form, but the program that asked cannot hold it."
        );
    }

    #[test]
    fn words_explain_every_set_error() {
        let form = form();
        let mut answer = form.answer();
        let unknown = answer.set_text("nope", "x").unwrap_err();
        assert_eq!(
            form.explain_error(&unknown),
            "This form has no field “nope”."
        );
        assert_eq!(
            field(&form, "name").explain_error(&unknown),
            "This form has no field “nope”."
        );

        let wrong = answer.set_bool("count", true).unwrap_err();
        assert_eq!(
            form.explain_error(&wrong),
            "Count: takes a whole number, not a boolean."
        );

        let unreadable = answer.parse("count", "7.5").unwrap_err();
        assert_eq!(
            form.explain_error(&unreadable),
            "Count: “7.5” is not a whole number; type a whole number between 1 and 100, e.g. 7."
        );
        let unreadable = answer.parse("ok", "maybe").unwrap_err();
        assert_eq!(
            form.explain_error(&unreadable),
            "Agree: “maybe” is not yes or no; choose yes or no."
        );
        let unreadable = answer.parse("price", "cheap").unwrap_err();
        assert_eq!(
            form.explain_error(&unreadable),
            "Price: “cheap” is not a number; type a number of at least 0.5, e.g. 2.5."
        );

        let option = answer.set_choice("size", "m").unwrap_err();
        assert_eq!(
            form.explain_error(&option),
            "Size: “m” is not one of the options; choose one of: Small, Large."
        );
        let option = answer.parse("tags", "red, pink").unwrap_err();
        assert_eq!(
            form.explain_error(&option),
            "Tags: “pink” is not one of the options; choose one of: red, green, blue."
        );
    }

    #[test]
    fn words_name_the_field_by_its_title_not_its_property() {
        let form = form();
        for name in ["name", "born", "count", "ok", "size", "tags"] {
            let words = field(&form, name).explain(&ViolationKind::Missing);
            assert!(!words.contains(&format!("`{name}`")), "{words}");
            assert!(words.starts_with(field(&form, name).label()), "{words}");
        }
    }
}
