//! `mcp-bench-value-default`: `serde_json::Value` with serde_json's default features (a
//! `BTreeMap` per object), the way users of serde_json get it. In the workspace, `mcp-typed`
//! turns on `preserve_order` (an `IndexMap` per object) and feature unification gives it to
//! every crate built with it, `mcp-bench`'s `serde_json::Value` row included. So this crate
//! depends on serde_json alone, is built alone (`cargo build --release -p
//! mcp-bench-value-default`; `features` tells whether that held), and reads its corpus from
//! `mcp-bench dump-corpus` output instead of linking `mcp-bench`, measuring the same bytes.
//!
//! ```text
//! mcp-bench-value-default count <decode|encode|decode+encode> <corpus-file>
//! mcp-bench-value-default time <corpus-name> <corpus-file> [rounds]
//! mcp-bench-value-default per-message <corpus-file> [reps] [rounds]
//! mcp-bench-value-default features
//! ```
//!
//! `count` runs one pass inside the region `bench/measure.sh` has callgrind count, the way
//! `mcp-bench count serde_json::Value` does, and prints bytes, messages and work like it.
//! `time` times the three operations the way `mcp-bench messages` times its codecs (each
//! timing repeated until it spans 20 ms, operations interleaved round by round, the median
//! round reported) and prints rows of `mcp-bench messages`' table. `per-message` times each
//! message's decode warm, as `mcp-bench per-message` does (index and nanoseconds).

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Duration;

use serde_json::{Map, Value};

// `mcp-bench`'s timing loop, compiled here from its file: linking `mcp-bench` would bring
// `mcp-typed` and with it `preserve_order`.
#[path = "../../src/interleave.rs"]
mod interleave;

const USAGE: &str =
    "usage: mcp-bench-value-default count <decode|encode|decode+encode> <corpus-file>
       mcp-bench-value-default time <corpus-name> <corpus-file> [rounds]
       mcp-bench-value-default per-message <corpus-file> [reps] [rounds]
       mcp-bench-value-default features";

/// The region `measure.sh` has callgrind count (`--toggle-collect=*measured_region*`), as in
/// `mcp-bench`.
#[inline(never)]
fn measured_region<T>(f: impl FnOnce() -> T) -> T {
    black_box(f())
}

/// `preserve_order` when serde_json's `Map` iterates in insertion order, else `default`.
fn features() -> &'static str {
    let mut map = Map::new();
    map.insert("b".to_owned(), Value::Null);
    map.insert("a".to_owned(), Value::Null);
    match map.keys().next().map(String::as_str) {
        Some("b") => "preserve_order",
        _ => "default",
    }
}

// The three passes of `mcp-bench`'s codecs.rs (`decode_all`, `encode_all`, `round_trip_all`)
// with its `serde_json::Value` codec.

fn decode_all(messages: &[&str]) -> usize {
    messages
        .iter()
        .filter(|m| black_box(serde_json::from_str::<Value>(m)).is_ok())
        .count()
}

fn encode_all(decoded: &[Value], out: &mut Vec<u8>) -> usize {
    out.clear();
    for d in decoded {
        // Encoding a decoded `Value` cannot fail.
        let _ = serde_json::to_writer(&mut *out, d);
        out.push(b'\n');
    }
    out.len()
}

fn round_trip_all(messages: &[&str], out: &mut Vec<u8>) -> usize {
    out.clear();
    for m in messages {
        if let Ok(d) = serde_json::from_str::<Value>(m) {
            let _ = serde_json::to_writer(&mut *out, &d);
            out.push(b'\n');
        }
    }
    out.len()
}

/// The messages of a `mcp-bench dump-corpus` file: one per line.
fn read_corpus(file: &str) -> Result<String, String> {
    std::fs::read_to_string(file).map_err(|e| format!("reading {file}: {e}"))
}

