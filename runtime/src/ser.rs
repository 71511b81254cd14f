//! The writer: [`to_string`], [`to_vec`] and [`to_writer`] write any `Serialize` value as
//! serde_json's functions of the same names write it, byte for byte (compact, members in
//! order, numbers by serde_json's own formatter, raw JSON text as it is), and faster: a
//! string's runs without anything to escape are found sixteen bytes at a time (the scan the
//! parser reads strings with) and copied whole, where serde_json looks each byte up in a table.
//! Writing strings was three quarters of serde_json's time on real MCP traffic.
//!
//! ```
//! use mcp_typed_runtime::{JsonObject, Value, to_string};
//!
//! let v = serde_json::json!({"text": "line\n\"quoted\"\u{1}", "n": [1, -2, 0.5, 1e300]});
//! assert_eq!(to_string(&v).unwrap(), serde_json::to_string(&v).unwrap());
//! let kept: JsonObject = serde_json::from_str(r#"{"big": 1e2}"#).unwrap();
//! assert_eq!(to_string(&kept).unwrap(), r#"{"big":1e2}"#);
//! ```
//!
//! Map keys are as in serde_json: a string (what every generated type and `Value` writes), or
//! an integer, a finite float, a `bool`, a `char` or a unit variant written as one; any other
//! key is serde_json's error, "key must be a string".

use std::cell::Cell;
use std::io;

use serde::ser::{self, Serialize};
use serde_json::ser::{CompactFormatter, Formatter};

use crate::json::RAW_VALUE_TOKEN;
use crate::pull::plain_end;

/// The struct serde_json's `Number` writes itself as under `arbitrary_precision` (its one
/// field: the digits as written).
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// The enum [`Plain`] writes itself as a unit variant of.
const PLAIN_TOKEN: &str = "$mcp_typed::Plain";

/// A string known to need no escape (no `"`, `\\` or control character): what generated
/// types write their member names and constants (`"jsonrpc":"2.0"`, `"type":"text"`) as.
/// It writes itself as a unit variant named by the string, which serde_json (text, `Value`,
/// map keys) and every self-describing format write as that string; this crate's writer
/// copies it as it is, without looking for characters to escape.
///
/// Holding a string that does need an escape is a bug in the caller; the writer would write
/// it unescaped (invalid JSON), so only the generator, which checks, uses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[doc(hidden)]
pub struct Plain(pub &'static str);

impl Serialize for Plain {
    #[inline]
    fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        debug_assert!(
            plain_end::<false>(self.0.as_bytes(), 0) == self.0.len(),
            "Plain({:?}) needs an escape",
            self.0
        );
        s.serialize_unit_variant(PLAIN_TOKEN, 0, self.0)
    }
}

/// A string that needs no escape, quoted (and a `:` after it when `colon`: a key):
/// [`write_str`] without the scan.
#[inline(always)]
fn write_plain_str(out: &mut Vec<u8>, s: &str, colon: bool) {
    let bytes = s.as_bytes();
    if bytes.len() < 16 {
        push_quoted_block(out, &padded(bytes), bytes.len(), colon);
    } else {
        push_quoted(out, bytes, colon);
    }
}

/// Appends the first `n` bytes of `block` (which need no escape) quoted, and a `:` when
/// `colon`. One `reserve`, then the bytes stored in the room it made and the length set once:
/// `push`, `extend_from_slice` and `truncate` each load and store the length and check the
/// room again (a key cost 77 instructions with its comma, call and `:`). The whole block is
/// copied (a fixed size: no `memcpy` call); the closing quote is stored over its `n`th byte,
/// the `:` after it either way, and counted only for a key (no branch).
#[inline(always)]
fn push_quoted_block(out: &mut Vec<u8>, block: &[u8; 16], n: usize, colon: bool) {
    debug_assert!(n < 16);
    let n = n & 15;
    out.reserve(19);
    let len = out.len();
    let room = &mut out.spare_capacity_mut()[..19];
    room[0].write(b'"');
    for (to, &b) in room[1..17].iter_mut().zip(block) {
        to.write(b);
    }
    room[1 + n].write(b'"');
    room[2 + n].write(b':');
    // SAFETY: `reserve` made room for 19 bytes past `len`, and the `2 + n + 1` at most
    // counted (`n < 16`) are written just above: the quote, the block's first `n` bytes, the
    // closing quote and the `:`.
    unsafe { out.set_len(len + 2 + n + usize::from(colon)) }
}

