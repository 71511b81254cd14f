//! The user's answer to a received form, and the reply a client sends.

use std::fmt;

use serde::de::DeserializeOwned;
use serde_json::{Map, Number, Value};

use crate::elicit::validate::{ContentError, Violation, ViolationKind};

use super::form::{Field, FieldKind, Form};

/// An answer being filled in: starts with the defaults the revision has
/// ([`Form::answer`]); each setter refuses a value of the wrong kind for its field; then
/// [`Answer::accept`] checks everything and gives the reply.
#[derive(Debug, Clone)]
pub struct Answer<'f> {
    form: &'f Form,
    values: Map<String, Value>,
}

/// A value that cannot be set on a field (the answer is unchanged).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SetError {
    /// The form has no such field.
    #[error("the form has no field `{0}`")]
    UnknownField(String),
    /// The value is of another kind than the field takes.
    #[error("field `{field}` takes {expected}, not {given}")]
    WrongKind {
        /// The field.
        field: String,
        /// What it takes (`a string`, `an integer`, `one of its options`, ...).
        expected: &'static str,
        /// What was given.
        given: &'static str,
    },
    /// Text typed for a field that cannot be read as its kind.
    #[error("field `{field}`: {text:?} is not {expected}")]
    Unreadable {
        /// The field.
        field: String,
        /// What was typed.
        text: String,
        /// What the field takes.
        expected: &'static str,
    },
    /// A value that is not among the select's options.
    #[error("field `{field}`: {value:?} is not one of the options ({options})")]
    NotAnOption {
        /// The field.
        field: String,
        /// The value given.
        value: String,
        /// The options' values, comma-separated.
        options: String,
    },
}

fn article(kind: &FieldKind) -> &'static str {
    match kind {
        FieldKind::Text { .. } => "a string",
        FieldKind::Integer { .. } => "an integer",
        FieldKind::Number { .. } => "a number",
        FieldKind::Boolean => "true or false",
        FieldKind::SingleSelect { .. } => "one of its options",
        FieldKind::MultiSelect { .. } => "a list of its options",
    }
}

fn not_an_option(field: &Field, value: &str) -> SetError {
    let options = field.kind.options().unwrap_or_default();
    SetError::NotAnOption {
        field: field.name.clone(),
        value: value.to_owned(),
        options: options
            .iter()
            .map(|o| o.value.as_str())
            .collect::<Vec<_>>()
            .join(", "),
    }
}

impl<'f> Answer<'f> {
    pub(super) fn new(form: &'f Form) -> Answer<'f> {
        let values = form
            .fields()
            .iter()
            .filter_map(|f| Some((f.name.clone(), f.prefill(form.version())?.clone())))
            .collect();
        Answer { form, values }
    }

    /// The form being answered.
    pub fn form(&self) -> &'f Form {
        self.form
    }

