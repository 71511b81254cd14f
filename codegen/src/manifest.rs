//! The schema manifest, `schema/manifest.json`: for every revision, where its official
//! `schema.json` lives upstream (pinned to one commit of the specification repository), its
//! SHA-256, its JSON Schema dialect and its status.
//!
//! `mcp-typed-codegen fetch` reads it to download and verify the files; the list of revisions must
//! is the project's [revision registry](crate::registry).
//!
//! ```json
//! {
//!   "spec_repository": "https://github.com/modelcontextprotocol/modelcontextprotocol",
//!   "spec_commit": "b0f60ba5409db7a6582440a7b473cc0398890f15",
//!   "revisions": {
//!     "2025-06-18": {
//!       "url": "https://raw.githubusercontent.com/…/schema/2025-06-18/schema.json",
//!       "sha256": "af845e7e…",
//!       "dialect": "draft-07",
//!       "status": "final",
//!       "ts": { "url": "https://raw.githubusercontent.com/…/schema/2025-06-18/schema.ts", "sha256": "…" }
//!     }
//!   }
//! }
//! ```

use std::fmt;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};

/// The manifest's path relative to the workspace root.
pub const MANIFEST_PATH: &str = "schema/manifest.json";

/// The parsed `schema/manifest.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Free text for human readers.
    #[serde(rename = "$comment", default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The specification repository the files come from.
    pub spec_repository: String,
    /// The commit of that repository every URL is pinned to.
    pub spec_commit: String,
    /// Every revision, oldest first, in file order.
    pub revisions: IndexMap<String, RevisionEntry>,
}

/// One revision's official schema file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RevisionEntry {
    /// Upstream URL of `schema.json`, pinned to [`Manifest::spec_commit`].
    pub url: String,
    /// SHA-256 of the file, 64 lowercase hex digits.
    pub sha256: String,
    /// The JSON Schema dialect the file declares.
    pub dialect: ManifestDialect,
    /// Whether the revision is released.
    pub status: Status,
    /// The `protocolVersion` string of the revision, when it is not the revision's name
    /// (the draft's placeholder, `DRAFT-2026-v1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<String>,
    /// The revision's `schema.ts` (the source `schema.json` is generated from), pinned the
    /// same way: the generator reads member declaration order from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ts: Option<PinnedFile>,
}

/// Another file of a revision, pinned by URL and SHA-256.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PinnedFile {
    /// Upstream URL, pinned to [`Manifest::spec_commit`].
    pub url: String,
    /// SHA-256 of the file, 64 lowercase hex digits.
    pub sha256: String,
}

/// The JSON Schema dialect named in the manifest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ManifestDialect {
    /// draft-07: definitions under `definitions`.
    #[serde(rename = "draft-07")]
    Draft07,
    /// 2020-12: definitions under `$defs`.
    #[serde(rename = "2020-12")]
    Draft202012,
}

impl From<ManifestDialect> for crate::load::Dialect {
    fn from(d: ManifestDialect) -> Self {
        match d {
            ManifestDialect::Draft07 => crate::load::Dialect::Draft07,
            ManifestDialect::Draft202012 => crate::load::Dialect::Draft202012,
        }
    }
}

impl fmt::Display for ManifestDialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ManifestDialect::Draft07 => "draft-07",
            ManifestDialect::Draft202012 => "2020-12",
        })
    }
}

/// A revision's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Released; the file no longer changes.
    Final,
    /// Work in progress; the pinned file is a snapshot.
    Draft,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Final => "final",
            Status::Draft => "draft",
        })
    }
}

/// The project's `schema/manifest.json`, built into the generator (through the symlink
/// `codegen/data/manifest.json`), so that `mcp-typed-codegen fetch` works outside the project.
pub const BUILTIN: &str = include_str!("../data/manifest.json");

impl Manifest {
    /// The manifest built into this `mcp-typed-codegen`.
    pub fn builtin() -> Result<Self> {
        Self::from_str(BUILTIN, "the built-in schema/manifest.json")
    }

    /// Parses and checks manifest text; `origin` names it in errors.
    pub fn from_str(text: &str, origin: &str) -> Result<Self> {
        let manifest: Manifest = serde_json::from_str(text).map_err(|source| Error::Json {
            origin: origin.to_owned(),
            source,
        })?;
        manifest.check(origin)?;
        Ok(manifest)
    }