/// Appends `bytes` (which need no escape) quoted, and a `:` when `colon`.
#[inline(always)]
fn push_quoted(out: &mut Vec<u8>, bytes: &[u8], colon: bool) {
    out.reserve(bytes.len() + 3);
    out.push(b'"');
    out.extend_from_slice(bytes);
    out.push(b'"');
    if colon {
        out.push(b':');
    }
}

/// `value` as JSON text, as `serde_json::to_vec` writes it.
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(128);
    value.serialize(&mut Writer { out: &mut out })?;
    Ok(out)
}

/// `value` as JSON text, as `serde_json::to_string` writes it.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    into_string(to_vec(value)?)
}

/// [`to_string`]'s text from [`to_vec`]'s bytes, out of the generic function.
fn into_string(out: Vec<u8>) -> serde_json::Result<String> {
    // Everything written is UTF-8: the input's strings and ASCII.
    String::from_utf8(out)
        .map_err(|_| ser::Error::custom("the writer wrote text that is not UTF-8"))
}

/// `value` written to `writer` as `serde_json::to_writer` writes it: the text is built in a
/// buffer the thread keeps (so writing message after message allocates nothing), then
/// written with one `write_all` (so an unbuffered writer gets one write, not one per token).
pub fn to_writer<W: io::Write, T: Serialize + ?Sized>(
    mut writer: W,
    value: &T,
) -> serde_json::Result<()> {
    /// Larger buffers are not kept (one very large message should not pin its memory). At
    /// 64 KiB, the synthetic corpus's three messages of 0.5–1.1 MB each grew a buffer through
    /// `mmap` and gave it back, and its decode+encode took 20 % longer under glibc's defaults.
    const KEPT: usize = 4 << 20;
    thread_local! {
        static BUFFER: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
    }
    // Taken, not borrowed: a `Serialize` impl that calls `to_writer` itself gets a new one.
    let mut out = BUFFER.take();
    out.clear();
    let written = value
        .serialize(&mut Writer { out: &mut out })
        .and_then(|()| writer.write_all(&out).map_err(serde_json::Error::io));
    if out.capacity() <= KEPT {
        BUFFER.set(out);
    }
    written
}

/// Appends `s` as a JSON string: quoted, `"`, `\` and control characters escaped as
/// serde_json escapes them (`\n`, `\u001f`…), everything else copied.
#[inline]
pub(crate) fn write_str(out: &mut Vec<u8>, s: &str) {
    write_str_then(out, s, false);
}

/// [`write_str`], and a `:` after it when `colon` (a key).
#[inline]
fn write_str_then(out: &mut Vec<u8>, s: &str, colon: bool) {
    let bytes = s.as_bytes();
    if bytes.len() < 16 {
        // Most strings (keys, names, ids): one step of the scan, copied as one block.
        let block = padded(bytes);
        if plain_end::<false>(&block, 0) >= bytes.len() {
            push_quoted_block(out, &block, bytes.len(), colon);
            return;
        }
    }
    let mut stop = next_stop(bytes, 0);
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut start = 0;
    while let Some(&b) = bytes.get(stop) {
        out.extend_from_slice(&bytes[start..stop]);
        escape(out, b);
        start = stop + 1;
        stop = next_stop(bytes, start);
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
    if colon {
        out.push(b':');
    }
}

/// The first byte at or after `from` to escape (or the end): the parser's scan of plain
/// strings ([`plain_end`]) over the whole sixteen-byte blocks, and over the rest in one
/// [`padded`] block, so that no byte is looked at alone.
#[inline]
fn next_stop(bytes: &[u8], from: usize) -> usize {
    let whole = from + (bytes.len() - from) / 16 * 16;
    let end = plain_end::<false>(&bytes[..whole], from);
    if end < whole {
        return end;
    }
    let rest = &bytes[whole..];
    whole + plain_end::<false>(&padded(rest), 0).min(rest.len())
}

/// Fewer than sixteen bytes in a block of sixteen, the rest spaces (which need no escape),
/// copied in at most two overlapping steps (no call of `memcpy` for a few bytes).
#[inline]
fn padded(rest: &[u8]) -> [u8; 16] {
    let mut block = [b' '; 16];
    let n = rest.len();
    debug_assert!(n < 16);
    if n >= 8 {
        block[..8].copy_from_slice(&rest[..8]);
        block[n - 8..n].copy_from_slice(&rest[n - 8..]);
    } else if n >= 4 {
        block[..4].copy_from_slice(&rest[..4]);
        block[n - 4..n].copy_from_slice(&rest[n - 4..]);
    } else {
        for (b, r) in block.iter_mut().zip(rest) {
            *b = *r;
        }
    }
    block
}

/// One byte that cannot be in a JSON string as it is.
#[cold]
fn escape(out: &mut Vec<u8>, b: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let short = match b {
        b'"' => b'"',
        b'\\' => b'\\',
        0x08 => b'b',
        0x0c => b'f',
        b'\n' => b'n',
        b'\r' => b'r',
        b'\t' => b't',
        _ => {
            let hex = [HEX[usize::from(b >> 4)], HEX[usize::from(b & 0xf)]];
            out.extend_from_slice(&[b'\\', b'u', b'0', b'0', hex[0], hex[1]]);
            return;
        }
    };
    out.extend_from_slice(&[b'\\', short]);
}

/// The serializer: appends to `out`.
struct Writer<'a> {
    out: &'a mut Vec<u8>,
}

