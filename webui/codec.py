"""Events as JSON objects: the form the event store keeps and the API accepts.

One object per event, e.g. ``{"type": "play", "seat": 2, "cards": ["5", "-2"]}``;
cards are written in the notation of ``scorer.cards``.  Parsing validates every
field and raises ``EventFormatError`` naming the field and the value, so a
malformed request becomes a clear 400 and never reaches the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorer.cards import DeckKind, OctoCard, StdCard, parse_card
from scorer.errors import NotationError
from scorer.events import (
    Adjust,
    Event,
    Give,
    Play,
    Reveal,
    Source,
    TakeChain,
    Trick,
    TurnUp,
    Undone,
)

MAX_NOTE = 200
"""Longest accepted ``note`` or ``reason`` text, in characters."""

MAX_CARDS = 40
"""Most cards one event may carry."""

OCTOPLUS_TYPES = frozenset({"turnup", "play", "give", "take_chain", "reveal"})
OKTRIS_TYPES = frozenset({"trick"})
COMMON_TYPES = frozenset({"undone", "adjust"})


class EventFormatError(ValueError):
    """A JSON object that is not a valid event of the table's game."""


def event_type(event: Event) -> str:
    """The ``type`` name of an event."""
    return _TYPE_NAMES[type(event)]


_TYPE_NAMES: dict[type, str] = {
    TurnUp: "turnup",
    Play: "play",
    Give: "give",
    TakeChain: "take_chain",
    Reveal: "reveal",
    Trick: "trick",
    Undone: "undone",
    Adjust: "adjust",
}


def event_to_json(event: Event) -> dict[str, Any]:
    """The JSON object of an event, ``seq``, ``source`` and ``note`` included."""
    body: dict[str, Any] = {"type": event_type(event)}
    if isinstance(event, TurnUp):
        body["card"] = str(event.card)
    elif isinstance(event, Play | Reveal):
        body["seat"] = event.seat
        body["cards"] = [str(card) for card in event.cards]
    elif isinstance(event, Give):
        body["seat"] = event.seat
        body["to"] = event.to
    elif isinstance(event, TakeChain):
        body["seat"] = event.seat
    elif isinstance(event, Trick):
        body["cards"] = [str(card) for card in event.cards]
    elif isinstance(event, Undone):
        body["target"] = event.target
    else:
        body["seat"] = event.seat
        body["points"] = event.points
        body["reason"] = event.reason
    body["seq"] = event.seq
    body["source"] = event.source.value
    if event.note:
        body["note"] = event.note
    return body


def event_from_json(data: object, deck: DeckKind, *, source: Source | None = None) -> Event:
    """Parse an event object of a game played with ``deck``.

    ``source`` overrides the object's own ``source`` field (the API passes
    ``Source.MANUAL`` so a person cannot pose as the scanner).

    Raises:
        EventFormatError: not an object, an unknown or wrong-game ``type``, a
            missing or mistyped field, a card that is not of ``deck``.
    """
    if not isinstance(data, Mapping):
        raise EventFormatError(f"an event must be a JSON object, got {_show(data)}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _TYPE_NAMES.values():
        raise EventFormatError(
            f"unknown event type {_show(kind)}; expected one of {sorted(_TYPE_NAMES.values())}"
        )
    allowed = COMMON_TYPES | (OCTOPLUS_TYPES if deck is DeckKind.OCTOPLUS else OKTRIS_TYPES)
    if kind not in allowed:
        raise EventFormatError(f"event type {kind!r} does not belong to a {deck.value} game")
    meta: dict[str, Any] = {
        "seq": _int(data, "seq", default=0, low=0),
        "source": source if source is not None else _source(data.get("source", "manual")),
        "note": _text(data, "note", default=""),
    }
    if kind == "turnup":
        return TurnUp(_octo(_card_text(data.get("card"), "card"), deck), **meta)
    if kind in ("play", "reveal"):
        cards = tuple(_octo(text, deck) for text in _card_list(data, allow_empty=kind == "reveal"))
        seat = _int(data, "seat", low=1)
        return Play(seat, cards, **meta) if kind == "play" else Reveal(seat, cards, **meta)
    if kind == "give":
        return Give(_int(data, "seat", low=1), _int(data, "to", low=1), **meta)
    if kind == "take_chain":
        return TakeChain(_int(data, "seat", low=1), **meta)
    if kind == "trick":
        return Trick(tuple(_std(text, deck) for text in _card_list(data, allow_empty=False)), **meta)
    if kind == "undone":
        return Undone(_int(data, "target", low=1), **meta)
    reason = _text(data, "reason", default=None)
    if not reason.strip():
        raise EventFormatError("an adjustment needs a reason")
    return Adjust(_int(data, "seat", low=1), _int(data, "points", low=-999, high=999), reason.strip(), **meta)


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _int(
    data: Mapping[str, Any], name: str, *, default: int | None = None, low: int, high: int = 10**9
) -> int:
    value = data.get(name, default)
    if value is None:
        raise EventFormatError(f"missing field {name!r}")
    if isinstance(value, bool) or not isinstance(value, int):
        raise EventFormatError(f"field {name!r} must be a whole number, got {_show(value)}")
    if not low <= value <= high:
        raise EventFormatError(f"field {name!r} must be between {low} and {high}, got {value}")
    return value


def _text(data: Mapping[str, Any], name: str, *, default: str | None) -> str:
    value = data.get(name, default)
    if value is None:
        raise EventFormatError(f"missing field {name!r}")
    if not isinstance(value, str):
        raise EventFormatError(f"field {name!r} must be text, got {_show(value)}")
    if len(value) > MAX_NOTE:
        raise EventFormatError(f"field {name!r} is longer than {MAX_NOTE} characters")
    return value


def _source(value: object) -> Source:
    try:
        return Source(value)
    except ValueError:
        raise EventFormatError(f"field 'source' must be 'manual' or 'scanner', got {_show(value)}") from None


def _card_text(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise EventFormatError(f"field {name!r} must be a card as text, got {_show(value)}")
    return value


def _card_list(data: Mapping[str, Any], *, allow_empty: bool) -> list[str]:
    value = data.get("cards")
    if not isinstance(value, list):
        raise EventFormatError(f"field 'cards' must be a list of cards, got {_show(value)}")
    if not value and not allow_empty:
        raise EventFormatError("field 'cards' must name at least one card")
    if len(value) > MAX_CARDS:
        raise EventFormatError(f"field 'cards' holds more than {MAX_CARDS} cards")
    return [_card_text(item, "cards") for item in value]


def _octo(text: str, deck: DeckKind) -> OctoCard:
    card = _parse(text, deck)
    assert isinstance(card, OctoCard)
    return card


def _std(text: str, deck: DeckKind) -> StdCard:
    card = _parse(text, deck)
    assert isinstance(card, StdCard)
    return card


def _parse(text: str, deck: DeckKind) -> OctoCard | StdCard:
    try:
        return parse_card(text, deck)
    except NotationError as error:
        raise EventFormatError(str(error)) from None
