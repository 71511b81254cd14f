#!/usr/bin/env bash
# Proves that the published crates work as *packages*, consumed from outside this repository
# the way a user gets them from crates.io:
#
#   1. `cargo package` of mcp-typed-rules, mcp-typed-macros, mcp-typed-runtime,
#      mcp-typed-types, mcp-typed, mcp-typed-codegen and mcp-typed-cli
#      (together, so the packaged Cargo.lock of one can name the others), with their file
#      lists and sizes;
#   2. a local registry with no network: a directory source made by `cargo vendor` from the
#      workspace's Cargo.lock (the third-party crates, out of cargo's download cache), into
#      which the `.crate` files are unpacked with their `.cargo-checksum.json`;
#   3. two cargo projects outside the repository whose `.cargo/config.toml` replaces crates-io
#      with that directory, depending on the crates by version only, built and run with
#      `--offline`: a user of mcp-typed (`#[derive(Elicit)]`, a typed message round trip), and
#      a `build.rs` user whose only crate of this project is mcp-typed-runtime (with
#      mcp-typed-codegen as a build dependency, generating a revision with the packaged
#      `mcp_typed_codegen::Builder`; `cargo tree` must show no other);
#   4. every feature of mcp-typed-rules, mcp-typed-runtime, mcp-typed-types, mcp-typed and
#      mcp-typed-codegen checked alone, from
#      the packages (in the workspace, features unify across members and can hide a missing
#      one);
#   5. `cargo install --offline --locked mcp-typed-codegen` from the same source (its default
#      features, its packaged Cargo.lock), and the installed binary's `generate` run outside
#      the repository, its output compared with the checked-in module (the same bytes);
#   6. the same for mcp-typed-cli: its binary `mcp-typed` installed, then `check` and `tools
#      --from` run outside the repository.
#
# Everything is built in one target folder ($MCP_PACKAGED_DIR, default target/packaged), and
# the projects are kept in $TMPDIR/mcp-typed-packaged-<hash of this checkout's path>[-features],
# so a second run only rebuilds what changed. tests/tests/packaging/packaged_crates.rs runs this
# script.
# Exits non-zero, naming the step, on any failure.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=${MCP_PACKAGED_DIR:-$repo/target/packaged}
export CARGO_TERM_COLOR=never
# The cargo that runs the tests, when run by one (`cargo test`), else the one on PATH.
cargo=${CARGO:-cargo}
# Debug info is not needed to run anything here; without it links are faster (as in .ci/run).
export CARGO_INCREMENTAL=0 CARGO_PROFILE_DEV_DEBUG=0 CARGO_PROFILE_TEST_DEBUG=0
# The one target folder of every build below; a CARGO_TARGET_DIR from outside must not win.
unset CARGO_TARGET_DIR CARGO_BUILD_TARGET_DIR
# Run by `cargo test`, the script inherits what cargo sets for a test (CARGO_MANIFEST_DIR,
# CARGO_PKG_*, OUT_DIR…). The builds below must not see it: a build script that reads one
# (ring's reads CARGO_MANIFEST_DIR and OUT_DIR) would rerun, and rebuild what depends on it,
# whenever the caller changes.
for v in $(compgen -e); do
  case $v in
    CARGO_MANIFEST_* | CARGO_PKG_* | CARGO_CRATE_NAME | CARGO_BIN_NAME | CARGO_PRIMARY_PACKAGE | \
      CARGO_TARGET_TMPDIR | CARGO_RUSTC_CURRENT_DIR | OUT_DIR) unset "$v" ;;
  esac
done

step_name="setup"
step() { # prints the step and the seconds since the start
  step_name="$*"
  printf '\n==> %s [%ss]\n' "$*" "$SECONDS"
}
reported=""
die() {
  printf '\npackaging check FAILED (%s): %s\n' "$step_name" "$*" >&2
  reported=1
  exit 1
}
# Scratch space outside the repository for the installed generator's runs, removed on exit.
tmp=$(mktemp -d)
on_exit() {
  local status=$?
  rm -rf "$tmp"
  # A failure die() did not report (a command failing under `set -e`): name the step.
  if [ "$status" -ne 0 ] && [ -z "$reported" ]; then
    printf '\npackaging check FAILED at step: %s (exit %s)\n' "$step_name" "$status" >&2
  fi
}
trap on_exit EXIT

