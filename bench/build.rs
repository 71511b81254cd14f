//! Generates typify's types for the 2025-06-18 schema (typify 0.8 panics on 2025-11-25 and
//! later: an `allOf` of two `$ref`s where one carries a `description`), so that the benchmarks
//! compare its output with the other codecs. The schema is found the way `mcp-typed-codegen` finds
//! it: `$MCP_SCHEMA_DIR/<revision>/schema.json`, else `schema/<revision>/schema.json` in the
//! workspace, else `../shared/mcp-spec/<revision>/schema.json` beside the checkout.

use std::path::{Path, PathBuf};

const REVISION: &str = "2025-06-18";

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let workspace = manifest
        .parent()
        .expect("bench/ sits in the workspace")
        .to_path_buf();
    println!("cargo::rerun-if-env-changed=MCP_SCHEMA_DIR");
    let mut candidates = Vec::new();
    if let Some(dir) = std::env::var_os("MCP_SCHEMA_DIR") {
        candidates.push(Path::new(&dir).join(REVISION).join("schema.json"));
    }
    candidates.push(workspace.join("schema").join(REVISION).join("schema.json"));
    if let Some(parent) = workspace.parent() {
        candidates.push(
            parent
                .join("shared/mcp-spec")
                .join(REVISION)
                .join("schema.json"),
        );
    }
    let Some(path) = candidates.iter().find(|p| p.is_file()) else {
        panic!(
            "the {REVISION} schema.json is needed to generate typify's types; looked in:\n  {}\n\
             run `cargo run -p mcp-typed-codegen -- fetch` or set MCP_SCHEMA_DIR",
            candidates
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join("\n  ")
        )
    };
    println!("cargo::rerun-if-changed={}", path.display());
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let started = std::time::Instant::now();
    let code = typify_source(&text).unwrap_or_else(|e| panic!("typify on {}: {e}", path.display()));
    let elapsed = started.elapsed();
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    std::fs::write(out.join("typify_2025_06_18.rs"), code).expect("OUT_DIR is writable");
    std::fs::write(
        out.join("typify_2025_06_18.time"),
        format!("{}\n", elapsed.as_secs_f64()),
    )
    .expect("OUT_DIR is writable");
}

/// typify's formatted output for a schema.json (the same function as `mcp_bench::typify_source`,
/// which the generation benchmark times; a build script cannot call its own crate).
fn typify_source(schema: &str) -> Result<String, String> {
    include!("src/typify_source.rs")
}
