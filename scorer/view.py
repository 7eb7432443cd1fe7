"""The JSON-able snapshot of a game that the page shows (``snapshot(game)``).

The common keys are present for both games; what belongs to one game only sits
under its name (``snapshot["octoplus"]`` or ``snapshot["oktris"]``).  Seats are
1-based; words shown to people name players by name and cards as ``7♥``.  The
keys are documented in ``docs/scorer-api.md``.  Nothing here raises for a game
built by :class:`scorer.game.Game`.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from typing import Any

from scorer.cards import OctoCard, StdCard
from scorer.events import Event, Undone, describe
from scorer.game import Game
from scorer.octoplus import OctoplusState
from scorer.oktris import OktrisState
from scorer.sheet import ScoreSheet

RECENT_EVENTS = 12
"""How many of the latest events the snapshot lists (for undo and the history)."""

_SEAT_WORD = re.compile(r"\bseats? (\d+)\b")
_STD_CARD = re.compile(r"\b([A2-9TJQK])([SHDC])\b")


def with_names(text: str, players: tuple[str, ...]) -> str:
    """``text`` with every "seat N" replaced by that player's name, cards as ``7♥`` and ``->`` as an arrow."""

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        return players[seat - 1] if 1 <= seat <= len(players) else match.group(0)

    out = _SEAT_WORD.sub(name, text)
    out = _STD_CARD.sub(lambda m: StdCard.parse(m.group(0)).pretty, out).replace("->", "→")
    return out[:1].upper() + out[1:]


def card_text(card: OctoCard | StdCard) -> str:
    """A card as shown to people: ``7♥``, ``+2``, ``Pass``."""
    return card.pretty


def event_words(event: Event, players: tuple[str, ...]) -> str:
    """One event in words, with names: "Ana plays 5 3", "Undo of #12" (``scorer.events.describe``)."""
    return describe(event, players)


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON types: enums by value, cards as notation, dataclasses as objects."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, OctoCard | StdCard):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name.rstrip("_"): jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, frozenset | set):
        return sorted(jsonable(v) for v in value)
    if isinstance(value, tuple | list):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    return value


def sheet_json(sheet: ScoreSheet) -> dict[str, Any]:
    """The score sheet with the rule that changed each cell and the adjustments, with names."""
    return {
        "rounds": [[{"points": cell.points, "rule": cell.rule} for cell in row] for row in sheet.rounds],
        "adjustments": [
            {
                "seq": a.seq,
                "seat": a.seat,
                "player": sheet.players[a.seat - 1],
                "points": a.points,
                "reason": a.reason,
            }
            for a in sheet.adjustments
        ],
        "totals": list(sheet.totals),
        "finished": sheet.finished,
        "winners": list(sheet.winners),
    }


def standings(sheet: ScoreSheet, low_wins: bool) -> list[dict[str, Any]]:
    """Players ordered best first (lowest total for Octoplus, highest for Oktris), with their places."""
    order = sorted(range(len(sheet.players)), key=lambda i: sheet.totals[i] if low_wins else -sheet.totals[i])
    rows: list[dict[str, Any]] = []
    for position, index in enumerate(order):
        place = position + 1
        if rows and rows[-1]["total"] == sheet.totals[index]:
            place = rows[-1]["place"]
        rows.append(
            {"seat": index + 1, "name": sheet.players[index], "total": sheet.totals[index], "place": place}
        )
    return rows


def recent_events(game: Game, count: int = RECENT_EVENTS) -> list[dict[str, Any]]:
    """The latest ``count`` events, newest first, in words and with whether each may still be undone."""
    return [
        {
            "seq": e.seq,
            "words": event_words(e, game.players),
            "undone": game.is_undone(e.seq),
            "source": e.source.value,
            "note": e.note,
            "undoable": not isinstance(e, Undone) and not game.is_undone(e.seq),
        }
        for e in reversed(game.events[-count:])
    ]


def _octoplus(s: OctoplusState, players: tuple[str, ...]) -> dict[str, Any]:
    return {
        "phase": s.phase.value,
        "round": s.round_no,
        "dealer": s.dealer,
        "base": s.base,
        "chain": s.chain,
        "running": s.effective_base,
        "top": None if s.top is None else card_text(s.top),
        "hand_sizes": list(s.hand_sizes),
        "draw_pile": s.draw_pile,
        "awaiting_give": s.awaiting_give,
        "owed": None
        if s.last_draw is None
        else {"seat": s.last_draw[0], "player": players[s.last_draw[0] - 1], "cards": s.last_draw[1]},
        "went_out": s.went_out,
        "reveal_seats": list(s.reveal_seats),
    }


def _oktris(s: OktrisState) -> dict[str, Any]:
    last = s.last_trick
    return {
        "phase": "finished" if s.finished else ("tiebreak" if s.tiebreak else "trick"),
        "deal": s.deal_no,
        "trick": s.trick_no,
        "mode": s.mode.value,
        "tiebreak": s.tiebreak,
        "tricks": [[card_text(c) for c in trick] for trick in s.tricks_this_deal],
        "trick_winners": list(s.winners_this_deal),
        "run": None
        if s.current_run is None
        else {"seat": s.current_run.seat, "length": s.current_run.length},
        "deal_points": list(s.deal_points),
        "last_trick": None
        if last is None
        else {"cards": [card_text(c) for c in last.cards], "winner": last.winner, "mode": last.mode.value},
    }


def snapshot(game: Game, recent: int = RECENT_EVENTS) -> dict[str, Any]:
    """The page's view of ``game`` as JSON-able data (keys in ``docs/scorer-api.md``).

    ``recent`` is how many of the latest events the ``recent`` list holds.
    """
    sheet = game.score_sheet()
    players = game.players
    low_wins = game.name == "octoplus"
    state = game.state
    view: dict[str, Any] = {
        "game": game.name,
        "players": list(players),
        "to_move": game.to_move,
        "finished": game.finished,
        "winners": [players[s - 1] for s in sheet.winners],
        "low_wins": low_wins,
        "totals": list(sheet.totals),
        "last_play": with_names(state.last_play, players) if state.last_play else "",
        "standings": standings(sheet, low_wins),
        "sheet": sheet_json(sheet),
        "recent": recent_events(game, recent),
        "seq": game.seq,
    }
    own = _octoplus(state, players) if isinstance(state, OctoplusState) else _oktris(state)
    own["allowed"] = jsonable(game.allowed())
    view[game.name] = own
    return view
