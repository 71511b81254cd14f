//! A received form: the params of a form-mode `elicitation/create` request (or a 2026-07-28
//! input request) read into a model a client shows, pre-fills and checks answers against.

use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::ProtocolVersion;
use crate::elicit::schema::{FieldSchema, FieldType, FormSchema, Format, Num, Pattern};
use crate::elicit::validate::{
    ContentError, FieldRules, Options, RuleKind, Violation, ViolationKind, check_value,
};

use super::answer::Answer;

/// A form a server asked the user to fill in, read from the params of any revision's
/// `elicitation/create` (its generated type, rmcp's, or raw JSON): the message, and the fields
/// in the order the server wrote them.
///
/// ```
/// use mcp_typed::elicit::client::{FieldKind, Form};
/// use mcp_typed::ProtocolVersion;
///
/// let params = serde_json::json!({
///     "message": "Book a table",
///     "requestedSchema": {
///         "type": "object",
///         "properties": {
///             "guests": {"type": "integer", "minimum": 1, "maximum": 12, "default": 2},
///             "seating": {"type": "string", "oneOf": [
///                 {"const": "in", "title": "Inside"}, {"const": "out", "title": "Terrace"}
///             ]}
///         },
///         "required": ["guests", "seating"]
///     }
/// });
/// let form = Form::from_params(&params, ProtocolVersion::V2025_11_25)?;
/// assert_eq!(form.message(), "Book a table");
/// assert!(matches!(form.fields()[1].kind, FieldKind::SingleSelect { .. }));
///
/// let mut answer = form.answer(); // `guests` is pre-filled with its default, 2
/// answer.set_choice("seating", "out")?;
/// let reply = answer.accept()?;
/// assert_eq!(
///     reply.to_value(),
///     serde_json::json!({"action": "accept", "content": {"guests": 2, "seating": "out"}})
/// );
///
/// // What the user typed is checked as the form says, every problem at once.
/// let mut answer = form.answer();
/// answer.parse("guests", "40")?;
/// let error = answer.validate().unwrap_err();
/// assert_eq!(error.to_string(), "invalid elicitation content (2 problems):\n\
///     - field `guests`: 40 is out of range (1..=12)\n\
///     - field `seating`: required but missing");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Form {
    message: String,
    title: Option<String>,
    description: Option<String>,
    fields: Vec<Field>,
    version: ProtocolVersion,
}

/// One field of a received form.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The property name: the key of its answer.
    pub name: String,
    /// `title`, for display.
    pub title: Option<String>,
    /// `description`, for display.
    pub description: Option<String>,
    /// Listed in the schema's `required`.
    pub required: bool,
    /// `default`, as the server wrote it (checked against the field when the form is read).
    pub default: Option<Value>,
    /// What the field takes.
    pub kind: FieldKind,
}

/// What a field takes, with its limits.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum FieldKind {
    /// A string.
    Text {
        /// `format`: `email`, `uri`, `date`, `date-time`, or `idn-email` (not in the spec's
        /// `StringSchema`, but JSON Schema's: read and checked as RFC 6531 says).
        format: Option<Format>,
        /// `minLength`, in Unicode code points.
        min_length: Option<u64>,
        /// `maxLength`, in Unicode code points.
        max_length: Option<u64>,
        /// `pattern`: not in the spec's `StringSchema`, honoured when a server sends it.
        pattern: Option<Pattern>,
    },
    /// An integer (`type: integer`).
    Integer {
        /// `minimum`.
        minimum: Option<Num>,
        /// `maximum`.
        maximum: Option<Num>,
    },
    /// A number (`type: number`).
    Number {
        /// `minimum`.
        minimum: Option<Num>,
        /// `maximum`.
        maximum: Option<Num>,
    },
    /// `true` or `false`.
    Boolean,
    /// One value out of `options`.
    SingleSelect {
        /// The options, in the server's order.
        options: Vec<Choice>,
        /// How the schema spelled them.
        style: SelectStyle,
    },
    /// Any number of distinct values out of `options` (2025-11-25 and later).
    MultiSelect {
        /// The options, in the server's order.
        options: Vec<Choice>,
        /// `minItems`.
        min_items: Option<u64>,
        /// `maxItems`.
        max_items: Option<u64>,
    },
}

