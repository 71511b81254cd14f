#!/usr/bin/env python3
"""Drive a real MCP server with the real Python SDK client (`mcp`, pinned in
versions.env), through tap.py, at one protocol revision.

    python py_client.py --revision 2025-06-18 --log RAW.jsonl [--result RESULT.json] -- SERVER_CMD...

Handshake revisions (2024-11-05 .. 2025-11-25) are forced by patching the SDK's
offered version (`mcp.client.session.LATEST_HANDSHAKE_VERSION`); the SDK is
otherwise untouched and nothing on the wire is rewritten. 2026-07-28 uses the
SDK's own `server/discover` probe (mode="auto"), which falls back to the
initialize handshake against servers that do not speak it.

The driver lists everything (all pages), calls every tool with arguments
derived from its inputSchema, gets every prompt, reads a handful of resources
(text and blob) and instantiated templates, subscribes/unsubscribes,
completes every prompt argument and template variable, sets the log level and
pings. It answers server requests: sampling (a text message), roots/list (one
root) and elicitation (accept with decimals / accept echoing defaults /
decline / cancel, rotating per request; url mode is accepted).

The negotiated revision (initialize or discover result) is written to
--result as JSON.
"""
import argparse
import json
import os
import sys
from typing import Any

import anyio

import mcp.types as types
from mcp import Client
from sdk import HANDSHAKE, client_mode, tapped

HERE = os.path.dirname(os.path.abspath(__file__))

# Tool-specific arguments where a schema-derived guess would be useless or unsafe.
TOOL_ARGS: dict[str, list[dict[str, Any]]] = {
    # server-everything
    "echo": [{"message": "hello from the python sdk"}],
    "get-sum": [{"a": 2.5, "b": 40}],
    "trigger-long-running-operation": [{"duration": 1, "steps": 3}],
    # data: URI only (never a network fetch); both output types.
    "gzip-file-as-resource": [
        {"name": "hello.txt.gz", "data": "data:text/plain;base64,aGVsbG8gd29ybGQK", "outputType": "resource"},
        {"name": "hello2.txt.gz", "data": "data:text/plain;base64,aGVsbG8gYWdhaW4K", "outputType": "resourceLink"},
    ],
    "get-resource-reference": [{"resourceType": "Text", "resourceId": 1}, {"resourceType": "Blob", "resourceId": 2}],
    "get-resource-links": [{"count": 3}],
    "get-annotated-message": [{"messageType": "error", "includeImage": True}, {"messageType": "success", "includeImage": False}],
    "trigger-url-elicitation": [{"url": "https://example.com/verify?session=abc"}],
    "trigger-elicitation-request": [{}, {}, {}, {}],
    "trigger-elicitation-request-async": [{}],
    "trigger-sampling-request": [{"prompt": "Say hello in five words", "maxTokens": 40}],
    "trigger-sampling-request-async": [{"prompt": "Say hello in five words", "maxTokens": 40}],
    "simulate-research-query": [{"topic": "decimal numbers", "ambiguous": True}],
    # py_server.py
    "add": [{"a": 2.5, "b": 0.25}],
    "weather": [{"city": "Lisbon"}],
    "slow_count": [{"steps": 2}],
    "fail": [{"reason": "deliberate failure"}],
    "register_user": [{}, {}, {}, {}],
}
# Called last: they start periodic notifications; each is toggled on, left for a while, toggled off.
TOGGLES = ("toggle-simulated-logging", "toggle-subscriber-updates")


def value_for(name: str, schema: dict[str, Any]) -> Any:
    if "default" in schema:
        return schema["default"]
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    for key in ("oneOf", "anyOf"):
        if key in schema and schema[key]:
            return value_for(name, schema[key][0])
    t = schema.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), "string")
    if t == "number":
        return 35.5
    if t == "integer":
        return 7
    if t == "boolean":
        return True
    if t == "array":
        return [value_for(name, schema.get("items", {"type": "string"}))] if schema.get("minItems") else []
    if t == "object":
        return args_for(schema)
    fmt = schema.get("format")
    if fmt == "uri":
        return "https://example.com/peer"
    if fmt == "email":
        return "peer@example.com"
    if fmt == "date":
        return "2000-01-31"
    return f"sample {name}"


