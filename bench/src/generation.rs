//! Code generation: `mcp-typed-codegen` for each revision, typify for the one it can take.

use std::path::{Path, PathBuf};

/// The revisions `mcp-typed-codegen` generates, oldest first.
pub const REVISIONS: [&str; 6] = [
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
    "draft",
];

/// The workspace this crate sits in.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("bench/ sits in the workspace")
        .to_path_buf()
}

/// The `schema.json` of `revision`, found as `mcp-typed-codegen` finds it.
pub fn schema_path(revision: &str) -> anyhow::Result<PathBuf> {
    Ok(mcp_typed_codegen::source::resolve(
        revision,
        None,
        &workspace(),
    )?)
}

/// Generates `revision` with `mcp-typed-codegen` as `mcp-typed-codegen generate` does for `mcp-typed`
/// (in memory), returning the source and the model.
pub fn mcp_typed_codegen_model(
    revision: &str,
) -> anyhow::Result<(String, mcp_typed_codegen::ir::Module)> {
    let generated = mcp_typed_codegen::Builder::new()
        .revision(revision)
        .workspace(workspace())
        .generate()?;
    Ok((generated.code().to_owned(), generated.model().clone()))
}

/// Generates `revision` with `mcp-typed-codegen`, returning the source.
pub fn mcp_typed_codegen(revision: &str) -> anyhow::Result<String> {
    Ok(mcp_typed_codegen_model(revision)?.0)
}

/// `mcp-typed-codegen generate` end to end, in memory: every revision, then the conversions
/// between them. Returns the number of lines generated.
pub fn mcp_typed_codegen_all() -> anyhow::Result<usize> {
    let mut lines = 0;
    let mut models = Vec::new();
    for revision in REVISIONS {
        let (code, model) = mcp_typed_codegen_model(revision)?;
        lines += code.lines().count();
        models.push((revision, model));
    }
    let pairs: Vec<(&str, &mcp_typed_codegen::ir::Module)> =
        models.iter().map(|(r, m)| (*r, m)).collect();
    lines += mcp_typed_codegen::conversions::code(&pairs)?
        .lines()
        .count();
    Ok(lines)
}

/// Generates the types of `schema` (a `schema.json`'s text) with typify.
pub fn typify(schema: &str) -> anyhow::Result<String> {
    crate::typify_source(schema).map_err(anyhow::Error::msg)
}
