//! Side-by-side measurement of the message codecs: every (codec, operation) pair on one corpus,
//! interleaved round by round so that machine noise hits all of them alike; the median pass
//! time of each is reported.

use std::hint::black_box;
use std::time::Duration;

use crate::codecs::{self, Codec};
use crate::corpus::Corpus;

/// What is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// Text → value.
    Decode,
    /// Value → text.
    Encode,
    /// Text → value → text.
    RoundTrip,
}

impl Op {
    /// All operations.
    pub const ALL: [Op; 3] = [Op::Decode, Op::Encode, Op::RoundTrip];

    /// Its name on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            Op::Decode => "decode",
            Op::Encode => "encode",
            Op::RoundTrip => "decode+encode",
        }
    }

    /// The operation called `name`.
    pub fn by_name(name: &str) -> anyhow::Result<Op> {
        Op::ALL
            .into_iter()
            .find(|op| op.name() == name)
            .ok_or_else(|| {
                anyhow::anyhow!("unknown operation `{name}` (decode, encode, decode+encode)")
            })
    }
}

/// The codecs, in table order.
pub const CODECS: [&str; 8] = [
    codecs::McpTypes::NAME,
    codecs::McpTypesLater::NAME,
    codecs::McpTypesEnvelope::NAME,
    codecs::Rmcp::NAME,
    codecs::RustMcpSchema::NAME,
    codecs::Typify::NAME,
    codecs::JsonValue::NAME,
    codecs::Floor::NAME,
];

/// A corpus with every codec's decoded messages ready for the encode benchmark.
pub struct Prepared {
    /// The corpus.
    pub corpus: Corpus,
    mcp_typed: Vec<<codecs::McpTypes as Codec>::Decoded>,
    later: Vec<<codecs::McpTypesLater as Codec>::Decoded>,
    envelope: Vec<<codecs::McpTypesEnvelope as Codec>::Decoded>,
    rmcp: Vec<<codecs::Rmcp as Codec>::Decoded>,
    rust_mcp_schema: Vec<<codecs::RustMcpSchema as Codec>::Decoded>,
    typify: Vec<<codecs::Typify as Codec>::Decoded>,
    value: Vec<<codecs::JsonValue as Codec>::Decoded>,
}

impl Prepared {
    /// Decodes `corpus` with every codec once.
    pub fn new(corpus: Corpus) -> Prepared {
        Prepared::for_codecs(corpus, &CODECS)
    }

    /// Decodes `corpus` with the codecs named (the others cannot encode it afterwards).
    pub fn for_codecs(corpus: Corpus, names: &[&str]) -> Prepared {
        fn decoded_if<C: Codec>(names: &[&str], m: &[crate::corpus::Message]) -> Vec<C::Decoded> {
            if names.contains(&C::NAME) {
                codecs::decoded::<C>(m)
            } else {
                Vec::new()
            }
        }
        let m = &corpus.messages;
        Prepared {
            mcp_typed: decoded_if::<codecs::McpTypes>(names, m),
            later: decoded_if::<codecs::McpTypesLater>(names, m),
            envelope: decoded_if::<codecs::McpTypesEnvelope>(names, m),
            rmcp: decoded_if::<codecs::Rmcp>(names, m),
            rust_mcp_schema: decoded_if::<codecs::RustMcpSchema>(names, m),
            typify: decoded_if::<codecs::Typify>(names, m),
            value: decoded_if::<codecs::JsonValue>(names, m),
            corpus,
        }
    }

