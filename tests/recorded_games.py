"""The recorded game folders of ``tests/fixtures/games/`` and what each should replay to."""

from __future__ import annotations

import json
from pathlib import Path

from scorer.events import Event, Reveal
from scorer.notation import parse_log

GAMES = Path(__file__).resolve().parent / "fixtures" / "games"
PLAYED = ("octoplus-3p-round", "oktris-4p-deal")
"""Folders of whole games, each with its expected log and score sheet."""
QUIET = ("idle-table", "hands-waving", "card-nudged")
"""Folders in which nothing is played: they must yield no event."""


def expected(name: str) -> tuple[str, int, list[Event], dict[str, object]]:
    """The folder's game name, number of players, expected events and expected score sheet JSON."""
    folder = GAMES / name
    game = parse_log((folder / "expected.log").read_text(encoding="utf-8"))
    sheet = json.loads((folder / "expected-sheet.json").read_text(encoding="utf-8"))
    return game.name, len(game.players), list(game.events), sheet


def normalised(events: list[Event]) -> list[Event]:
    """Events with a revealed hand's cards in a fixed order (the order of a hand means nothing)."""
    return [
        Reveal(e.seat, tuple(sorted(e.cards, key=str)), seq=e.seq, source=e.source)
        if isinstance(e, Reveal)
        else e
        for e in events
    ]
