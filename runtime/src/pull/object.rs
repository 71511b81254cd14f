//! The one object loop ([`object()`]), driven per type by a key table ([`Table`]) and a
//! slot table ([`Slot`]) that says where each member goes and what decodes it.

use core::marker::PhantomData;
use core::mem::MaybeUninit;

use crate::Extra;

use super::parser::unexpected_number;
use super::{Decode, Error, Kind, Parser, value};

/// Where an object's decoding starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// On the object's `{`.
    Value,
    /// Inside the object: the union read key `tag` and its value already; `mark` is the
    /// object's `{` (to decode again from it).
    AfterTag {
        /// The tag member's key.
        tag: &'static str,
        /// The object's `{` (a [`Parser::mark`]).
        mark: usize,
        /// The tag's value (a [`Parser::mark`]), for a type that stores it (a member that is
        /// not a constant, such as an optional `mode`).
        value: usize,
    },
    /// On the `{` of a JSON-RPC message whose type does not declare the envelope (before
    /// 2025-11-25): members `jsonrpc` and `id` are the message's, read by
    /// [`message`](super::message()), and skipped here.
    Message,
    /// On the object's `{`, for the variant a union decodes when its tag is absent
    /// ([`tagged_or_absent`](super::tagged_or_absent)), decoded in one pass on the guess that
    /// the object has no member `tag`: the object loop stops with an error at a member `tag`,
    /// and a decoder that does not decode member by member ([`whole`], a union told apart by
    /// members) stops at once. On any error the union decodes the object the long way.
    NoTag {
        /// The union's tag member.
        tag: &'static str,
    },
}

/// The tables of an object type (a `static` per generated type): its keys, and where each
/// member goes in its slots struct `S`.
pub struct Table<S: 'static> {
    /// What the type is called in errors: "a Tool object".
    pub expecting: &'static str,
    /// The declared members, fields first, then constants (a key's index is its entry's in
    /// `slots`).
    pub keys: &'static [&'static str],
    /// Bit `i` set: `keys[i]` is required (at most 64 keys: the generator checks).
    pub required: u64,
    /// Bit `i` set: `keys[i]` is a constant member (checked, not stored).
    pub consts: u64,
    /// Per key, in the same order, where its value goes ([`Slot`]).
    pub slots: &'static [Slot<S>],
}

impl<S> Table<S> {
    /// The table without its slots struct's type, as the one loop reads it.
    #[inline]
    fn erased(&self) -> Erased {
        // SAFETY: `Slot<S>` is `repr(transparent)` over `RawSlot`.
        let slots = unsafe {
            core::slice::from_raw_parts(self.slots.as_ptr().cast::<RawSlot>(), self.slots.len())
        };
        Erased {
            expecting: self.expecting,
            keys: self.keys,
            required: self.required,
            consts: self.consts,
            slots,
            fields: 0,
            template: &[],
            rest: RawRest::Deny,
        }
    }
}

/// A [`Table`] or a [`Layout`] without its type: one object loop for every type.
struct Erased {
    expecting: &'static str,
    keys: &'static [&'static str],
    required: u64,
    consts: u64,
    slots: &'static [RawSlot],
    /// Decoded in place: bit `i` set, `keys[i]` is a field, dropped on an error once written
    /// (none for a slots struct, which drops its own).
    fields: u64,
    /// Decoded in place: the value's bytes before any member is read, every optional field
    /// `None` and the `Extra` empty, the other fields not initialized (empty for a slots
    /// struct, whose slots are `None` at first).
    template: &'static [MaybeUninit<u8>],
    /// Decoded in place: where the members `keys` does not declare go (for a slots struct,
    /// the caller says).
    rest: RawRest,
}

/// The index of `key` in `keys` (a type's declared members, a union's slots). Always inlined:
/// called out of line (as the compiler chose once `same_str` grew), a key cost 25
/// instructions more.
#[inline(always)]
pub(super) fn position(keys: &[&str], key: &str) -> Option<usize> {
    keys.iter().position(|k| same_str(k, key))
}

/// `a == b`, without a call of `memcmp` for strings of up to 16 bytes (all but a few keys,
/// tags and constants of the MCP schemas): the lengths, then two words loaded from each end
/// (they overlap when shorter than two words), or each byte of a string of up to 3. A
/// `memcmp` call was about 20 instructions a candidate of the key's length, on top of the
/// call itself.
#[inline]
pub(super) fn same_str(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    fn word(s: &[u8], at: usize) -> u64 {
        u64::from_le_bytes(s[at..at + 8].try_into().unwrap_or_default())
    }
    fn half(s: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(s[at..at + 4].try_into().unwrap_or_default())
    }
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        _ => a == b,
    }
}

/// A key read: its index in `keys`, or the key itself (a member `keys` do not declare).
#[inline(always)]
pub(super) fn index_or_key(keys: &[&str], key: &str) -> Result<usize, String> {
    position(keys, key).ok_or_else(|| key.to_owned())
}

/// What to do with members the table does not declare.
pub enum Unknown<'m> {
    /// Keep them as open JSON (a second member of the same name: "duplicate member `k`").
    Keep(&'m mut Extra),
    /// Refuse them: "unknown member `k`, expected one of `a`, `b`".
    Deny,
    /// Decode each with this closure (`additionalProperties` with a schema): it receives the
    /// parser on the member's value and the member's key.
    Typed(&'m mut dyn FnMut(&mut Parser<'_>, String) -> Result<(), Error>),
}

