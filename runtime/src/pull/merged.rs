//! Unions told apart by the members an object has (a merged group of struct members, such as
//! an elicitation form's field schemas), two ways.
//!
//! Where every member any variant declares (a *slot*) decodes alike in all of them, the
//! object is decoded once into slots of the union's own, and the variant is scored from the
//! slots met and built from them ([`Merged::one_pass`]); one slot the variants type
//! differently is kept where it is and decoded by the variant picked
//! ([`Merged::one_pass_deferred`]). Otherwise, or when that does not
//! decide, one pass over the object records which slots are present, the JSON kind of each
//! and where it starts, and what comparing it with a constant takes (a string's length, an
//! integer); each variant is then scored from a table generated per union ([`Merged`]),
//! reading again, at its mark, only an object a check looks into (its shape, one level down),
//! and at most once a string the pass could not keep (one with escapes). Nothing is built:
//! [`best_member`](super::best_member) then decodes the variant chosen from the object's
//! start.

use super::object::{self, index_or_key, position, same_str};
use super::value::{read, to_depth};
use super::{Error, Kind as Token, Parser, Score, Start, Table, Unknown};
use crate::Extra;
use crate::json::Kind;

/// A set of JSON kinds ([`Kind`]). A value read is of each kind it is: an integer of
/// [`KindSet::INTEGER`] and [`KindSet::NUMBER`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KindSet(u8);

impl KindSet {
    /// `null`.
    pub const NULL: KindSet = KindSet::of(&[Kind::Null]);
    /// `true` or `false`.
    pub const BOOLEAN: KindSet = KindSet::of(&[Kind::Boolean]);
    /// An integer.
    pub const INTEGER: KindSet = KindSet::of(&[Kind::Integer]);
    /// Any number (an integer is one too).
    pub const NUMBER: KindSet = KindSet::of(&[Kind::Number]);
    /// A string.
    pub const STRING: KindSet = KindSet::of(&[Kind::String]);
    /// An array.
    pub const ARRAY: KindSet = KindSet::of(&[Kind::Array]);
    /// An object.
    pub const OBJECT: KindSet = KindSet::of(&[Kind::Object]);
    /// Every kind.
    pub const ANY: KindSet = KindSet(0x7f);

    /// The set of `kinds`.
    pub const fn of(kinds: &[Kind]) -> KindSet {
        let mut bits = 0;
        let mut i = 0;
        while i < kinds.len() {
            bits |= 1 << kinds[i] as u8;
            i += 1;
        }
        KindSet(bits)
    }

    /// Whether the set has `kind`.
    #[inline]
    pub const fn contains(self, kind: Kind) -> bool {
        self.0 & (1 << kind as u8) != 0
    }

    /// Whether the two sets share a kind.
    #[inline]
    const fn meets(self, other: KindSet) -> bool {
        self.0 & other.0 != 0
    }
}

/// A constant a variant requires of a member.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Const {
    /// This string.
    Str(&'static str),
    /// This integer.
    Int(i64),
}

/// What a value must be to fit a member a variant declares.
#[derive(Debug, Clone, Copy)]
pub enum Fits {
    /// Of one of these kinds.
    Kinds(KindSet),
    /// Is this string (a member whose only value is a constant, which may be absent).
    Is(&'static str),
    /// Of one of these kinds, and if an object, of one of these shapes.
    Shaped(KindSet, &'static [Shape]),
}

/// An object's shape one level down: the members it requires and the constants it holds.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// Members that must be present.
    pub required: &'static [&'static str],
    /// Members that must hold these constants.
    pub consts: &'static [(&'static str, Const)],
}

/// What a variant says of one slot (an index in [`Merged::slots`]).
#[derive(Debug, Clone, Copy)]
pub enum Check {
    /// The member is required and holds this constant: another value rules the variant out.
    Const(usize, Const),
    /// A member the variant declares: whether it is required, and what fits it (a value that
    /// does not fit leaves the variant incomplete, not ruled out: if it is still the closest,
    /// its decoder names that value).
    Field(usize, bool, Fits),
    /// A member the variant does not declare, though it refuses unknown members: present, it
    /// rules the variant out.
    Refused(usize),
}