/// How a single-select's schema spelled its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SelectStyle {
    /// `enum`: values only.
    Untitled,
    /// `oneOf: [{const, title}]` (2025-11-25 and later).
    Titled,
    /// `enum` + `enumNames` (2025-06-18's titled select, deprecated later).
    LegacyTitled,
}

/// An option of a select.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The value sent back.
    pub value: String,
    /// The title to show, if the schema gives one.
    pub title: Option<String>,
}

impl Choice {
    /// What to show: the title, else the value.
    pub fn label(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.value)
    }
}

impl FieldKind {
    /// The JSON type of the answer (`string`, `integer`, `number`, `boolean`, `array`).
    pub fn json_type(&self) -> &'static str {
        match self {
            FieldKind::Text { .. } | FieldKind::SingleSelect { .. } => "string",
            FieldKind::Integer { .. } => "integer",
            FieldKind::Number { .. } => "number",
            FieldKind::Boolean => "boolean",
            FieldKind::MultiSelect { .. } => "array",
        }
    }

    /// The options of a select.
    pub fn options(&self) -> Option<&[Choice]> {
        match self {
            FieldKind::SingleSelect { options, .. } | FieldKind::MultiSelect { options, .. } => {
                Some(options)
            }
            _ => None,
        }
    }
}

impl Field {
    /// What to show as the field's label: its title, else its name.
    pub fn label(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.name)
    }

    /// Checks one value for this field: every violation at once.
    pub fn check(&self, value: &Value) -> Result<(), ContentError> {
        let mut out = Vec::new();
        check_value(&self.rules(), value, &mut out);
        if out.is_empty() {
            Ok(())
        } else {
            Err(ContentError::from_violations(out))
        }
    }

    pub(crate) fn rules(&self) -> FieldRules<'_> {
        let mut rules = FieldRules {
            name: &self.name,
            kind: RuleKind::Boolean,
            min_length: None,
            max_length: None,
            pattern: None,
            format: None,
            minimum: None,
            maximum: None,
            min_items: None,
            max_items: None,
        };
        match &self.kind {
            FieldKind::Text {
                format,
                min_length,
                max_length,
                pattern,
            } => {
                rules.kind = RuleKind::String;
                rules.format = *format;
                rules.min_length = *min_length;
                rules.max_length = *max_length;
                rules.pattern = pattern.as_ref();
            }
            FieldKind::Integer { minimum, maximum } => {
                rules.kind = RuleKind::Integer;
                (rules.minimum, rules.maximum) = (*minimum, *maximum);
            }
            FieldKind::Number { minimum, maximum } => {
                rules.kind = RuleKind::Number {
                    max_magnitude: f64::MAX,
                };
                (rules.minimum, rules.maximum) = (*minimum, *maximum);
            }
            FieldKind::Boolean => {}
            FieldKind::SingleSelect { options, .. } => {
                rules.kind = RuleKind::SingleSelect(Options::Received(options));
            }
            FieldKind::MultiSelect {
                options,
                min_items,
                max_items,
            } => {
                rules.kind = RuleKind::MultiSelect(Options::Received(options));
                (rules.min_items, rules.max_items) = (*min_items, *max_items);
            }
        }
        rules
    }

    /// The value an answer starts with in `version`: the default, where the revision has
    /// defaults for this kind of field (2025-06-18: booleans only).
    pub fn prefill(&self, version: ProtocolVersion) -> Option<&Value> {
        let allowed =
            version >= ProtocolVersion::V2025_11_25 || matches!(self.kind, FieldKind::Boolean);
        self.default.as_ref().filter(|_| allowed)
    }
}

impl Form {
    /// Reads the params of a form-mode `elicitation/create` request of `version`: any
    /// revision's generated params type, rmcp's, or a `serde_json::Value`. Refuses a schema
    /// that is not a flat object of primitive fields, naming every property at fault
    /// ([`FormError`]; answer the request with it: [`FormError::CODE`]).
    pub fn from_params(
        params: &impl Serialize,
        version: ProtocolVersion,
    ) -> Result<Form, FormError> {
        let value =
            crate::runtime::json_value(params).map_err(|e| FormError::one("", e.to_string()))?;
        let Value::Object(params) = value else {
            return Err(FormError::one("", "the params are not an object"));
        };
        Form::from_object(&params, version)
    }

