#!/usr/bin/env python3
"""Serve a stdio MCP server over Streamable HTTP, for clients that cannot spawn one.

mcp-tester 0.8 drives a stdio server only as far as `initialize` (its stdio transport is its
own stdin/stdout, and every later test says "Stdio transport doesn't support multiple
operations"), so tests/peers/run-mcp-tester.sh puts broken_server.py behind this bridge to let
it reach tools, prompts and resources. Standard library only.

    python3 tests/peers/stdio_http_bridge.py --port 3099 -- python3 tests/peers/broken_server.py
    # then POST JSON-RPC to http://127.0.0.1:3099/mcp

What it does, and where it differs from a full Streamable HTTP server:
* POST /mcp with a request: the line goes to the child's stdin; the answer is a
  `text/event-stream` holding every line the child wrote until the response with that id, and
  whatever it wrote within --linger seconds after (a notification or stray response the child
  sends right after the answer: those are put before the response, so a client that stops at
  the response still reads them); with nothing but the response, `application/json`.
* POST with a notification or a response: forwarded, 202 Accepted. GET and OPTIONS: 405 with a
  JSON-RPC error body (no standalone stream, no CORS; mcp-tester wants the body). DELETE: 200,
  the child is left running (one child per bridge, one session).
* Mcp-Session-Id is set on the initialize answer and not checked; batches are not supported.
"""
import argparse
import json
import queue
import subprocess
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Child:
    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.lines = queue.Queue()
        self.lock = threading.Lock()  # one exchange at a time: answers are matched by order of reading
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            if line.strip():
                self.lines.put(line.strip())

    def write(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def exchange(self, line, id_, timeout, linger):
        """Lines the child wrote until the response to `id_`, then for `linger` seconds more."""
        with self.lock:
            self.write(line)
            before, response, deadline = [], None, time.monotonic() + timeout
            while response is None:
                got = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
                message = json.loads(got)
                if "method" not in message and message.get("id") == id_:
                    response = got
                else:
                    before.append(got)
            end = time.monotonic() + linger
            while (left := end - time.monotonic()) > 0:
                try:
                    before.append(self.lines.get(timeout=left))
                except queue.Empty:
                    break
            return before, response


def handler(child, args):
    session = uuid.uuid4().hex

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def reply(self, status, body=b"", content_type=None, headers=()):
            self.send_response(status)
            if content_type:
                self.send_header("Content-Type", content_type)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def not_allowed(self):
            body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {
                "code": -32000, "message": f"{self.command} not supported: no standalone stream"}})
            self.reply(405, body.encode(), "application/json", [("Allow", "POST, DELETE")])

        do_GET = do_OPTIONS = not_allowed

        def do_DELETE(self):
            self.reply(200)

        def do_POST(self):
            if self.path.split("?")[0] != args.path:
                return self.reply(404)
            body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
            try:
                message = json.loads(body)
            except ValueError:
                return self.reply(400, b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}',
                                  "application/json")
            if not isinstance(message, dict):
                return self.reply(400, b'{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"no batches"}}',
                                  "application/json")
            line = json.dumps(message)
            if "method" not in message or "id" not in message:
                child.write(line)
                return self.reply(202)
            try:
                others, response = child.exchange(line, message["id"], args.timeout, args.linger)
            except queue.Empty:
                return self.reply(504, b"the stdio server did not answer in time")
            headers = [("Mcp-Session-Id", session)] if message["method"] == "initialize" else []
            if not others:
                return self.reply(200, response.encode(), "application/json", headers)
            events = "".join(f"event: message\ndata: {m}\n\n" for m in others + [response])
            self.reply(200, events.encode(), "text/event-stream", headers)

    return Handler


def main():
    parser = argparse.ArgumentParser(description="Serve a stdio MCP server over Streamable HTTP.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port (printed on stderr)")
    parser.add_argument("--path", default="/mcp")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for an answer")
    parser.add_argument("--linger", type=float, default=0.1, help="seconds to keep reading after an answer")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- SERVER ARGS…")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("the stdio server's command line is missing (after --)")
    child = Child(command)
    server = ThreadingHTTPServer((args.host, args.port), handler(child, args))
    print(f"listening on http://{args.host}:{server.server_address[1]}{args.path}", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        child.proc.terminate()


if __name__ == "__main__":
    main()
