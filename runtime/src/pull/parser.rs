//! [`Parser`]: the common tokens read by its own scans, the rest by jiter (which makes every
//! syntax error), with the nesting depth kept and errors placed.

use std::borrow::Cow;

use jiter::{Jiter, JiterError, JiterErrorType, Peek};
use serde_json::Number;

use super::Error;

/// Nesting levels allowed, counted as serde_json counts them: its `remaining_depth` starts at
/// 128 and entering an array or object that brings it to 0 fails, so 127 levels decode and
/// the 128th fails.
pub(crate) const MAX_DEPTH: u8 = 127;

/// What the next value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

/// The pull parser the decoders run on: the common tokens (keys without escapes, strings,
/// integers, literals, the punctuation between them) read by its own scans, everything else
/// (and anything malformed) by jiter, which makes every syntax error. Marks are byte offsets in the whole input, so a
/// parser made by [`Parser::at`] (on a value met earlier) places its errors in the whole input
/// too.
pub struct Parser<'a> {
    /// jiter, on `data[base..]`. Where the parser is: jiter's position when `own` is false;
    /// `pos` when the parser's own scans moved on since jiter's last call (`sync` restarts
    /// jiter there before the next).
    j: Jiter<'a>,
    /// The whole input.
    data: &'a [u8],
    /// The input as text: all of it, or its valid UTF-8 prefix (see `bad_utf8`).
    text: &'a str,
    /// Where the input stops being UTF-8 (only from [`Parser::from_slice`]). Strings read are
    /// checked by jiter; [`Parser::finish`] reports this for bytes only skipped.
    bad_utf8: Option<usize>,
    /// Offset of `j`'s input in `data`.
    base: usize,
    /// Where the parser is, when `own`.
    pos: usize,
    /// The parser's own scans moved on since jiter's last call.
    own: bool,
    /// Arrays and objects entered and not yet left.
    depth: u8,
    /// The last string with escapes [`Parser::str`] decoded (its buffer kept for the next).
    scratch: String,
}

impl<'a> Parser<'a> {
    /// A parser on `text`.
    pub fn new(text: &'a str) -> Parser<'a> {
        Parser::on(text.as_bytes(), text, None)
    }

    /// A parser on `bytes`. Not UTF-8 is an error (never a panic): in a string read, when it
    /// is read; anywhere else, at the latest when [`Parser::finish`] is called.
    pub fn from_slice(bytes: &'a [u8]) -> Parser<'a> {
        match std::str::from_utf8(bytes) {
            Ok(text) => Parser::on(bytes, text, None),
            Err(e) => {
                let valid = e.valid_up_to();
                let text = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
                Parser::on(bytes, text, Some(valid))
            }
        }
    }

    fn on(data: &'a [u8], text: &'a str, bad_utf8: Option<usize>) -> Parser<'a> {
        Parser {
            j: Jiter::new(data),
            data,
            text,
            bad_utf8,
            base: 0,
            pos: 0,
            own: false,
            depth: 0,
            scratch: String::new(),
        }
    }

    /// Where the parser is in the input.
    #[inline]
    fn position(&self) -> usize {
        if self.own {
            self.pos
        } else {
            self.base + self.j.current_index()
        }
    }

    /// The parser's own scan moved to `pos`.
    #[inline]
    fn advance_to(&mut self, pos: usize) {
        self.pos = pos;
        self.own = true;
    }

    /// Before a call of jiter: jiter restarted where the parser is, if its own scans moved on.
    #[inline]
    fn sync(&mut self) {
        if self.own {
            self.own = false;
            self.base = self.pos;
            self.j = Jiter::new(&self.data[self.pos..]);
        }
    }

    /// A jiter error, placed in the whole input.
    #[cold]
    fn jiter_error(&self, e: JiterError) -> Error {
        jiter_error(self.data, self.base, e)
    }

    /// What the next value is: skips whitespace, consumes nothing.
    #[inline]
    pub fn peek(&mut self) -> Result<Kind, Error> {
        let Some((i, b)) = next_byte(self.data, self.position()) else {
            return Err(self.jiter_peek_error());
        };
        let kind = match b {
            b'{' => Kind::Object,
            b'"' => Kind::String,
            b'[' => Kind::Array,
            b'-' | b'0'..=b'9' => Kind::Number,
            b't' | b'f' => Kind::Bool,
            b'n' => Kind::Null,
            _ => {
                self.advance_to(i);
                return Err(self.syntax("expected value"));
            }
        };
        self.advance_to(i);
        Ok(kind)
    }

    /// jiter's error for a value that does not start where it should (the input's end).
    #[cold]
    fn jiter_peek_error(&mut self) -> Error {
        self.sync();
        match self.j.peek() {
            Err(e) => self.jiter_error(e),
            Ok(_) => self.syntax("expected value"),
        }
    }

    /// jiter's `Peek` of the next value (after [`Parser::peek`]), for its `known_*` calls.
    #[inline]
    fn jiter_peek(&mut self) -> Result<Peek, Error> {
        self.sync();
        self.j.peek().map_err(|e| self.jiter_error(e))
    }

    /// After `peek() == Object`: enters the object and reads its first key (`None`: the
    /// object is empty, and read).
    #[inline]
    pub fn object_first(&mut self) -> Result<Option<&str>, Error> {
        self.enter()?;
        if let Some(key) = self.plain_key(b'{') {
            self.depth += 1;
            return Ok(Some(key));
        }
        if self.plain_end_of(b'{', b'}') {
            return Ok(None);
        }
        self.sync();
        match self.j.known_object() {
            Ok(Some(key)) => {
                self.depth += 1;
                Ok(Some(key))
            }
            Ok(None) => Ok(None),
            Err(e) => Err(jiter_error(self.data, self.base, e)),
        }
    }

    /// After a member's value: the next key, or `None` at the object's `}` (read).
    #[inline]
    pub fn object_next(&mut self) -> Result<Option<&str>, Error> {
        if let Some(key) = self.plain_key(b',') {
            return Ok(Some(key));
        }
        if self.plain_close(b'}') {
            self.depth -= 1;
            return Ok(None);
        }
        self.sync();
        match self.j.next_key() {
            Ok(Some(key)) => Ok(Some(key)),
            Ok(None) => {
                self.depth -= 1;
                Ok(None)
            }
            Err(e) => Err(jiter_error(self.data, self.base, e)),
        }
    }

    /// The common key read without jiter: `opener` (the object's `{`, or the `,` after a
    /// member's value) where the parser is, then a key written plainly (printable ASCII, no
    /// escape) and its `:`; the parser goes on after the `:`. `None` for anything else (an
    /// escape, other bytes, the object's end, any syntax error): jiter reads it from where
    /// the parser was, and reports any error, as before. jiter's own key reading scans each
    /// key with its SIMD string decoder, which costs more than the key for the short keys of
    /// JSON-RPC (BENCHMARKS.md section 9).
    #[inline(always)]
    fn plain_key(&mut self, opener: u8) -> Option<&'a str> {
        let data = self.data;
        let (i, b) = next_byte(data, self.position())?;
        if b != opener {
            return None;
        }
        let (i, b) = next_byte(data, i + 1)?;
        if b != b'"' {
            return None;
        }
        let start = i + 1;
        let end = key_end(data, start);
        if data.get(end) != Some(&b'"') {
            return None;
        }
        let (colon, b) = next_byte(data, end + 1)?;
        if b != b':' {
            return None;
        }
        self.take_plain(start, end, colon + 1)
    }

