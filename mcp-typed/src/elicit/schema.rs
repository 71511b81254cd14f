//! The revision-neutral description of a form, and its rendering as a `requestedSchema`.
//!
//! `#[derive(Elicit)]` builds one [`FormSchema`] per struct, in a `static`. Rendering it for a
//! [`ProtocolVersion`] gives the JSON object of that revision's `requestedSchema`; the
//! [`Serialize`] impl renders for the latest revision. Both write properties in field order,
//! whatever `serde_json` features are enabled.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::sync::OnceLock;

use regex::Regex;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Number, Value};

use crate::ProtocolVersion;

/// A form: the top-level object of a `requestedSchema`.
#[derive(Debug)]
pub struct FormSchema {
    /// `title` of the schema object (from `#[elicit(title = ..)]` on the struct).
    pub title: Option<&'static str>,
    /// `description` of the schema object (the struct's doc comment, or `#[elicit(description = ..)]`).
    pub description: Option<&'static str>,
    /// The properties, in field order.
    pub fields: &'static [FieldSchema],
}

/// One property of a form.
#[derive(Debug, Clone)]
pub struct FieldSchema {
    /// The property name on the wire (after `rename`/`rename_all`).
    pub name: &'static str,
    /// `title` of the property.
    pub title: Option<&'static str>,
    /// `description` of the property (the field's doc comment unless given).
    pub description: Option<&'static str>,
    /// Whether the property is listed in `required` (not an `Option` and no `default`).
    pub required: bool,
    /// What the field's Rust type accepts.
    pub ty: FieldType,
    /// The constraints given with `#[elicit(..)]`.
    pub constraints: Constraints,
}

/// The kind of value a field's Rust type holds, with the type's own limits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FieldType {
    /// A string; typed formats (`url::Url`, `chrono` dates) carry their format.
    String {
        /// The format the type itself implies.
        format: Option<Format>,
    },
    /// An integer type, with its range.
    Integer {
        /// The type's minimum.
        min: i128,
        /// The type's maximum.
        max: i128,
    },
    /// A floating-point type.
    Number {
        /// The largest finite magnitude the type holds.
        max_magnitude: f64,
    },
    /// `bool`.
    Boolean,
    /// A fieldless enum: one value out of its options.
    SingleSelect {
        /// The enum's options, in variant order.
        options: &'static [EnumOption],
    },
    /// A collection of a fieldless enum: any number of distinct options.
    MultiSelect {
        /// The enum's options, in variant order.
        options: &'static [EnumOption],
    },
}

impl FieldType {
    /// The name used in messages ("string", "integer", ...).
    pub const fn json_type(&self) -> &'static str {
        match self {
            FieldType::String { .. } | FieldType::SingleSelect { .. } => "string",
            FieldType::Integer { .. } => "integer",
            FieldType::Number { .. } => "number",
            FieldType::Boolean => "boolean",
            FieldType::MultiSelect { .. } => "array",
        }
    }
}

/// One option of a select: the value on the wire and an optional display title.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnumOption {
    /// The value sent and received (`const` / `enum` entry).
    pub value: &'static str,
    /// The display title, from `#[elicit(title = ..)]` on the variant.
    pub title: Option<&'static str>,
}

// The string formats are `mcp-typed-rules`' (one copy for the derive and this crate).
pub use mcp_typed_rules::Format;

/// A numeric bound or default, kept as written (an integer stays an integer on the wire).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// An integer literal.
    Int(i128),
    /// A floating-point literal.
    Float(f64),
}

