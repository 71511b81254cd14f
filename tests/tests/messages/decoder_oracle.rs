//! The current decoder (`pull::Decode`, issue 31) against the old one's recorded verdicts
//! (`tests/fixtures/decoder-oracle/verdicts.jsonl`): every corpus message (`mcp_tests::oracle::
//! corpus`: the captured traffic, the fuzz corpora and crash inputs of the message targets,
//! the official examples) as `ClientMessage`, `ServerMessage` and `JsonRpcMessage` of every
//! revision, a response's result as its request's result, an example as its definition. Each
//! gives the verdict (accepted or refused), the JSON pointer of a refusal and the value (the
//! SHA-256 of its re-encoding) the old decoder gave, or differs from it as the fixture
//! records, by a known class (`fuzz/README.md`). Every difference is listed at once.
//!
//! The old decoder is not built here: `fuzz/oracle/record-verdicts.sh` (which materializes it
//! from git history) wrote the fixture, and re-records it when a corpus changes.

use std::collections::BTreeMap;

use mcp_tests::oracle::{self, Kind, Line, New, REVISIONS};

#[test]
fn the_current_decoder_gives_the_old_decoders_verdicts_on_every_corpus_message() {
    let root = mcp_tests::workspace();
    let path = root.join(oracle::FIXTURE);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut recorded: BTreeMap<String, Line> = BTreeMap::new();
    for (n, l) in text.lines().enumerate() {
        let line = Line::read(l).unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), n + 1));
        recorded.insert(line.input.clone(), line);
    }
    let rerecord = "re-record with `bash fuzz/oracle/record-verdicts.sh`";
    let corpus = oracle::corpus();
    let mut problems = Vec::new();
    let (mut records, mut known) = (0usize, BTreeMap::<String, usize>::new());
    for input in &corpus {
        let Some(line) = recorded.remove(&input.name) else {
            problems.push(format!("{}: not in the fixture ({rerecord})", input.name));
            continue;
        };
        if line.sha != oracle::sha64(&input.data) {
            problems.push(format!(
                "{}: changed since it was recorded ({rerecord})",
                input.name
            ));
            continue;
        }
        let outcomes = oracle::outcomes::<New>(input);
        let now = oracle::tokens(input, &outcomes);
        for (&i, expected) in &line.records {
            for (key, e) in expected {
                let kind =
                    Kind::from_key(key).unwrap_or_else(|| panic!("{}: key {key}", input.name));
                records += 1;
                if let Some((_, class)) = &e.new {
                    *known.entry(class.clone()).or_default() += 1;
                }
                let got = now.get(&(i, kind.clone())).map_or("none", String::as_str);
                if !e.admits(got) {
                    let detail = match outcomes.get(&(i, kind.clone())) {
                        Some(oracle::Outcome::Refused { message, .. }) => format!(" ({message})"),
                        _ => String::new(),
                    };
                    problems.push(format!(
                        "{} {} {kind}: recorded `{}`, now `{got}`{detail}",
                        input.name,
                        REVISIONS[i],
                        e.write()
                    ));
                }
            }
        }
        for (i, kind) in now.keys() {
            if !line
                .records
                .get(i)
                .is_some_and(|r| r.contains_key(&kind.key()))
            {
                problems.push(format!(
                    "{} {} {kind}: decoded now, not recorded ({rerecord})",
                    input.name, REVISIONS[*i]
                ));
            }
        }
    }
    // Recorded inputs that are gone; the official examples only count where they are (they
    // are read beside the schema files, which a fresh clone may not have).
    let examples = ["draft", "2026-07-28"].map(|r| oracle::examples_dir(r).is_some());
    let mut skipped = 0;
    for name in recorded.keys() {
        let spec = ["draft", "2026-07-28"]
            .iter()
            .position(|r| name.starts_with(&format!("spec:{r}/")));
        match spec {
            Some(r) if !examples[r] => skipped += 1,
            _ => problems.push(format!("{name}: recorded, not in the corpus ({rerecord})")),
        }
    }
    println!(
        "{} inputs, {records} records compared; known differences: {known:?}; {skipped} \
         recorded official examples not found here (skipped)",
        corpus.len()
    );
    assert!(
        problems.is_empty(),
        "{} difference(s) from the old decoder's recorded verdicts:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The pointer the oracle reads off the old decoder's error position is the one its callers
/// read (`convert::pointer_at` at fee2c83): the cases of that function's own test, with
/// serde_json's positions, and the same through whitespace and lines (which the old function,
/// for one-line text, did not take).
#[test]
fn old_error_positions_read_as_pointers() {
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Inner {
        n: u8,
        s: String,
    }
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Outer {
        #[serde(rename = "a/b")]
        ab: Vec<Inner>,
    }
    fn at(text: &str) -> String {
        let e = serde_json::from_str::<Outer>(text).unwrap_err();
        oracle::pointer_at(
            text.as_bytes(),
            oracle::offset_of(text.as_bytes(), e.line(), e.column()),
        )
    }
    // A wrong value: its own member. A missing member: the object that lacks it. Escaped keys
    // and strings are read whole.
    assert_eq!(
        at(r#"{"a/b":[{"n":1,"s":"x"},{"n":"y","s":"z"}]}"#),
        "/a~1b/1/n"
    );
    assert_eq!(at(r#"{"a/b":[{"n":1,"s":"x"},{"n":2}]}"#), "/a~1b/1");
    assert_eq!(at(r#"{}"#), "");
    assert_eq!(
        at(r#"{"x\"y":"\"}","a/b":[{"s":"q\\","n":300}]}"#),
        "/a~1b/0/n"
    );
    // Pretty-printed.
    assert_eq!(
        at("{\n  \"a/b\" : [\n    {\"n\" : 1, \"s\" : \"x\"},\n    {\"n\" : \"y\"}\n  ]\n}"),
        "/a~1b/1/n"
    );
    assert_eq!(at("{\n  \"a/b\": [\n    {\"n\": 2}\n  ]\n}"), "/a~1b/0");
}
