#!/usr/bin/env python3
"""A stdio "server" that replays a captured session: for each line the client sends, it
writes the server's lines that follow that client line in the capture, byte for byte.

    python3 replay_server.py CAPTURE.jsonl [RECEIVED.log]

CAPTURE holds {"dir": "c2s"|"s2c", "msg": ...} lines (tests/fixtures/check/broken-server.jsonl:
a deliberately broken server). The server's lines before the first client line are written
at once. Every line received is appended to RECEIVED (when given), so a test can compare
what arrived with what the client sent.
"""
import json
import sys


def main() -> int:
    capture, received = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else None)
    turns = [[]]  # turns[k]: the server lines after the k-th client line
    with open(capture, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            entry = json.loads(line)
            # The message's exact text: `msg` is the line's last member, as tap.py writes it.
            text = line.rstrip()[line.index('"msg":') + len('"msg":'):-1]
            assert json.loads(text) == entry["msg"], line
            if entry["dir"] == "c2s":
                turns.append([])
            else:
                turns[-1].append(text)
    log = open(received, "w", encoding="utf-8") if received else None
    out = sys.stdout

    def send(k: int) -> None:
        for text in turns[k] if k < len(turns) else []:
            out.write(text + "\n")
        out.flush()

    send(0)
    for k, line in enumerate(sys.stdin, start=1):
        if log:
            log.write(line)
            log.flush()
        send(k)
    return 0


if __name__ == "__main__":
    sys.exit(main())
