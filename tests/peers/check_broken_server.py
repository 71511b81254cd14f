#!/usr/bin/env python3
"""Check broken_server.faults.json against the traffic checker (`mcp-typed check`).

For each revision the broken server speaks, this drives tests/peers/broken_server.py through
the checker's stdio proxy (`mcp-typed check --json --report FILE -- python3 broken_server.py`)
with a plain JSON-RPC client that does what `mcp-typed test` does by default (issue 35):
initialize, ping, logging/setLevel where declared, every list followed page by page (at most
MAX_PAGES), one valid and one invalid call per tool, every prompt (arguments completed), every
resource read, a subscribe/unsubscribe, the template completed and read. Then it compares:

* every fault the faults file marks `"checker": {"sees": true, ...}` must be reported by the
  checker once, at the listed pointer and kind, in a server message of the listed method;
* the checker must report nothing else about the server (no problem, no note), nor anything
  about this client;
* the faults it marks `"sees": false` (the command's own rules) are checked here, from the
  traffic, so the file cannot list a fault the server does not plant.

    python3 tests/peers/check_broken_server.py                      # both revisions
    python3 tests/peers/check_broken_server.py --revision 2025-06-18 --capture /tmp/c.jsonl
    MCP_TYPED=target/debug/mcp-typed python3 tests/peers/check_broken_server.py

The checker binary: --mcp-typed PATH, else $MCP_TYPED, else `cargo run -q -p mcp-typed-cli --`.
Exit status 0 when the faults file and the checker agree, 1 otherwise.
"""
import argparse
import json
import os
import queue
import shlex
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SERVER = os.path.join(HERE, "broken_server.py")
FAULTS = os.path.join(HERE, "broken_server.faults.json")
MAX_PAGES = 50
TIMEOUT = 20


