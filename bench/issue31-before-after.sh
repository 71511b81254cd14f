#!/usr/bin/env bash
# Issue 31's before/after run (BENCHMARKS.md, top and section 9): this checkout's mcp-bench and
# an older checkout's, measured in the same minutes on an idle machine. Writes this run into
# bench/results/ and the older binary's into bench/results/issue31/before/.
#   BEFORE=path/to/older/checkout bench/issue31-before-after.sh
# Steps, in order (wall clock first, while the machine is idle; callgrind last, which load
# does not change): measure.sh's messages (ROUNDS=31) and check steps for both binaries, then
# generation and elicitation for this one; the real corpus REPEAT more times and the synthetic
# corpus twice, the two binaries alternating (issue31/wall-clock-alternating/); REPEAT runs of
# issue31-compile-time.sh (issue31/compile-time-final-N.tsv); the callgrind steps (instructions,
# cache) for both.
# AFTER_BIN/BEFORE_BIN=path use binaries built already; COMPILE=0 skips the compile-time runs.
set -euo pipefail
: "${BEFORE:?BEFORE=path of the older checkout}"
cd "$(dirname "$0")/.."
root=$PWD
before_dir=$(cd "$BEFORE" && pwd)
out=bench/results/issue31
mkdir -p "$out/before" "$out/wall-clock-alternating"
log() { echo "$(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg): $*" >&2; }

after=${AFTER_BIN:-}
if [ -z "$after" ]; then
    cargo build --release --locked -p mcp-bench --bin mcp-bench
    mkdir -p target/issue31 && cp target/release/mcp-bench target/issue31/mcp-bench-after
    after=target/issue31/mcp-bench-after
fi
before=${BEFORE_BIN:-}
if [ -z "$before" ]; then
    (cd "$before_dir" && cargo build --release --locked -p mcp-bench --bin mcp-bench)
    mkdir -p target/issue31 && cp "$before_dir/target/release/mcp-bench" target/issue31/mcp-bench-before
    before=target/issue31/mcp-bench-before
fi
cargo build --release --locked -p mcp-bench-value-default
run_after() { RESULTS=bench/results MCP_BENCH_BIN=$after bash bench/measure.sh; }
run_before() { RESULTS=$out/before MCP_BENCH_BIN=$before bash bench/measure.sh; }

STEPS="machine messages" ROUNDS=31 run_after
STEPS="machine messages" ROUNDS=31 run_before
STEPS=check CHECK_EACH=Checker::check run_after
STEPS=check run_before
STEPS="generation elicitation" run_after
log "wall-clock steps done"

alt=$out/wall-clock-alternating
"$after" dump-corpus synthetic >target/issue31-synthetic.jsonl
for n in $(seq 1 "${REPEAT:-3}"); do
    "$after" messages --corpus real --rounds 31 >"$alt/msg-after-$n.tsv"
    "$before" messages --corpus real --rounds 31 >"$alt/msg-before-$n.tsv"
done
for n in 1 2; do
    "$after" messages --corpus synthetic --rounds 15 >"$alt/syn-after-$n.tsv"
    target/release/mcp-bench-value-default time synthetic target/issue31-synthetic.jsonl 15 \
        >"$alt/syn-value-$n.tsv"
    "$before" messages --corpus synthetic --rounds 15 >"$alt/syn-before-$n.tsv"
done
log "alternating runs done"

if [ "${COMPILE:-1}" != 0 ]; then
    for n in $(seq 1 "${REPEAT:-3}"); do
        NOW=$root BEFORE=$before_dir OUT=target/issue31-compile-time bash bench/issue31-compile-time.sh >/dev/null
        cp target/issue31-compile-time/results.tsv "$out/compile-time-final-$n.tsv"
    done
    log "compile time done"
fi

STEPS="round-trip instructions cache chart" run_after
# The codecs the older binary has (no mcp-typed-later there).
STEPS="round-trip instructions cache" \
    CODECS="mcp-typed,mcp-typed-envelope,serde_json::Value,serde_json::Value (default features),IgnoredAny" \
    run_before
log done
