//! serde's `Deserialize` for the generated types, through the shared decoder: what every
//! generated `Deserialize` impl calls.
//!
//! The value's JSON text is taken from the deserializer ([`Buffered`]: borrowed from the
//! input for `serde_json::from_str`/`from_slice`, at the cost of one skip over it; any other
//! deserializer — a `Value`, a reader, another format — gives the value, which is written
//! out as text first: correct, slower) and decoded by [`from_str`](super::from_str). Nested
//! values never go through serde: once in the decoder, the whole value is decoded there.
//! Calling the decoder directly (`ClientMessage::from_json`, `pull::from_str`) skips the
//! first step and gives errors with the line and column in the input; through serde the
//! position is the deserializer's (the end of the value) and the pointer is in the message.

use serde::Deserialize;
use serde::de::{Deserializer, Error as _};

use super::{Decode, from_str};
use crate::json::Buffered;

/// `T` from any serde deserializer, decoded by the shared decoder.
pub fn deserialize<'de, T: Decode, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    let text = Buffered::deserialize(d)?;
    from_str(text.text()).map_err(|e| {
        let pointer = e.pointer();
        if pointer.is_empty() {
            D::Error::custom(e.message())
        } else {
            D::Error::custom(format_args!("{} at `{pointer}`", e.message()))
        }
    })
}

/// `impl Deserialize for $ty` through [`deserialize`], for each type named: what the
/// generator writes after each generated type (one line instead of the impl's seven).
///
/// ```
/// # use mcp_typed_runtime::pull::*;
/// # #[derive(Debug, PartialEq)]
/// struct Flag(bool);
/// impl Decode for Flag {
///     fn decode(p: &mut Parser<'_>) -> Result<Self, Error> {
///         bool::decode(p).map(Flag)
///     }
/// }
/// mcp_typed_runtime::deserialize_by_pull!(Flag);
/// assert_eq!(serde_json::from_str::<Flag>("true").unwrap(), Flag(true));
/// ```
#[macro_export]
macro_rules! deserialize_by_pull {
    ($($ty:ty),+ $(,)?) => {$(
        impl<'de> $crate::serde::Deserialize<'de> for $ty {
            fn deserialize<D: $crate::serde::Deserializer<'de>>(
                d: D,
            ) -> ::core::result::Result<Self, D::Error> {
                $crate::pull::deserialize(d)
            }
        }
    )+};
}