/// A variant (a struct member of the union): its checks, and whether it refuses members it
/// does not declare; made by [`Variant::new`], which also sums the checks up as slot masks
/// (at compile time, in a `static`) for [`Merged::one_pass`].
#[derive(Debug, Clone, Copy)]
pub struct Variant {
    /// Its checks, one per slot it names.
    pub checks: &'static [Check],
    /// It refuses unknown members: a member in no slot rules it out.
    pub closed: bool,
    /// The slots it declares (a constant or a field).
    declares: u64,
    /// The slots it requires (a constant, or a required field).
    requires: u64,
    /// The slots it refuses.
    refuses: u64,
    /// How many slots it requires, and how many of those hold a constant: what a variant
    /// that fits completely scores for them.
    required: u32,
    constants: u32,
}

impl Variant {
    /// A variant of these checks (at most one per slot; slots below 64), refusing unknown
    /// members when `closed`.
    pub const fn new(checks: &'static [Check], closed: bool) -> Variant {
        let (mut declares, mut requires, mut consts, mut refuses) = (0u64, 0u64, 0u64, 0u64);
        let mut i = 0;
        while i < checks.len() {
            match checks[i] {
                Check::Const(slot, _) => {
                    declares |= 1 << slot;
                    requires |= 1 << slot;
                    consts |= 1 << slot;
                }
                Check::Field(slot, required, _) => {
                    declares |= 1 << slot;
                    if required {
                        requires |= 1 << slot;
                    }
                }
                Check::Refused(slot) => refuses |= 1 << slot,
            }
            i += 1;
        }
        Variant {
            checks,
            closed,
            declares,
            requires,
            refuses,
            required: requires.count_ones(),
            constants: consts.count_ones(),
        }
    }
}

/// A union told apart by members: its slots (every member any variant declares), its
/// variants, and the constants every variant requires alike (`jsonrpc`: a wrong value is
/// reported as such, not as "no member matches").
#[derive(Debug, Clone, Copy)]
pub struct Merged {
    /// Every member any variant declares.
    pub slots: &'static [&'static str],
    /// The struct variants, in schema order.
    pub variants: &'static [Variant],
    /// Constants all variants require alike.
    pub common: &'static [(usize, Const)],
}

/// A slot's value left where it is: its kinds and its mark, read as open JSON reads it
/// (the same errors). The slot a group decoded in one pass keeps this way is the one its
/// variants type differently ([`Deferred`]): the variant picked decodes it.
#[derive(Debug, Clone, Copy)]
pub struct Marked {
    kinds: KindSet,
    mark: usize,
}

impl super::Decode for Marked {
    fn decode(p: &mut Parser<'_>) -> Result<Self, Error> {
        let (kinds, mark, _) = value_kinds(p)?;
        Ok(Marked { kinds, mark })
    }
}

/// The slot of a group decoded in one pass ([`Merged::one_pass_deferred`]) that its variants
/// type differently (an elicitation form's `items`, an object of another shape per variant):
/// the one pass keeps its value as a [`Marked`] in the slots struct `S`, the variants' checks
/// of that slot ([`Fits`]) score it, and the variant picked decodes it as its own type.
pub struct Deferred<S: 'static> {
    /// The slot (an index in [`Merged::slots`]).
    pub slot: usize,
    /// Where `S` keeps the slot's value.
    pub marked: fn(&S) -> Option<Marked>,
    /// Decodes the value (the parser on it) as variant `k` types it, into `S`'s field for
    /// that variant.
    pub decode: fn(&mut S, usize, &mut Parser<'_>) -> Result<(), Error>,
}

/// Slots are bits of a `u64`.
const MAX_SLOTS: usize = 64;

