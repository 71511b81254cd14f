#!/usr/bin/env python3
"""Print the protocol revision a raw tap log actually negotiated (or "none").

Handshake era: the `protocolVersion` of the result answering the client's last
`initialize`. 2026-07-28 era: a successful `server/discover` followed by
requests whose `_meta` carries `io.modelcontextprotocol/protocolVersion`.
"""
import json
import sys

PV = "io.modelcontextprotocol/protocolVersion"


def negotiated(path: str) -> str:
    init_ids, discover_ids = set(), set()
    init_version = None
    discover_ok = False
    modern_version = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            entry = json.loads(line)
            msg = entry.get("msg")
            if not isinstance(msg, dict):
                continue
            if entry["dir"] == "c2s" and msg.get("method") == "initialize":
                init_ids.add(json.dumps(msg.get("id")))
            elif entry["dir"] == "c2s" and msg.get("method") == "server/discover":
                discover_ids.add(json.dumps(msg.get("id")))
            elif entry["dir"] == "c2s" and "method" in msg:
                meta = (msg.get("params") or {}).get("_meta") or {}
                if discover_ok and PV in meta and modern_version is None:
                    modern_version = meta[PV]
            elif entry["dir"] == "s2c" and "method" not in msg:
                key = json.dumps(msg.get("id"))
                if key in init_ids and isinstance(msg.get("result"), dict):
                    init_version = msg["result"].get("protocolVersion")
                if key in discover_ids and isinstance(msg.get("result"), dict):
                    discover_ok = True
    return init_version or modern_version or "none"


if __name__ == "__main__":
    print(negotiated(sys.argv[1]))
