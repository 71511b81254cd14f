#!/usr/bin/env bash
# Measures everything BENCHMARKS.md reports and writes it to bench/results/:
#   messages.tsv      wall-clock MB/s and messages/s (all codecs side by side, interleaved;
#                     serde_json::Value with default features timed right after, alone)
#   round-trip.tsv    messages each codec fails to decode or changes on re-encode
#   instructions.tsv  callgrind instruction counts per codec, operation and corpus
#   generation.tsv    generation time; generation-instructions.tsv the callgrind counts
#   elicitation.tsv   the elicitation content check
#   check.tsv         the traffic checker's wall-clock latency per message (every real session)
#                     beside serde_json::Value; check-instructions.tsv its callgrind counts per
#                     message (mean and distribution)
#   cache.tsv         the simulated instruction cache and branch predictors on the real traffic's
#                     decode, and how much code each decoder runs (distinct instructions)
#   machine.txt       where and with what it ran
# then redraws bench/chart.svg. Needs valgrind (`apt-get install valgrind`) and python3.
# STEPS="messages instructions" bench/measure.sh runs a subset; MCP_BENCH_BIN=path uses an
# already built mcp-bench binary; CHECK_EACH (see the check step) adds per-message instruction
# distributions; CODECS="serde_json::Value,serde_json::Value (default features)" (comma-separated
# rows) counts only some codecs' instructions and cache figures; RESULTS=dir writes the results
# there instead (keeps a partial run out of bench/results).
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in valgrind python3; do
    command -v "$tool" >/dev/null || { echo "measure.sh needs $tool (apt-get install $tool)" >&2; exit 1; }
done
out=${RESULTS:-bench/results}
mkdir -p "$out"
steps=${STEPS:-"machine round-trip messages instructions cache generation elicitation check chart"}
bin=${MCP_BENCH_BIN:-}
if [ -z "$bin" ]; then
    cargo build --release --locked -p mcp-bench --bin mcp-bench
    bin=target/release/mcp-bench
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Instructions executed inside `measured_region` by `<binary> <args>`.
count() {
    valgrind --tool=callgrind --toggle-collect='*measured_region*' \
        --callgrind-out-file="$tmp/cg.out" "$@" >"$tmp/stdout" 2>"$tmp/stderr" \
        || { cat "$tmp/stderr" >&2; exit 1; }
    awk '/^(summary|totals):/ { print $2; exit }' "$tmp/cg.out"
}

# Instructions of each message `mcp-bench count-check <work>` replays, one line per message in
# order: counted from entering `measured_message` to entering the `message_done` after it, the
# count written (one part of one file) and zeroed there. About 30 ms per dump: ~1 min a work.
count_each() {
    valgrind --tool=callgrind --zero-before='*measured_message*' --dump-before='*message_done*' \
        --combine-dumps=yes --callgrind-out-file="$tmp/cg.out" "$bin" count-check "$1" \
        >"$tmp/stdout" 2>"$tmp/stderr" || { cat "$tmp/stderr" >&2; exit 1; }
    read -r messages _ <"$tmp/stdout"
    # The part after the last message is the dump at exit.
    awk '/^totals:/ { print $2 }' "$tmp/cg.out" | head -n "$messages"
}

# mcp-bench's serde_json::Value has `preserve_order` (an IndexMap per object), which feature
# unification brings from `mcp-typed`. Users get the default (a BTreeMap): that row is a crate
# of its own depending on serde_json alone, built alone, and fed the same corpora through a
# file (bench/value-default/src/main.rs). Builds it and checks that it is what it claims.
value_bin=target/release/mcp-bench-value-default
value_default() {
    cargo build --release --locked -p mcp-bench-value-default
    [ "$("$value_bin" features)" = default ] || {
        echo "$value_bin has serde_json's preserve_order (built with the workspace?)" >&2
        exit 1
    }
}

