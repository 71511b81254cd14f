#!/usr/bin/env python3
"""A real `mcp` (Python SDK, pinned in versions.env) MCPServer, served over stdio.

It exists to be captured: every feature a Rust decoder must read shows up at
least once - form elicitation with string/number/integer/boolean/enum fields,
sampling and roots requests (standalone server->client requests up to
2025-11-25, an `input_required` result on 2026-07-28), image/audio/resource_link/
embedded-resource content, structuredContent with an outputSchema, decimals,
progress and log notifications, a prompt, static text and binary resources, a
resource template with completions, and tool errors.

    python py_server.py            # stdio
"""
import base64
from typing import Annotated, Literal

from pydantic import BaseModel, Field

import mcp.types as types
from mcp.server.mcpserver import (
    Audio,
    Context,
    Elicit,
    ElicitationResult,
    Image,
    ListRoots,
    MCPServer,
    Resolve,
    Sample,
)

mcp = MCPServer(
    "py-peer-server",
    instructions="Capture peer for the mcp-typed real-traffic fixtures.",
)

# 1x1 transparent PNG and a 44-byte silent WAV header: tiny, deterministic binary payloads.
PNG_1X1 = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
WAV_EMPTY = (
    b"RIFF$\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00"
    b"\x40\x1f\x00\x00\x80\x3e\x00\x00\x02\x00\x10\x00data\x00\x00\x00\x00"
)


class Profile(BaseModel):
    """Form elicited by `register_user`: one field of every primitive kind."""

    name: str = Field(description="Your name")
    height_m: float = Field(default=1.75, description="Height in metres (a decimal)")
    age: int = Field(default=30, description="Age in whole years")
    subscribe: bool = Field(default=False, description="Subscribe to the newsletter")
    color: Literal["red", "green", "blue"] = Field(default="green", description="Favourite colour")


def ask_profile() -> Elicit[Profile]:
    return Elicit("Please tell us about yourself", Profile)


def ask_sample() -> Sample:
    return Sample(
        [types.SamplingMessage(role="user", content=types.TextContent(type="text", text="Say hi in 3 words"))],
        max_tokens=50,
        temperature=0.7,
    )


def ask_roots() -> ListRoots:
    return ListRoots()


@mcp.tool()
async def register_user(profile: Annotated[ElicitationResult[Profile], Resolve(ask_profile)]) -> str:
    """Elicit a profile form (string/number/integer/boolean/enum) and report the outcome."""
    if profile.action == "accept":
        return f"registered: {profile.data.model_dump_json()}"
    return f"elicitation ended with {profile.action}"


@mcp.tool()
async def ask_llm(reply: Annotated[types.CreateMessageResult, Resolve(ask_sample)]) -> str:
    """Ask the client's LLM via sampling."""
    return f"model {reply.model} said: {reply.content.text if reply.content.type == 'text' else reply.content.type}"


@mcp.tool()
async def list_client_roots(roots: Annotated[types.ListRootsResult, Resolve(ask_roots)]) -> str:
    """Fetch the client's roots."""
    return ", ".join(str(r.uri) for r in roots.roots) or "(no roots)"


@mcp.tool()
def add(a: float, b: float) -> float:
    """Add two numbers (decimals welcome)."""
    return a + b


class Weather(BaseModel):
    temperature: float
    humidity: float
    conditions: str
    station: int


@mcp.tool()
def weather(city: str) -> Weather:
    """Structured output with an outputSchema."""
    return Weather(temperature=22.5, humidity=0.65, conditions=f"sunny in {city}", station=7)


@mcp.tool()
def media() -> list[types.ContentBlock | Image | Audio]:
    """Every content block kind: text, image, audio, resource_link, embedded text and blob resources."""
    return [
        types.TextContent(type="text", text="media follows", annotations=types.Annotations(audience=["user"], priority=0.5)),
        Image(data=PNG_1X1, format="png"),
        Audio(data=WAV_EMPTY, format="wav"),
        types.ResourceLink(type="resource_link", uri="file:///peer/readme.txt", name="readme", mime_type="text/plain", size=42),
        types.EmbeddedResource(
            type="resource",
            resource=types.TextResourceContents(uri="file:///peer/inline.txt", mime_type="text/plain", text="inline text"),
        ),
        types.EmbeddedResource(
            type="resource",
            resource=types.BlobResourceContents(
                uri="file:///peer/inline.bin", mime_type="application/octet-stream", blob=base64.b64encode(b"\x00\x01\xfe\xff").decode()
            ),
        ),
    ]


@mcp.tool()
async def slow_count(steps: int = 3, ctx: Context | None = None) -> str:
    """Reports progress (with a decimal) and logs at each step."""
    assert ctx is not None
    for i in range(steps):
        await ctx.report_progress(i + 0.5, total=float(steps), message=f"step {i + 1}")
        await ctx.info(f"step {i + 1} of {steps}")
    return f"counted {steps}"


@mcp.tool()
def fail(reason: str = "boom") -> str:
    """Always raises: the SDK turns this into an isError result."""
    raise ValueError(reason)


@mcp.prompt()
def review_code(code: str, language: str = "python") -> str:
    """A prompt with a required and an optional argument."""
    return f"Please review this {language} code:\n{code}"


@mcp.resource("file:///peer/readme.txt", mime_type="text/plain")
def readme() -> str:
    """A static text resource."""
    return "This server exists to be captured."


@mcp.resource("file:///peer/logo.png", mime_type="image/png")
def logo() -> bytes:
    """A static binary resource (blob)."""
    return PNG_1X1


@mcp.resource("greeting://{name}", mime_type="text/plain")
def greeting(name: str) -> str:
    """A resource template."""
    return f"Hello, {name}!"


@mcp.completion()
async def complete(ref, argument, context):
    if argument.name == "language":
        return types.Completion(values=[v for v in ("python", "rust", "typescript") if v.startswith(argument.value)], total=3, has_more=False)
    if argument.name == "name":
        return types.Completion(values=[v for v in ("alice", "bob") if v.startswith(argument.value)])
    return None


if __name__ == "__main__":
    mcp.run("stdio")