impl Num {
    /// The value as `f64`, an integer beyond 2^53 rounded (validation compares exactly).
    pub fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }

    /// A JSON number as it is held: an integer (`i64` or `u64`) or a float.
    pub(crate) fn of_json(n: &Number) -> Num {
        if let Some(i) = n.as_i64() {
            Num::Int(i128::from(i))
        } else if let Some(u) = n.as_u64() {
            Num::Int(i128::from(u))
        } else {
            // Always `Some` without serde_json's `arbitrary_precision`.
            Num::Float(n.as_f64().unwrap_or(f64::NAN))
        }
    }

    /// Whether it is an integer as JSON Schema means it: any number whose fractional part
    /// is zero (`3.0`, `1e20`), whatever its size.
    pub(crate) fn is_integer(self) -> bool {
        match self {
            Num::Int(_) => true,
            Num::Float(f) => f.is_finite() && f.fract() == 0.0,
        }
    }

    /// Compares the values exactly: an integer is not rounded to `f64` (9007199254740993 is
    /// more than 9007199254740992.0). `None` if a float is NaN.
    pub(crate) fn cmp_exact(self, other: Num) -> Option<Ordering> {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => Some(a.cmp(&b)),
            (Num::Float(a), Num::Float(b)) => a.partial_cmp(&b),
            (Num::Int(a), Num::Float(b)) => int_cmp_float(a, b),
            (Num::Float(a), Num::Int(b)) => int_cmp_float(b, a).map(Ordering::reverse),
        }
    }

    /// The JSON number. Integral floats are written as integers, as JavaScript does;
    /// `None` for a non-finite float or an integer outside `i64`/`u64`.
    pub fn to_json(self) -> Option<Number> {
        match self {
            Num::Int(i) => int_to_json(i),
            Num::Float(f) => {
                if f.is_finite() && f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 {
                    int_to_json(f as i128)
                } else {
                    Number::from_f64(f)
                }
            }
        }
    }
}

/// As written: `1`, `-3`, `0.5` (what a form's help text shows).
impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Num::Int(i) => write!(f, "{i}"),
            Num::Float(x) => write!(f, "{x}"),
        }
    }
}

/// `i` against `f`, exactly.
fn int_cmp_float(i: i128, f: f64) -> Option<Ordering> {
    // 2^127: every i128 is below it and at least its negation.
    const LIMIT: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
    if f.is_nan() {
        None
    } else if f >= LIMIT {
        Some(Ordering::Less)
    } else if f < -LIMIT {
        Some(Ordering::Greater)
    } else {
        // |f| < 2^127 (or f = -2^127): its integer part is an i128, exactly, and so is the
        // fractional part an f64.
        let whole = f.trunc();
        match i.cmp(&(whole as i128)) {
            Ordering::Equal => 0.0.partial_cmp(&(f - whole)),
            unequal => Some(unequal),
        }
    }
}

fn int_to_json(i: i128) -> Option<Number> {
    if let Ok(i) = i64::try_from(i) {
        Some(Number::from(i))
    } else {
        u64::try_from(i).ok().map(Number::from)
    }
}

/// A field's `default`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DefaultValue {
    /// A string (also the value of a single-select option).
    Str(&'static str),
    /// A boolean.
    Bool(bool),
    /// A number.
    Num(Num),
    /// The selected values of a multi-select.
    Strs(&'static [&'static str]),
}

impl DefaultValue {
    /// The default as JSON.
    pub fn to_json(&self) -> Value {
        match *self {
            DefaultValue::Str(s) => Value::String(s.to_owned()),
            DefaultValue::Bool(b) => Value::Bool(b),
            DefaultValue::Num(n) => n.to_json().map_or(Value::Null, Value::Number),
            DefaultValue::Strs(items) => Value::Array(
                items
                    .iter()
                    .map(|s| Value::String((*s).to_owned()))
                    .collect(),
            ),
        }
    }
}

/// A regular expression given with `#[elicit(pattern = ..)]`, compiled on first use.
///
/// The spec's `StringSchema` has no `pattern`, so it is not sent to the client: it is enforced
/// by [`Elicit::from_content`](super::Elicit::from_content) only.
pub struct Pattern {
    source: Cow<'static, str>,
    compiled: OnceLock<Option<Regex>>,
}

impl Pattern {
    /// A pattern (the derive has checked at compile time that it is a valid regex).
    pub const fn new(source: &'static str) -> Pattern {
        Pattern {
            source: Cow::Borrowed(source),
            compiled: OnceLock::new(),
        }
    }

    /// A pattern read at run time (a received form's `pattern`); one that does not compile
    /// matches nothing.
    pub fn owned(source: String) -> Pattern {
        Pattern {
            source: Cow::Owned(source),
            compiled: OnceLock::new(),
        }
    }

    /// The regex as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether `text` matches somewhere (JSON Schema `pattern` is not anchored).
    /// `None` if the regex does not compile.
    pub fn is_match(&self, text: &str) -> Option<bool> {
        self.compiled
            .get_or_init(|| Regex::new(&self.source).ok())
            .as_ref()
            .map(|re| re.is_match(text))
    }
}

impl Clone for Pattern {
    fn clone(&self) -> Pattern {
        Pattern {
            source: self.source.clone(),
            compiled: OnceLock::new(),
        }
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Pattern) -> bool {
        self.source == other.source
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Pattern").field(&self.source).finish()
    }
}

