#!/usr/bin/env bash
# Compile time of the types crate alone (2025-11-25 only), dependencies built first, -j1,
# for two checkouts and rmcp's model (no default features), same run. Unit time from --timings.
# NOW=this checkout BEFORE=an older checkout OUT=a scratch folder bench/issue31-compile-time.sh
# (the issue 31 run: NOW at bea0a85, BEFORE at fee2c83; bench/results/issue31/compile-time.tsv).
set -euo pipefail
: "${NOW:?NOW=path of this checkout}" "${BEFORE:?BEFORE=path of the older checkout}" "${OUT:?OUT=scratch folder}"
mkdir -p "$OUT"
out=$OUT/results.tsv
printf 'profile\tcrate\tseconds\n' > $out
unit() { # DIR PROFILEFLAG NAME LABEL
  local html=$(ls -t "$1"/target/cargo-timings/cargo-timing-*.html | head -1)
  python3 - "$html" "$3" "$4" "$2" >> $out <<'PY'
import json, re, sys
html, name, label, prof = sys.argv[1:5]
data = json.loads(re.search(r"const UNIT_DATA = (\[.*?\]);\n", open(html).read(), re.S).group(1))
for u in data:
    if u["name"] == name and "build-script" not in u["target"]:
        print(f"{prof.lstrip('-') or 'debug'}\t{name}{label}\t{u['duration']:.1f}")
PY
}
crate() { # DIR DEP-LINE
  mkdir -p "$1/src"
  printf '[package]\nname = "ct"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n[dependencies]\n%s\n\n[workspace]\n' "$2" > "$1/Cargo.toml"
  echo 'fn main() {}' > "$1/src/main.rs"
}
crate "$OUT/now" "mcp-typed-types = { path = \"$NOW/generated\", default-features = false, features = [\"v2025_11_25\"] }"
crate "$OUT/before" "mcp-typed-types = { path = \"$BEFORE/generated\", default-features = false, features = [\"v2025_11_25\"] }"
crate "$OUT/rmcp" 'rmcp = { version = "=RMCP", default-features = false }'
sed -i "s/=RMCP/=$(grep -A1 '^name = "rmcp"$' "$NOW"/Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p' | head -1)/" "$OUT"/rmcp/Cargo.toml
for prof in "" "--release"; do
  for d in now before rmcp; do
    name=$([ $d = rmcp ] && echo rmcp || echo mcp-typed-types)
    (cd "$OUT"/$d && cargo build $prof -q -j2 2>/dev/null || true)
    (cd "$OUT"/$d && cargo clean $prof -q -p $name && cargo build $prof -j1 --timings -q)
    unit "$OUT"/$d "$prof" $name " ($d)"
  done
done
cat $out
