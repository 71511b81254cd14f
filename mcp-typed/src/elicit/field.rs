//! The Rust types a form field may have.

use std::collections::{BTreeSet, HashSet};
use std::hash::{BuildHasher, Hash};

use serde_json::Value;

use super::schema::{EnumOption, FieldType};

/// A type that can be the type of a field of a struct deriving [`Elicit`](super::Elicit)
/// (inside an `Option` or not).
///
/// Implemented for `String`, `bool`, the integer types up to 64 bits, `f32`, `f64`, every
/// fieldless enum deriving `Elicit` (single-select), `Vec`, `BTreeSet` and `HashSet` of such an
/// enum (multi-select), and with the `chrono`/`url` features `chrono::NaiveDate` (`date`),
/// `chrono::DateTime<Utc | FixedOffset>` (`date-time`) and `url::Url` (`uri`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the type of a field of an elicitation form",
    label = "unsupported field type",
    note = "a form field may be: String, bool, an integer type (i8..i64, u8..u64, isize, usize), f32, f64, a fieldless enum deriving `Elicit` (single-select), a Vec/BTreeSet/HashSet of such an enum (multi-select), or an `Option` of one of these (written as `Option<..>` in the field)",
    note = "the spec allows only flat forms of primitive values: nested structs (even ones deriving `Elicit`), tuples, maps and arrays of anything but an enum are not allowed"
)]
pub trait FormField: Sized {
    /// What the type holds, with its own limits.
    const TYPE: FieldType;

    /// The value of a content entry that passed validation against [`FormField::TYPE`];
    /// `None` if it cannot be represented after all.
    fn from_json(value: &Value) -> Option<Self>;
}

/// A fieldless enum whose variants are the options of a select (`#[derive(Elicit)]` on an enum).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an enum deriving `Elicit`",
    label = "not a select",
    note = "single-select fields are fieldless enums with `#[derive(Elicit)]`; multi-select fields are a Vec, BTreeSet or HashSet of one"
)]
pub trait ElicitEnum: Sized + 'static {
    /// The options, in variant order.
    const OPTIONS: &'static [EnumOption];

    /// The variant whose wire value is `value`.
    fn from_value(value: &str) -> Option<Self>;

    /// The wire value of this variant.
    fn value(&self) -> &'static str;
}

impl FormField for String {
    const TYPE: FieldType = FieldType::String { format: None };

    fn from_json(value: &Value) -> Option<Self> {
        value.as_str().map(str::to_owned)
    }
}

impl FormField for bool {
    const TYPE: FieldType = FieldType::Boolean;

    fn from_json(value: &Value) -> Option<Self> {
        value.as_bool()
    }
}

/// The integer a JSON number holds, if it holds one within `i128` (`3.0` is the integer 3,
/// as in JSON Schema; `1.8e19` is 18000000000000000000, a `u64`).
pub(crate) fn json_integer(value: &Value) -> Option<i128> {
    let number = value.as_number()?;
    if let Some(i) = number.as_i64() {
        Some(i128::from(i))
    } else if let Some(u) = number.as_u64() {
        Some(i128::from(u))
    } else {
        let f = number.as_f64()?;
        // Below 2^127 in magnitude an integral f64 converts to i128 exactly. Larger ones fit
        // no Rust integer field, whose range refuses them before.
        (f.fract() == 0.0 && f.abs() < 170_141_183_460_469_231_731_687_303_715_884_105_728.0)
            .then_some(f as i128)
    }
}

macro_rules! integers {
    ($($ty:ty),*) => {$(
        impl FormField for $ty {
            const TYPE: FieldType = FieldType::Integer {
                min: <$ty>::MIN as i128,
                max: <$ty>::MAX as i128,
            };

            fn from_json(value: &Value) -> Option<Self> {
                json_integer(value).and_then(|i| <$ty>::try_from(i).ok())
            }
        }
    )*};
}

integers!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

impl FormField for f64 {
    const TYPE: FieldType = FieldType::Number {
        max_magnitude: f64::MAX,
    };

    fn from_json(value: &Value) -> Option<Self> {
        value.as_f64().filter(|f| f.is_finite())
    }
}

impl FormField for f32 {
    const TYPE: FieldType = FieldType::Number {
        max_magnitude: f32::MAX as f64,
    };

    fn from_json(value: &Value) -> Option<Self> {
        value
            .as_f64()
            .filter(|f| f.is_finite() && f.abs() <= f64::from(f32::MAX))
            .map(|f| f as f32)
    }
}

#[diagnostic::do_not_recommend]
impl<T: ElicitEnum> FormField for T {
    const TYPE: FieldType = FieldType::SingleSelect {
        options: T::OPTIONS,
    };

    fn from_json(value: &Value) -> Option<Self> {
        value.as_str().and_then(T::from_value)
    }
}

fn items<T: ElicitEnum>(value: &Value) -> Option<impl Iterator<Item = Option<T>> + '_> {
    Some(
        value
            .as_array()?
            .iter()
            .map(|item| item.as_str().and_then(T::from_value)),
    )
}

impl<T: ElicitEnum> FormField for Vec<T> {
    const TYPE: FieldType = FieldType::MultiSelect {
        options: T::OPTIONS,
    };

    fn from_json(value: &Value) -> Option<Self> {
        items(value)?.collect()
    }
}

impl<T: ElicitEnum + Ord> FormField for BTreeSet<T> {
    const TYPE: FieldType = FieldType::MultiSelect {
        options: T::OPTIONS,
    };

    fn from_json(value: &Value) -> Option<Self> {
        items(value)?.collect()
    }
}

impl<T: ElicitEnum + Eq + Hash, S: BuildHasher + Default> FormField for HashSet<T, S> {
    const TYPE: FieldType = FieldType::MultiSelect {
        options: T::OPTIONS,
    };

    fn from_json(value: &Value) -> Option<Self> {
        items(value)?.collect()
    }
}

#[cfg(feature = "chrono")]
mod chrono_impls {
    use super::*;
    use crate::elicit::schema::Format;

    impl FormField for chrono::NaiveDate {
        const TYPE: FieldType = FieldType::String {
            format: Some(Format::Date),
        };

        fn from_json(value: &Value) -> Option<Self> {
            chrono::NaiveDate::parse_from_str(value.as_str()?, "%Y-%m-%d").ok()
        }
    }

    impl FormField for chrono::DateTime<chrono::FixedOffset> {
        const TYPE: FieldType = FieldType::String {
            format: Some(Format::DateTime),
        };

        fn from_json(value: &Value) -> Option<Self> {
            chrono::DateTime::parse_from_rfc3339(value.as_str()?).ok()
        }
    }

    impl FormField for chrono::DateTime<chrono::Utc> {
        const TYPE: FieldType = FieldType::String {
            format: Some(Format::DateTime),
        };

        fn from_json(value: &Value) -> Option<Self> {
            chrono::DateTime::parse_from_rfc3339(value.as_str()?)
                .ok()
                .map(|d| d.with_timezone(&chrono::Utc))
        }
    }
}

#[cfg(feature = "url")]
impl FormField for url::Url {
    const TYPE: FieldType = FieldType::String {
        format: Some(super::schema::Format::Uri),
    };

    fn from_json(value: &Value) -> Option<Self> {
        url::Url::parse(value.as_str()?).ok()
    }
}
