//! Entry points: a whole input decoded as one value.

use super::{Decode, Error, Parser};

/// Decodes `text` as a `T`; only whitespace may follow the value.
#[inline]
pub fn from_str<T: Decode>(text: &str) -> Result<T, Error> {
    let mut p = Parser::new(text);
    let v = T::decode(&mut p)?;
    p.finish()?;
    Ok(v)
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
    let v = decode(&mut p)?;
    p.finish()?;
    Ok(v)
}

/// Decodes `bytes` as a `T`; only whitespace may follow the value, and the input must be
/// UTF-8.
#[inline]
pub fn from_slice<T: Decode>(bytes: &[u8]) -> Result<T, Error> {
    let mut p = Parser::from_slice(bytes);
    let v = T::decode(&mut p)?;
    p.finish()?;
    Ok(v)
}
