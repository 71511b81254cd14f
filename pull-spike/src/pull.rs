//! The shared decoder: what the runtime would hold. One object loop, one array loop, one
//! string/number reader and one open-JSON (`Value`) builder, written once against [`Pull`],
//! the few calls a pull parser must offer. Per type, the generated code is a key table
//! ([`Obj`]) and a closure that decodes the member at a given index (see `types.rs`).
//!
//! In the runtime there would be one parser and so one copy of all this; here it is generic
//! over [`Pull`] so that the same code runs on jiter and on simd-json's tape.

use std::fmt;

use serde_json::{Map, Number, Value};

/// What the next value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A number.
    Num,
    /// A string.
    Str,
    /// An array.
    Arr,
    /// An object.
    Obj,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "a boolean",
            Kind::Num => "a number",
            Kind::Str => "a string",
            Kind::Arr => "an array",
            Kind::Obj => "an object",
        }
    }
}

/// A number as the parser gives it: its text (jiter) or already converted (simd-json).
pub enum Num<'a> {
    /// The number's JSON text.
    Text(&'a [u8]),
    /// An integer that fits `i64`.
    I64(i64),
    /// A non-negative integer beyond `i64`.
    U64(u64),
    /// Any other number.
    F64(f64),
}

/// A step of the JSON pointer of a fault.
#[derive(Debug, Clone)]
enum Seg {
    Key(&'static str),
    Owned(String),
    Index(usize),
}

#[derive(Debug)]
struct Inner {
    message: String,
    /// Byte offset in the text, when the parser knows it.
    at: Option<usize>,
    /// The pointer, innermost step first (pushed while the error unwinds: free on success).
    path: Vec<Seg>,
}

/// A decoding error: what was expected and found, where (byte offset, so line and column),
/// and the JSON pointer of the member at fault.
#[derive(Debug)]
pub struct Error(Box<Inner>);

impl Error {
    /// An error at byte offset `at` (when known).
    pub fn new(message: impl Into<String>, at: Option<usize>) -> Error {
        Error(Box::new(Inner {
            message: message.into(),
            at,
            path: Vec::new(),
        }))
    }

    /// Adds `key` (outermost so far) to the pointer.
    pub fn in_key(mut self, key: &'static str) -> Error {
        self.0.path.push(Seg::Key(key));
        self
    }

    fn in_owned(mut self, key: &str) -> Error {
        self.0.path.push(Seg::Owned(key.to_owned()));
        self
    }

    fn in_index(mut self, i: usize) -> Error {
        self.0.path.push(Seg::Index(i));
        self
    }

    /// The JSON pointer (RFC 6901) of the member at fault.
    pub fn pointer(&self) -> String {
        let mut out = String::new();
        for seg in self.0.path.iter().rev() {
            out.push('/');
            match seg {
                Seg::Key(k) => out.push_str(&k.replace('~', "~0").replace('/', "~1")),
                Seg::Owned(k) => out.push_str(&k.replace('~', "~0").replace('/', "~1")),
                Seg::Index(i) => out.push_str(&i.to_string()),
            }
        }
        out
    }

    /// The byte offset of the fault, when the parser knows it.
    pub fn offset(&self) -> Option<usize> {
        self.0.at
    }

    /// Line and column (1-based, column in characters) of the fault in `text`.
    pub fn line_column(&self, text: &str) -> Option<(usize, usize)> {
        let at = self.0.at?.min(text.len());
        let before = &text.as_bytes()[..at];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let column = text[start..at].chars().count() + 1;
        Some((line, column))
    }

