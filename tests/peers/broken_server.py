#!/usr/bin/env python3
"""A deliberately broken MCP server: every fault listed in broken_server.faults.json, once each.

It is the planted-fault server of issue 35: `mcp-typed test` must report every fault the
faults file lists, at the pointer listed, and nothing else; mcp-tester runs against it too
(tests/peers/mcp-tester-runs/). Plain Python (standard library only), newline-delimited
JSON-RPC over stdio, no SDK, so it can break the protocol on purpose.

    python3 tests/peers/broken_server.py        # stdio; speaks 2025-06-18 and 2025-11-25

It negotiates in `initialize` (2025-06-18 or 2025-11-25 as offered, else 2025-11-25) and
declares tools, prompts (without `listChanged`), resources (with `subscribe`), completions,
and `logging` in 2025-11-25 only. All its tools are annotated `readOnlyHint: true`, so a
tester calls them without asking. Each tool checks its arguments against its input schema and
answers a bad call with an `isError` result - except `lenient` (a planted fault).

Every message not listed in the faults file is valid for the negotiated revision; each faulty
message holds exactly one fault. Environment:
  BROKEN_SERVER_MAX_PAGES   pages of the never-ending resources/templates/list (default 1000;
                            the last one has no nextCursor, so a naive client still stops)
"""
import json
import os
import sys

VERSIONS = ("2025-06-18", "2025-11-25")
LATEST = "2025-11-25"
MAX_PAGES = int(os.environ.get("BROKEN_SERVER_MAX_PAGES", "1000"))
LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]

state = {"version": None, "level": "debug", "prompts_listed": False, "unsolicited_sent": False, "subscribed": set()}


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def result(id_, value):
    send({"jsonrpc": "2.0", "id": id_, "result": value})


def error(id_, code, message):
    send({"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": message}})


def text(t):
    return {"type": "text", "text": t}


def tool_error(message):
    return {"content": [text(message)], "isError": True}


# ---------------------------------------------------------------------------------------------
# Tools

READ_ONLY = {"readOnlyHint": True}


def obj(properties, required=()):
    schema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    return schema


TOOLS = [
    {
        "name": "echo",
        "description": "Echoes its text; logs one line first (FAULT log-without-logging in 2025-06-18).",
        "inputSchema": obj({"text": {"type": "string"}}, ["text"]),
        "annotations": READ_ONLY,
    },
    {
        # FAULT input-schema-type: the input schema has no "type": "object".
        "name": "no_type",
        "description": "Its input schema lacks `type`.",
        "inputSchema": {"properties": {"word": {"type": "string"}}, "required": ["word"]},
        "annotations": READ_ONLY,
    },
    {
        "name": "bad_content",
        "description": "Answers with a text block that has no `text`.",
        "inputSchema": obj({}),
        "annotations": READ_ONLY,
    },
    {
        "name": "weather",
        "description": "structuredContent that does not match its outputSchema.",
        "inputSchema": obj({"city": {"type": "string"}}, ["city"]),
        "outputSchema": obj(
            {"temperature": {"type": "number"}, "conditions": {"type": "string"}},
            ["temperature", "conditions"],
        ),
        "annotations": READ_ONLY,
    },
    {
        "name": "stats",
        "description": "structuredContent that matches its outputSchema (no fault).",
        "inputSchema": obj({"days": {"type": "integer", "minimum": 1}}),
        "outputSchema": obj({"count": {"type": "integer"}, "mean": {"type": "number"}}, ["count"]),
        "annotations": READ_ONLY,
    },
    {
        "name": "explode",
        "description": "Fails with a JSON-RPC error whose code is not an integer.",
        "inputSchema": obj({"reason": {"type": "string"}}, ["reason"]),
        "annotations": READ_ONLY,
    },
    {
        "name": "lenient",
        "description": "Accepts any arguments, even invalid ones.",
        "inputSchema": obj({"n": {"type": "integer"}}, ["n"]),
        "annotations": READ_ONLY,
    },
]
TOOL_BY_NAME = {t["name"]: t for t in TOOLS}

JSON_TYPES = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
}


def invalid_arguments(schema, arguments):
    """Why `arguments` does not fit `schema` (the few keywords the tools use), or None."""
    if not isinstance(arguments, dict):
        return "arguments must be an object"
    properties = schema.get("properties", {})
    for name in schema.get("required", []):
        if name not in arguments:
            return f"missing required argument `{name}`"
    for name, value in arguments.items():
        spec = properties.get(name)
        if spec is None:
            continue
        kind = spec.get("type")
        if kind and not JSON_TYPES[kind](value):
            return f"`{name}` must be of type {kind}"
        if "minimum" in spec and value < spec["minimum"]:
            return f"`{name}` must be at least {spec['minimum']}"
    return None