/// The constraints of one field, as given with `#[elicit(..)]`.
#[derive(Debug, Clone)]
pub struct Constraints {
    /// `minLength`, in Unicode code points.
    pub min_length: Option<u64>,
    /// `maxLength`, in Unicode code points.
    pub max_length: Option<u64>,
    /// Enforced when reading content; not sent.
    pub pattern: Option<Pattern>,
    /// `format` (when the type does not imply one).
    pub format: Option<Format>,
    /// `minimum`, when given (integer types also have their own range).
    pub minimum: Option<Num>,
    /// `maximum`, when given.
    pub maximum: Option<Num>,
    /// `minItems` of a multi-select.
    pub min_items: Option<u64>,
    /// `maxItems` of a multi-select.
    pub max_items: Option<u64>,
    /// `default`.
    pub default: Option<DefaultValue>,
    /// Send a titled single-select as the legacy `enum` + `enumNames`
    /// (`#[elicit(legacy_enum_names)]`).
    pub legacy_enum_names: bool,
    /// The first revision whose `requestedSchema` has the field (`#[elicit(since = "..")]`):
    /// older revisions leave it out, and their content lacks it. `None`: every revision.
    /// The derive allows it only on fields that are not `required`.
    pub since: Option<ProtocolVersion>,
}

impl Constraints {
    /// No constraints.
    pub const fn none() -> Constraints {
        Constraints {
            min_length: None,
            max_length: None,
            pattern: None,
            format: None,
            minimum: None,
            maximum: None,
            min_items: None,
            max_items: None,
            default: None,
            legacy_enum_names: false,
            since: None,
        }
    }
}

impl FieldSchema {
    /// Whether `version`'s `requestedSchema` has this field: it has no `since`, or `version`
    /// is `since` or later.
    pub fn in_revision(&self, version: ProtocolVersion) -> bool {
        self.constraints.since.is_none_or(|since| version >= since)
    }

    /// The format in force: the one given, else the one the type implies.
    pub fn format(&self) -> Option<Format> {
        match self.ty {
            FieldType::String { format } => self.constraints.format.or(format),
            _ => None,
        }
    }

    /// The smallest value allowed: the tighter of `minimum` and the integer type's own.
    pub fn effective_minimum(&self) -> Option<Num> {
        match (self.ty, self.constraints.minimum) {
            (FieldType::Integer { min, .. }, Some(Num::Int(given))) => {
                Some(Num::Int(given.max(min)))
            }
            (FieldType::Integer { min, .. }, Some(Num::Float(given))) => {
                Some(Num::Int((given.ceil() as i128).max(min)))
            }
            (FieldType::Integer { min, .. }, None) => Some(Num::Int(min)),
            (_, given) => given,
        }
    }

    /// The largest value allowed: the tighter of `maximum` and the integer type's own.
    pub fn effective_maximum(&self) -> Option<Num> {
        match (self.ty, self.constraints.maximum) {
            (FieldType::Integer { max, .. }, Some(Num::Int(given))) => {
                Some(Num::Int(given.min(max)))
            }
            (FieldType::Integer { max, .. }, Some(Num::Float(given))) => {
                Some(Num::Int((given.floor() as i128).min(max)))
            }
            (FieldType::Integer { max, .. }, None) => Some(Num::Int(max)),
            (_, given) => given,
        }
    }

    /// Whether this field renders as a titled select (any option has a title).
    fn is_titled(&self) -> bool {
        match self.ty {
            FieldType::SingleSelect { options } | FieldType::MultiSelect { options } => {
                options.iter().any(|o| o.title.is_some())
            }
            _ => false,
        }
    }
}

/// Why a form (or another elicitation message) cannot be sent with a protocol revision.
///
/// When fields are the problem, [`RenderError::fields`] lists every one of them, in field
/// order, and the message names them all. Otherwise (a revision without elicitation, URL mode
/// before 2025-11-25, ...) `fields` is empty and the message says what the revision lacks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderError {
    version: ProtocolVersion,
    problem: Problem,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Problem {
    /// Never empty.
    Fields(Vec<InexpressibleField>),
    Other(String),
}

/// A field that a revision cannot express, named by [`RenderError::fields`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InexpressibleField {
    /// The property name on the wire.
    pub name: &'static str,
    /// What the revision cannot express about it.
    pub reason: Inexpressible,
}

