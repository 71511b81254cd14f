//! `mcp-bench`: prints the benchmark tables, or runs one measured pass for callgrind.

use std::io::Write as _;
use std::time::Instant;

use clap::{Parser, Subcommand};
use mcp_bench::corpus::Corpus;
use mcp_bench::measure::{self, Op, Prepared};
use mcp_bench::{generation, report};

#[derive(Parser)]
#[command(about = "Benchmarks of mcp-typed against the other Rust MCP libraries")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Wall-clock throughput of every codec (tab-separated).
    Messages {
        /// `real`, `synthetic` or `all`.
        #[arg(long, default_value = "all")]
        corpus: String,
        /// Interleaved rounds (the median is reported).
        #[arg(long, default_value_t = 15)]
        rounds: usize,
    },
    /// Messages each codec fails to decode or changes on re-encode.
    RoundTrip {
        /// `real`, `synthetic` or `all`.
        #[arg(long, default_value = "all")]
        corpus: String,
    },
    /// One pass of one codec over a corpus inside the region callgrind counts.
    Count {
        /// Codec name (see `messages`).
        codec: String,
        /// `decode`, `encode` or `decode+encode`.
        op: String,
        /// `real` or `synthetic`.
        corpus: String,
    },
    /// The decode time of each message with its code warm (each decoded `--reps` times in a
    /// row, the fastest of `--rounds` rounds kept): index, kind, bytes, nanoseconds
    /// (tab-separated). `bench/per-message.sh` sets it beside `serde_json::Value`'s.
    PerMessage {
        /// Codec name (see `messages`).
        codec: String,
        /// `real` or `synthetic`.
        corpus: String,
        #[arg(long, default_value_t = 64)]
        reps: usize,
        #[arg(long, default_value_t = 5)]
        rounds: usize,
    },
    /// Writes a corpus to stdout, one message a line, byte for byte: the input of
    /// `mcp-bench-value-default` (bench/value-default), which cannot link this crate without
    /// getting serde_json's `preserve_order` from `mcp-typed`.
    DumpCorpus {
        /// `real` or `synthetic`.
        corpus: String,
    },
    /// One generation inside the region callgrind counts: `mcp-typed-codegen` of a revision
    /// (or `all`), or `typify` of 2025-06-18.
    CountGeneration {
        /// `mcp-typed-codegen` or `typify`.
        generator: String,
        /// A revision, or `all`.
        revision: String,
    },
    /// `n` elicitation content checks inside the region callgrind counts.
    CountElicitation {
        /// `from_content` or `jsonschema`.
        check: String,
        /// How many times.
        #[arg(default_value_t = 1000)]
        n: usize,
    },
    /// Generation time (tab-separated).
    Generation {
        #[arg(long, default_value_t = 5)]
        rounds: usize,
    },
    /// The elicitation content check (tab-separated).
    Elicitation {
        #[arg(long, default_value_t = 15)]
        rounds: usize,
    },
    /// The traffic checker's cost per message on every real-traffic session, beside
    /// `serde_json::Value` (tab-separated).
    Check {
        /// Rounds (each session replayed once per round; every timing is kept).
        #[arg(long, default_value_t = 20)]
        rounds: usize,
    },
    /// One replay of every real-traffic session with one work, each message inside the region
    /// callgrind counts per message (after one replay outside it, to warm up); prints the
    /// messages and bytes replayed.
    CountCheck {
        /// `serde_json::Value`, `Checker::check`, `proxy-line-json` or `proxy-line-text`.
        work: String,
    },
}

