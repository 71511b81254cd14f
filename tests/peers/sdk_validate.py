#!/usr/bin/env python3
"""Validate every captured message against the Python SDK's own types (`mcp` pinned
in versions.env, i.e. `mcp_types`), and print the rejections as a JSON array of
{file, line, reason} (empty array if none).

    python sdk_validate.py tests/fixtures/real-traffic > tests/fixtures/real-traffic/sdk-invalid.json

Per message, at the revision the session negotiated (captures.json):
  1. the JSON-RPC envelope: `mcp.types.jsonrpc.JSONRPCMessage`;
  2. requests / notifications: `mcp_types.methods.parse_{client,server}_{request,notification}`
     (the SDK's per-revision wire surface, then its version-free model);
  3. results: `mcp_types.methods.parse_{server,client}_result` for the method of the request
     they answer (matched by id, opposite direction).
A method the SDK has no entry for at that revision is reported as
"not in SDK surface" (the SDK would not route it); a shape the SDK refuses is reported
with pydantic's first error lines. Error responses are checked at the envelope level only.
"""
import json
import os
import re
import sys

from pydantic import TypeAdapter, ValidationError

from mcp.types import jsonrpc
from mcp_types import methods

ENVELOPE = TypeAdapter(jsonrpc.JSONRPCMessage)


def short(e: Exception) -> str:
    if isinstance(e, ValidationError):
        errs = e.errors()
        parts = []
        for err in errs[:3]:
            loc = ".".join(str(x) for x in err.get("loc", ()))
            parts.append(f"{loc}: {err.get('msg')}")
        more = f" (+{len(errs) - 3} more)" if len(errs) > 3 else ""
        return f"{len(errs)} validation error(s): " + "; ".join(parts) + more
    return f"{type(e).__name__}: {e}"


def validate_file(path: str, revision: str, requested: str) -> list[dict]:
    """`revision`: the negotiated one; `server/discover` (and its answer) is checked at
    `requested`, the revision the probe was sent at (it differs in *-rejected files)."""
    out: list[dict] = []
    name = os.path.basename(path)
    pending: dict[tuple[str, str], str] = {}  # (dir of request, id) -> method
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            entry = json.loads(line)
            d, msg = entry["dir"], entry["msg"]

            def bad(kind: str, reason: str) -> None:
                what = msg.get("method") if isinstance(msg, dict) else None
                out.append({"file": name, "line": lineno, "reason": f"{kind}{' ' + what if what else ''}: {reason}"})

            try:
                ENVELOPE.validate_python(msg)
            except ValidationError as e:
                bad("envelope", short(e))
                continue
            if not isinstance(msg, dict):
                continue
            method = msg.get("method")
            params = msg.get("params")
            at = requested if method == "server/discover" else revision
            if method is not None and "id" in msg:
                pending[(d, json.dumps(msg["id"]))] = method
                fn = methods.parse_client_request if d == "c2s" else methods.parse_server_request
                kind = "request"
            elif method is not None:
                fn = methods.parse_client_notification if d == "c2s" else methods.parse_server_notification
                kind = "notification"
            elif "result" in msg:
                other = "s2c" if d == "c2s" else "c2s"
                method = pending.pop((other, json.dumps(msg.get("id"))), None)
                if method is None:
                    out.append({"file": name, "line": lineno, "reason": "result: answers no captured request"})
                    continue
                fn = methods.parse_server_result if d == "s2c" else methods.parse_client_result
                at = requested if method == "server/discover" else revision
                try:
                    fn(method, at, msg["result"])
                except KeyError:
                    out.append({"file": name, "line": lineno, "reason": f"result of {method}: not in SDK surface at {at}"})
                except Exception as e:  # noqa: BLE001 - every rejection is the finding
                    out.append({"file": name, "line": lineno, "reason": f"result of {method}: {short(e)}"})
                continue
            else:
                pending.pop(("s2c" if d == "c2s" else "c2s", json.dumps(msg.get("id"))), None)
                continue
            try:
                fn(method, at, params)
            except KeyError:
                bad(kind, f"not in SDK surface at {at}")
            except Exception as e:  # noqa: BLE001
                bad(kind, short(e))
    return out


def main() -> int:
    folder = sys.argv[1]
    negotiated = {}
    cap = os.path.join(folder, "captures.json")
    if os.path.exists(cap):
        for row in json.load(open(cap)):
            negotiated[row["file"]] = row["negotiated"]
    rows: list[dict] = []
    for name in sorted(os.listdir(folder)):
        m = re.search(r"(\d{4}-\d{2}-\d{2})(-rejected)?\.jsonl$", name)
        if not m:
            continue
        rev = negotiated.get(name, m.group(1))
        if rev == "none":
            rev = m.group(1)
        rows.extend(validate_file(os.path.join(folder, name), rev, m.group(1)))
    json.dump(rows, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