class Client:
    """Newline-delimited JSON-RPC over a child's stdio; keeps everything that is not awaited."""

    def __init__(self, command, capture):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=REPO)
        self.lines = queue.Queue()
        self.next_id = 0
        self.other = []  # notifications, unsolicited responses, requests from the server
        self.capture = capture
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _log(self, direction, message):
        if self.capture:
            self.capture.write(json.dumps({"dir": direction, "msg": message}) + "\n")

    def send(self, message):
        self._log("c2s", message)
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def request(self, method, params=None):
        """The response (the whole message) to a new request."""
        self.next_id += 1
        id_ = self.next_id
        message = {"jsonrpc": "2.0", "id": id_, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        while True:
            line = self.lines.get(timeout=TIMEOUT)
            if line is None:
                raise RuntimeError(f"the server closed its output while {method} waited")
            reply = json.loads(line)
            self._log("s2c", reply)
            if reply.get("id") == id_ and "method" not in reply:
                return reply
            self.other.append(reply)

    def close(self):
        self.proc.stdin.close()
        for line in iter(lambda: self.lines.get(timeout=TIMEOUT), None):
            message = json.loads(line)
            self._log("s2c", message)
            self.other.append(message)
        self.proc.wait(timeout=TIMEOUT)


def follow(client, method, member):
    """Every page of a list: (items, pages read, the last page's nextCursor or None)."""
    items, cursor, pages = [], None, 0
    while pages < MAX_PAGES:
        reply = client.request(method, {"cursor": cursor} if cursor else None)
        pages += 1
        page = reply.get("result", {})
        if isinstance(page.get(member), list):
            items += page[member]
        cursor = page.get("nextCursor")
        if not cursor:
            break
    return items, pages, cursor


def example(spec, valid):
    """A value for a property schema: one that fits it, or (valid=False) one of another type."""
    kind = spec.get("type", "string")
    if not valid:
        return 7 if kind == "string" else f"not {'an' if kind[0] in 'aeiou' else 'a'} {kind}"
    return {"string": "alice", "integer": spec.get("minimum", 1), "number": 1.5,
            "boolean": True, "array": [], "object": {}}[kind]


def tool_arguments(schema, valid):
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    if valid:
        return {name: example(properties.get(name, {}), True) for name in required}
    target = (required or list(properties) or [None])[0]
    if target is None:
        return None  # nothing to get wrong
    arguments = {name: example(properties.get(name, {}), True) for name in required}
    arguments[target] = example(properties.get(target, {}), False)
    return arguments


def fits(schema, value):
    """The few outputSchema keywords the broken server uses: type, properties, required."""
    kinds = {"string": str, "number": (int, float), "integer": int, "boolean": bool, "object": dict, "array": list}
    kind = schema.get("type")
    if kind and not isinstance(value, kinds[kind]) or isinstance(value, bool) and kind in ("number", "integer"):
        return False
    if isinstance(value, dict):
        if any(name not in value for name in schema.get("required", [])):
            return False
        return all(fits(schema.get("properties", {}).get(k, {}), v) for k, v in value.items())
    return True


def drive(client, revision):
    """Run the plan; return what the command's own rules would see: {fault id: evidence}."""
    seen = {}
    init = client.request("initialize", {"protocolVersion": revision, "capabilities": {},
                                         "clientInfo": {"name": "check_broken_server", "version": "0.1.0"}})
    caps = init["result"]["capabilities"]
    assert init["result"]["protocolVersion"] == revision, init
    client.notify("notifications/initialized")
    client.request("ping")
    if "logging" in caps:
        client.request("logging/setLevel", {"level": "debug"})

    tools, _, _ = follow(client, "tools/list", "tools")
    for tool in tools:
        schema = tool.get("inputSchema", {})
        reply = client.request("tools/call", {"name": tool["name"], "arguments": tool_arguments(schema, True)})
        out = reply.get("result", {})
        if "outputSchema" in tool and "structuredContent" in out and not fits(tool["outputSchema"], out["structuredContent"]):
            seen["structured-content-mismatch"] = f"{tool['name']}: {json.dumps(out['structuredContent'])}"
        bad = tool_arguments(schema, False)
        if bad is not None:
            reply = client.request("tools/call", {"name": tool["name"], "arguments": bad})
            refused = reply.get("error", {}).get("code") == -32602 or reply.get("result", {}).get("isError") is True
            if not refused:
                seen["invalid-call-accepted"] = f"{tool['name']} {json.dumps(bad)} -> {json.dumps(reply.get('result'))}"

    if "prompts" in caps:
        prompts, _, _ = follow(client, "prompts/list", "prompts")
        for prompt in prompts:
            arguments = {}
            for argument in prompt.get("arguments", []):
                done = client.request("completion/complete", {
                    "ref": {"type": "ref/prompt", "name": prompt["name"]},
                    "argument": {"name": argument["name"], "value": ""}})
                values = done.get("result", {}).get("completion", {}).get("values")
                arguments[argument["name"]] = values[0] if isinstance(values, list) and values else "alice"
            client.request("prompts/get", {"name": prompt["name"], "arguments": arguments})

    resources, _, _ = follow(client, "resources/list", "resources")
    uris = [r.get("uri") for r in resources]
    repeated = sorted({u for u in uris if uris.count(u) > 1})
    if repeated:
        seen["pagination-repeats-item"] = f"resources/list repeats {repeated}"
    for uri in dict.fromkeys(uris):
        client.request("resources/read", {"uri": uri})
    if caps.get("resources", {}).get("subscribe") and uris:
        client.request("resources/subscribe", {"uri": uris[0]})
        client.request("resources/unsubscribe", {"uri": uris[0]})

    templates, pages, cursor = follow(client, "resources/templates/list", "resourceTemplates")
    if cursor:
        seen["cursor-never-ends"] = f"resources/templates/list: still a nextCursor ({cursor}) after {pages} pages"
    for template in templates[:1]:
        uri = template["uriTemplate"]
        name = uri.split("{", 1)[1].split("}", 1)[0]
        done = client.request("completion/complete", {
            "ref": {"type": "ref/resource", "uri": uri}, "argument": {"name": name, "value": ""}})
        values = done.get("result", {}).get("completion", {}).get("values")
        value = values[0] if isinstance(values, list) and values else "alice"
        client.request("resources/read", {"uri": uri.replace("{" + name + "}", value)})
    client.request("ping")  # last: whatever the server sent after the earlier ones is in
    return seen


def matches(method, what):
    """Whether the checker's `what` of a message fits a fault's method: "response to tools/list",
    "notification … (notifications/message)", "response" for a response to no request, and ""
    for a message it could not read as any JSON-RPC message (an error code that is no integer)."""
    if method == "(response)":
        return what == "response"
    return what == "" or what == f"response to {method}" or what.startswith(f"response to {method} (") \
        or what.endswith(f"({method})")


def checker_command(args):
    if args.mcp_typed:
        return [args.mcp_typed]
    if os.environ.get("MCP_TYPED"):
        return shlex.split(os.environ["MCP_TYPED"])
    return ["cargo", "run", "-q", "-p", "mcp-typed-cli", "--"]


def run(args, revision, faults):
    with tempfile.TemporaryDirectory() as tmp:
        report_path = os.path.join(tmp, "report.jsonl")
        command = checker_command(args) + ["check", "--json", "--report", report_path, "--",
                                           sys.executable, SERVER]
        capture = open(args.capture.replace("{revision}", revision), "w") if args.capture else None
        client = Client(command, capture)
        try:
            seen = drive(client, revision)
        finally:
            client.close()
            if capture:
                capture.close()
        with open(report_path) as f:
            reports = [json.loads(line) for line in f if line.strip()]

    findings = []  # (dir, what, kind, pointer, message)
    for report in reports:
        for problem in report.get("problems", []):
            findings.append((report.get("dir"), report.get("what", ""), problem["kind"], problem["pointer"], problem["message"]))

    ok = True
    expected = [f for f in faults if revision in f["revisions"]]
    print(f"== {revision}: {sum(1 for r in reports if 'verdict' in r)} messages checked")
    for fault in expected:
        checker = fault["checker"]
        if checker["sees"]:
            hits = [f for f in findings if f[0] == "s2c" and f[2] == checker["kind"] and f[3] == fault["pointer"]
                    and matches(fault["method"], f[1])]
            for hit in hits[:1]:
                findings.remove(hit)
            status = "ok " if len(hits) == 1 else f"MISSING ({len(hits)} matches)"
            ok &= len(hits) == 1
            detail = hits[0][4] if hits else ""
        else:
            status = "ok " if fault["id"] in seen else "NOT PLANTED?"
            ok &= fault["id"] in seen
            detail = "(command's own rule) " + seen.get(fault["id"], "")
        print(f"  {status} {fault['id']:<36} {fault['method']:<38} {fault['pointer']:<30} {detail}")
    for report in reports:
        for note in report.get("notes", []):
            ok = False  # the server's valid messages must be plain: no errata, nothing beyond the revision
            print(f"  UNEXPECTED NOTE ({report.get('dir')}): {report.get('what')}: {json.dumps(note)}")
    for finding in findings:
        ok = False
        who = "UNEXPECTED (server)" if finding[0] == "s2c" else "CLIENT FAULT"
        print(f"  {who}: {finding[1]}: {finding[2]} {finding[3]}: {finding[4]}")
    for fault in faults:
        if fault["id"] in seen and revision not in fault["revisions"]:
            ok = False
            print(f"  UNEXPECTED (command's rule) {fault['id']}: {seen[fault['id']]}")
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--revision", action="append", help="a revision to run (default: every one the file lists)")
    parser.add_argument("--mcp-typed", help="the mcp-typed binary (default: $MCP_TYPED, else cargo run)")
    parser.add_argument("--capture", help="write the traffic as JSON Lines {dir,msg} here ({revision} is replaced)")
    args = parser.parse_args()
    with open(FAULTS) as f:
        spec = json.load(f)
    revisions = args.revision or spec["revisions"]
    ok = all([run(args, revision, spec["faults"]) for revision in revisions])
    print("faults file and checker agree" if ok else "MISMATCH")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
