//! Where schema files come from: the revision list and the resolver.
//!
//! A revision's `schema.json` is looked up, in order, in
//! 1. `$MCP_SCHEMA_DIR/<revision>/schema.json` (or the `--schema-dir` given instead),
//! 2. `<workspace>/schema/<revision>/schema.json` (the cache `mcp-typed-codegen fetch` fills),
//! 3. `<workspace>/../shared/mcp-spec/<revision>/schema.json`.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::error::{Error, Result};
use crate::registry::Registry;

/// Every revision of the manifest built into this generator, oldest first (see
/// [`Registry`]; a workspace's own manifest may list more: [`Registry::for_workspace`]).
pub fn revisions() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| Registry::builtin().names().collect())
}

/// The environment variable naming a folder of `<revision>/schema.json` files.
pub const SCHEMA_DIR_ENV: &str = "MCP_SCHEMA_DIR";

pub use crate::registry::module_name;

/// Checks that `revision` is one the manifest of `workspace` (else the built-in one) lists.
pub fn check_revision(revision: &str, workspace: &Path) -> Result<()> {
    Registry::for_workspace(workspace)?
        .get(revision)
        .map(|_| ())
}

/// The folders searched for `<revision>/schema.json`, in order.
pub fn search_dirs(schema_dir: Option<&Path>, workspace: &Path) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    match schema_dir {
        Some(d) => dirs.push(d.to_path_buf()),
        None => {
            if let Some(d) = std::env::var_os(SCHEMA_DIR_ENV).filter(|d| !d.is_empty()) {
                dirs.push(PathBuf::from(d));
            }
        }
    }
    dirs.push(workspace.join("schema"));
    dirs.push(workspace.join("..").join("shared").join("mcp-spec"));
    dirs
}

/// Finds the schema file of `revision`.
pub fn resolve(revision: &str, schema_dir: Option<&Path>, workspace: &Path) -> Result<PathBuf> {
    check_revision(revision, workspace)?;
    let searched: Vec<PathBuf> = search_dirs(schema_dir, workspace)
        .into_iter()
        .map(|d| d.join(revision).join("schema.json"))
        .collect();
    searched
        .iter()
        .find(|p| p.is_file())
        .cloned()
        .ok_or_else(|| Error::MissingSchema {
            revision: revision.to_owned(),
            searched,
        })
}

/// The workspace of the current directory: its nearest ancestor holding
/// `schema/manifest.json`, else the current directory itself.
pub fn current_workspace() -> Result<PathBuf> {
    let cwd = std::env::current_dir().map_err(|source| Error::Io {
        path: ".".into(),
        source,
    })?;
    Ok(find_workspace(&cwd).unwrap_or(cwd))
}

/// The workspace root: the nearest ancestor of `start` holding `schema/manifest.json`.
pub fn find_workspace(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|d| d.join("schema").join("manifest.json").is_file())
        .map(Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_schema_says_how_to_get_it() {
        let dir = std::env::temp_dir().join("mcp-typed-codegen-missing-test");
        let e = resolve("2025-06-18", Some(&dir), &dir)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("mcp-typed-codegen fetch --revision 2025-06-18"),
            "{e}"
        );
        assert!(
            e.contains("mcp-typed-codegen-missing-test/2025-06-18/schema.json"),
            "{e}"
        );
        assert!(resolve("1999-01-01", None, &dir).is_err());
    }
}