    fn field(&self, name: &str) -> Result<&'f Field, SetError> {
        self.form
            .field(name)
            .ok_or_else(|| SetError::UnknownField(name.to_owned()))
    }

    fn wrong(field: &Field, given: &'static str) -> SetError {
        SetError::WrongKind {
            field: field.name.clone(),
            expected: article(&field.kind),
            given,
        }
    }

    fn put(&mut self, field: &Field, value: Value) -> &mut Self {
        self.values.insert(field.name.clone(), value);
        self
    }

    /// Sets a text field.
    pub fn set_text(&mut self, name: &str, text: impl Into<String>) -> Result<&mut Self, SetError> {
        let field = self.field(name)?;
        match field.kind {
            FieldKind::Text { .. } => Ok(self.put(field, Value::String(text.into()))),
            _ => Err(Self::wrong(field, "a string")),
        }
    }

    /// Sets an integer field (or a number field, which takes integers too).
    pub fn set_integer(&mut self, name: &str, value: i64) -> Result<&mut Self, SetError> {
        let field = self.field(name)?;
        match field.kind {
            FieldKind::Integer { .. } | FieldKind::Number { .. } => {
                Ok(self.put(field, Value::Number(value.into())))
            }
            _ => Err(Self::wrong(field, "an integer")),
        }
    }

    /// Sets a number field. A non-finite value has no JSON form and is refused.
    pub fn set_number(&mut self, name: &str, value: f64) -> Result<&mut Self, SetError> {
        let field = self.field(name)?;
        match (&field.kind, Number::from_f64(value)) {
            (FieldKind::Number { .. }, Some(n)) => Ok(self.put(field, Value::Number(n))),
            (FieldKind::Number { .. }, None) => Err(Self::wrong(field, "a non-finite number")),
            _ => Err(Self::wrong(field, "a number")),
        }
    }

    /// Sets a boolean field.
    pub fn set_bool(&mut self, name: &str, value: bool) -> Result<&mut Self, SetError> {
        let field = self.field(name)?;
        match field.kind {
            FieldKind::Boolean => Ok(self.put(field, Value::Bool(value))),
            _ => Err(Self::wrong(field, "a boolean")),
        }
    }

    fn option_of(field: &Field, value: &str) -> Result<(), SetError> {
        let options = field.kind.options().unwrap_or_default();
        if options.iter().any(|o| o.value == value) {
            Ok(())
        } else {
            Err(not_an_option(field, value))
        }
    }

    /// Sets a single-select field to the option whose value is `value`.
    pub fn set_choice(&mut self, name: &str, value: &str) -> Result<&mut Self, SetError> {
        let field = self.field(name)?;
        match field.kind {
            FieldKind::SingleSelect { .. } => {
                Self::option_of(field, value)?;
                Ok(self.put(field, Value::String(value.to_owned())))
            }
            _ => Err(Self::wrong(field, "one option")),
        }
    }

    /// Sets a multi-select field to these options' values (counts are checked by
    /// [`Answer::validate`]).
    pub fn set_choices<I, S>(&mut self, name: &str, values: I) -> Result<&mut Self, SetError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let field = self.field(name)?;
        if !matches!(field.kind, FieldKind::MultiSelect { .. }) {
            return Err(Self::wrong(field, "a list of options"));
        }
        let mut items = Vec::new();
        for v in values {
            let v = v.into();
            Self::option_of(field, &v)?;
            items.push(Value::String(v));
        }
        Ok(self.put(field, Value::Array(items)))
    }

    /// Sets a field from what a user typed, read as the field's kind: a number for numeric
    /// fields, `true`/`false` (also `yes`/`no`, `y`/`n`) for booleans, an option's value or
    /// title for selects, comma-separated values or titles for multi-selects. The value's
    /// limits are checked by [`Answer::validate`] or [`Answer::check`].
    pub fn parse(&mut self, name: &str, text: &str) -> Result<&mut Self, SetError> {
        let field = self.field(name)?;
        let value = field.read(text)?;
        Ok(self.put(field, value))
    }

    /// Removes a field's value (an optional field left empty).
    pub fn clear(&mut self, name: &str) -> &mut Self {
        self.values.remove(name);
        self
    }

    /// A field's value so far.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.values.get(name)
    }

    /// The content so far.
    pub fn content(&self) -> &Map<String, Value> {
        &self.values
    }

    /// Checks one field's value (or its absence), for asking again at once.
    pub fn check(&self, name: &str) -> Result<(), ContentError> {
        let Some(field) = self.form.field(name) else {
            return Ok(());
        };
        match self.values.get(name) {
            Some(v) => field.check(v),
            None if field.required => Err(ContentError::from_violations(vec![Violation {
                field: field.name.clone(),
                kind: ViolationKind::Missing,
            }])),
            None => Ok(()),
        }
    }

    /// Checks the whole answer against the form: every violation at once.
    pub fn validate(&self) -> Result<(), ContentError> {
        self.form.validate(&self.values)
    }

    /// The `accept` reply with this content, once it is valid.
    pub fn accept(mut self) -> Result<FormReply, ContentError> {
        self.validate()?;
        // In the form's order, whatever order the fields were filled in.
        let content = self
            .form
            .fields()
            .iter()
            .filter_map(|f| Some((f.name.clone(), self.values.remove(&f.name)?)))
            .collect();
        Ok(FormReply::Accept(content))
    }
}

/// What a client answers an `elicitation/create` request with (the `ElicitResult` of every
/// revision: `action`, and `content` when accepted).
#[derive(Debug, Clone, PartialEq)]
pub enum FormReply {
    /// The user submitted the form (URL mode: consented to open the URL; no content).
    Accept(Map<String, Value>),
    /// The user explicitly declined.
    Decline,
    /// The user dismissed the request without choosing (closed it, pressed Esc).
    Cancel,
}

