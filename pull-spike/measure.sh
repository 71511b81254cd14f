#!/usr/bin/env bash
# Issue 31 spike: callgrind counts of one decode pass per codec over the slice of the real
# corpus (and the whole real corpus for the codecs that decode all of it), the same way
# bench/measure.sh counts them (`--toggle-collect=*measured_region*`), with the code each
# decoder runs (distinct instruction addresses executed, `--dump-instr=yes`, as measure.sh's
# `cache` step). Writes TSV to stdout. `serde_json::Value (default features)` is
# bench/value-default's binary, built alone, fed the same messages through a file.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 1; }
cargo build --release --locked -p mcp-pull-spike >&2
cargo build --release --locked -p mcp-bench-value-default >&2
target=${CARGO_TARGET_DIR:-target}
bin=$target/release/mcp-pull-spike
value_bin=$target/release/mcp-bench-value-default
[ "$("$value_bin" features)" = default ] || { echo "$value_bin has preserve_order" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) ($(date -u +%Y-%m-%dT%H:%MZ))" >&2
printf 'corpus\tcodec\tbytes\tmessages\tdecoded\tinstructions\tinstr_per_byte\tdistinct_instructions\tfunctions\n'
for corpus in slice real; do
    "$bin" dump "$corpus" >"$tmp/$corpus.jsonl"
    # mcp-typed only on the slice: on the whole corpus this crate's reference types only the
    # slice's results (bench/measure.sh has the full typed row).
    codecs=("serde_json::Value (default features)" "serde_json::Value" IgnoredAny)
    [ "$corpus" = slice ] && codecs+=(mcp-typed)
    [ "$corpus" = slice ] && codecs+=(jiter "jiter, results in one pass" \
        "jiter, one pass, open JSON as text" simd-json "jiter skip" "simd-json tape" \
        "jiter, every string copied")
    for codec in "${codecs[@]}"; do
        if [ "$codec" = "serde_json::Value (default features)" ]; then
            run=("$value_bin" count decode "$tmp/$corpus.jsonl")
        else
            run=("$bin" count "$codec" "$corpus")
        fi
        valgrind --tool=callgrind --dump-instr=yes --compress-pos=no \
            --toggle-collect='*measured_region*' --callgrind-out-file="$tmp/cg.out" "${run[@]}" \
            >"$tmp/stdout" 2>"$tmp/stderr" || { cat "$tmp/stderr" >&2; exit 1; }
        read -r bytes messages decoded _ <"$tmp/stdout"
        python3 - "$tmp/cg.out" "$corpus" "$codec" "$bytes" "$messages" "$decoded" <<'PY'
import re, sys
addresses, functions, fn, summary = set(), set(), None, None
for line in open(sys.argv[1]):
    if line.startswith(("summary:", "totals:")) and summary is None:
        summary = int(line.split()[1])
    elif line.startswith("fn="):
        fn = line[3:].strip()
    elif (m := re.match(r"0x([0-9a-f]+) ", line)):
        addresses.add(m[1])
        functions.add(fn)
corpus, codec, b, n, d = sys.argv[2:7]
print(corpus, codec, b, n, d, summary, f"{summary / int(b):.1f}", len(addresses), len(functions), sep="\t")
PY
    done
done