# The crates published from this workspace, dependencies first.
crates=(mcp-typed-rules mcp-typed-macros mcp-typed-runtime mcp-typed-types mcp-typed mcp-typed-codegen mcp-typed-cli)

step "tools"
for tool in "$cargo" tar gzip sha256sum diff; do
  command -v "$tool" >/dev/null || die "'$tool' is needed and not on PATH"
done
mkdir -p "$work"
# One run at a time per target folder (two `cargo test` runs would share the registry folder).
if command -v flock >/dev/null; then
  exec 9>"$work/.lock"
  flock 9
fi

# The official schema files, found as mcp-typed-codegen finds them from inside the project:
# $MCP_SCHEMA_DIR, else the schema/ cache, else ../shared/mcp-spec beside the checkout. The
# consumer gets the folder through $MCP_SCHEMA_DIR: the packaged generator must not need to
# be inside this repository to find a schema.
schema_dir=""
for d in "${MCP_SCHEMA_DIR:-}" "$repo/schema" "$repo/../shared/mcp-spec"; do
  if [ -n "$d" ] && [ -f "$d/2025-11-25/schema.json" ]; then
    schema_dir=$(cd "$d" && pwd)
    break
  fi
done
[ -n "$schema_dir" ] || die "no 2025-11-25/schema.json in \$MCP_SCHEMA_DIR, $repo/schema or $repo/../shared/mcp-spec"
echo "schema files: $schema_dir"

# --------------------------------------------------------------------------------------------
step "cargo package (--no-verify: the steps below build the packaged crates, from the registry)"
pkg_args=()
for c in "${crates[@]}"; do pkg_args+=(-p "$c"); done
# --allow-dirty: check the working tree as it is (CI's tree is clean anyway). All in one
# command: cargo then resolves each package's Cargo.lock against the others' packages.
"$cargo" package --offline --no-verify --allow-dirty --no-metadata "${pkg_args[@]}" \
  --manifest-path "$repo/Cargo.toml" --target-dir "$work/cargo" 2>"$work/package.log" ||
  { cat "$work/package.log" >&2; die "cargo package failed"; }
grep -E '^ *(Packaging|Packaged) ' "$work/package.log" || true

