#!/usr/bin/env python3
"""Curate a raw tap log into a committed fixture, deterministically.

    python3 curate.py RAW.jsonl OUT.jsonl [--head N]

Every line is copied byte-for-byte (the tap already wrote
`{"dir":...,"msg":<raw peer text>}`), so member order and number formatting
stay exactly as the peer wrote them. The only thing dropped is repetition:
notifications are grouped by kind - (dir, method, plus `level` for
notifications/message and `status` for notifications/tasks/status) - and at
most MAX_PER_KIND of each kind are kept (the server-everything timers send
log/resource-updated notifications every few seconds). Requests and responses
are always kept. Lines the tap could not parse as JSON (`nonjson`) are dropped
and counted. `--head N` keeps only the first N kept lines (used for a
rejected-revision probe, where only the negotiation matters).

Prints a one-line JSON summary: raw lines, kept lines, dropped notifications.
"""
import json
import sys

MAX_PER_KIND = 3


def kind(entry: dict) -> tuple | None:
    msg = entry.get("msg")
    if not isinstance(msg, dict) or "method" not in msg or "id" in msg:
        return None  # requests and responses are always kept
    params = msg.get("params") if isinstance(msg.get("params"), dict) else {}
    extra = None
    if msg["method"] == "notifications/message":
        extra = params.get("level")
    elif msg["method"] == "notifications/tasks/status":
        extra = params.get("status")
    return (entry["dir"], msg["method"], extra)


def main() -> int:
    args = sys.argv[1:]
    head = None
    if "--head" in args:
        i = args.index("--head")
        head = int(args[i + 1])
        del args[i : i + 2]
    raw_path, out_path = args
    seen: dict[tuple, int] = {}
    kept: list[str] = []
    raw = dropped = nonjson = 0
    with open(raw_path, "rb") as f:
        for line in f:
            raw += 1
            text = line.decode("utf-8").rstrip("\n")
            entry = json.loads(text)
            if "msg" not in entry:
                nonjson += 1
                continue
            k = kind(entry)
            if k is not None:
                seen[k] = seen.get(k, 0) + 1
                if seen[k] > MAX_PER_KIND:
                    dropped += 1
                    continue
            kept.append(text)
    if head is not None:
        kept = kept[:head]
    with open(out_path, "w", encoding="utf-8", newline="\n") as f:
        for text in kept:
            f.write(text + "\n")
    print(json.dumps({"raw": raw, "kept": len(kept), "dropped_notifications": dropped, "nonjson": nonjson}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
