//! The tables `cargo bench` and the `mcp-bench` binary print (tab-separated, with a header;
//! `bench/chart.py` reads them back).

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use crate::codecs::{self, Codec};
use crate::corpus::Corpus;
use crate::measure::{self, Prepared};

const MB: f64 = 1e6;

/// Wall-clock throughput of every codec and operation on `corpus`.
pub fn messages(corpus: Corpus, rounds: usize) -> String {
    let prepared = Prepared::new(corpus);
    let bytes = prepared.corpus.bytes();
    let count = prepared.corpus.messages.len();
    let samples = measure::wall_clock(&prepared, rounds, Duration::from_millis(20));
    let mut t = String::from(
        "corpus\tcodec\top\tbytes\tmessages\tmedian_us\tMB_per_s\tmsgs_per_s\tpasses\n",
    );
    for s in samples {
        let secs = s.median.as_secs_f64();
        let _ = writeln!(
            t,
            "{}\t{}\t{}\t{bytes}\t{count}\t{:.1}\t{:.1}\t{:.0}\t{}",
            prepared.corpus.name,
            s.codec,
            s.op.name(),
            secs * 1e6,
            bytes as f64 / secs / MB,
            count as f64 / secs,
            s.passes
        );
    }
    t
}

/// What decoding and re-encoding `corpus` does, per codec.
pub fn round_trips(corpus: &Corpus) -> String {
    fn row<C: Codec>(corpus: &Corpus, t: &mut String) {
        let r = codecs::round_trip::<C>(&corpus.messages);
        let first = r
            .failed
            .first()
            .map(|(i, e)| format!("#{i}: {}", e.chars().take(120).collect::<String>()))
            .unwrap_or_default();
        let _ = writeln!(
            t,
            "{}\t{}\t{}\t{}\t{}\t{}",
            corpus.name,
            C::NAME,
            r.messages,
            r.failed.len(),
            r.changed.len(),
            first
        );
    }
    let mut t = String::from("corpus\tcodec\tmessages\tfailed\tchanged\tfirst_failure\n");
    row::<codecs::McpTypes>(corpus, &mut t);
    row::<codecs::McpTypesLater>(corpus, &mut t);
    row::<codecs::McpTypesEnvelope>(corpus, &mut t);
    row::<codecs::Rmcp>(corpus, &mut t);
    row::<codecs::RustMcpSchema>(corpus, &mut t);
    row::<codecs::Typify>(corpus, &mut t);
    row::<codecs::JsonValue>(corpus, &mut t);
    t
}

