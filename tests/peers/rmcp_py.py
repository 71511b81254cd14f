#!/usr/bin/env python3
"""Drive tests/examples/rmcp-server.rs with the real Python SDK client (`mcp`, pinned in
versions.env), through tap.py, at one protocol revision.

    python rmcp_py.py --revision 2025-11-25 --log RAW.jsonl --answers ANSWERS.json -- SERVER_CMD...

ANSWERS.json is a list of ElicitResult objects. The driver calls the server's
`book_table` tool once per answer and answers the form the call asks for with
that object, as given (the SDK's callback returns it; nothing checks it against
the form). Handshake revisions are forced as in py_client.py; 2026-07-28 uses the
SDK's `server/discover` probe (mode="auto").

Prints {"negotiated", "calls": [{"isError", "text"}], "forms": [params received]}
as JSON; the raw messages both ways are in the tap log.
"""
import argparse
import json
import os
import sys
from typing import Any

import anyio

import mcp.types as types
from mcp import Client
from sdk import client_mode, tapped

HERE = os.path.dirname(os.path.abspath(__file__))


async def drive(args) -> dict[str, Any]:
    with open(args.answers) as f:
        answers: list[dict[str, Any]] = json.load(f)
    params = tapped(args.server, args.log)
    mode = client_mode(args.revision)

    pending: list[dict[str, Any]] = []
    forms: list[Any] = []

    async def elicitation(ctx, params):
        forms.append(params.model_dump(mode="json", by_alias=True, exclude_none=True))
        return types.ElicitResult.model_validate(pending.pop(0))

    out: dict[str, Any] = {"requested": args.revision, "calls": [], "forms": forms}
    async with Client(
        params,
        mode=mode,
        cache=None,
        read_timeout_seconds=30,
        elicitation_callback=elicitation,
        client_info=types.Implementation(name="mcp-types-rmcp-py", version="1.0.0"),
    ) as client:
        out["negotiated"] = client.protocol_version
        for answer in answers:
            pending.append(answer)
            res = await client.call_tool("book_table", {"date": "2026-12-24"}, read_timeout_seconds=20)
            text = "".join(b.text for b in res.content if b.type == "text")
            out["calls"].append({"isError": bool(res.is_error), "text": text})
        out["unused"] = len(pending)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--revision", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--answers", required=True)
    ap.add_argument("server", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    if args.server and args.server[0] == "--":
        args.server = args.server[1:]
    if not args.server:
        ap.error("missing server command after --")
    print(json.dumps(anyio.run(drive, args)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
