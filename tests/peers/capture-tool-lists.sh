#!/usr/bin/env bash
# Re-capture tests/fixtures/tool-lists/<server>.json: each pinned server's tools/list, asked
# with this project's own client (`mcp-typed tools --server --save`, crate mcp-typed-cli). Run after bumping a
# server in versions.env, then `cargo test -p mcp-tests --test tools tool_bindings` (its snapshot
# test says what changed; UPDATE_EXPECT=1 accepts it).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
PEERS="$(bash "$HERE/install.sh")"
TOOL_SERVERS="$(bash "$HERE/install-tool-servers.sh")"
OUT="$REPO/tests/fixtures/tool-lists"
mkdir -p "$OUT"
cd "$REPO"
cargo build --quiet -p mcp-typed-cli --bin mcp-typed
CLI="${CARGO_TARGET_DIR:-$REPO/target}/debug/mcp-typed"
# The filesystem server lists a root folder and the memory server keeps a file: both in a
# scratch folder (the tool lists do not depend on either).
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"' EXIT

capture() {
  local name="$1"; shift
  "$CLI" tools --server --save "$OUT/$name.json" --out /dev/null -- "$@"
}
capture server-everything node "$PEERS/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js" stdio
capture python-sdk "$PEERS/venv/bin/python" "$HERE/py_server.py"
capture server-filesystem node "$TOOL_SERVERS/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js" "$SCRATCH"
MEMORY_FILE_PATH="$SCRATCH/memory.jsonl" \
  capture server-memory node "$TOOL_SERVERS/node_modules/@modelcontextprotocol/server-memory/dist/index.js"
# server-github lists its tools without a token (it needs one only to call them).
GITHUB_PERSONAL_ACCESS_TOKEN=unused \
  capture server-github node "$TOOL_SERVERS/node_modules/@modelcontextprotocol/server-github/dist/index.js"
capture server-sequential-thinking node "$TOOL_SERVERS/node_modules/@modelcontextprotocol/server-sequential-thinking/dist/index.js"
capture python-pydantic "$PEERS/venv/bin/python" "$HERE/py_tools_server.py"
