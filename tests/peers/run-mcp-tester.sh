#!/usr/bin/env bash
# Run pmcp's mcp-tester (pinned in versions.env; installed by install-mcp-tester.sh) against the
# servers of issue 35's comparison, and save each raw output under tests/peers/mcp-tester-runs/:
#   everything   server-everything (node, pinned by install.sh)
#   py           tests/peers/py_server.py (Python SDK, the venv of install.sh)
#   broken       tests/peers/broken_server.py (the planted-fault server)
#   counting     tests/peers/counting_server.py (does mcp-tester call tools that are not read-only?)
# Each over Streamable HTTP (server-everything's and the SDK's own; stdio_http_bridge.py for the
# two stdlib servers), where mcp-tester runs its whole suite, and over stdio, where it stops after
# initialize (its stdio transport is its own stdin/stdout: wired to the server through a FIFO;
# its report goes down the same pipe, so the raw file holds both; --format json there, since the
# pretty format's banner would reach the server before initialize).
#
# Every HTTP run goes through the traffic checker (`mcp-typed check --url`, JSON report saved as
# *.check.jsonl), which counts the requests mcp-tester sends and checks them. The checker:
# $MCP_TYPED, else <repo>/target/debug/mcp-typed (cargo build -p mcp-typed-cli); none: no counts.
#
#   bash tests/peers/run-mcp-tester.sh                 # every server
#   bash tests/peers/run-mcp-tester.sh broken py       # some
# Each output file starts with the command line, and ends with its exit status and wall time.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
CACHE="$(bash "$HERE/install.sh")"
TESTER="$(bash "$HERE/install-mcp-tester.sh")"
OUT="$HERE/mcp-tester-runs"
MCP_TYPED="${MCP_TYPED:-$REPO/target/debug/mcp-typed}"
[ -x "$MCP_TYPED" ] || { echo "note: no checker at $MCP_TYPED: requests are not counted" >&2; MCP_TYPED=""; }
PY="$CACHE/venv/bin/python"
EVERYTHING="$CACHE/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
TMP="$(mktemp -d)"
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$TMP"; }
trap cleanup EXIT
mkdir -p "$OUT"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { # PORT: until something listens (20 s at most)
  for _ in $(seq 200); do
    python3 -c "import socket,sys; socket.create_connection(('127.0.0.1',$1),0.2)" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "nothing listens on port $1" >&2; return 1
}
stop() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }

# The stdio command line of a server.
stdio_cmd() {
  case "$1" in
    everything) echo node "$EVERYTHING" stdio ;;
    py) echo "$PY" "$HERE/py_server.py" ;;
    broken) echo python3 "$HERE/broken_server.py" ;;
    counting) echo python3 "$HERE/counting_server.py" ;;
  esac
}

# Servers run with a bare environment (server-everything's get-env tool returns it, and the
# outputs are committed); MCP_COUNT_FILE passes through for the counting server. `env` execs the
# server, so $! is the server's own pid.
# PATH: only where node and python3 are, then the system's.
BARE=(env -i "PATH=$(dirname "$(command -v node)"):$(dirname "$(command -v python3)"):/usr/bin:/bin" "HOME=$TMP" \
  PYTHONDONTWRITEBYTECODE=1)

# start_http SERVER PORT: start it over Streamable HTTP on PORT; sets SERVER_PID.
start_http() {
  case "$1" in
    everything) "${BARE[@]}" PORT="$2" node "$EVERYTHING" streamableHttp >"$TMP/server.log" 2>&1 & ;;
    py) "${BARE[@]}" "$PY" -c 'import sys; sys.path.insert(0, sys.argv[1]); import py_server
py_server.mcp.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))' "$HERE" "$2" >"$TMP/server.log" 2>&1 & ;;
    broken|counting)
      "${BARE[@]}" MCP_COUNT_FILE="${MCP_COUNT_FILE:-}" python3 "$HERE/stdio_http_bridge.py" --port "$2" -- $(stdio_cmd "$1") >"$TMP/server.log" 2>&1 & ;;
  esac
  SERVER_PID=$!
  PIDS+=("$SERVER_PID")
  wait_port "$2"
}