/// What a revision cannot express about a field.
///
/// Only what changes the meaning of the form is refused. UI hints a revision has no place for
/// (such as a `default` on a non-boolean field in 2025-06-18) are left out of the rendered
/// schema instead; [`Elicit::from_content`](super::Elicit::from_content) still applies them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Inexpressible {
    /// A multi-select (`type: array`), which needs 2025-11-25 or later.
    MultiSelect,
    /// A `default` without a JSON value (a non-finite number, or an integer beyond 64 bits),
    /// which no revision can send and no omitted field can be filled with.
    DefaultNotJson,
    /// A format the spec's `StringSchema` does not allow ([`Format::IdnEmail`]): a client
    /// may refuse the form.
    FormatNotInSpec,
}

impl Inexpressible {
    /// What `version` cannot express about a field of type `ty` by its type alone (a
    /// revision with elicitation; `#[elicit(min_revision)]` checks forms with it at compile
    /// time).
    pub(crate) const fn of_type(ty: FieldType, version: ProtocolVersion) -> Option<Inexpressible> {
        match (ty, Inexpressible::MultiSelect.since()) {
            (FieldType::MultiSelect { .. }, Some(since)) if (version as u8) < (since as u8) => {
                Some(Inexpressible::MultiSelect)
            }
            _ => None,
        }
    }

    /// The first revision that can express it, if one can.
    pub const fn since(self) -> Option<ProtocolVersion> {
        match self {
            Inexpressible::MultiSelect => Some(ProtocolVersion::MULTI_SELECT),
            Inexpressible::DefaultNotJson | Inexpressible::FormatNotInSpec => None,
        }
    }
}

impl fmt::Display for Inexpressible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Inexpressible::MultiSelect => "multi-select enum",
            Inexpressible::DefaultNotJson => "default is not a JSON value",
            Inexpressible::FormatNotInSpec => {
                "format not in the spec (it allows date, date-time, email, uri)"
            }
        })
    }
}

impl RenderError {
    /// An error that concerns no field in particular.
    pub(crate) fn unsupported(version: ProtocolVersion, reason: impl Into<String>) -> RenderError {
        RenderError {
            version,
            problem: Problem::Other(reason.into()),
        }
    }

    /// The revision asked for.
    pub fn version(&self) -> ProtocolVersion {
        self.version
    }

    /// Every field the revision cannot express, in field order (a field may appear once per
    /// reason); empty when the error is not about fields.
    pub fn fields(&self) -> &[InexpressibleField] {
        match &self.problem {
            Problem::Fields(fields) => fields,
            Problem::Other(_) => &[],
        }
    }
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fields = match &self.problem {
            Problem::Other(reason) => return write!(f, "MCP {}: {reason}", self.version),
            Problem::Fields(fields) => fields,
        };
        let noun = if fields.len() == 1 {
            "this field"
        } else {
            "these fields"
        };
        write!(f, "{} cannot express {noun}: ", self.version)?;
        for (i, field) in fields.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "`{}` ({})", field.name, field.reason)?;
        }
        // Advice only when a later revision would take every one of them.
        let since: Option<Vec<ProtocolVersion>> = fields.iter().map(|f| f.reason.since()).collect();
        if let Some(since) = since.and_then(|s| s.into_iter().max()) {
            write!(f, "; use {since} or later")?;
        }
        Ok(())
    }
}

impl std::error::Error for RenderError {}

/// Which shape of the elicitation schema a revision uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// 2025-06-18: `StringSchema`/`NumberSchema`/`BooleanSchema`/`EnumSchema` (enum + enumNames),
    /// defaults on booleans only, no multi-select.
    V2025_06_18,
    /// 2025-11-25 and later: titled/untitled single and multi-select, defaults everywhere.
    Current,
}

impl Dialect {
    pub(crate) fn of(version: ProtocolVersion) -> Result<Dialect, RenderError> {
        // By order, not by name: a revision added later (`fetch --add`) speaks the newest
        // dialect until the generator learns another one.
        if version < ProtocolVersion::ELICITATION {
            Err(RenderError::unsupported(
                version,
                format!(
                    "elicitation does not exist in this revision (it was added in {})",
                    ProtocolVersion::ELICITATION
                ),
            ))
        } else if version == ProtocolVersion::V2025_06_18 {
            Ok(Dialect::V2025_06_18)
        } else {
            Ok(Dialect::Current)
        }
    }