    /// `close` (an object's `}`, an array's `]`) where the parser is, read; `false` (nothing
    /// read) for anything else.
    #[inline]
    fn plain_close(&mut self, close: u8) -> bool {
        if let Some((i, b)) = next_byte(self.data, self.position())
            && b == close
        {
            self.advance_to(i + 1);
            return true;
        }
        false
    }

    /// An empty object or array, `open` and `close` with whitespace at most between them,
    /// where the parser is, read; `false` (nothing read) for anything else.
    #[inline]
    fn plain_end_of(&mut self, open: u8, close: u8) -> bool {
        let Some((i, b)) = next_byte(self.data, self.position()) else {
            return false;
        };
        if b != open {
            return false;
        }
        if let Some((j, b)) = next_byte(self.data, i + 1)
            && b == close
        {
            self.advance_to(j + 1);
            return true;
        }
        false
    }

    /// After `peek() == Array`: enters the array; whether an element follows (`false`: the
    /// array is empty, and read).
    #[inline]
    pub fn array_first(&mut self) -> Result<bool, Error> {
        self.enter()?;
        let data = self.data;
        if let Some((i, b'[')) = next_byte(data, self.position()) {
            match next_byte(data, i + 1) {
                Some((next, b']')) => {
                    self.advance_to(next + 1);
                    return Ok(false);
                }
                Some((next, _)) => {
                    self.advance_to(next);
                    self.depth += 1;
                    return Ok(true);
                }
                None => {}
            }
        }
        self.sync();
        match self.j.known_array() {
            Ok(Some(_)) => {
                self.depth += 1;
                Ok(true)
            }
            Ok(None) => Ok(false),
            Err(e) => Err(self.jiter_error(e)),
        }
    }

    /// After an element: whether another follows (`false`: the array's `]` is read).
    #[inline]
    pub fn array_next(&mut self) -> Result<bool, Error> {
        let data = self.data;
        match next_byte(data, self.position()) {
            Some((i, b',')) => {
                if let Some((next, b)) = next_byte(data, i + 1)
                    && b != b']'
                {
                    self.advance_to(next);
                    return Ok(true);
                }
            }
            Some((i, b']')) => {
                self.advance_to(i + 1);
                self.depth -= 1;
                return Ok(false);
            }
            _ => {}
        }
        self.sync();
        match self.j.array_step() {
            Ok(Some(_)) => Ok(true),
            Ok(None) => {
                self.depth -= 1;
                Ok(false)
            }
            Err(e) => Err(self.jiter_error(e)),
        }
    }

