#!/usr/bin/env bash
# The real corpus's decode time message by message, with each message's code warm, for a
# codec of `mcp-bench` (default: mcp-typed, the intended path) beside serde_json::Value with
# default features, grouped by what the messages are: where the typed path wins and loses
# against the untyped one. (The passes of `mcp-bench messages` mix every message, so they
# cannot say which.) Writes to $RESULTS (default bench/results/per-message/):
#   typed.tsv    index, kind, bytes, ns (`mcp-bench per-message`)
#   value.tsv    index, ns (`mcp-bench-value-default per-message`)
#   by-kind.tsv  per kind: messages, bytes, the two sums of ns, Value/typed, Value's share
# Each message is decoded REPS times in a row (default 64) after REPS/4 untimed, in ROUNDS
# rounds (default 5), the fastest round kept. Run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
codec=${CODEC:-mcp-typed}
reps=${REPS:-64}
rounds=${ROUNDS:-5}
out=${RESULTS:-bench/results/per-message}
mkdir -p "$out"
cargo build --release --locked -p mcp-bench --bin mcp-bench
# Alone, so that serde_json keeps its default features (see bench/value-default).
cargo build --release --locked -p mcp-bench-value-default
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
target/release/mcp-bench dump-corpus real >"$tmp/real.jsonl"
target/release/mcp-bench per-message "$codec" real --reps "$reps" --rounds "$rounds" >"$out/typed.tsv"
target/release/mcp-bench-value-default per-message "$tmp/real.jsonl" "$reps" "$rounds" >"$out/value.tsv"
python3 - "$out" <<'EOF'
import collections, sys
out = sys.argv[1]
def rows(name):
    lines = open(f"{out}/{name}").read().split("\n")[1:]
    return [l.split("\t") for l in lines if l]
typed, value = rows("typed.tsv"), rows("value.tsv")
assert len(typed) == len(value), "the two binaries read different corpora"
groups = collections.defaultdict(lambda: [0, 0, 0, 0])
for (i, kind, size, t), (j, v) in zip(typed, value):
    assert i == j
    g = groups[kind]
    g[0] += 1; g[1] += int(size); g[2] += int(t); g[3] += int(v)
total_t = sum(g[2] for g in groups.values())
total_v = sum(g[3] for g in groups.values())
with open(f"{out}/by-kind.tsv", "w") as f:
    f.write("kind\tmessages\tbytes\ttyped_ns\tvalue_ns\tvalue/typed\tvalue_share\n")
    f.write(f"(all)\t{len(typed)}\t{sum(g[1] for g in groups.values())}\t{total_t}\t{total_v}"
            f"\t{total_v / total_t:.2f}\t100.0%\n")
    for kind, (n, size, t, v) in sorted(groups.items(), key=lambda kv: -kv[1][3]):
        f.write(f"{kind}\t{n}\t{size}\t{t}\t{v}\t{v / t:.2f}\t{100 * v / total_v:.1f}%\n")
print(open(f"{out}/by-kind.tsv").read(), end="")
EOF
