"""Guided capture of the user's deck on recorded frames: card by card, held still, taken away;
templates learned from the captures identify the fixture cards."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from calibration_fixtures import image, truth

from calibration.capture import (
    CaptureError,
    CaptureParams,
    CaptureSession,
    Step,
    clean_corners,
    combine,
)
from calibration.table import find_play_area
from calibration.validation import validate
from scanner.find import find_cards, warp_card
from scanner.identify import Identification, identify
from scanner.params import FindParams
from scanner.scenes import PlacedCard, Scene, render
from scanner.templates import Templates
from scanner.types import Image
from scorer.cards import DeckKind, parse_card

TRUTH = truth()
DECK = DeckKind(TRUTH["deck"])
PER_CARD = TRUTH["captures_per_card"]


def frames_of(card: str) -> list[Image]:
    return [image(r["image"]) for r in TRUTH["captures"] if r["card"] == card]


@pytest.fixture(scope="module")
def empty() -> Image:
    return image("capture/empty.jpg")


def session_for(cards: list[str], empty: Image, **params: Any) -> CaptureSession:
    return CaptureSession(
        DECK,
        cards=tuple(parse_card(c, DECK) for c in cards),
        params=CaptureParams(**params),
        area=find_play_area(empty),
    )


def play(session: CaptureSession, frames: list[Image], empty: Image, still: int = 2) -> list[Step]:
    """Each frame held ``still`` times; the table cleared whenever the session asks for it."""
    steps = []
    for frame in frames:
        for _ in range(still):
            steps.append(session.offer(frame))
        if steps[-1] is Step.CARD_DONE:
            steps.append(session.offer(empty))
    return steps


@pytest.fixture(scope="module")
def whole_deck(empty: Image) -> CaptureSession:
    session = CaptureSession(DECK, area=find_play_area(empty))
    for record in TRUTH["captures"]:
        assert str(session.current) == record["card"], "the session asks for the cards in deck order"
        play(session, [image(record["image"])], empty)
    return session


def test_one_card_is_captured_when_held_still_then_the_table_must_be_cleared(empty: Image) -> None:
    session = session_for(["AS", "AH"], empty)
    steps = play(session, frames_of("AS"), empty)
    assert steps == [
        Step.MOVING,
        Step.CAPTURED,
        Step.MOVING,
        Step.CAPTURED,
        Step.MOVING,
        Step.CARD_DONE,
        Step.NO_CARD,
    ]
    assert str(session.current) == "AH"
    assert len(session.captures[parse_card("AS", DECK)]) == PER_CARD


def test_a_card_that_does_not_hold_still_is_not_captured(empty: Image) -> None:
    session = session_for(["AS"], empty)
    a, b, _ = frames_of("AS")
    assert [session.offer(a), session.offer(b), session.offer(a)] == [Step.MOVING] * 3
    assert session.captures == {}


def test_a_second_capture_needs_the_card_moved_a_little(empty: Image) -> None:
    session = session_for(["AS"], empty)
    a = frames_of("AS")[0]
    assert [session.offer(a) for _ in range(4)] == [Step.MOVING, Step.CAPTURED, Step.MOVING, Step.MOVE_A_BIT]


def test_the_next_card_waits_until_the_last_one_is_taken_away(empty: Image) -> None:
    session = session_for(["AS", "AH"], empty, captures_per_card=1)
    a = frames_of("AS")[0]
    assert [session.offer(a), session.offer(a), session.offer(a)] == [
        Step.MOVING,
        Step.CARD_DONE,
        Step.REMOVE_CARD,
    ]
    assert str(session.current) == "AS"
    assert session.offer(empty) is Step.NO_CARD
    assert str(session.current) == "AH"


def test_two_cards_at_once_are_refused() -> None:
    cards = tuple(
        PlacedCard(parse_card(label, DECK), (x, 135.0), 5.0) for label, x in (("AS", 140.0), ("8D", 340.0))
    )
    two, _ = render(Scene(cards=cards, card_px=120.0, width=480, height=270), np.random.default_rng(0))
    session = CaptureSession(DECK, cards=(parse_card("AS", DECK),))
    assert session.offer(two) is Step.SEVERAL_CARDS
    assert session.captures == {}


def test_a_skipped_card_gets_no_template_and_counts_as_done(empty: Image) -> None:
    session = session_for(["AS", "AH"], empty, captures_per_card=1)
    session.skip()
    assert str(session.current) == "AH"
    assert session.progress().done == 1
    play(session, frames_of("AH")[:1], empty)
    assert session.finished
    assert session.progress().fraction == 1.0
    assert session.learn().cards == (parse_card("AH", DECK),)


def test_nothing_captured_means_nothing_to_learn(empty: Image) -> None:
    with pytest.raises(CaptureError, match="no card was captured"):
        session_for(["AS"], empty).learn()


def test_a_card_of_another_deck_is_refused() -> None:
    with pytest.raises(CaptureError, match="not a card of the octoplus deck"):
        CaptureSession(DeckKind.OCTOPLUS, cards=(parse_card("7H", DeckKind.OKTRIS),))


def test_the_learned_set_holds_one_template_per_card(whole_deck: CaptureSession) -> None:
    templates = whole_deck.learn()
    assert set(templates.cards) == set(whole_deck.captures)
    assert all(len(images) == 1 for images in templates.faces.values())


def test_the_whole_deck_is_captured_with_a_progress_bar_to_the_end(whole_deck: CaptureSession) -> None:
    assert whole_deck.finished
    progress = whole_deck.progress()
    assert (progress.done, progress.total, progress.card) == (PER_CARD * 32, PER_CARD * 32, None)
    assert all(len(images) == PER_CARD for images in whole_deck.captures.values())


def test_the_medoid_of_the_captures_comes_first_turned_like_the_others() -> None:
    a, b, c = (warp(f) for f in frames_of("7D"))
    medoid = combine([a, b, c])
    assert any(np.array_equal(medoid, x) or np.array_equal(medoid, np.rot90(x, 2)) for x in (a, b, c))


def warp(frame: Image) -> Image:
    found = find_cards(frame, FindParams())
    return warp_card(frame, found[0].corners, FindParams())


def test_clean_corners_paints_the_table_past_the_rounded_corners_in_paper_colour() -> None:
    card = np.full((280, 200, 3), 240, np.uint8)
    card[:6, :6] = (30, 120, 30)  # cloth seen past the top-left corner
    cleaned = clean_corners(card)
    assert (cleaned[:6, :6] == 240).all()
    assert np.array_equal(cleaned[100:180, 50:150], card[100:180, 50:150])


def test_validation_reports_every_card_with_its_confidence(whole_deck: CaptureSession) -> None:
    templates = whole_deck.learn()
    report = validate(templates, whole_deck.captures)
    assert len(report.cards) == 32
    assert report.missing == ()
    assert all(0.0 <= c.confidence <= 1.0 and c.captures == PER_CARD for c in report.cards)
    assert all(c.runner_up != c.card for c in report.cards)
    assert report.accuracy == sum(c.correct for c in report.cards) / (32 * PER_CARD)


def test_cards_too_alike_are_reported_as_pairs() -> None:
    seven = [warp(f) for f in frames_of("7D")]
    templates = Templates(DECK, {parse_card("7D", DECK): (seven[0],), parse_card("7H", DECK): (seven[0],)})
    report = validate(templates, {parse_card("7D", DECK): seven[1:]})
    assert {frozenset((str(a), str(b))) for a, b, _ in report.alike} == {frozenset(("7D", "7H"))}
    assert not report.ok


@pytest.fixture(scope="module")
def readings(whole_deck: CaptureSession) -> list[tuple[str, Identification]]:
    """Every evaluation card (each card of the deck once, in other light) read with the learned templates."""
    templates = whole_deck.learn()
    out = []
    for record in TRUTH["evaluation"]:
        frame = image(record["image"])
        found = find_cards(frame, FindParams())
        for card in record["cards"]:
            centre = np.mean(card["corners"], axis=0)
            nearest = min(found, key=lambda f: float(np.linalg.norm(np.mean(f.corners, axis=0) - centre)))
            out.append((card["card"], identify(warp_card(frame, nearest.corners, FindParams()), templates)))
    return out


def test_templates_learned_from_the_captures_identify_the_fixture_cards(
    readings: list[tuple[str, Identification]],
) -> None:
    right = sum(str(answer.card) == label for label, answer in readings)
    assert right / len(readings) >= 0.99


def test_templates_learned_from_the_captures_never_name_a_card_wrongly(
    readings: list[tuple[str, Identification]],
) -> None:
    wrong = [(label, str(a.card)) for label, a in readings if a.card is not None and str(a.card) != label]
    assert len(readings) == 32
    assert wrong == []


def test_templates_learned_from_the_captures_rank_the_right_card_first(
    readings: list[tuple[str, Identification]],
) -> None:
    first = sum(str(answer.candidate) == label for label, answer in readings)
    assert first / len(readings) >= 0.96