    /// What went wrong.
    pub fn message(&self) -> &str {
        &self.0.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at `{}`", self.0.message, self.pointer())?;
        if let Some(at) = self.0.at {
            write!(f, " (byte {at})")?;
        }
        Ok(())
    }
}

/// The calls a pull parser must offer the shared decoder. `'a` is the input's lifetime.
pub trait Pull<'a>: Sized {
    /// What the next value is (skips whitespace; consumes nothing).
    fn peek(&mut self) -> Result<Kind, Error>;
    /// After `peek() == Obj`: enters the object, returns its first key.
    fn obj_first(&mut self) -> Result<Option<&str>, Error>;
    /// After a member's value: the next key, or `None` at the object's end.
    fn obj_next(&mut self) -> Result<Option<&str>, Error>;
    /// After `peek() == Arr`: enters the array; whether an element follows.
    fn arr_first(&mut self) -> Result<bool, Error>;
    /// After an element: whether another follows.
    fn arr_next(&mut self) -> Result<bool, Error>;
    /// After `peek() == Str`: the string (borrowed from the input or a scratch buffer).
    fn str(&mut self) -> Result<&str, Error>;
    /// After `peek() == Num`: the number.
    fn num(&mut self) -> Result<Num<'_>, Error>;
    /// After `peek() == Bool`.
    fn bool(&mut self) -> Result<bool, Error>;
    /// After `peek() == Null`.
    fn null(&mut self) -> Result<(), Error>;
    /// Skips the next value.
    fn skip(&mut self) -> Result<(), Error>;
    /// Where the next value starts (after `peek`), to come back to it with [`Self::at`].
    fn mark(&self) -> usize;
    /// A parser positioned on the value marked `mark` (in the same input).
    fn at(&self, mark: usize) -> Self;
    /// The value between marks `start` and `end` (taken before and after skipping it) as
    /// JSON text.
    fn raw(&self, start: usize, end: usize) -> String;
    /// The byte offset of the next value, for errors (`None`: the parser does not know).
    fn offset(&self) -> Option<usize>;
    /// Measurement switch: open objects kept as their text (skipped and copied) instead of
    /// built as `Map`s; the spike then returns empty maps (the cost of a raw-text type for
    /// open JSON, not a value anyone can use).
    fn open_as_text(&self) -> bool {
        false
    }
}

/// "expected X, found Y" at the current value.
#[cold]
pub fn wrong<'a, P: Pull<'a>>(p: &P, expected: &str, found: Kind) -> Error {
    Error::new(
        format!("invalid type: {}, expected {expected}", found.name()),
        p.offset(),
    )
}

// ---- The per-type table the generator emits, and the one object loop ----------------------

/// The key table of an object type.
pub struct Obj {
    /// "expected …" in type errors.
    pub expecting: &'static str,
    /// Declared members (then constant members), in the order of the field closure's indices.
    pub keys: &'static [&'static str],
    /// Bit `i` set: `keys[i]` is required.
    pub required: u64,
}

impl Obj {
    #[inline]
    fn find(&self, key: &str) -> Option<usize> {
        self.keys.iter().position(|k| *k == key)
    }
}

