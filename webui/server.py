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

import logging
import threading
import time
import warnings
from dataclasses import dataclass
from typing import Any

import waitress
from flask import Flask
from waitress import wasyncore
from waitress.server import create_server

from webui.config import SERVER_THREADS

log = logging.getLogger(__name__)

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

    def stop(self, timeout: float = 30.0) -> None:
        """End the live streams, wait for the worker threads, then close every socket inside the
        server's own loop so its thread ends cleanly.

        A worker still busy after ``timeout`` seconds would later wake the loop through its
        trigger pipe; closing that pipe under it fails (or, once the descriptor is reused, writes
        into another file), so then only the listening socket and the connections are closed and the
        loop thread, a daemon, is left to the end of the process.
        """
        from webui.context import EXTENSION

        table = self.app.extensions.get(EXTENSION)
        if table is not None:
            table.service.close()
        dispatcher = self.server.task_dispatcher
        dispatcher.shutdown(timeout=timeout)
        with dispatcher.lock:
            busy = len(dispatcher.threads)
        trigger = self.server.trigger
        if busy:
            log.warning(
                "%d server thread(s) still busy after %.0f s; the server loop is left running", busy, timeout
            )

        def close(channels: list[Any], keep_trigger: bool) -> None:
            for channel in channels:
                if not keep_trigger:
                    channel.close()
                elif channel is self.server:  # its own close() would close the trigger too
                    wasyncore.dispatcher.close(channel)
                elif channel is not trigger:
                    channel.close()

        try:
            trigger.pull_trigger(lambda: close(list(self.server._map.values()), keep_trigger=busy > 0))
        except OSError as error:
            # The wake-up pipe's descriptor is not open any more, so the loop cannot be woken:
            # the listener and the connections are closed from here, and the pipe is left alone
            # (closing its descriptor again could close a file opened since under that number).
            log.warning("server loop could not be woken (%s); its sockets are closed from here", error)
            with trigger.lock:
                trigger.thunks.clear()
            channels = [channel for channel in list(self.server._map.values()) if channel is not trigger]
            for channel in channels:  # out of the loop's map: its next select leaves them out ...
                channel.del_channel()
            time.sleep(self.server.adj.asyncore_loop_timeout)  # ... and the select under way ends,
            close(channels, keep_trigger=True)  # so that no select meets a closed descriptor (EBADF)
            return
        if not busy:
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
