#!/usr/bin/env bash
# Hostile traffic through `mcp-typed check`, proxy and file mode (issue 33): framing (CRLF,
# blank lines, several messages in one write, one message in several writes, no newline at
# the end), bytes that are not UTF-8, nesting beyond the parser's depth, a line over
# --max-line, and signals. Each case prints `ok - NAME` or `not ok - NAME: why`; the exit
# status is the number of failed cases. Run by tests/tests/checker/check_hardening.rs:
#   tests/hostile/run.sh path/to/mcp-typed [scratch-dir]
set -u
BIN=${1:?usage: run.sh path/to/mcp-typed [scratch-dir]}
DIR=${2:-$(mktemp -d)}
mkdir -p "$DIR"
failed=0
ok() { echo "ok - $1"; }
bad() { echo "not ok - $1: $2"; failed=$((failed + 1)); }
INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}'
PING='{"jsonrpc":"2.0","id":2,"method":"ping"}'

# A client whose bytes go through the proxy in front of `cat`: what comes out must be what
# went in, byte for byte. $1: case name; the client's output is on stdin of `through`.
through() {
    local name=$1
    shift
    tee "$DIR/$name.in" | "$BIN" check --json --report "$DIR/$name.log" "$@" -- cat >"$DIR/$name.out"
    echo $? >"$DIR/$name.status"
    if cmp -s "$DIR/$name.in" "$DIR/$name.out"; then return 0; fi
    bad "$name" "bytes changed on the way"
    return 1
}
reports() { grep -c '"verdict"' "$DIR/$1.log"; }
has() { grep -q "$2" "$DIR/$1.log"; }

# Framing: CRLF, blank lines, two messages in one write, one message in three writes, the
# last without a newline.
{
    printf '%s\r\n\r\n\n' "$INIT"
    printf '%s\n%s\n' "$PING" "$PING" | sed '2s/"id":2/"id":3/'
    printf '{"jsonrpc":"2.0",'
    sleep 0.05
    printf '"id":4,"method"'
    sleep 0.05
    printf ':"ping"}'
} | through framing && {
    n=$(reports framing)
    # 4 client messages, each echoed back by `cat` (wrong direction then, but read).
    if [ "$n" = 8 ]; then ok framing; else bad framing "$n reports, not 8"; fi
}

# UTF-8: a string with \377\376; a byte outside any string.
{
    printf '%s\n' "$INIT"
    printf '{"jsonrpc":"2.0","id":2,"method":"ping","params":{"_meta":{"n":"\377\376"}}}\n'
    printf '{"jsonrpc":"2.0","id":3,"method":"ping"}\377\n'
} | through utf8 && {
    if has utf8 '"kind":"invalid_utf8","pointer":"/params/_meta/n"' &&
        has utf8 'invalid UTF-8 at byte 64 of the line' &&
        [ "$(cat "$DIR/utf8.status")" = 1 ]; then ok utf8; else bad utf8 "$(head -c 600 "$DIR/utf8.log")"; fi
}
printf '%s\n{"a":"\377"}\n%s\n' "$INIT" "$PING" >"$DIR/utf8.jsonl"
"$BIN" check --dir c2s "$DIR/utf8.jsonl" >"$DIR/utf8-file.log"
if [ $? = 1 ] && [ "$(grep -c '^' "$DIR/utf8-file.log")" = 4 ] && grep -q ':2: c2s error' "$DIR/utf8-file.log"; then
    ok utf8-file
else bad utf8-file "$(cat "$DIR/utf8-file.log")"; fi

# Depth: 100,000 levels.
{
    printf '%s\n' "$INIT"
    head -c 100000 /dev/zero | tr '\0' '['
    head -c 100000 /dev/zero | tr '\0' ']'
    printf '\n'
} | through depth && {
    if has depth '"kind":"depth_limit"' && has depth 'nested deeper than 127 levels'; then ok depth; else bad depth "no depth_limit"; fi
}

# Size: a 1 MiB line with --max-line 64K, then a message that is still checked.
{
    printf '%s\n' "$INIT"
    printf '{"jsonrpc":"2.0","id":9,"method":"ping","params":{"x":"'
    head -c 1048576 /dev/zero | tr '\0' 'x'
    printf '"}}\n%s\n' "$PING"
} | through size --max-line 64K && {
    if has size '"kind":"size_limit"' && has size 'over the limit of 65536 bytes per line' &&
        [ "$(grep -c '"kind":"size_limit"' "$DIR/size.log")" = 2 ]; then ok size; else bad size "$(grep -c size_limit "$DIR/size.log") size_limit reports"; fi
}

# Signals: SIGTERM to the proxy reaches a server that ignores it (SIGKILL after 2 s); the
# message read is reported; the server is gone.
rm -f "$DIR/server.pid" "$DIR/signal.fifo"
mkfifo "$DIR/signal.fifo"
"$BIN" check --report "$DIR/signal.log" -- sh -c 'trap "" TERM; echo $$ > "$0"; while :; do sleep 0.05; done' "$DIR/server.pid" <"$DIR/signal.fifo" >/dev/null &
proxy=$!
exec 3>"$DIR/signal.fifo"
printf '%s\n' "$PING" >&3
for _ in $(seq 200); do [ -s "$DIR/server.pid" ] && grep -q 'c2s ok' "$DIR/signal.log" 2>/dev/null && break; sleep 0.05; done
kill -TERM "$proxy"
wait "$proxy"
status=$?
exec 3>&-
server=$(cat "$DIR/server.pid")
if kill -0 "$server" 2>/dev/null; then
    bad signal "the server $server still runs"
elif [ "$status" != 143 ] || ! grep -q '1 passed, 0 failed' "$DIR/signal.log"; then
    bad signal "status $status, report: $(cat "$DIR/signal.log")"
else ok signal; fi

exit $failed
