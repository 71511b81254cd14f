#!/usr/bin/env bash
# Install the pinned `mcp-tester` (pmcp SDK's MCP server tester; version in versions.env) into a
# cache folder, never globally:
#   ${MCP_PEERS_CACHE:-<repo>/target/peers}/mcp-tester/bin/mcp-tester
# It is the yardstick for `mcp-typed test` (issue 35): tests/peers/run-mcp-tester.sh runs it
# against server-everything, the Python SDK server and tests/peers/broken_server.py.
# Builds from source with `cargo install --locked` (several minutes; honours CARGO_BUILD_JOBS,
# e.g. `CARGO_BUILD_JOBS=1 bash tests/peers/install-mcp-tester.sh` on a shared machine).
# Idempotent: a stamp file holding the version makes a repeat run a silent no-op.
# Prints the binary path on stdout.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
# shellcheck source=versions.env
source "$HERE/versions.env"
ROOT="${MCP_PEERS_CACHE:-$REPO/target/peers}/mcp-tester"
BIN="$ROOT/bin/mcp-tester"

die() { echo "tests/peers/install-mcp-tester.sh: $*" >&2; exit 1; }
command -v cargo >/dev/null 2>&1 || die "cargo not found: install Rust (https://rustup.rs)"

STAMP_WANT="mcp-tester@$MCP_TESTER_VERSION"
STAMP="$ROOT/.installed"
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$STAMP_WANT" ] && [ -x "$BIN" ]; then
  echo "$BIN"
  exit 0
fi

mkdir -p "$ROOT"
rm -f "$STAMP"
echo "installing $STAMP_WANT into $ROOT (cargo install, this takes a while)" >&2
# cargo install builds in a temporary folder it removes (about 560 MB); only the registry's
# download cache is shared with the user's cargo.
cargo install --locked --root "$ROOT" \
  mcp-tester --version "=$MCP_TESTER_VERSION" >&2 \
  || die "cargo install mcp-tester $MCP_TESTER_VERSION failed"
got="$("$BIN" --version 2>/dev/null || true)"
case "$got" in
  *"$MCP_TESTER_VERSION"*) ;;
  *) die "installed mcp-tester reports '$got', wanted $MCP_TESTER_VERSION" ;;
esac
echo "$STAMP_WANT" > "$STAMP"
echo "$BIN"
