#!/usr/bin/env python3
"""Rewrite the generated part of tests/fixtures/real-traffic/README.md from the
fixtures themselves (captures.json, sdk-invalid.json, *.jsonl). Everything between
the BEGIN/END GENERATED markers is replaced; the rest of the README is left alone.

    python report.py tests/fixtures/real-traffic
"""
import json
import os
import re
import sys
from collections import defaultdict

from mcp_types import methods

BEGIN = "<!-- BEGIN GENERATED (tests/peers/report.py) -->"
END = "<!-- END GENERATED -->"


class Num(str):
    """A JSON number kept as the exact text the peer wrote."""


def load(line: str):
    return json.loads(line, parse_float=Num, parse_int=lambda s: int(s))


def walk(v, path=""):
    yield path, v
    if isinstance(v, dict):
        for k, x in v.items():
            yield from walk(x, f"{path}.{k}" if path else k)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from walk(x, f"{path}[{i}]")


def fixtures(folder):
    for name in sorted(os.listdir(folder)):
        m = re.search(r"(\d{4}-\d{2}-\d{2})(-rejected)?\.jsonl$", name)
        if m:
            yield name, m.group(1), bool(m.group(2))


def strip_floats(v):
    if isinstance(v, Num):
        return float(v)
    if isinstance(v, dict):
        return {k: strip_floats(x) for k, x in v.items()}
    if isinstance(v, list):
        return [strip_floats(x) for x in v]
    return v


def dropped_members(before, after, path=""):
    """Key paths present in `before` but absent from the SDK's surface dump `after`."""
    out = []
    if isinstance(before, dict) and isinstance(after, dict):
        for k, v in before.items():
            p = f"{path}.{k}" if path else k
            if k not in after:
                out.append(p)
            else:
                out.extend(dropped_members(v, after[k], p))
    elif isinstance(before, list) and isinstance(after, list):
        for i, (b, a) in enumerate(zip(before, after)):
            out.extend(dropped_members(b, a, f"{path}[]"))
    return out