def log(level, data):
    if LEVELS.index(level) >= LEVELS.index(state["level"]):
        send({"jsonrpc": "2.0", "method": "notifications/message",
              "params": {"level": level, "logger": "broken-server", "data": data}})


def call_tool(id_, params):
    name = params.get("name")
    tool = TOOL_BY_NAME.get(name)
    if tool is None:
        return error(id_, -32602, f"unknown tool: {name}")
    arguments = params.get("arguments", {})
    if name == "lenient":
        # FAULT invalid-call-accepted: no check of the arguments; a bad call "succeeds".
        return result(id_, {"content": [text(f"n is {json.dumps(arguments.get('n'))}")]})
    why = invalid_arguments(tool["inputSchema"], arguments)
    if why is not None:
        return result(id_, tool_error(f"{name}: {why}"))
    if name == "echo":
        # FAULT log-without-logging (2025-06-18 only: that revision's initialize declares no logging).
        log("info", f"echo called with {len(arguments['text'])} characters")
        return result(id_, {"content": [text(arguments["text"])]})
    if name == "no_type":
        return result(id_, {"content": [text(arguments["word"].upper())]})
    if name == "bad_content":
        # FAULT content-block-no-text: the second block is a text block without `text`.
        return result(id_, {"content": [text("first block"), {"type": "text"}]})
    if name == "weather":
        # FAULT structured-content-mismatch: `temperature` must be a number.
        weather = {"temperature": "warm", "conditions": f"sunny in {arguments['city']}"}
        return result(id_, {"content": [text(json.dumps(weather))], "structuredContent": weather})
    if name == "stats":
        stats = {"count": 3, "mean": 2.5}
        return result(id_, {"content": [text(json.dumps(stats))], "structuredContent": stats})
    if name == "explode":
        # FAULT error-code-not-integer.
        return send({"jsonrpc": "2.0", "id": id_,
                     "error": {"code": "-32603", "message": f"exploded: {arguments['reason']}"}})
    raise AssertionError(name)


# ---------------------------------------------------------------------------------------------
# Prompts

PROMPTS = [
    {"name": "greet", "description": "Greets someone.",
     "arguments": [{"name": "name", "description": "Who to greet", "required": True}]},
    {"name": "sys_prompt", "description": "A message with the role `system`."},
]


def get_prompt(id_, params):
    name = params.get("name")
    arguments = params.get("arguments") or {}
    if name == "greet":
        if "name" not in arguments:
            return error(id_, -32602, "greet: missing required argument `name`")
        return result(id_, {"description": "A greeting",
                            "messages": [{"role": "user", "content": text(f"Say hello to {arguments['name']}.")}]})
    if name == "sys_prompt":
        # FAULT prompt-role-system: "system" is not a Role.
        return result(id_, {"messages": [{"role": "system", "content": text("You are a test.")}]})
    return error(id_, -32602, f"unknown prompt: {name}")


# ---------------------------------------------------------------------------------------------
# Resources

README = {"uri": "file:///broken/readme.txt", "name": "readme", "mimeType": "text/plain"}
NO_URI = {"uri": "file:///broken/nouri.txt", "name": "nouri", "mimeType": "text/plain"}
LOGO = {"uri": "file:///broken/logo.png", "name": "logo", "mimeType": "image/png"}
PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
TEMPLATE = {"uriTemplate": "greeting://{name}", "name": "greeting", "mimeType": "text/plain"}


def list_resources(id_, params):
    if params.get("cursor") == "res-page-2":
        # FAULT pagination-repeats-item: page 2 lists readme.txt again (page 1 had it).
        return result(id_, {"resources": [LOGO, README]})
    if params.get("cursor") is not None:
        return error(id_, -32602, "invalid cursor")
    return result(id_, {"resources": [README, NO_URI], "nextCursor": "res-page-2"})


def list_templates(id_, params):
    cursor = params.get("cursor")
    if cursor is None:
        return result(id_, {"resourceTemplates": [TEMPLATE], "nextCursor": "tpl-2"})
    if not cursor.startswith("tpl-") or not cursor[4:].isdigit():
        return error(id_, -32602, "invalid cursor")
    page = int(cursor[4:])
    # FAULT cursor-never-ends: every page names a next one (empty pages), up to MAX_PAGES.
    if page >= MAX_PAGES:
        return result(id_, {"resourceTemplates": []})
    return result(id_, {"resourceTemplates": [], "nextCursor": f"tpl-{page + 1}"})


