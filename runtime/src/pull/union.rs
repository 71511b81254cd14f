//! Unions: tagged by a member ([`tagged`]) or told apart by the members present ([`shape`]).

use super::{Error, Kind, Parser, Start};

/// What a tagged union's tag said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    /// The tag's value is `tags[index]`.
    Known(usize),
    /// The tag's value is a string not in `tags` (the catch-all decodes the whole object).
    Unknown,
    /// The object has no tag member (the generated code decides whether that is an error).
    Absent,
}

/// A union tagged by member `tag` (its values `tags`); `variant(p, tag, start)` decodes the
/// variant. The variant continues after the tag ([`Start::AfterTag`]): in one pass when the
/// tag is the object's first member (as every encoder writes it); after other members, those
/// are skipped to find the tag and read again from the object's start. An unknown tag value
/// ([`Tag::Unknown`]) or no tag at all ([`Tag::Absent`]): the variant decodes the whole object
/// ([`Start::Value`], on a parser at the object's mark). The tag's value must be a string; a
/// second tag member is a member like any other (the first decides).
pub fn tagged<T>(
    p: &mut Parser<'_>,
    tag: &'static str,
    tags: &[&str],
    expecting: &str,
    variant: &mut dyn FnMut(&mut Parser<'_>, Tag, Start) -> Result<T, Error>,
) -> Result<T, Error> {
    let kind = p.peek()?;
    if kind != Kind::Object {
        return Err(p.wrong(expecting, kind));
    }
    let mark = p.mark();
    let mut is_tag = p.object_first()?.map(|k| k == tag);
    if is_tag == Some(true) {
        p.peek()?;
        let value = p.mark();
        match tag_value(p, tag, tags)? {
            Tag::Known(i) => {
                return variant(p, Tag::Known(i), Start::AfterTag { tag, mark, value });
            }
            _ => {
                skip_rest(p)?;
                return variant(&mut p.at(mark), Tag::Unknown, Start::Value);
            }
        }
    }
    let mut found = Tag::Absent;
    while let Some(t) = is_tag {
        if t && found == Tag::Absent {
            p.peek()?;
            let value = p.mark();
            found = tag_value(p, tag, tags)?;
            // A known tag after other members: the variant goes on from here (it reads the
            // members before the tag again from the object's start).
            if let Tag::Known(i) = found {
                return variant(p, Tag::Known(i), Start::AfterTag { tag, mark, value });
            }
        } else {
            p.skip()?;
        }
        is_tag = p.object_next()?.map(|k| k == tag);
    }
    variant(&mut p.at(mark), found, Start::Value)
}

/// Reads a tag's value (a string) and finds it in `tags`, without copying it.
fn tag_value(p: &mut Parser<'_>, tag: &'static str, tags: &[&str]) -> Result<Tag, Error> {
    match p.peek()? {
        Kind::String => {
            let s = p.str()?;
            Ok(match tags.iter().position(|t| *t == s) {
                Some(i) => Tag::Known(i),
                None => Tag::Unknown,
            })
        }
        k => Err(p.wrong("a string", k).in_key(tag)),
    }
}

/// Skips the rest of the current object, after a member's value (the parser ends after the
/// object's `}`).
pub fn skip_rest(p: &mut Parser<'_>) -> Result<(), Error> {
    while p.object_next()?.is_some() {
        p.skip()?;
    }
    Ok(())
}

/// String values longer than this are not kept by [`shape`] (they are not constants to
/// compare with: a text or a blob).
const SHAPE_STR_MAX: usize = 256;

/// What [`shape`] saw of an object: per slot (an index in its `slots`), whether the member is
/// present, the kind of its value, and its value when a short string or an `i64` integer
/// (to compare with constants).
#[derive(Debug, Clone)]
pub struct Shape {
    /// The object's `{` (decode it with a parser at this mark).
    pub mark: usize,
    present: u64,
    kinds: [Kind; 64],
    strings: Vec<(usize, String)>,
    ints: Vec<(usize, i64)>,
}

impl Shape {
    /// Whether member `slots[slot]` is present.
    pub fn has(&self, slot: usize) -> bool {
        slot < 64 && self.present & (1 << slot) != 0
    }

    /// The kind of member `slots[slot]`'s value, if present.
    pub fn kind(&self, slot: usize) -> Option<Kind> {
        self.has(slot).then(|| self.kinds[slot])
    }

    /// Member `slots[slot]`'s value, if a string of at most 256 bytes.
    pub fn str(&self, slot: usize) -> Option<&str> {
        self.strings
            .iter()
            .find(|(s, _)| *s == slot)
            .map(|(_, v)| v.as_str())
    }

    /// Member `slots[slot]`'s value, if an integer that fits `i64`.
    pub fn int(&self, slot: usize) -> Option<i64> {
        self.ints.iter().find(|(s, _)| *s == slot).map(|(_, v)| *v)
    }

    /// How many of the slots are present.
    pub fn count(&self) -> u32 {
        self.present.count_ones()
    }

    /// Records the value of `slot` (after `peek`), reading it.
    fn record(&mut self, p: &mut Parser<'_>, slot: usize) -> Result<(), Error> {
        let kind = p.peek()?;
        self.present |= 1 << slot;
        self.kinds[slot] = kind;
        match kind {
            Kind::String => {
                let s = p.str()?;
                if s.len() <= SHAPE_STR_MAX {
                    self.strings.push((slot, s.to_owned()));
                }
            }
            Kind::Number => {
                if let Some(i) = p.number()?.as_i64() {
                    self.ints.push((slot, i));
                }
            }
            _ => p.skip()?,
        }
        Ok(())
    }
}

/// One pass over an object (a union told apart by its members), recording per slot in
/// `slots` (at most 64) what [`Shape`] says; other members are skipped, and a member
/// repeated is recorded once (decoding the variant will refuse it). The parser ends after
/// the object. With [`Start::AfterTag`], the tag (if a slot) is read again from the mark.
pub fn shape(
    p: &mut Parser<'_>,
    start: Start,
    slots: &[&str],
    expecting: &str,
) -> Result<Shape, Error> {
    assert!(slots.len() <= 64, "shape: at most 64 slots");
    let mark = match start {
        Start::Value | Start::Message => {
            let kind = p.peek()?;
            if kind != Kind::Object {
                return Err(p.wrong(expecting, kind));
            }
            p.mark()
        }
        Start::AfterTag { mark, .. } => mark,
    };
    let mut shape = Shape {
        mark,
        present: 0,
        kinds: [Kind::Null; 64],
        strings: Vec::new(),
        ints: Vec::new(),
    };
    let mut next = match start {
        Start::Value | Start::Message => slot_of(slots, p.object_first()?),
        Start::AfterTag { tag, mark, .. } => {
            if let Some(i) = slots.iter().position(|s| *s == tag) {
                // The union read the tag: read it again (the object's first member).
                let mut q = p.at(mark);
                q.peek()?;
                if q.object_first()?.is_some() {
                    shape.record(&mut q, i)?;
                }
            }
            slot_of(slots, p.object_next()?)
        }
    };
    while let Some(slot) = next {
        match slot {
            Some(i) if !shape.has(i) => shape.record(p, i).map_err(|e| e.in_member(slots[i]))?,
            _ => p.skip()?,
        }
        next = slot_of(slots, p.object_next()?);
    }
    Ok(shape)
}

/// `None` at the object's end; `Some(None)` for a key not in `slots`.
#[inline]
fn slot_of(slots: &[&str], key: Option<&str>) -> Option<Option<usize>> {
    key.map(|k| slots.iter().position(|s| *s == k))
}

/// How a member of a union told apart by members scored against an object (generated code
/// computes it): `None` when the object cannot be that member (a constant differs, or a
/// member it refuses is present); else whether every required member is there with a JSON
/// kind the member takes, how many constants matched, how many required members are there,
/// how many members of the object it declares.
pub type Score = Option<(bool, u32, u32, u32)>;

/// Decodes an object as the union member that fits it best (`member(k)` decodes it as member
/// `k`; `scores[k]` is how `k` scored), highest score first, equal scores in schema order.
/// A member that fits completely but fails to decode (a value deeper down it does not take)
/// gives way to the next one that fits completely, as a typed decoder tries; if none decodes,
/// the first one's error. Not when it failed on a member named twice: that is a fault of the
/// text, not of its shape, and a member keeping that part as open JSON (where serde_json's
/// rule takes the last value) would hide it (a request whose `_meta` repeats a key became a
/// notification holding its `id`). When none fits completely, the closest one's error (its decoder
/// names every missing member, or the value of the wrong kind). `None` when no member can
/// be the object.
pub fn best_member<T>(
    scores: &[Score],
    member: &dyn Fn(usize) -> Result<T, Error>,
) -> Option<Result<T, Error>> {
    let mut ranked: Vec<(usize, (bool, u32, u32, u32))> = scores
        .iter()
        .enumerate()
        .filter_map(|(k, s)| s.map(|s| (k, s)))
        .collect();
    // Stable: equal scores keep schema order.
    ranked.sort_by_key(|r| std::cmp::Reverse(r.1));
    let (first, (complete, ..)) = *ranked.first()?;
    let result = member(first);
    match &result {
        Err(e) if complete && !e.is_repeated() => {}
        _ => return Some(result),
    }
    for &(k, _) in ranked[1..].iter().take_while(|(_, s)| s.0) {
        if let Ok(v) = member(k) {
            return Some(Ok(v));
        }
    }
    Some(result)
}