fn median(mut f: impl FnMut(), rounds: usize) -> Duration {
    let mut times: Vec<Duration> = (0..rounds.max(1))
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// Generation time: `mcp-typed-codegen` per revision and for all six, typify on 2025-06-18.
pub fn generation(rounds: usize) -> anyhow::Result<String> {
    use crate::generation::{
        REVISIONS, mcp_typed_codegen, mcp_typed_codegen_all, schema_path, typify,
    };
    let mut t = String::from("generator\trevision\tlines\tmedian_ms\tlines_per_ms\n");
    let mut row = |generator: &str, revision: &str, lines: usize, d: Duration| {
        let ms = d.as_secs_f64() * 1e3;
        let _ = writeln!(
            t,
            "{generator}\t{revision}\t{lines}\t{ms:.1}\t{:.1}",
            lines as f64 / ms
        );
    };
    for revision in REVISIONS {
        let lines = mcp_typed_codegen(revision)?.lines().count();
        let d = median(
            || drop(mcp_typed_codegen(revision).expect("generated once already")),
            rounds,
        );
        row("mcp-typed-codegen", revision, lines, d);
    }
    let lines = mcp_typed_codegen_all()?;
    let d = median(
        || {
            drop(
                mcp_typed_codegen_all()
                    .expect("generated once already")
                    .to_string(),
            )
        },
        rounds,
    );
    row("mcp-typed-codegen", "all six + conversions", lines, d);
    let schema = std::fs::read_to_string(schema_path("2025-06-18")?)?;
    let lines = typify(&schema)?.lines().count();
    let d = median(
        || drop(typify(&schema).expect("generated once already")),
        rounds,
    );
    row("typify", "2025-06-18", lines, d);
    Ok(t)
}

/// The elicitation content check, `from_content` against `jsonschema` + serde.
pub fn elicitation(rounds: usize) -> String {
    use crate::elicitation::{content, validator, with_elicit, with_jsonschema};
    const N: u32 = 10_000;
    let content = content();
    let value = serde_json::Value::Object(content.clone());
    let validator = validator();
    assert_eq!(
        with_elicit(&content),
        with_jsonschema(&validator, &value),
        "both accept the content and read the same booking"
    );
    let ours = median(
        || {
            for _ in 0..N {
                std::hint::black_box(with_elicit(std::hint::black_box(&content)));
            }
        },
        rounds,
    ) / N;
    let theirs = median(
        || {
            for _ in 0..N {
                std::hint::black_box(with_jsonschema(&validator, std::hint::black_box(&value)));
            }
        },
        rounds,
    ) / N;
    format!(
        "check\tns_per_content\nElicit::from_content\t{}\njsonschema + serde\t{}\n",
        ours.as_nanos(),
        theirs.as_nanos()
    )
}

/// The traffic checker's cost per message on every real-traffic session, beside
/// `serde_json::Value` (see [`crate::check`]): per work, the latency distribution over every
/// timing (messages × rounds) and over each message's median, in µs, the size of the slowest
/// message, how many took over 1 ms, and the mean against `Value`'s.
pub fn check(rounds: usize) -> anyhow::Result<String> {
    use crate::check::{Work, percentile, sessions, wall_clock};
    let sessions = sessions()?;
    let sizes: Vec<usize> = sessions
        .iter()
        .flat_map(|s| s.messages.iter().map(|(_, text)| text.len()))
        .collect();
    let times = wall_clock(&sessions, rounds.max(1));
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let mean = |t: &[Vec<Duration>]| {
        let all: Duration = t.iter().flatten().sum();
        all / t.iter().map(Vec::len).sum::<usize>() as u32
    };
    let value_mean = mean(&times[0]);
    let mut t = String::from(
        "work\tover\tsessions\tmessages\ttimings\tmean_us\tp50_us\tp90_us\tp99_us\tmax_us\tmax_bytes\tover_1ms\tmean_vs_value\n",
    );
    for (work, per_message) in Work::ALL.into_iter().zip(&times) {
        let m = mean(per_message);
        let mut all: Vec<(Duration, usize)> = per_message
            .iter()
            .zip(&sizes)
            .flat_map(|(t, &size)| t.iter().map(move |&d| (d, size)))
            .collect();
        let mut medians: Vec<(Duration, usize)> = per_message
            .iter()
            .zip(&sizes)
            .map(|(t, &size)| {
                let mut t = t.clone();
                t.sort();
                (t[t.len() / 2], size)
            })
            .collect();
        for (over, list) in [("timings", &mut all), ("message medians", &mut medians)] {
            list.sort();
            let (max, max_bytes) = *list.last().expect("messages");
            let over_1ms = list
                .iter()
                .filter(|(d, _)| *d > Duration::from_millis(1))
                .count();
            let _ = writeln!(
                t,
                "{}\t{over}\t{}\t{}\t{}\t{:.1}\t{:.1}\t{:.1}\t{:.1}\t{:.1}\t{max_bytes}\t{over_1ms}\t{:.2}",
                work.name(),
                sessions.len(),
                sizes.len(),
                list.len(),
                us(m),
                us(percentile(list, 0.50).0),
                us(percentile(list, 0.90).0),
                us(percentile(list, 0.99).0),
                us(max),
                m.as_secs_f64() / value_mean.as_secs_f64()
            );
        }
    }
    Ok(t)
}
