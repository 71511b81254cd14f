#!/usr/bin/env bash
# Measures everything BENCHMARKS.md reports and writes it to bench/results/:
#   messages.tsv      wall-clock MB/s and messages/s (all codecs side by side, interleaved)
#   round-trip.tsv    messages each codec fails to decode or changes on re-encode
#   instructions.tsv  callgrind instruction counts per codec, operation and corpus
#   generation.tsv    generation time; generation-instructions.tsv the callgrind counts
#   elicitation.tsv   the elicitation content check
#   machine.txt       where and with what it ran
# then redraws bench/chart.svg. Needs valgrind (`apt-get install valgrind`) and python3.
# STEPS="messages instructions" bench/measure.sh runs a subset; MCP_BENCH_BIN=path uses an
# already built mcp-bench binary.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in valgrind python3; do
    command -v "$tool" >/dev/null || { echo "measure.sh needs $tool (apt-get install $tool)" >&2; exit 1; }
done
out=bench/results
mkdir -p "$out"
steps=${STEPS:-"machine round-trip messages instructions generation elicitation chart"}
bin=${MCP_BENCH_BIN:-}
if [ -z "$bin" ]; then
    cargo build --release --locked -p mcp-bench --bin mcp-bench
    bin=target/release/mcp-bench
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Instructions executed inside `measured_region` by `mcp-bench <args>`.
count() {
    valgrind --tool=callgrind --toggle-collect='*measured_region*' \
        --callgrind-out-file="$tmp/cg.out" "$bin" "$@" >"$tmp/stdout" 2>"$tmp/stderr" \
        || { cat "$tmp/stderr" >&2; exit 1; }
    awk '/^(summary|totals):/ { print $2; exit }' "$tmp/cg.out"
}

for step in $steps; do
    case $step in
    machine)
        {
            echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
            echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') ($(nproc) cores)"
            echo "kernel: $(uname -sr)"
            echo "rustc: $(rustc --version)"
            echo "valgrind: $(valgrind --version)"
            echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
            echo "crates: $(grep -A1 -E '^name = "(rmcp|rust-mcp-schema|typify|serde_json|jsonschema)"$' Cargo.lock \
                | paste -d' ' - - - | sed -E 's/name = "([^"]*)" version = "([^"]*)".*/\1 \2/' | paste -sd, -)"
        } >"$out/machine.txt"
        ;;
    round-trip) "$bin" round-trip >"$out/round-trip.tsv" ;;
    messages) nice -n 0 "$bin" messages --rounds "${ROUNDS:-15}" >"$out/messages.tsv" ;;
    instructions)
        printf 'corpus\tcodec\top\tbytes\tmessages\tinstructions\tinstructions_per_byte\n' >"$out/instructions.tsv"
        for corpus in real synthetic; do
            for codec in mcp-typed mcp-typed-envelope rmcp rust-mcp-schema typify serde_json::Value IgnoredAny; do
                for op in decode encode decode+encode; do
                    [ "$codec" = IgnoredAny ] && [ "$op" != decode ] && continue
                    ir=$(count count "$codec" "$op" "$corpus")
                    read -r bytes messages _ <"$tmp/stdout"
                    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$corpus" "$codec" "$op" "$bytes" "$messages" "$ir" \
                        "$(awk -v i="$ir" -v b="$bytes" 'BEGIN { printf "%.1f", i / b }')" >>"$out/instructions.tsv"
                done
            done
        done
        ;;
    generation)
        "$bin" generation --rounds "${GEN_ROUNDS:-5}" >"$out/generation.tsv"
        printf 'generator\trevision\tlines\tinstructions\tinstructions_per_line\n' >"$out/generation-instructions.tsv"
        for job in "mcp-typed-codegen all" "mcp-typed-codegen 2025-06-18" "typify 2025-06-18"; do
            set -- $job
            ir=$(count count-generation "$1" "$2")
            lines=$(cat "$tmp/stdout")
            printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$lines" "$ir" \
                "$(awk -v i="$ir" -v l="$lines" 'BEGIN { printf "%.0f", i / l }')" >>"$out/generation-instructions.tsv"
        done
        ;;
    elicitation)
        "$bin" elicitation >"$out/elicitation.tsv"
        printf 'check\tinstructions_per_content\n' >"$out/elicitation-instructions.tsv"
        for check in from_content jsonschema; do
            ir=$(count count-elicitation "$check" 1000)
            printf '%s\t%s\n' "$check" $((ir / 1000)) >>"$out/elicitation-instructions.tsv"
        done
        ;;
    chart) python3 bench/chart.py "$out" bench/chart.svg ;;
    *) echo "unknown step $step" >&2; exit 1 ;;
    esac
    echo "measure.sh: $step done" >&2
done
