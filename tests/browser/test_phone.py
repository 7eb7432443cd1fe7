"""A real phone-sized Chromium: a short game entered by hand on one page shows up live on another.

Drives the system ``/usr/bin/chromium`` through Playwright (never a downloaded
browser).  With ``OCTOTABLE_WRITE_SCREENSHOT=1`` the test also writes the
watching phone's view to ``docs/phone-view.png`` (light) and
``docs/phone-view-dark.png`` (dark); otherwise the screenshots go to a temporary folder.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from webui.context import EXTENSION, Table
from webui.server import BackgroundServer

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture
def server(serve: Callable[..., BackgroundServer]) -> BackgroundServer:
    return serve(players=2)


def save_screenshot(png: bytes, path: Path) -> None:
    """Write a page's screenshot as a PNG of 256 colours (octree): the page's flat colours and
    anti-aliased text look the same, in about a quarter of the bytes of the full-colour PNG."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        image.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE).save(path, optimize=True)


def tap(page: Any, selector: str) -> None:
    page.locator(selector).click()


def test_a_game_entered_by_hand_on_one_phone_shows_live_on_another(
    server: BackgroundServer, phone_page: Callable[..., Any], pin: str, tmp_path: Path
) -> None:
    scorer_phone = phone_page(color_scheme="light")
    watcher_phone = phone_page(color_scheme="light")
    errors: list[str] = []
    for page in (scorer_phone, watcher_phone):
        page.on("pageerror", lambda error: errors.append(str(error)))

    # The scorer unlocks with the PIN on the setup page and starts a short Octoplus game.
    scorer_phone.goto(server.url + "/setup")
    scorer_phone.fill("#setup-pin", pin)
    tap(scorer_phone, "form.pin-form button")
    scorer_phone.wait_for_url(server.url + "/setup")
    scorer_phone.check("input[value=octoplus]")
    names = scorer_phone.locator("#names input")
    names.nth(0).fill("Ana")
    names.nth(1).fill("Ben")
    scorer_phone.locator("details summary").click()
    scorer_phone.locator("#options input[name=hand_size]").fill("3")
    scorer_phone.locator("#options input[name=max_rounds]").fill("2")
    tap(scorer_phone, "#new-game button[type=submit]")
    scorer_phone.wait_for_url(server.url + "/")

    # The other phone opens the table and waits for live updates.
    watcher_phone.goto(server.url + "/")
    watcher_phone.wait_for_selector("#live.on")
    assert watcher_phone.locator("#players .player").count() == 2
    assert watcher_phone.locator("#controls").is_hidden()  # no PIN, no controls

    newest = "(document.querySelector('#history .seq') || {textContent: '#0'}).textContent.slice(1) | 0"

    def enter(*cards: str, submit: str | None = "#end-turn") -> None:
        """Tap the cards on the scorer's keypad (and the submit button); wait until both phones show
        the new play.  The scorer's own page learns of a play from its answer, which may come after
        the watcher's stream: waiting for both keeps the next tap off a keypad that is a play behind."""
        before = watcher_phone.evaluate(newest)
        for card in cards:
            tap(scorer_phone, f"#entry [data-card='{card}']")
        if submit == "Space":  # a keyboard at the table ends the turn
            scorer_phone.keyboard.press("Space")
        elif submit is not None:
            tap(scorer_phone, submit)
        watcher_phone.wait_for_function(f"(n) => ({newest}) > n", arg=before)
        scorer_phone.wait_for_function(f"(n) => ({newest}) === n", arg=watcher_phone.evaluate(newest))

    # Round 1, Ana deals: turn up a 1; Ana plays 1, Ben plays 2, Ana plays 3 and 1 and is out.
    enter("1", submit=None)
    assert watcher_phone.locator("#running").inner_text() == "1"
    enter("1")
    enter("2")
    assert "Ben: 1 + 2 = 3" in watcher_phone.locator("#last-play").inner_text()
    enter("3", "1")
    assert watcher_phone.locator("#last-play").inner_text() == "Ana: 2 + 3 + 1 = 6; Ana is out, round 1 over"
    assert "show your hands" in watcher_phone.locator("#turn").inner_text()
    # Ben shows 5 and 2: round 1 scores 7 for him.
    enter("5", "2", submit="#reveal-submit")
    watcher_phone.wait_for_function("document.querySelector(\"[data-total='2']\").textContent === '7'")
    # Round 2, Ben deals: turn up a 1, Ben plays 1 and 2, Ana passes, Ben plays 3 and is out.
    enter("1", submit=None)
    enter("1", "2")
    enter("P", submit=None)
    # the pile shows "Pass", a word on a card sized for "+2": the word fits inside the card
    assert watcher_phone.locator("#top-card").inner_text() == "Pass"
    fits = "(e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight)"
    assert watcher_phone.evaluate(f"{fits}(document.querySelector('#top-card'))")
    enter("3", submit="Space")
    # Ana shows 6 and 2: 8 points, voided by the rule of 8; two rounds played, the game is over.
    enter("6", "2", submit="#reveal-submit")
    watcher_phone.wait_for_selector("#winner:not([hidden])")
    assert "Ana wins" in watcher_phone.locator("#winner h1").inner_text()
    assert watcher_phone.locator("[data-total='1']").inner_text() == "0"
    assert watcher_phone.locator("[data-total='2']").inner_text() == "7"
    assert watcher_phone.locator("#sheet tbody tr").count() == 2
    assert watcher_phone.locator("#sheet .rule").inner_text() == "void 8"
    watcher_phone.wait_for_selector("#chart svg polyline", state="attached")
    assert errors == []

    out = DOCS if os.environ.get("OCTOTABLE_WRITE_SCREENSHOT") == "1" else tmp_path
    save_screenshot(watcher_phone.screenshot(full_page=True), out / "phone-view.png")
    dark = phone_page(color_scheme="dark")
    dark.goto(server.url + "/")
    dark.wait_for_selector("#chart svg polyline", state="attached")
    dark.screenshot(path=str(tmp_path / "phone-view-dark.png"), full_page=True)
    assert (out / "phone-view.png").stat().st_size > 10_000