/// What the pass saw of one object.
struct Record {
    /// Which slots are present.
    present: u64,
    /// Per present slot, the kinds its value is of (an integer is a number too).
    kinds: [KindSet; MAX_SLOTS],
    /// Per present slot, the mark of its value.
    marks: [usize; MAX_SLOTS],
    /// Which present slots have their value kept in `kept`, to compare with a constant
    /// without reading it again.
    has_kept: u64,
    /// Per slot of `has_kept`: a string's length (its text is the input's, after the quote
    /// at its mark: it has no escapes), or an integer's value (one that fits an `i64`).
    kept: [i64; MAX_SLOTS],
    /// Strings not kept (with escapes: a member's, or a tag a union read), read again the
    /// first time a check compares one: the slot and the string (`None`: not a string).
    decoded: Vec<(usize, Option<String>)>,
    /// A member in no slot is present.
    rest: bool,
}

impl Record {
    #[inline]
    fn has(&self, slot: usize) -> bool {
        self.present & (1 << slot) != 0
    }

    /// A slot's value read by the pass: its kinds, mark and what is kept of it.
    #[inline]
    fn set(&mut self, slot: usize, kinds: KindSet, mark: usize, kept: Option<i64>) {
        self.present |= 1 << slot;
        self.kinds[slot] = kinds;
        self.marks[slot] = mark;
        if let Some(k) = kept {
            self.has_kept |= 1 << slot;
            self.kept[slot] = k;
        }
    }

    /// Whether the value of `slot` (present) is the constant `c`, as open JSON compares it.
    /// Reads the value again only if it is a string the pass did not keep, and then once.
    #[inline]
    fn is(&mut self, p: &Parser<'_>, slot: usize, c: Const) -> bool {
        let kinds = self.kinds[slot];
        let kept = self.has_kept & (1 << slot) != 0;
        match c {
            Const::Str(s) if kinds.meets(KindSet::STRING) => {
                if kept {
                    let start = self.marks[slot] + 1;
                    self.kept[slot] as usize == s.len()
                        && p.bytes(start, start + s.len()) == s.as_bytes()
                } else {
                    self.decoded(p, slot) == Some(s)
                }
            }
            Const::Int(i) => kept && kinds.meets(KindSet::INTEGER) && self.kept[slot] == i,
            Const::Str(_) => false,
        }
    }

    /// A string the pass did not keep, read again (once) at its mark.
    #[cold]
    #[inline(never)]
    fn decoded(&mut self, p: &Parser<'_>, slot: usize) -> Option<&str> {
        let i = match self.decoded.iter().position(|(s, _)| *s == slot) {
            Some(i) => i,
            None => {
                let mut q = p.at(self.marks[slot]);
                let s = match q.peek() {
                    Ok(Token::String) => q.str().ok().map(str::to_owned),
                    _ => None,
                };
                self.decoded.push((slot, s));
                self.decoded.len() - 1
            }
        };
        self.decoded[i].1.as_deref()
    }
}