    /// Whether a property of type `ty` may carry a `default` (else it is left out: a default
    /// only pre-fills the form, and reading content applies it all the same).
    fn allows_default(self, ty: FieldType) -> bool {
        match self {
            Dialect::V2025_06_18 => ty == FieldType::Boolean,
            Dialect::Current => true,
        }
    }
}

impl FormSchema {
    /// Checks that every field `version`'s schema has can be expressed there; the error names
    /// every field that cannot.
    ///
    /// Refused: multi-select fields before 2025-11-25, and (in every revision) a default that
    /// has no JSON value or a format the spec does not allow ([`Format::IdnEmail`], which
    /// only a hand-built form can hold: the derive refuses it).
    /// Not refused: a `default` that the revision has no place for (2025-06-18 allows it on
    /// boolean fields only) is left out of the rendered schema. It only pre-fills the form;
    /// [`Elicit::from_content`](super::Elicit::from_content) still fills an omitted field
    /// with it. Not checked: a field the revision leaves out (`#[elicit(since = "..")]` later
    /// than `version`).
    pub fn check(&self, version: ProtocolVersion) -> Result<(), RenderError> {
        Dialect::of(version)?;
        let mut refused = Vec::new();
        for field in self.fields_in(version) {
            let mut refuse = |reason| {
                refused.push(InexpressibleField {
                    name: field.name,
                    reason,
                })
            };
            if let Some(reason) = Inexpressible::of_type(field.ty, version) {
                refuse(reason);
            }
            if field
                .constraints
                .default
                .is_some_and(|d| d.to_json().is_null())
            {
                refuse(Inexpressible::DefaultNotJson);
            }
            if field.format().is_some_and(|f| !f.in_spec()) {
                refuse(Inexpressible::FormatNotInSpec);
            }
        }
        if refused.is_empty() {
            Ok(())
        } else {
            Err(RenderError {
                version,
                problem: Problem::Fields(refused),
            })
        }
    }

    /// The `requestedSchema` for `version`, ready to serialize. Refuses what [`FormSchema::check`]
    /// refuses, and leaves out what the revision has no place for.
    pub fn render(&self, version: ProtocolVersion) -> Result<Rendered<'_>, RenderError> {
        self.check(version)?;
        Ok(Rendered {
            form: self,
            version,
            dialect: Dialect::of(version)?,
        })
    }

    /// The `requestedSchema` for `version` as a JSON value. (The order of properties in the
    /// value is kept only with `serde_json`'s `preserve_order`; serialize [`FormSchema::render`]
    /// to keep it in any case.)
    pub fn to_value(&self, version: ProtocolVersion) -> Result<Value, RenderError> {
        let rendered = self.render(version)?;
        crate::runtime::json_value(&rendered)
            .map_err(|e| RenderError::unsupported(version, e.to_string()))
    }

    /// The names listed in `required`, in field order.
    pub fn required(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.fields.iter().filter(|f| f.required).map(|f| f.name)
    }

    /// The fields `version`'s `requestedSchema` has, in order: all but those whose
    /// `#[elicit(since = "..")]` is later than `version`.
    pub fn fields_in(
        &self,
        version: ProtocolVersion,
    ) -> impl Iterator<Item = &'static FieldSchema> + '_ {
        self.fields.iter().filter(move |f| f.in_revision(version))
    }
}

/// A [`FormSchema`] rendered for one revision; serializes to the `requestedSchema` object.
#[derive(Debug, Clone, Copy)]
pub struct Rendered<'a> {
    form: &'a FormSchema,
    version: ProtocolVersion,
    dialect: Dialect,
}

impl Serialize for FormSchema {
    /// The `requestedSchema` of the latest released revision ([`ProtocolVersion::latest`];
    /// never fails: every field the derive accepts is expressible there). A field whose
    /// `since` is a later revision (the draft) is left out, as rendering for it would.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Rendered {
            form: self,
            version: ProtocolVersion::latest(),
            dialect: Dialect::Current,
        }
        .serialize(serializer)
    }
}

