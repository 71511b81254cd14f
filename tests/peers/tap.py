#!/usr/bin/env python3
"""stdio tap: run a real MCP server, relay newline-delimited JSON-RPC both ways
byte-for-byte, and log every message.

    python3 tap.py --log FILE [--stderr FILE] -- SERVER_CMD [ARGS...]

A client uses this whole command line as its "server command". Every line the
client writes to our stdin is forwarded unchanged to the server's stdin, every
line the server writes to its stdout is forwarded unchanged to our stdout. Each
line is also appended to FILE as

    {"dir":"c2s","msg":<the line's exact text>}
    {"dir":"s2c","msg":<the line's exact text>}

i.e. the raw text is spliced in, so member order, number formatting and string
escapes are exactly what the peer wrote. A line that is not a JSON value (it
would be a peer bug) is logged as {"dir":...,"nonjson":"<text>"}. Nothing is
parsed for forwarding purposes and nothing is rewritten.
"""
import json
import os
import signal
import subprocess
import sys
import threading


def main() -> int:
    argv = sys.argv[1:]
    log_path = None
    err_path = None
    while argv and argv[0] != "--":
        opt = argv.pop(0)
        if opt == "--log":
            log_path = argv.pop(0)
        elif opt == "--stderr":
            err_path = argv.pop(0)
        else:
            print(f"tap.py: unknown option {opt}", file=sys.stderr)
            return 2
    if not argv or argv[0] != "--" or len(argv) < 2 or log_path is None:
        print("usage: tap.py --log FILE [--stderr FILE] -- SERVER_CMD [ARGS...]", file=sys.stderr)
        return 2
    cmd = argv[1:]

    log = open(log_path, "ab", buffering=0)
    lock = threading.Lock()
    err = open(err_path, "ab") if err_path else None

    proc = subprocess.Popen(
        cmd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=err if err else None,
        bufsize=0,
    )

    def record(direction: str, line: bytes) -> None:
        body = line.rstrip(b"\r\n")
        if not body.strip():
            return
        try:
            json.loads(body)
            entry = b'{"dir":"' + direction.encode() + b'","msg":' + body + b"}\n"
        except ValueError:
            text = body.decode("utf-8", "replace")
            entry = (json.dumps({"dir": direction, "nonjson": text}, ensure_ascii=False) + "\n").encode()
        with lock:
            log.write(entry)

    def pump(src, dst, direction: str, close_dst: bool) -> None:
        try:
            while True:
                line = src.readline()
                if not line:
                    break
                record(direction, line)
                try:
                    dst.write(line)
                    dst.flush()
                except (BrokenPipeError, OSError):
                    break
        finally:
            if close_dst:
                try:
                    dst.close()
                except OSError:
                    pass

    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    t_in = threading.Thread(target=pump, args=(stdin, proc.stdin, "c2s", True), daemon=True)
    t_out = threading.Thread(target=pump, args=(proc.stdout, stdout, "s2c", False), daemon=True)
    t_in.start()
    t_out.start()

    def on_term(signum, _frame):
        try:
            proc.terminate()
        except OSError:
            pass

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, on_term)

    # The client closing our stdin closes the server's stdin; servers exit on EOF.
    t_in.join()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.terminate()
        try:
            proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    t_out.join(timeout=2)
    return proc.returncode if proc.returncode is not None and proc.returncode >= 0 else 0


if __name__ == "__main__":
    sys.exit(main())
