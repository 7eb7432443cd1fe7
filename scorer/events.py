"""The events of a game log.

A game is an append-only list of events; its state is the replay of that list.
Every event carries a sequence number (``seq``, assigned by the game when the
event is appended, 1-based), the ``source`` that proposed it and an optional
free-text ``note``.  Seats are 1-based (seat 1 sits at the bottom edge of the
camera image, the others follow clockwise).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from scorer.cards import OctoCard, StdCard


class Source(enum.Enum):
    """Who proposed an event."""

    SCANNER = "scanner"
    MANUAL = "manual"


@dataclass(frozen=True, kw_only=True)
class EventMeta:
    """Fields every event has, keyword-only so each event's own fields come first."""

    seq: int = 0
    source: Source = Source.MANUAL
    note: str = ""


# --- Octoplus -----------------------------------------------------------------


@dataclass(frozen=True)
class TurnUp(EventMeta):
    """The dealer turns ``card`` face up from the draw pile as the round's first base."""

    card: OctoCard


@dataclass(frozen=True)
class Play(EventMeta):
    """``seat`` takes a turn: number and ``-2`` cards, or one ``+2``, or one Pass."""

    seat: int
    cards: tuple[OctoCard, ...]


@dataclass(frozen=True)
class Give(EventMeta):
    """After a play totalling exactly 8, ``seat`` gives one hidden card to ``to``."""

    seat: int
    to: int


@dataclass(frozen=True)
class TakeChain(EventMeta):
    """``seat`` faces a ``+2`` chain with no number card and draws instead."""

    seat: int


@dataclass(frozen=True)
class Reveal(EventMeta):
    """At the end of a round ``seat`` lays the cards left in hand face up."""

    seat: int
    cards: tuple[OctoCard, ...]


# --- Oktris -------------------------------------------------------------------


@dataclass(frozen=True)
class Trick(EventMeta):
    """One simultaneous Oktris trick: ``cards[i]`` was revealed by seat ``i + 1``."""

    cards: tuple[StdCard, ...]


# --- Both games ---------------------------------------------------------------


@dataclass(frozen=True)
class Undone(EventMeta):
    """Cancels the earlier event numbered ``target`` (which must not be undone already)."""

    target: int


@dataclass(frozen=True)
class Adjust(EventMeta):
    """Adds ``points`` (may be negative) to ``seat``'s total, for a stated ``reason``."""

    seat: int
    points: int
    reason: str


Event = TurnUp | Play | Give | TakeChain | Reveal | Trick | Undone | Adjust
"""Any event of either game."""


def describe(event: Event, players: tuple[str, ...] = ()) -> str:
    """One event in words: "Ana plays 5 3", "Undo of #12".

    Seats are named from ``players`` (seat 1 is ``players[0]``); a seat without
    a name reads "seat N".  Cards read as people write them (``7♥``, ``Pass``).
    """

    def who(seat: int) -> str:
        return players[seat - 1] if 1 <= seat <= len(players) else f"seat {seat}"

    def cards(shown: tuple[OctoCard | StdCard, ...], empty: str) -> str:
        return " ".join(card.pretty for card in shown) or empty

    if isinstance(event, TurnUp):
        return f"Turned up {event.card.pretty}"
    if isinstance(event, Play):
        return f"{who(event.seat)} plays {cards(event.cards, 'no cards')}"
    if isinstance(event, Give):
        return f"{who(event.seat)} gives a card to {who(event.to)}"
    if isinstance(event, TakeChain):
        return f"{who(event.seat)} takes the +2 chain"
    if isinstance(event, Reveal):
        return f"{who(event.seat)} reveals {cards(event.cards, 'no cards')}"
    if isinstance(event, Trick):
        return "Trick " + "  ".join(f"{who(i)} {card.pretty}" for i, card in enumerate(event.cards, start=1))
    if isinstance(event, Undone):
        return f"Undo of #{event.target}"
    return f"{who(event.seat)} {event.points:+d}: {event.reason}"