impl FormReply {
    /// The `action` on the wire.
    pub fn action(&self) -> &'static str {
        match self {
            FormReply::Accept(_) => "accept",
            FormReply::Decline => "decline",
            FormReply::Cancel => "cancel",
        }
    }

    /// The `ElicitResult` as JSON: `{"action": "accept", "content": {..}}` (no `content` for
    /// an accepted URL request), `{"action": "decline"}`, `{"action": "cancel"}`.
    pub fn to_value(&self) -> Value {
        let mut out = Map::new();
        out.insert("action".into(), Value::String(self.action().into()));
        if let FormReply::Accept(content) = self
            && !content.is_empty()
        {
            out.insert("content".into(), Value::Object(content.clone()));
        }
        Value::Object(out)
    }

    /// The `ElicitResult` as a revision's generated type (or rmcp's):
    /// `reply.to_result::<v2025_11_25::ElicitResult>()`.
    pub fn to_result<R: DeserializeOwned>(&self) -> serde_json::Result<R> {
        crate::runtime::from_json_value(&self.to_value())
    }
}

/// The action, and an accepted form's content as JSON: `accept {"count":4}`, `decline`,
/// `cancel` (a URL consent: `accept {}`).
impl fmt::Display for FormReply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.action())?;
        match self {
            FormReply::Accept(content) => write!(f, " {}", Value::Object(content.clone())),
            FormReply::Decline | FormReply::Cancel => Ok(()),
        }
    }
}

impl Field {
    /// Reads what a user typed as a value of this field's kind: a number for numeric fields,
    /// `true`/`false` (also `yes`/`no`, `y`/`n`) for booleans, an option's value or title
    /// for selects, comma-separated values or titles for multi-selects. It does not check
    /// the field's rules ([`Field::check`] does); a terminal or text UI reads, then checks.
    pub fn read(&self, text: &str) -> Result<Value, SetError> {
        let unreadable = || SetError::Unreadable {
            field: self.name.clone(),
            text: text.to_owned(),
            expected: article(&self.kind),
        };
        let value = match &self.kind {
            FieldKind::Text { .. } => Value::String(text.to_owned()),
            FieldKind::Integer { .. } => match read_integer(text.trim()) {
                Ok(n) => Value::Number(n),
                Err(NotExact::Fraction) => return Err(unreadable()),
                // Beyond 64 bits a JSON number travels as an `f64`, which holds
                // 100000000000000000000 but not 100000000000000000001.
                Err(NotExact::Rounded) => {
                    return Err(SetError::Unreadable {
                        field: self.name.clone(),
                        text: text.to_owned(),
                        expected: "an integer a JSON number carries exactly \
                                   (beyond 64 bits, about 16 significant digits)",
                    });
                }
            },
            FieldKind::Number { .. } => {
                let t = text.trim();
                let n = match t.parse::<i64>() {
                    Ok(i) => Number::from(i),
                    Err(_) => t
                        .parse::<f64>()
                        .ok()
                        .and_then(Number::from_f64)
                        .ok_or_else(unreadable)?,
                };
                Value::Number(n)
            }
            FieldKind::Boolean => match text.trim().to_ascii_lowercase().as_str() {
                "true" | "yes" | "y" => Value::Bool(true),
                "false" | "no" | "n" => Value::Bool(false),
                _ => return Err(unreadable()),
            },
            FieldKind::SingleSelect { options, .. } => {
                let t = text.trim();
                let option = options
                    .iter()
                    .find(|o| o.value == t)
                    .or_else(|| options.iter().find(|o| o.title.as_deref() == Some(t)));
                match option {
                    Some(o) => Value::String(o.value.clone()),
                    None => return Err(not_an_option(self, t)),
                }
            }
            FieldKind::MultiSelect { options, .. } => {
                let mut items = Vec::new();
                for t in text.split(',').map(str::trim).filter(|t| !t.is_empty()) {
                    let option = options
                        .iter()
                        .find(|o| o.value == t)
                        .or_else(|| options.iter().find(|o| o.title.as_deref() == Some(t)));
                    match option {
                        Some(o) => items.push(Value::String(o.value.clone())),
                        None => return Err(not_an_option(self, t)),
                    }
                }
                Value::Array(items)
            }
        };
        Ok(value)
    }
}