    fn from_object(
        params: &Map<String, Value>,
        version: ProtocolVersion,
    ) -> Result<Form, FormError> {
        let mut cx = Problems::default();
        match params.get("mode") {
            None => {}
            Some(Value::String(m)) if m == "form" => {}
            Some(Value::String(m)) if m == "url" => {
                return Err(FormError::one(
                    "/mode",
                    "a URL-mode request, not a form: read it as a `UrlRequest`",
                ));
            }
            Some(other) => cx.push("/mode", format!("expected \"form\", found {other}")),
        }
        let message = match params.get("message") {
            Some(Value::String(m)) => m.clone(),
            Some(other) => {
                cx.push("/message", format!("expected a string, found {other}"));
                String::new()
            }
            None => {
                cx.push("/message", "missing");
                String::new()
            }
        };
        let schema = match params.get("requestedSchema") {
            Some(Value::Object(s)) => Some(s),
            Some(other) => {
                cx.push(
                    "/requestedSchema",
                    format!("expected an object schema, found {other}"),
                );
                None
            }
            None => {
                cx.push("/requestedSchema", "missing");
                None
            }
        };
        let mut form = Form {
            message,
            title: None,
            description: None,
            fields: Vec::new(),
            version,
        };
        if let Some(schema) = schema {
            read_schema(schema, &mut form, &mut cx);
        }
        cx.finish(form)
    }

    /// A derived form as a received one, for `version` (without the fields it leaves out:
    /// `#[elicit(since)]`): what a client reads from this form's
    /// `requestedSchema`, with the Rust types' own limits (an `u8` field's 0..=255) made
    /// explicit. Both are checked by the same code.
    pub fn from_schema(
        schema: &FormSchema,
        message: impl Into<String>,
        version: ProtocolVersion,
    ) -> Form {
        Form {
            message: message.into(),
            title: schema.title.map(str::to_owned),
            description: schema.description.map(str::to_owned),
            fields: schema.fields_in(version).map(Field::from).collect(),
            version,
        }
    }

    /// The message to show with the form.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The schema's `title`, if any.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The schema's `description`, if any.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// The fields, in the server's order.
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// The revision the form was read for.
    pub fn version(&self) -> ProtocolVersion {
        self.version
    }

    /// An answer to fill in, pre-filled with the defaults the revision has
    /// ([`Field::prefill`]).
    pub fn answer(&self) -> Answer<'_> {
        Answer::new(self)
    }

    /// An answer with every field set, for programs that exercise a server without a person
    /// (tests, tools): the default the revision has, else the simplest valid value — the
    /// minimum (else 1, or the maximum when it is below 1), `true`, the first option (or as many as a multi-select needs), a value of the field's `format` (the first of
    /// [`format_example`](super::format_example), else `"example"`, padded or cut to the length limits). A text field with a `pattern`, or whose
    /// format's example breaks its length limits, or limits no value meets, is left for the caller: [`Answer::accept`] then says what is missing.
    pub fn example_answer(&self) -> Answer<'_> {
        let mut answer = self.answer();
        for field in &self.fields {
            if answer.get(&field.name).is_some() {
                continue;
            }
            let _ = match &field.kind {
                FieldKind::Integer { minimum, maximum } => {
                    let least = minimum.map(|n| n.as_f64().ceil());
                    let most = maximum.map_or(1.0, |n| n.as_f64().floor().min(1.0));
                    answer.set_integer(&field.name, least.unwrap_or(most) as i64)
                }
                FieldKind::Number { minimum, maximum } => {
                    let most = maximum.map_or(1.0, |n| n.as_f64().min(1.0));
                    answer.set_number(&field.name, minimum.map_or(most, |n| n.as_f64()))
                }
                FieldKind::Boolean => answer.set_bool(&field.name, true),
                FieldKind::SingleSelect { options, .. } => match options.first() {
                    Some(first) => answer.set_choice(&field.name, &first.value),
                    None => continue,
                },
                FieldKind::MultiSelect {
                    options, min_items, ..
                } => {
                    let count = usize::try_from(min_items.unwrap_or(1).max(1)).unwrap_or(1);
                    let first = options.iter().take(count).map(|c| c.value.clone());
                    answer.set_choices(&field.name, first)
                }
                FieldKind::Text {
                    pattern: Some(_), ..
                } => continue,
                FieldKind::Text {
                    format,
                    min_length,
                    max_length,
                    ..
                } => {
                    let example = format.and_then(|f| super::format_example(f.as_str(), 0, 0));
                    let mut text = example.unwrap_or_else(|| "example".to_owned());
                    let (min, max) = (min_length.unwrap_or(0), max_length.unwrap_or(u64::MAX));
                    if format.is_none() {
                        while (text.chars().count() as u64) < min {
                            text.push('x');
                        }
                        let max = usize::try_from(max).unwrap_or(usize::MAX);
                        text = text.chars().take(max).collect();
                    } else if !(min..=max).contains(&(text.chars().count() as u64)) {
                        // No value of the format that short (or long): left for the caller.
                        continue;
                    }
                    answer.set_text(&field.name, text)
                }
            };
            // Limits no value meets (a minimum above the maximum): left for the caller.
            if answer.check(&field.name).is_err() {
                answer.clear(&field.name);
            }
        }
        answer
    }

    /// Checks accepted `content` against the form, as the spec asks clients to: required
    /// fields, types, ranges, lengths in code points, formats, options, multi-select items
    /// and counts, unknown keys. Every violation at once, in field order, unknown keys last.
    pub fn validate(&self, content: &Map<String, Value>) -> Result<(), ContentError> {
        let mut out = Vec::new();
        for field in &self.fields {
            match content.get(&field.name) {
                Some(value) => check_value(&field.rules(), value, &mut out),
                None if field.required => out.push(Violation {
                    field: field.name.clone(),
                    kind: ViolationKind::Missing,
                }),
                None => {}
            }
        }
        for key in content.keys() {
            if self.field(key).is_none() {
                out.push(Violation {
                    field: key.clone(),
                    kind: ViolationKind::UnknownKey,
                });
            }
        }
        if out.is_empty() {
            Ok(())
        } else {
            Err(ContentError::from_violations(out))
        }
    }
}

