#!/usr/bin/env python3
"""An MCP server that counts the calls to its tools that are not read-only (issue 35's consent test).

`mcp-typed test` must call a tool only when it is annotated `readOnlyHint: true` (and not
`destructiveHint`), or named with `--tool NAME` / allowed with `--call-all`. This server has:

  look    annotations {"readOnlyHint": true}                        read-only: may be called
  touch   annotations {"title": …} (no readOnlyHint)                a side effect: counted
  wipe    annotations {"readOnlyHint": false, "destructiveHint": true}   a side effect: counted
  peek    annotations {"readOnlyHint": true, "destructiveHint": true}    contradictory: counted
                                                                    (the rule excludes it)

Each call of `touch`, `wipe` or `peek` appends one line `<tool> <json arguments>` to the file
named by MCP_COUNT_FILE (nothing is written when it is unset); `look` writes nothing. So a test
runs the command without consent and asserts the file is absent or empty, then with
`--tool touch` and asserts exactly the `touch` lines. Plain Python (standard library only),
newline-delimited JSON-RPC over stdio; speaks 2025-03-26, 2025-06-18 and 2025-11-25 (the one
offered in `initialize`, else 2025-11-25); declares `tools` and `logging` (it accepts
logging/setLevel, which many clients send, and never logs). Every message it sends is
valid for the negotiated revision.

    MCP_COUNT_FILE=/tmp/count python3 tests/peers/counting_server.py
"""
import json
import os
import sys

VERSIONS = ("2025-03-26", "2025-06-18", "2025-11-25")
LATEST = "2025-11-25"
COUNTED = ("touch", "wipe", "peek")

TOOLS = [
    {"name": "look", "description": "Reads nothing and changes nothing.",
     "inputSchema": {"type": "object", "properties": {"what": {"type": "string"}}},
     "annotations": {"readOnlyHint": True}},
    {"name": "touch", "description": "A side effect: appends a line to MCP_COUNT_FILE.",
     "inputSchema": {"type": "object", "properties": {"note": {"type": "string"}}},
     "annotations": {"title": "Touch (not read-only)"}},
    {"name": "wipe", "description": "A destructive side effect: appends a line to MCP_COUNT_FILE.",
     "inputSchema": {"type": "object", "properties": {"target": {"type": "string"}}, "required": ["target"]},
     "annotations": {"readOnlyHint": False, "destructiveHint": True}},
    {"name": "peek", "description": "Says read-only and destructive at once: appends a line to MCP_COUNT_FILE.",
     "inputSchema": {"type": "object", "properties": {}},
     "annotations": {"readOnlyHint": True, "destructiveHint": True}},
]
NAMES = {t["name"]: t for t in TOOLS}


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def count(name, arguments):
    path = os.environ.get("MCP_COUNT_FILE")
    if path:
        with open(path, "a") as f:
            f.write(f"{name} {json.dumps(arguments, sort_keys=True)}\n")


def call(params):
    name = params.get("name")
    arguments = params.get("arguments") or {}
    tool = NAMES.get(name)
    if tool is None:
        return None
    schema = tool["inputSchema"]
    missing = [p for p in schema.get("required", []) if p not in arguments]
    wrong = [p for p, v in arguments.items() if p in schema["properties"] and not isinstance(v, str)]
    if not isinstance(params.get("arguments", {}), dict) or missing or wrong:
        why = f"missing {missing}" if missing else f"must be strings: {wrong}"
        return {"content": [{"type": "text", "text": f"{name}: invalid arguments ({why})"}], "isError": True}
    if name in COUNTED:
        count(name, arguments)
    return {"content": [{"type": "text", "text": f"{name} done"}]}


def error_without_id(version, code, message):
    """An error that answers no request: "id": null before 2025-11-25, no id member from it on."""
    reply = {"jsonrpc": "2.0", "error": {"code": code, "message": message}}
    if version != "2025-11-25":
        reply["id"] = None
    return reply


def main():
    version = None
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            send(error_without_id(version, -32700, "parse error"))
            continue
        if not isinstance(message, dict) or "method" not in message or "id" not in message:
            continue  # notifications and responses
        id_, method, params = message["id"], message["method"], message.get("params") or {}
        if isinstance(id_, bool) or not isinstance(id_, (str, int)):
            send(error_without_id(version, -32600, "invalid request: the id must be a string or an integer"))
            continue
        if method == "initialize":
            offered = params.get("protocolVersion")
            version = offered if offered in VERSIONS else LATEST
            send({"jsonrpc": "2.0", "id": id_, "result": {
                "protocolVersion": version, "capabilities": {"tools": {}, "logging": {}},
                "serverInfo": {"name": "counting-server", "version": "0.1.0"}}})
        elif method in ("ping", "logging/setLevel"):  # it never logs: any level is kept
            send({"jsonrpc": "2.0", "id": id_, "result": {}})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": id_, "result": {"tools": TOOLS}})
        elif method == "tools/call":
            result = call(params)
            if result is None:
                send({"jsonrpc": "2.0", "id": id_, "error": {"code": -32602, "message": f"unknown tool: {params.get('name')}"}})
            else:
                send({"jsonrpc": "2.0", "id": id_, "result": result})
        else:
            send({"jsonrpc": "2.0", "id": id_, "error": {"code": -32601, "message": f"method not found: {method}"}})


if __name__ == "__main__":
    main()