    /// The recursion limit, checked before entering an array or object.
    #[inline]
    fn enter(&self) -> Result<(), Error> {
        if self.depth >= MAX_DEPTH {
            return Err(self.syntax("recursion limit exceeded"));
        }
        Ok(())
    }

    /// After `peek() == String`: the string (borrowed from the input, or from the parser's
    /// buffer when it has escapes).
    #[inline]
    pub fn str(&mut self) -> Result<&str, Error> {
        match self.scan_str() {
            Scan::Plain(s) => return Ok(s),
            Scan::Escape(start, at) => {
                if self.unescape_to_scratch(start, at) {
                    return Ok(&self.scratch);
                }
            }
            Scan::Other => {}
        }
        self.jiter_str()
    }

    /// [`Parser::str`], owned. A string with escapes longer than the room first reserved for
    /// it (8 KiB) is the buffer it was decoded into, not a copy of it (the next such string
    /// reserves a buffer anew).
    #[inline]
    pub fn string(&mut self) -> Result<String, Error> {
        match self.scan_str() {
            Scan::Plain(s) => return Ok(s.to_owned()),
            Scan::Escape(start, at) => {
                if self.unescape_to_scratch(start, at) {
                    return Ok(if self.scratch.len() > SCRATCH_ROOM {
                        let mut s = std::mem::take(&mut self.scratch);
                        s.shrink_to_fit();
                        s
                    } else {
                        self.scratch.as_str().to_owned()
                    });
                }
            }
            Scan::Other => {}
        }
        self.jiter_str().map(str::to_owned)
    }

    /// The string with escapes whose text starts at `start` (its first `\\` at `at`)
    /// decoded into `scratch`, and the parser moved after it; `false` (nothing moved) when
    /// jiter must read it.
    #[inline]
    fn unescape_to_scratch(&mut self, start: usize, at: usize) -> bool {
        self.scratch.clear();
        // Room for the rest of the input, as jiter reserves it (up to 8 KiB), once a parser:
        // the buffer is kept for the next string.
        self.scratch
            .reserve((self.data.len() - start).min(SCRATCH_ROOM));
        match unescape::<true>(self.text, start, at, &mut self.scratch) {
            Some(next) => {
                self.advance_to(next);
                true
            }
            None => false,
        }
    }

    /// jiter reads the string the parser is on (to report what is wrong with it).
    #[cold]
    fn jiter_str(&mut self) -> Result<&str, Error> {
        self.sync();
        match self.j.known_str() {
            Ok(s) => Ok(s),
            Err(e) => Err(jiter_error(self.data, self.base, e)),
        }
    }

    /// [`Parser::str`] without the string: the same checks and errors, nothing decoded (a
    /// value read only to be checked, or to learn its kind). `Some(len)` for a string without
    /// escapes, its text being the input's `len` bytes after the mark's `"`.
    #[inline]
    pub(crate) fn check_str(&mut self) -> Result<Option<usize>, Error> {
        match self.scan_str() {
            Scan::Plain(s) => return Ok(Some(s.len())),
            Scan::Escape(start, at) => {
                if let Some(next) = unescape::<false>(self.text, start, at, &mut self.scratch) {
                    self.advance_to(next);
                    return Ok(None);
                }
            }
            Scan::Other => {}
        }
        self.sync();
        match self.j.known_str() {
            Ok(_) => Ok(None),
            Err(e) => Err(jiter_error(self.data, self.base, e)),
        }
    }

