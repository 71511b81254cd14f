//! Replays, through the properties the fuzz targets check (`mcp_tests::fuzz`), every input a
//! fuzz run turned up as a crash (`tests/fixtures/fuzz-regressions/<target>/`) and the
//! committed, minimized corpora (`fuzz/corpus/<target>/`). A fixed crash stays fixed in plain
//! `cargo test`, without cargo-fuzz or a nightly toolchain.

use std::path::{Path, PathBuf};

const TARGETS: [(&str, fn(&[u8])); 5] = [
    ("messages", mcp_tests::fuzz::messages),
    ("elicit_content", mcp_tests::fuzz::elicit_content),
    ("codegen_load", mcp_tests::fuzz::codegen_load),
    ("convert", mcp_tests::fuzz::convert),
    ("check", mcp_tests::fuzz::check),
];

/// The files of `dir`, sorted; none when it does not exist.
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("read a corpus folder").path())
        .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != "README.md"))
        .collect();
    files.sort();
    files
}

/// Runs `check` on every file of `dir`, catching panics, and lists the files that fail.
fn replay(dir: &Path, check: fn(&[u8])) -> (usize, Vec<String>) {
    let files = inputs(dir);
    let mut failures = Vec::new();
    for f in &files {
        let data = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        if let Err(panic) = std::panic::catch_unwind(|| check(&data)) {
            let message = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("(no message)");
            failures.push(format!("{}: {message}", f.display()));
        }
    }
    (files.len(), failures)
}

/// Crash inputs first (see fuzz/README.md for what each found), then the corpora, which reach
/// every property of every target.
#[test]
fn fuzz_inputs_pass_every_property() {
    let root = mcp_tests::workspace();
    let mut failures = Vec::new();
    for (target, check) in TARGETS {
        let (_, f) = replay(
            &root.join("tests/fixtures/fuzz-regressions").join(target),
            check,
        );
        failures.extend(f);
        let (n, f) = replay(&root.join("fuzz/corpus").join(target), check);
        assert!(n > 0, "fuzz/corpus/{target} is empty");
        failures.extend(f);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
