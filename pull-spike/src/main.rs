//! `mcp-pull-spike`: the measured passes of the issue 31 spike (see BENCHMARKS.md).
//!
//! ```text
//! mcp-pull-spike count <codec> [slice|real]   one decode pass inside `measured_region`
//!                                            (for callgrind); prints bytes, messages, decoded
//! mcp-pull-spike dump [slice|real]           the corpus, one message a line
//! mcp-pull-spike check                       every slice message decodes equal on all three
//! mcp-pull-spike time [rounds]               wall clock, codecs interleaved (median)
//! ```

use std::hint::black_box;
use std::io::Write as _;
use std::time::Duration;

use mcp_pull_spike::{
    CODECS, corpus, decode_jiter, decode_jiter_with, decode_mcp_typed, decode_pass, decode_simd,
};

// The bench's timers; `per_item` (per-message timing) is the bench's alone.
#[allow(dead_code)]
#[path = "../../bench/src/interleave.rs"]
mod interleave;

/// The region `bench/measure.sh` has callgrind count (`--toggle-collect=*measured_region*`).
#[inline(never)]
fn measured_region<T>(f: impl FnOnce() -> T) -> T {
    black_box(f())
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_owned());
    match arg(0, "").as_str() {
        "count" => {
            let codec = arg(1, "");
            let c = corpus(&arg(2, "slice"))?;
            let decoded = measured_region(|| decode_pass(&codec, &c.messages))
                .ok_or_else(|| anyhow::anyhow!("unknown codec `{codec}` ({CODECS:?})"))?;
            println!("{}\t{}\t{}", c.bytes(), c.messages.len(), decoded);
        }
        "dump" => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            for m in corpus(&arg(1, "slice"))?.messages {
                writeln!(out, "{}", m.text)?;
            }
        }
        "check" => {
            let c = corpus("slice")?;
            let mut state = Default::default();
            for (i, m) in c.messages.iter().enumerate() {
                let want = decode_mcp_typed(m).map_err(|e| anyhow::anyhow!("message {i}: {e}"))?;
                let j = decode_jiter(m).map_err(|e| anyhow::anyhow!("jiter, message {i}: {e}"))?;
                let s = decode_simd(&mut state, m)
                    .map_err(|e| anyhow::anyhow!("simd-json, message {i}: {e}"))?;
                anyhow::ensure!(j == want, "jiter differs on message {i}: {}", m.text);
                let j1 = decode_jiter_with(m, true, false)
                    .map_err(|e| anyhow::anyhow!("jiter one pass, message {i}: {e}"))?;
                anyhow::ensure!(
                    j1 == want,
                    "jiter one pass differs on message {i}: {}",
                    m.text
                );
                anyhow::ensure!(s == want, "simd-json differs on message {i}: {}", m.text);
            }
            println!(
                "{} messages, {} bytes: equal on all three decoders",
                c.messages.len(),
                c.bytes()
            );
        }
        "time" => {
            let rounds: usize = arg(1, "31").parse()?;
            let c = corpus("slice")?;
            let t = interleave::interleaved(CODECS.len(), rounds, Duration::from_millis(20), |i| {
                decode_pass(CODECS[i], &c.messages)
            });
            println!("codec\tmedian_us\tMB_s\tpasses");
            for (codec, t) in CODECS.iter().zip(t) {
                let us = t.median.as_secs_f64() * 1e6;
                println!(
                    "{codec}\t{us:.1}\t{:.0}\t{}",
                    c.bytes() as f64 / us,
                    t.passes
                );
            }
        }
        _ => anyhow::bail!(
            "usage: mcp-pull-spike count <codec> [slice|real] | dump [slice|real] | check | time [rounds]"
        ),
    }
    Ok(())
}