    /// [`Parser::str`], borrowed from the input when it has no escape (no copy), owned
    /// otherwise: for a string kept while the parser goes on (a message's `method`).
    #[inline]
    pub(crate) fn str_cow(&mut self) -> Result<Cow<'a, str>, Error> {
        match self.plain_str() {
            Some(s) => Ok(Cow::Borrowed(s)),
            None => self.str().map(|s| Cow::Owned(s.to_owned())),
        }
    }

    /// [`Parser::str`] without jiter for a string without escapes (the parser is on its
    /// `"`): the string is a slice of the input, and the parser goes on after it. `None` for
    /// anything else (an escape, a control character, the input's end): jiter reads it, as
    /// before.
    #[inline]
    fn plain_str(&mut self) -> Option<&'a str> {
        match self.scan_str() {
            Scan::Plain(s) => Some(s),
            _ => None,
        }
    }

    /// The string the parser is on, up to its end or its first escape: a plain string is
    /// read as [`Parser::plain_str`] reads it; for one with an escape, where its text starts
    /// and where the first `\\` is (nothing read).
    #[inline]
    fn scan_str(&mut self) -> Scan<'a> {
        let open = self.position();
        if self.data.get(open) != Some(&b'"') {
            return Scan::Other;
        }
        let start = open + 1;
        let end = plain_end::<false>(self.data, start);
        match self.data.get(end) {
            Some(b'"') => match self.take_plain(start, end, end + 1) {
                Some(s) => Scan::Plain(s),
                None => Scan::Other,
            },
            Some(b'\\') => Scan::Escape(start, end),
            _ => Scan::Other,
        }
    }

    /// The text `start..end` of the input, between two `"` (at `start - 1` and `end`), and
    /// the parser moved to `next`; `None` (and nothing moved) when the text is not in `text`:
    /// past the first byte that is not UTF-8 (`from_slice`), which jiter then reads and
    /// reports.
    #[inline]
    fn take_plain(&mut self, start: usize, end: usize, next: usize) -> Option<&'a str> {
        if end >= self.text.len() {
            return None;
        }
        debug_assert!(0 < start && start <= end);
        debug_assert!(self.data[start - 1] == b'"' && self.data[end] == b'"');
        // SAFETY: `text` is valid UTF-8, and `start..end` lies in it (`end < text.len()`)
        // between two ASCII bytes: the `"` at `start - 1` and at `end`, which both callers
        // (`plain_key`, `plain_str`) check before calling. An ASCII byte is a character of
        // its own, so both ends are character boundaries. (`str::get` reads the same two
        // bytes to check it, at about 20 instructions a key or string in a function of its
        // own, and the decode then ran 3 % more instructions: BENCHMARKS.md section 9.)
        let s = unsafe { self.text.get_unchecked(start..end) };
        self.advance_to(next);
        Some(s)
    }

    /// After `peek() == Bool`.
    #[inline]
    pub(crate) fn bool(&mut self) -> Result<bool, Error> {
        let rest = &self.data[self.position()..];
        if rest.starts_with(b"true") {
            self.advance_to(self.position() + 4);
            return Ok(true);
        }
        if rest.starts_with(b"false") {
            self.advance_to(self.position() + 5);
            return Ok(false);
        }
        let peek = self.jiter_peek()?;
        self.j.known_bool(peek).map_err(|e| self.jiter_error(e))
    }

    /// After `peek() == Null`.
    #[inline]
    pub(crate) fn null(&mut self) -> Result<(), Error> {
        if self.data[self.position()..].starts_with(b"null") {
            self.advance_to(self.position() + 4);
            return Ok(());
        }
        self.sync();
        self.j.known_null().map_err(|e| self.jiter_error(e))
    }

    /// After `peek() == Number`: the number, as serde_json makes it (see [`to_number`]).
    #[inline]
    pub(crate) fn number(&mut self) -> Result<Number, Error> {
        if let Some(n) = self.plain_integer() {
            return Ok(n);
        }
        let start = self.mark();
        let peek = self.jiter_peek()?;
        if let Err(e) = self.j.known_number_bytes(peek) {
            return Err(self.jiter_error(e));
        }
        let end = self.mark();
        match to_number(&self.data[start..end]) {
            Some(n) => Ok(n),
            None => Err(Error::at(
                "number out of range".to_owned(),
                self.data,
                start,
                true,
            )),
        }
    }

    /// [`Parser::number`] without jiter for an integer of at most 18 digits (ids, counts,
    /// sizes: every number of the real traffic but a few): its value is read as its digits
    /// are scanned, and the parser goes on after it. `None` for anything else (a fraction, an
    /// exponent, a leading zero, `-0`, which serde_json reads as the float `-0.0`, more
    /// digits, bad syntax): jiter reads it, as before. jiter's number reader and the text's
    /// conversion cost about 290 instructions a number (BENCHMARKS.md section 9).
    #[inline]
    fn plain_integer(&mut self) -> Option<Number> {
        let data = self.data;
        let mut i = self.position();
        let negative = data.get(i) == Some(&b'-');
        if negative {
            i += 1;
        }
        let first = i;
        let mut value: u64 = 0;
        while let Some(&b @ b'0'..=b'9') = data.get(i) {
            // At most 18 digits: below 10^18, so it fits an `i64` with its sign.
            if i - first == 18 {
                return None;
            }
            value = value * 10 + u64::from(b - b'0');
            i += 1;
        }
        let digits = i - first;
        if digits == 0 || (digits > 1 && data[first] == b'0') {
            return None;
        }
        if let Some(b'.' | b'e' | b'E' | b'+' | b'-') = data.get(i) {
            return None;
        }
        let n = if !negative {
            Number::from(value)
        } else if value == 0 {
            return None;
        } else {
            // `value` < 10^18: the negation fits.
            Number::from(-(value as i64))
        };
        self.advance_to(i);
        Some(n)
    }

    /// Skips the next value (checking it is JSON and within the recursion limit; strings
    /// skipped are not checked to be UTF-8, as serde_json does not when it ignores a value).
    pub fn skip(&mut self) -> Result<(), Error> {
        match self.peek()? {
            Kind::Object => {
                self.enter()?;
                if self.plain_key(b'{').is_none() {
                    if self.plain_end_of(b'{', b'}') {
                        return Ok(());
                    }
                    self.sync();
                    match self.j.next_object_bytes() {
                        Ok(Some(_)) => {}
                        Ok(None) => return Ok(()),
                        Err(e) => return Err(self.jiter_error(e)),
                    }
                }
                self.depth += 1;
                loop {
                    self.skip()?;
                    if self.plain_key(b',').is_some() {
                        continue;
                    }
                    if self.plain_close(b'}') {
                        break;
                    }
                    self.sync();
                    match self.j.next_key_bytes() {
                        Ok(Some(_)) => {}
                        Ok(None) => break,
                        Err(e) => return Err(self.jiter_error(e)),
                    }
                }
                self.depth -= 1;
                Ok(())
            }
            Kind::Array => {
                if self.array_first()? {
                    loop {
                        self.skip()?;
                        if !self.array_next()? {
                            break;
                        }
                    }
                }
                Ok(())
            }
            Kind::String => match self.scan_str() {
                Scan::Plain(_) => Ok(()),
                Scan::Escape(start, at) => {
                    match unescape::<false>(self.text, start, at, &mut self.scratch) {
                        Some(next) => {
                            self.advance_to(next);
                            Ok(())
                        }
                        None => self.jiter_skip(),
                    }
                }
                Scan::Other => self.jiter_skip(),
            },
            Kind::Number if self.plain_integer().is_some() => Ok(()),
            _ => self.jiter_skip(),
        }
    }

    /// jiter skips the next value (a scalar).
    fn jiter_skip(&mut self) -> Result<(), Error> {
        let peek = self.jiter_peek()?;
        self.j.known_skip(peek).map_err(|e| self.jiter_error(e))
    }

    /// Skips the next value however deeply nested (without the depth limit, and without
    /// recursion: a stack of the containers open), for a value kept as its text and decoded
    /// later, when the limit applies (a response's `result`). jiter reads all of it.
    pub fn skip_raw(&mut self) -> Result<(), Error> {
        self.sync();
        let err = |p: &Parser<'_>, e| jiter_error(p.data, p.base, e);
        // `true` for an object, `false` for an array.
        let mut open: Vec<bool> = Vec::new();
        loop {
            // One value's start: a scalar is skipped, a container entered.
            let peek = self.j.peek().map_err(|e| err(self, e))?;
            let entered = match peek.into_inner() {
                b'{' => match self.j.next_object_bytes() {
                    Ok(Some(_)) => Some(true),
                    Ok(None) => None,
                    Err(e) => return Err(err(self, e)),
                },
                b'[' => match self.j.known_array() {
                    Ok(Some(_)) => Some(false),
                    Ok(None) => None,
                    Err(e) => return Err(err(self, e)),
                },
                b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n' => {
                    self.j.known_skip(peek).map_err(|e| err(self, e))?;
                    None
                }
                _ => return Err(self.syntax("expected value")),
            };
            if let Some(object) = entered {
                open.push(object);
                continue;
            }
            // A value ended: close the containers that end with it.
            loop {
                let Some(&object) = open.last() else {
                    return Ok(());
                };
                let more = if object {
                    match self.j.next_key_bytes() {
                        Ok(key) => key.is_some(),
                        Err(e) => return Err(err(self, e)),
                    }
                } else {
                    self.j.array_step().map_err(|e| err(self, e))?.is_some()
                };
                if more {
                    break;
                }
                open.pop();
            }
        }
    }

    /// The byte offset (in the whole input) of the next value, after `peek`; to come back to
    /// it with [`Parser::at`], or to take its text with [`Parser::text`].
    #[inline]
    pub fn mark(&self) -> usize {
        self.position()
    }

    /// A parser on the value at `mark` (from [`Parser::mark`]), in the same input, at the
    /// nesting depth of this one (take it where the value's container is being read).
    pub fn at(&self, mark: usize) -> Parser<'a> {
        let mark = mark.min(self.data.len());
        Parser {
            j: Jiter::new(&self.data[mark..]),
            data: self.data,
            text: self.text,
            bad_utf8: self.bad_utf8,
            base: mark,
            pos: mark,
            own: false,
            depth: self.depth,
            scratch: String::new(),
        }
    }

    /// [`Parser::at`] one level deeper: a parser on a member's value (`mark`) read before,
    /// where this one is on the parent of the member's object (`Merged`'s deferred slot),
    /// nested as it is in the object.
    pub(super) fn inside(&self, mark: usize) -> Parser<'a> {
        let mut q = self.at(mark);
        q.depth += 1;
        q
    }

    /// Decodes the next value (after `peek`) with `decode` as a whole input of its own would
    /// be (nesting counted from its start, as when its text is decoded alone), and moves past
    /// it; on an error, this parser is where it was.
    pub(crate) fn detached<T>(
        &mut self,
        decode: impl FnOnce(&mut Parser<'a>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let mut q = self.at(self.mark());
        q.depth = 0;
        let value = decode(&mut q)?;
        q.depth = self.depth;
        *self = q;
        Ok(value)
    }

    /// [`Parser::at`] for the `{` of the object this parser is inside of (its nesting depth
    /// is not counted twice when it is entered again).
    pub(crate) fn reopen(&self, mark: usize) -> Parser<'a> {
        let mut q = self.at(mark);
        q.depth = q.depth.saturating_sub(1);
        q
    }

    /// The input between two marks (a value's text: take `start` after `peek`, `end` after
    /// reading or skipping the value). Empty if the marks are not character boundaries or
    /// the range is not UTF-8 (only from [`Parser::from_slice`], and [`Parser::finish`] then
    /// fails).
    pub fn text(&self, start: usize, end: usize) -> &'a str {
        self.text.get(start..end).unwrap_or_default()
    }

    /// The input's bytes between two marks (`end` at most the input's end; empty if `start`
    /// is after it).
    #[inline]
    pub(crate) fn bytes(&self, start: usize, end: usize) -> &'a [u8] {
        self.data
            .get(start..end.min(self.data.len()))
            .unwrap_or_default()
    }

    /// Checks that only whitespace follows (and, from [`Parser::from_slice`], that the whole
    /// input is UTF-8).
    pub fn finish(&mut self) -> Result<(), Error> {
        self.sync();
        if let Err(e) = self.j.finish() {
            return Err(jiter_error(self.data, self.base, e));
        }
        match self.bad_utf8 {
            Some(at) => Err(Error::at(
                "invalid unicode code point".to_owned(),
                self.data,
                at,
                true,
            )),
            None => Ok(()),
        }
    }

    /// The key read from `mark`: an object's `{` (its first key), or the end of a member's
    /// value (the next key). For an error's pointer, when the key was moved on.
    #[cold]
    pub(crate) fn key_at(&self, mark: usize) -> String {
        let rest = self.data.get(mark..).unwrap_or_default();
        let mut j = Jiter::new(rest);
        let key = match rest.first() {
            Some(b'{') => j.next_object(),
            _ => j.next_key(),
        };
        key.ok().flatten().unwrap_or_default().to_owned()
    }

    /// An error (of shape, not syntax) at the current offset.
    #[cold]
    pub fn error(&self, message: impl Into<String>) -> Error {
        Error::at(message.into(), self.data, self.mark(), false)
    }

    /// "duplicate member `key`" at the current offset ([`Error::is_repeated`]).
    #[cold]
    pub fn repeated(&self, key: &str) -> Error {
        self.error(format!("duplicate member `{key}`"))
            .into_repeated()
    }

    /// A syntax error at the current offset.
    #[cold]
    fn syntax(&self, message: &str) -> Error {
        Error::at(message.to_owned(), self.data, self.mark(), true)
    }

    /// "invalid type: X, expected Y" at the next value (after `peek() == found`), X in
    /// serde_json's words (`string "x"`, `integer `1``, `map`…). The value is read again (a
    /// copy of the parser) to name it; if it is not valid JSON, that syntax error is returned
    /// instead, as serde_json does.
    #[cold]
    pub fn wrong(&self, expected: &str, found: Kind) -> Error {
        let mut q = self.at(self.mark());
        let kind = match q.peek() {
            Ok(kind) => kind,
            Err(e) => return e,
        };
        debug_assert_eq!(kind, found);
        let unexpected = match kind {
            Kind::Null => q.null().map(|()| "null".to_owned()),
            Kind::Bool => q.bool().map(|b| format!("boolean `{b}`")),
            Kind::Number => q.number().map(|n| unexpected_number(&n)),
            Kind::String => q.str().map(|s| format!("string {s:?}")),
            Kind::Array => Ok("sequence".to_owned()),
            Kind::Object => Ok("map".to_owned()),
        };
        match unexpected {
            Ok(unexpected) => {
                self.error(format!("invalid type: {unexpected}, expected {expected}"))
            }
            Err(e) => e,
        }
    }

    /// "invalid value: X, expected Y" at the next value (read already: placed at `mark`).
    #[cold]
    pub(crate) fn invalid_value(&self, mark: usize, unexpected: &str, expected: &str) -> Error {
        Error::at(
            format!("invalid value: {unexpected}, expected {expected}"),
            self.data,
            mark,
            false,
        )
    }

    /// "invalid type: X, expected Y" for a value read already (placed at `mark`).
    #[cold]
    pub(crate) fn invalid_type(&self, mark: usize, unexpected: &str, expected: &str) -> Error {
        Error::at(
            format!("invalid type: {unexpected}, expected {expected}"),
            self.data,
            mark,
            false,
        )
    }
}

