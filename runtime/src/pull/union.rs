//! Unions: tagged by a member ([`tagged`]), or told apart by the members present
//! ([`Merged`](super::Merged) scores the variants, [`best_member`] decodes the best one).

use super::object::{position, same_str};
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
    tagged_with(p, tag, tags, expecting, false, variant)
}

/// [`tagged`] for a union with a variant for objects without the tag (an optional `mode`):
/// when the tag is not the first member, the object is first decoded as that variant in one
/// pass ([`Start::NoTag`]), on the guess that it has no tag (as senders of revisions before
/// the tag write it); when the guess fails (the tag is met, or any error), it is decoded as
/// [`tagged`] does, so the value or error is the same. Saves skipping the whole object to
/// learn that it has no tag.
pub fn tagged_or_absent<T>(
    p: &mut Parser<'_>,
    tag: &'static str,
    tags: &[&str],
    expecting: &str,
    variant: &mut dyn FnMut(&mut Parser<'_>, Tag, Start) -> Result<T, Error>,
) -> Result<T, Error> {
    tagged_with(p, tag, tags, expecting, true, variant)
}

fn tagged_with<T>(
    p: &mut Parser<'_>,
    tag: &'static str,
    tags: &[&str],
    expecting: &str,
    guess_absent: bool,
    variant: &mut dyn FnMut(&mut Parser<'_>, Tag, Start) -> Result<T, Error>,
) -> Result<T, Error> {
    let (mark, is_tag) = open(p, tag, expecting)?;
    if guess_absent && is_tag == Some(false) {
        // The parser has entered the object: decode it again from its `{`.
        let mut q = p.reopen(mark);
        if let Ok(v) = variant(&mut q, Tag::Absent, Start::NoTag { tag }) {
            *p = q;
            return Ok(v);
        }
    }
    match find_tag(p, tag, tags, mark, is_tag)? {
        (found @ Tag::Known(_), start) => variant(p, found, start),
        (found, _) => variant(&mut p.at(mark), found, Start::Value),
    }
}

/// Enters a tagged union's object: its mark, and whether its first key is the tag (`None`:
/// the object is empty). The parsing of [`tagged_with`] is in this function and
/// [`find_tag`], out of the generic function, so that each union's copy is only its calls of
/// `variant`.
fn open(p: &mut Parser<'_>, tag: &str, expecting: &str) -> Result<(usize, Option<bool>), Error> {
    let kind = p.peek()?;
    if kind != Kind::Object {
        return Err(p.wrong(expecting, kind));
    }
    let mark = p.mark();
    let is_tag = p.object_first()?.map(|k| same_str(k, tag));
    Ok((mark, is_tag))
}

/// Finds the tag of the object [`open`] entered, from the key it read (`is_tag`): a known
/// tag with the [`Start::AfterTag`] to decode the variant from (the parser after the tag's
/// value); else what was found ([`Tag::Unknown`] or [`Tag::Absent`]) with the object skipped
/// to its end (the variant then decodes the whole object from `mark`).
fn find_tag(
    p: &mut Parser<'_>,
    tag: &'static str,
    tags: &[&str],
    mark: usize,
    mut is_tag: Option<bool>,
) -> Result<(Tag, Start), Error> {
    let mut found = Tag::Absent;
    while let Some(t) = is_tag {
        if t && found == Tag::Absent {
            p.peek()?;
            let value = p.mark();
            found = tag_value(p, tag, tags)?;
            // A known tag, first or after other members: the variant goes on from here
            // (it reads the members before the tag again from the object's start). An
            // unknown one: the rest of the object is skipped.
            if let Tag::Known(_) = found {
                return Ok((found, Start::AfterTag { tag, mark, value }));
            }
        } else {
            p.skip()?;
        }
        is_tag = p.object_next()?.map(|k| same_str(k, tag));
    }
    Ok((found, Start::Value))
}

/// Reads a tag's value (a string) and finds it in `tags`, without copying it.
fn tag_value(p: &mut Parser<'_>, tag: &'static str, tags: &[&str]) -> Result<Tag, Error> {
    match p.peek()? {
        Kind::String => {
            let s = p.str()?;
            Ok(match position(tags, s) {
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
    let (first, complete) = best(scores)?;
    let result = member(first);
    match &result {
        Err(e) if complete && !e.is_repeated() => {}
        _ => return Some(result),
    }
    // Rare: the next ones that fit completely, in rank order (the first of the ranking is
    // `first`).
    for (k, _) in rank(scores).into_iter().skip(1).take_while(|(_, s)| s.0) {
        if let Ok(v) = member(k) {
            return Some(Ok(v));
        }
    }
    Some(result)
}

/// The member [`rank`] puts first, and whether it fits completely, without building the
/// ranking: the highest score, the first in schema order among equals. (A loop, not
/// `min_by_key` with `Reverse`: that ran twice the instructions, 26,072 against 13,468 over
/// the real corpus.)
fn best(scores: &[Score]) -> Option<(usize, bool)> {
    let mut best: Option<(usize, (bool, u32, u32, u32))> = None;
    for (k, s) in candidates(scores) {
        if best.is_none_or(|(_, b)| s > b) {
            best = Some((k, s));
        }
    }
    best.map(|(k, (complete, ..))| (k, complete))
}

/// The members that can be the object, with their scores, in schema order.
fn candidates(scores: &[Score]) -> impl Iterator<Item = (usize, (bool, u32, u32, u32))> + '_ {
    scores
        .iter()
        .enumerate()
        .filter_map(|(k, s)| s.map(|s| (k, s)))
}

/// The members that can be the object with their scores, best first, equal scores in schema
/// order. Apart from [`best_member`], which is generic: one copy of the sort for every union
/// rather than one per union (the sort was 8 % of a revision's LLVM IR).
#[cold]
fn rank(scores: &[Score]) -> Vec<(usize, (bool, u32, u32, u32))> {
    let mut ranked: Vec<(usize, (bool, u32, u32, u32))> = candidates(scores).collect();
    // Stable: equal scores keep schema order.
    ranked.sort_by_key(|r| std::cmp::Reverse(r.1));
    ranked
}
