"""Latency from an applied event to the phones' live streams, with 8 phones connected.

A real waitress server on loopback serves the app (as ``octotable serve``
does); 8 clients hold ``GET /events`` open; the events of a simulated 4-player
Octoplus game are applied one at a time through the game service, and for each
the time from ``apply`` to the snapshot's arrival at every client is recorded
(8 samples per event).  The same run repeats with waitress's default
``send_bytes`` (18000) to show why the server flushes every write.

Run: ``.venv/bin/python -m benchmarks.sse_latency [--events N]``
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from scorer.events import Undone
from scorer.game import rules_for
from scorer.simulate import simulate
from webui import server as server_module
from webui.app import create_app
from webui.config import ServeConfig
from webui.context import EXTENSION, Table

CLIENTS = 8
LONG_GAME = {"max_rounds": "1000", "end_total": "1000000"}
"""House rules that keep the simulated game going for as many events as asked."""


class StreamClient(threading.Thread):
    """Reads one ``/events`` stream and notes when each ``id:`` arrives."""

    def __init__(self, host: str, port: int) -> None:
        super().__init__(daemon=True)
        self.sock = socket.create_connection((host, port))
        self.sock.sendall(b"GET /events HTTP/1.0\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n")
        self.arrivals: dict[int, float] = {}
        self.ready = threading.Event()
        self.lock = threading.Lock()

    def run(self) -> None:
        buffer = b""
        with contextlib.suppress(OSError):
            while True:
                data = self.sock.recv(65536)
                if not data:
                    return
                now = time.perf_counter()
                buffer += data
                while b"\n\n" in buffer:
                    message, buffer = buffer.split(b"\n\n", 1)
                    for line in message.split(b"\n"):
                        if line.startswith(b"id: "):
                            with self.lock:
                                self.arrivals[int(line[4:])] = now
                            self.ready.set()

    def arrival(self, version: int) -> float | None:
        with self.lock:
            return self.arrivals.get(version)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def run(send_bytes: int, events: int, seed: int) -> tuple[list[float], list[float], list[float]] | None:
    """Per event and client: ms from calling ``apply`` to arrival, ms from ``apply``'s return
    (stored and published) to arrival; per event: ms ``apply`` took.  ``None`` when the
    clients got no first snapshot within 5 s."""
    options = dict(server_module.WAITRESS_OPTIONS)
    server_module.WAITRESS_OPTIONS["send_bytes"] = send_bytes
    with tempfile.TemporaryDirectory() as data:
        app = create_app(ServeConfig(data_dir=Path(data), pin="1234", camera=False, players=4))
        table: Table = app.extensions[EXTENSION]
        background = server_module.start_background(app)
        server_module.WAITRESS_OPTIONS.clear()
        server_module.WAITRESS_OPTIONS.update(options)
        host, port = background.url.removeprefix("http://").split(":")
        clients = [StreamClient(host, int(port)) for _ in range(CLIENTS)]
        for client in clients:
            client.start()
        if not all(client.ready.wait(5) for client in clients):
            for client in clients:
                client.close()
            background.stop()
            table.service.store.close()
            return None
        service = table.service
        service.new_game("octoplus", ["Ana", "Ben", "Cleo", "Dan"], LONG_GAME)
        script = simulate(rules_for("octoplus", LONG_GAME), 4, random.Random(seed), max_events=events * 2)
        plays = [e for e in script.effective_events() if not isinstance(e, Undone)][:events]
        samples: list[float] = []
        after_store: list[float] = []
        applying: list[float] = []
        for event in plays:
            started = time.perf_counter()
            service.apply(event)
            stored = time.perf_counter()
            applying.append((stored - started) * 1000)
            version = service.version
            deadline = time.monotonic() + 5
            while any(c.arrival(version) is None for c in clients) and time.monotonic() < deadline:
                time.sleep(0.0002)
            for client in clients:
                arrived = client.arrival(version)
                if arrived is not None:
                    samples.append((arrived - started) * 1000)
                    after_store.append(max(0.0, arrived - stored) * 1000)
            time.sleep(0.01)
        for client in clients:
            client.close()
        background.stop()
        table.service.store.close()
        missing = len(plays) * CLIENTS - len(samples)
        if missing:
            print(f"  ({missing} deliveries missed the 5 s deadline)")
        return samples, after_store, applying


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.sse_latency", description=__doc__)
    parser.add_argument("--events", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    print(f"{CLIENTS} SSE clients on loopback, {args.events} events of a simulated 4-player Octoplus game")
    print("(latency from the call of apply to each client's receipt of the new snapshot)")
    for label, send_bytes in (
        ("send_bytes=1 (octotable)", 1),
        ("send_bytes=18000 (waitress default)", 18000),
    ):
        result = run(send_bytes, args.events, args.seed)
        print(f"  {label}:")
        if result is None:
            print("    no client received even the first snapshot within 5 s (it waits in the buffer)")
            continue
        samples, after_store, applying = result
        for name, values in (
            ("apply -> every phone", samples),
            ("  of which apply (rules + SQLite commit)", applying),
            ("  of which publish -> phone", after_store),
        ):
            p50, p95 = statistics.median(values), percentile(values, 95)
            print(f"    {name:42s} p50 {p50:7.2f} ms   p95 {p95:7.2f} ms   (n={len(values)})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
