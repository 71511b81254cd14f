#!/usr/bin/env bash
# Install the pinned MCP servers whose tool lists tests/fixtures/tool-lists holds (versions.env)
# into their own npm prefix, never globally:
#   ${MCP_PEERS_CACHE:-<repo>/target/peers}/tool-servers   @modelcontextprotocol/server-filesystem,
#                                                          @modelcontextprotocol/server-memory,
#                                                          @modelcontextprotocol/server-github,
#                                                          @modelcontextprotocol/server-sequential-thinking
# (server-everything and the Python SDK come from install.sh.) Idempotent: a stamp file holding
# the versions makes a repeat run a silent no-op. Prints the prefix folder on stdout.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
# shellcheck source=versions.env
source "$HERE/versions.env"
CACHE="${MCP_PEERS_CACHE:-$REPO/target/peers}"
PREFIX="$CACHE/tool-servers"

die() { echo "tests/peers/install-tool-servers.sh: $*" >&2; exit 1; }
command -v node >/dev/null 2>&1 || die "node not found: install Node.js >= 20 (e.g. apt-get install nodejs npm)"
command -v npm >/dev/null 2>&1 || die "npm not found: install Node.js >= 20 with npm (e.g. apt-get install nodejs npm)"

STAMP_WANT="@modelcontextprotocol/server-filesystem@$MCP_SERVER_FILESYSTEM_VERSION @modelcontextprotocol/server-memory@$MCP_SERVER_MEMORY_VERSION @modelcontextprotocol/server-github@$MCP_SERVER_GITHUB_VERSION @modelcontextprotocol/server-sequential-thinking@$MCP_SERVER_SEQUENTIAL_THINKING_VERSION"
STAMP="$PREFIX/.installed"
PKG="$PREFIX/node_modules/@modelcontextprotocol/server-filesystem/package.json"
PKG_MEMORY="$PREFIX/node_modules/@modelcontextprotocol/server-memory/package.json"
PKG_GITHUB="$PREFIX/node_modules/@modelcontextprotocol/server-github/package.json"
PKG_THINKING="$PREFIX/node_modules/@modelcontextprotocol/server-sequential-thinking/package.json"
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$STAMP_WANT" ] && [ -f "$PKG" ] && [ -f "$PKG_MEMORY" ] \
  && [ -f "$PKG_GITHUB" ] && [ -f "$PKG_THINKING" ]; then
  echo "$PREFIX"
  exit 0
fi

mkdir -p "$PREFIX"
rm -f "$STAMP"
echo "installing MCP tool servers into $PREFIX: $STAMP_WANT" >&2
npm install --prefix "$PREFIX" --no-audit --no-fund --loglevel=error --save-exact \
  "@modelcontextprotocol/server-filesystem@$MCP_SERVER_FILESYSTEM_VERSION" \
  "@modelcontextprotocol/server-memory@$MCP_SERVER_MEMORY_VERSION" \
  "@modelcontextprotocol/server-github@$MCP_SERVER_GITHUB_VERSION" \
  "@modelcontextprotocol/server-sequential-thinking@$MCP_SERVER_SEQUENTIAL_THINKING_VERSION" >&2 \
  || die "npm install failed"
got="$(node -p "require('$PKG').version")"
[ "$got" = "$MCP_SERVER_FILESYSTEM_VERSION" ] \
  || die "installed @modelcontextprotocol/server-filesystem $got, wanted $MCP_SERVER_FILESYSTEM_VERSION"
got="$(node -p "require('$PKG_MEMORY').version")"
[ "$got" = "$MCP_SERVER_MEMORY_VERSION" ] \
  || die "installed @modelcontextprotocol/server-memory $got, wanted $MCP_SERVER_MEMORY_VERSION"
for pair in "$PKG_GITHUB:$MCP_SERVER_GITHUB_VERSION" "$PKG_THINKING:$MCP_SERVER_SEQUENTIAL_THINKING_VERSION"; do
  got="$(node -p "require('${pair%%:*}').version")"
  [ "$got" = "${pair##*:}" ] || die "installed ${pair%%:*} $got, wanted ${pair##*:}"
done
echo "$STAMP_WANT" > "$STAMP"
echo "$PREFIX"
