#!/usr/bin/env bash
# Materializes the OLD decoder (the serde `Deserialize` impls the generator emitted before
# issue 31) from git history into fuzz/oracle/old/ (git-ignored), so that the differential
# oracle links it beside the current decoder in one binary.
#
# What it writes: the crates `generated`, `runtime` and `rules` of commit $OLD_DECODER_COMMIT
# (default fee2c83, the last commit before issue 31 began), each with a Cargo.toml of its own
# that renames the package (`mcp-typed-types-old`, `mcp-typed-runtime-old`,
# `mcp-typed-rules-old`) and keeps the crate names the code uses (`::mcp_typed_runtime`,
# `mcp_typed_rules`) through `package = ...` in the dependency tables. Only what the old
# generated crate needs at that commit: the five dated revisions, no `schemars`, no `rmcp`.
#
# Idempotent: does nothing when old/ already holds that commit. Needs the repository's
# history (a shallow clone: `git fetch --unshallow`).
#
# Usage: bash fuzz/oracle/old-decoder.sh
set -euo pipefail

OLD="${OLD_DECODER_COMMIT:-fee2c831d3b77677a52aa52180f28274f1eb4704}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(git -C "$here" rev-parse --show-toplevel)"
out="$here/old"

commit="$(git -C "$root" rev-parse --verify --quiet "$OLD^{commit}")" || {
    echo "old-decoder.sh: commit $OLD is not in this clone's history (a shallow clone? git fetch --unshallow)" >&2
    exit 1
}
if [ -f "$out/COMMIT" ] && [ "$(cat "$out/COMMIT")" = "$commit" ]; then
    exit 0
fi

# The dependencies the old crates declare, checked against what the Cargo.toml files below
# write: a different commit with other dependencies must fail here, not build something else.
expect_deps() { # crate, expected dependency names (sorted, one line)
    local got
    got="$(git -C "$root" show "$commit:$1/Cargo.toml" |
        awk '/^\[dependencies\]/{d=1;next} /^\[/{d=0} d && /^[a-z]/{sub(/[ .=].*/,""); print}' |
        sort | tr '\n' ' ')"
    if [ "$got" != "$2 " ]; then
        echo "old-decoder.sh: $1/Cargo.toml at $commit depends on: $got (expected: $2)" >&2
        exit 1
    fi
}
expect_deps generated "mcp-typed-runtime rmcp"
expect_deps runtime "indexmap mcp-typed-rules schemars serde_core serde_json serde_path_to_error"
expect_deps rules "fluent-uri idna"

rm -rf "$out"
mkdir -p "$out"
git -C "$root" archive "$commit" \
    generated/src generated/README.md \
    runtime/src runtime/README.md \
    rules/src rules/README.md |
    tar -x -C "$out"

common='version = "0.1.0"
edition = "2024"
publish = false'
# The features this script leaves out (schemars, rmcp, draft, uri…) are still named in
# cfg attributes.
lints='[lints.rust]
unexpected_cfgs = "allow"'

cat >"$out/rules/Cargo.toml" <<TOML
# Written by fuzz/oracle/old-decoder.sh from $commit:rules/Cargo.toml (no features needed).
[package]
name = "mcp-typed-rules-old"
$common

$lints

[lib]
name = "mcp_typed_rules_old"
TOML

cat >"$out/runtime/Cargo.toml" <<TOML
# Written by fuzz/oracle/old-decoder.sh from $commit:runtime/Cargo.toml (without schemars).
[package]
name = "mcp-typed-runtime-old"
$common

$lints

[lib]
name = "mcp_typed_runtime_old"

[dependencies]
mcp-typed-rules = { path = "../rules", package = "mcp-typed-rules-old" }
serde_core = { version = "1.0.220", default-features = false, features = ["std"] }
serde_json = { version = "1", features = ["preserve_order", "raw_value", "float_roundtrip"] }
indexmap = { version = "2", features = ["serde"] }
serde_path_to_error = "0.1.20"
TOML

cat >"$out/generated/Cargo.toml" <<TOML
# Written by fuzz/oracle/old-decoder.sh from $commit:generated/Cargo.toml (without rmcp,
# schemars and draft, an alias of v2026_07_28).
[package]
name = "mcp-typed-types-old"
$common

$lints

[lib]
name = "mcp_typed_types_old"

[features]
v2024_11_05 = []
v2025_03_26 = []
v2025_06_18 = []
v2025_11_25 = []
v2026_07_28 = []

[dependencies]
mcp-typed-runtime = { path = "../runtime", package = "mcp-typed-runtime-old" }
TOML

echo "$commit" >"$out/COMMIT"
echo "old decoder of $commit in $out"