/// Where a type's slots struct `S` keeps one declared member, and what decodes it there: an
/// entry of the table [`object()`] walks, one per key of the type's [`Table`], in its
/// order. Made by [`slot!`](crate::slot) (a field), [`Slot::str`] or [`Slot::int`] (a
/// constant member, checked and not stored).
#[repr(transparent)]
pub struct Slot<S>(RawSlot, PhantomData<fn(&mut S)>);

/// What fills a slot: decodes a value and writes it at the pointer, over nothing (the place
/// holds no value, or one that needs no drop: `None`) ([`fill_some`], [`fill_plain`]).
type Fill = unsafe fn(&mut Parser<'_>, *mut u8) -> Result<(), Error>;

/// What drops the value a [`Fill`] wrote at the pointer ([`drop_at`]), or makes a typed rest
/// empty there.
type Place = unsafe fn(*mut u8);

/// A [`Slot`] without its struct's type, as the one object loop reads it.
#[derive(Clone, Copy)]
enum RawSlot {
    /// A field at `offset`, filled by `fill` (one copy per member type); decoded in place
    /// ([`in_place`]), dropped by `drop` when the object fails after it was filled (in a slots
    /// struct, [`object()`], the struct drops its own). An `optional` member may be absent: its
    /// field is `None` in the layout's template.
    At {
        offset: usize,
        fill: Fill,
        optional: bool,
        drop: Place,
    },
    /// A field at `offset` whose type is an object type decoded in place, by the loop itself
    /// with its `table` (written where it lies, not moved there); dropped by `drop`.
    Object {
        offset: usize,
        table: &'static Erased,
        drop: Place,
    },
    /// A constant string member.
    Str(&'static str),
    /// A constant integer member.
    Int(i64),
}

impl<S> Slot<S> {
    /// The field of `S` at `field`, an optional member decoded as a `T`: `Some` when
    /// present, `None` when absent. Its offset is `field`'s from `base`.
    ///
    /// # Safety
    ///
    /// `base` points to an `S` (it need not be initialized) and `field` to one of its fields,
    /// whose type is `Option<T>` (what [`slot!`](crate::slot) and [`layout!`](crate::layout)
    /// write: the field's own place).
    pub const unsafe fn optional<T: Decode>(base: *const S, field: *const Option<T>) -> Self {
        // SAFETY: the caller's promise.
        let offset = unsafe { offset(base, field) };
        Slot::new(offset, fill_some::<T>, true, drop_at::<Option<T>>)
    }

    /// The field of `S` at `field`, a required member decoded as a `T` (no value when
    /// absent: the member is required).
    ///
    /// # Safety
    ///
    /// As for [`Slot::optional`], the field's type being `T`.
    pub const unsafe fn required<T: Decode>(base: *const S, field: *const T) -> Self {
        // SAFETY: the caller's promise.
        let offset = unsafe { offset(base, field) };
        Slot::new(offset, fill_plain::<T>, false, drop_at::<T>)
    }

    /// The field of `S` at `field`, an optional member that may also be `null`: `None` when
    /// absent or `null`.
    ///
    /// # Safety
    ///
    /// As for [`Slot::optional`].
    pub const unsafe fn nullable<T: Decode>(base: *const S, field: *const Option<T>) -> Self {
        // SAFETY: the caller's promise.
        let offset = unsafe { offset(base, field) };
        Slot::new(offset, fill_plain::<Option<T>>, true, drop_at::<Option<T>>)
    }

    /// [`Slot::required`] for a member whose type is an object type decoded in place: the
    /// object loop decodes it with its layout where the field lies.
    ///
    /// # Safety
    ///
    /// As for [`Slot::optional`], the field's type being `T`.
    pub const unsafe fn object<T: InPlace>(base: *const S, field: *const T) -> Self {
        // SAFETY: the caller's promise.
        let offset = unsafe { offset(base, field) };
        Slot(
            RawSlot::Object {
                offset,
                table: &T::LAYOUT.table,
                drop: drop_at::<T>,
            },
            PhantomData,
        )
    }

    /// [`Slot::optional`] for a member kept behind a `Box` (`--boxed`).
    ///
    /// # Safety
    ///
    /// As for [`Slot::optional`], the field's type being `Option<Box<T>>`.
    pub const unsafe fn optional_boxed<T: Decode>(
        base: *const S,
        field: *const Option<Box<T>>,
    ) -> Self {
        // SAFETY: the caller's promise.
        let offset = unsafe { offset(base, field) };
        let drop = drop_at::<Option<Box<T>>>;
        Slot::new(offset, fill_some_boxed::<T>, true, drop)
    }

    /// [`Slot::required`] for a member kept behind a `Box` (`--boxed`).
    ///
    /// # Safety
    ///
    /// As for [`Slot::optional`], the field's type being `Box<T>`.
    pub const unsafe fn required_boxed<T: Decode>(base: *const S, field: *const Box<T>) -> Self {
        // SAFETY: the caller's promise.
        let offset = unsafe { offset(base, field) };
        Slot::new(offset, fill_plain_boxed::<T>, false, drop_at::<Box<T>>)
    }

    const fn new(offset: usize, fill: Fill, optional: bool, drop: Place) -> Self {
        Slot(
            RawSlot::At {
                offset,
                fill,
                optional,
                drop,
            },
            PhantomData,
        )
    }

    /// A constant member that must be the string `value`.
    pub const fn str(value: &'static str) -> Self {
        Slot(RawSlot::Str(value), PhantomData)
    }

    /// A constant member that must be the integer `value`.
    pub const fn int(value: i64) -> Self {
        Slot(RawSlot::Int(value), PhantomData)
    }
}

/// `field`'s offset from `base`.
///
/// # Safety
///
/// `field` points to a field of the `S` at `base`.
const unsafe fn offset<S, F>(base: *const S, field: *const F) -> usize {
    // SAFETY: the caller's promise: both are in the one `S`, `field` not before `base`.
    unsafe { field.cast::<u8>().offset_from(base.cast::<u8>()) as usize }
}

/// A slot of a type's slots struct `$s` (an optional member: every field of a slots struct
/// is an `Option`): its field `$f`'s place in an `$s` (never initialized, only pointed
/// into), so that the offset and the type [`Slot::optional`] stores are the field's. In a
/// `static`'s initializer, evaluated at compile time.
#[macro_export]
#[doc(hidden)]
macro_rules! slot {
    ($s:ident, $f:ident) => {{
        let slots = ::core::mem::MaybeUninit::<$s>::uninit();
        let base = slots.as_ptr();
        // SAFETY: `base` points to an `$s`, and the field pointer into it.
        unsafe { $crate::pull::Slot::optional(base, &raw const (*base).$f) }
    }};
    ($s:ident, box $f:ident) => {{
        let slots = ::core::mem::MaybeUninit::<$s>::uninit();
        let base = slots.as_ptr();
        // SAFETY: as above.
        unsafe { $crate::pull::Slot::optional_boxed(base, &raw const (*base).$f) }
    }};
}

/// A member's value decoded and written as `Some` at `slot`, an `Option<T>` holding nothing
/// to drop: one copy per member type serves every member of that type in every type.
///
/// # Safety
///
/// `slot` points to an `Option<T>` (initialized to `None`, or not at all) that nothing else
/// borrows.
unsafe fn fill_some<T: Decode>(p: &mut Parser<'_>, slot: *mut u8) -> Result<(), Error> {
    let value = T::decode(p)?;
    // SAFETY: the caller's promise.
    unsafe { slot.cast::<Option<T>>().write(Some(value)) };
    Ok(())
}

/// [`fill_some`] for an `Option<Box<T>>`.
///
/// # Safety
///
/// As for [`fill_some`], `slot` pointing to an `Option<Box<T>>`.
unsafe fn fill_some_boxed<T: Decode>(p: &mut Parser<'_>, slot: *mut u8) -> Result<(), Error> {
    let value = Box::new(T::decode(p)?);
    // SAFETY: the caller's promise.
    unsafe { slot.cast::<Option<Box<T>>>().write(Some(value)) };
    Ok(())
}

/// [`fill_plain`] for a `Box<T>`.
///
/// # Safety
///
/// As for [`fill_plain`], `place` pointing to a `Box<T>`.
unsafe fn fill_plain_boxed<T: Decode>(p: &mut Parser<'_>, place: *mut u8) -> Result<(), Error> {
    let value = Box::new(T::decode(p)?);
    // SAFETY: the caller's promise.
    unsafe { place.cast::<Box<T>>().write(value) };
    Ok(())
}

/// A member's value decoded and written at `place`, a `T` not initialized.
///
/// # Safety
///
/// `place` points to a `T`, not initialized, that nothing else borrows.
unsafe fn fill_plain<T: Decode>(p: &mut Parser<'_>, place: *mut u8) -> Result<(), Error> {
    let value = T::decode(p)?;
    // SAFETY: the caller's promise.
    unsafe { place.cast::<T>().write(value) };
    Ok(())
}

/// What a layout's template holds in each field before any member is read, by the field's
/// kind (the names of [`Slot`]'s constructors and of [`Rest`]'s): `None` for an optional
/// member, an empty [`Extra`] for the rest kept, nothing for the others (written when read,
/// or, a typed rest, when the loop starts). Called by [`layout!`](crate::layout) at compile
/// time, each with its field's place in the template.
#[doc(hidden)]
pub mod blank {
    use crate::Extra;

    /// `None`.
    ///
    /// # Safety
    ///
    /// `place` points to a field of a value that nothing else borrows.
    pub const unsafe fn optional<T>(place: *mut Option<T>) {
        // SAFETY: the caller's promise.
        unsafe { place.write(None) }
    }

    /// [`optional`]'s `None`.
    ///
    /// # Safety
    ///
    /// As for [`optional`].
    pub const unsafe fn nullable<T>(place: *mut Option<T>) {
        // SAFETY: the caller's promise.
        unsafe { optional(place) }
    }

    /// [`optional`]'s `None`.
    ///
    /// # Safety
    ///
    /// As for [`optional`].
    pub const unsafe fn optional_boxed<T>(place: *mut Option<Box<T>>) {
        // SAFETY: the caller's promise.
        unsafe { optional(place) }
    }

    /// Nothing: written when read.
    pub const fn required<T>(_: *mut T) {}

    /// Nothing: written when read.
    pub const fn required_boxed<T>(_: *mut Box<T>) {}

    /// Nothing: written when read.
    pub const fn object<T>(_: *mut T) {}

    /// An empty [`Extra`].
    ///
    /// # Safety
    ///
    /// As for [`optional`].
    pub const unsafe fn keep(place: *mut Extra) {
        // SAFETY: the caller's promise.
        unsafe { place.write(Extra::new()) }
    }

    /// Nothing: an `IndexMap` is made when the loop starts.
    pub const fn typed<V>(_: *mut indexmap::IndexMap<String, V>) {}

    /// Nothing: no field.
    pub const fn deny() {}
}

/// The `T` at `place` dropped.
///
/// # Safety
///
/// `place` points to a `T` that is initialized and never used again.
unsafe fn drop_at<T>(place: *mut u8) {
    // SAFETY: the caller's promise.
    unsafe { place.cast::<T>().drop_in_place() }
}

/// The one object loop, for a slots struct `s` (every slot `None` at first; a union's group
/// decoded in one pass). Every declared member goes once to its slot, decoded as `slots`
/// says (the entry at the key's index in `table`); a second one is "duplicate member `k`".
/// Unknown members go to `unknown`; required members are checked at the end, all missing
/// ones named at once ("missing members `a`, `b` in {expecting}"). Errors from a member's
/// value get its key in their pointer. With [`Start::AfterTag`], the members before the tag
/// (if it was not the first) are read again from the object's start, the tag's value is
/// stored (or, for a constant, counted as seen: the union matched it), and the loop goes on
/// after it. An object type decodes with the same loop into itself: [`in_place`].
#[inline]
pub fn object<S>(
    p: &mut Parser<'_>,
    table: &Table<S>,
    start: Start,
    unknown: Unknown<'_>,
    s: &mut S,
) -> Result<(), Error> {
    members(p, table, start, unknown, s).map(|_| ())
}

/// [`object()`], returning the declared members met (bit `i`: `table.keys[i]`; a tag read
/// by a union counts when `keys` declares it).
#[inline]
pub(super) fn members<S>(
    p: &mut Parser<'_>,
    table: &Table<S>,
    start: Start,
    unknown: Unknown<'_>,
    s: &mut S,
) -> Result<u64, Error> {
    debug_assert_eq!(table.slots.len(), table.keys.len(), "a slot per key");
    let base = (s as *mut S).cast();
    // SAFETY: `base` is the `S` the table was made for, borrowed mutably for the loop, its
    // slots `Option`s that hold `None` or a value, never uninitialized.
    unsafe { object_loop(p, &table.erased(), start, Some(unknown), base) }
}

/// The one object loop, for a slots struct ([`object()`], `unknown` given) or a type decoded in
/// place ([`in_place`], `unknown` `None`: the table's rest). Returns the declared members met
/// (decoded, or checked for a constant, and written at their places). Decoding in place, the
/// value starts as the layout's template (an absent optional member stays `None`); on an
/// error, what was written is dropped (the member that failed wrote nothing).
///
/// # Safety
///
/// `base` points to the value `table` was made for, which nothing else borrows: a slots struct
/// (each slot holding nothing to drop), or, in place, a value not initialized.
unsafe fn object_loop(
    p: &mut Parser<'_>,
    table: &Erased,
    start: Start,
    unknown: Option<Unknown<'_>>,
    base: *mut u8,
) -> Result<u64, Error> {
    debug_assert!(table.keys.len() <= 64);
    let in_place = unknown.is_none();
    if in_place {
        // SAFETY: the value at `base` is the template's type (`Layout::new`'s promise) and
        // not initialized: its bytes are the template's, optional fields `None`.
        unsafe {
            core::ptr::copy_nonoverlapping(
                table.template.as_ptr().cast::<u8>(),
                base,
                table.template.len(),
            )
        }
    }
    let mut insert;
    // SAFETY (the three blocks): in place, the rest's offset is that of a field of the value at
    // `base` (`Rest`'s constructors), of the type each function reads; no slot is that field
    // (`Layout::new`'s promise), so the borrow of it is the only one.
    let unknown = match (unknown, table.rest) {
        // Each variant again, for the borrows' lifetimes to shorten to the loop's.
        (Some(Unknown::Keep(extra)), _) => Unknown::Keep(extra),
        (Some(Unknown::Deny), _) => Unknown::Deny,
        (Some(Unknown::Typed(f)), _) => Unknown::Typed(f),
        (None, RawRest::Deny) => Unknown::Deny,
        (None, RawRest::Keep { offset }) => unsafe {
            // The template's empty `Extra`.
            Unknown::Keep(&mut *base.add(offset).cast::<Extra>())
        },
        (
            None,
            RawRest::Typed {
                offset,
                init,
                insert: add,
                ..
            },
        ) => {
            let map = unsafe { base.add(offset) };
            unsafe { init(map) };
            insert = move |p: &mut Parser<'_>, key: String| unsafe { add(p, map, key) };
            Unknown::Typed(&mut insert)
        }
    };
    let mut m = Members {
        table,
        seen: 0,
        envelope: start == Start::Message,
        unknown,
        base,
    };
    match m.object(p, start) {
        Ok(()) => Ok(m.seen),
        Err(e) => {
            let mut written = table.fields & m.seen;
            while written != 0 {
                let i = written.trailing_zeros() as usize;
                written &= written - 1;
                if let Some(
                    RawSlot::At { offset, drop, .. } | RawSlot::Object { offset, drop, .. },
                ) = table.slots.get(i)
                {
                    // SAFETY: in place (a slots struct has no `fields` bits), the loop wrote
                    // the field (its bit is in `seen`), of the type `drop` drops; it is not
                    // read again.
                    unsafe { drop(base.add(*offset)) };
                }
            }
            if in_place {
                // SAFETY: the rest was written above and is not read again.
                match table.rest {
                    RawRest::Deny => {}
                    RawRest::Keep { offset } => unsafe {
                        base.add(offset).cast::<Extra>().drop_in_place()
                    },
                    RawRest::Typed { offset, drop, .. } => unsafe { drop(base.add(offset)) },
                }
            }
            Err(e)
        }
    }
}

/// The tables of an object type decoded in place ([`in_place`]; [`InPlace::LAYOUT`] for a
/// generated type, made by [`layout!`](crate::layout)): its keys, where each member goes in a `T`
/// itself and what decodes it, and where the members it does not declare go.
pub struct Layout<T: 'static> {
    table: Erased,
    ty: PhantomData<fn() -> T>,
}

/// Where an object type keeps the members it does not declare.
#[derive(Clone, Copy)]
pub struct Rest(RawRest);

#[derive(Clone, Copy)]
enum RawRest {
    /// Refused ([`Unknown::Deny`]).
    Deny,
    /// Kept in the [`Extra`] at `offset` ([`Unknown::Keep`]).
    Keep { offset: usize },
    /// Decoded into the map at `offset` (`additionalProperties` with a schema,
    /// [`Unknown::Typed`]): made empty by `init`, a member added by `insert`, dropped by
    /// `drop` on an error.
    Typed {
        offset: usize,
        init: Place,
        insert: Insert,
        drop: Place,
    },
}

/// What adds an unknown member to a typed map at the pointer ([`insert_at`]).
type Insert = unsafe fn(&mut Parser<'_>, *mut u8, String) -> Result<(), Error>;

impl Rest {
    /// Unknown members are refused: "unknown member `k`".
    pub const fn deny() -> Self {
        Rest(RawRest::Deny)
    }

    /// Unknown members are kept in the field at `field`, an [`Extra`].
    ///
    /// # Safety
    ///
    /// As for [`Slot::optional`]: `field` points to a field of the `T` at `base`.
    pub const unsafe fn keep<T>(base: *const T, field: *const Extra) -> Self {
        // SAFETY: the caller's promise.
        Rest(RawRest::Keep {
            offset: unsafe { offset(base, field) },
        })
    }

    /// Unknown members are decoded as `V` into the map at `field`.
    ///
    /// # Safety
    ///
    /// As for [`Rest::keep`], the field's type being `IndexMap<String, V>`.
    pub const unsafe fn typed<T, V: Decode>(
        base: *const T,
        field: *const indexmap::IndexMap<String, V>,
    ) -> Self {
        // SAFETY: the caller's promise.
        Rest(RawRest::Typed {
            offset: unsafe { offset(base, field) },
            init: new_map::<V>,
            insert: insert_at::<V>,
            drop: drop_at::<indexmap::IndexMap<String, V>>,
        })
    }
}

/// An empty `IndexMap<String, V>` written at `place`.
///
/// # Safety
///
/// `place` points to an `IndexMap<String, V>`, not initialized, that nothing else borrows.
unsafe fn new_map<V>(place: *mut u8) {
    // SAFETY: the caller's promise.
    unsafe {
        place
            .cast::<indexmap::IndexMap<String, V>>()
            .write(indexmap::IndexMap::new())
    }
}

/// [`insert_unknown`] into the map at `map`.
///
/// # Safety
///
/// `map` points to an initialized `IndexMap<String, V>` that nothing else borrows.
unsafe fn insert_at<V: Decode>(p: &mut Parser<'_>, map: *mut u8, key: String) -> Result<(), Error> {
    // SAFETY: the caller's promise.
    let map = unsafe { &mut *map.cast::<indexmap::IndexMap<String, V>>() };
    insert_unknown(p, map, key)
}

impl<T> Layout<T> {
    /// The layout of `T`: `keys` its declared members (fields first, then constants), each
    /// placed by the entry of `slots` at its index; `rest` the place of the others. A
    /// required member is one whose slot is not optional, or a constant. At
    /// most 64 keys (the masks are `u64`): more fail to compile, the constant unevaluable.
    ///
    /// # Safety
    ///
    /// `slots` (made for `T`, by [`Slot`]'s constructors) and `rest` are the places of every
    /// field of `T`, each once: once they are written, a `T` is. `template` is the bytes of a `T`
    /// whose optional slots' fields are `None` and whose rest kept is an empty [`Extra`] (what
    /// [`blank`] writes), the other fields not initialized.
    pub const unsafe fn new(
        expecting: &'static str,
        keys: &'static [&'static str],
        slots: &'static [Slot<T>],
        rest: Rest,
        template: &'static [MaybeUninit<u8>],
    ) -> Self {
        assert!(keys.len() == slots.len() && keys.len() <= 64);
        assert!(template.len() == size_of::<T>());
        let (mut required, mut consts, mut fields) = (0u64, 0u64, 0u64);
        let mut i = 0;
        while i < slots.len() {
            match slots[i].0 {
                RawSlot::At { optional: true, .. } => fields |= 1 << i,
                RawSlot::At {
                    optional: false, ..
                }
                | RawSlot::Object { .. } => {
                    fields |= 1 << i;
                    required |= 1 << i;
                }
                RawSlot::Str(_) | RawSlot::Int(_) => {
                    consts |= 1 << i;
                    required |= 1 << i;
                }
            }
            i += 1;
        }
        // SAFETY: `Slot<T>` is `repr(transparent)` over `RawSlot`.
        let slots = unsafe { core::slice::from_raw_parts(slots.as_ptr().cast(), slots.len()) };
        Layout {
            table: Erased {
                expecting,
                keys,
                required,
                consts,
                slots,
                fields,
                template,
                rest: rest.0,
            },
            ty: PhantomData,
        }
    }
}

/// An object type decoded in place: its [`Layout`] (made by [`layout!`](crate::layout)) is all
/// a generated type declares; its [`DecodeObject`](super::DecodeObject), and so its
/// [`Decode`], is [`in_place`] with it.
pub trait InPlace: Sized + 'static {
    /// Where each member goes in the type, and what decodes it.
    const LAYOUT: Layout<Self>;
}