# run NAME TRANSPORT-NOTE -- MCP-TESTER ARGS (URL placeholder @URL@): one saved run over HTTP.
run_http() {
  local server="$1" name="$2"; shift 3
  local port proxy_port url file="$OUT/$server-http-$name.txt" check="$OUT/$server-http-$name.check.jsonl"
  port="$(free_port)"
  start_http "$server" "$port"
  url="http://127.0.0.1:$port/mcp"
  local proxy_pid=""
  rm -f "$check"
  if [ -n "$MCP_TYPED" ]; then
    proxy_port="$(free_port)"
    "$MCP_TYPED" check --json --report "$check" --url "$url" --listen "127.0.0.1:$proxy_port" 2>"$TMP/proxy.log" &
    proxy_pid=$!
    PIDS+=("$proxy_pid")
    wait_port "$proxy_port"
    url="http://127.0.0.1:$proxy_port/mcp"
  fi
  local args=() a
  for a in "$@"; do args+=("${a//@URL@/$url}"); done
  echo "== $server over HTTP: mcp-tester ${args[*]}" >&2
  local start end status=0
  start="$(date +%s.%N)"
  {
    echo "\$ mcp-tester ${args[*]}    # $server over Streamable HTTP$([ -n "$proxy_pid" ] && echo ', through mcp-typed check --url')"
    (cd "$TMP" && NO_COLOR=1 timeout 300 "$TESTER" "${args[@]}" 2>&1) || status=$?
    end="$(date +%s.%N)"
    echo "# exit status $status, wall time $(python3 -c "print(f'{$end - $start:.2f}')") s"
  } >"$file"
  [ -z "$proxy_pid" ] || stop "$proxy_pid"
  stop "$SERVER_PID"
  if [ -n "$proxy_pid" ] && [ -f "$check" ]; then
    python3 - "$check" >>"$file" <<'EOF'
import collections, json, sys
sent, problems = collections.Counter(), []
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("dir") == "c2s" and r.get("what", "").startswith("request"):
        sent[r["what"].rsplit("(", 1)[-1].rstrip(")")] += 1
    for p in r.get("problems", []):
        problems.append(f"{r.get('dir')} {r.get('what')}: {p['pointer']}: {p['message']}")
print(f"# requests mcp-tester sent (counted by mcp-typed check): {sum(sent.values())} {dict(sent)}")
for p in problems:
    print(f"# checker: {p}")
EOF
  fi
}

# run_stdio SERVER NAME -- MCP-TESTER ARGS: one saved run over stdio (FIFO-wired).
run_stdio() {
  local server="$1" name="$2"; shift 3
  local file="$OUT/$server-stdio-$name.txt" fifo="$TMP/fifo-$server-$name"
  mkfifo "$fifo"
  echo "== $server over stdio: mcp-tester $*" >&2
  local start end status=0
  start="$(date +%s.%N)"
  # shellcheck disable=SC2046
  (cd "$TMP" && NO_COLOR=1 timeout 60 "$TESTER" "$@" <"$fifo" 2>"$TMP/stderr" | tee "$TMP/stdout" \
    | "${BARE[@]}" $(stdio_cmd "$server") >"$fifo" 2>/dev/null) || status=$?
  end="$(date +%s.%N)"
  {
    echo "\$ mcp-tester $*    # $server over stdio: mcp-tester's stdout (protocol and report, below) is the server's stdin"
    cat "$TMP/stdout"
    echo "# stderr:"
    cat "$TMP/stderr"
    echo "# exit status $status, wall time $(python3 -c "print(f'{$end - $start:.2f}')") s"
  } >"$file"
  rm -f "$fifo"
}

run_server() {
  local s="$1"
  # --format json: the pretty format's banner would go down the pipe before initialize
  run_stdio "$s" test -- --format json test stdio --transport stdio
  run_stdio "$s" conformance -- --format json conformance stdio --transport stdio
  run_http "$s" test -- test @URL@ --with-tools
  run_http "$s" conformance -- conformance @URL@
  run_http "$s" conformance-strict -- conformance --strict @URL@
  run_http "$s" dual-run -- conformance --dual-run @URL@
  # Over Streamable HTTP, mcp-tester 0.8 sends none of its "custom" requests (unknown method,
  # malformed request, tools/call in conformance): send_custom_request answers itself with
  # {"error": "Custom requests not supported for this transport"}, which the scenarios count as
  # the server's refusal. Its plain JSON-RPC-over-HTTP transport does send them (and reads no SSE).
  run_http "$s" conformance-jsonrpc -- --transport jsonrpc conformance @URL@
  run_http "$s" test-jsonrpc -- --transport jsonrpc test @URL@ --with-tools
  run_http "$s" tools-test-all -- tools @URL@ --test-all
  run_http "$s" resources -- resources @URL@
  run_http "$s" prompts -- prompts @URL@
  run_http "$s" generate-scenario -- generate-scenario @URL@ -o "$s-scenario.yaml" --all-tools --with-resources --with-prompts
  mv "$TMP/$s-scenario.yaml" "$OUT/"  # written in mcp-tester's working directory
}

SERVERS=("$@")
[ ${#SERVERS[@]} -gt 0 ] || SERVERS=(everything py broken counting)
for s in "${SERVERS[@]}"; do
  case "$s" in
    counting)
      export MCP_COUNT_FILE="$TMP/count"
      for run in "test -- test @URL@ --with-tools" "conformance -- conformance @URL@" \
                 "tools-test-all -- tools @URL@ --test-all"; do
        rm -f "$MCP_COUNT_FILE"
        # shellcheck disable=SC2086
        run_http counting $run
        {
          echo "# calls of tools without readOnlyHint (lines in MCP_COUNT_FILE): $(cat "$MCP_COUNT_FILE" 2>/dev/null | wc -l)"
          sed 's/^/#   /' "$MCP_COUNT_FILE" 2>/dev/null || true
        } >>"$OUT/counting-http-${run%% *}.txt"
      done
      unset MCP_COUNT_FILE ;;
    everything|py|broken) run_server "$s" ;;
    *) echo "unknown server $s (everything, py, broken, counting)" >&2; exit 2 ;;
  esac
done
echo "outputs in $OUT" >&2
