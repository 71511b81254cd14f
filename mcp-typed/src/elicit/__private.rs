//! Items the code of `#[derive(Elicit)]` refers to. Not a public API.

use std::any::Any;

use serde_json::Value;

pub use super::field::{ElicitEnum, FormField};
pub use super::schema::{
    Constraints, DefaultValue, EnumOption, FieldSchema, FieldType, FormSchema, Format, Num, Pattern,
};
pub use super::validate::ContentError;
pub use serde_json;

use super::schema::Inexpressible;
use super::validate::{Violation, ViolationKind, check_value};
use crate::ProtocolVersion;

/// Violations found so far while reading content.
#[derive(Debug, Default)]
pub struct Errors(Vec<Violation>);

impl Errors {
    /// Starts reading content.
    pub fn new() -> Errors {
        Errors(Vec::new())
    }

    /// Records a key of the content that is not a field of the form.
    #[cold]
    pub fn unknown_key(&mut self, key: &str) {
        self.0.push(Violation {
            field: key.to_owned(),
            kind: ViolationKind::UnknownKey,
        });
    }

    /// Ends reading: `Ok` when nothing was found. The unknown keys go last.
    pub fn finish(self, form: &FormSchema) -> Result<(), ContentError> {
        if self.0.is_empty() {
            return Ok(());
        }
        let mut violations = self.0;
        // Field violations first, in field order; unknown keys (recorded first) last.
        violations.sort_by_key(|v| {
            form.fields
                .iter()
                .position(|f| f.name == v.field && v.kind != ViolationKind::UnknownKey)
                .unwrap_or(usize::MAX)
        });
        Err(ContentError::from_violations(violations))
    }

    /// The error to return when a value is missing although no violation was recorded
    /// (cannot happen; returned rather than panicking).
    pub fn incomplete(mut self, form: &FormSchema) -> ContentError {
        if self.0.is_empty() {
            self.0.push(Violation {
                field: form.fields.first().map_or("", |f| f.name).to_owned(),
                kind: ViolationKind::Unrepresentable,
            });
        }
        match self.finish(form) {
            Err(e) => e,
            Ok(()) => ContentError::from_violations(Vec::new()),
        }
    }

    fn convert<T: FormField>(&mut self, field: &FieldSchema, value: &Value) -> Option<T> {
        let before = self.0.len();
        check_value(&field.rules(), value, &mut self.0);
        if self.0.len() > before {
            return None;
        }
        let converted = T::from_json(value);
        if converted.is_none() {
            self.0.push(Violation {
                field: field.name.to_owned(),
                kind: ViolationKind::Unrepresentable,
            });
        }
        converted
    }

    /// Reads a field that is not an `Option` from its value in the content (`None` when
    /// absent): present, or filled from its default, or missing.
    pub fn take<T: FormField>(&mut self, field: &FieldSchema, value: Option<&Value>) -> Option<T> {
        match value {
            Some(value) => self.convert(field, value),
            None => match field.constraints.default {
                Some(default) => self.convert(field, &default.to_json()),
                None => {
                    self.0.push(Violation {
                        field: field.name.to_owned(),
                        kind: ViolationKind::Missing,
                    });
                    None
                }
            },
        }
    }

    /// Reads an `Option` field from its value in the content: `Some(None)` when absent
    /// without a default.
    pub fn take_optional<T: FormField>(
        &mut self,
        field: &FieldSchema,
        value: Option<&Value>,
    ) -> Option<Option<T>> {
        match value {
            Some(value) => self.convert(field, value).map(Some),
            None => match field.constraints.default {
                Some(default) => self.convert(field, &default.to_json()).map(Some),
                None => Some(None),
            },
        }
    }
}

/// Reads one field, from its value in the content (`None` when absent), into a slot of type
/// `Option<T>` (for `required`) or `Option<Option<T>>` (for `optional`), passed as
/// `&mut dyn Any`.
pub type Read = fn(&mut Errors, &FieldSchema, Option<&Value>, &mut dyn Any);