impl Serialize for Rendered<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", "object")?;
        if let Some(title) = self.form.title {
            map.serialize_entry("title", title)?;
        }
        if let Some(description) = self.form.description {
            map.serialize_entry("description", description)?;
        }
        map.serialize_entry(
            "properties",
            &Properties {
                form: self.form,
                version: self.version,
                dialect: self.dialect,
            },
        )?;
        let required: Vec<&str> = self
            .form
            .fields_in(self.version)
            .filter(|f| f.required)
            .map(|f| f.name)
            .collect();
        if !required.is_empty() {
            map.serialize_entry("required", &required)?;
        }
        map.end()
    }
}

struct Properties<'a> {
    form: &'a FormSchema,
    version: ProtocolVersion,
    dialect: Dialect,
}

impl Serialize for Properties<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let len = self.form.fields_in(self.version).count();
        let mut map = serializer.serialize_map(Some(len))?;
        for field in self.form.fields_in(self.version) {
            map.serialize_entry(
                field.name,
                &Property {
                    field,
                    dialect: self.dialect,
                },
            )?;
        }
        map.end()
    }
}

struct Property {
    field: &'static FieldSchema,
    dialect: Dialect,
}

/// `[{ "const": value, "title": title }, ..]`; an option without a title shows its value.
struct TitledOptions(&'static [EnumOption]);

impl Serialize for TitledOptions {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for option in self.0 {
            seq.serialize_element(&TitledOption(option))?;
        }
        seq.end()
    }
}

struct TitledOption(&'static EnumOption);

impl Serialize for TitledOption {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("const", self.0.value)?;
        map.serialize_entry("title", self.0.title.unwrap_or(self.0.value))?;
        map.end()
    }
}

struct Values(&'static [EnumOption]);

impl Serialize for Values {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|o| o.value))
    }
}

struct Titles(&'static [EnumOption]);

impl Serialize for Titles {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|o| o.title.unwrap_or(o.value)))
    }
}

struct UntitledItems(&'static [EnumOption]);

impl Serialize for UntitledItems {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("type", "string")?;
        map.serialize_entry("enum", &Values(self.0))?;
        map.end()
    }
}

struct TitledItems(&'static [EnumOption]);

impl Serialize for TitledItems {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("anyOf", &TitledOptions(self.0))?;
        map.end()
    }
}