def main() -> int:
    folder = sys.argv[1]
    caps = json.load(open(os.path.join(folder, "captures.json")))
    invalid = json.load(open(os.path.join(folder, "sdk-invalid.json")))
    negotiated = {r["file"]: r["negotiated"] for r in caps}
    lines = []
    w = lines.append

    w("### Captures (pairing x requested revision)\n")
    w("| pairing | requested | negotiated | fixture | lines kept | raw lines | periodic notifications dropped | driver errors |")
    w("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in caps:
        errs = "; ".join(e.replace("|", "\\|").replace("\n", " ")[:90] for e in r["driver_errors"]) or "-"
        w(f"| {r['pairing']} | {r['requested']} | {r['negotiated']} | `{r['file']}` | {r['kept']} | {r['raw']} | {r['dropped_notifications']} | {errs} |")
    w("")

    w("### Lines the SDKs call invalid\n")
    w(f"`sdk_validate.py` (Python SDK `mcp_types` per-revision surfaces) rejects {len(invalid)} captured lines "
      "(full list: `sdk-invalid.json`). Grouped:\n")
    groups = defaultdict(list)
    for row in invalid:
        reason = re.sub(r"at \d{4}-\d{2}-\d{2}", "at <rev>", row["reason"])
        groups[reason].append(f"{row['file']}:{row['line']}")
    w("| reason | count | where (first 3) |")
    w("| --- | --- | --- |")
    for reason, where in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        w(f"| {reason.replace('|', '/')} | {len(where)} | {', '.join(where[:3])} |")
    w("")

    # ---- facts for a Rust decoder -------------------------------------------------
    elicit_floats = defaultdict(set)
    null_id_errors = []
    error_codes = defaultdict(set)
    content_types = defaultdict(set)
    url_elicit, multi_select, form_mode, enum_names, titled_enum = (defaultdict(set) for _ in range(5))
    meta_keys = defaultdict(set)
    int_valued_floats = defaultdict(set)
    member_orders = defaultdict(set)
    dropped = defaultdict(set)
    for name, rev, rejected in fixtures(folder):
        if rejected:
            continue  # only sessions that ran at the revision their file name says
        at = negotiated.get(name, rev)
        pending = {}
        for line in open(os.path.join(folder, name), encoding="utf-8"):
            e = load(line)
            d, msg = e["dir"], e["msg"]
            if list(msg)[:1] != ["jsonrpc"]:
                member_orders[f"{d} first member `{list(msg)[0]}`"].add(name)
            method = msg.get("method")
            if method and "id" in msg:
                pending[(d, json.dumps(msg["id"]))] = method
            answered = None
            if "result" in msg or "error" in msg:
                answered = pending.get(("s2c" if d == "c2s" else "c2s", json.dumps(msg.get("id"))))
            if "error" in msg:
                error_codes[msg["error"].get("code")].add(name)
                if msg.get("id") is None:
                    null_id_errors.append(f"{name}:{msg}")
            for path, v in walk(msg):
                if path.endswith("_meta") and isinstance(v, dict):
                    for k in v:
                        meta_keys[k].add(at)
                if isinstance(v, Num) and re.fullmatch(r"-?\d+\.0+", v):
                    int_valued_floats[f"{v}"].add(f"{name} ({path})")
                if isinstance(v, dict) and v.get("type") in (
                    "text", "image", "audio", "resource", "resource_link") and (".content" in path or path.startswith("result.content") or "messages" in path):
                    content_types[v["type"]].add(at)
            # elicitation requests (standalone or embedded in input_required results)
            for path, v in walk(msg):
                if isinstance(v, dict) and v.get("method") == "elicitation/create" and isinstance(v.get("params"), dict):
                    p = v["params"]
                    if p.get("mode") == "url":
                        url_elicit[at].add(name)
                    if p.get("mode") == "form":
                        form_mode[at].add(name)
                    for prop in (p.get("requestedSchema") or {}).get("properties", {}).values():
                        if prop.get("type") == "array":
                            multi_select[at].add(name)
                        if "enumNames" in prop:
                            enum_names[at].add(name)
                        if "oneOf" in prop:
                            titled_enum[at].add(name)
            # elicitation answers: standalone results and 2026 inputResponses
            answers = []
            if answered == "elicitation/create" and isinstance(msg.get("result"), dict):
                answers.append(msg["result"])
            if method == "tools/call" and isinstance((msg.get("params") or {}).get("inputResponses"), dict):
                answers.extend(msg["params"]["inputResponses"].values())
            for a in answers:
                for path, v in walk(a.get("content") or {}):
                    if isinstance(v, Num):
                        elicit_floats[name.removesuffix(".jsonl")].add(str(v))
            # members the SDK's surface drops from server results
            if d == "s2c" and answered and isinstance(msg.get("result"), dict):
                try:
                    plain = strip_floats(msg["result"])
                    dump = methods.serialize_server_result(answered, at, plain)
                    for p in dropped_members(plain, dump):
                        dropped[f"{answered}: {p}"].add(at)
                except Exception:
                    pass

    def revs(s):
        return ", ".join(sorted(s)) if s else "none"

    w("### Facts for a Rust decoder (computed from the fixtures)\n")
    w("Only the sessions that ran at the revision in their file name (not `*-rejected`) are counted.\n")
    w(f"- Decimal numbers in elicitation answers (accept content / 2026 `inputResponses`), by fixture: "
      + ("; ".join(f"{r}: {', '.join(sorted(v))}" for r, v in sorted(elicit_floats.items())) or "none") + ".")
    w(f"- Error responses with `\"id\": null`: {len(null_id_errors)}." + (" " + "; ".join(null_id_errors[:3]) if null_id_errors else ""))
    w("- Error codes seen: " + ", ".join(f"`{c}` ({len(v)} files)" for c, v in sorted(error_codes.items(), key=lambda kv: str(kv[0]))) + ".")
    w("- Content block types seen, with the revisions whose sessions carry them: "
      + "; ".join(f"`{t}`: {revs(v)}" for t, v in sorted(content_types.items())) + ".")
    w(f"- URL-mode elicitation requests at: {revs(url_elicit)}.")
    w(f"- Elicitation requests carrying `\"mode\":\"form\"` at: {revs(form_mode)}.")
    w(f"- Multi-select (`type: array`) enum fields in elicitation schemas at: {revs(multi_select)}; "
      f"titled `oneOf` enums at: {revs(titled_enum)}; legacy `enumNames` at: {revs(enum_names)}.")
    w("- Floats with an integral value written with a fraction (e.g. `2.0`): "
      + ("; ".join(f"`{k}` in {sorted(v)[0]}" + (f" (+{len(v) - 1} more)" if len(v) > 1 else "") for k, v in sorted(int_valued_floats.items())) or "none") + ".")
    w("- Messages whose first member is not `jsonrpc`: "
      + ("; ".join(f"{k}: {len(v)} files" for k, v in sorted(member_orders.items())) or "none") + ".")
    w("- `_meta` keys seen, with revisions: " + "; ".join(f"`{k}`: {revs(v)}" for k, v in sorted(meta_keys.items())) + ".")
    w("- Members of server results that the Python SDK's per-revision surface does not know (dropped by "
      "`mcp_types.methods.serialize_server_result`), with revisions:")
    if dropped:
        for k, v in sorted(dropped.items()):
            w(f"  - `{k}`: {revs(v)}")
    else:
        w("  - none")
    w("")

    readme = os.path.join(folder, "README.md")
    text = open(readme, encoding="utf-8").read() if os.path.exists(readme) else f"{BEGIN}\n{END}\n"
    if BEGIN not in text:
        text += f"\n{BEGIN}\n{END}\n"
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(readme, "w", encoding="utf-8") as f:
        f.write(head + BEGIN + "\n" + "\n".join(lines) + "\n" + END + tail)
    return 0


if __name__ == "__main__":
    sys.exit(main())
