//! Generated tool bindings are quiet in user code: a binary with `#![deny(warnings)]` that
//! uses two of server-everything's 13 tools builds (unused tools and re-exports are not
//! warnings there).

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    mcp_typed_codegen::source::find_workspace(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("inside the project")
}

#[test]
fn a_binary_using_two_tools_builds_under_deny_warnings() {
    let ws = workspace();
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path().join("quiet");
    std::fs::create_dir_all(krate.join("src")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-typed-codegen"))
        .args(["tools", "--from"])
        .arg(ws.join("tests/fixtures/tool-lists/server-everything.json"))
        .arg("--out")
        .arg(krate.join("src/everything.rs"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            r#"[package]
name = "quiet"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
mcp-typed = {{ path = "{}", default-features = false, features = ["v2025_11_25"] }}
serde = {{ version = "1", features = ["derive"] }}
serde_json = "1"

[workspace]
"#,
            ws.join("generated").display()
        ),
    )
    .unwrap();
    std::fs::copy(ws.join("Cargo.lock"), krate.join("Cargo.lock")).unwrap();
    std::fs::write(
        krate.join("src/main.rs"),
        r#"#![deny(warnings)]

mod everything;

fn main() {
    let echo = everything::EchoArgs { message: "hi".into() }.call();
    let sum = everything::GetSumArgs { a: 1.0, b: 2.0 }.request(1);
    println!("{} {}", echo.name, serde_json::to_string(&sum).unwrap());
}
"#,
    )
    .unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let o = Command::new(cargo)
        .args(["run", "--quiet", "--offline"])
        .current_dir(&krate)
        .env("CARGO_TARGET_DIR", ws.join("target").join("tools-quiet"))
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "{text}");
    assert!(text.starts_with("echo {"), "{text}");
}