impl<T: InPlace> super::DecodeObject for T {
    #[inline]
    fn decode_object(p: &mut Parser<'_>, start: Start) -> Result<Self, Error> {
        in_place(p, &T::LAYOUT, start)
    }
}

/// An object type decoded into itself, with the one object loop ([`object()`]'s): the value
/// starts as the layout's template (optional fields `None`, the `Extra` empty), each member is
/// written at its field's place as it is read, the rest where `layout` keeps it. Nothing is
/// generated per type but the layout: no slots struct to fill and move, no constructor, and
/// no drop glue but the fields' own. On an error, what was written is dropped.
#[inline]
pub fn in_place<T>(p: &mut Parser<'_>, layout: &Layout<T>, start: Start) -> Result<T, Error> {
    let mut out = core::mem::MaybeUninit::<T>::uninit();
    // SAFETY: `layout` is `T`'s, `out` a `T` not initialized that nothing else borrows.
    unsafe { object_loop(p, &layout.table, start, None, out.as_mut_ptr().cast()) }?;
    // SAFETY: the loop returned `Ok`: every field is written (`Layout::new`'s promise).
    Ok(unsafe { out.assume_init() })
}

/// The [`Layout`] of object type `$t` (a path): its name in errors, the kind, field and key
/// of each declared member (`required(f, "k")`, `optional`, `nullable`, `object`,
/// `required_boxed`, `optional_boxed`: [`Slot`]'s constructors), its constant members (`str("k", "v")`,
/// `int("k", 1)`), and where the others go (`keep(extra)`, `typed(extra)`, `deny()`). The
/// fields named must be all of `$t`'s, each once: a pattern checks it at compile time, which
/// is what makes the layout sound. A constant expression ([`InPlace::LAYOUT`]).
///
/// ```
/// use mcp_typed_runtime::pull::{InPlace, Layout, from_str};
///
/// struct Point { x: i64, y: Option<i64> }
/// impl InPlace for Point {
///     const LAYOUT: Layout<Self> = mcp_typed_runtime::layout!(
///         Point, "a Point object", [required(x, "x"), optional(y, "y")], [], deny(),
///     );
/// }
/// let p: Point = from_str(r#"{"x": 1}"#).unwrap();
/// assert_eq!((p.x, p.y), (1, None));
/// ```
///
/// A field left out does not compile (its place would never be written):
///
/// ```compile_fail,E0027
/// use mcp_typed_runtime::pull::{InPlace, Layout};
///
/// struct Point { x: i64, y: Option<i64> }
/// impl InPlace for Point {
///     const LAYOUT: Layout<Self> =
///         mcp_typed_runtime::layout!(Point, "a Point object", [required(x, "x")], [], deny());
/// }
/// ```
///
/// nor does a field named twice (two members written to one place),
///
/// ```compile_fail,E0025
/// use mcp_typed_runtime::pull::{InPlace, Layout};
///
/// struct Point { x: i64, y: Option<i64> }
/// impl InPlace for Point {
///     const LAYOUT: Layout<Self> = mcp_typed_runtime::layout!(
///         Point, "a Point object", [required(x, "x"), optional(y, "y"), required(x, "z")], [], deny(),
///     );
/// }
/// ```
///
/// or a kind that is not the field's type (an optional member's field is an `Option`):
///
/// ```compile_fail,E0308
/// use mcp_typed_runtime::pull::{InPlace, Layout};
///
/// struct Point { x: i64, y: Option<i64> }
/// impl InPlace for Point {
///     const LAYOUT: Layout<Self> = mcp_typed_runtime::layout!(
///         Point, "a Point object", [optional(x, "x"), optional(y, "y")], [], deny(),
///     );
/// }
/// ```
#[macro_export]
#[doc(hidden)]
macro_rules! layout {
    (
        $t:path,
        $expecting:expr,
        [$($kind:ident($f:ident, $key:expr)),* $(,)?],
        [$($ckind:ident($ckey:expr, $cv:expr)),* $(,)?],
        $rest:ident($($x:ident)?) $(,)?
    ) => {{
        // Every field of `$t` is named, once: an exhaustive pattern.
        const _: fn(&$t) = |v| {
            let $t { $($f: _,)* $($x: _,)? } = v;
        };
        const SLOTS: &[$crate::pull::Slot<$t>] = &[
            $($crate::layout!(@slot $t, $kind, $f),)*
            $($crate::pull::Slot::$ckind($cv),)*
        ];
        const REST: $crate::pull::Rest = $crate::layout!(@rest $t, $rest, $($x)?);
        const TEMPLATE: ::core::mem::MaybeUninit<$t> = {
            let mut value = ::core::mem::MaybeUninit::<$t>::uninit();
            let base = value.as_mut_ptr();
            // SAFETY: each place is a field of `value`, by its kind.
            unsafe {
                $($crate::pull::blank::$kind(&raw mut (*base).$f);)*
                $crate::pull::blank::$rest($(&raw mut (*base).$x)?);
            }
            value
        };
        // The template as bytes (a type with interior mutability is not promoted to a
        // `'static` reference; its bytes are).
        const BYTES: [::core::mem::MaybeUninit<u8>; ::core::mem::size_of::<$t>()] =
            // SAFETY: the same size; each byte may be uninitialized.
            unsafe { ::core::mem::transmute(TEMPLATE) };
        // SAFETY: the pattern above: the slots and the rest are the places of every field of
        // `$t`, each once, each made from the field's own place; the template is written by
        // each field's kind.
        unsafe {
            $crate::pull::Layout::new(
                $expecting,
                &[$($key,)* $($ckey,)*],
                SLOTS,
                REST,
                &BYTES,
            )
        }
    }};
    (@slot $t:path, $kind:ident, $f:ident) => {{
        let place = ::core::mem::MaybeUninit::<$t>::uninit();
        let base = place.as_ptr();
        // SAFETY: `base` points to a `$t`, and the field pointer into it.
        unsafe { $crate::pull::Slot::$kind(base, &raw const (*base).$f) }
    }};
    (@rest $t:path, deny,) => {
        $crate::pull::Rest::deny()
    };
    (@rest $t:path, $rest:ident, $x:ident) => {{
        let place = ::core::mem::MaybeUninit::<$t>::uninit();
        let base = place.as_ptr();
        // SAFETY: as for a slot.
        unsafe { $crate::pull::Rest::$rest(base, &raw const (*base).$x) }
    }};
}

