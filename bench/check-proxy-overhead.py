#!/usr/bin/env python3
"""Per-message overhead of `mcp-typed check -- SERVER` (issue 33), on loopback pipes.

Two copies of a minimal stdio MCP server run side by side, one directly, one behind the
proxy; round trips to them alternate (direct, proxied, direct, …) so that both see the same
machine load. Two messages: `ping` (empty result) and a `tools/call` whose result holds 4 KB
of text. Prints the median and 90th percentile round trip of each, and the proxy's added
latency as a multiple of the direct round trip.

    bench/check-proxy-overhead.py path/to/mcp-typed [rounds]
"""
import json
import os
import statistics
import subprocess
import sys
import time

SERVER = r'''
import json, sys
text = "x" * 4096
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    m = json.loads(line)
    if "id" not in m:
        continue
    if m["method"] == "initialize":
        r = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
             "serverInfo": {"name": "bench", "version": "1"}}
    elif m["method"] == "tools/call":
        r = {"content": [{"type": "text", "text": text}]}
    else:
        r = {}
    out.write(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": r},
                         separators=(",", ":")).encode() + b"\n")
    out.flush()
'''


def start(command):
    return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)


def round_trip(p, message):
    start = time.perf_counter_ns()
    p.stdin.write(message)
    p.stdin.flush()
    line = p.stdout.readline()
    took = time.perf_counter_ns() - start
    assert line.startswith(b'{"jsonrpc":"2.0","id"'), line
    return took


def main():
    binary = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    server = [sys.executable, "-c", SERVER]
    direct = start(server)
    proxied = start([binary, "check", "--report", os.devnull, "--"] + server)
    init = json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"}}}).encode() + b"\n"
    for p in (direct, proxied):
        round_trip(p, init)
        p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        p.stdin.flush()
    kinds = {
        "ping": lambda i: b'{"jsonrpc":"2.0","id":%d,"method":"ping"}\n' % i,
        "tools/call, 4 KB result": lambda i: (
            b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"x","arguments":{}}}\n' % i),
    }
    print(f"{rounds} round trips each, interleaved (direct, proxied); microseconds")
    print("| message | direct median | proxied median | added | added / direct | direct p90 | proxied p90 |")
    print("|---|---|---|---|---|---|---|")
    i = 1
    for name, make in kinds.items():
        times = {"direct": [], "proxied": []}
        for _ in range(rounds // 10):  # warm-up
            for p in (direct, proxied):
                i += 1
                round_trip(p, make(i))
        for _ in range(rounds):
            for label, p in (("direct", direct), ("proxied", proxied)):
                i += 1
                times[label].append(round_trip(p, make(i)) / 1000)
        d, q = statistics.median(times["direct"]), statistics.median(times["proxied"])
        dp = statistics.quantiles(times["direct"], n=10)[-1]
        qp = statistics.quantiles(times["proxied"], n=10)[-1]
        print(f"| {name} | {d:.1f} | {q:.1f} | {q - d:.1f} | {(q - d) / d:.2f}× | {dp:.1f} | {qp:.1f} |")
    for p in (direct, proxied):
        p.stdin.close()
        p.wait()


if __name__ == "__main__":
    main()