impl From<&FieldSchema> for Field {
    fn from(f: &FieldSchema) -> Field {
        let c = &f.constraints;
        let choices = |options: &[crate::elicit::EnumOption]| -> Vec<Choice> {
            options
                .iter()
                .map(|o| Choice {
                    value: o.value.to_owned(),
                    title: o.title.map(str::to_owned),
                })
                .collect()
        };
        let kind = match f.ty {
            FieldType::String { .. } => FieldKind::Text {
                format: f.format(),
                min_length: c.min_length,
                max_length: c.max_length,
                pattern: c.pattern.clone(),
            },
            FieldType::Integer { .. } => FieldKind::Integer {
                minimum: f.effective_minimum(),
                maximum: f.effective_maximum(),
            },
            FieldType::Number { max_magnitude } => {
                // An `f32` field's own limit, made explicit (an `f64` holds every JSON number).
                let own = |m: f64| (max_magnitude < f64::MAX).then_some(Num::Float(m));
                FieldKind::Number {
                    minimum: c.minimum.or(own(-max_magnitude)),
                    maximum: c.maximum.or(own(max_magnitude)),
                }
            }
            FieldType::Boolean => FieldKind::Boolean,
            FieldType::SingleSelect { options } => FieldKind::SingleSelect {
                style: if !options.iter().any(|o| o.title.is_some()) {
                    SelectStyle::Untitled
                } else if c.legacy_enum_names {
                    SelectStyle::LegacyTitled
                } else {
                    SelectStyle::Titled
                },
                options: choices(options),
            },
            FieldType::MultiSelect { options } => FieldKind::MultiSelect {
                options: choices(options),
                min_items: c.min_items,
                max_items: c.max_items,
            },
        };
        Field {
            name: f.name.to_owned(),
            title: f.title.map(str::to_owned),
            description: f.description.map(str::to_owned),
            required: f.required,
            default: c.default.map(|d| d.to_json()),
            kind,
        }
    }
}

/// The schema cannot be shown as a form: every problem, each at its JSON Pointer in the
/// params. A client answers the request with a JSON-RPC error: code [`FormError::CODE`]
/// (`-32602`, invalid params) and this error's text as the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormError {
    problems: Vec<FormProblem>,
}

/// One reason a schema cannot be shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormProblem {
    /// Where, as a JSON Pointer into the params (`/requestedSchema/properties/address`).
    pub pointer: String,
    /// What is wrong, and what is allowed instead.
    pub message: String,
}