/// The state of one object's loop: what each member is done with.
struct Members<'t, 'u> {
    table: &'t Erased,
    seen: u64,
    /// `jsonrpc` and `id` are the message's ([`Start::Message`]).
    envelope: bool,
    unknown: Unknown<'u>,
    /// The slots struct `table.slots` describes, erased.
    base: *mut u8,
}

impl Members<'_, '_> {
    /// The object's members, from `start`.
    fn object(&mut self, p: &mut Parser<'_>, start: Start) -> Result<(), Error> {
        let table = self.table;
        // Where the current key was read from (to read it again for an error's pointer).
        let mut key_mark;
        // The slot (or unknown key) of the tag a `NoTag` guess must not meet.
        let no_tag = match start {
            Start::NoTag { tag } => Some(index_or_key(table.keys, tag)),
            _ => None,
        };
        let mut next = match start {
            Start::Value | Start::Message | Start::NoTag { .. } => {
                let kind = p.peek()?;
                if kind != Kind::Object {
                    return Err(p.wrong(table.expecting, kind));
                }
                key_mark = p.mark();
                lookup(table, p.object_first()?)
            }
            Start::AfterTag { tag, mark, value } => {
                self.before_tag(p, mark, tag)?;
                if let Some(i) = position(table.keys, tag) {
                    if table.consts & (1 << i) == 0 {
                        self.field(&mut p.at(value), i)
                            .map_err(|e| e.in_key(table.keys[i]))?;
                    }
                    self.seen |= 1 << i;
                }
                key_mark = p.mark();
                lookup(table, p.object_next()?)
            }
        };
        while let Some(key) = next {
            if no_tag.is_some() && no_tag.as_ref() == Some(&key) {
                return Err(tag_met());
            }
            self.member(p, key, key_mark)?;
            key_mark = p.mark();
            next = lookup(table, p.object_next()?);
        }
        if table.required & !self.seen != 0 {
            return Err(missing(p, table, self.seen));
        }
        Ok(())
    }

