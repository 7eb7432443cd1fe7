"""Spade or club: the pip-by-pip check of ``scanner.identify_suit``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scanner.faces import render_face
from scanner.find import warp_card
from scanner.identify import identify
from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH, IdentifyParams
from scanner.identify_suit import symbol_lead
from scanner.params import FindParams
from scanner.templates import Templates
from scanner.types import Image
from scorer.cards import DeckKind, StdCard, Suit, parse_card

PARAMS = IdentifyParams()
BLACK = [StdCard(rank, suit) for rank in range(1, 9) for suit in (Suit.SPADES, Suit.CLUBS)]
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "scenes"


def blurred(card: StdCard, sigma: float = 1.5) -> Image:
    image = render_face(card, CARD_WIDTH, CARD_HEIGHT)
    return np.asarray(cv2.GaussianBlur(image, (0, 0), sigma), dtype=np.uint8)


def test_the_symbols_of_a_spade_lead_the_clubs_and_of_a_club_trail_them() -> None:
    templates = Templates.builtin(DeckKind.OKTRIS)
    for card in BLACK:
        spade, club = StdCard(card.rank, Suit.SPADES), StdCard(card.rank, Suit.CLUBS)
        for image in (blurred(card), np.ascontiguousarray(blurred(card)[::-1, ::-1])):
            found = symbol_lead(image, spade, club, templates, PARAMS)
            assert found is not None
            lead, fit = found
            assert fit >= PARAMS.suit_fit, (card, fit)
            assert (lead > 0) == (card.suit is Suit.SPADES), (card, lead)


def test_cards_without_a_template_have_no_lead() -> None:
    templates = Templates.builtin(DeckKind.OKTRIS)
    spade_only = Templates(DeckKind.OKTRIS, {StdCard.parse("6S"): templates.faces[StdCard.parse("6S")]})
    assert (
        symbol_lead(
            blurred(StdCard.parse("6S")), StdCard.parse("6S"), StdCard.parse("6C"), spade_only, PARAMS
        )
        is None
    )


def _black_fixture_cards() -> Iterator[tuple[str, StdCard, dict[str, Any], Image]]:
    """Every spade and club of the Oktris scene fixtures: its scene's file, its card, its truth
    entry and the card cut out at its true corners."""
    doc = json.loads((FIXTURES / "truth.json").read_text(encoding="utf-8"))
    for scene in doc["scenes"]:
        if scene["deck"] != DeckKind.OKTRIS.value:
            continue
        image = np.asarray(cv2.imread(str(FIXTURES / scene["file"]), cv2.IMREAD_COLOR), dtype=np.uint8)
        for card in scene["cards"]:
            truth = parse_card(card["card"], DeckKind.OKTRIS)
            if not (isinstance(truth, StdCard) and not truth.suit.is_red):
                continue
            corners = tuple((float(x), float(y)) for x, y in card["corners"])
            yield scene["file"], truth, card, warp_card(image, corners, FindParams())  # type: ignore[arg-type]


def test_whole_black_cards_of_the_scene_fixtures_are_told_apart_or_left_open_never_swapped() -> None:
    """Spades and clubs that show their whole face, cut out at their true corners: the check's
    two thresholds decide many of them and never for the other suit."""
    templates = Templates.builtin(DeckKind.OKTRIS)
    decided = swapped = seen = 0
    for _, truth, card, warped in _black_fixture_cards():
        if not (truth.rank <= 8 and card["top"] and card["visible_fraction"] > 0.97):
            continue
        found = symbol_lead(
            warped, StdCard(truth.rank, Suit.SPADES), StdCard(truth.rank, Suit.CLUBS), templates, PARAMS
        )
        if found is None or found[1] < PARAMS.suit_fit:
            continue
        seen += 1
        named = (
            Suit.SPADES
            if found[0] >= PARAMS.spade_lead
            else Suit.CLUBS
            if found[0] <= PARAMS.club_lead
            else None
        )
        decided += named is not None
        swapped += named is not None and named is not truth.suit
    assert seen >= 10
    assert swapped == 0
    assert decided >= seen // 3, (decided, seen)


def test_identify_names_close_spade_club_calls_of_the_fixtures_by_their_pips_and_never_wrongly() -> None:
    """Black cards of the scene fixtures cut out at their true corners: with the check, the
    identifier names some that it leaves open without it, each right, its runner-up the other
    suit of that rank; it never changes a card the other rules name."""
    templates = Templates.builtin(DeckKind.OKTRIS)
    off = replace(PARAMS, club_lead=1.0)
    added = 0
    for file, truth, card, warped in _black_fixture_cards():
        if not card["identifiable"]:
            continue
        without, with_check = identify(warped, templates, off), identify(warped, templates, PARAMS)
        if without.card is not None:
            assert with_check.card == without.card
            continue
        if with_check.card is None:
            continue
        added += 1
        assert with_check.card == truth, (file, truth, with_check)
        assert with_check.runner_up == StdCard(
            truth.rank, Suit.CLUBS if truth.suit is Suit.SPADES else Suit.SPADES
        )
    assert added >= 1