# The corpus file `mcp-bench dump-corpus <real|synthetic>` writes, written once per run.
corpus_file() {
    [ -s "$tmp/$1.jsonl" ] || "$bin" dump-corpus "$1" >"$tmp/$1.jsonl"
    echo "$tmp/$1.jsonl"
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
    messages)
        # The serde_json::Value (default features) rows come from their own binary (see the
        # instructions step), timed the same way right after mcp-bench's codecs.
        value_default
        # The load the wall clock ran under, in machine.txt (replacing an earlier run's line).
        touch "$out/machine.txt"
        sed -i '/^load average at messages:/d' "$out/machine.txt"
        echo "load average at messages: $(cut -d' ' -f1-3 /proc/loadavg) ($(date -u +%Y-%m-%dT%H:%MZ), ROUNDS=${ROUNDS:-15})" \
            >>"$out/machine.txt"
        nice -n 0 "$bin" messages --rounds "${ROUNDS:-15}" >"$out/messages.tsv"
        for corpus in real synthetic; do
            "$value_bin" time "$corpus" "$(corpus_file "$corpus")" "${ROUNDS:-15}" >>"$out/messages.tsv"
        done
        ;;
    instructions)
        value_default
        printf 'corpus\tcodec\top\tbytes\tmessages\tinstructions\tinstructions_per_byte\n' >"$out/instructions.tsv"
        for corpus in real synthetic; do
            file=$(corpus_file "$corpus")
            for codec in mcp-typed mcp-typed-later mcp-typed-envelope rmcp rust-mcp-schema typify serde_json::Value \
                "serde_json::Value (default features)" IgnoredAny; do
                [[ -z ${CODECS:-} || ",$CODECS," == *",$codec,"* ]] || continue
                for op in decode encode decode+encode; do
                    [ "$codec" = IgnoredAny ] && [ "$op" != decode ] && continue
                    if [ "$codec" = "serde_json::Value (default features)" ]; then
                        ir=$(count "$value_bin" count "$op" "$file")
                    else
                        ir=$(count "$bin" count "$codec" "$op" "$corpus")
                    fi
                    read -r bytes messages _ <"$tmp/stdout"
                    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$corpus" "$codec" "$op" "$bytes" "$messages" "$ir" \
                        "$(awk -v i="$ir" -v b="$bytes" 'BEGIN { printf "%.1f", i / b }')" >>"$out/instructions.tsv"
                done
            done
        done
        ;;
    cache)
        # callgrind's cache and branch simulation, with the cache geometry fixed (L1 32 KiB,
        # 8-way, 64-byte lines) so that machines agree, and the code each decoder runs: the
        # distinct instruction addresses executed (`--dump-instr=yes`). Real traffic, decode.
        value_default
        printf 'codec\tinstructions\ti1_misses\tcond_branches\tcond_mispredicted\tindirect_branches\tindirect_mispredicted\tdistinct_instructions\tfunctions\n' \
            >"$out/cache.tsv"
        for codec in mcp-typed mcp-typed-later "serde_json::Value (default features)" rmcp; do
            [[ -z ${CODECS:-} || ",$CODECS," == *",$codec,"* ]] || continue
            if [ "$codec" = "serde_json::Value (default features)" ]; then
                run=("$value_bin" count decode "$(corpus_file real)")
            else
                run=("$bin" count "$codec" decode real)
            fi
            valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes --I1=32768,8,64 \
                --D1=32768,8,64 --LL=8388608,16,64 --dump-instr=yes --compress-pos=no \
                --toggle-collect='*measured_region*' --callgrind-out-file="$tmp/cg.out" "${run[@]}" \
                >/dev/null 2>"$tmp/stderr" || { cat "$tmp/stderr" >&2; exit 1; }
            python3 - "$tmp/cg.out" "$codec" >>"$out/cache.tsv" <<'PY'
import re, sys
addresses, functions, fn, events, summary = set(), set(), None, [], []
for line in open(sys.argv[1]):
    if line.startswith("events:"):
        events = line.split()[1:]
    elif line.startswith("summary:"):
        summary = [int(x) for x in line.split()[1:]]
    elif line.startswith("fn="):
        fn = line[3:].strip()
    elif (m := re.match(r"0x([0-9a-f]+) ", line)):
        addresses.add(m[1])
        functions.add(fn)