version=$("$cargo" pkgid --offline --manifest-path "$repo/Cargo.toml" -p mcp-typed)
version=${version##*[#@]}
echo "version: $version"

for c in "${crates[@]}"; do
  file="$work/cargo/package/$c-$version.crate"
  [ -f "$file" ] || die "cargo package wrote no $file"
  listing=$("$cargo" package --offline --list --allow-dirty --no-metadata -p "$c" \
    --manifest-path "$repo/Cargo.toml" 2>/dev/null) || die "cargo package --list -p $c failed"
  compressed=$(stat -c %s "$file")
  uncompressed=$(gzip -dc "$file" | wc -c)
  mapfile -t listed <<<"$listing"
  printf '\n%s %s: %s files; .crate %s bytes (tar %s bytes)\n' "$c" "$version" \
    "${#listed[@]}" "$compressed" "$uncompressed"
  printf '  %s\n' "${listed[@]}"
done

# --------------------------------------------------------------------------------------------
step "local registry: cargo vendor (third-party crates) + the packaged crates"
registry="$work/registry"
lock_sum=$(sha256sum "$repo/Cargo.lock" | cut -d' ' -f1)
if [ "$(cat "$registry/.vendored-lock" 2>/dev/null || true)" != "$lock_sum" ]; then
  rm -rf "$registry" "$registry.tmp"
  # cargo vendor copies every crate of the lock, for every platform, out of cargo's download
  # cache. Offline first; crates the cache lacks (other platforms' crates, which no build on
  # this machine downloaded) make it fall back to downloading them once from crates.io.
  if ! "$cargo" vendor --offline --locked --versioned-dirs --manifest-path "$repo/Cargo.toml" \
    "$registry.tmp" >/dev/null 2>"$work/vendor.log"; then
    echo "cargo vendor --offline: some crates are not in cargo's cache; downloading them"
    rm -rf "$registry.tmp"
    "$cargo" vendor --locked --versioned-dirs --manifest-path "$repo/Cargo.toml" \
      "$registry.tmp" >/dev/null 2>"$work/vendor.log" ||
      { cat "$work/vendor.log" >&2; die "cargo vendor failed"; }
  fi
  mv "$registry.tmp" "$registry"
  echo "$lock_sum" >"$registry/.vendored-lock"
fi
echo "$(find "$registry" -mindepth 1 -maxdepth 1 -type d | wc -l) crates in $registry"

# A directory source checks each file against .cargo-checksum.json, and the package's
# checksum against Cargo.lock: write both as cargo vendor would.
declare -A content_sum
for c in "${crates[@]}"; do
  dir="$registry/$c-$version"
  rm -rf "$dir"
  tar -xzf "$work/cargo/package/$c-$version.crate" -C "$registry"
  [ -f "$dir/Cargo.toml" ] || die "$c-$version.crate does not unpack to $c-$version/"
  files=$(cd "$dir" && find . -type f ! -name .cargo-checksum.json | sed 's|^\./||' | LC_ALL=C sort)
  # The names go into JSON as they are: refuse one that would need escaping.
  ! grep -q '["\\[:cntrl:]]' <<<"$files" || die "a file name in $c needs JSON escaping"
  sums=$(cd "$dir" && while IFS= read -r f; do
    printf '%s %s\n' "$(sha256sum <"$f" | cut -d' ' -f1)" "$f"
  done <<<"$files")
  {
    printf '{"files":{'
    sep=""
    while read -r sum f; do
      printf '%s"%s":"%s"' "$sep" "$f" "$sum"
      sep=","
    done <<<"$sums"
    printf '},"package":"%s"}' "$(sha256sum <"$work/cargo/package/$c-$version.crate" | cut -d' ' -f1)"
  } >"$dir/.cargo-checksum.json"
  # What the crate builds from: not .cargo_vcs_info.json (the commit and whether the tree is
  # dirty) nor Cargo.lock (unused by dependents; it holds the other packages' checksums).
  content_sum[$c]=$(grep -v ' \(\.cargo_vcs_info\.json\|Cargo\.lock\)$' <<<"$sums" |
    sha256sum | cut -d' ' -f1)
done

# --------------------------------------------------------------------------------------------
step "projects outside the repository, depending on the crates by version"
target="$work/target"
# A fixed folder per checkout (not under the repository: the generator must find nothing of
# the project from there), rewritten by this script on every run; files are only rewritten
# when their content changes, so a second run does not rebuild the project.
consumer="${TMPDIR:-/tmp}/mcp-typed-packaged-$(printf '%s' "$repo" | sha256sum | cut -c1-12)"
case "$consumer/" in "$repo"/*) die "the project folder $consumer is inside the repository" ;; esac
mkdir -p "$consumer/src" "$consumer/.cargo"
write() { # write FILE, content on stdin; only when it differs
  local new
  new=$(cat)
  [ -f "$1" ] && [ "$(cat "$1")" = "$new" ] || printf '%s\n' "$new" >"$1"
}
write "$consumer/.cargo/config.toml" <<EOF
# crates-io is the local registry: the packaged crates and their vendored dependencies.
[source.crates-io]
replace-with = "packaged"

[source.packaged]
directory = "$registry"

[net]
offline = true
EOF
write "$consumer/Cargo.toml" <<EOF
[package]
name = "packaged-crates-consumer"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
mcp-typed = { version = "=$version", default-features = false, features = ["elicit", "v2025_11_25"] }
serde_json = "1"

# Its own workspace, whatever folder holds it.
[workspace]
EOF
rm -f "$consumer/build.rs"
write "$consumer/src/main.rs" <<'EOF'
//! Uses mcp-typed, mcp-typed-macros (through mcp_typed::Elicit) and mcp-typed-runtime (through
//! mcp-typed), as packages. Panics on any mismatch.
#![deny(warnings)]

use mcp_typed::v2025_11_25::{ClientMessage, ClientRequest};
use mcp_typed::{Elicit, ElicitOutcome, ProtocolVersion, RequestMethod};
use serde_json::{Value, json};

#[derive(Elicit, Debug, PartialEq)]
struct Guests {
    /// How many people?
    #[elicit(minimum = 1, maximum = 12)]
    count: u8,
    /// Anything we should know?
    notes: Option<String>,
}

fn main() {
    // The derive: the requested schema, and an answer read back into the struct.
    let schema = serde_json::to_value(Guests::requested_schema()).unwrap();
    println!("requestedSchema: {schema}");
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["required"], json!(["count"]));
    assert_eq!(schema["properties"]["count"]["maximum"], 12);
    assert_eq!(schema["properties"]["notes"]["description"], "Anything we should know?");
    let params = Guests::form_params("Table for how many?", ProtocolVersion::V2025_11_25).unwrap();
    assert_eq!(params.to_value()["requestedSchema"], schema);
    let answer = json!({ "action": "accept", "content": { "count": 4, "notes": "window" } });
    let guests = Guests::outcome(&answer).unwrap();
    println!("answer: {guests:?}");
    assert_eq!(
        guests,
        ElicitOutcome::Accepted(Guests { count: 4, notes: Some("window".into()) })
    );
    let bad = json!({ "action": "accept", "content": { "count": 40 } });
    let refused = Guests::outcome(&bad).unwrap_err().to_string();
    println!("refused: {refused}");
    assert!(refused.contains("count"), "{refused}");

    // A typed message: decode, check, encode back to the same JSON.
    let line = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"book_table","arguments":{"guests":4,"date":"2026-12-24"}}}"#;
    let sent: Value = serde_json::from_str(line).unwrap();
    let message = ClientMessage::from_json(line).unwrap_or_else(|e| {
        panic!("refused: {e}; reply {}", serde_json::to_string(e.reply()).unwrap())
    });
    let ClientMessage::Request(ClientRequest::CallTool(call)) = &message else {
        panic!("not a tools/call request: {message:?}");
    };
    assert_eq!(call.params.name, "book_table");
    assert_eq!(serde_json::to_value(&message).unwrap(), sent);
    assert_eq!(<mcp_typed::v2025_11_25::CallToolRequest as RequestMethod>::METHOD, "tools/call");
    println!("round trip: {line}");
    println!("packaged crates: ok");
}
EOF

# The build.rs user: types generated into their own crate, which calls mcp-typed-runtime and
# depends on no other crate of this project (serde_json is theirs, to write JSON).
builder="$consumer-build-rs"
mkdir -p "$builder/src" "$builder/.cargo"
write "$builder/.cargo/config.toml" <"$consumer/.cargo/config.toml"
write "$builder/Cargo.toml" <<EOF
[package]
name = "packaged-build-rs-user"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
mcp-typed-runtime = "=$version"
serde_json = "1"

[build-dependencies]
mcp-typed-codegen = { version = "=$version", default-features = false }

[workspace]
EOF
write "$builder/build.rs" <<'EOF'
//! The packaged generator in a user's build.rs: the schema comes from $MCP_SCHEMA_DIR, the
//! manifest and errata from inside the package.
fn main() {
    println!("cargo:rerun-if-env-changed=MCP_SCHEMA_DIR");
    mcp_typed_codegen::Builder::new()
        .revision("2025-11-25")
        .module_name("mcp")
        .generate()
        .expect("generate MCP types")
        .write_to_out_dir("mcp.rs")
        .expect("write MCP types");
}
EOF
write "$builder/src/main.rs" <<'EOF'
//! The types build.rs generated from the 2025-11-25 schema, calling mcp-typed-runtime: decoded,
//! inspected and encoded back. Panics on any mismatch.
#![deny(warnings)]

use mcp_typed_runtime::{RequestMethod, Unknowns};
use serde_json::Value;

include!(concat!(env!("OUT_DIR"), "/mcp.rs"));

fn main() {
    let line = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"book_table","arguments":{"guests":4},"x-trace":"a1"}}"#;
    let message = mcp::ClientMessage::from_json(line).unwrap_or_else(|e| {
        panic!("refused: {e}; reply {}", serde_json::to_string(e.reply()).unwrap())
    });
    let mcp::ClientMessage::Request(mcp::ClientRequest::CallTool(call)) = &message else {
        panic!("not a tools/call request: {message:?}");
    };
    assert_eq!(call.params.name, "book_table");
    assert_eq!(<mcp::CallToolRequest as RequestMethod>::METHOD, "tools/call");
    let unknowns: Vec<String> = message.unknowns().into_iter().map(|u| u.pointer).collect();
    assert_eq!(unknowns, ["/params/x-trace"]);
    let sent: Value = serde_json::from_str(line).unwrap();
    assert_eq!(serde_json::to_value(&message).unwrap(), sent);
    // A line that does not decode: the reply owed, addressed to the request.
    let bad = r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{}}"#;
    let e = mcp::ClientMessage::from_json(bad).unwrap_err();
    let reply: Value = serde_json::to_value(e.reply()).unwrap();
    assert_eq!((reply["id"].as_i64(), reply["error"]["code"].as_i64()), (Some(8), Some(mcp::INVALID_PARAMS)));
    println!("build.rs module on mcp-typed-runtime: ok");
}
EOF

# The crates come from a directory source, whose build fingerprint is the version alone: a
# changed crate of the same version would not be rebuilt. Clean each crate whose content
# differs from what the target folder was last built from (what depends on it follows), and
# record the new content before building, so a build that fails half way is cleaned again.
changed=()
for c in "${crates[@]}"; do
  [ "$(cat "$target/.packaged-$c" 2>/dev/null || true)" = "${content_sum[$c]}" ] || changed+=("$c")
done
if [ ${#changed[@]} -gt 0 ]; then
  if [ -d "$target" ]; then
    echo "changed since the last build: ${changed[*]}; cleaning their old build"
    rm -f "$consumer/Cargo.lock" "$builder/Cargo.lock"
    clean_args=()
    for c in "${changed[@]}"; do clean_args+=(-p "$c"); done
    # `cargo clean -p` needs a project whose graph holds each crate (the consumer has no
    # mcp-typed-cli): one beside it that depends on all of them, never built.
    cleaner="$consumer-clean"
    mkdir -p "$cleaner/src" "$cleaner/.cargo"
    write "$cleaner/.cargo/config.toml" <"$consumer/.cargo/config.toml"
    {
      printf '[package]\nname = "packaged-crates-clean"\nversion = "0.0.0"\nedition = "2024"\n'
      printf 'publish = false\n\n[dependencies]\n'
      for c in "${crates[@]}"; do printf '%s = { version = "=%s", default-features = false }\n' "$c" "$version"; done
      printf '\n[workspace]\n'
    } | write "$cleaner/Cargo.toml"
    write "$cleaner/src/lib.rs" <<<'//! Never built: what `cargo clean -p` resolves the packaged crates in.'
    rm -f "$cleaner/Cargo.lock"
    (cd "$cleaner" && "$cargo" clean --offline --target-dir "$target" "${clean_args[@]}") ||
      die "cargo clean failed"
  fi
  mkdir -p "$target"
  for c in "${changed[@]}"; do echo "${content_sum[$c]}" >"$target/.packaged-$c"; done
fi

step "build and run them (offline)"
# A fresh resolution each run: the packaged crates' checksums change with every commit.
rm -f "$consumer/Cargo.lock" "$builder/Cargo.lock"
(cd "$consumer" && "$cargo" run --offline --target-dir "$target") ||
  die "the project using the packaged crates failed to build or run (in $consumer)"
(cd "$builder" && MCP_SCHEMA_DIR="$schema_dir" "$cargo" run --offline --target-dir "$target") ||
  die "the build.rs user of the packaged crates failed to build or run (in $builder)"
# What the build.rs user's program is built from: of this project's crates, the runtime (its
# one dependency here) and what the runtime brings, mcp-typed-rules (ProtocolVersion; no
# dependencies without features).
direct=$(cd "$builder" && "$cargo" tree --offline -e normal --depth 1 --prefix none | sed 1d |
  sed 's/ .*//' | grep '^mcp-typed' | sort -u | paste -sd' ')
[ "$direct" = mcp-typed-runtime ] ||
  die "the build.rs user depends on $direct, not on mcp-typed-runtime alone"
ours=$(cd "$builder" && "$cargo" tree --offline -e normal --prefix none | sed 's/ .*//' |
  grep '^mcp-typed' | sort -u | paste -sd' ')
[ "$ours" = "mcp-typed-rules mcp-typed-runtime" ] ||
  die "the build.rs user's program is built from $ours, not from mcp-typed-runtime and the rules it brings"
echo "the build.rs user's program: $(cd "$builder" && "$cargo" tree --offline -e normal \
  --prefix none | sed 's/ (\*)$//' | sort -u | wc -l) crates, of this project's $ours only"

# --------------------------------------------------------------------------------------------
step "every feature of the packaged crates, alone (cargo check, outside the workspace)"
# In the workspace, features unify across members (the tests turn most of them on), so a
# feature that lacks a dependency feature of its own can still build there. Here each one
# builds by itself, from the package. A second project beside the first, same registry.
probe="$consumer-features"
mkdir -p "$probe/src" "$probe/.cargo"
write "$probe/.cargo/config.toml" <"$consumer/.cargo/config.toml"
write "$probe/Cargo.toml" <<EOF
[package]
name = "packaged-crates-features"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
mcp-typed-rules = { version = "=$version" }
mcp-typed-runtime = "=$version"
mcp-typed-types = { version = "=$version", default-features = false }
mcp-typed = { version = "=$version", default-features = false }
mcp-typed-codegen = { version = "=$version", default-features = false }

[workspace]
EOF
write "$probe/src/lib.rs" <<<'//! Only its dependencies, with the features named on the command line.'
features_of() { # the [features] names of a packaged (normalized) Cargo.toml, but `default`
  sed -n '/^\[features\]/,/^\[/p' "$1" | sed -n 's/^\([A-Za-z0-9_-]*\) = .*/\1/p' | grep -vx default
}
rm -f "$probe/Cargo.lock"
probes=("")
for c in mcp-typed-rules mcp-typed-runtime mcp-typed-types mcp-typed mcp-typed-codegen; do
  for f in $(features_of "$registry/$c-$version/Cargo.toml"); do probes+=("$c/$f"); done
done
for f in "${probes[@]}"; do
  started=$SECONDS
  (cd "$probe" && "$cargo" check --offline --quiet --lib --target-dir "$target" --features "$f") ||
    die "the packaged crates do not build with only --features '${f:-(none)}'"
  echo "ok: --features '${f:-(none)}' ($((SECONDS - started)) s)"
done

# --------------------------------------------------------------------------------------------
step "cargo install --offline --locked mcp-typed-codegen (the packaged binary, default features)"
# `cargo install` ignores the configuration of the current folder: pass the project's.
# --debug and the shared target folder: the dependencies built above are reused. A fresh
# install root each run (outside $TMPDIR, which may be mounted noexec).
rm -rf "$work/install"
install_packaged() { # the packaged crate $1 installed from the local registry into $work/install
  (cd "$tmp" && "$cargo" install --offline --locked --debug --config "$consumer/.cargo/config.toml" \
    --target-dir "$target" --root "$work/install" "$1@$version") ||
    die "cargo install $1 from the local registry failed"
}
install_packaged mcp-typed-codegen
bin="$work/install/bin/mcp-typed-codegen"
[ -x "$bin" ] || die "cargo install wrote no $bin"

step "the installed mcp-typed-codegen, outside the repository"
mkdir "$tmp/user"
help=$("$bin" generate --help) || die "mcp-typed-codegen generate --help failed"
grep -q -- '--out' <<<"$help" || die "generate --help does not list --out"
(cd "$tmp/user" && MCP_SCHEMA_DIR="$schema_dir" "$bin" generate --revision 2025-11-25 --out src/mcp) ||
  die "mcp-typed-codegen generate failed"
out="$tmp/user/src/mcp/v2025_11_25.rs"
[ -f "$out" ] || die "generate wrote no $out"
head -n1 "$out" | grep -q '^// @generated by mcp-typed-codegen '"$version" ||
  die "$out does not start with the @generated header: $(head -n1 "$out")"
grep -q '^pub struct CallToolRequest' "$out" || die "$out has no CallToolRequest"
size=$(stat -c %s "$out")
[ "$size" -gt 100000 ] || die "$out is only $size bytes"
# The packaged generator's output is the checked-in module, byte for byte (both call the
# runtime as ::mcp_typed_runtime).
if ! diff -q "$out" "$repo/generated/src/v2025_11_25.rs" >/dev/null; then
  diff "$out" "$repo/generated/src/v2025_11_25.rs" | head -20 >&2 || true
  die "the installed generator's 2025-11-25 module differs from generated/src/v2025_11_25.rs"
fi
echo "$out: $size bytes, $(wc -l <"$out") lines, $(head -n1 "$out" | cut -c1-60)…"
# Without --out, generate rewrites the repository's generated/src: outside it, it
# must refuse rather than create that folder in the user's.
mkdir "$tmp/elsewhere"
if (cd "$tmp/elsewhere" && MCP_SCHEMA_DIR="$schema_dir" "$bin" generate >/dev/null 2>&1); then
  die "mcp-typed-codegen generate without --out succeeded outside the repository"
fi
[ -z "$(ls -A "$tmp/elsewhere")" ] || die "mcp-typed-codegen generate without --out wrote into $tmp/elsewhere"
echo "generate without --out, outside the repository: refused, nothing written"

# --------------------------------------------------------------------------------------------
step "cargo install --offline --locked mcp-typed-cli (the packaged binary mcp-typed)"
# Same install root and target folder: ureq, rustls and ring were built for mcp-typed-codegen's
# `http`; what is new is mcp-typed with every dated revision and the crate itself.
install_packaged mcp-typed-cli
cli="$work/install/bin/mcp-typed"
[ -x "$cli" ] || die "cargo install wrote no $cli"

step "the installed mcp-typed, outside the repository"
mkdir "$tmp/cli"
cp "$repo/tests/fixtures/check/broken-server.jsonl" "$repo/tests/fixtures/tool-lists/server-memory.json" "$tmp/cli/"
# A deliberately broken server's traffic: every finding reported, exit status 1.
status=0
report=$(cd "$tmp/cli" && "$cli" check broken-server.jsonl) || status=$?
[ "$status" -eq 1 ] || die "mcp-typed check broken-server.jsonl exited with $status, not 1: $report"
grep -q '^broken-server.jsonl:5: s2c error .*/result/content/1' <<<"$report" ||
  die "mcp-typed check did not report line 5's /result/content/1: $report"
tail -n1 <<<"$report" | grep -Eq '^[0-9]+ passed, [1-9][0-9]* failed$' ||
  die "mcp-typed check ended without its summary: $(tail -n1 <<<"$report")"
echo "check: exit 1, $(tail -n1 <<<"$report")"
(cd "$tmp/cli" && "$cli" tools --from server-memory.json --out memory.rs) ||
  die "mcp-typed tools --from failed"
head -n1 "$tmp/cli/memory.rs" | grep -q '^// @generated by mcp-typed-codegen '"$version" ||
  die "mcp-typed tools wrote no bindings: $(head -n1 "$tmp/cli/memory.rs")"
echo "tools --from: $(wc -l <"$tmp/cli/memory.rs") lines"

step_name="done"
printf '\npackaging check passed in %ss: %s %s as packages, from %s\n' "$SECONDS" "${crates[*]}" \
  "$version" "$registry"
