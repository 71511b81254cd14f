//! The protocol revisions mcp-typed knows, for `#[elicit(since = "..")]` and
//! `#[elicit(min_revision = "..")]`, and what each can express.
//!
//! The macro cannot use `mcp_typed::ProtocolVersion` (mcp-typed depends on this crate), so
//! the list is kept here. `tests/tests/elicit_since.rs` includes this file and checks that it
//! agrees with `ProtocolVersion::ALL` and with the runtime's rules; and the expansion resolves
//! the names with `ProtocolVersion` at compile time, so a name this list has and the crate
//! lacks fails to compile rather than drifting. This file uses `std` only.

/// `ProtocolVersion::ALL`, oldest first, by `as_str()`. Add a revision here when the
/// generator learns one (`mcp-typed-codegen fetch --add`).
pub const REVISIONS: &[&str] = &[
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
    "DRAFT-2026-v1",
];

/// The first revision with elicitation.
pub const ELICITATION: &str = "2025-06-18";

/// The first revision that can express a multi-select (`type: array`).
pub const MULTI_SELECT: &str = "2025-11-25";

/// A revision in [`REVISIONS`], ordered as they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Revision(usize);

impl Revision {
    /// The revision named `name`, as `ProtocolVersion`'s `FromStr` reads it (exactly).
    pub fn from_name(name: &str) -> Option<Revision> {
        REVISIONS.iter().position(|r| *r == name).map(Revision)
    }

    /// The name on the wire.
    pub fn name(self) -> &'static str {
        REVISIONS[self.0]
    }

    /// The first revision with elicitation.
    pub fn elicitation() -> Revision {
        Revision::known(ELICITATION)
    }

    /// The first revision that can express a multi-select.
    pub fn multi_select() -> Revision {
        Revision::known(MULTI_SELECT)
    }

    fn known(name: &str) -> Revision {
        match Revision::from_name(name) {
            Some(r) => r,
            None => panic!("{name} is not in REVISIONS"),
        }
    }

    /// Every known revision, quoted, for messages.
    pub fn list() -> String {
        REVISIONS
            .iter()
            .map(|r| format!("\"{r}\""))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl std::fmt::Display for Revision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