/// The offset of the first byte at or after `i` that a string without escapes does not hold:
/// a `"`, a `\\`, a control character, or (when `ASCII`) a byte of a non-ASCII character.
/// Sixteen bytes at a time with SSE2 (every x86-64 has it), eight elsewhere, then byte by
/// byte near the input's end.
#[inline]
pub(crate) fn plain_end<const ASCII: bool>(data: &[u8], mut i: usize) -> usize {
    // Up to the last whole block, `last`: `i <= last` shows the block's end does not
    // overflow (which `i + 16 <= len` does not), so the block is read without its bounds
    // checked again (two instructions of the fifteen a block takes).
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if let Some(last) = data.len().checked_sub(16) {
        while i <= last {
            let stop = sse2::stops::<ASCII>(data, i);
            if stop != 0 {
                return i + stop.trailing_zeros() as usize;
            }
            i += 16;
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    while let Some(word) = data.get(i..i + 8) {
        let Ok(word) = <[u8; 8]>::try_from(word) else {
            break;
        };
        let stop = swar_stops::<ASCII>(u64::from_le_bytes(word));
        if stop != 0 {
            return i + (stop.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&b) = data.get(i) {
        if b < b' ' || (ASCII && b >= 0x80) || b == b'"' || b == b'\\' {
            break;
        }
        i += 1;
    }
    i
}

/// [`plain_end`] for a key: its first block looked at in place (a key fits in it, but for a
/// few), and the loop called only for the rest, so that the key reader has no call to make
/// for a short key (a call made it save and restore six registers: 15 instructions a key).
#[inline(always)]
fn key_end(data: &[u8], start: usize) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if start + 16 <= data.len() {
        let stop = sse2::stops::<true>(data, start);
        if stop != 0 {
            return start + stop.trailing_zeros() as usize;
        }
    }
    plain_end::<true>(data, start)
}

/// The bytes of a word (little-endian) [`plain_end`] stops at, flagged by their high bit (the
/// lowest byte flagged is exact; flags above it may not be).
#[cfg(any(not(all(target_arch = "x86_64", target_feature = "sse2")), test))]
#[inline]
pub(super) fn swar_stops<const ASCII: bool>(x: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    zero(x ^ (ONES * u64::from(b'"')))
        | zero(x ^ (ONES * u64::from(b'\\')))
        | (x.wrapping_sub(ONES * 0x20) & !x & HIGH)
        | if ASCII { x & HIGH } else { 0 }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };

    /// The bytes `data[i..i + 16]` (in bounds: the caller checks) that
    /// [`plain_end`](super::plain_end) stops at, as the bits of a mask (bit `k`: byte `i + k`).
    ///
    /// Always inlined (no `#[target_feature]`, which forbids it: the module is built only
    /// where the whole build has SSE2): a call of its own cost a key or string about 15
    /// instructions.
    #[inline(always)]
    pub(super) fn stops<const ASCII: bool>(data: &[u8], i: usize) -> u32 {
        let chunk = &data[i..i + 16];
        // SAFETY: the module is built only where the build enables SSE2 (its `cfg`), all these
        // intrinsics require; `chunk` is 16 readable bytes, and `_mm_loadu_si128` reads 16
        // bytes with no alignment required.
        unsafe {
            let x: __m128i = _mm_loadu_si128(chunk.as_ptr().cast());
            let quote = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'"' as i8));
            let backslash = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'\\' as i8));
            // `max(x, 0x1f) == 0x1f` (unsigned): `x` is a control character.
            let low = _mm_set1_epi8(0x1f);
            let control = _mm_cmpeq_epi8(_mm_max_epu8(x, low), low);
            let stops = _mm_or_si128(_mm_or_si128(quote, backslash), control);
            // The high bits of `x` itself: its bytes of non-ASCII characters.
            let high = if ASCII { _mm_movemask_epi8(x) } else { 0 };
            (_mm_movemask_epi8(stops) | high) as u32
        }
    }
}