impl Merged {
    /// Reads the object (from `start`: its `{`, or after a tag a union read; the parser
    /// ends after the object) and scores each variant into `scores` (as long as
    /// [`Merged::variants`]). Returns the object's mark, to decode the variant chosen from.
    /// The errors are those of reading the object as open JSON: the text's, a member named
    /// twice, a wrong value of a [common](Merged::common) constant.
    pub fn score(
        &self,
        p: &mut Parser<'_>,
        start: Start,
        scores: &mut [Score],
    ) -> Result<usize, Error> {
        debug_assert!(self.slots.len() <= MAX_SLOTS, "Merged: at most 64 slots");
        let mut rec = Record {
            present: 0,
            kinds: [KindSet(0); MAX_SLOTS],
            marks: [0; MAX_SLOTS],
            has_kept: 0,
            kept: [0; MAX_SLOTS],
            decoded: Vec::new(),
            rest: false,
        };
        // Members in no slot, to refuse one named twice (rare: most objects of such a union
        // have only members some variant declares).
        let mut others: Vec<String> = Vec::new();
        let mark = match start {
            // Scored members are not decoded one by one: the guess is not taken.
            Start::NoTag { .. } => return Err(super::object::tag_met()),
            Start::Value | Start::Message => {
                let kind = p.peek()?;
                if kind != Token::Object {
                    return Err(p.wrong("a map", kind));
                }
                let mark = p.mark();
                let first = p.object_first()?.map(|k| index_or_key(self.slots, k));
                self.members(p, first, &mut rec, &mut others)?;
                mark
            }
            Start::AfterTag { tag, mark, value } => {
                // The members before the tag (none when it came first), read again; the tag
                // (a string: the union read it); the rest, from here.
                // The same walk as the object loop's (`Members::before_tag`), not shared: a
                // walker taking each member through a closure cost the object loop 26,000
                // instructions more over the corpus inlined, 37,000 out of line (its state
                // borrowed by the closure, likely kept in memory rather than registers).
                let mut q = p.reopen(mark);
                q.peek()?;
                let mut key = q.object_first()?;
                while let Some(k) = key {
                    if same_str(k, tag) {
                        break;
                    }
                    let k = index_or_key(self.slots, k);
                    self.member(&mut q, k, &mut rec, &mut others)?;
                    key = q.object_next()?;
                }
                match index_or_key(self.slots, tag) {
                    Ok(slot) => {
                        let (value, kept) = tag_text(p, value);
                        rec.set(slot, KindSet::STRING, value, kept);
                    }
                    Err(name) => {
                        rec.rest = true;
                        others.push(name);
                    }
                }
                let next = p.object_next()?.map(|k| index_or_key(self.slots, k));
                self.members(p, next, &mut rec, &mut others)?;
                mark
            }
        };
        for &(slot, c) in self.common {
            if rec.has(slot) && !rec.is(p, slot, c) {
                return Err(wrong_common(p, self.slots[slot], rec.marks[slot], c));
            }
        }
        for (score, v) in scores.iter_mut().zip(self.variants) {
            *score = score_of(p, &mut rec, v);
        }
        Ok(mark)
    }

    /// Decodes the object in one pass, when that gives what scoring it and then decoding the
    /// variant chosen gives: each member a variant declares into its slot in `s` (`table` is
    /// the union's: its keys are [`Merged::slots`], in that order; its constants are the
    /// variants' constants; it requires nothing), the others into `extra`; then the variant
    /// that scores best on the members met, each value of which fits (it decoded as the type
    /// every variant declaring it gives it, which is what the variants' `Fits` say).
    ///
    /// `Some(k)`: variant `k` fits completely and declares every member met (build it from
    /// `s` and `extra`); the parser is after the object. `None`, the parser where it was:
    /// score the object ([`Merged::score`]). That is on any error (a value a slot's type
    /// refuses may still fit a variant that does not declare it; a member named twice, a
    /// fault of the text: the scoring pass reports it), when no variant fits completely (its
    /// decoder names what is missing), when the best one does not declare a member met (to
    /// it, an unknown member, kept in its place among the others), and from
    /// [`Start::Message`] and [`Start::NoTag`]. Saves the scoring pass, which read the object
    /// once more before the variant's decoder did (elicitation forms: BENCHMARKS.md section 9).
    pub fn one_pass<S>(
        &self,
        p: &mut Parser<'_>,
        table: &Table<S>,
        start: Start,
        extra: &mut Extra,
        s: &mut S,
    ) -> Option<usize> {
        self.one_pass_with(p, table, None, start, extra, s)
    }

