"""Template folders: the shipped sets, saving and loading, and clear errors."""

from __future__ import annotations

import logging
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.faces import render_face
from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH
from scanner.templates import (
    MANIFEST,
    TemplateError,
    Templates,
    decoy_cards,
    expected_cards,
    in_deck,
)
from scanner.types import Image
from scorer.cards import Card, DeckKind, OctoCard, StdCard


def blank(value: int = 240) -> Image:
    return np.full((CARD_HEIGHT, CARD_WIDTH, 3), value, np.uint8)


@pytest.mark.parametrize("deck", list(DeckKind))
def test_shipped_templates_cover_every_card_of_the_deck(deck: DeckKind) -> None:
    templates = Templates.builtin(deck)
    assert templates.deck is deck
    assert templates.missing() == ()
    assert set(templates.cards) == set(expected_cards(deck)) | set(decoy_cards(deck))
    assert templates.source == f"builtin:{deck.value}"


def test_only_nine_to_king_are_oktris_decoys() -> None:
    assert all(in_deck(card, DeckKind.OKTRIS) for card in expected_cards(DeckKind.OKTRIS))
    assert not any(in_deck(card, DeckKind.OKTRIS) for card in decoy_cards(DeckKind.OKTRIS))
    assert in_deck(OctoCard.number(9), DeckKind.OCTOPLUS)
    assert decoy_cards(DeckKind.OCTOPLUS) == ()


def test_save_then_load_gives_the_same_images(tmp_path: Path) -> None:
    plus2 = OctoCard.parse("+2")
    faces: dict[Card, tuple[Image, ...]] = {OctoCard.number(3): (blank(10), blank(20)), plus2: (blank(30),)}
    Templates(DeckKind.OCTOPLUS, faces).save(tmp_path / "t")
    loaded = Templates.load(tmp_path / "t", DeckKind.OCTOPLUS)
    assert loaded.cards == (OctoCard.number(3), plus2)
    assert len(loaded) == 3
    for card, images in faces.items():
        assert [int(image[0, 0, 0]) for image in loaded.faces[card]] == [int(i[0, 0, 0]) for i in images]


def test_missing_cards_are_named_in_a_warning_not_an_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    Templates(DeckKind.OKTRIS, {StdCard.parse("7H"): (blank(),)}).save(tmp_path)
    with caplog.at_level(logging.WARNING, logger="scanner.templates"):
        loaded = Templates.load(tmp_path)
    assert loaded.cards == (StdCard.parse("7H"),)
    assert len(loaded.missing()) == 31
    assert "31 card(s)" in caplog.text
    assert "AS" in caplog.text and "8C" in caplog.text and "7H" not in caplog.text.split(":")[-1]


def test_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(TemplateError, match="does not exist"):
        Templates.load(tmp_path / "nowhere")


def test_a_folder_without_manifest_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(TemplateError, match=MANIFEST):
        Templates.load(tmp_path)


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        ("version = 1\ndeck = [", "cannot read"),
        ('version = 9\ndeck = "oktris"\ncard_width = 200\ncard_height = 280\n', "unsupported version 9"),
        ('version = 1\ndeck = "oktris"\ncard_width = 100\ncard_height = 280\n', "card size"),
        ('version = 1\ndeck = "poker"\ncard_width = 200\ncard_height = 280\n', "unknown deck"),
        ('version = 1\ndeck = "oktris"\ncard_width = 200\ncard_height = 280\n', r"no \[cards\]"),
        (
            'version = 1\ndeck = "oktris"\ncard_width = 200\ncard_height = 280\n[cards]\nZZ = ["a.png"]\n',
            "not a standard card",
        ),
        (
            'version = 1\ndeck = "oktris"\ncard_width = 200\ncard_height = 280\n[cards]\nAS = ["a.png"]\n',
            "a.png' does not exist",
        ),
    ],
    ids=["corrupt", "version", "size", "deck", "no-cards", "bad-label", "missing-image"],
)
def test_a_bad_manifest_says_what_is_wrong(tmp_path: Path, manifest: str, message: str) -> None:
    (tmp_path / MANIFEST).write_text(manifest, encoding="utf-8")
    with pytest.raises(TemplateError, match=message):
        Templates.load(tmp_path)


def test_an_undecodable_or_wrong_size_image_is_a_clear_error(tmp_path: Path) -> None:
    Templates(DeckKind.OKTRIS, {StdCard.parse("AS"): (blank(),)}).save(tmp_path)
    (tmp_path / "AS.png").write_bytes(b"not a png")
    with pytest.raises(TemplateError, match="cannot be decoded"):
        Templates.load(tmp_path)
    cv2.imwrite(str(tmp_path / "AS.png"), np.zeros((10, 10, 3), np.uint8))
    with pytest.raises(TemplateError, match="200x280"):
        Templates.load(tmp_path)


def test_loading_for_another_deck_is_refused(tmp_path: Path) -> None:
    Templates(DeckKind.OKTRIS, {StdCard.parse("AS"): (blank(),)}).save(tmp_path)
    with pytest.raises(TemplateError, match="oktris deck, not of the octoplus"):
        Templates.load(tmp_path, DeckKind.OCTOPLUS)


def test_templates_refuse_foreign_cards_and_bad_images() -> None:
    with pytest.raises(TemplateError, match="not a card of the oktris deck"):
        Templates(DeckKind.OKTRIS, {OctoCard.number(3): (blank(),)})
    with pytest.raises(TemplateError, match="200x280"):
        Templates(DeckKind.OKTRIS, {StdCard.parse("AS"): (np.zeros((5, 5, 3), np.uint8),)})
    with pytest.raises(TemplateError, match="no card templates"):
        Templates(DeckKind.OKTRIS, {})


@pytest.mark.parametrize("deck", list(DeckKind))
def test_shipped_templates_are_the_current_rendered_faces(deck: DeckKind) -> None:
    """A change of the faces must be followed by ``python -m tools.make_templates``."""
    for card, images in Templates.builtin(deck).faces.items():
        rendered = render_face(card, CARD_WIDTH, CARD_HEIGHT).astype(np.int16)
        assert int(np.abs(images[0].astype(np.int16) - rendered).max()) <= 2, f"{card} is stale"