/// The room [`Parser::str`] reserves for a string with escapes, as jiter reserves it.
const SCRATCH_ROOM: usize = 8192;

/// A string, as [`Parser::scan_str`] finds it.
enum Scan<'a> {
    /// Without escapes (read).
    Plain(&'a str),
    /// With an escape: where its text starts, and where its first `\\` is.
    Escape(usize, usize),
    /// Anything else (a control character, the input's end, not UTF-8): jiter's to read.
    Other,
}

/// A string with escapes, its text starting at `start` and its first `\\` at `at` (all
/// before is plain), decoded into `out` (when `OUT`) as jiter decodes it; the offset after
/// its closing `"`. `None` for anything jiter must read to report (a bad escape, a lone
/// surrogate, a control character, the input's end, text that is not UTF-8). jiter decodes
/// such a string into a buffer of its own, reserved anew (up to 8 KiB) each time the parser
/// restarts it, and checks the result to be UTF-8 again (BENCHMARKS.md section 9).
///
/// One copy decodes (`OUT`), one only checks (`Parser::check_str`, `Parser::skip`: `out` is
/// not touched), so neither tests which it is at every escape.
#[inline]
fn unescape<const OUT: bool>(
    text: &str,
    start: usize,
    mut at: usize,
    out: &mut String,
) -> Option<usize> {
    // Only the UTF-8 text is read: a string that runs past it (`from_slice` on input that is
    // not UTF-8) stops at its end, and jiter reports it.
    let data = text.as_bytes();
    if at >= data.len() {
        return None;
    }
    let mut plain = start;
    loop {
        if OUT {
            debug_assert!(plain <= at && at <= data.len());
            // SAFETY: `plain..at` lies in `text` (`at` is at most its length: checked above,
            // then `plain_end`'s result on `data`), and both ends are character boundaries:
            // `plain` is just after the string's opening `"` or after an escape, and `at`
            // is at a `"`, `\\` or control character (where `plain_end` stops) or the
            // text's end; each of these is an ASCII byte, a character of its own. (`str::get`
            // checks both ends at every escape: 16 of its about 95 instructions.)
            out.push_str(unsafe { text.get_unchecked(plain..at) });
        }
        let (c, next) = match data.get(at..)? {
            [b'"', ..] => return Some(at + 1),
            [b'\\', b'"', ..] => ('"', at + 2),
            [b'\\', b'\\', ..] => ('\\', at + 2),
            [b'\\', b'/', ..] => ('/', at + 2),
            [b'\\', b'b', ..] => ('\x08', at + 2),
            [b'\\', b'f', ..] => ('\x0c', at + 2),
            [b'\\', b'n', ..] => ('\n', at + 2),
            [b'\\', b'r', ..] => ('\r', at + 2),
            [b'\\', b't', ..] => ('\t', at + 2),
            [b'\\', b'u', ..] => unicode_escape(data, at + 2)?,
            _ => return None,
        };
        if OUT {
            out.push(c);
        }
        plain = next;
        at = plain_end::<false>(data, plain);
    }
}