    /// [`Merged::one_pass`] for a group whose variants type one slot differently
    /// (`deferred`): `table`'s entry for it keeps a [`Marked`]; each variant declaring it is
    /// scored on its value by its check of it (as [`Merged::score`] does), and the variant
    /// picked decodes it (`None` if it does not decode: the scoring then tries the others).
    pub fn one_pass_deferred<S>(
        &self,
        p: &mut Parser<'_>,
        table: &Table<S>,
        deferred: &Deferred<S>,
        start: Start,
        extra: &mut Extra,
        s: &mut S,
    ) -> Option<usize> {
        self.one_pass_with(p, table, Some(deferred), start, extra, s)
    }

    fn one_pass_with<S>(
        &self,
        p: &mut Parser<'_>,
        table: &Table<S>,
        deferred: Option<&Deferred<S>>,
        start: Start,
        extra: &mut Extra,
        s: &mut S,
    ) -> Option<usize> {
        debug_assert_eq!(table.keys, self.slots, "the union's table has its slots");
        match start {
            Start::Value => {}
            // A tag every variant declares (a constant, which the tag's value selected).
            Start::AfterTag { tag, .. } if position(self.slots, tag).is_some() => {}
            _ => return None,
        }
        let mut q = p.at(p.mark());
        let seen = object::members(&mut q, table, start, Unknown::Keep(extra), s).ok()?;
        let marked = deferred.and_then(|d| Some((d.slot, (d.marked)(s)?)));
        let k = self.pick(seen, !extra.is_empty(), marked, &q)?;
        if let (Some(d), Some((_, m))) = (deferred, marked) {
            // Nested as it is in the object (for the depth limit).
            (d.decode)(s, k, &mut q.inside(m.mark)).ok()?;
        }
        *p = q;
        Some(k)
    }

    /// The variant [`Merged::one_pass`] builds: the best scored on the members met (`seen`:
    /// bits of [`Merged::slots`]; `rest`: a member in no slot), every value fitting and every
    /// constant met matching, but a deferred slot's value (`marked`), which fits a variant
    /// as its check says, when it fits completely and declares every member met.
    ///
    /// Only variants that fit completely are scored: one that does not scores below any that
    /// does, and when it is the best, nothing is built. Such a variant has every slot it
    /// requires met, its constants among them: what it scores for them is its counts of
    /// those, and only how many of its slots were met is counted.
    fn pick(
        &self,
        seen: u64,
        rest: bool,
        marked: Option<(usize, Marked)>,
        p: &Parser<'_>,
    ) -> Option<usize> {
        let mut best: Option<(usize, (u32, u32, u32))> = None;
        for (k, v) in self.variants.iter().enumerate() {
            if v.requires & !seen != 0 || seen & v.refuses != 0 || (v.closed && rest) {
                continue;
            }
            let score = (v.constants, v.required, (seen & v.declares).count_ones());
            if best.is_some_and(|(_, b)| score <= b) {
                continue;
            }
            // The deferred value is looked into (read again) only for a variant it can make
            // the best.
            if let Some((slot, m)) = marked
                && !fits_marked(p, v, slot, m)
            {
                continue;
            }
            best = Some((k, score));
        }
        let (k, _) = best?;
        (seen & !self.variants[k].declares == 0).then_some(k)
    }

    /// The members from `key` (read) to the object's end.
    fn members(
        &self,
        p: &mut Parser<'_>,
        mut key: Option<Result<usize, String>>,
        rec: &mut Record,
        others: &mut Vec<String>,
    ) -> Result<(), Error> {
        while let Some(k) = key {
            self.member(p, k, rec, others)?;
            key = p.object_next()?.map(|k| index_or_key(self.slots, k));
        }
        Ok(())
    }

    /// One member's value (its key read: a slot, or the key).
    #[inline(never)]
    fn member(
        &self,
        p: &mut Parser<'_>,
        key: Result<usize, String>,
        rec: &mut Record,
        others: &mut Vec<String>,
    ) -> Result<(), Error> {
        match key {
            Ok(slot) => {
                let name = self.slots[slot];
                let (kinds, mark, kept) = value_kinds(p).map_err(|e| e.in_member(name))?;
                if rec.has(slot) {
                    return Err(p.repeated(name).in_member(name));
                }
                rec.set(slot, kinds, mark, kept);
            }
            Err(name) => {
                read(p).map_err(|e| e.in_member(&name))?;
                if others.contains(&name) {
                    return Err(p.repeated(&name).in_member(&name));
                }
                others.push(name);
                rec.rest = true;
            }
        }
        Ok(())
    }
}