impl Writer<'_> {
    /// A number (or `null`) by serde_json's own formatter, which cannot fail on a `Vec`.
    #[inline]
    fn number(
        &mut self,
        f: impl FnOnce(&mut CompactFormatter, &mut Vec<u8>) -> io::Result<()>,
    ) -> Result {
        let _ = f(&mut CompactFormatter, self.out);
        Ok(())
    }
}

type Result<T = ()> = serde_json::Result<T>;

impl<'a, 'w> ser::Serializer for &'a mut Writer<'w> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = Compound<'a, 'w>;
    type SerializeTuple = Compound<'a, 'w>;
    type SerializeTupleStruct = Compound<'a, 'w>;
    type SerializeTupleVariant = Compound<'a, 'w>;
    type SerializeMap = Compound<'a, 'w>;
    type SerializeStruct = Compound<'a, 'w>;
    type SerializeStructVariant = Compound<'a, 'w>;

    fn serialize_bool(self, v: bool) -> Result {
        self.out
            .extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result {
        self.number(|f, w| f.write_i8(w, v))
    }
    fn serialize_i16(self, v: i16) -> Result {
        self.number(|f, w| f.write_i16(w, v))
    }
    fn serialize_i32(self, v: i32) -> Result {
        self.number(|f, w| f.write_i32(w, v))
    }
    fn serialize_i64(self, v: i64) -> Result {
        self.number(|f, w| f.write_i64(w, v))
    }
    fn serialize_i128(self, v: i128) -> Result {
        self.number(|f, w| f.write_i128(w, v))
    }
    fn serialize_u8(self, v: u8) -> Result {
        self.number(|f, w| f.write_u8(w, v))
    }
    fn serialize_u16(self, v: u16) -> Result {
        self.number(|f, w| f.write_u16(w, v))
    }
    fn serialize_u32(self, v: u32) -> Result {
        self.number(|f, w| f.write_u32(w, v))
    }
    fn serialize_u64(self, v: u64) -> Result {
        self.number(|f, w| f.write_u64(w, v))
    }
    fn serialize_u128(self, v: u128) -> Result {
        self.number(|f, w| f.write_u128(w, v))
    }
    /// serde_json writes a NaN or an infinity as `null`.
    fn serialize_f32(self, v: f32) -> Result {
        match v.is_finite() {
            true => self.number(|f, w| f.write_f32(w, v)),
            false => self.number(|f, w| f.write_null(w)),
        }
    }
    fn serialize_f64(self, v: f64) -> Result {
        match v.is_finite() {
            true => self.number(|f, w| f.write_f64(w, v)),
            false => self.number(|f, w| f.write_null(w)),
        }
    }
    fn serialize_char(self, v: char) -> Result {
        write_str(self.out, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result {
        write_str(self.out, v);
        Ok(())
    }
    /// As serde_json: an array of numbers.
    fn serialize_bytes(self, v: &[u8]) -> Result {
        self.number(|f, w| f.write_byte_array(w, v))
    }
    fn serialize_none(self) -> Result {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result {
        self.serialize_unit()
    }
    #[inline]
    fn serialize_unit_variant(self, name: &'static str, _: u32, variant: &'static str) -> Result {
        if name == PLAIN_TOKEN {
            write_plain_str(self.out, variant, false);
            return Ok(());
        }
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result {
        value.serialize(self)
    }
    /// `{"variant":value}`.
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result {
        self.out.push(b'{');
        write_str(self.out, variant);
        self.out.push(b':');
        value.serialize(&mut *self)?;
        self.out.push(b'}');
        Ok(())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a, 'w>> {
        self.out.push(b'[');
        Ok(Compound::new(self, b']'))
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, 'w>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Compound<'a, 'w>> {
        self.serialize_seq(Some(len))
    }
    /// `{"variant":[…]}`.
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a, 'w>> {
        Ok(Compound::in_variant(self, variant, b'[', b']'))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a, 'w>> {
        self.out.push(b'{');
        Ok(Compound::new(self, b'}'))
    }
    /// serde_json's raw-value struct ([`RawJson`](crate::RawJson), [`JsonObject`](crate::JsonObject)
    /// while unchanged) writes its text as it is, and so does its number struct (a `Number`'s
    /// digits, when a crate of the program turns on serde_json's `arbitrary_precision`); any
    /// other struct is a map.
    fn serialize_struct(self, name: &'static str, _: usize) -> Result<Compound<'a, 'w>> {
        if name == RAW_VALUE_TOKEN || name == NUMBER_TOKEN {
            return Ok(Compound::raw(self));
        }
        self.serialize_map(None)
    }
    /// `{"variant":{…}}`.
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a, 'w>> {
        Ok(Compound::in_variant(self, variant, b'{', b'}'))
    }
}

/// An array, object or raw value being written.
struct Compound<'a, 'w> {
    w: &'a mut Writer<'w>,
    /// No element or member written yet (no comma before the next).
    first: bool,
    /// `]` or `}`.
    close: u8,
    /// Inside `{"variant":…}`: one more `}` at the end.
    variant: bool,
    /// serde_json's raw-value or number struct: its one field's string is written as it is.
    raw: bool,
}

impl<'a, 'w> Compound<'a, 'w> {
    fn new(w: &'a mut Writer<'w>, close: u8) -> Self {
        Compound {
            w,
            first: true,
            close,
            variant: false,
            raw: false,
        }
    }

    fn raw(w: &'a mut Writer<'w>) -> Self {
        Compound {
            raw: true,
            ..Compound::new(w, b'}')
        }
    }

    /// `{"variant":` and `open`; [`end`](Self::end) closes both.
    fn in_variant(w: &'a mut Writer<'w>, variant: &str, open: u8, close: u8) -> Self {
        w.out.push(b'{');
        write_str(w.out, variant);
        w.out.extend_from_slice(&[b':', open]);
        Compound {
            variant: true,
            ..Compound::new(w, close)
        }
    }

    #[inline]
    fn comma(&mut self) {
        if !std::mem::take(&mut self.first) {
            self.w.out.push(b',');
        }
    }

    fn end(self) -> Result {
        if !self.raw {
            self.w.out.push(self.close);
        }
        if self.variant {
            self.w.out.push(b'}');
        }
        Ok(())
    }

    /// A member: `,"key":value`.
    #[inline]
    fn member<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result {
        self.comma();
        write_str_then(self.w.out, key, true);
        value.serialize(&mut *self.w)
    }
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.comma();
        value.serialize(&mut *self.w)
    }
    fn end(self) -> Result {
        Compound::end(self)
    }
}

/// Tuples of every kind are arrays: their elements written as a sequence's.
macro_rules! as_sequence {
    ($($tr:ident::$method:ident),*) => {$(
        impl ser::$tr for Compound<'_, '_> {
            type Ok = ();
            type Error = serde_json::Error;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
                ser::SerializeSeq::serialize_element(self, value)
            }
            fn end(self) -> Result {
                Compound::end(self)
            }
        }
    )*};
}

