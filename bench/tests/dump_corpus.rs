//! Smoke test of the input of `mcp-bench-value-default` (bench/value-default): `mcp-bench
//! dump-corpus real` writes the real corpus one message a line, byte for byte, and each line
//! decodes to a `serde_json::Value` that re-encodes to an equal one. (Built here, serde_json
//! has the workspace's `preserve_order`, so this cannot check the default-features build
//! itself: `measure.sh` asks the binary.)

use std::process::Command;

use mcp_bench::corpus;
use serde_json::Value;

#[test]
fn the_dumped_real_corpus_is_the_corpus_and_round_trips() {
    let dump = Command::new(env!("CARGO_BIN_EXE_mcp-bench"))
        .args(["dump-corpus", "real"])
        .output()
        .expect("mcp-bench runs");
    assert!(
        dump.status.success(),
        "{}",
        String::from_utf8_lossy(&dump.stderr)
    );
    let text = String::from_utf8(dump.stdout).expect("UTF-8");
    let lines: Vec<&str> = text.split_terminator('\n').collect();
    let corpus = corpus::real_traffic().expect("the captured traffic is readable");
    let texts: Vec<&str> = corpus.messages.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(lines, texts);
    for line in lines {
        let value: Value = serde_json::from_str(line).expect("a JSON message");
        let again: Value = serde_json::from_str(&value.to_string()).expect("re-encoded JSON");
        assert_eq!(value, again, "{line}");
    }
}