/// "invalid value for `jsonrpc`: expected "2.0", found 1": the value at `mark` (shown as open
/// JSON one level deep), where every variant requires constant `c`.
#[cold]
fn wrong_common(p: &Parser<'_>, name: &str, mark: usize, c: Const) -> Error {
    let found = match to_depth(&mut p.at(mark), 1) {
        Ok(v) => v,
        Err(e) => return e,
    };
    let expected = match c {
        Const::Str(s) => format!("{s:?}"),
        Const::Int(i) => i.to_string(),
    };
    p.error(format!(
        "invalid value for `{name}`: expected {expected}, found {found}"
    ))
}

/// The tag's value at `mark` (a string a union read; the mark may be before whitespace): the
/// mark of its quote, and its length when its text is the input's (no escapes), found by its
/// closing quote without reading it again; `None` (with escapes): read again if compared.
fn tag_text(p: &Parser<'_>, mark: usize) -> (usize, Option<i64>) {
    let rest = p.bytes(mark, usize::MAX);
    let Some(quote) = rest
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
    else {
        return (mark, None);
    };
    let text = &rest[quote + 1..];
    let kept = match text.iter().position(|&b| b == b'"' || b == b'\\') {
        Some(end) if rest[quote] == b'"' && text[end] == b'"' => Some(end as i64),
        _ => None,
    };
    (mark + quote, kept)
}

/// Reads the next value as open JSON reads it (the same errors), building nothing: the kinds
/// it is of, its mark, and what comparing it with a constant takes (see [`Record::kept`]): a
/// string's length when its text is the input's (no escapes), an integer that fits an `i64`.
fn value_kinds(p: &mut Parser<'_>) -> Result<(KindSet, usize, Option<i64>), Error> {
    let token = p.peek()?;
    let mark = p.mark();
    Ok(match token {
        Token::Null => {
            p.null()?;
            (KindSet::NULL, mark, None)
        }
        Token::Bool => {
            p.bool()?;
            (KindSet::BOOLEAN, mark, None)
        }
        Token::Number => {
            let n = p.number()?;
            if n.is_i64() || n.is_u64() {
                let kinds = KindSet(KindSet::INTEGER.0 | KindSet::NUMBER.0);
                (kinds, mark, n.as_i64())
            } else {
                (KindSet::NUMBER, mark, None)
            }
        }
        Token::String => {
            // Its length, if the string is the input's own text (no escapes).
            let kept = p.check_str()?.map(|len| len as i64);
            (KindSet::STRING, mark, kept)
        }
        Token::Array => {
            read(p)?;
            (KindSet::ARRAY, mark, None)
        }
        Token::Object => {
            read(p)?;
            (KindSet::OBJECT, mark, None)
        }
    })
}

/// How variant `v` scores against the object recorded (see [`Score`]).
fn score_of(p: &Parser<'_>, rec: &mut Record, v: &Variant) -> Score {
    let (mut complete, mut consts, mut required, mut declared) = (true, 0, 0, 0);
    for check in v.checks {
        match *check {
            Check::Const(slot, c) => {
                if !rec.has(slot) {
                    complete = false;
                } else if rec.is(p, slot, c) {
                    consts += 1;
                    required += 1;
                    declared += 1;
                } else {
                    return None;
                }
            }
            Check::Field(slot, is_required, fits) => {
                if rec.has(slot) {
                    let fit = match fits {
                        Fits::Is(s) => rec.is(p, slot, Const::Str(s)),
                        _ => fits_value(p, rec.kinds[slot], rec.marks[slot], fits),
                    };
                    if !fit {
                        complete = false;
                    }
                    declared += 1;
                    required += u32::from(is_required);
                } else if is_required {
                    complete = false;
                }
            }
            Check::Refused(slot) => {
                if rec.has(slot) {
                    return None;
                }
            }
        }
    }
    if v.closed && rec.rest {
        return None;
    }
    Some((complete, consts, required, declared))
}