e = dict(zip(events, summary))
print(sys.argv[2], e["Ir"], e["I1mr"], e["Bc"], e["Bcm"], e["Bi"], e["Bim"], len(addresses),
      len(functions), sep="\t")
PY
        done
        ;;
    generation)
        "$bin" generation --rounds "${GEN_ROUNDS:-5}" >"$out/generation.tsv"
        printf 'generator\trevision\tlines\tinstructions\tinstructions_per_line\n' >"$out/generation-instructions.tsv"
        for job in "mcp-typed-codegen all" "mcp-typed-codegen 2025-06-18" "typify 2025-06-18"; do
            set -- $job
            ir=$(count "$bin" count-generation "$1" "$2")
            lines=$(cat "$tmp/stdout")
            printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$lines" "$ir" \
                "$(awk -v i="$ir" -v l="$lines" 'BEGIN { printf "%.0f", i / l }')" >>"$out/generation-instructions.tsv"
        done
        ;;
    elicitation)
        "$bin" elicitation >"$out/elicitation.tsv"
        printf 'check\tinstructions_per_content\n' >"$out/elicitation-instructions.tsv"
        for check in from_content jsonschema; do
            ir=$(count "$bin" count-elicitation "$check" 1000)
            printf '%s\t%s\n' "$check" $((ir / 1000)) >>"$out/elicitation-instructions.tsv"
        done
        ;;
    check)
        # The load the wall clock ran under, in machine.txt (replacing an earlier run's line).
        touch "$out/machine.txt"
        sed -i '/^load average at check:/d' "$out/machine.txt"
        echo "load average at check: $(cut -d' ' -f1-3 /proc/loadavg) ($(date -u +%Y-%m-%dT%H:%MZ))" \
            >>"$out/machine.txt"
        "$bin" check --rounds "${CHECK_ROUNDS:-20}" >"$out/check.tsv"
        # Every work's total (~30 s); the distribution over messages only for the works in
        # CHECK_EACH (~1 min each: a callgrind dump per message), e.g.
        # CHECK_EACH="Checker::check proxy-line-json"; the others get "-".
        each=${CHECK_EACH:-}
        printf 'work\tmessages\tbytes\tinstructions\tper_message\tvs_value\tp50\tp90\tp99\tmax\n' \
            >"$out/check-instructions.tsv"
        value=
        for work in serde_json::Value Checker::check proxy-line-json proxy-line-text; do
            if [[ " $each " == *" $work "* ]]; then
                count_each "$work" | sort -n >"$tmp/per-message"
            else
                count "$bin" count-check "$work" >"$tmp/total"
                : >"$tmp/per-message"
            fi
            read -r messages bytes <"$tmp/stdout"
            if [ -s "$tmp/per-message" ]; then
                [ "$(wc -l <"$tmp/per-message")" -eq "$messages" ] \
                    || { echo "check: $work: fewer dumps than messages" >&2; exit 1; }
                ir=$(awk '{ s += $1 } END { printf "%.0f", s }' "$tmp/per-message")
            else
                ir=$(cat "$tmp/total")
            fi
            value=${value:-$ir}
            awk -v work="$work" -v messages="$messages" -v bytes="$bytes" -v ir="$ir" -v value="$value" '
                function at(q,  r) { r = int(q * NR); if (r < q * NR) r++; return ir_[r < 1 ? 1 : r] }
                { ir_[NR] = $1 }
                END {
                    printf "%s\t%d\t%d\t%d\t%.0f\t%.2f", work, messages, bytes, ir, ir / messages, ir / value
                    if (NR) printf "\t%d\t%d\t%d\t%d\n", at(0.5), at(0.9), at(0.99), ir_[NR]
                    else printf "\t-\t-\t-\t-\n"
                }' "$tmp/per-message" >>"$out/check-instructions.tsv"
        done
        ;;
    chart) python3 bench/chart.py "$out" bench/chart.svg ;;
    *) echo "unknown step $step" >&2; exit 1 ;;
    esac
    echo "measure.sh: $step done" >&2
done
