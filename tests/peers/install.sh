#!/usr/bin/env bash
# Install the pinned MCP peers (versions.env) into a cache folder, never globally:
#   ${MCP_PEERS_CACHE:-<repo>/target/peers}/venv   Python SDK `mcp`
#   ${MCP_PEERS_CACHE:-<repo>/target/peers}/node   npm --prefix: TS SDK + server-everything
# Idempotent: a stamp file holding the versions makes a repeat run a silent no-op.
# Prints the cache folder on stdout.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
# shellcheck source=versions.env
source "$HERE/versions.env"
CACHE="${MCP_PEERS_CACHE:-$REPO/target/peers}"

die() { echo "tests/peers/install.sh: $*" >&2; exit 1; }
command -v node >/dev/null 2>&1 || die "node not found: install Node.js >= 20 (e.g. apt-get install nodejs npm)"
command -v npm >/dev/null 2>&1 || die "npm not found: install Node.js >= 20 with npm (e.g. apt-get install nodejs npm)"
command -v python3 >/dev/null 2>&1 || die "python3 not found: install Python >= 3.10 with venv (e.g. apt-get install python3 python3-venv)"
node_major="$(node -p 'process.versions.node.split(".")[0]')"
[ "$node_major" -ge 20 ] || die "Node.js $(node --version) is too old: install Node.js >= 20"
python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' \
  || die "$(python3 --version) is too old: install Python >= 3.10"

STAMP_WANT="mcp==$MCP_PY_SDK_VERSION @modelcontextprotocol/sdk@$MCP_TS_SDK_VERSION @modelcontextprotocol/server-everything@$MCP_SERVER_EVERYTHING_VERSION"
STAMP="$CACHE/.installed"
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$STAMP_WANT" ] \
  && [ -x "$CACHE/venv/bin/python" ] \
  && [ -f "$CACHE/node/node_modules/@modelcontextprotocol/server-everything/package.json" ]; then
  echo "$CACHE"
  exit 0
fi

mkdir -p "$CACHE"
rm -f "$STAMP"
echo "installing MCP peers into $CACHE: $STAMP_WANT" >&2
if [ ! -x "$CACHE/venv/bin/python" ]; then
  python3 -m venv "$CACHE/venv" >&2 || die "python3 -m venv failed: install the venv module (e.g. apt-get install python3-venv)"
fi
"$CACHE/venv/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==$MCP_PY_SDK_VERSION" >&2 \
  || die "pip install mcp==$MCP_PY_SDK_VERSION failed"
mkdir -p "$CACHE/node"
npm install --prefix "$CACHE/node" --no-audit --no-fund --loglevel=error --save-exact \
  "@modelcontextprotocol/sdk@$MCP_TS_SDK_VERSION" \
  "@modelcontextprotocol/server-everything@$MCP_SERVER_EVERYTHING_VERSION" >&2 \
  || die "npm install failed"

# Check what actually got installed (server-everything depends on the SDK by range).
got_py="$("$CACHE/venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))')"
[ "$got_py" = "$MCP_PY_SDK_VERSION" ] || die "installed mcp $got_py, wanted $MCP_PY_SDK_VERSION"
got_ts="$(node -p "require('$CACHE/node/node_modules/@modelcontextprotocol/sdk/package.json').version")"
[ "$got_ts" = "$MCP_TS_SDK_VERSION" ] || die "installed @modelcontextprotocol/sdk $got_ts, wanted $MCP_TS_SDK_VERSION"
nested="$CACHE/node/node_modules/@modelcontextprotocol/server-everything/node_modules/@modelcontextprotocol/sdk/package.json"
[ ! -f "$nested" ] || echo "note: server-everything uses its own nested SDK $(node -p "require('$nested').version")" >&2
echo "$STAMP_WANT" > "$STAMP"
echo "$CACHE"
