//! The published crates (mcp-typed, mcp-typed-runtime, mcp-typed-rules, mcp-typed-macros,
//! mcp-typed-codegen, mcp-typed-cli) as packages, used from outside the repository: runs
//! `tests/packaging/check.sh`, which packages them, puts the `.crate` files into a local registry
//! with no network (a `cargo vendor` directory source), builds and runs projects that depend on
//! them by version (derive, message round trip; a build.rs user on mcp-typed-runtime alone),
//! checks every feature alone, and installs and runs the generator's binary and `mcp-typed`. Its
//! builds share `target/packaged`, so a second run only rebuilds what changed.

use std::process::Command;
use std::time::Instant;

#[test]
#[cfg_attr(
    not(feature = "packaging"),
    ignore = "packages the published crates and builds them outside the repository (minutes; cargo vendor downloads other platforms' crates once): feature `packaging` (.ci/run turns it on)"
)]
fn published_crates_work_as_packages_from_outside_the_repository() {
    let workspace = mcp_tests::workspace();
    let script = workspace.join("tests/packaging/check.sh");
    assert!(script.is_file(), "{} is missing", script.display());
    let started = Instant::now();
    // One stream, stdout and stderr interleaved as they happened.
    let output = Command::new("bash")
        .arg("-c")
        .arg(r#"exec bash "$0" 2>&1"#)
        .arg(&script)
        .env("MCP_PACKAGED_DIR", workspace.join("target/packaged"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run bash (needed for {}): {e}", script.display()));
    let log = String::from_utf8_lossy(&output.stdout);
    println!("{log}");
    println!("{} took {:.1?}", script.display(), started.elapsed());
    assert!(
        output.status.success(),
        "{} failed ({}):\n{log}",
        script.display(),
        output.status
    );
    assert!(log.contains("packaging check passed"), "{log}");
}