as_sequence!(
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = serde_json::Error;
    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result {
        self.comma();
        key.serialize(StrWriter {
            out: self.w.out,
            raw: false,
            colon: true,
        })
    }
    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        value.serialize(&mut *self.w)
    }
    fn end(self) -> Result {
        Compound::end(self)
    }
}

impl ser::SerializeStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result {
        if self.raw {
            return value.serialize(StrWriter {
                out: self.w.out,
                raw: true,
                colon: false,
            });
        }
        self.member(key, value)
    }
    fn end(self) -> Result {
        Compound::end(self)
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result {
        self.member(key, value)
    }
    fn end(self) -> Result {
        Compound::end(self)
    }
}

/// A string-only position: a map key (a string, or what serde_json writes as one: an integer,
/// a finite float, a `bool`, a `char`, a unit variant's name), or the field of serde_json's raw-value struct
/// (a string of JSON text, written as it is).
struct StrWriter<'o> {
    out: &'o mut Vec<u8>,
    raw: bool,
    /// A map key: the `:` after it is written with it.
    colon: bool,
}

impl StrWriter<'_> {
    /// serde_json's error for anything else there.
    fn refuse(&self) -> serde_json::Error {
        ser::Error::custom(if self.raw {
            "expected RawValue"
        } else {
            "key must be a string"
        })
    }

    /// A number or `bool` key, written by serde_json's formatter, quoted.
    fn quoted(
        self,
        f: impl FnOnce(&mut CompactFormatter, &mut Vec<u8>) -> io::Result<()>,
    ) -> Result {
        if self.raw {
            return Err(self.refuse());
        }
        self.out.push(b'"');
        let _ = f(&mut CompactFormatter, self.out);
        self.out.push(b'"');
        if self.colon {
            self.out.push(b':');
        }
        Ok(())
    }
}