fn corpora(name: &str) -> anyhow::Result<Vec<Corpus>> {
    match name {
        "all" => Ok(vec![
            Corpus::by_name("real")?,
            Corpus::by_name("synthetic")?,
        ]),
        one => Ok(vec![Corpus::by_name(one)?]),
    }
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Messages { corpus, rounds } => {
            for (i, c) in corpora(&corpus)?.into_iter().enumerate() {
                let table = report::messages(c, rounds);
                print!(
                    "{}",
                    if i == 0 {
                        &table[..]
                    } else {
                        table.split_once('\n').map_or("", |t| t.1)
                    }
                );
            }
        }
        Command::RoundTrip { corpus } => {
            for (i, c) in corpora(&corpus)?.iter().enumerate() {
                let table = report::round_trips(c);
                print!(
                    "{}",
                    if i == 0 {
                        &table[..]
                    } else {
                        table.split_once('\n').map_or("", |t| t.1)
                    }
                );
            }
        }
        Command::Count { codec, op, corpus } => {
            let op = Op::by_name(&op)?;
            // Only this codec's decoding is prepared (the encode input): under callgrind every
            // instruction outside the counted region still takes time.
            let prepared = if op == Op::Encode {
                Prepared::for_codecs(Corpus::by_name(&corpus)?, &[codec.as_str()])
            } else {
                Prepared::for_codecs(Corpus::by_name(&corpus)?, &[])
            };
            let mut out = Vec::with_capacity(8 << 20);
            let work = measure::measured_region(|| prepared.pass(&codec, op, &mut out))
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "codec `{codec}` cannot {} (codecs: {:?})",
                        op.name(),
                        measure::CODECS
                    )
                })?;
            println!(
                "{}\t{}\t{}",
                prepared.corpus.bytes(),
                prepared.corpus.messages.len(),
                work
            );
        }
        Command::PerMessage {
            codec,
            corpus,
            reps,
            rounds,
        } => {
            let corpus = Corpus::by_name(&corpus)?;
            let times = measure::per_message(&corpus, &codec, reps, rounds).ok_or_else(|| {
                anyhow::anyhow!(
                    "codec `{codec}` does not decode (codecs: {:?})",
                    measure::CODECS
                )
            })?;
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            writeln!(out, "index\tkind\tbytes\tns")?;
            for (i, (m, t)) in corpus.messages.iter().zip(times).enumerate() {
                writeln!(out, "{i}\t{}\t{}\t{}", m.kind(), m.text.len(), t.as_nanos())?;
            }
        }
        Command::DumpCorpus { corpus } => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            for m in Corpus::by_name(&corpus)?.messages {
                // Compact JSON text has no raw newline; a message that had one would be read
                // back as two.
                anyhow::ensure!(!m.text.contains('\n'), "a message spans lines: {}", m.text);
                writeln!(out, "{}", m.text)?;
            }
            out.flush()?;
        }
        Command::CountGeneration {
            generator,
            revision,
        } => {
            let lines = match generator.as_str() {
                "mcp-typed-codegen" if revision == "all" => {
                    measure::measured_region(generation::mcp_typed_codegen_all)?
                }
                "mcp-typed-codegen" => {
                    measure::measured_region(|| generation::mcp_typed_codegen(&revision))?
                        .lines()
                        .count()
                }
                "typify" => {
                    let schema = std::fs::read_to_string(generation::schema_path(&revision)?)?;
                    measure::measured_region(|| generation::typify(&schema))?
                        .lines()
                        .count()
                }
                other => anyhow::bail!("unknown generator `{other}` (mcp-typed-codegen, typify)"),
            };
            println!("{lines}");
        }
        Command::Generation { rounds } => {
            let start = Instant::now();
            print!("{}", report::generation(rounds)?);
            eprintln!("({:.1} s)", start.elapsed().as_secs_f64());
        }
        Command::CountElicitation { check, n } => {
            use mcp_bench::elicitation::{content, validator, with_elicit, with_jsonschema};
            let content = content();
            let value = serde_json::Value::Object(content.clone());
            let validator = validator();
            // One call first, outside the region: compiles the lazily built regexes.
            let _ = (with_elicit(&content), with_jsonschema(&validator, &value));
            let accepted = match check.as_str() {
                "from_content" => measure::measured_region(|| {
                    (0..n).filter(|_| with_elicit(&content).is_some()).count()
                }),
                "jsonschema" => measure::measured_region(|| {
                    (0..n)
                        .filter(|_| with_jsonschema(&validator, &value).is_some())
                        .count()
                }),
                other => anyhow::bail!("unknown check `{other}` (from_content, jsonschema)"),
            };
            anyhow::ensure!(accepted == n, "the content was refused");
            println!("{n}");
        }
        Command::Elicitation { rounds } => print!("{}", report::elicitation(rounds)),
        Command::Check { rounds } => print!("{}", report::check(rounds)?),
        Command::CountCheck { work } => {
            use mcp_bench::check::{State, Work, replay, sessions};
            let work = Work::by_name(&work)?;
            let sessions = sessions()?;
            // Warm-up outside the counted region (lazily built tables): not through
            // `measured_message`, which callgrind counts wherever it is called.
            for session in &sessions {
                let mut state = State::new(work);
                for (dir, text) in &session.messages {
                    std::hint::black_box(state.message(*dir, text));
                }
            }
            measure::measured_region(|| replay(&sessions, work));
            let messages: usize = sessions.iter().map(|s| s.messages.len()).sum();
            let bytes: usize = sessions
                .iter()
                .flat_map(|s| s.messages.iter().map(|(_, t)| t.len()))
                .sum();
            println!("{messages}\t{bytes}");
        }
    }
    Ok(())
}