impl FormError {
    /// The JSON-RPC error code to answer with: invalid params.
    pub const CODE: i64 = -32602;

    fn one(pointer: &str, message: impl Into<String>) -> FormError {
        FormError {
            problems: vec![FormProblem {
                pointer: pointer.to_owned(),
                message: message.into(),
            }],
        }
    }

    /// Every problem, in the order of the schema.
    pub fn problems(&self) -> &[FormProblem] {
        &self.problems
    }

    /// The JSON-RPC `error` object to answer the request with.
    pub fn to_error_object(&self) -> Value {
        serde_json::json!({"code": FormError::CODE, "message": self.to_string()})
    }
}

impl fmt::Display for FormError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("cannot show this elicitation form: ")?;
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            if p.pointer.is_empty() {
                write!(f, "{}", p.message)?;
            } else {
                write!(f, "`{}`: {}", p.pointer, p.message)?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for FormError {}

#[derive(Default)]
struct Problems(Vec<FormProblem>);

impl Problems {
    fn push(&mut self, pointer: impl Into<String>, message: impl Into<String>) {
        self.0.push(FormProblem {
            pointer: pointer.into(),
            message: message.into(),
        });
    }

    fn finish<T>(self, value: T) -> Result<T, FormError> {
        if self.0.is_empty() {
            Ok(value)
        } else {
            Err(FormError { problems: self.0 })
        }
    }
}

fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

const FLAT: &str = "a form is a flat object of string, number, integer, boolean and enum fields";

fn read_schema(schema: &Map<String, Value>, form: &mut Form, cx: &mut Problems) {
    let at = "/requestedSchema";
    match schema.get("type") {
        Some(Value::String(t)) if t == "object" => {}
        Some(other) => cx.push(
            format!("{at}/type"),
            format!("expected \"object\", found {other}"),
        ),
        None => cx.push(
            format!("{at}/type"),
            "missing (a form's schema is an object)",
        ),
    }
    if schema.contains_key("$ref")
        || schema.contains_key("$defs")
        || schema.contains_key("definitions")
    {
        cx.push(at, format!("references are not allowed: {FLAT}"));
    }
    form.title = text(schema, "title", at, cx);
    form.description = text(schema, "description", at, cx);
    let properties = match schema.get("properties") {
        None => None,
        Some(Value::Object(p)) => Some(p),
        Some(other) => {
            cx.push(
                format!("{at}/properties"),
                format!("expected an object, found {other}"),
            );
            None
        }
    };
    let mut required: Vec<&str> = Vec::new();
    match schema.get("required") {
        None => {}
        Some(Value::Array(names)) => {
            for (i, n) in names.iter().enumerate() {
                match n.as_str() {
                    Some(n) if properties.is_some_and(|p| p.contains_key(n)) => required.push(n),
                    Some(n) => cx.push(
                        format!("{at}/required/{i}"),
                        format!("`{n}` is required but is not a property of the form"),
                    ),
                    None => cx.push(
                        format!("{at}/required/{i}"),
                        format!("expected a property name, found {n}"),
                    ),
                }
            }
        }
        Some(other) => cx.push(
            format!("{at}/required"),
            format!("expected an array of names, found {other}"),
        ),
    }
    for (name, property) in properties.into_iter().flatten() {
        let at = format!("{at}/properties/{}", escape(name));
        let Value::Object(p) = property else {
            cx.push(at, format!("expected a schema object, found {property}"));
            continue;
        };
        if let Some(field) = read_field(name, p, required.contains(&name.as_str()), &at, cx) {
            form.fields.push(field);
        }
    }
}

fn text(obj: &Map<String, Value>, key: &str, at: &str, cx: &mut Problems) -> Option<String> {
    match obj.get(key)? {
        Value::String(s) => Some(s.clone()),
        other => {
            cx.push(
                format!("{at}/{key}"),
                format!("expected a string, found {other}"),
            );
            None
        }
    }
}

fn count(obj: &Map<String, Value>, key: &str, at: &str, cx: &mut Problems) -> Option<u64> {
    let v = obj.get(key)?;
    match v.as_u64() {
        Some(n) => Some(n),
        None => {
            cx.push(
                format!("{at}/{key}"),
                format!("expected a non-negative integer, found {v}"),
            );
            None
        }
    }
}

fn number(obj: &Map<String, Value>, key: &str, at: &str, cx: &mut Problems) -> Option<Num> {
    let v = obj.get(key)?;
    let n = v.as_number();
    if let Some(i) = n.and_then(|n| n.as_i64()) {
        Some(Num::Int(i128::from(i)))
    } else if let Some(u) = n.and_then(|n| n.as_u64()) {
        Some(Num::Int(i128::from(u)))
    } else if let Some(f) = n.and_then(|n| n.as_f64()) {
        Some(Num::Float(f))
    } else {
        cx.push(
            format!("{at}/{key}"),
            format!("expected a number, found {v}"),
        );
        None
    }
}

/// The strings of an array (`enum`, `enumNames`), or a problem at `at`.
fn strings(v: &Value, at: &str, cx: &mut Problems) -> Option<Vec<String>> {
    let Value::Array(items) = v else {
        cx.push(at, format!("expected an array of strings, found {v}"));
        return None;
    };
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        match item.as_str() {
            Some(s) => out.push(s.to_owned()),
            None => {
                cx.push(
                    format!("{at}/{i}"),
                    format!("expected a string, found {item}"),
                );
                return None;
            }
        }
    }
    Some(out)
}

