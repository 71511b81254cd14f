#!/usr/bin/env bash
# Compile time of one revision of mcp-typed (2025-11-25) against rust-mcp-schema's same
# revision and rmcp's model, and of a user crate that decodes every message type of the
# revision, debug and release, read from `cargo build --timings` (each crate's own unit time;
# dependencies are built first and not counted). Writes bench/results/compile-time.tsv.
# Builds with -j1 so that units do not compete for the cores; takes several minutes.
# PROFILES=debug bench/compile-time.sh measures one profile; BEFORE=<older checkout> measures
# its mcp-typed and user crate too, in the same run (rows marked "(before)"). Release rows also
# give the size of the user binary's .text.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
mkdir -p bench/results
lock_version() { grep -A1 "^name = \"$1\"$" Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p' | head -1; }

# write_crate DIR MCP_TYPED_TREE ANCHORS: the throw-away user crate in DIR, on the mcp-typed of
# MCP_TYPED_TREE (a checkout of this repository), with the anchors when ANCHORS is yes.
write_crate() {
    local dir=$1 tree=$2 anchors=$3
    mkdir -p "$dir/src"
    {
        cat <<TOML
[package]
name = "decode-every-message"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
mcp-typed = { path = "$tree/generated", default-features = false, features = ["v2025_11_25"] }
serde_json = "1"
TOML
        if [ "$anchors" = yes ]; then
            echo "rust-mcp-schema = { version = \"=$(lock_version rust-mcp-schema)\", default-features = false, features = [\"2025_11_25\", \"schema_utils\"] }"
            echo "rmcp = { version = \"=$(lock_version rmcp)\", default-features = false }"
        fi
        printf '\n[workspace]\n'
    } >"$dir/Cargo.toml"
    # A user crate touching every message and result type of the revision.
    python3 - "$tree/generated/src/v2025_11_25.rs" >"$dir/src/main.rs" <<'PY'
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
}

# measure DIR LABEL: builds DIR from scratch per profile and appends each compared crate's own
# unit time (label appended to mcp-typed's and the user crate's names) and, for release, the
# size of the user binary's .text.
measure() {
    local dir=$1 label=$2
    for profile in ${PROFILES:-debug release}; do
        flag=$([ $profile = release ] && echo --release || true)
        rm -rf "$dir/target"
        (cd "$dir" && cargo build $flag -j1 --timings --quiet)
        html=$(ls -t "$dir"/target/cargo-timings/cargo-timing-*.html | head -1)
        python3 - "$html" "$profile" "$label" >>bench/results/compile-time.tsv <<'PY'
import json, re, sys
html, profile, label = sys.argv[1], sys.argv[2], sys.argv[3]
data = json.loads(re.search(r"const UNIT_DATA = (\[.*?\]);\n", open(html).read(), re.S).group(1))
for u in data:
    # The library itself (not its build script) of each crate compared, and the user crate
    # (its binary).
    # (mcp-typed-runtime: the runtime crate, where the checkout has one.)
    ours = ("mcp-typed", "mcp-typed-runtime", "decode-every-message")
    if u["name"] in ours + ("rust-mcp-schema", "rmcp") and "build-script" not in u["target"]:
        name = u["name"] + (label if u["name"] in ours else "")
        print(f"{profile}\t{name}\t{u['duration']:.1f}")
PY
        if [ "$profile" = release ]; then
            text=$(size -A "$dir/target/release/decode-every-message" | awk '$1 == ".text" { print $2 }')
            printf 'release\tdecode-every-message%s .text bytes\t%s\n' "$label" "$text" >>bench/results/compile-time.tsv
        fi
    done
}

printf 'profile\tcrate\tseconds\n' >bench/results/compile-time.tsv
write_crate "$root/target/compile-time/now" "$root" yes
measure "$root/target/compile-time/now" ""
# BEFORE=path/to/an/older/checkout adds the same two rows for it, from the same run.
if [ -n "${BEFORE:-}" ]; then
    write_crate "$root/target/compile-time/before" "$(cd "$BEFORE" && pwd)" no
    measure "$root/target/compile-time/before" " (before)"
fi
cat bench/results/compile-time.tsv
