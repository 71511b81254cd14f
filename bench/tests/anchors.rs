//! Smoke test of the benchmark harness on the real 2025-11-25 traffic: `mcp-typed` decodes
//! every message, types every result by the request it answers, and re-encodes every message
//! unchanged; every anchor library decodes the corpus, and how many messages each one refuses
//! or changes is printed (BENCHMARKS.md reports it).

use mcp_bench::codecs::{self, Codec, TypedMessage, TypedResult};
use mcp_bench::corpus::{self, Corpus};
use mcp_bench::measure::{CODECS, Op, Prepared};

fn real() -> Corpus {
    corpus::real_traffic().expect("the captured traffic is readable")
}

#[test]
fn mcp_typed_round_trips_real_traffic_unchanged() {
    let corpus = real();
    assert!(
        corpus.messages.len() > 400,
        "{} messages",
        corpus.messages.len()
    );
    for report in [
        codecs::round_trip::<codecs::McpTypes>(&corpus.messages),
        codecs::round_trip::<codecs::McpTypesEnvelope>(&corpus.messages),
        codecs::round_trip::<codecs::JsonValue>(&corpus.messages),
    ] {
        assert!(report.failed.is_empty(), "{:?}", report.failed);
        let changed: Vec<&str> = report
            .changed
            .iter()
            .map(|&i| corpus.messages[i].text.as_str())
            .collect();
        assert!(changed.is_empty(), "changed on re-encode: {changed:#?}");
    }
}

#[test]
fn every_response_to_a_known_request_is_typed() {
    let corpus = real();
    let mut typed = 0;
    for m in &corpus.messages {
        let Ok(TypedMessage::Response { result, .. }) = codecs::McpTypes::decode(m) else {
            continue;
        };
        match (&m.answers, result) {
            (Some(a), TypedResult::Raw(raw)) => {
                // Only a method the revision does not define stays raw.
                assert!(
                    a.method.contains('.') || a.method.contains("unknown"),
                    "{} result left untyped: {}",
                    a.method,
                    raw.get()
                );
            }
            (Some(_), _) => typed += 1,
            (None, r) => panic!("a response with no request in the corpus: {r:?}"),
        }
    }
    assert!(typed > 150, "{typed} typed results");
}

#[test]
fn every_anchor_decodes_real_traffic_and_its_changes_are_reported() {
    let corpus = real();
    let table = mcp_bench::report::round_trips(&corpus);
    println!("{table}");
    for row in table.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        let (codec, messages, failed) = (cols[1], cols[2], cols[3]);
        assert_eq!(
            failed, "0",
            "{codec} refuses {failed} of {messages} messages: {}",
            cols[5]
        );
    }
}

#[test]
fn every_codec_runs_every_operation_it_supports() {
    let prepared = Prepared::new(real());
    let mut out = Vec::new();
    for codec in CODECS {
        for op in Op::ALL {
            let work = prepared.pass(codec, op, &mut out);
            match (codec, op) {
                ("IgnoredAny", Op::Encode | Op::RoundTrip) => assert_eq!(work, None),
                _ => assert!(work.is_some_and(|n| n > 0), "{codec} {}", op.name()),
            }
        }
    }
}

#[test]
fn the_synthetic_corpus_is_valid_2025_11_25_traffic() {
    let corpus = corpus::synthetic();
    assert!(corpus.bytes() > 4_000_000, "{} bytes", corpus.bytes());
    let report = codecs::round_trip::<codecs::McpTypes>(&corpus.messages);
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    assert!(report.changed.is_empty(), "{:?}", report.changed);
}

#[test]
fn per_message_times_every_message_and_names_its_kind() {
    let corpus = real();
    let kinds: Vec<String> = corpus.messages.iter().map(|m| m.kind()).collect();
    // A request by its method, a notification marked, a result by the request it answers.
    for kind in [
        "tools/call",
        "notifications/message (notification)",
        "result of tools/list",
        "error",
    ] {
        assert!(kinds.iter().any(|k| k == kind), "no `{kind}` in {kinds:?}");
    }
    let times = mcp_bench::measure::per_message(&corpus, codecs::McpTypes::NAME, 2, 1)
        .expect("mcp-typed decodes");
    assert_eq!(times.len(), corpus.messages.len());
    assert!(
        times
            .iter()
            .all(|t| !t.is_zero() && *t < std::time::Duration::MAX)
    );
    assert!(mcp_bench::measure::per_message(&corpus, "no such codec", 1, 1).is_none());
}
