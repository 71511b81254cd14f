#!/usr/bin/env python3
"""The Python SDK's (`mcp`, pinned in versions.env) verdict on elicitation answers, for
tests/tests/peers/elicit_sdk_agreement.rs.

    python elicit_agree.py < cases.json > verdicts.json

Input: {"forms": [{"name", "version", "params": {"message", "requestedSchema"}}],
        "cases": [{"name", "form": <index>, "content": {...}}]}
Output: {"sdk", "declarations": [{"form", "problems": [...]}],
         "verdicts": [{"accept", "stage", "error"}]}  (one verdict per case, in order)

The SDK validates an accepted form answer in exactly one place, on the server side:
`mcp.server.elicitation.elicit_with_validation` (what `Context.elicit(message, schema)`
runs; the 2026-07-28 `Resolve` path in `mcpserver/resolve.py` does the same
`schema.model_validate(content)`). It takes a pydantic model, renders it as the requested
schema with `render_elicitation_schema`, sends it with `session.elicit_form`, and checks the
answer's content with `schema.model_validate(result.content)`. The client side checks
nothing against the schema.

So, per form, this script declares the pydantic model a server author would write for it
(`create_model`, one field per property, aliased to the property name):
  string                 -> str, Field(min_length=, max_length=)
  string, format email   -> str with json_schema_extra={"format": "email"}: pydantic's
                            `EmailStr` needs the `email-validator` package, which `mcp` does
                            not depend on (declaring it raises ImportError in the pinned venv)
  string, format uri     -> pydantic.AnyUrl (UrlConstraints(max_length=) for maxLength)
  string, format date    -> datetime.date
  string, format date-time -> datetime.datetime
  integer / number       -> int / float, Field(ge=minimum, le=maximum)
  boolean                -> bool
  single-select (enum, oneOf, enum + enumNames) -> Literal[values...]
  multi-select           -> list[Literal[values...]], Field(min_length=minItems, max_length=maxItems)
  required -> no default; optional with `default` -> that default; optional without one ->
  `T | None = None` (the SDK's own schema generator flattens `T | None` to `T` for this)
and runs `elicit_with_validation` itself, with a stand-in for the server session whose
`elicit_form` does what `ServerSession.send_request` does with the client's result:
`mcp_types.methods.validate_client_result` at the form's revision (skipped on KeyError, as
the SDK does), then `ElicitResult.model_validate(result, by_name=False)`. The schema the SDK
rendered from the model is compared with the form (types, options, bounds, formats,
required): the "declarations" list any difference, so a model that is not the form shows.
"""
import asyncio
import datetime
import importlib.metadata
import json
import sys
from typing import Annotated, Any, Literal, Optional

import mcp_types
from mcp_types import methods
from pydantic import AnyUrl, BaseModel, Field, UrlConstraints, ValidationError, create_model

from mcp.server.elicitation import AcceptedElicitation, elicit_with_validation


class Undeclarable(Exception):
    """A property with no natural pydantic declaration."""


def options(p: dict[str, Any]) -> list[str] | None:
    if "enum" in p:
        return list(p["enum"])
    for key in ("oneOf", "anyOf"):
        if key in p:
            return [o["const"] for o in p[key]]
    if "const" in p:
        return [p["const"]]
    return None