/// `[{const, title}]` options (`oneOf` of a single-select, `anyOf` of multi-select items).
fn titled(v: &Value, at: &str, cx: &mut Problems) -> Option<Vec<Choice>> {
    let Value::Array(items) = v else {
        cx.push(
            at,
            format!("expected an array of {{const, title}} options, found {v}"),
        );
        return None;
    };
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let value = item.get("const").and_then(Value::as_str);
        let title = item.get("title");
        match (value, title) {
            (Some(value), None) => out.push(Choice {
                value: value.to_owned(),
                title: None,
            }),
            (Some(value), Some(Value::String(t))) => out.push(Choice {
                value: value.to_owned(),
                title: Some(t.clone()),
            }),
            _ => {
                cx.push(
                    format!("{at}/{i}"),
                    format!(
                        "expected an option {{\"const\": string, \"title\": string}}, found {item}"
                    ),
                );
                return None;
            }
        }
    }
    Some(out)
}

fn nonempty(options: Vec<Choice>, at: &str, cx: &mut Problems) -> Option<Vec<Choice>> {
    if options.is_empty() {
        cx.push(at, "a select needs at least one option");
        return None;
    }
    let mut seen = std::collections::BTreeSet::new();
    for o in &options {
        if !seen.insert(o.value.as_str()) {
            cx.push(at, format!("the option {:?} is listed twice", o.value));
            return None;
        }
    }
    Some(options)
}

