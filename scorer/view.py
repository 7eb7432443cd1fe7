"""The JSON-able snapshot of a game that the page shows (``snapshot(game)``).

Every key is present for both games (``None`` where a key means nothing for the
game), so a page can render either without guessing.  Seats are 1-based; texts
name players by name.  The keys are documented in ``docs/scorer-api.md``.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from typing import Any

from scorer.cards import OctoCard, StdCard
from scorer.game import Game
from scorer.octoplus import OctoplusState
from scorer.oktris import OktrisState
from scorer.sheet import ScoreSheet

_SEAT_WORD = re.compile(r"\bseat (\d+)\b")


def with_names(text: str, players: tuple[str, ...]) -> str:
    """``text`` with every ``seat N`` replaced by that player's name."""

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        return players[seat - 1] if 1 <= seat <= len(players) else match.group(0)

    return _SEAT_WORD.sub(name, text)


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
    """The score sheet with every cell's rule and the adjustments, for the page."""
    return {
        "rounds": [[{"points": c.points, "rule": c.rule} for c in row] for row in sheet.rounds],
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
    }


def _common(game: Game) -> dict[str, Any]:
    sheet = game.score_sheet()
    state = game.state
    return {
        "game": game.name,
        "players": list(game.players),
        "phase": None,
        "to_move": state.to_move,
        "dealer": None,
        "round": None,
        "deal": None,
        "trick": None,
        "last_trick": None,
        "base": None,
        "running_total": None,
        "chain": None,
        "top": None,
        "mode": None,
        "streaks": None,
        "hand_sizes": None,
        "draw_pile": None,
        "awaiting_give": None,
        "last_play": with_names(state.last_play, game.players),
        "draws_owed": None,
        "sheet": sheet_json(sheet),
        "totals": list(sheet.totals),
        "finished": sheet.finished,
        "winners": list(sheet.winners),
        "winner_names": [game.players[s - 1] for s in sheet.winners],
        "allowed": jsonable(game.allowed()),
        "seq": game.seq,
    }


def _octoplus(view: dict[str, Any], state: OctoplusState, players: tuple[str, ...]) -> None:
    owed = None
    if state.last_draw is not None:
        seat, cards = state.last_draw
        owed = {"seat": seat, "player": players[seat - 1], "cards": cards}
    view.update(
        phase=state.phase.value,
        dealer=state.dealer,
        round=state.round_no,
        base=state.base,
        running_total=state.effective_base,
        chain=state.chain,
        top=None if state.top is None else str(state.top),
        hand_sizes=list(state.hand_sizes),
        draw_pile=state.draw_pile,
        awaiting_give=state.awaiting_give,
        draws_owed=owed,
    )


def _oktris(view: dict[str, Any], state: OktrisState) -> None:
    streaks = [0] * state.players
    if state.current_run is not None:
        streaks[state.current_run.seat - 1] = state.current_run.length
    last = state.last_trick
    view.update(
        phase="finished" if state.finished else ("tiebreak" if state.tiebreak else "trick"),
        round=state.deal_no,
        deal=state.deal_no,
        trick=state.trick_no,
        last_trick=None
        if last is None
        else {"cards": [str(c) for c in last.cards], "winner": last.winner, "mode": last.mode.value},
        mode=state.mode.value,
        streaks=streaks,
    )


def snapshot(game: Game) -> dict[str, Any]:
    """The page's view of ``game`` as JSON-able data (keys in ``docs/scorer-api.md``)."""
    view = _common(game)
    state = game.state
    if isinstance(state, OctoplusState):
        _octoplus(view, state, game.players)
    elif isinstance(state, OktrisState):
        _oktris(view, state)
    return view
