//! Attribute names, in one place (as serde_derive's `symbol.rs`).

use std::fmt;

use syn::{Ident, Path};

/// An attribute name.
#[derive(Copy, Clone, PartialEq, Eq)]
pub struct Symbol(pub &'static str);

pub const ELICIT: Symbol = Symbol("elicit");
pub const SERDE: Symbol = Symbol("serde");
pub const DOC: Symbol = Symbol("doc");

pub const CRATE: Symbol = Symbol("crate");
pub const RENAME: Symbol = Symbol("rename");
pub const RENAME_ALL: Symbol = Symbol("rename_all");
pub const TITLE: Symbol = Symbol("title");
pub const DESCRIPTION: Symbol = Symbol("description");
pub const DEFAULT: Symbol = Symbol("default");
pub const FORMAT: Symbol = Symbol("format");
pub const MIN_LENGTH: Symbol = Symbol("min_length");
pub const MAX_LENGTH: Symbol = Symbol("max_length");
pub const PATTERN: Symbol = Symbol("pattern");
pub const MINIMUM: Symbol = Symbol("minimum");
pub const MAXIMUM: Symbol = Symbol("maximum");
pub const MIN_ITEMS: Symbol = Symbol("min_items");
pub const MAX_ITEMS: Symbol = Symbol("max_items");
pub const NOT_SENSITIVE: Symbol = Symbol("not_sensitive");
pub const LEGACY_ENUM_NAMES: Symbol = Symbol("legacy_enum_names");
pub const SINCE: Symbol = Symbol("since");
pub const MIN_REVISION: Symbol = Symbol("min_revision");

/// Keys of `#[elicit(..)]` on a struct.
pub const STRUCT_KEYS: &[Symbol] = &[RENAME_ALL, TITLE, DESCRIPTION, MIN_REVISION, CRATE];
/// Keys of `#[elicit(..)]` on an enum.
pub const ENUM_KEYS: &[Symbol] = &[RENAME_ALL, CRATE];
/// Keys of `#[elicit(..)]` on a variant.
pub const VARIANT_KEYS: &[Symbol] = &[RENAME, TITLE];
/// Keys of `#[elicit(..)]` on a field.
pub const FIELD_KEYS: &[Symbol] = &[
    RENAME,
    TITLE,
    DESCRIPTION,
    DEFAULT,
    SINCE,
    FORMAT,
    MIN_LENGTH,
    MAX_LENGTH,
    PATTERN,
    MINIMUM,
    MAXIMUM,
    MIN_ITEMS,
    MAX_ITEMS,
    LEGACY_ENUM_NAMES,
    NOT_SENSITIVE,
];

/// `a, b, c` for messages.
pub fn list(symbols: &[Symbol]) -> String {
    symbols
        .iter()
        .map(|s| format!("`{}`", s.0))
        .collect::<Vec<_>>()
        .join(", ")
}

impl PartialEq<Symbol> for Ident {
    fn eq(&self, word: &Symbol) -> bool {
        self == word.0
    }
}

impl PartialEq<Symbol> for &Ident {
    fn eq(&self, word: &Symbol) -> bool {
        *self == word.0
    }
}

impl PartialEq<Symbol> for Path {
    fn eq(&self, word: &Symbol) -> bool {
        self.is_ident(word.0)
    }
}

impl PartialEq<Symbol> for &Path {
    fn eq(&self, word: &Symbol) -> bool {
        self.is_ident(word.0)
    }
}

impl fmt::Display for Symbol {
    fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str(self.0)
    }
}
