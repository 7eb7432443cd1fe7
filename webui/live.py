"""``GET /events``: the live stream of snapshots (Server-Sent Events).

The first snapshot is sent at once; every change sends the full snapshot with
its version as the event ``id``; a comment line every ``heartbeat`` seconds
keeps idle connections (and proxies) open and lets the server notice a phone
that went away.  Each stream holds one server thread for its whole life, so the
number of streams is capped and the page falls back to polling ``/api/state``.
"""

from __future__ import annotations

from collections.abc import Iterator

from flask import Blueprint, Response

from webui.auth import error
from webui.context import Table, table

live = Blueprint("live", __name__)

RETRY_MS = 2000
"""How long a browser waits before reconnecting a dropped stream."""


def sse_message(version: int, data: str) -> str:
    """One SSE message: ``id`` and a single ``data`` line (the JSON has no newlines)."""
    return f"id: {version}\ndata: {data}\n\n"


def stream(t: Table) -> Iterator[str]:
    """The messages of one live stream, until the client goes away."""
    version, text = t.service.snapshot_json()
    yield f"retry: {RETRY_MS}\n" + sse_message(version, text)
    while True:
        changed = t.service.wait(version, t.config.heartbeat)
        if t.service.closed:
            return
        if changed is None:
            yield ": heartbeat\n\n"
        else:
            version, text = changed
            yield sse_message(version, text)


@live.get("/events")
def events() -> Response:
    """The live stream (``text/event-stream``), or 503 when every stream slot is taken."""
    t = table()
    if not t.open_stream():
        response = error(503, "too many live connections; the page polls instead")
        response.headers["Retry-After"] = "10"
        return response
    response = Response(stream(t), mimetype="text/event-stream")
    response.call_on_close(t.close_stream)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
