"""The table as the page shows it: a JSON-able dict built from the game's typed state.

This is what ``GET /api/state`` answers and what every ``/events`` message
carries (plus the service's version, flagged readings and camera state).  Names
replace seat numbers in the words shown to people.
"""

from __future__ import annotations

import re
from typing import Any

from scorer.cards import OctoCard, StdCard
from scorer.events import Adjust, Event, Give, Play, Reveal, TakeChain, Trick, TurnUp, Undone
from scorer.game import Game
from scorer.octoplus import OctoplusAllowed, OctoplusState
from scorer.oktris import OktrisAllowed, OktrisState
from scorer.sheet import ScoreSheet

RECENT_EVENTS = 12
"""How many of the latest events the page lists (for undo and the history)."""

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
    """One event in words, with names: "Ana plays 5 3", "Undo of #12"."""

    def who(seat: int) -> str:
        return players[seat - 1] if 1 <= seat <= len(players) else f"seat {seat}"

    if isinstance(event, TurnUp):
        return f"Turned up {card_text(event.card)}"
    if isinstance(event, Play):
        return f"{who(event.seat)} plays {' '.join(card_text(c) for c in event.cards)}"
    if isinstance(event, Give):
        return f"{who(event.seat)} gives a card to {who(event.to)}"
    if isinstance(event, TakeChain):
        return f"{who(event.seat)} takes the +2 chain"
    if isinstance(event, Reveal):
        shown = " ".join(card_text(c) for c in event.cards) or "no cards"
        return f"{who(event.seat)} shows {shown}"
    if isinstance(event, Trick):
        return "Trick " + "  ".join(f"{who(i)} {card_text(c)}" for i, c in enumerate(event.cards, start=1))
    if isinstance(event, Undone):
        return f"Undo of #{event.target}"
    assert isinstance(event, Adjust)
    return f"{who(event.seat)} {event.points:+d}: {event.reason}"


def sheet_json(sheet: ScoreSheet) -> dict[str, Any]:
    """The score sheet with the rule that changed each cell."""
    return {
        "rounds": [[{"points": cell.points, "rule": cell.rule} for cell in row] for row in sheet.rounds],
        "adjustments": [
            {"seq": a.seq, "seat": a.seat, "points": a.points, "reason": a.reason} for a in sheet.adjustments
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


def _octoplus(game: Game) -> dict[str, Any]:
    s = game.state
    allowed = game.allowed()
    assert isinstance(s, OctoplusState) and isinstance(allowed, OctoplusAllowed)
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
        "owed": None if s.last_draw is None else {"seat": s.last_draw[0], "cards": s.last_draw[1]},
        "went_out": s.went_out,
        "reveal_seats": list(s.reveal_seats),
        "allowed": {
            "seat": allowed.seat,
            "turn_up": allowed.turn_up,
            "numbers": list(allowed.numbers),
            "minus2": allowed.minus2,
            "plus2": allowed.plus2,
            "pass": allowed.pass_,
            "take_chain": allowed.take_chain,
            "give_to": list(allowed.give_to),
            "reveal_seats": list(allowed.reveal_seats),
            "max_cards": allowed.max_cards,
        },
    }


def _oktris(game: Game) -> dict[str, Any]:
    s = game.state
    allowed = game.allowed()
    assert isinstance(s, OktrisState) and isinstance(allowed, OktrisAllowed)
    last = s.last_trick
    return {
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
        "allowed": {
            "cards_needed": allowed.cards_needed,
            "excluded": sorted(str(c) for c in allowed.excluded),
        },
    }


def table_view(game: Game) -> dict[str, Any]:
    """Everything the table page shows about ``game``."""
    sheet = game.score_sheet()
    players = game.players
    low_wins = game.name == "octoplus"
    recent = [
        {
            "seq": e.seq,
            "words": event_words(e, players),
            "undone": game.is_undone(e.seq),
            "source": e.source.value,
            "note": e.note,
            "undoable": not isinstance(e, Undone) and not game.is_undone(e.seq),
        }
        for e in game.events[-RECENT_EVENTS:]
    ]
    view: dict[str, Any] = {
        "game": game.name,
        "players": list(players),
        "to_move": game.to_move,
        "finished": game.finished,
        "winners": [players[s - 1] for s in sheet.winners],
        "low_wins": low_wins,
        "totals": list(sheet.totals),
        "last_play": with_names(game.state.last_play, players) if game.state.last_play else "",
        "standings": standings(sheet, low_wins),
        "sheet": sheet_json(sheet),
        "recent": list(reversed(recent)),
        "seq": game.seq,
    }
    view[game.name] = _octoplus(game) if game.name == "octoplus" else _oktris(game)
    return view