    /// The member at `index` decoded into its slot (a constant: checked). Always inlined in
    /// its one caller, [`Members::member`] (left to the heuristics, whether it is depends on
    /// how the crate's code is split into codegen units: +1 % instructions when not).
    #[inline(always)]
    fn field(&mut self, p: &mut Parser<'_>, index: usize) -> Result<(), Error> {
        match self.table.slots.get(index) {
            // SAFETY: `base` is the struct the table was made for, which nothing else
            // borrows (`object_loop`'s promise); `Slot`'s constructors promise that `offset`
            // is that of a field of it of the type `fill` writes; the member was not seen
            // (`member`), so its place holds nothing to drop.
            Some(RawSlot::At { offset, fill, .. }) => unsafe { fill(p, self.base.add(*offset)) },
            // SAFETY: as above; `table` is the layout of the field's type (`Slot::object`),
            // and the field is not initialized: the loop decodes it in place.
            Some(RawSlot::Object { offset, table, .. }) => unsafe {
                object_loop(p, table, Start::Value, None, self.base.add(*offset)).map(|_| ())
            },
            Some(RawSlot::Str(v)) => const_str(p, v),
            Some(RawSlot::Int(v)) => const_int(p, *v),
            None => Ok(()),
        }
    }

    /// One member, its key read (`key`: its index, or the key when undeclared; `key_mark`:
    /// where the key was read from), its value next.
    fn member(
        &mut self,
        p: &mut Parser<'_>,
        key: Result<usize, String>,
        key_mark: usize,
    ) -> Result<(), Error> {
        let table = self.table;
        match key {
            Ok(i) => {
                let bit = 1 << i;
                if self.seen & bit != 0 {
                    let key = table.keys[i];
                    return Err(p.repeated(key).in_key(key));
                }
                self.field(p, i).map_err(|e| e.in_key(table.keys[i]))?;
                self.seen |= bit;
                Ok(())
            }
            Err(key) if self.envelope && (key == "jsonrpc" || key == "id") => p.skip(),
            Err(key) => match &mut self.unknown {
                Unknown::Keep(map) => {
                    let v = value(p).map_err(|e| e.in_member(&key))?;
                    if map.contains_key(&key) {
                        return Err(p.repeated(&key).in_member(&key));
                    }
                    map.insert(key, v);
                    Ok(())
                }
                Unknown::Deny => Err(denied(p, table, &key)),
                // The key moves to `f`: on an error it is read again from the input.
                Unknown::Typed(f) => f(p, key).map_err(|e| e.in_member(&p.key_at(key_mark))),
            },
        }
    }