/// The character of a `\\u` escape whose four hex digits start at `i`, with its low
/// surrogate's escape after it when it is a high surrogate (as jiter reads them); the offset
/// after it. `None` for a lone surrogate or a bad digit.
fn unicode_escape(data: &[u8], i: usize) -> Option<(char, usize)> {
    let hex4 = |i: usize| -> Option<u32> {
        let digits = data.get(i..i + 4)?;
        digits
            .iter()
            .try_fold(0, |n, &d| Some(n << 4 | (d as char).to_digit(16)?))
    };
    let n = hex4(i)?;
    match n {
        0xDC00..=0xDFFF => None,
        0xD800..=0xDBFF => {
            if data.get(i + 4..i + 6)? != b"\\u" {
                return None;
            }
            let low = hex4(i + 6)?;
            if !(0xDC00..=0xDFFF).contains(&low) {
                return None;
            }
            let c = char::from_u32((((n - 0xD800) << 10) | (low - 0xDC00)) + 0x1_0000)?;
            Some((c, i + 10))
        }
        _ => Some((char::from_u32(n)?, i + 4)),
    }
}

/// The first byte at or after `i` that is not JSON whitespace, and where it is; `None` at the
/// input's end. The byte at `i` is read and compared once when it is not whitespace, as
/// everywhere in compact JSON; the scan over whitespace is out of line. (Skipping whitespace
/// and then looking at the byte the skip stopped at read and compared it twice, four to five
/// times a member: 2.8 % of the real decode's instructions, BENCHMARKS.md section 9.)
#[inline(always)]
fn next_byte(data: &[u8], i: usize) -> Option<(usize, u8)> {
    match data.get(i) {
        Some(&b) if b > b' ' => Some((i, b)),
        Some(_) => after_whitespace(data, i),
        None => None,
    }
}

