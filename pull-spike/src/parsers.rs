//! [`Pull`] on the two parsers compared: jiter (a pull parser over the text) and simd-json
//! (a tape built by a SIMD pass over a mutable copy of the text, then walked).

use jiter::{Jiter, JiterError, Peek};
use simd_json::StaticNode;
use simd_json::tape::Node;

use crate::pull::{Error, Kind, Num, Pull};

// ---- jiter ----------------------------------------------------------------------------------

/// jiter over the message text. Marks are byte offsets in the whole text; a parser made by
/// [`Pull::at`] runs on the text from that offset (`base`).
pub struct JiterPull<'a> {
    j: Jiter<'a>,
    text: &'a str,
    data: &'a [u8],
    base: usize,
    peeked: Peek,
    open_text: bool,
}

impl<'a> JiterPull<'a> {
    /// A parser on `text`.
    pub fn new(text: &'a str) -> JiterPull<'a> {
        JiterPull {
            j: Jiter::new(text.as_bytes()),
            text,
            data: text.as_bytes(),
            base: 0,
            peeked: Peek::Null,
            open_text: false,
        }
    }

    /// Open objects kept as their text (a measurement switch: see [`Pull::open_as_text`]).
    pub fn with_open_as_text(mut self) -> Self {
        self.open_text = true;
        self
    }

    /// Checks that only whitespace follows the value.
    pub fn finish(&mut self) -> Result<(), Error> {
        self.j.finish().map_err(|e| self.err(e))
    }

    #[cold]
    fn err(&self, e: JiterError) -> Error {
        Error::new(e.error_type.to_string(), Some(self.base + e.index))
    }
}

impl<'a> Pull<'a> for JiterPull<'a> {
    #[inline]
    fn peek(&mut self) -> Result<Kind, Error> {
        let peek = self.j.peek().map_err(|e| self.err(e))?;
        self.peeked = peek;
        Ok(match peek {
            Peek::Object => Kind::Obj,
            Peek::String => Kind::Str,
            Peek::Array => Kind::Arr,
            Peek::True | Peek::False => Kind::Bool,
            Peek::Null => Kind::Null,
            p if p.is_num() => Kind::Num,
            _ => return Err(Error::new("expected a value", self.offset())),
        })
    }
    #[inline]
    fn obj_first(&mut self) -> Result<Option<&str>, Error> {
        match self.j.known_object() {
            Ok(k) => Ok(k),
            Err(e) => Err(Error::new(
                e.error_type.to_string(),
                Some(self.base + e.index),
            )),
        }
    }
    #[inline]
    fn obj_next(&mut self) -> Result<Option<&str>, Error> {
        match self.j.next_key() {
            Ok(k) => Ok(k),
            Err(e) => Err(Error::new(
                e.error_type.to_string(),
                Some(self.base + e.index),
            )),
        }
    }
    #[inline]
    fn arr_first(&mut self) -> Result<bool, Error> {
        self.j
            .known_array()
            .map(|p| p.is_some())
            .map_err(|e| self.err(e))
    }
    #[inline]
    fn arr_next(&mut self) -> Result<bool, Error> {
        self.j
            .array_step()
            .map(|p| p.is_some())
            .map_err(|e| self.err(e))
    }
    #[inline]
    fn str(&mut self) -> Result<&str, Error> {
        match self.j.known_str() {
            Ok(s) => Ok(s),
            Err(e) => Err(Error::new(
                e.error_type.to_string(),
                Some(self.base + e.index),
            )),
        }
    }
    #[inline]
    fn num(&mut self) -> Result<Num<'_>, Error> {
        match self.j.known_number_bytes(self.peeked) {
            Ok(t) => Ok(Num::Text(t)),
            Err(e) => Err(Error::new(
                e.error_type.to_string(),
                Some(self.base + e.index),
            )),
        }
    }
    fn bool(&mut self) -> Result<bool, Error> {
        self.j.known_bool(self.peeked).map_err(|e| self.err(e))
    }
    fn null(&mut self) -> Result<(), Error> {
        self.j.known_null().map_err(|e| self.err(e))
    }
    fn skip(&mut self) -> Result<(), Error> {
        self.j.next_skip().map_err(|e| self.err(e))
    }
    #[inline]
    fn mark(&self) -> usize {
        self.base + self.j.current_index()
    }
    fn at(&self, mark: usize) -> Self {
        JiterPull {
            j: Jiter::new(&self.data[mark..]),
            text: self.text,
            data: self.data,
            base: mark,
            peeked: Peek::Null,
            open_text: self.open_text,
        }
    }
    fn raw(&self, start: usize, end: usize) -> String {
        // The input is a `&str` and a value starts and ends on a character boundary: a copy,
        // no validation.
        self.text.get(start..end).unwrap_or_default().to_owned()
    }
    #[inline]
    fn offset(&self) -> Option<usize> {
        Some(self.base + self.j.current_index())
    }
    fn open_as_text(&self) -> bool {
        self.open_text
    }
}

