//! The shared decoder generated code calls (issue 31): one pull parser ([`Parser`]: its own
//! scans for the common tokens, jiter for the rest), one object loop ([`object()`]), one
//! array loop (`Vec<T>`'s [`Decode`]), one string and one number reader, one open-JSON builder
//! ([`value()`]). Per type, the generated code is only data: a layout ([`InPlace::LAYOUT`],
//! made by [`layout!`](crate::layout)) of the keys and of where each member goes in the type
//! itself (a [`Slot`]: the offset of its field and the decoder of its type, one copy per member
//! type for every type), which [`in_place`] decodes into:
//!
//! ```
//! use mcp_typed_runtime::pull::*;
//! use mcp_typed_runtime::{Extra, layout};
//!
//! # #[derive(Debug)]
//! struct Tool { name: String, title: Option<String>, extra: Extra }
//!
//! impl InPlace for Tool {
//!     const LAYOUT: Layout<Self> = layout!(
//!         Tool,
//!         "a Tool object",
//!         [required(name, "name"), optional(title, "title")],
//!         [],
//!         keep(extra),
//!     );
//! }
//!
//! let tool: Tool = from_str(r#"{"title": "T", "name": "t", "x": 1}"#).unwrap();
//! assert_eq!((tool.name.as_str(), tool.extra.len()), ("t", 1));
//! let e = from_str::<Vec<Tool>>(r#"[{"name": 1}]"#).unwrap_err();
//! assert_eq!(
//!     e.to_string(),
//!     "invalid type: integer `1`, expected a string at `/0/name`, line 1 column 11"
//! );
//! ```
//!
//! The model:
//!
//! - **Pull, not push.** A decoder asks the parser what comes next ([`Parser::peek`]) and
//!   reads it; nothing is buffered. A value met before the member that decides its type (a
//!   tag that comes late, a union told apart by its members) is skipped and decoded again
//!   later from its *mark*, its byte offset in the input ([`Parser::at`]).
//! - **Unions.** [`tagged`] reads the tag member; when it comes first (as every encoder
//!   writes it) the variant continues after it in one pass ([`Start::AfterTag`]); a union
//!   with a variant for tagless objects guesses that one in one pass when the tag is not
//!   first ([`tagged_or_absent`], [`Start::NoTag`]). [`Merged`]
//!   records which members an object has, for unions told apart by them, and scores each
//!   variant from a generated table.
//! - **Errors** ([`Error`]) are placed when made (byte offset, line, column: computed on the
//!   cold path only) and get their JSON pointer while they unwind: each loop adds its key or
//!   index as the error passes. Success costs nothing for either. Errors about the text
//!   itself (jiter's, the recursion limit, trailing characters) say so: [`Error::is_syntax`].
//! - **serde_json's rules** where open JSON is built: numbers as serde_json makes them
//!   (`float_roundtrip`, no `arbitrary_precision`), objects in input order with a repeated
//!   key's last value at its first position (`preserve_order`), nesting limited to serde_json's
//!   depth (127 levels decode, 128 fail: "recursion limit exceeded"), and serde_json's wording
//!   of type errors.

mod bridge;
mod envelope;
mod error;
mod merged;
mod message;
mod object;
mod parser;
mod union;
mod value;

#[cfg(test)]
pub(crate) mod tests;

pub use bridge::deserialize;
pub use envelope::{Methods, message};
pub use error::Error;

/// A decoder's result (generated decoders return `pull::Result<Self>`).
pub type Result<T, E = Error> = core::result::Result<T, E>;
pub use merged::{
    Check, Const, Deferred, Fits, KindSet, Marked, Merged, Shape, Variant, array_member,
};
pub use message::{from_slice, from_str, from_str_by};
#[doc(hidden)]
pub use object::blank;
#[cfg(test)]
pub(crate) use object::const_int;
pub(crate) use object::const_str;
pub use object::{
    InPlace, Layout, Rest, Slot, Start, Table, Unknown, in_place, insert_unknown, object, one_of,
    required, whole,
};
pub(crate) use parser::plain_end;
pub use parser::{Kind, Parser};
pub use union::{Score, Tag, best_member, skip_rest, tagged, tagged_or_absent};
pub(crate) use value::read;
pub use value::{Decode, DecodeObject, kept_whole, number, value};
