"""What the Python SDK drivers of tests/peers share: forcing a handshake revision on the
pinned SDK, and a stdio server run through tap.py (which captures every line both ways)."""
import os
import sys

import mcp.client.session as client_session
from mcp.client.stdio import StdioServerParameters

HERE = os.path.dirname(os.path.abspath(__file__))
HANDSHAKE = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
# A scrubbed environment: server-everything's get-env tool echoes it into the capture.
ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "TZ": "UTC"}


def client_mode(revision: str) -> str:
    """The `Client(mode=…)` for `revision`; a handshake revision is forced by patching the
    SDK's offered version (nothing on the wire is rewritten). 2026-07-28 uses the SDK's own
    `server/discover` probe."""
    if revision in HANDSHAKE:
        client_session.LATEST_HANDSHAKE_VERSION = revision
        return "legacy"
    return "auto"


def tapped(server_cmd: list[str], log: str, stderr: str | None = None) -> StdioServerParameters:
    """`server_cmd` over stdio through tap.py, which writes every line to `log`."""
    tap = [os.path.join(HERE, "tap.py"), "--log", log]
    if stderr:
        tap += ["--stderr", stderr]
    return StdioServerParameters(command=sys.executable, args=[*tap, "--", *server_cmd], env=ENV)