// ---- simd-json tape -------------------------------------------------------------------------

/// A walk over simd-json's tape. Marks are node indices. The tape keeps no byte offsets:
/// errors after parsing (wrong type, missing member) have no position.
pub struct SimdPull<'t, 'i> {
    nodes: &'t [Node<'i>],
    pos: usize,
    /// End node index of each open object or array.
    ends: Vec<usize>,
}

impl<'t, 'i> SimdPull<'t, 'i> {
    /// A walk over `nodes` (a whole tape).
    pub fn new(nodes: &'t [Node<'i>]) -> SimdPull<'t, 'i> {
        SimdPull {
            nodes,
            pos: 0,
            ends: Vec::new(),
        }
    }

    #[inline]
    fn node(&self) -> Result<Node<'i>, Error> {
        self.nodes
            .get(self.pos)
            .copied()
            .ok_or_else(|| Error::new("unexpected end of the tape", None))
    }

    /// Enters the object or array at `pos`.
    #[inline]
    fn enter(&mut self) -> Result<(), Error> {
        match self.node()? {
            Node::Object { count, .. } | Node::Array { count, .. } => {
                self.ends.push(self.pos + count + 1);
                self.pos += 1;
                Ok(())
            }
            _ => Err(Error::new("not a container", None)),
        }
    }

    /// Whether the innermost container ends here (and leaves it if so).
    #[inline]
    fn at_end(&mut self) -> bool {
        if self.ends.last() == Some(&self.pos) {
            self.ends.pop();
            true
        } else {
            false
        }
    }
}

impl<'a, 't, 'i> Pull<'a> for SimdPull<'t, 'i> {
    #[inline]
    fn peek(&mut self) -> Result<Kind, Error> {
        Ok(match self.node()? {
            Node::Object { .. } => Kind::Obj,
            Node::Array { .. } => Kind::Arr,
            Node::String(_) => Kind::Str,
            Node::Static(StaticNode::Null) => Kind::Null,
            Node::Static(StaticNode::Bool(_)) => Kind::Bool,
            Node::Static(_) => Kind::Num,
        })
    }
    #[inline]
    fn obj_first(&mut self) -> Result<Option<&str>, Error> {
        self.enter()?;
        self.obj_next()
    }
    #[inline]
    fn obj_next(&mut self) -> Result<Option<&str>, Error> {
        if self.at_end() {
            return Ok(None);
        }
        match self.node()? {
            Node::String(k) => {
                self.pos += 1;
                Ok(Some(k))
            }
            _ => Err(Error::new("expected a key", None)),
        }
    }
    #[inline]
    fn arr_first(&mut self) -> Result<bool, Error> {
        self.enter()?;
        self.arr_next()
    }
    #[inline]
    fn arr_next(&mut self) -> Result<bool, Error> {
        Ok(!self.at_end())
    }
    #[inline]
    fn str(&mut self) -> Result<&str, Error> {
        match self.node()? {
            Node::String(s) => {
                self.pos += 1;
                Ok(s)
            }
            _ => Err(Error::new("expected a string", None)),
        }
    }
    #[inline]
    fn num(&mut self) -> Result<Num<'_>, Error> {
        let n = match self.node()? {
            Node::Static(StaticNode::I64(i)) => Num::I64(i),
            Node::Static(StaticNode::U64(u)) => Num::U64(u),
            Node::Static(StaticNode::F64(f)) => Num::F64(f),
            _ => return Err(Error::new("expected a number", None)),
        };
        self.pos += 1;
        Ok(n)
    }
    fn bool(&mut self) -> Result<bool, Error> {
        match self.node()? {
            Node::Static(StaticNode::Bool(b)) => {
                self.pos += 1;
                Ok(b)
            }
            _ => Err(Error::new("expected a boolean", None)),
        }
    }
    fn null(&mut self) -> Result<(), Error> {
        self.pos += 1;
        Ok(())
    }
    #[inline]
    fn skip(&mut self) -> Result<(), Error> {
        self.pos += match self.node()? {
            Node::Object { count, .. } | Node::Array { count, .. } => count + 1,
            _ => 1,
        };
        Ok(())
    }
    fn mark(&self) -> usize {
        self.pos
    }
    fn at(&self, mark: usize) -> Self {
        SimdPull {
            nodes: self.nodes,
            pos: mark,
            ends: Vec::new(),
        }
    }
    fn raw(&self, mark: usize, _end: usize) -> String {
        // The tape has no text: the value is written out again (not byte for byte: escapes
        // and number spellings may differ from the input).
        let mut p = self.at(mark);
        crate::pull::value(&mut p)
            .map(|v| v.to_string())
            .unwrap_or_default()
    }
    fn offset(&self) -> Option<usize> {
        None
    }
}