def test_the_page_resyncs_after_being_hidden_and_polls_when_the_stream_is_refused(
    server: BackgroundServer, phone_page: Callable[..., Any]
) -> None:
    from playwright.sync_api import Route

    page = phone_page()
    refused = {"count": 0}

    def refuse(route: Route) -> None:
        refused["count"] += 1
        route.fulfill(status=503, content_type="application/json", body='{"error": "busy"}')

    page.route("**/events", refuse)
    page.goto(server.url + "/")
    page.wait_for_selector("#live.poll")  # EventSource gave up: the page polls /api/state
    table: Table = server.app.extensions[EXTENSION]
    from scorer.cards import OctoCard
    from scorer.events import TurnUp

    table.service.apply(TurnUp(OctoCard.number(6)))
    page.wait_for_function("document.querySelector('#running').textContent === '6'", timeout=10_000)
    assert refused["count"] >= 1
    page.unroute("**/events")
    page.wait_for_selector("#live.on", timeout=15_000)  # and reconnects by itself later


def test_a_hidden_page_closes_its_stream_and_resyncs_when_shown_again(
    server: BackgroundServer, phone_page: Callable[..., Any]
) -> None:
    import time

    from scorer.cards import OctoCard
    from scorer.events import TurnUp

    table: Table = server.app.extensions[EXTENSION]
    page = phone_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#live.on")
    assert table.streams == 1

    def set_hidden(hidden: bool) -> None:
        page.evaluate(
            """(hidden) => {
                Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
                document.dispatchEvent(new Event("visibilitychange"));
            }""",
            hidden,
        )

    set_hidden(True)
    deadline = time.monotonic() + 20  # the server notices the closed stream at its next write
    while table.streams and time.monotonic() < deadline:
        table.service.set_camera(table.service.camera.__class__(message=f"probe {time.monotonic()}"))
        time.sleep(0.2)
    assert table.streams == 0
    table.service.apply(TurnUp(OctoCard.number(2)))  # a change while the phone sleeps
    time.sleep(0.3)
    assert page.locator("#running").inner_text() != "2"
    set_hidden(False)
    page.wait_for_function("document.querySelector('#running').textContent === '2'", timeout=10_000)
    page.wait_for_selector("#live.on")