/// What the derive needs of a field's type, obtained in one place so that an unsupported type
/// is reported once, on the field.
#[derive(Clone, Copy)]
pub struct Reader {
    /// `T::TYPE`.
    pub ty: FieldType,
    /// Reads the field.
    pub read: Read,
}

fn read_required<T: FormField + 'static>(
    errors: &mut Errors,
    field: &FieldSchema,
    value: Option<&Value>,
    slot: &mut dyn Any,
) {
    if let Some(slot) = slot.downcast_mut::<Option<T>>() {
        *slot = errors.take::<T>(field, value);
    }
}

fn read_optional<T: FormField + 'static>(
    errors: &mut Errors,
    field: &FieldSchema,
    value: Option<&Value>,
    slot: &mut dyn Any,
) {
    if let Some(slot) = slot.downcast_mut::<Option<Option<T>>>() {
        *slot = errors.take_optional::<T>(field, value);
    }
}

/// The reader of a field of type `T`.
pub const fn required<T: FormField + 'static>() -> Reader {
    Reader {
        ty: T::TYPE,
        read: read_required::<T>,
    }
}

/// The reader of a field of type `Option<T>`.
pub const fn optional<T: FormField + 'static>() -> Reader {
    Reader {
        ty: T::TYPE,
        read: read_optional::<T>,
    }
}

/// Fails compilation with `message` when `ok` is false (called in a `const`).
pub const fn require(ok: bool, message: &'static str) {
    if !ok {
        panic!("{}", message);
    }
}

// ---- compile-time checks for field types the derive cannot see through ----
//
// When a field's type is a path the derive cannot classify (an enum, an alias...), the
// attributes that depend on the type become bounds on these traits, each with a message
// saying which attributes need what; values (defaults, bounds) are checked in constants.

/// Bound used when `min_length`, `max_length`, `pattern` or `format` is given on a field whose
/// type the derive cannot see.
#[diagnostic::on_unimplemented(
    message = "`min_length`, `max_length`, `pattern` and `format` apply to string fields, and `{Self}` is not `String`",
    label = "this attribute needs a `String` field",
    note = "typed formats (`chrono` dates, `url::Url`) carry their own format and take no length or pattern"
)]
pub trait TextField: FormField {}
impl TextField for String {}

/// Bound used when `minimum` or `maximum` (or a numeric `default`) is given on a field whose
/// type the derive cannot see.
#[diagnostic::on_unimplemented(
    message = "`minimum`, `maximum` and numeric defaults apply to integer and number fields, and `{Self}` is neither",
    label = "this attribute needs an integer or floating-point field"
)]
pub trait RangeField: FormField {}

/// Bound used when `min_items`, `max_items` or a list `default` is given on a field whose type
/// the derive cannot see.
#[diagnostic::on_unimplemented(
    message = "`min_items`, `max_items` and list defaults apply to multi-select fields, and `{Self}` is not one",
    label = "this attribute needs a Vec, BTreeSet or HashSet of an enum deriving `Elicit`"
)]
pub trait ItemsField: FormField {}
impl<T: ElicitEnum> ItemsField for Vec<T> {}
impl<T: ElicitEnum + Ord> ItemsField for std::collections::BTreeSet<T> {}
impl<T: ElicitEnum + Eq + std::hash::Hash, S: std::hash::BuildHasher + Default> ItemsField
    for std::collections::HashSet<T, S>
{
}

/// Bound used for `legacy_enum_names` on a field whose type the derive cannot see.
#[diagnostic::on_unimplemented(
    message = "`legacy_enum_names` applies to single-select fields, and `{Self}` is not an enum deriving `Elicit`",
    label = "this attribute needs a fieldless enum deriving `Elicit`"
)]
pub trait SelectField: FormField {}
impl<T: ElicitEnum> SelectField for T {}

/// Bound used for a string `default` on a field whose type the derive cannot see.
#[diagnostic::on_unimplemented(
    message = "a string `default` needs a string or single-select field, and `{Self}` is neither",
    label = "this default is a string"
)]
pub trait StrDefault: FormField {}
impl StrDefault for String {}
impl<T: ElicitEnum> StrDefault for T {}

