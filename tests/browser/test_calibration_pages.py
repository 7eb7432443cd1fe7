"""A real phone-sized Chromium walks the calibration wizard: camera check, play area, seats, deck capture.

Drives the system ``/usr/bin/chromium`` through Playwright (never a downloaded
browser).  The camera is a scripted provider of the recorded calibration frames.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask

from calibration.config import load
from calibration.wizard import Wizard
from scanner.types import Image
from webui.calibration_views import install_wizard
from webui.server import BackgroundServer

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "calibration"


def frame(name: str) -> Image:
    found = cv2.imread(str(FIXTURES / name), cv2.IMREAD_COLOR)
    assert found is not None, name
    return np.asarray(found, dtype=np.uint8)


class ScriptedCamera:
    """Shows ``still`` until a script is given; then one scripted frame per call, the last one kept."""

    def __init__(self, still: Image) -> None:
        self.still = still
        self.script: list[Image] = []

    def __call__(self) -> Image | None:
        if self.script:
            self.still = self.script.pop(0)
        return self.still


@pytest.fixture
def camera() -> ScriptedCamera:
    return ScriptedCamera(frame("capture/AS-1.jpg"))


@pytest.fixture
def server(serve: Callable[..., BackgroundServer], camera: ScriptedCamera) -> BackgroundServer:
    def wizard(app: Flask, folder: Path) -> None:
        install_wizard(app, Wizard(folder / "calibration.toml", camera))

    return serve(players=4, install=wizard)


def drag(page: Any, selector: str, dx: float, dy: float) -> None:
    box = page.locator(selector).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx / 2, y + dy / 2)
    page.mouse.move(x + dx, y + dy)
    page.mouse.up()


def test_the_calibration_wizard_is_walked_on_a_phone(
    server: BackgroundServer, phone_page: Callable[..., Any], pin: str, camera: ScriptedCamera, tmp_path: Path
) -> None:
    page = phone_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    # Without the PIN the page says how to unlock it.
    page.goto(server.url + "/calibrate")
    page.wait_for_selector("#cal-locked")
    page.goto(server.url + "/setup")
    page.fill("#setup-pin", pin)
    page.locator(".pin-form button[type=submit]").click()
    page.wait_for_url(server.url + "/setup")
    page.click("#calibrate-link")  # the Setup page leads to the wizard
    page.wait_for_url(server.url + "/calibrate")
    assert page.locator("#cal-locked").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]

    # 1 camera: the picture is checked and judged good.
    page.click("#cal-check")
    page.wait_for_function(
        "document.querySelector('#cal-quality').textContent.includes('Good for reading cards')"
    )

    # 2 table: found automatically, one corner dragged a little, saved with the card's size.
    page.wait_for_selector("#cal-table-svg circle.handle", state="attached")
    page.click("#cal-detect")
    page.wait_for_function("document.querySelector('#cal-card').textContent.includes('Card:')")
    handles_x = (
        "Array.from(document.querySelectorAll('#cal-table-svg .handle')).map(c => +c.getAttribute('cx'))"
    )
    before = page.evaluate(handles_x)
    page.locator("#cal-table-frame").scroll_into_view_if_needed()
    drag(page, "#cal-table-svg circle.handle[data-corner='0']", 8, 6)
    after = page.evaluate(handles_x)
    assert after[0] > before[0] and after[1:] == before[1:]
    page.click("#cal-save-table")
    page.wait_for_function("document.querySelector('#cal-card').textContent.startsWith('Saved.')")
    page.wait_for_function("document.querySelector('#cal-topdown').naturalWidth > 0")  # the top-down view
    saved = load(tmp_path / "calibration.toml")
    assert saved.table.corners is not None and saved.table.card_size_px is not None
    assert saved.table.corners[0][0] == pytest.approx(after[0], abs=0.2)

    # 3 seats: three players, seat 2 dragged, saved.
    page.select_option("#cal-players", "3")
    page.wait_for_selector("#cal-seats-svg circle.seat[data-seat='3']", state="attached")
    assert page.locator("#cal-seats-svg circle.seat").count() == 3
    page.locator("#cal-seats-frame").scroll_into_view_if_needed()
    drag(page, "#cal-seats-svg circle.seat[data-seat='2']", 0, -20)
    page.click("#cal-save-seats")
    page.wait_for_function(
        "document.querySelector('#cal-seats-result').textContent.startsWith('Saved 3 seats')"
    )
    seats = load(tmp_path / "calibration.toml").seats
    assert seats.players == 3 and seats.angles[0] == 0.0 and seats.angles[1] != pytest.approx(120.0, abs=1)

    # 4 deck: the first two cards held still in two spots each, the table cleared after each; then
    # finish.  (Each frame lasts a few calls: the page's preview reads the camera too.)
    empty = frame("capture/empty.jpg")
    script: list[Image] = []
    for card in ("AS", "AH"):
        for k in (1, 2):
            script += [frame(f"capture/{card}-{k}.jpg")] * 4
        script += [empty] * 2
    camera.still = empty
    camera.script = script
    page.select_option("#cal-captures", "2")
    page.click("#cal-start")
    page.wait_for_function("document.querySelector('#cal-ask-card').textContent === 'AD'", timeout=30000)
    page.wait_for_function("document.querySelector('#cal-capture-img').naturalWidth === 480")
    progress = page.evaluate("document.querySelector('#cal-progress').value")
    assert progress == pytest.approx(4 / 64, abs=1e-3)
    page.click("#cal-finish")
    page.wait_for_selector("#cal-report:not([hidden])")
    rows = page.locator("#cal-report-rows tr")
    assert rows.count() == 2
    assert page.locator("#cal-alike").text_content() is not None
    assert "No template for" in (page.locator("#cal-alike").text_content() or "")
    deck = load(tmp_path / "calibration.toml").deck
    assert deck.templates is not None and (deck.templates / "templates.toml").is_file()
    assert errors == [], json.dumps(errors)
