//! What the tests that build a small program against `mcp-typed` share.

#![allow(dead_code)] // each test file uses what it needs

use std::path::{Path, PathBuf};
use std::process::Command;

/// The project root.
pub fn workspace() -> PathBuf {
    mcp_typed_codegen::source::find_workspace(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("inside the project")
}

/// Writes the manifest of a binary crate `name` at `krate` that depends on this checkout's
/// `mcp-typed` (2025-11-25 only), serde and serde_json, plus `extra_deps` (TOML lines), with
/// the workspace's `Cargo.lock` so that it builds offline; and `src/main.rs`.
pub fn user_crate(krate: &Path, name: &str, extra_deps: &str, main: &str) {
    let ws = workspace();
    std::fs::create_dir_all(krate.join("src")).unwrap();
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            r#"[package]
name = "{name}"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
mcp-typed = {{ path = "{}", default-features = false, features = ["v2025_11_25"] }}
serde = {{ version = "1", features = ["derive"] }}
serde_json = "1"
{extra_deps}

[workspace]
"#,
            ws.join("mcp-typed").display()
        ),
    )
    .unwrap();
    std::fs::copy(ws.join("Cargo.lock"), krate.join("Cargo.lock")).unwrap();
    std::fs::write(krate.join("src/main.rs"), main).unwrap();
}

/// `cargo run --quiet --offline -- args` in `krate`, built in `target/<target>` of the
/// workspace (so a second run is incremental): whether it succeeded, and its output.
pub fn cargo_run(krate: &Path, target: &str, args: &[&str]) -> (bool, String) {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let o = Command::new(cargo)
        .args(["run", "--quiet", "--offline", "--"])
        .args(args)
        .current_dir(krate)
        .env("CARGO_TARGET_DIR", workspace().join("target").join(target))
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.success(), text)
}
