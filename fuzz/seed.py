#!/usr/bin/env python3
"""Builds the seed corpora of the fuzz targets into fuzz/work-corpus/<target>/ (ignored by git).

Sources: the captured traffic (tests/fixtures/real-traffic, tests/fixtures/traffic), the
official examples and schema files (../shared/mcp-spec, or $MCP_SCHEMA_DIR). The seeds are
large and redundant; `cargo fuzz cmin` keeps the few that matter, and those are what
fuzz/corpus/<target>/ holds (see README.md).

Usage: python3 fuzz/seed.py
"""

import hashlib
import json
import os
import pathlib
import re
import sys

FUZZ = pathlib.Path(__file__).resolve().parent
ROOT = FUZZ.parent
OUT = FUZZ / "work-corpus"
# The pairs mcp_tests::fuzz::convert knows, in its order (the first byte of an input).
PAIRS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
REVISIONS = PAIRS + ["draft"]


def spec_dir():
    for d in [os.environ.get("MCP_SCHEMA_DIR"), ROOT / "schema", ROOT.parent / "shared" / "mcp-spec"]:
        if d and (pathlib.Path(d) / "2025-11-25" / "schema.json").is_file():
            return pathlib.Path(d)
    sys.exit("no official schema files: set MCP_SCHEMA_DIR or clone the project beside shared/")


def write(target, data):
    if isinstance(data, str):
        data = data.encode()
    d = OUT / target
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def definitions(revision):
    """The DEFINITIONS list of the generated module, in its order."""
    module = "v" + revision.replace("-", "_") if revision != "draft" else "draft"
    text = (ROOT / "generated" / "src" / f"{module}.rs").read_text()
    body = re.search(r"pub const DEFINITIONS: &\[&str\] = &\[(.*?)\];", text, re.S).group(1)
    return re.findall(r'"([^"]+)"', body)


def convert_seed(revision, definition, value):
    """Inputs of the convert target that decode `value` as `definition` of `revision`, in each
    pair it belongs to (upwards as the older revision, downwards as the newer)."""
    if revision not in PAIRS:
        return
    i = PAIRS.index(revision)
    names = ["ClientMessage", "ServerMessage"] + definitions(revision)
    if definition not in names:
        return
    index = names.index(definition).to_bytes(2, "little")
    if i < len(PAIRS) - 1:
        write("convert", bytes([i]) + index + compact(value).encode())
    if i > 0:
        write("convert", bytes([0x80 | (i - 1)]) + index + compact(value).encode())


def raw_msg(line):
    """The text of the message spliced into a captured line `{"dir":…,"msg":<message>}`
    (byte for byte), or None when the line is not of that form."""
    m = re.match(r'^\{"dir":"(?:c2s|s2c)","msg":(.*)\}\s*$', line, re.S)
    return m.group(1) if m else None


def closure(defs, name):
    """`name` and every definition it references, transitively."""
    seen, todo = set(), [name]
    while todo:
        n = todo.pop()
        if n in seen or n not in defs:
            continue
        seen.add(n)
        todo += re.findall(r'"#/(?:\$defs|definitions)/([^"]+)"', json.dumps(defs[n]))
    return seen


def main():
    spec = spec_dir()
    # Traffic: every message, as a message and as a conversion input.
    for path in sorted((ROOT / "tests" / "fixtures").glob("*traffic/*.jsonl")):
        revision = next((r for r in REVISIONS if r in path.name), None)
        # The checker: a session's first messages as lines (client and server in turn, as the
        # check target reads them), and each message alone.
        session = []
        for line in path.read_text().splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            msg = entry.get("msg", entry) if isinstance(entry, dict) else entry
            session.append(compact(msg))
            write("check", compact(msg))
        write("check", "\n".join(session[:12]))
        for line in path.read_text().splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                write("messages", line)
                write("differential", line)
                continue
            msg = entry.get("msg", entry) if isinstance(entry, dict) else entry
            write("messages", compact(msg))
            # The differential target (fuzz/oracle) compares two decoders, for which the exact
            # text matters (member order, number spelling, escapes): the line's own text.
            raw = raw_msg(line)
            write("differential", raw if raw is not None else line)
            if revision and isinstance(entry, dict):
                kind = "ClientMessage" if entry.get("dir") == "c2s" else "ServerMessage"
                convert_seed(revision, kind, msg)
            result = msg.get("result") if isinstance(msg, dict) else None
            if isinstance(result, dict) and "action" in result:
                write("elicit_content", compact(result))
                if isinstance(result.get("content"), dict):
                    write("elicit_content", compact(result["content"]))
    # Official examples: `<revision>/examples/<Definition>/*.json`.
    for revision in REVISIONS:
        examples = spec / revision / "examples"
        if not examples.is_dir():
            continue
        for f in sorted(examples.glob("*/*.json")):
            value = json.loads(f.read_text())
            write("messages", compact(value))
            write("differential", f.read_text())
            convert_seed(revision, f.parent.name, value)
            if f.parent.name == "ElicitResult":
                write("elicit_content", compact(value))
    # Elicitation content shaped like the forms of mcp_tests::fuzz.
    for content in [
        {"name": "Ada", "day": "2024-02-29", "extras": ["meal"]},
        {"name": "Ada Lovelace", "day": "2024-02-29", "at": "2024-02-29T12:00:00Z",
         "email": "a@b.co", "site": "https://a.example/x", "guests": 12, "flexible": False,
         "seat": "Standing!", "extras": ["wifi", "meal"]},
        {"a_i8": -128, "a_i64": -9223372036854775808, "a_u16": 65535, "a_u64": 18446744073709551615,
         "a_usize": 0, "a_f32": 2.5, "a_f64": 1e300, "small": 10, "ratio": 0.25},
        {"text": "abc", "seat": "aisle-seat", "flag": True},
        {},
    ]:
        write("elicit_content", compact(content))
        write("elicit_content", compact({"action": "accept", "content": content}))
    write("elicit_content", compact({"action": "decline"}))
    write("elicit_content", compact({"action": "cancel", "_meta": {}}))
    # Schemas: each definition with what it references, as a document of its own; and the
    # whole documents.
    for revision in REVISIONS:
        doc = json.loads((spec / revision / "schema.json").read_text())
        key = "$defs" if "$defs" in doc else "definitions"
        defs = doc[key]
        for name in defs:
            part = {k: v for k, v in doc.items() if k != key}
            part[key] = {n: defs[n] for n in defs if n in closure(defs, name)}
            write("codegen_load", compact(part))
        write("codegen_load", compact(doc))
    for target in sorted(p.name for p in OUT.iterdir()):
        print(f"{target}: {len(list((OUT / target).iterdir()))} seeds")


main()