    /// The members before the first `tag` of the object at `mark` (none when the tag came
    /// first, as encoders write it), read again. ([`Merged`](super::Merged) has its own
    /// copy of this loop: a walker shared through a closure cost the object loop more than
    /// it saved, see `Merged::score`.)
    fn before_tag(&mut self, p: &Parser<'_>, mark: usize, tag: &str) -> Result<(), Error> {
        let mut q = p.reopen(mark);
        q.peek()?;
        let mut key_mark = q.mark();
        let mut key = q.object_first()?;
        while let Some(k) = key {
            if same_str(k, tag) {
                break;
            }
            let k = index_or_key(self.table.keys, k);
            self.member(&mut q, k, key_mark)?;
            key_mark = q.mark();
            key = q.object_next()?;
        }
        Ok(())
    }
}

#[inline]
fn lookup(table: &Erased, key: Option<&str>) -> Option<Result<usize, String>> {
    key.map(|k| index_or_key(table.keys, k))
}

/// A [`Start::NoTag`] guess that failed: the object has the tag (or the decoder cannot tell).
/// Never reaches a caller: the union decodes the object again.
#[cold]
pub(super) fn tag_met() -> Error {
    Error::unplaced("the union's tag is present".to_owned())
}

/// Every required member not seen, named at once.
#[cold]
fn missing(p: &Parser<'_>, table: &Erased, seen: u64) -> Error {
    let missing: Vec<&str> = (0..table.keys.len())
        .filter(|&i| table.required & !seen & (1 << i) != 0)
        .map(|i| table.keys[i])
        .collect();
    let s = if missing.len() == 1 { "" } else { "s" };
    p.error(format!(
        "missing member{s} `{}` in {}",
        missing.join("`, `"),
        table.expecting
    ))
}