fn count(op: &str, file: &str) -> Result<(), String> {
    let text = read_corpus(file)?;
    let messages: Vec<&str> = text.split_terminator('\n').collect();
    let bytes: usize = messages.iter().map(|m| m.len()).sum();
    let mut out = Vec::with_capacity(8 << 20);
    let work = match op {
        "decode" => measured_region(|| decode_all(&messages)),
        "encode" => {
            // Decoded outside the counted region, as `mcp-bench` prepares its encode input.
            let decoded: Vec<Value> = messages
                .iter()
                .filter_map(|m| serde_json::from_str(m).ok())
                .collect();
            measured_region(|| encode_all(&decoded, &mut out))
        }
        "decode+encode" => measured_region(|| round_trip_all(&messages, &mut out)),
        other => {
            return Err(format!(
                "unknown operation `{other}` (decode, encode, decode+encode)"
            ));
        }
    };
    println!("{bytes}\t{}\t{work}", messages.len());
    Ok(())
}

/// The decode time of each message warm (`interleave::per_item`), as `mcp-bench per-message`
/// times its codecs.
fn per_message(file: &str, reps: &str, rounds: &str) -> Result<(), String> {
    let number = |s: &str| match s.parse() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "reps and rounds must be positive numbers, not `{s}`"
        )),
    };
    let (reps, rounds) = (number(reps)?, number(rounds)?);
    let text = read_corpus(file)?;
    let messages: Vec<&str> = text.split_terminator('\n').collect();
    let times = interleave::per_item(messages.len(), reps, rounds, |i| {
        serde_json::from_str::<Value>(messages[i]).is_ok()
    });
    println!("index\tns");
    for (i, t) in times.iter().enumerate() {
        println!("{i}\t{}", t.as_nanos());
    }
    Ok(())
}

/// The wall clock of `mcp-bench messages` for this one codec: the same method (the same
/// file, `bench/src/interleave.rs`) and the same 20 ms per timing, the three operations
/// interleaved.
fn time(corpus: &str, file: &str, rounds: usize) -> Result<(), String> {
    const MB: f64 = 1e6;
    let text = read_corpus(file)?;
    let messages: Vec<&str> = text.split_terminator('\n').collect();
    let bytes: usize = messages.iter().map(|m| m.len()).sum();
    let decoded: Vec<Value> = messages
        .iter()
        .filter_map(|m| serde_json::from_str(m).ok())
        .collect();
    let mut out = Vec::with_capacity(8 << 20);
    let ops = ["decode", "encode", "decode+encode"];
    let timings =
        interleave::interleaved(
            ops.len(),
            rounds,
            Duration::from_millis(20),
            |i| match ops[i] {
                "decode" => decode_all(&messages),
                "encode" => encode_all(&decoded, &mut out),
                _ => round_trip_all(&messages, &mut out),
            },
        );
    for (op, t) in ops.iter().zip(timings) {
        let secs = t.median.as_secs_f64();
        println!(
            "{corpus}\tserde_json::Value (default features)\t{op}\t{bytes}\t{}\t{:.1}\t{:.1}\t{:.0}\t{}",
            messages.len(),
            secs * 1e6,
            bytes as f64 / secs / MB,
            messages.len() as f64 / secs,
            t.passes
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["features"] => {
            println!("{}", features());
            Ok(())
        }
        ["count", op, file] => count(op, file),
        ["per-message", file] => per_message(file, "64", "5"),
        ["per-message", file, reps] => per_message(file, reps, "5"),
        ["per-message", file, reps, rounds] => per_message(file, reps, rounds),
        ["time", corpus, file] => time(corpus, file, 15),
        ["time", corpus, file, rounds] => match rounds.parse() {
            Ok(n) if n > 0 => time(corpus, file, n),
            _ => Err(format!("rounds must be a positive number, not `{rounds}`")),
        },
        _ => Err(USAGE.to_owned()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-bench-value-default: {e}");
            ExitCode::FAILURE
        }
    }
}