/// Bound used for a `true`/`false` `default` on a field whose type the derive cannot see.
#[diagnostic::on_unimplemented(
    message = "a boolean `default` needs a `bool` field, and `{Self}` is not `bool`",
    label = "this default is a boolean"
)]
pub trait BoolDefault: FormField {}
impl BoolDefault for bool {}

macro_rules! ranged {
    ($($ty:ty),*) => {$( impl RangeField for $ty {} )*};
}
ranged!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, f32, f64);

#[cfg(feature = "chrono")]
mod chrono_defaults {
    impl super::StrDefault for chrono::NaiveDate {}
    impl super::StrDefault for chrono::DateTime<chrono::FixedOffset> {}
    impl super::StrDefault for chrono::DateTime<chrono::Utc> {}
}
#[cfg(feature = "url")]
impl StrDefault for url::Url {}

/// Requires `T: TextField`.
pub const fn text<T: TextField>() {}
/// Requires `T: RangeField`.
pub const fn range<T: RangeField>() {}
/// Requires `T: ItemsField`.
pub const fn items<T: ItemsField>() {}
/// Requires `T: SelectField`.
pub const fn select<T: SelectField>() {}
/// Requires `T: BoolDefault`.
pub const fn bool_default<T: BoolDefault>() {}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn has_option(options: &[EnumOption], value: &str) -> bool {
    let mut i = 0;
    while i < options.len() {
        if str_eq(options[i].value, value) {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether a string `default` fits `T` (for an enum: is one of its options).
pub const fn str_default_fits<T: StrDefault>(value: &str) -> bool {
    match T::TYPE {
        FieldType::SingleSelect { options } => has_option(options, value),
        FieldType::String { .. } => true,
        _ => false,
    }
}

/// Whether every value of a list `default` is an option of the multi-select `T`.
pub const fn list_default_fits<T: ItemsField>(values: &[&str]) -> bool {
    let FieldType::MultiSelect { options } = T::TYPE else {
        return false;
    };
    let mut i = 0;
    while i < values.len() {
        if !has_option(options, values[i]) {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether an integer (default or bound) fits the range of `T` (numbers take any).
pub const fn int_fits<T: RangeField>(value: i128) -> bool {
    match T::TYPE {
        FieldType::Integer { min, max } => min <= value && value <= max,
        FieldType::Number { .. } => true,
        _ => false,
    }
}

/// Whether a floating-point literal (default or bound) fits `T`: a number type only.
pub const fn float_fits<T: RangeField>(value: f64) -> bool {
    match T::TYPE {
        FieldType::Number { max_magnitude } => value <= max_magnitude && value >= -max_magnitude,
        _ => false,
    }
}

// ---- revisions (`#[elicit(since = "..")]`, `#[elicit(min_revision = "..")]`) ----

/// The revision named `name` (the derive has checked it with `mcp_typed_rules::ProtocolVersion`;
/// this fails compilation if the derive was built with a version that knows more revisions).
pub const fn revision(name: &str) -> ProtocolVersion {
    let mut i = 0;
    while i < ProtocolVersion::ALL.len() {
        if str_eq(ProtocolVersion::ALL[i].as_str(), name) {
            return ProtocolVersion::ALL[i];
        }
        i += 1;
    }
    panic!("#[derive(Elicit)]: this revision is not one of `mcp_typed::ProtocolVersion::ALL`");
}

/// Whether a field of type `ty`, in the schema from `since` on, can be expressed in every
/// revision from `min` on (the check of `#[elicit(min_revision = "..")]` for what the derive
/// cannot see).
pub const fn serves(ty: FieldType, since: Option<ProtocolVersion>, min: ProtocolVersion) -> bool {
    let mut i = 0;
    while i < ProtocolVersion::ALL.len() {
        let version = ProtocolVersion::ALL[i];
        let present = (version as u8) >= (min as u8)
            && match since {
                Some(since) => (version as u8) >= (since as u8),
                None => true,
            };
        if present && Inexpressible::of_type(ty, version).is_some() {
            return false;
        }
        i += 1;
    }
    true
}