/// serde's wording for an unknown field.
#[cold]
fn denied(p: &Parser<'_>, table: &Erased, key: &str) -> Error {
    let message = match table.keys {
        [] => format!("unknown member `{key}`, there are no members"),
        [one] => format!("unknown member `{key}`, expected `{one}`"),
        keys => format!(
            "unknown member `{key}`, expected one of `{}`",
            keys.join("`, `")
        ),
    };
    p.error(message).in_member(key)
}

/// A member that must be the string `expected` (a constant member, or a tag read by an
/// object's own decoder).
pub(crate) fn const_str(p: &mut Parser<'_>, expected: &str) -> Result<(), Error> {
    match p.peek()? {
        Kind::String => {
            let mark = p.mark();
            let s = p.str()?;
            if same_str(s, expected) {
                Ok(())
            } else {
                let found = format!("string {s:?}");
                Err(p.invalid_value(mark, &found, &format!("{expected:?}")))
            }
        }
        k => Err(p.wrong(&format!("{expected:?}"), k)),
    }
}

/// A member that must be the integer `expected`.
pub(crate) fn const_int(p: &mut Parser<'_>, expected: i64) -> Result<(), Error> {
    match p.peek()? {
        Kind::Number => {
            let mark = p.mark();
            let n = p.number()?;
            if n.as_i64() == Some(expected) {
                Ok(())
            } else {
                let expected = expected.to_string();
                Err(p.invalid_value(mark, &unexpected_number(&n), &expected))
            }
        }
        k => Err(p.wrong(&expected.to_string(), k)),
    }
}