def args_for(schema: dict[str, Any]) -> dict[str, Any]:
    props = schema.get("properties", {}) or {}
    required = set(schema.get("required", []) or [])
    out = {}
    for name, sub in props.items():
        if name in required or "default" not in sub:
            out[name] = value_for(name, sub)
    return out


class Answers:
    """Server->client request handlers; every call is counted so answers rotate."""

    def __init__(self) -> None:
        self.elicit_n = 0

    async def sampling(self, ctx, params: types.CreateMessageRequestParams):
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text="Hello there, decimal 0.5 friend!"),
            model="peer-stub-model",
            stop_reason="endTurn",
        )

    async def roots(self, ctx):
        return types.ListRootsResult(roots=[types.Root(uri="file:///tmp/mcp-peer-root", name="peer root")])

    async def elicitation(self, ctx, params):
        if isinstance(params, types.ElicitRequestURLParams) or getattr(params, "mode", None) == "url":
            return types.ElicitResult(action="accept")
        n = self.elicit_n
        self.elicit_n += 1
        kind = n % 4
        if kind == 2:
            return types.ElicitResult(action="decline")
        if kind == 3:
            return types.ElicitResult(action="cancel")
        schema = params.requested_schema
        content: dict[str, Any] = {}
        for name, sub in (schema.get("properties") or {}).items():
            t = sub.get("type")
            if kind == 1 and "default" in sub:
                content[name] = sub["default"]  # echo defaults, e.g. 3.14
            elif t == "number":
                content[name] = 35.5
            elif t == "integer":
                content[name] = 7 if sub.get("minimum", 1) <= 7 else sub["minimum"]
            else:
                content[name] = value_for(name, {k: v for k, v in sub.items() if k != "default"} if kind == 0 else sub)
        return types.ElicitResult(action="accept", content=content)

    async def logging(self, params) -> None:
        return None


async def paginate(fetch, attr: str) -> list[Any]:
    items: list[Any] = []
    cursor = None
    for _ in range(20):
        page = await fetch(cursor=cursor, cache_mode="bypass")
        items.extend(getattr(page, attr))
        cursor = page.next_cursor
        if not cursor:
            break
    return items


async def step(label: str, coro, errors: list[str]):
    try:
        return await coro
    except Exception as e:  # every failure is recorded; the capture keeps going
        errors.append(f"{label}: {type(e).__name__}: {e}")
        return None