/// Where the object loop starts.
#[derive(Clone, Copy)]
pub enum Start {
    /// On the object's `{`.
    Value,
    /// Inside the object, its tag member (`key`) read already by the union.
    AfterTag(&'static str),
}

/// The one object loop: every declared member goes to `field(p, index)` once, required ones
/// are checked, unknown members are kept in `extra` as open JSON. The per-type code is only
/// `field`. Errors inside a member get the member's key in their pointer.
pub fn object<'a, P: Pull<'a>>(
    p: &mut P,
    d: &Obj,
    start: Start,
    extra: &mut Map<String, Value>,
    field: &mut dyn FnMut(&mut P, usize) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut seen: u64 = 0;
    // `Some(index)` for a declared key, `Err(key)` for an unknown one (owned: the parser's
    // borrow ends before the member's value is read).
    let mut next = match start {
        Start::Value => {
            let kind = p.peek()?;
            if kind != Kind::Obj {
                return Err(wrong(p, d.expecting, kind));
            }
            lookup(d, p.obj_first()?)
        }
        Start::AfterTag(tag) => {
            if let Some(i) = d.find(tag) {
                seen |= 1 << i;
            }
            lookup(d, p.obj_next()?)
        }
    };
    loop {
        match next {
            None => break,
            Some(Ok(i)) => {
                if seen & (1 << i) != 0 {
                    return Err(Error::new(
                        format!("duplicate member `{}`", d.keys[i]),
                        p.offset(),
                    ));
                }
                seen |= 1 << i;
                field(p, i).map_err(|e| e.in_key(d.keys[i]))?;
            }
            Some(Err(key)) => {
                let v = value(p).map_err(|e| e.in_owned(&key))?;
                extra.insert(key, v);
            }
        }
        next = lookup(d, p.obj_next()?);
    }
    if d.required & !seen != 0 {
        return Err(missing(d, seen, p.offset()));
    }
    Ok(())
}

/// Every required member not seen, named at once.
#[cold]
fn missing(d: &Obj, seen: u64, at: Option<usize>) -> Error {
    let missing: Vec<&str> = (0..d.keys.len())
        .filter(|i| d.required & !seen & (1 << i) != 0)
        .map(|i| d.keys[i])
        .collect();
    Error::new(
        format!(
            "missing member(s) `{}` in {}",
            missing.join("`, `"),
            d.expecting
        ),
        at,
    )
}

#[inline]
fn lookup(d: &Obj, key: Option<&str>) -> Option<Result<usize, String>> {
    let key = key?;
    Some(d.find(key).ok_or_else(|| key.to_owned()))
}

/// A slot filled by the object loop; the loop has checked required members, so a missing
/// one here is a bug of the table.
pub fn req<T>(slot: Option<T>, key: &'static str) -> Result<T, Error> {
    slot.ok_or_else(|| Error::new(format!("missing member `{key}`"), None))
}

// ---- Values ---------------------------------------------------------------------------------

/// Decodes a value of a type.
pub trait Decode: Sized {
    /// Decodes the next value.
    fn decode<'a, P: Pull<'a>>(p: &mut P) -> Result<Self, Error>;
}

/// Decodes an object type, possibly after its tag was read by the union holding it.
pub trait DecodeObj: Sized {
    /// Decodes the object from `start`.
    fn decode_obj<'a, P: Pull<'a>>(p: &mut P, start: Start) -> Result<Self, Error>;
}

/// The one string reader.
pub fn string<'a, P: Pull<'a>>(p: &mut P) -> Result<String, Error> {
    match p.peek()? {
        Kind::Str => Ok(p.str()?.to_owned()),
        k => Err(wrong(p, "a string", k)),
    }
}

/// A string member that must equal `expected` (a constant member or a union's tag).
pub fn const_str<'a, P: Pull<'a>>(p: &mut P, expected: &str) -> Result<(), Error> {
    match p.peek()? {
        Kind::Str => {
            let at = p.offset();
            if p.str()? == expected {
                Ok(())
            } else {
                Err(Error::new(
                    format!("expected the constant \"{expected}\""),
                    at,
                ))
            }
        }
        k => Err(wrong(p, "a string", k)),
    }
}

/// The one number reader.
pub fn number<'a, P: Pull<'a>>(p: &mut P) -> Result<Number, Error> {
    match p.peek()? {
        Kind::Num => {
            let at = p.offset();
            num_to_number(p.num()?).ok_or_else(|| Error::new("number out of range", at))
        }
        k => Err(wrong(p, "a number", k)),
    }
}

/// serde_json's conversion: integers as `u64`/`i64` when they fit, anything else an `f64`
/// (correctly rounded, as `float_roundtrip` does).
fn num_to_number(n: Num<'_>) -> Option<Number> {
    match n {
        Num::I64(i) => Some(i.into()),
        Num::U64(u) => Some(u.into()),
        Num::F64(f) => Number::from_f64(f),
        Num::Text(t) => {
            // JSON number text is ASCII.
            let s = std::str::from_utf8(t).ok()?;
            if !s.contains(['.', 'e', 'E']) {
                if let Ok(u) = s.parse::<u64>() {
                    return Some(u.into());
                }
                if let Ok(i) = s.parse::<i64>() {
                    return Some(i.into());
                }
            }
            Number::from_f64(s.parse::<f64>().ok()?)
        }
    }
}

/// An integer member.
pub fn int<'a, P: Pull<'a>>(p: &mut P) -> Result<i64, Error> {
    let at = p.offset();
    let n = number(p)?;
    n.as_i64()
        .ok_or_else(|| Error::new(format!("invalid value: {n}, expected an integer"), at))
}

/// Open JSON: the one `Value` builder (objects in input order).
pub fn value<'a, P: Pull<'a>>(p: &mut P) -> Result<Value, Error> {
    Ok(match p.peek()? {
        Kind::Null => {
            p.null()?;
            Value::Null
        }
        Kind::Bool => Value::Bool(p.bool()?),
        Kind::Num => Value::Number(number(p)?),
        Kind::Str => Value::String(p.str()?.to_owned()),
        Kind::Arr => {
            let mut out = Vec::new();
            let mut more = p.arr_first()?;
            while more {
                out.push(value(p).map_err(|e| e.in_index(out.len()))?);
                more = p.arr_next()?;
            }
            Value::Array(out)
        }
        Kind::Obj => Value::Object(open_members(p)?),
    })
}

/// The members of an object, after `peek() == Obj`.
fn open_members<'a, P: Pull<'a>>(p: &mut P) -> Result<Map<String, Value>, Error> {
    let mut map = Map::new();
    let mut key = p.obj_first()?.map(str::to_owned);
    while let Some(k) = key {
        let v = value(p).map_err(|e| e.in_owned(&k))?;
        map.insert(k, v);
        key = p.obj_next()?.map(str::to_owned);
    }
    Ok(map)
}

/// An open object (`_meta`, `arguments`, `structuredContent`, schemas).
pub fn open_object<'a, P: Pull<'a>>(p: &mut P) -> Result<Map<String, Value>, Error> {
    match p.peek()? {
        Kind::Obj if p.open_as_text() => {
            let start = p.mark();
            p.skip()?;
            std::hint::black_box(p.raw(start, p.mark()));
            Ok(Map::new())
        }
        Kind::Obj => open_members(p),
        k => Err(wrong(p, "an object", k)),
    }
}

/// The one array loop.
pub fn array<'a, P: Pull<'a>, T>(
    p: &mut P,
    mut element: impl FnMut(&mut P) -> Result<T, Error>,
) -> Result<Vec<T>, Error> {
    match p.peek()? {
        Kind::Arr => {
            let mut out = Vec::new();
            let mut more = p.arr_first()?;
            while more {
                out.push(element(p).map_err(|e| e.in_index(out.len()))?);
                more = p.arr_next()?;
            }
            Ok(out)
        }
        k => Err(wrong(p, "an array", k)),
    }
}

/// A map from names to a decoded type (a form's or a schema's `properties`).
pub fn map_of<'a, P: Pull<'a>, T>(
    p: &mut P,
    mut element: impl FnMut(&mut P) -> Result<T, Error>,
) -> Result<indexmap::IndexMap<String, T>, Error> {
    match p.peek()? {
        Kind::Obj => {
            let mut out = indexmap::IndexMap::new();
            let mut key = p.obj_first()?.map(str::to_owned);
            while let Some(k) = key {
                let v = element(p).map_err(|e| e.in_owned(&k))?;
                out.insert(k, v);
                key = p.obj_next()?.map(str::to_owned);
            }
            Ok(out)
        }
        k => Err(wrong(p, "an object", k)),
    }
}

/// A boolean member.
pub fn boolean<'a, P: Pull<'a>>(p: &mut P) -> Result<bool, Error> {
    match p.peek()? {
        Kind::Bool => p.bool(),
        k => Err(wrong(p, "a boolean", k)),
    }
}

/// Decodes a union's variant: `(parser, index of the tag value, where the object starts)`.
pub type Variant<'v, P, T> = dyn FnMut(&mut P, Option<usize>, Start) -> Result<T, Error> + 'v;

/// A union tagged by member `tag` (values `tags`): `variant(p, index of the tag value, start)`
/// decodes the variant. When the tag is the first member (the common case) the variant
/// continues from it in one pass; otherwise the object is skipped to find the tag and decoded
/// again from its start (the late-tag path: a skip plus one typed parse). An unknown tag value
/// gives `None` and the whole object (the catch-all).
pub fn tagged<'a, P: Pull<'a>, T>(
    p: &mut P,
    tag: &'static str,
    tags: &[&str],
    expecting: &str,
    variant: &mut Variant<'_, P, T>,
) -> Result<T, Error> {
    let kind = p.peek()?;
    if kind != Kind::Obj {
        return Err(wrong(p, expecting, kind));
    }
    let mark = p.mark();
    let mut is_tag = p.obj_first()?.map(|k| k == tag);
    if is_tag == Some(true) {
        let index = tag_index(p, tag, tags)?;
        if index.is_some() {
            return variant(p, index, Start::AfterTag(tag));
        }
        p.skip()?;
        while p.obj_next()?.is_some() {
            p.skip()?;
        }
        return variant(&mut p.at(mark), None, Start::Value);
    }
    let mut found = None;
    while let Some(t) = is_tag {
        if t && found.is_none() {
            found = Some(tag_index(p, tag, tags)?);
        } else {
            p.skip()?;
        }
        is_tag = p.obj_next()?.map(|k| k == tag);
    }
    match found {
        Some(index) => variant(&mut p.at(mark), index, Start::Value),
        None => Err(Error::new(
            format!("missing member `{tag}` in {expecting}"),
            p.offset(),
        )),
    }
}

/// Reads a tag's string value and finds it in `tags`, without copying it.
fn tag_index<'a, P: Pull<'a>>(
    p: &mut P,
    tag: &'static str,
    tags: &[&str],
) -> Result<Option<usize>, Error> {
    match p.peek()? {
        Kind::Str => {
            let s = p.str()?;
            Ok(tags.iter().position(|t| *t == s))
        }
        k => Err(wrong(p, "a string", k).in_key(tag)),
    }
}
