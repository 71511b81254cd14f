//! Entry points: a whole input decoded as one value.

use super::{Decode, Error, Parser};

/// Decodes `text` as a `T`; only whitespace may follow the value.
#[inline]
pub fn from_str<T: Decode>(text: &str) -> Result<T, Error> {
    let mut p = Parser::new(text);
    let decoded = T::decode(&mut p);
    finished(&mut p, decoded)
}

/// Decodes `text` with `decode` (a message decoder given more than the parser); only
/// whitespace may follow the value. Inlined, so that the value is decoded where the caller
/// keeps it (not moved through this function's frame: a message is hundreds of bytes).
#[inline]
pub fn from_str_by<T>(
    text: &str,
    decode: impl FnOnce(&mut Parser<'_>) -> Result<T, Error>,
) -> Result<T, Error> {
    let mut p = Parser::new(text);
    let decoded = decode(&mut p);
    finished(&mut p, decoded)
}

/// Decodes `bytes` as a `T`; only whitespace may follow the value, and the input must be
/// UTF-8.
#[inline]
pub fn from_slice<T: Decode>(bytes: &[u8]) -> Result<T, Error> {
    let mut p = Parser::from_slice(bytes);
    let decoded = T::decode(&mut p);
    finished(&mut p, decoded)
}

/// `decoded`, once only whitespace is found after it (else that error). The result is
/// returned as it is, not taken apart and built again (`let v = decoded?; …; Ok(v)`), which
/// moved the value once more: for a message (336 bytes in 2025-11-25) one `memcpy` call of
/// the five it took on its way to the caller of `from_json_awaiting`.
#[inline(always)]
fn finished<T>(p: &mut Parser<'_>, decoded: Result<T, Error>) -> Result<T, Error> {
    if decoded.is_ok() {
        p.finish()?;
    }
    decoded
}