fn read_field(
    name: &str,
    p: &Map<String, Value>,
    required: bool,
    at: &str,
    cx: &mut Problems,
) -> Option<Field> {
    let before = cx.0.len();
    if p.contains_key("$ref") {
        cx.push(
            format!("{at}/$ref"),
            format!("references are not allowed: {FLAT}"),
        );
        return None;
    }
    let title = text(p, "title", at, cx);
    let description = text(p, "description", at, cx);
    let ty = match p.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(other) => {
            cx.push(
                format!("{at}/type"),
                format!("expected one type name, found {other}: {FLAT}"),
            );
            return None;
        }
        None => {
            cx.push(format!("{at}/type"), format!("missing: {FLAT}"));
            return None;
        }
    };
    let kind = match ty {
        "string" => {
            if let Some(e) = p.get("enum") {
                let values = strings(e, &format!("{at}/enum"), cx)?;
                let style;
                let titles: Vec<Option<String>> = match p.get("enumNames") {
                    Some(names) => {
                        let names = strings(names, &format!("{at}/enumNames"), cx)?;
                        if names.len() != values.len() {
                            cx.push(
                                format!("{at}/enumNames"),
                                format!("{} names for {} values", names.len(), values.len()),
                            );
                            return None;
                        }
                        style = SelectStyle::LegacyTitled;
                        names.into_iter().map(Some).collect()
                    }
                    None => {
                        style = SelectStyle::Untitled;
                        vec![None; values.len()]
                    }
                };
                let options = values
                    .into_iter()
                    .zip(titles)
                    .map(|(value, title)| Choice { value, title })
                    .collect();
                FieldKind::SingleSelect {
                    options: nonempty(options, &format!("{at}/enum"), cx)?,
                    style,
                }
            } else if let Some(one_of) = p.get("oneOf").or_else(|| p.get("anyOf")) {
                let key = if p.contains_key("oneOf") {
                    "oneOf"
                } else {
                    "anyOf"
                };
                let options = titled(one_of, &format!("{at}/{key}"), cx)?;
                FieldKind::SingleSelect {
                    options: nonempty(options, &format!("{at}/{key}"), cx)?,
                    style: SelectStyle::Titled,
                }
            } else {
                let format = match p.get("format") {
                    None => None,
                    Some(Value::String(f)) => match Format::from_name(f) {
                        Some(f) => Some(f),
                        None => {
                            cx.push(
                                format!("{at}/format"),
                                format!("`{f}` is not a format the spec allows (email, uri, date, date-time) nor idn-email"),
                            );
                            None
                        }
                    },
                    Some(other) => {
                        cx.push(
                            format!("{at}/format"),
                            format!("expected a string, found {other}"),
                        );
                        None
                    }
                };
                let pattern = match p.get("pattern") {
                    None => None,
                    Some(Value::String(s)) => match regex::Regex::new(s) {
                        Ok(_) => Some(Pattern::owned(s.clone())),
                        Err(e) => {
                            cx.push(
                                format!("{at}/pattern"),
                                format!("not a valid regular expression: {e}"),
                            );
                            None
                        }
                    },
                    Some(other) => {
                        cx.push(
                            format!("{at}/pattern"),
                            format!("expected a string, found {other}"),
                        );
                        None
                    }
                };
                FieldKind::Text {
                    format,
                    min_length: count(p, "minLength", at, cx),
                    max_length: count(p, "maxLength", at, cx),
                    pattern,
                }
            }
        }
        "integer" => FieldKind::Integer {
            minimum: number(p, "minimum", at, cx),
            maximum: number(p, "maximum", at, cx),
        },
        "number" => FieldKind::Number {
            minimum: number(p, "minimum", at, cx),
            maximum: number(p, "maximum", at, cx),
        },
        "boolean" => FieldKind::Boolean,
        "array" => {
            let items_at = format!("{at}/items");
            let Some(Value::Object(items)) = p.get("items") else {
                cx.push(
                    items_at,
                    "a multi-select lists its options in `items` (`enum`, or `anyOf` of {const, title})",
                );
                return None;
            };
            let options = if let Some(e) = items.get("enum") {
                let values = strings(e, &format!("{items_at}/enum"), cx)?;
                values
                    .into_iter()
                    .map(|value| Choice { value, title: None })
                    .collect()
            } else if let Some(any_of) = items.get("anyOf").or_else(|| items.get("oneOf")) {
                let key = if items.contains_key("anyOf") {
                    "anyOf"
                } else {
                    "oneOf"
                };
                titled(any_of, &format!("{items_at}/{key}"), cx)?
            } else {
                cx.push(
                    items_at,
                    format!("arrays are allowed only as multi-selects, whose items list their options (`enum`, or `anyOf` of {{const, title}}): {FLAT}"),
                );
                return None;
            };
            FieldKind::MultiSelect {
                options: nonempty(options, &format!("{at}/items"), cx)?,
                min_items: count(p, "minItems", at, cx),
                max_items: count(p, "maxItems", at, cx),
            }
        }
        "object" => {
            cx.push(
                format!("{at}/type"),
                format!("nested objects are not allowed: {FLAT}"),
            );
            return None;
        }
        other => {
            cx.push(
                format!("{at}/type"),
                format!("`{other}` is not a field type: {FLAT}"),
            );
            return None;
        }
    };
    if cx.0.len() > before {
        return None;
    }
    let field = Field {
        name: name.to_owned(),
        title,
        description,
        required,
        default: p.get("default").cloned(),
        kind,
    };
    if let Some(default) = &field.default
        && let Err(e) = field.check(default)
    {
        let why: Vec<String> = e.violations().iter().map(|v| v.kind.to_string()).collect();
        cx.push(
            format!("{at}/default"),
            format!("does not fit the field: {}", why.join(", ")),
        );
        return None;
    }
    Some(field)
}
