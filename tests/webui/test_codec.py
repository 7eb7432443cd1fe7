"""Events as JSON: every event type round-trips, and malformed objects are refused with a clear message."""

from __future__ import annotations

import pytest

from scorer.cards import MINUS2, PASS, PLUS2, DeckKind, OctoCard, StdCard
from scorer.events import Adjust, Event, Give, Play, Reveal, Source, TakeChain, Trick, TurnUp, Undone
from webui.codec import EventFormatError, event_from_json, event_to_json

OCTO_EVENTS: list[Event] = [
    TurnUp(OctoCard.number(5), seq=1),
    Play(2, (OctoCard.number(3), MINUS2), seq=2, source=Source.SCANNER, note="seen twice"),
    Play(1, (PLUS2,), seq=3),
    Play(1, (PASS,), seq=4),
    Give(1, 3, seq=5),
    TakeChain(2, seq=6),
    Reveal(3, (), seq=7),
    Reveal(3, (OctoCard.number(7), PASS), seq=8),
    Undone(4, seq=9),
    Adjust(2, -5, "miscount", seq=10),
]


@pytest.mark.parametrize("event", OCTO_EVENTS, ids=lambda e: type(e).__name__)
def test_octoplus_events_round_trip_through_json(event: Event) -> None:
    assert event_from_json(event_to_json(event), DeckKind.OCTOPLUS) == event


def test_oktris_trick_round_trips_through_json() -> None:
    trick = Trick((StdCard.parse("8C"), StdCard.parse("AH"), StdCard.parse("5S")), seq=3)
    assert event_from_json(event_to_json(trick), DeckKind.OKTRIS) == trick


def test_source_override_keeps_people_from_posing_as_the_scanner() -> None:
    body = {"type": "play", "seat": 1, "cards": ["3"], "source": "scanner"}
    assert event_from_json(body, DeckKind.OCTOPLUS, source=Source.MANUAL).source is Source.MANUAL


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ([1, 2], "JSON object"),
        ({"type": "fly"}, "unknown event type"),
        ({"type": "trick", "cards": ["8C", "AH"]}, "does not belong to a octoplus game"),
        ({"type": "play", "cards": ["3"]}, "missing field 'seat'"),
        ({"type": "play", "seat": "1", "cards": ["3"]}, "'seat' must be a whole number"),
        ({"type": "play", "seat": True, "cards": ["3"]}, "'seat' must be a whole number"),
        ({"type": "play", "seat": 0, "cards": ["3"]}, "between 1"),
        ({"type": "play", "seat": 1, "cards": "3"}, "list of cards"),
        ({"type": "play", "seat": 1, "cards": []}, "at least one card"),
        ({"type": "play", "seat": 1, "cards": ["3H"]}, "not an Octoplus card"),
        ({"type": "play", "seat": 1, "cards": [3]}, "card as text"),
        ({"type": "adjust", "seat": 1, "points": 4, "reason": "  "}, "needs a reason"),
        ({"type": "adjust", "seat": 1, "points": 4000, "reason": "x"}, "between -999 and 999"),
        ({"type": "play", "seat": 1, "cards": ["3"], "note": "x" * 201}, "longer than 200"),
        ({"type": "play", "seat": 1, "cards": ["3"], "source": "robot"}, "'source'"),
    ],
)
def test_malformed_octoplus_objects_name_the_problem(body: object, words: str) -> None:
    with pytest.raises(EventFormatError, match=words):
        event_from_json(body, DeckKind.OCTOPLUS)


def test_oktris_card_outside_the_notation_is_refused() -> None:
    with pytest.raises(EventFormatError, match="unknown rank"):
        event_from_json({"type": "trick", "cards": ["8C", "ZZ"]}, DeckKind.OKTRIS)


def test_too_many_cards_are_refused() -> None:
    with pytest.raises(EventFormatError, match="more than 40"):
        event_from_json({"type": "reveal", "seat": 1, "cards": ["1"] * 41}, DeckKind.OCTOPLUS)
