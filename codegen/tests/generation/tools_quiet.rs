//! Generated tool bindings are quiet in user code: a binary with `#![deny(warnings)]` that
//! uses two of server-everything's 13 tools builds (unused tools and re-exports are not
//! warnings there).

use std::process::Command;

#[path = "../common/mod.rs"]
mod common;
use common::workspace;

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
    common::user_crate(
        &krate,
        "quiet",
        "",
        r#"#![deny(warnings)]

mod everything;

fn main() {
    let echo = everything::EchoArgs { message: "hi".into() }.call();
    let sum = everything::GetSumArgs { a: 1.0, b: 2.0 }.request(1);
    println!("{} {}", echo.name, serde_json::to_string(&sum).unwrap());
}
"#,
    );
    let (ok, text) = common::cargo_run(&krate, "tools-quiet", &[]);
    assert!(ok, "{text}");
    assert!(text.starts_with("echo {"), "{text}");
}