def read_resource(id_, params):
    uri = params.get("uri", "")
    if uri == README["uri"]:
        return result(id_, {"contents": [{"uri": uri, "mimeType": "text/plain", "text": "Broken on purpose."}]})
    if uri == NO_URI["uri"]:
        # FAULT resource-contents-no-uri.
        return result(id_, {"contents": [{"mimeType": "text/plain", "text": "Where am I?"}]})
    if uri == LOGO["uri"]:
        return result(id_, {"contents": [{"uri": uri, "mimeType": "image/png", "blob": PNG_1X1}]})
    if uri.startswith("greeting://") and len(uri) > len("greeting://"):
        return result(id_, {"contents": [{"uri": uri, "mimeType": "text/plain",
                                          "text": f"Hello, {uri[len('greeting://'):]}!"}]})
    return error(id_, -32002, f"resource not found: {uri}")


def subscribe(id_, params, on):
    uri = params.get("uri", "")
    if on:
        state["subscribed"].add(uri)
    else:
        state["subscribed"].discard(uri)
    result(id_, {})
    if on:
        send({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": uri}})


# ---------------------------------------------------------------------------------------------
# Completions, logging, the rest


def complete(id_, params):
    ref = params.get("ref", {})
    argument = params.get("argument", {})
    prefix = argument.get("value", "")
    if ref.get("type") == "ref/resource":
        # FAULT wrong-type-completion-values: `values` must be an array of strings.
        return result(id_, {"completion": {"values": {}}})
    names = [n for n in ("alice", "bob") if n.startswith(prefix)]
    if ref.get("type") == "ref/prompt" and ref.get("name") == "greet" and argument.get("name") == "name":
        return result(id_, {"completion": {"values": names, "total": len(names), "hasMore": False}})
    return result(id_, {"completion": {"values": []}})


def capabilities(version):
    caps = {
        "tools": {},
        "prompts": {},  # no listChanged: see FAULT prompts-list-changed-undeclared
        "resources": {"subscribe": True},
        "completions": {},
    }
    if version == "2025-11-25":
        caps["logging"] = {}
    return caps


def initialize(id_, params):
    offered = params.get("protocolVersion")
    version = offered if offered in VERSIONS else LATEST
    state["version"] = version
    result(id_, {
        "protocolVersion": version,
        "capabilities": capabilities(version),
        "serverInfo": {"name": "broken-server", "title": "Broken on purpose", "version": "0.1.0"},
        "instructions": "Every fault is listed in broken_server.faults.json.",
    })


def set_level(id_, params):
    if "logging" not in capabilities(state["version"]):
        return error(id_, -32601, "logging/setLevel: no logging in this revision")
    level = params.get("level")
    if level not in LEVELS:
        return error(id_, -32602, f"unknown level: {level}")
    state["level"] = level
    result(id_, {})


def ping(id_, _params):
    result(id_, {})
    if not state["unsolicited_sent"]:
        state["unsolicited_sent"] = True
        # FAULT response-to-unknown-id: a response to a request the client never sent.
        send({"jsonrpc": "2.0", "id": "never-sent-by-the-client", "result": {}})


def list_prompts(id_, _params):
    result(id_, {"prompts": PROMPTS})
    if not state["prompts_listed"]:
        state["prompts_listed"] = True
        # FAULT prompts-list-changed-undeclared: `prompts` was declared without `listChanged`.
        send({"jsonrpc": "2.0", "method": "notifications/prompts/list_changed"})


HANDLERS = {
    "initialize": initialize,
    "ping": ping,
    "logging/setLevel": set_level,
    "tools/list": lambda id_, params: result(id_, {"tools": TOOLS}),
    "tools/call": call_tool,
    "prompts/list": list_prompts,
    "prompts/get": get_prompt,
    "resources/list": list_resources,
    "resources/templates/list": list_templates,
    "resources/read": read_resource,
    "resources/subscribe": lambda id_, params: subscribe(id_, params, True),
    "resources/unsubscribe": lambda id_, params: subscribe(id_, params, False),
    "completion/complete": complete,
}


def reply_without_id(code, message):
    """An error that answers no request: "id": null before 2025-11-25, no id member from it on."""
    reply = {"jsonrpc": "2.0", "error": {"code": code, "message": message}}
    if state["version"] != "2025-11-25":
        reply["id"] = None
    send(reply)


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
        except ValueError:
            reply_without_id(-32700, "parse error")
            continue
        if not isinstance(message, dict) or "method" not in message:
            continue  # a response or a batch: this server sends no requests
        if "id" not in message:
            continue  # notifications: initialized, cancelled, roots/list_changed…
        id_, method = message["id"], message["method"]
        if isinstance(id_, bool) or not isinstance(id_, (str, int)) or not isinstance(method, str):
            reply_without_id(-32600, "invalid request: the id must be a string or an integer")
            continue
        params = message.get("params") or {}
        handler = HANDLERS.get(method)
        if handler is None:
            error(id_, -32601, f"method not found: {method}")
        elif method != "initialize" and state["version"] is None:
            error(id_, -32600, "not initialized")
        else:
            handler(id_, params)


if __name__ == "__main__":
    main()
