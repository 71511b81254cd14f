//! The revision registry: the one list of revisions, read from the schema manifest.
//!
//! `schema/manifest.json` lists every revision the project generates, oldest first (dated
//! revisions by date, a draft last). Everything that depends on that list is derived from it
//! here: the Rust module and cargo feature of a revision, its `ProtocolVersion` variant and
//! the string it is sent as, which revision is the latest release. `mcp-typed-codegen
//! generate` writes the `mcp-typed-types` files that enumerate revisions from it (see
//! [`crate::layout`]), so adding a revision is `fetch --add`, `generate`, and a feature line
//! in `generated/Cargo.toml` and in `mcp-typed/Cargo.toml`.

use std::path::Path;
use std::sync::OnceLock;

use heck::ToUpperCamelCase;

use crate::error::{Error, Result};
use crate::manifest::{Manifest, Status};

/// One revision of the registry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revision {
    /// The revision's name in the manifest and in the spec repository: `2025-11-25`, `draft`.
    pub name: String,
    /// Its Rust module in `mcp-typed`, which is also its cargo feature: `v2025_11_25`.
    pub module: String,
    /// Its `ProtocolVersion` variant: `V2025_11_25`, `Draft`.
    pub variant: String,
    /// The `protocolVersion` string peers exchange: the name, unless the manifest says
    /// otherwise (the draft's `DRAFT-2026-v1`).
    pub protocol_version: String,
    /// Released or draft.
    pub status: Status,
}

/// The revisions of a manifest, oldest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registry {
    revisions: Vec<Revision>,
}

impl Registry {
    /// The registry of a parsed manifest.
    pub fn from_manifest(manifest: &Manifest) -> Self {
        let revisions = manifest
            .revisions
            .iter()
            .map(|(name, entry)| {
                let module = module_name(name);
                Revision {
                    variant: module.to_upper_camel_case_keeping_digits(),
                    module,
                    protocol_version: entry.protocol_version.clone().unwrap_or(name.clone()),
                    status: entry.status,
                    name: name.clone(),
                }
            })
            .collect();
        Registry { revisions }
    }

    /// The registry of the manifest built into this generator (the project's
    /// `schema/manifest.json` when it was built).
    pub fn builtin() -> &'static Registry {
        static BUILTIN: OnceLock<Registry> = OnceLock::new();
        BUILTIN.get_or_init(|| {
            // A unit test parses the built-in manifest, so this cannot fail in a release.
            let manifest = Manifest::builtin().expect("the built-in manifest is valid");
            Registry::from_manifest(&manifest)
        })
    }

    /// The registry of a workspace: its `schema/manifest.json` when it has one, else the
    /// built-in one (a `build.rs` or a CLI run outside the project).
    pub fn for_workspace(workspace: &Path) -> Result<Registry> {
        let path = Manifest::path_in(workspace);
        if path.is_file() {
            Ok(Registry::from_manifest(&Manifest::load(&path)?))
        } else {
            Ok(Registry::builtin().clone())
        }
    }

    /// Every revision, oldest first.
    pub fn revisions(&self) -> &[Revision] {
        &self.revisions
    }

    /// The names of every revision, oldest first.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &str> {
        self.revisions.iter().map(|r| r.name.as_str())
    }

    /// The revision named `name`, or an error listing the known ones.
    pub fn get(&self, name: &str) -> Result<&Revision> {
        self.revisions
            .iter()
            .find(|r| r.name == name)
            .ok_or_else(|| {
                Error::Config(format!(
                    "unknown revision {name:?}; known: {}",
                    self.names().collect::<Vec<_>>().join(", ")
                ))
            })
    }

    /// The newest released revision.
    pub fn latest_release(&self) -> Option<&Revision> {
        self.revisions
            .iter()
            .rev()
            .find(|r| r.status == Status::Final)
    }

    /// The revisions from `first` on, oldest first (empty when `first` is unknown).
    pub fn since(&self, first: &str) -> impl Iterator<Item = &Revision> {
        self.revisions.iter().skip_while(move |r| r.name != first)
    }
}

/// The Rust module (and cargo feature) of a revision: `2025-06-18` → `v2025_06_18`.
pub fn module_name(revision: &str) -> String {
    if revision.starts_with(|c: char| c.is_ascii_digit()) {
        format!("v{}", revision.replace('-', "_"))
    } else {
        revision.replace('-', "_")
    }
}

/// `v2025_11_25` → `V2025_11_25` (heck would write `V20251125`), `draft` → `Draft`.
trait VariantName {
    fn to_upper_camel_case_keeping_digits(&self) -> String;
}

impl VariantName for String {
    fn to_upper_camel_case_keeping_digits(&self) -> String {
        if self.contains(|c: char| c.is_ascii_digit()) {
            let mut s = self.clone();
            s[..1].make_ascii_uppercase();
            s
        } else {
            self.to_upper_camel_case()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_registry_is_the_project_manifest() {
        let r = Registry::builtin();
        let names: Vec<&str> = r.names().collect();
        assert_eq!(
            names,
            [
                "2024-11-05",
                "2025-03-26",
                "2025-06-18",
                "2025-11-25",
                "2026-07-28",
                "draft"
            ]
        );
        let draft = r.get("draft").unwrap();
        assert_eq!(
            (
                draft.module.as_str(),
                draft.variant.as_str(),
                draft.protocol_version.as_str(),
                draft.status
            ),
            ("draft", "Draft", "DRAFT-2026-v1", Status::Draft)
        );
        let dated = r.get("2025-11-25").unwrap();
        assert_eq!(
            (
                dated.module.as_str(),
                dated.variant.as_str(),
                dated.protocol_version.as_str()
            ),
            ("v2025_11_25", "V2025_11_25", "2025-11-25")
        );
        assert_eq!(r.latest_release().unwrap().name, "2026-07-28");
        assert_eq!(
            r.since("2025-11-25")
                .map(|r| r.name.as_str())
                .collect::<Vec<_>>(),
            ["2025-11-25", "2026-07-28", "draft"]
        );
        let e = r.get("2099-01-01").unwrap_err().to_string();
        assert!(
            e.contains("unknown revision \"2099-01-01\"; known: 2024-11-05"),
            "{e}"
        );
    }

    #[test]
    fn module_names() {
        assert_eq!(module_name("2025-06-18"), "v2025_06_18");
        assert_eq!(module_name("draft"), "draft");
        assert_eq!(module_name("next-draft"), "next_draft");
        assert_eq!(
            "next_draft".to_owned().to_upper_camel_case_keeping_digits(),
            "NextDraft"
        );
    }
}