def annotation(p: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The type and `Field` keywords a server author declares for property schema `p`."""
    ty = p.get("type")
    kw: dict[str, Any] = {}
    if ty == "string":
        values = options(p)
        if values is not None:
            return Literal[tuple(values)], kw  # type: ignore[valid-type]
        fmt = p.get("format")
        if fmt == "email":
            kw["json_schema_extra"] = {"format": "email"}
            base: Any = str
        elif fmt == "uri":
            if "minLength" in p:
                raise Undeclarable("AnyUrl takes no minLength")
            if "maxLength" in p:
                return Annotated[AnyUrl, UrlConstraints(max_length=p["maxLength"])], kw
            return AnyUrl, kw
        elif fmt in ("date", "date-time"):
            if "minLength" in p or "maxLength" in p:
                raise Undeclarable(f"{fmt} takes no length bounds")
            return (datetime.date if fmt == "date" else datetime.datetime), kw
        elif fmt is None:
            base = str
        else:
            raise Undeclarable(f"format {fmt}")
        if "minLength" in p:
            kw["min_length"] = p["minLength"]
        if "maxLength" in p:
            kw["max_length"] = p["maxLength"]
        return base, kw
    if ty in ("integer", "number"):
        if "minimum" in p:
            kw["ge"] = p["minimum"]
        if "maximum" in p:
            kw["le"] = p["maximum"]
        return (int if ty == "integer" else float), kw
    if ty == "boolean":
        return bool, kw
    if ty == "array":
        values = options(p.get("items", {}))
        if values is None:
            raise Undeclarable("array without options")
        if "minItems" in p:
            kw["min_length"] = p["minItems"]
        if "maxItems" in p:
            kw["max_length"] = p["maxItems"]
        return list[Literal[tuple(values)]], kw  # type: ignore[valid-type]
    raise Undeclarable(f"type {ty!r}")


def declare(name: str, schema: dict[str, Any]) -> type[BaseModel]:
    required = set(schema.get("required", []))
    fields: dict[str, Any] = {}
    for i, (prop, p) in enumerate(schema.get("properties", {}).items()):
        ann, kw = annotation(p)
        if prop in required:
            default: Any = ...
        elif "default" in p:
            default = p["default"]
        else:
            ann, default = Optional[ann], None
        fields[f"f{i}"] = (ann, Field(default, alias=prop, **kw))
    return create_model(name, **fields)


BOUNDS = ("minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "format")


def compare(form: dict[str, Any], rendered: dict[str, Any]) -> list[str]:
    """How the schema the SDK rendered from the declared model differs from the form."""
    problems = []
    if set(form.get("required", [])) != set(rendered.get("required", [])):
        problems.append(f"required: form {form.get('required')}, rendered {rendered.get('required')}")
    got = rendered.get("properties", {})
    for prop, p in form.get("properties", {}).items():
        r = got.get(prop)
        if r is None:
            problems.append(f"{prop}: not rendered")
            continue
        if p.get("type") != r.get("type"):
            problems.append(f"{prop}: type {p.get('type')} rendered as {r.get('type')}")
        if p.get("type") == "array":
            p_opts, r_opts = options(p.get("items", {})), options(r.get("items", {}))
        else:
            p_opts, r_opts = options(p), options(r)
        if p_opts != r_opts:
            problems.append(f"{prop}: options {p_opts} rendered as {r_opts}")
        for key in BOUNDS:
            if key in p and r.get(key) != p[key]:
                problems.append(f"{prop}: {key} {p[key]!r} rendered as {r.get(key)!r}")
    return problems


class Session:
    """Stands for `ServerSession`: `elicit_form` does with the client's answer what
    `ServerSession.send_request` does with any result."""

    def __init__(self, version: str) -> None:
        self.version = version
        self.content: Any = None
        self.rendered: dict[str, Any] | None = None

    async def elicit_form(self, message: str, requested_schema: Any, related_request_id: Any = None) -> Any:
        self.rendered = requested_schema
        result = {"action": "accept", "content": self.content}
        try:
            methods.validate_client_result("elicitation/create", self.version, result)
        except KeyError:
            pass
        return mcp_types.ElicitResult.model_validate(result, by_name=False)


def first_error(e: BaseException) -> str:
    cause = e.__cause__ if isinstance(e.__cause__, ValidationError) else e
    if isinstance(cause, ValidationError):
        err = cause.errors()[0]
        loc = ".".join(str(x) for x in err.get("loc", ()))
        return f"{loc}: {err.get('msg')}"
    return f"{type(e).__name__}: {e}"


async def run(data: dict[str, Any]) -> dict[str, Any]:
    models: list[type[BaseModel] | None] = []
    declarations = []
    for i, form in enumerate(data["forms"]):
        schema = form["params"]["requestedSchema"]
        try:
            model = declare(f"Form{i}", schema)
        except Undeclarable as e:
            models.append(None)
            declarations.append({"form": form["name"], "problems": [f"not declarable: {e}"]})
            continue
        models.append(model)
        session = Session(form["version"])
        session.content = {}
        try:
            await elicit_with_validation(session, form["params"]["message"], model)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            pass  # only the rendered schema matters here
        if session.rendered is None:
            declarations.append({"form": form["name"], "problems": ["the SDK refused to render the model"]})
        else:
            problems = compare(schema, session.rendered)
            if problems:
                declarations.append({"form": form["name"], "problems": problems})
    verdicts = []
    for case in data["cases"]:
        form = data["forms"][case["form"]]
        model = models[case["form"]]
        if model is None:
            verdicts.append({"accept": False, "stage": "undeclarable", "error": ""})
            continue
        session = Session(form["version"])
        session.content = case["content"]
        try:
            outcome = await elicit_with_validation(session, form["params"]["message"], model)  # type: ignore[arg-type]
            assert isinstance(outcome, AcceptedElicitation)
            verdicts.append({"accept": True, "stage": "", "error": ""})
        except ValidationError as e:  # the session's parse of the result (before the model)
            verdicts.append({"accept": False, "stage": "result type", "error": first_error(e)})
        except ValueError as e:  # elicit_with_validation: the model refused the content
            verdicts.append({"accept": False, "stage": "model", "error": first_error(e)})
    return {
        "sdk": f"mcp {importlib.metadata.version('mcp')}, pydantic {importlib.metadata.version('pydantic')}",
        "declarations": declarations,
        "verdicts": verdicts,
    }


def main() -> int:
    data = json.load(sys.stdin)
    json.dump(asyncio.run(run(data)), sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