    /// Reads and checks a manifest file.
    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_str(&text, &path.display().to_string())
    }

    /// The manifest path of a workspace.
    pub fn path_in(workspace: &Path) -> PathBuf {
        workspace.join(MANIFEST_PATH)
    }

    /// Reads `<workspace>/schema/manifest.json`.
    pub fn for_workspace(workspace: &Path) -> Result<Self> {
        Self::load(&Self::path_in(workspace))
    }

    /// The entry of `revision`, or an error listing the known revisions.
    pub fn entry(&self, revision: &str) -> Result<&RevisionEntry> {
        self.revisions.get(revision).ok_or_else(|| {
            Error::Config(format!(
                "unknown revision {revision:?}; the manifest lists: {}",
                self.revisions
                    .keys()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
    }

    /// Adds `revision` where it belongs (dated revisions by date, then the others) and
    /// returns its position; an error when the manifest already lists it.
    pub fn insert(&mut self, revision: &str, entry: RevisionEntry) -> Result<usize> {
        if self.revisions.contains_key(revision) {
            return Err(Error::Config(format!(
                "the manifest already lists revision {revision:?}"
            )));
        }
        let at = self
            .revisions
            .keys()
            .position(|r| order_key(revision) < order_key(r))
            .unwrap_or(self.revisions.len());
        self.revisions.insert_before(at, revision.to_owned(), entry);
        self.check("the new manifest")?;
        Ok(at)
    }

    /// The manifest as written to `schema/manifest.json` (two-space indent, final newline).
    pub fn to_text(&self) -> String {
        let mut text =
            serde_json::to_string_pretty(self).expect("a manifest always encodes as JSON");
        text.push('\n');
        text
    }

    fn check(&self, origin: &str) -> Result<()> {
        let bad = |what: String| Err(Error::Config(format!("{origin}: {what}")));
        if self.revisions.is_empty() {
            return bad("`revisions` is empty".into());
        }
        let names: Vec<&String> = self.revisions.keys().collect();
        if let Some(w) = names
            .windows(2)
            .find(|w| order_key(w[0]) >= order_key(w[1]))
        {
            return bad(format!(
                "revisions must be listed oldest first (dated ones by date, then drafts): {:?} comes before {:?}",
                w[0], w[1]
            ));
        }
        for (rev, e) in &self.revisions {
            if rev.is_empty() || !rev.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                return bad(format!(
                    "revision name {rev:?} must be letters, digits and '-'"
                ));
            }
            if !is_sha256_hex(&e.sha256) {
                return bad(format!(
                    "revisions.{rev}.sha256 must be 64 lowercase hex digits, not {:?}",
                    e.sha256
                ));
            }
            if !(e.url.starts_with("https://") || e.url.starts_with("http://")) {
                return bad(format!(
                    "revisions.{rev}.url must be an http(s) URL, not {:?}",
                    e.url
                ));
            }
            if let Some(ts) = &e.ts {
                if !is_sha256_hex(&ts.sha256) {
                    return bad(format!(
                        "revisions.{rev}.ts.sha256 must be 64 lowercase hex digits, not {:?}",
                        ts.sha256
                    ));
                }
                if !(ts.url.starts_with("https://") || ts.url.starts_with("http://")) {
                    return bad(format!(
                        "revisions.{rev}.ts.url must be an http(s) URL, not {:?}",
                        ts.url
                    ));
                }
            }
        }
        Ok(())
    }
}

impl RevisionEntry {
    /// Checks `bytes` against [`sha256`](Self::sha256). `origin` names where they came from
    /// in the error.
    pub fn verify(&self, revision: &str, bytes: &[u8], origin: &str) -> Result<()> {
        verify(&self.sha256, revision, bytes, origin)
    }
}

impl PinnedFile {
    /// Checks `bytes` against [`sha256`](Self::sha256).
    pub fn verify(&self, revision: &str, bytes: &[u8], origin: &str) -> Result<()> {
        verify(&self.sha256, revision, bytes, origin)
    }
}

fn verify(expected: &str, revision: &str, bytes: &[u8], origin: &str) -> Result<()> {
    let actual = sha256_hex(bytes);
    if actual == expected {
        Ok(())
    } else {
        Err(Error::HashMismatch {
            revision: revision.to_owned(),
            origin: origin.to_owned(),
            expected: expected.to_owned(),
            actual,
        })
    }
}

/// Sorts dated revisions (`YYYY-MM-DD`) by date, before every other name (drafts).
fn order_key(revision: &str) -> (bool, &str) {
    let dated = revision.len() == 10
        && revision.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    (!dated, revision)
}

/// The SHA-256 of `bytes` as 64 lowercase hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn is_sha256_hex(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../schema/manifest.json"
    ));

    #[test]
    fn workspace_manifest_lists_exactly_the_known_revisions_in_order() {
        let m = Manifest::from_str(MANIFEST, "schema/manifest.json").unwrap();
        let revs: Vec<&str> = m.revisions.keys().map(String::as_str).collect();
        assert_eq!(revs, crate::source::revisions());
        for (rev, e) in &m.revisions {
            assert!(e.url.starts_with("https://"), "{rev}: {}", e.url);
            assert!(
                e.url.contains(&m.spec_commit),
                "{rev}: not pinned: {}",
                e.url
            );
            assert!(
                e.url.ends_with(&format!("/schema/{rev}/schema.json")),
                "{rev}: {}",
                e.url
            );
            let expected = if rev == "draft" {
                Status::Draft
            } else {
                Status::Final
            };
            assert_eq!(e.status, expected, "{rev}");
        }
    }

    #[test]
    fn rejects_bad_manifests() {
        let ok = r#"{"spec_repository":"r","spec_commit":"c","revisions":{"x":{"url":"https://h/x","sha256":"0000000000000000000000000000000000000000000000000000000000000000","dialect":"2020-12","status":"final"}}}"#;
        Manifest::from_str(ok, "m").unwrap();
        let cases = [
            (
                ok.replace("\"0000", "\"ABCD"),
                "sha256 must be 64 lowercase hex",
            ),
            (
                ok.replace("https://h/x", "ftp://h/x"),
                "must be an http(s) URL",
            ),
            (ok.replace("2020-12", "draft-04"), "unknown variant"),
            (ok.replace("final", "beta"), "unknown variant"),
            (ok.replace("\"x\"", "\"a/b\""), "letters, digits"),
            (
                r#"{"spec_repository":"r","spec_commit":"c","revisions":{}}"#.into(),
                "is empty",
            ),
            (ok.replace("spec_commit", "commit"), "unknown field"),
            ("[".into(), "m: invalid JSON"),
        ];
        for (text, want) in cases {
            let e = Manifest::from_str(&text, "m").unwrap_err().to_string();
            assert!(e.contains(want), "{text}\n→ {e}");
        }
    }

    #[test]
    fn the_file_is_exactly_what_to_text_writes() {
        // `fetch --add` rewrites the file: it must not reformat what it does not change.
        let m = Manifest::from_str(MANIFEST, "m").unwrap();
        assert_eq!(m.to_text(), MANIFEST);
    }

    #[test]
    fn insert_keeps_dated_revisions_in_order_and_drafts_last() {
        let mut m = Manifest::from_str(MANIFEST, "m").unwrap();
        let entry = m.entry("2025-11-25").unwrap().clone();
        assert_eq!(m.insert("2099-01-01", entry.clone()).unwrap(), 5);
        assert_eq!(m.insert("2025-01-01", entry.clone()).unwrap(), 1);
        assert_eq!(m.insert("next", entry.clone()).unwrap(), 8);
        let names: Vec<&str> = m.revisions.keys().map(String::as_str).collect();
        assert_eq!(
            names,
            [
                "2024-11-05",
                "2025-01-01",
                "2025-03-26",
                "2025-06-18",
                "2025-11-25",
                "2026-07-28",
                "2099-01-01",
                "draft",
                "next"
            ]
        );
        let e = m.insert("draft", entry).unwrap_err().to_string();
        assert!(e.contains("already lists revision \"draft\""), "{e}");
        // Parsing refuses a file out of order.
        let swapped = MANIFEST.replacen("\"2024-11-05\": {", "\"2030-01-01\": {", 1);
        let e = Manifest::from_str(&swapped, "m").unwrap_err().to_string();
        assert!(
            e.contains("oldest first") && e.contains("\"2030-01-01\" comes before \"2025-03-26\""),
            "{e}"
        );
    }

    #[test]
    fn unknown_revision_lists_known_ones() {
        let m = Manifest::from_str(MANIFEST, "m").unwrap();
        let e = m.entry("1999-01-01").unwrap_err().to_string();
        assert!(
            e.contains("\"1999-01-01\"") && e.contains("2025-06-18, 2025-11-25"),
            "{e}"
        );
    }

    #[test]
    fn verify_names_revision_and_both_hashes() {
        let m = Manifest::from_str(MANIFEST, "m").unwrap();
        let e = m.entry("2025-06-18").unwrap();
        let err = e.verify("2025-06-18", b"not it", "somewhere").unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("2025-06-18"), "{msg}");
        assert!(msg.contains(&e.sha256), "{msg}");
        assert!(msg.contains(&sha256_hex(b"not it")), "{msg}");
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
