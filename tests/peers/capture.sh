#!/usr/bin/env bash
# Re-capture tests/fixtures/real-traffic/ from real MCP peers (versions.env).
#
#   bash tests/peers/capture.sh            # every pairing x revision
#   PAIRINGS="py-client-everything" REVISIONS="2025-06-18" bash tests/peers/capture.sh
#
# Each run: a real client drives a real server through tap.py (stdio, loopback only);
# the raw log goes to $CACHE/raw/, curate.py writes the fixture. A fixture is written as
# <client>-<server>-<revision>.jsonl only when the initialize/discover result shows the
# requested revision was negotiated; otherwise the first lines of the refused negotiation
# are kept as <client>-<server>-<revision>-rejected.jsonl. Then sdk_validate.py writes
# sdk-invalid.json and report.py refreshes the generated part of the README.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
CACHE="$(bash "$HERE/install.sh")"
OUT="$REPO/tests/fixtures/real-traffic"
RAW="$CACHE/raw"
PY="$CACHE/venv/bin/python"
NM="$CACHE/node/node_modules"
EVERYTHING=(node "$NM/@modelcontextprotocol/server-everything/dist/index.js" stdio)
PYSERVER=("$PY" "$HERE/py_server.py")
ALL_REVISIONS="2024-11-05 2025-03-26 2025-06-18 2025-11-25 2026-07-28"
REVISIONS="${REVISIONS:-$ALL_REVISIONS}"
PAIRINGS="${PAIRINGS:-py-client-everything ts-client-py-server ts-client-everything py-client-py-server}"
RUN_TIMEOUT="${RUN_TIMEOUT:-180}"
mkdir -p "$OUT" "$RAW"

summary="$RAW/captures.partial.jsonl"
: > "$summary"

run_one() {
  local pairing="$1" rev="$2"
  local client="${pairing%%-client-*}" server="${pairing#*-client-}"
  local name="$pairing-$rev"
  local raw="$RAW/$name.jsonl" err="$RAW/$name.stderr" res="$RAW/$name.result.json"
  rm -f "$raw" "$err" "$res" "$OUT/$name.jsonl" "$OUT/$name-rejected.jsonl"
  local server_cmd
  if [ "$server" = everything ]; then server_cmd=("${EVERYTHING[@]}"); else server_cmd=("${PYSERVER[@]}"); fi
  local status=0
  if [ "$client" = py ]; then
    timeout -k 5 "$RUN_TIMEOUT" "$PY" "$HERE/py_client.py" --revision "$rev" --log "$raw" --stderr "$err" \
      --result "$res" -- "${server_cmd[@]}" >/dev/null 2>>"$err" || status=$?
  else
    timeout -k 5 "$RUN_TIMEOUT" node "$HERE/ts_client.mjs" --node-modules "$NM" --python "$PY" --revision "$rev" \
      --log "$raw" --stderr "$err" --result "$res" -- "${server_cmd[@]}" >/dev/null 2>>"$err" || status=$?
  fi
  [ -f "$raw" ] || : > "$raw"
  local got file curated
  got="$("$PY" "$HERE/negotiated.py" "$raw")"
  if [ "$got" = "$rev" ]; then
    file="$name.jsonl"
    curated="$("$PY" "$HERE/curate.py" "$raw" "$OUT/$file")"
  else
    file="$name-rejected.jsonl"
    curated="$("$PY" "$HERE/curate.py" "$raw" "$OUT/$file" --head 6)"
  fi
  "$PY" - "$summary" "$pairing" "$client" "$server" "$rev" "$got" "$file" "$status" "$res" "$curated" <<'PYEOF'
import json, os, sys
summary, pairing, client, server, rev, got, file, status, res, curated = sys.argv[1:]
driver = json.load(open(res)) if os.path.exists(res) else {}
row = {"pairing": pairing, "client": client, "server": server, "requested": rev, "negotiated": got,
       "file": file, "driver_exit": int(status), **json.loads(curated),
       "driver_errors": driver.get("errors", ["driver wrote no result"])}
open(summary, "a").write(json.dumps(row) + "\n")
PYEOF
  printf '%-24s %-11s -> negotiated %-11s %s (exit %s)\n' "$pairing" "$rev" "$got" "$file" "$status" >&2
}

for pairing in $PAIRINGS; do
  for rev in $REVISIONS; do
    run_one "$pairing" "$rev"
  done
done

# Merge into captures.json (rows of pairings/revisions not re-run are kept), sorted.
"$PY" - "$OUT/captures.json" "$summary" <<'PYEOF'
import json, os, sys
path, partial = sys.argv[1:]
rows = {}
if os.path.exists(path):
    for r in json.load(open(path)):
        rows[(r["pairing"], r["requested"])] = r
for line in open(partial):
    r = json.loads(line)
    rows[(r["pairing"], r["requested"])] = r
out = [rows[k] for k in sorted(rows)]
with open(path, "w") as f:
    json.dump(out, f, indent=2)
    f.write("\n")
PYEOF

"$PY" "$HERE/sdk_validate.py" "$OUT" > "$OUT/sdk-invalid.json"
"$PY" "$HERE/report.py" "$OUT"
echo "fixtures in $OUT" >&2