async def drive(args) -> dict[str, Any]:
    server_cmd = args.server
    params = tapped(server_cmd, args.log, args.stderr)
    mode = client_mode(args.revision)

    answers = Answers()
    errors: list[str] = []
    outcome: dict[str, Any] = {"requested": args.revision}
    async with Client(
        params,
        mode=mode,
        cache=None,
        read_timeout_seconds=30,
        sampling_callback=answers.sampling,
        list_roots_callback=answers.roots,
        elicitation_callback=answers.elicitation,
        logging_callback=answers.logging,
        client_info=types.Implementation(name="mcp-types-peer-py-client", version="1.0.0"),
        log_level="debug" if mode != "legacy" else None,
    ) as client:
        version = client.protocol_version
        outcome["negotiated"] = version
        outcome["server"] = client.server_info.name if client.server_info else None
        caps = client.server_capabilities
        modern = version not in HANDSHAKE

        if not modern:
            await step("ping", client.send_ping(), errors)
            if caps.logging is not None:
                await step("logging/setLevel", client.set_logging_level("debug"), errors)

        tools = await step("tools/list", paginate(client.list_tools, "tools"), errors) or []
        prompts = await step("prompts/list", paginate(client.list_prompts, "prompts"), errors) or []
        resources = await step("resources/list", paginate(client.list_resources, "resources"), errors) or []
        templates = await step("resources/templates/list", paginate(client.list_resource_templates, "resource_templates"), errors) or []
        outcome["counts"] = {"tools": len(tools), "prompts": len(prompts), "resources": len(resources), "templates": len(templates)}

        # Resources: a handful of listed ones (text and blob), then instantiated templates.
        picked = resources[:3] + [r for r in resources[3:] if (r.mime_type or "").startswith(("image/", "application/"))][:1]
        for r in picked:
            await step(f"read {r.uri}", client.read_resource(str(r.uri), cache_mode="bypass"), errors)
        for t in templates:
            uri = t.uri_template
            for var in _template_vars(uri):
                uri = uri.replace("{" + var + "}", "1" if "id" in var.lower() else "peer")
            await step(f"read {uri}", client.read_resource(uri, cache_mode="bypass"), errors)
        if resources and caps.resources is not None and caps.resources.subscribe:
            uri = str(resources[0].uri)
            await step("subscribe", client.subscribe_resource(uri), errors)
            await step("unsubscribe", client.unsubscribe_resource(uri), errors)

        # Completions for every prompt argument and template variable.
        if caps.completions is not None:
            for p in prompts:
                for a in p.arguments or []:
                    await step(
                        f"complete {p.name}.{a.name}",
                        client.complete(types.PromptReference(type="ref/prompt", name=p.name), {"name": a.name, "value": ""}),
                        errors,
                    )
            for t in templates:
                for var in _template_vars(t.uri_template):
                    await step(
                        f"complete {t.uri_template}.{var}",
                        client.complete(
                            types.ResourceTemplateReference(type="ref/resource", uri=t.uri_template),
                            {"name": var, "value": "1" if "id" in var.lower() else "a"},
                        ),
                        errors,
                    )

        # Prompts.
        for p in prompts:
            pargs = {}
            for a in p.arguments or []:
                if a.required or p.name == "args-prompt":
                    pargs[a.name] = {"city": "Lisbon", "state": "LX", "resourceType": "Text", "resourceId": "1",
                                     "department": "Engineering", "name": "Alice", "code": "print(1.5)",
                                     "language": "python"}.get(a.name, f"sample {a.name}")
            await step(f"prompt {p.name}", client.get_prompt(p.name, pargs or None), errors)

        # Tools: every one, toggles last.
        async def progress(progress: float, total: float | None, message: str | None) -> None:
            return None

        if not modern:
            await step("roots list_changed", client.send_roots_list_changed(), errors)
        links: list[str] = []
        for t in [t for t in tools if t.name not in TOGGLES]:
            calls = TOOL_ARGS.get(t.name) or [args_for(t.input_schema or {})]
            for targs in calls:
                res = await step(
                    f"tool {t.name}",
                    client.call_tool(t.name, targs, read_timeout_seconds=20, progress_callback=progress),
                    errors,
                )
                for block in getattr(res, "content", None) or []:
                    if block.type == "resource_link" and len(links) < 2:
                        links.append(str(block.uri))
        toggles = [t for t in tools if t.name in TOGGLES]
        if toggles:
            # Periodic notifications: subscribe, switch both timers on, wait, switch off.
            sub = str(resources[0].uri) if resources and caps.resources and caps.resources.subscribe else None
            if sub:
                await step("subscribe (timer)", client.subscribe_resource(sub), errors)
            for t in toggles:
                await step(f"tool {t.name}", client.call_tool(t.name, {}), errors)
            await anyio.sleep(args.toggle_seconds)
            for t in toggles:
                await step(f"tool {t.name} (off)", client.call_tool(t.name, {}), errors)
            if sub:
                await step("unsubscribe (timer)", client.unsubscribe_resource(sub), errors)
        for uri in links:
            await step(f"read link {uri}", client.read_resource(uri, cache_mode="bypass"), errors)

        # Error paths: an unknown tool and an unknown method.
        await step("tool does-not-exist", client.call_tool("does-not-exist", {"x": 1.5}), errors)
        if not modern:
            await step(
                "vendor/unknown",
                client.session._dispatcher.send_raw_request("vendor.example/unknown", {"q": 0.5}, {"timeout": 10}),
                errors,
            )
            await step("ping (final)", client.send_ping(), errors)
        await anyio.sleep(0.5)
    outcome["errors"] = errors
    return outcome


def _template_vars(uri_template: str) -> list[str]:
    import re

    return [v.lstrip("+#/?&.;").split(",")[0].rstrip("*") for v in re.findall(r"\{([^}]+)\}", uri_template)]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--revision", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--stderr")
    ap.add_argument("--result")
    ap.add_argument("--toggle-seconds", type=float, default=11.0)
    ap.add_argument("server", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    if args.server and args.server[0] == "--":
        args.server = args.server[1:]
    if not args.server:
        ap.error("missing server command after --")
    outcome = anyio.run(drive, args)
    text = json.dumps(outcome, indent=2)
    if args.result:
        with open(args.result, "w") as f:
            f.write(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