impl Serialize for Property {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let field = self.field;
        let c = &field.constraints;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", field.ty.json_type())?;
        if let Some(title) = field.title {
            map.serialize_entry("title", title)?;
        }
        if let Some(description) = field.description {
            map.serialize_entry("description", description)?;
        }
        match field.ty {
            FieldType::String { .. } => {
                if let Some(min) = c.min_length {
                    map.serialize_entry("minLength", &min)?;
                }
                if let Some(max) = c.max_length {
                    map.serialize_entry("maxLength", &max)?;
                }
                if let Some(format) = field.format() {
                    map.serialize_entry("format", format.as_str())?;
                }
            }
            FieldType::Integer { .. } => {
                // The type's own bounds are written when they are narrower than what JSON
                // clients commonly hold (i64); u64 still gets its minimum 0.
                let min = field.effective_minimum().filter(|m| match *m {
                    Num::Int(i) => i > i128::from(i64::MIN),
                    Num::Float(_) => true,
                });
                let max = field.effective_maximum().filter(|m| match *m {
                    Num::Int(i) => i < i128::from(i64::MAX),
                    Num::Float(_) => true,
                });
                if let Some(n) = min.and_then(Num::to_json) {
                    map.serialize_entry("minimum", &n)?;
                }
                if let Some(n) = max.and_then(Num::to_json) {
                    map.serialize_entry("maximum", &n)?;
                }
            }
            FieldType::Number { .. } => {
                if let Some(n) = c.minimum.and_then(Num::to_json) {
                    map.serialize_entry("minimum", &n)?;
                }
                if let Some(n) = c.maximum.and_then(Num::to_json) {
                    map.serialize_entry("maximum", &n)?;
                }
            }
            FieldType::Boolean => {}
            FieldType::SingleSelect { options } => {
                if !field.is_titled() {
                    map.serialize_entry("enum", &Values(options))?;
                } else if c.legacy_enum_names || self.dialect == Dialect::V2025_06_18 {
                    map.serialize_entry("enum", &Values(options))?;
                    map.serialize_entry("enumNames", &Titles(options))?;
                } else {
                    map.serialize_entry("oneOf", &TitledOptions(options))?;
                }
            }
            FieldType::MultiSelect { options } => {
                if let Some(min) = c.min_items {
                    map.serialize_entry("minItems", &min)?;
                }
                if let Some(max) = c.max_items {
                    map.serialize_entry("maxItems", &max)?;
                }
                if field.is_titled() {
                    map.serialize_entry("items", &TitledItems(options))?;
                } else {
                    map.serialize_entry("items", &UntitledItems(options))?;
                }
            }
        }
        if let Some(default) = c.default.filter(|_| self.dialect.allows_default(field.ty)) {
            map.serialize_entry("default", &default.to_json())?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_their_kind_on_the_wire() {
        assert_eq!(Num::Int(3).to_json().unwrap().to_string(), "3");
        assert_eq!(Num::Float(3.0).to_json().unwrap().to_string(), "3");
        assert_eq!(Num::Float(2.75).to_json().unwrap().to_string(), "2.75");
        assert_eq!(
            Num::Int(i128::from(u64::MAX))
                .to_json()
                .unwrap()
                .to_string(),
            u64::MAX.to_string()
        );
        assert_eq!(Num::Int(i128::from(u64::MAX) + 1).to_json(), None);
        assert_eq!(Num::Float(f64::NAN).to_json(), None);
    }

    #[test]
    fn numbers_compare_exactly() {
        use Ordering::{Equal, Greater, Less};
        let two53 = 9_007_199_254_740_992_i128;
        let cases = [
            // Integers beyond 2^53 are not rounded.
            (Num::Int(two53), Num::Int(two53 + 1), Some(Less)),
            (Num::Float(two53 as f64), Num::Int(two53 + 1), Some(Less)),
            (Num::Int(two53 + 1), Num::Float(two53 as f64), Some(Greater)),
            (Num::Int(two53), Num::Float(two53 as f64), Some(Equal)),
            (
                Num::Int(i128::from(u64::MAX)),
                Num::Float(18_446_744_073_709_551_616.0),
                Some(Less),
            ),
            (
                Num::Int(i128::from(i64::MIN)),
                Num::Float(-9_223_372_036_854_775_808.0),
                Some(Equal),
            ),
            // Fractions, on both sides of zero.
            (Num::Int(2), Num::Float(2.5), Some(Less)),
            (Num::Int(3), Num::Float(2.5), Some(Greater)),
            (Num::Int(-2), Num::Float(-2.5), Some(Greater)),
            (Num::Int(-3), Num::Float(-2.5), Some(Less)),
            (Num::Int(0), Num::Float(-0.0), Some(Equal)),
            (Num::Float(0.5), Num::Int(0), Some(Greater)),
            // Floats beyond every i128.
            (Num::Int(i128::MAX), Num::Float(1e39), Some(Less)),
            (Num::Int(i128::MIN), Num::Float(-1e39), Some(Greater)),
            (
                Num::Int(i128::MIN),
                Num::Float(-170_141_183_460_469_231_731_687_303_715_884_105_728.0),
                Some(Equal),
            ),
            (Num::Int(i128::MAX), Num::Float(f64::INFINITY), Some(Less)),
            (Num::Int(0), Num::Float(f64::NAN), None),
            (Num::Float(1e20), Num::Float(1e20), Some(Equal)),
        ];
        for (a, b, expected) in cases {
            assert_eq!(a.cmp_exact(b), expected, "{a:?} against {b:?}");
        }
    }

    #[test]
    fn integers_are_numbers_without_a_fraction() {
        for n in [
            Num::Int(i128::MAX),
            Num::Float(1e20),
            Num::Float(-3.0),
            Num::Float(1e300),
        ] {
            assert!(n.is_integer(), "{n:?}");
        }
        for n in [
            Num::Float(0.5),
            Num::Float(-1e-300),
            Num::Float(f64::NAN),
            Num::Float(f64::INFINITY),
        ] {
            assert!(!n.is_integer(), "{n:?}");
        }
        let big: Number = serde_json::from_str("100000000000000000000").unwrap();
        assert_eq!(Num::of_json(&big), Num::Float(1e20));
        assert_eq!(
            Num::of_json(&Number::from(u64::MAX)),
            Num::Int(i128::from(u64::MAX))
        );
        assert_eq!(Num::of_json(&Number::from(-3)), Num::Int(-3));
    }

    #[test]
    fn patterns_are_unanchored_and_never_panic() {
        assert_eq!(Pattern::new("b").is_match("abc"), Some(true));
        assert_eq!(Pattern::new("^b").is_match("abc"), Some(false));
        assert_eq!(Pattern::new("(").is_match("abc"), None);
    }
}
