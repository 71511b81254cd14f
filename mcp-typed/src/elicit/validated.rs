//! [`Validated`]: a form read through [`Elicit::from_content`] wherever serde reads it.

use std::fmt;

use serde::de::{Deserialize, Deserializer, Error as _};
use serde_json::{Map, Value};

use super::Elicit;

/// A form value read with [`Elicit::from_content`] (every check, every default) by any API
/// that deserializes elicitation content with serde.
///
/// With the `schemars` feature it also implements `schemars::JsonSchema`, whose schema is the
/// form's `requestedSchema`, which is what rmcp's `peer.elicit::<T>()` asks for:
/// `peer.elicit::<Validated<Booking>>(message)` sends the derived schema and returns
/// content that passed the derive's checks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Validated<T>(pub T);

impl<T> Validated<T> {
    /// The form value.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T: fmt::Debug> fmt::Debug for Validated<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<T> std::ops::Deref for Validated<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<'de, T: Elicit> Deserialize<'de> for Validated<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let content = Map::<String, Value>::deserialize(deserializer)?;
        T::from_content(&content)
            .map(Validated)
            .map_err(D::Error::custom)
    }
}

#[cfg(feature = "schemars")]
impl<T: Elicit> schemars::JsonSchema for Validated<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        let full = std::any::type_name::<T>();
        std::borrow::Cow::Borrowed(full.rsplit("::").next().unwrap_or(full))
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed(std::any::type_name::<T>())
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        // The requestedSchema of the latest revision: an object, so always a valid Schema.
        crate::runtime::json_value(T::requested_schema())
            .ok()
            .and_then(|value| schemars::Schema::try_from(value).ok())
            .unwrap_or_else(|| schemars::Schema::from(false))
    }
}
