//! `cargo install --path codegen`, then the installed `mcp-typed-codegen` used from a folder outside
//! this project, as a user does: fetch a revision (verified against the built-in manifest),
//! generate a module for their own crate.

use std::path::{Path, PathBuf};
use std::process::Command;

use mcp_typed_codegen::source;

fn workspace() -> PathBuf {
    source::find_workspace(Path::new(env!("CARGO_MANIFEST_DIR"))).expect("inside the project")
}

#[test]
fn installed_binary_works_outside_the_project() {
    let root = tempfile::tempdir().unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    // Debug profile and the workspace's target folder: the dependencies built for the tests
    // are reused, so this costs one link, not a release build.
    let o = Command::new(&cargo)
        .args(["install", "--debug", "--locked", "--offline", "--path"])
        .arg(workspace().join("codegen"))
        .arg("--root")
        .arg(root.path())
        .env("CARGO_TARGET_DIR", workspace().join("target"))
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "cargo install failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let bin = root.path().join("bin").join("mcp-typed-codegen");
    assert!(bin.is_file());

    let user = tempfile::tempdir().unwrap();
    assert!(source::find_workspace(user.path()).is_none());
    let help = Command::new(&bin)
        .args(["generate", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("--out") && help.contains("cargo install"),
        "{help}"
    );

    let spec = source::resolve("2025-11-25", None, &workspace()).unwrap();
    let spec_dir = spec.parent().and_then(Path::parent).unwrap();
    let o = Command::new(&bin)
        .args(["fetch", "--revision", "2025-11-25", "--from"])
        .arg(spec_dir)
        .current_dir(user.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = Command::new(&bin)
        .args(["generate", "--revision", "2025-11-25", "--out", "src/mcp"])
        .env_remove("MCP_SCHEMA_DIR")
        .current_dir(user.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("erratum elicit-content-numbers applied"),
        "{stderr}"
    );
    // The module is the checked-in one, byte for byte: both call `::mcp_typed_runtime`.
    let generated = std::fs::read_to_string(user.path().join("src/mcp/v2025_11_25.rs")).unwrap();
    let checked_in =
        std::fs::read_to_string(workspace().join("generated/src/v2025_11_25.rs")).unwrap();
    assert_eq!(generated, checked_in);

    // Without --out, `generate` rewrites this project's generated/src: outside the
    // project it refuses, and creates nothing.
    for args in [&["generate"][..], &["generate", "--revision", "2025-11-25"]] {
        let o = Command::new(&bin)
            .args(args)
            .current_dir(user.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{args:?}: {stderr}");
        assert!(stderr.contains("pass --out DIR"), "{args:?}: {stderr}");
        assert!(!user.path().join("generated").exists(), "{args:?}");
    }
}
