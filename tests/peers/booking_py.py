#!/usr/bin/env python3
"""Drive tests/examples/booking-server.rs with the real Python SDK client (`mcp`, pinned in
versions.env) at one protocol revision, and check every answer.

    python booking_py.py --revision REV [--log RAW.jsonl] -- SERVER_CMD...   (stdio, through tap.py)
    python booking_py.py --revision REV --url http://127.0.0.1:PORT/mcp     (Streamable HTTP)

2025-06-18 and 2025-11-25 use the initialize handshake (the SDK's offered version is set, as
py_client.py does); 2026-07-28 uses the SDK's own `server/discover` probe, and its
InputRequiredResult / retry loop for the forms. Forms are answered by the SDK's real
`elicitation_callback`, following a script: accept with another date, accept without, decline,
cancel, then the survey with decimals.

Prints a JSON report ({"negotiated", "checks", "failures"}); exits 1 when a check failed.
"""
import argparse
import json
import os
import sys
from typing import Any

import anyio

import mcp.types as types
from mcp import Client
from sdk import client_mode, tapped

HERE = os.path.dirname(os.path.abspath(__file__))


class Report:
    def __init__(self) -> None:
        self.checks = 0
        self.failures: list[str] = []

    def equal(self, label: str, got: Any, want: Any) -> None:
        self.checks += 1
        if got != want:
            self.failures.append(f"{label}: got {got!r}, want {want!r}")

    def true(self, label: str, ok: bool, detail: Any = None) -> None:
        self.checks += 1
        if not ok:
            self.failures.append(f"{label}: {detail!r}")


class User:
    """The person answering forms: each elicitation gets the next scripted answer."""

    def __init__(self) -> None:
        self.script: list[Any] = []
        self.forms: list[Any] = []

    async def elicitation(self, ctx, params):
        self.forms.append(params)
        if not self.script:
            return types.ElicitResult(action="cancel")
        answer = self.script.pop(0)
        return answer(params) if callable(answer) else answer


def text_of(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


async def drive(args, report: Report) -> dict[str, Any]:
    if args.url:
        server: Any = args.url
    else:
        server = tapped(args.server, args.log)
    mode = client_mode(args.revision)

    user = User()
    outcome: dict[str, Any] = {"requested": args.revision}
    async with Client(
        server,
        mode=mode,
        cache=None,
        read_timeout_seconds=30,
        elicitation_callback=user.elicitation,
        client_info=types.Implementation(name="booking-py", version="1.0.0"),
    ) as client:
        outcome["negotiated"] = client.protocol_version
        report.equal("negotiated revision", client.protocol_version, args.revision)
        info = client.server_info
        report.equal("server name", info.name if info else None, "booking-server")
        caps = client.server_capabilities
        report.true("capabilities", bool(caps.tools and caps.resources and caps.prompts), caps)

        tools = (await client.list_tools()).tools
        report.equal("tools", [t.name for t in tools], ["book_table", "survey"])
        report.equal("book_table requires", tools[0].input_schema.get("required"), ["date"])

        resources = (await client.list_resources()).resources
        report.equal("resources", [str(r.uri) for r in resources], ["booking://menu"])
        menu = (await client.read_resource("booking://menu")).contents
        report.true("menu text", "Risotto 14.00" in getattr(menu[0], "text", ""), menu)

        prompts = (await client.list_prompts()).prompts
        report.equal("prompts", [p.name for p in prompts], ["plan_dinner"])
        report.equal("prompt arguments", [(a.name, a.required) for a in prompts[0].arguments or []], [("guests", True)])
        got = await client.get_prompt("plan_dinner", {"guests": "4"})
        report.equal("prompt text", got.messages[0].content.text, "Book a table for 4 and choose from booking://menu.")

        r = await client.call_tool("book_table", {"date": "2026-12-25"})
        report.equal("free day", (text_of(r), bool(r.is_error)), ("Booked a table for 2026-12-25.", False))

        # The full day: a form, answered four ways.
        accept = lambda content: types.ElicitResult(action="accept", content=content)  # noqa: E731
        for label, answer, want in [
            ("accept", accept({"checkAlternative": True, "alternativeDate": "2026-12-27"}), "Booked a table for 2026-12-27."),
            ("accept, no", accept({"checkAlternative": False, "alternativeDate": "2026-12-27"}), "Nothing was booked."),
            ("decline", types.ElicitResult(action="decline"), "Nothing was booked."),
            ("cancel", types.ElicitResult(action="cancel"), "Nothing was booked."),
        ]:
            user.script.append(answer)
            before = len(user.forms)
            r = await client.call_tool("book_table", {"date": "2026-12-24"})
            report.equal(f"full day, {label}", (text_of(r), bool(r.is_error)), (want, False))
            report.equal(f"full day, {label}: forms asked", len(user.forms) - before, 1)
        form = user.forms[-1]
        report.equal("form message", form.message, "2026-12-24 is full.")
        props = form.requested_schema["properties"]
        report.equal("form fields", list(props), ["checkAlternative", "alternativeDate"])
        report.equal("date format", props["alternativeDate"].get("format"), "date")

        def survey_answer(params):
            p = params.requested_schema["properties"]
            return accept({"name": "Ada", "age": 36, "heightM": 1.75, "subscribe": True,
                           "color": p["color"]["enum"][1], "toppings": [p["toppings"]["items"]["enum"][0]]})

        user.script.append(survey_answer)
        r = await client.call_tool("survey", {})
        if args.revision == "2025-06-18":
            # No multi-select in 2025-06-18: the tool says which field cannot be asked.
            report.true("survey in 2025-06-18", bool(r.is_error) and "`toppings`" in text_of(r), text_of(r))
            user.script.clear()
        else:
            want = "Ada, 36 years, 1.75 m, subscribe: true, Green, [Cheese]"
            report.equal("survey", (text_of(r), bool(r.is_error)), (want, False))
    outcome["checks"] = report.checks
    outcome["failures"] = report.failures
    return outcome


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--revision", required=True)
    ap.add_argument("--log", help="capture file (stdio only)")
    ap.add_argument("--url", help="the server's Streamable HTTP endpoint, instead of a command")
    ap.add_argument("server", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    if args.server and args.server[0] == "--":
        args.server = args.server[1:]
    if bool(args.url) == bool(args.server):
        ap.error("give either --url URL or -- SERVER_CMD...")
    if args.server and not args.log:
        ap.error("--log is required with a server command")
    report = Report()
    try:
        outcome = anyio.run(drive, args, report)
    except Exception as e:  # a failed step ends the run; say which and why
        outcome = {"requested": args.revision, "checks": report.checks,
                   "failures": report.failures + [f"{type(e).__name__}: {e}"]}
    print(json.dumps(outcome, indent=2))
    return 1 if outcome["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
