"""What every test here shares: the system Chromium, phone-sized pages, a served table with a PIN.

Drives the system ``/usr/bin/chromium`` through Playwright (never a downloaded
browser).  Every test of this folder is marked ``browser`` and skipped where
that Chromium is missing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from webui.app import create_app
from webui.config import ServeConfig
from webui.context import EXTENSION, Table
from webui.server import BackgroundServer, start_background

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
PIN = "2468"
HERE = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark this folder's tests ``browser``; skip them where the system Chromium is missing."""
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.browser)
            if not CHROMIUM.exists():
                item.add_marker(pytest.mark.skip(reason=f"needs the system Chromium at {CHROMIUM}"))


@pytest.fixture
def pin() -> str:
    """The table PIN the served app expects."""
    return PIN


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., BackgroundServer]]:
    """Start the app on a free port: ``serve(players, install=None)``; ``install(app, tmp_path)`` adds
    to the app before it serves.  Stopped (and its event store closed) after the test."""
    started: list[tuple[BackgroundServer, Flask]] = []

    def start(players: int, install: Callable[[Flask, Path], None] | None = None) -> BackgroundServer:
        app = create_app(ServeConfig(data_dir=tmp_path, pin=PIN, camera=False, players=players))
        if install is not None:
            install(app, tmp_path)
        running = start_background(app, threads=16)
        started.append((running, app))
        return running

    yield start
    for running, app in started:
        running.stop()
        table: Table = app.extensions[EXTENSION]
        table.service.store.close()


@pytest.fixture
def browser() -> Iterator[Any]:
    """The system Chromium, headless."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def phone_page(browser: Any) -> Callable[..., Any]:
    """A new page in a new phone-sized context: ``phone_page(color_scheme="dark")``."""

    def new_page(**context: Any) -> Any:
        return browser.new_context(**PHONE, **context).new_page()

    return new_page