/// [`next_byte`] when the byte at `i` may be whitespace: past it.
#[inline(never)]
fn after_whitespace(data: &[u8], mut i: usize) -> Option<(usize, u8)> {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = data.get(i) {
        i += 1;
    }
    data.get(i).map(|&b| (i, b))
}

/// A number named as serde_json names it in type errors.
pub(crate) fn unexpected_number(n: &Number) -> String {
    if n.is_f64() {
        format!("floating point `{n}`")
    } else {
        format!("integer `{n}`")
    }
}

/// serde_json's conversion (with `float_roundtrip`, without `arbitrary_precision`) of a
/// number's JSON text: an integer to `u64` when non-negative and it fits, to `i64` when
/// negative and it fits (`-0` is the float `-0.0`), anything else to the correctly rounded
/// `f64`; `None` when that is not finite (serde_json: "number out of range").
pub(crate) fn to_number(text: &[u8]) -> Option<Number> {
    // jiter has checked the grammar: ASCII.
    let s = std::str::from_utf8(text).ok()?;
    if !s.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
        if s.starts_with('-') {
            if let Ok(i) = s.parse::<i64>() {
                return if i == 0 {
                    Number::from_f64(-0.0)
                } else {
                    Some(i.into())
                };
            }
        } else if let Ok(u) = s.parse::<u64>() {
            return Some(u.into());
        }
    }
    let f = s.parse::<f64>().ok()?;
    Number::from_f64(f)
}

/// A jiter error placed in the whole input: all of them are about the text (syntax).
#[cold]
fn jiter_error(data: &[u8], base: usize, e: JiterError) -> Error {
    let message = match e.error_type {
        JiterErrorType::JsonError(t) => t.to_string(),
        other => other.to_string(),
    };
    Error::at(message, data, base + e.index, true)
}
