#!/usr/bin/env bash
# Compile time of one revision of mcp-typed (2025-11-25) against rust-mcp-schema's same
# revision and rmcp's model, and of a user crate that decodes every message type of the
# revision, debug and release, read from `cargo build --timings` (each crate's own unit time;
# dependencies are built first and not counted). Writes bench/results/compile-time.tsv.
# Builds with -j1 so that units do not compete for the cores; takes several minutes.
# PROFILES=debug bench/compile-time.sh measures one profile.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$root/target/compile-time
mkdir -p "$work/src" bench/results
lock_version() { grep -A1 "^name = \"$1\"$" Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p' | head -1; }
cat >"$work/Cargo.toml" <<TOML
[package]
name = "decode-every-message"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
mcp-typed = { path = "$root/generated", default-features = false, features = ["v2025_11_25"] }
rust-mcp-schema = { version = "=$(lock_version rust-mcp-schema)", default-features = false, features = ["2025_11_25", "schema_utils"] }
rmcp = { version = "=$(lock_version rmcp)", default-features = false }
serde_json = "1"

[workspace]
TOML
# A user crate touching every message and result type of the revision.
python3 - "$root/generated/src/revisions/v2025_11_25.rs" >"$work/src/main.rs" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
requests = re.findall(r"impl __rt::RequestMethod for (\w+) \{", src)
print("use mcp_typed::v2025_11_25::*;\n")
print("fn main() {")
print("    for line in std::io::stdin().lines() {")
print("        let line = line.unwrap();")
print("        match ClientMessage::from_json(&line) {")
print("            Ok(m) => println!(\"{m:?}\"),")
print("            Err(e) => println!(\"{}\", serde_json::to_string(e.reply()).unwrap()),")
print("        }")
print("        if let Ok(ServerMessage::Response(r)) = ServerMessage::from_json(&line) {")
for r in requests:
    print(f"            println!(\"{{:?}}\", r.result_as::<{r}>());")
print("        }")
print("    }")
print("}")
PY
printf 'profile\tcrate\tseconds\n' >bench/results/compile-time.tsv
for profile in ${PROFILES:-debug release}; do
    flag=$([ $profile = release ] && echo --release || true)
    rm -rf "$work/target"
    (cd "$work" && cargo build $flag -j1 --timings --quiet)
    html=$(ls -t "$work"/target/cargo-timings/cargo-timing-*.html | head -1)
    python3 - "$html" "$profile" >>bench/results/compile-time.tsv <<'PY'
import json, re, sys
html, profile = sys.argv[1], sys.argv[2]
data = json.loads(re.search(r"const UNIT_DATA = (\[.*?\]);\n", open(html).read(), re.S).group(1))
for u in data:
    # The library itself (not its build script) of each crate compared, and the user crate
    # (its binary).
    if u["name"] in ("mcp-typed", "rust-mcp-schema", "rmcp", "decode-every-message") \
            and "build-script" not in u["target"]:
        print(f"{profile}\t{u['name']}\t{u['duration']:.1f}")
PY
done
cat bench/results/compile-time.tsv
