#!/usr/bin/env bash
# Compile time of one revision of mcp-typed (2025-11-25) against rust-mcp-schema's same
# revision and rmcp's model, and of a user crate that decodes every message type of the
# revision, debug and release: each crate's own unit time read from `cargo build --timings`
# (dependencies are built first and not counted), and the whole build from scratch ("all
# units from scratch": the user crate with every dependency; each anchor alone in a crate of
# its own). Writes bench/results/compile-time.tsv.
# Builds with -j1 so that units do not compete for the cores; takes several minutes.
# PROFILES=debug bench/compile-time.sh measures one profile; BEFORE=<older checkout> measures
# its mcp-typed and user crate too, in the same run (rows marked "(before)"). Release rows also
# give the size of the user binary's .text.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
mkdir -p bench/results
lock_version() { grep -A1 "^name = \"$1\"$" Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p' | head -1; }

# write_crate DIR MCP_TYPED_TREE: the throw-away user crate in DIR, on the mcp-typed of
# MCP_TYPED_TREE (a checkout of this repository).
write_crate() {
    local dir=$1 tree=$2
    mkdir -p "$dir/src"
    # mcp-typed is in mcp-typed/ (the types in generated/, crate mcp-typed-types) since issue
    # 30; in generated/, the modules in src/revisions/, before.
    local krate=$tree/mcp-typed module=$tree/generated/src/v2025_11_25.rs
    [ -d "$krate" ] || krate=$tree/generated
    [ -f "$module" ] || module=$tree/generated/src/revisions/v2025_11_25.rs
    {
        cat <<TOML
[package]
name = "decode-every-message"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
mcp-typed = { path = "$krate", default-features = false, features = ["v2025_11_25"] }
serde_json = "1"
TOML
        printf '\n[workspace]\n'
    } >"$dir/Cargo.toml"
    # A user crate touching every message and result type of the revision.
    python3 - "$module" >"$dir/src/main.rs" <<'PY'
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

# write_anchor DIR NAME DEPENDENCY: a crate in DIR whose one dependency is an anchor (its line
# for [dependencies]), built the same way.
write_anchor() {
    local dir=$1 name=$2 dependency=$3
    mkdir -p "$dir/src"
    printf '[package]\nname = "%s"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n[dependencies]\n%s\n\n[workspace]\n' \
        "$name" "$dependency" >"$dir/Cargo.toml"
    echo 'fn main() {}' >"$dir/src/main.rs"
}

# measure DIR LABEL: builds DIR from scratch per profile and appends each compared crate's own
# unit time (label appended to mcp-typed's and the user crate's names) and, for release, the
# size of the user binary's .text.
measure() {
    local dir=$1 label=$2
    for profile in ${PROFILES:-debug release}; do
        flag=$([ $profile = release ] && echo --release || true)
        rm -rf "$dir/target"
        local started=$(date +%s.%N)
        (cd "$dir" && cargo build $flag -j1 --timings --quiet)
        # The whole build from scratch: every dependency, -j1.
        printf '%s\tall units from scratch%s\t%.1f\n' "$profile" "$label" \
            "$(echo "$(date +%s.%N) - $started" | bc)" >>bench/results/compile-time.tsv
        html=$(ls -t "$dir"/target/cargo-timings/cargo-timing-*.html | head -1)
        python3 - "$html" "$profile" "$label" >>bench/results/compile-time.tsv <<'PY'
import json, re, sys
html, profile, label = sys.argv[1], sys.argv[2], sys.argv[3]
data = json.loads(re.search(r"const UNIT_DATA = (\[.*?\]);\n", open(html).read(), re.S).group(1))
for u in data:
    # The library itself (not its build script) of each crate compared, and the user crate
    # (its binary).
    # (mcp-typed-runtime, mcp-typed-types: the runtime and types crates, where the checkout
    # has them.)
    ours = ("mcp-typed", "mcp-typed-types", "mcp-typed-runtime", "decode-every-message")
    if u["name"] in ours + ("rust-mcp-schema", "rmcp") and "build-script" not in u["target"]:
        name = u["name"] + (label if u["name"] in ours else "")
        print(f"{profile}\t{name}\t{u['duration']:.1f}")
PY
        if [ "$profile" = release ] && [ -f "$dir/target/release/decode-every-message" ]; then
            text=$(size -A "$dir/target/release/decode-every-message" | awk '$1 == ".text" { print $2 }')
            printf 'release\tdecode-every-message%s .text bytes\t%s\n' "$label" "$text" >>bench/results/compile-time.tsv
        fi
    done
}

printf 'profile\tcrate\tseconds\n' >bench/results/compile-time.tsv
write_crate "$root/target/compile-time/now" "$root"
measure "$root/target/compile-time/now" ""
# BEFORE=path/to/an/older/checkout adds the same rows for it, from the same run.
if [ -n "${BEFORE:-}" ]; then
    write_crate "$root/target/compile-time/before" "$(cd "$BEFORE" && pwd)"
    measure "$root/target/compile-time/before" " (before)"
fi
# The anchors, each alone: rmcp's model (no default features) and rust-mcp-schema's 2025-11-25.
write_anchor "$root/target/compile-time/rmcp" rmcp-alone \
    "rmcp = { version = \"=$(lock_version rmcp)\", default-features = false }"
measure "$root/target/compile-time/rmcp" " (rmcp-alone)"
write_anchor "$root/target/compile-time/rust-mcp-schema" rust-mcp-schema-alone \
    "rust-mcp-schema = { version = \"=$(lock_version rust-mcp-schema)\", default-features = false, features = [\"2025_11_25\", \"schema_utils\"] }"
measure "$root/target/compile-time/rust-mcp-schema" " (rust-mcp-schema-alone)"
cat bench/results/compile-time.tsv