impl ser::Serializer for StrWriter<'_> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = ser::Impossible<(), serde_json::Error>;
    type SerializeTuple = ser::Impossible<(), serde_json::Error>;
    type SerializeTupleStruct = ser::Impossible<(), serde_json::Error>;
    type SerializeTupleVariant = ser::Impossible<(), serde_json::Error>;
    type SerializeMap = ser::Impossible<(), serde_json::Error>;
    type SerializeStruct = ser::Impossible<(), serde_json::Error>;
    type SerializeStructVariant = ser::Impossible<(), serde_json::Error>;

    #[inline]
    fn serialize_str(self, v: &str) -> Result {
        if self.raw {
            self.out.extend_from_slice(v.as_bytes());
        } else {
            write_str_then(self.out, v, self.colon);
        }
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result {
        if self.raw {
            return Err(self.refuse());
        }
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    #[inline]
    fn serialize_unit_variant(self, name: &'static str, _: u32, variant: &'static str) -> Result {
        if self.raw {
            return Err(self.refuse());
        }
        if name == PLAIN_TOKEN {
            write_plain_str(self.out, variant, self.colon);
            return Ok(());
        }
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result {
        if self.raw {
            return Err(self.refuse());
        }
        value.serialize(self)
    }
    fn serialize_bool(self, v: bool) -> Result {
        self.quoted(|f, w| f.write_bool(w, v))
    }
    fn serialize_i8(self, v: i8) -> Result {
        self.quoted(|f, w| f.write_i8(w, v))
    }
    fn serialize_i16(self, v: i16) -> Result {
        self.quoted(|f, w| f.write_i16(w, v))
    }
    fn serialize_i32(self, v: i32) -> Result {
        self.quoted(|f, w| f.write_i32(w, v))
    }
    fn serialize_i64(self, v: i64) -> Result {
        self.quoted(|f, w| f.write_i64(w, v))
    }
    fn serialize_i128(self, v: i128) -> Result {
        self.quoted(|f, w| f.write_i128(w, v))
    }
    fn serialize_u8(self, v: u8) -> Result {
        self.quoted(|f, w| f.write_u8(w, v))
    }
    fn serialize_u16(self, v: u16) -> Result {
        self.quoted(|f, w| f.write_u16(w, v))
    }
    fn serialize_u32(self, v: u32) -> Result {
        self.quoted(|f, w| f.write_u32(w, v))
    }
    fn serialize_u64(self, v: u64) -> Result {
        self.quoted(|f, w| f.write_u64(w, v))
    }
    fn serialize_u128(self, v: u128) -> Result {
        self.quoted(|f, w| f.write_u128(w, v))
    }
    fn serialize_f32(self, v: f32) -> Result {
        if !v.is_finite() && !self.raw {
            return Err(ser::Error::custom(
                "float key must be finite (got NaN or +/-inf)",
            ));
        }
        self.quoted(|f, w| f.write_f32(w, v))
    }
    fn serialize_f64(self, v: f64) -> Result {
        if !v.is_finite() && !self.raw {
            return Err(ser::Error::custom(
                "float key must be finite (got NaN or +/-inf)",
            ));
        }
        self.quoted(|f, w| f.write_f64(w, v))
    }
    fn serialize_bytes(self, _: &[u8]) -> Result {
        Err(self.refuse())
    }
    fn serialize_none(self) -> Result {
        Err(self.refuse())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result {
        if self.raw {
            return Err(self.refuse());
        }
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result {
        Err(self.refuse())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result {
        Err(self.refuse())
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result {
        Err(self.refuse())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(self.refuse())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        Err(self.refuse())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(self.refuse())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(self.refuse())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        Err(self.refuse())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Err(self.refuse())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(self.refuse())
    }
}

#[cfg(test)]
mod tests;
