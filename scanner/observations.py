"""What the watcher reports: neutral observations of the table, in the order they happened.

The watcher knows frames and time, never rules.  Each observation says what
was seen, how sure the scanner was, and in which frame (``frame_index``) at
which time (``timestamp``, seconds) the table settled into the view that showed
it.  ``None`` as a card means "a card is there but was not identified".
``candidates`` list the cards the scanner considered, best first, each with
its confidence, so a person (or the rules) can pick another reading.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorer.cards import Card

Candidate = tuple[Card, float]
"""A card the scanner considered, with its confidence (0..1)."""


@dataclass(frozen=True)
class PileCard:
    """The pile has a new top card (reported once per card, in the order played)."""

    card: Card | None
    confidence: float
    candidates: tuple[Candidate, ...]
    frame_index: int
    timestamp: float


@dataclass(frozen=True)
class TrickSeen:
    """Cards revealed together, one per seat: ``cards_by_seat[i]`` lies in seat ``i + 1``'s zone.

    A seat's entry is ``None`` when a card lies there but was not identified.
    """

    cards_by_seat: tuple[Card | None, ...]
    confidences: tuple[float, ...]
    candidates: tuple[tuple[Candidate, ...], ...]
    frame_index: int
    timestamp: float


@dataclass(frozen=True)
class TableCleared:
    """Every card has left the table."""

    frame_index: int
    timestamp: float


@dataclass(frozen=True)
class HandShown:
    """``seat`` laid cards face up in its zone, away from the pile (the end of an Octoplus round)."""

    seat: int
    cards: tuple[Card | None, ...]
    confidences: tuple[float, ...]
    frame_index: int
    timestamp: float


@dataclass(frozen=True)
class TurnDone:
    """The current turn is over: ``reason`` is ``"idle"`` (no new card for a while) or the signal's name."""

    reason: str
    frame_index: int
    timestamp: float


Observation = PileCard | TrickSeen | TableCleared | HandShown | TurnDone
"""Anything the watcher reports."""


def describe(observation: Observation) -> str:
    """The observation in a few words, for logs and flagged readings."""

    def card_text(card: Card | None) -> str:
        return "?" if card is None else str(card)

    if isinstance(observation, PileCard):
        return f"pile card {card_text(observation.card)} ({observation.confidence:.2f})"
    if isinstance(observation, TrickSeen):
        cards = " ".join(card_text(c) for c in observation.cards_by_seat)
        return f"trick {cards}"
    if isinstance(observation, TableCleared):
        return "table cleared"
    if isinstance(observation, HandShown):
        cards = " ".join(card_text(c) for c in observation.cards) or "(none)"
        return f"seat {observation.seat} shows {cards}"
    return f"turn done ({observation.reason})"