/// Why typed text is no exact integer.
#[derive(Debug, PartialEq)]
enum NotExact {
    /// Not a number, or one with a fractional part.
    Fraction,
    /// An integer that no JSON number here holds exactly.
    Rounded,
}

/// An integer as a person types it, of any size: optionally signed decimal digits, with a
/// fraction of zeros or an exponent (`-12`, `1.0`, `1e20`, `2.5e3`,
/// `100000000000000000000`). The JSON number is an `i64` or `u64` when it fits, else the
/// `f64` of the same value, which must be that value exactly (JSON Schema's `integer` is any
/// number without a fractional part; serde_json holds beyond 64 bits only as `f64`).
fn read_integer(t: &str) -> Result<Number, NotExact> {
    let b = t.as_bytes();
    let mut i = 0;
    let negative = match b.first() {
        Some(b'-') => {
            i = 1;
            true
        }
        Some(b'+') => {
            i = 1;
            false
        }
        _ => false,
    };
    let run = |i: usize| i + b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    let int_end = run(i);
    let int = &b[i..int_end];
    i = int_end;
    let mut fraction: &[u8] = &[];
    if b.get(i) == Some(&b'.') {
        let end = run(i + 1);
        fraction = &b[i + 1..end];
        if fraction.is_empty() {
            return Err(NotExact::Fraction);
        }
        i = end;
    }
    if int.is_empty() {
        return Err(NotExact::Fraction);
    }
    // The value is `digits` × 10^`exponent`.
    let mut exponent: i64 = 0;
    if let Some(b'e' | b'E') = b.get(i) {
        i += 1;
        let sign = match b.get(i) {
            Some(b'-') => {
                i += 1;
                -1
            }
            Some(b'+') => {
                i += 1;
                1
            }
            _ => 1,
        };
        let end = run(i);
        if end == i {
            return Err(NotExact::Fraction);
        }
        // Saturates far beyond any f64: the value is then refused all the same.
        let e = b[i..end].iter().fold(0i64, |e, d| {
            (e * 10 + i64::from(d - b'0')).min(1_000_000_000)
        });
        exponent = sign * e;
        i = end;
    }
    if i != b.len() {
        return Err(NotExact::Fraction);
    }
    let all: Vec<u8> = int.iter().chain(fraction).copied().collect();
    exponent -= fraction.len() as i64;
    // Without leading zeros, and trailing zeros moved to the exponent.
    let first = all.iter().position(|&d| d != b'0');
    let Some(first) = first else {
        return Ok(Number::from(0));
    };
    let last = all.iter().rposition(|&d| d != b'0').unwrap_or(first);
    let digits = &all[first..=last];
    exponent += (all.len() - 1 - last) as i64;
    if exponent < 0 {
        // A non-zero digit after the decimal point.
        return Err(NotExact::Fraction);
    }
    // f64 ends below 10^309.
    if digits.len() as i64 + exponent > 309 {
        return Err(NotExact::Rounded);
    }
    let mut whole = String::with_capacity(digits.len() + exponent as usize);
    whole.extend(digits.iter().map(|&d| char::from(d)));
    whole.extend(std::iter::repeat_n('0', exponent as usize));
    if let Ok(u) = whole.parse::<u64>() {
        return match (negative, i64::try_from(u)) {
            (false, _) => Ok(Number::from(u)),
            (true, Ok(i)) => Ok(Number::from(-i)),
            (true, Err(_)) if u == 1 << 63 => Ok(Number::from(i64::MIN)),
            (true, Err(_)) => exact_f64(&whole, negative),
        };
    }
    exact_f64(&whole, negative)
}

/// The `f64` of the integer written `whole` (ASCII digits), if it is exactly that integer.
fn exact_f64(whole: &str, negative: bool) -> Result<Number, NotExact> {
    let f: f64 = whole.parse().map_err(|_| NotExact::Fraction)?;
    // `{:.0}` writes an f64's exact value.
    if !f.is_finite() || format!("{f:.0}") != whole {
        return Err(NotExact::Rounded);
    }
    Number::from_f64(if negative { -f } else { f }).ok_or(NotExact::Rounded)
}
