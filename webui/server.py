"""Running the app under waitress, in the foreground (``octotable serve``) or in a background thread.

Every open live stream holds a waitress thread, so the server gets
``SERVER_THREADS`` of them.  ``send_bytes=1`` makes waitress hand each write of a
stream to the socket at once; with its default (18000 bytes) a small SSE
message waits in the buffer until the next poll of its main loop, up to a
second later.  (Waitress marks ``send_bytes`` deprecated; the benchmark
``benchmarks.sse_latency`` shows what it changes, so it is kept, with the
warning silenced, until waitress offers another way.)
"""

from __future__ import annotations

import threading
import warnings
from dataclasses import dataclass
from typing import Any

import waitress
from flask import Flask
from waitress.server import create_server

from webui.config import SERVER_THREADS

WAITRESS_OPTIONS: dict[str, Any] = {"send_bytes": 1, "ident": "octotable", "channel_timeout": 120}


def serve(app: Flask, host: str, port: int, threads: int = SERVER_THREADS) -> None:
    """Serve ``app`` until interrupted."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="send_bytes", category=DeprecationWarning)
        waitress.serve(app, host=host, port=port, threads=threads, **WAITRESS_OPTIONS)


@dataclass
class BackgroundServer:
    """A waitress server running in a daemon thread; ``url`` ends without a slash."""

    url: str
    app: Flask
    server: Any
    thread: threading.Thread

    def stop(self) -> None:
        """End the live streams, stop the worker threads, then close every socket inside the
        server's own loop so its thread ends cleanly."""
        from webui.context import EXTENSION

        table = self.app.extensions.get(EXTENSION)
        if table is not None:
            table.service.close()
        self.server.task_dispatcher.shutdown(timeout=5)

        def close_all() -> None:
            for channel in list(self.server._map.values()):
                channel.close()

        self.server.trigger.pull_trigger(close_all)
        self.thread.join(timeout=5)


def start_background(
    app: Flask, host: str = "127.0.0.1", port: int = 0, threads: int = SERVER_THREADS
) -> BackgroundServer:
    """Start serving ``app`` in a daemon thread (``port`` 0 picks a free port)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="send_bytes", category=DeprecationWarning)
        server: Any = create_server(app, host=host, port=port, threads=threads, **WAITRESS_OPTIONS)
    thread = threading.Thread(target=server.run, name="waitress", daemon=True)
    thread.start()
    return BackgroundServer(
        url=f"http://{host}:{server.effective_port}", app=app, server=server, thread=thread
    )