    /// Runs `op` once over the whole corpus with `codec`, returning a work count (messages
    /// decoded or bytes written), or `None` when the codec cannot do `op`.
    pub fn pass(&self, codec: &str, op: Op, out: &mut Vec<u8>) -> Option<usize> {
        fn run<C: Codec>(
            m: &[crate::corpus::Message],
            d: &[C::Decoded],
            op: Op,
            out: &mut Vec<u8>,
        ) -> usize {
            match op {
                Op::Decode => codecs::decode_all::<C>(m),
                Op::Encode => codecs::encode_all::<C>(d, out),
                Op::RoundTrip => codecs::round_trip_all::<C>(m, out),
            }
        }
        let m = &self.corpus.messages;
        Some(match codec {
            codecs::McpTypes::NAME => run::<codecs::McpTypes>(m, &self.mcp_typed, op, out),
            codecs::McpTypesLater::NAME => run::<codecs::McpTypesLater>(m, &self.later, op, out),
            codecs::McpTypesEnvelope::NAME => {
                run::<codecs::McpTypesEnvelope>(m, &self.envelope, op, out)
            }
            codecs::Rmcp::NAME => run::<codecs::Rmcp>(m, &self.rmcp, op, out),
            codecs::RustMcpSchema::NAME => {
                run::<codecs::RustMcpSchema>(m, &self.rust_mcp_schema, op, out)
            }
            codecs::Typify::NAME => run::<codecs::Typify>(m, &self.typify, op, out),
            codecs::JsonValue::NAME => run::<codecs::JsonValue>(m, &self.value, op, out),
            codecs::Floor::NAME if op == Op::Decode => codecs::decode_all::<codecs::Floor>(m),
            _ => return None,
        })
    }
}

/// The decode time of each message of `corpus` with `codec`, warm ([`per_item`]: `reps` runs
/// in a row, the fastest of `rounds` rounds); `None` when `codec` does not decode.
///
/// [`per_item`]: crate::interleave::per_item
pub fn per_message(
    corpus: &Corpus,
    codec: &str,
    reps: usize,
    rounds: usize,
) -> Option<Vec<Duration>> {
    fn run<C: Codec>(m: &[crate::corpus::Message], reps: usize, rounds: usize) -> Vec<Duration> {
        crate::interleave::per_item(m.len(), reps, rounds, |i| C::decode(&m[i]).is_ok())
    }
    let m = &corpus.messages;
    Some(match codec {
        codecs::McpTypes::NAME => run::<codecs::McpTypes>(m, reps, rounds),
        codecs::McpTypesLater::NAME => run::<codecs::McpTypesLater>(m, reps, rounds),
        codecs::McpTypesEnvelope::NAME => run::<codecs::McpTypesEnvelope>(m, reps, rounds),
        codecs::Rmcp::NAME => run::<codecs::Rmcp>(m, reps, rounds),
        codecs::RustMcpSchema::NAME => run::<codecs::RustMcpSchema>(m, reps, rounds),
        codecs::Typify::NAME => run::<codecs::Typify>(m, reps, rounds),
        codecs::JsonValue::NAME => run::<codecs::JsonValue>(m, reps, rounds),
        codecs::Floor::NAME => run::<codecs::Floor>(m, reps, rounds),
        _ => return None,
    })
}

/// The region `measure.sh` has callgrind count (`--toggle-collect=*measured_region*`).
#[inline(never)]
pub fn measured_region<T>(f: impl FnOnce() -> T) -> T {
    black_box(f())
}

/// One measured (codec, operation) pair.
#[derive(Debug, Clone)]
pub struct Sample {
    /// Codec name.
    pub codec: &'static str,
    /// Operation.
    pub op: Op,
    /// Median time of one pass over the corpus.
    pub median: Duration,
    /// Passes timed.
    pub passes: usize,
}

/// Times every codec and operation on `prepared`, `rounds` interleaved rounds of passes,
/// each (codec, op) repeated within a round until it has run for at least `min_pass`.
pub fn wall_clock(prepared: &Prepared, rounds: usize, min_pass: Duration) -> Vec<Sample> {
    let mut out = Vec::with_capacity(1 << 20);
    let pairs: Vec<(&'static str, Op)> = CODECS
        .iter()
        .flat_map(|&c| Op::ALL.into_iter().map(move |op| (c, op)))
        .filter(|&(c, op)| prepared.pass(c, op, &mut out).is_some())
        .collect();
    let timings = crate::interleave::interleaved(pairs.len(), rounds, min_pass, |i| {
        let (c, op) = pairs[i];
        prepared.pass(c, op, &mut out)
    });
    pairs
        .iter()
        .zip(timings)
        .map(|(&(codec, op), t)| Sample {
            codec,
            op,
            median: t.median,
            passes: t.passes,
        })
        .collect()
}