/// A slot the object loop has checked is filled (a required member). Empty only if the
/// table does not mark `key` required: an error without a position.
#[inline]
pub fn required<T>(slot: Option<T>, key: &'static str) -> Result<T, Error> {
    match slot {
        Some(v) => Ok(v),
        None => Err(missing_slot(key)),
    }
}

/// [`required`]'s error, out of the generic function (one copy, not one per member type).
#[cold]
fn missing_slot(key: &'static str) -> Error {
    Error::unplaced(format!("missing member `{key}`"))
}

/// Decodes an object from its `{` with `f`, wherever `start` left the parser: after a tag
/// read by a union, the rest of the object is skipped and `f` runs on it again from its
/// `{` (for members a tag value selects that are not decoded member by member: a map, or
/// a group told apart by shape).
pub fn whole<T>(
    p: &mut Parser<'_>,
    start: Start,
    f: impl FnOnce(&mut Parser<'_>) -> Result<T, Error>,
) -> Result<T, Error> {
    match start {
        Start::Value | Start::Message => f(p),
        Start::NoTag { .. } => Err(tag_met()),
        Start::AfterTag { mark, .. } => {
            super::skip_rest(p)?;
            f(&mut p.at(mark))
        }
    }
}

/// A string that must be one of `values` (a string enum): its index. Anything else is
/// "unknown variant `x`, expected one of `a`, `b`", as serde words it.
pub fn one_of(p: &mut Parser<'_>, values: &[&str], expecting: &str) -> Result<usize, Error> {
    match p.peek()? {
        Kind::String => {
            let mark = p.mark();
            let s = p.str()?;
            match position(values, s) {
                Some(i) => Ok(i),
                None => {
                    let s = s.to_owned();
                    Err(unknown_variant(p, mark, &s, values))
                }
            }
        }
        k => Err(p.wrong(expecting, k)),
    }
}

#[cold]
fn unknown_variant(p: &Parser<'_>, mark: usize, s: &str, values: &[&str]) -> Error {
    p.at(mark).error(format!(
        "unknown variant `{s}`, expected one of `{}`",
        values.join("`, `")
    ))
}

/// An unknown member decoded as `T` (`additionalProperties` with a schema) and kept; a
/// second one of the same name is refused.
pub fn insert_unknown<T: Decode>(
    p: &mut Parser<'_>,
    map: &mut indexmap::IndexMap<String, T>,
    key: String,
) -> Result<(), Error> {
    let v = T::decode(p)?;
    if map.contains_key(&key) {
        return Err(p.repeated(&key));
    }
    map.insert(key, v);
    Ok(())
}