/// Whether the value `m` of `slot` fits variant `v` (true when `v` does not declare it).
fn fits_marked(p: &Parser<'_>, v: &Variant, slot: usize, m: Marked) -> bool {
    v.checks.iter().all(|c| match *c {
        Check::Field(s, _, fits) if s == slot => fits_value(p, m.kinds, m.mark, fits),
        _ => true,
    })
}

fn fits_value(p: &Parser<'_>, kinds: KindSet, mark: usize, fits: Fits) -> bool {
    match fits {
        Fits::Kinds(k) => kinds.meets(k),
        Fits::Is(s) => is_const(p, mark, Const::Str(s)),
        Fits::Shaped(k, shapes) => {
            kinds.meets(k)
                && (!kinds.meets(KindSet::OBJECT) || shapes.iter().any(|s| has_shape(p, mark, s)))
        }
    }
}

/// Whether the value at `mark` (read before) is the constant `c`.
fn is_const(p: &Parser<'_>, mark: usize, c: Const) -> bool {
    let mut q = p.at(mark);
    match (q.peek(), c) {
        (Ok(Token::String), Const::Str(s)) => q.str().is_ok_and(|v| v == s),
        (Ok(Token::Number), Const::Int(i)) => q.number().is_ok_and(|n| n.as_i64() == Some(i)),
        _ => false,
    }
}

/// Whether the object at `mark` (read before) has every member `shape` requires and its
/// constants (a member named twice: its last value, as open JSON keeps it).
#[inline(never)]
fn has_shape(p: &Parser<'_>, mark: usize, shape: &Shape) -> bool {
    if shape.required.is_empty() && shape.consts.is_empty() {
        return true;
    }
    fn pass(p: &Parser<'_>, mark: usize, shape: &Shape) -> Result<bool, Error> {
        let mut q = p.at(mark);
        q.peek()?;
        let (mut required, mut consts) = (0u64, 0u64);
        let find = |k: &str| {
            (
                position(shape.required, k),
                shape.consts.iter().position(|(name, _)| *name == k),
            )
        };
        let mut key = q.object_first()?.map(find);
        while let Some((r, c)) = key {
            if let Some(i) = r {
                required |= 1 << i;
            }
            q.peek()?;
            let value = q.mark();
            q.skip()?;
            if let Some(i) = c {
                if is_const(&q, value, shape.consts[i].1) {
                    consts |= 1 << i;
                } else {
                    consts &= !(1 << i);
                }
            }
            key = q.object_next()?.map(find);
        }
        Ok(required.count_ones() as usize == shape.required.len()
            && consts.count_ones() as usize == shape.consts.len())
    }
    pass(p, mark, shape).unwrap_or(false)
}

/// A union with several array members: reads the array at `p` (after `peek() == Array`; `p`
/// does not move) as open JSON reads it (the same errors), and returns the index of the
/// first of `fits` that its first element fits (an empty array: the first); `None` if none.
pub fn array_member(p: &Parser<'_>, fits: &[Fits]) -> Result<Option<usize>, Error> {
    let mut q = p.at(p.mark());
    q.peek()?;
    if !q.array_first()? {
        return Ok((!fits.is_empty()).then_some(0));
    }
    let (kinds, mark, _) = value_kinds(&mut q).map_err(|e| e.in_index(0))?;
    let mut i = 1;
    while q.array_next()? {
        read(&mut q).map_err(|e| e.in_index(i))?;
        i += 1;
    }
    Ok(fits.iter().position(|&f| fits_value(&q, kinds, mark, f)))
}
