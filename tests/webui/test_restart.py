"""kill -9 of a real ``octotable serve`` mid-game, then a restart: the same game, the same state."""

from __future__ import annotations

import http.cookiejar
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def octotable_command() -> list[str]:
    script = Path(sys.executable).parent / "octotable"
    return [str(script)] if script.exists() else [sys.executable, "-m", "webui.cli"]


class Server:
    def __init__(self, data: Path, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        command = [*octotable_command(), "serve", "--port", str(port), "--host", "127.0.0.1"]
        command += ["--data", str(data), "--source", "none", "--players", "3"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(self.base + "/api/state", timeout=1).read()
                return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("octotable serve did not start") from None
                time.sleep(0.1)

    def kill(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


class Browser:
    """A cookie-keeping HTTP client that sends the session's CSRF token."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def get(self, path: str) -> Any:
        with self.opener.open(self.base + path, timeout=10) as response:
            return json.loads(response.read())

    def post(self, path: str, body: object) -> Any:
        csrf = self.get("/api/session")["csrf"]
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "X-CSRF-Token": csrf},
            method="POST",
        )
        with self.opener.open(request, timeout=10) as response:
            return json.loads(response.read())


@pytest.mark.slow
def test_kill_9_mid_game_then_restart_gives_the_same_state(tmp_path: Path) -> None:
    data = tmp_path / "data"
    port = free_port()
    server = Server(data, port)
    try:
        browser = Browser(server.base)
        pin = (data / "table-pin").read_text().strip()
        browser.post("/api/login", {"pin": pin})
        browser.post("/api/new-game", {"game": "octoplus", "players": ["Ana", "Ben", "Cleo"]})
        for event in (
            {"type": "turnup", "card": "5"},
            {"type": "play", "seat": 1, "cards": ["3"]},
            {"type": "give", "seat": 1, "to": 3},
            {"type": "play", "seat": 2, "cards": ["7", "-2"]},
            {"type": "adjust", "seat": 3, "points": 4, "reason": "house penalty"},
        ):
            before_kill = browser.post("/api/event", event)
        server.kill()
    finally:
        server.stop()

    again = Server(data, port)
    try:
        browser.base = again.base
        after = browser.get("/api/state")
        for key in (
            "game_id",
            "players",
            "seq",
            "totals",
            "last_play",
            "to_move",
            "octoplus",
            "sheet",
            "recent",
        ):
            assert after[key] == before_kill[key], key
        assert after["players"] == ["Ana", "Ben", "Cleo"]
        # The session cookie survives too: the signing key lives in the data folder.
        assert browser.get("/api/session")["authorized"] is True
        continued = browser.post("/api/event", {"type": "give", "seat": 2, "to": 1})
        assert continued["seq"] == before_kill["seq"] + 1
    finally:
        again.stop()
