"""Learning templates from labelled photos, and ``octotable calibrate templates``."""

from __future__ import annotations

import csv
import logging
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from calibration.templates import (
    LabelsError,
    LearnParams,
    Photo,
    combine,
    compose_other_deck,
    learn_templates,
    other_deck_photos,
    read_labels,
)
from scanner.faces import render_face
from scanner.identify import identify
from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH
from scanner.params import ScannerParams
from scanner.templates import TemplateError, Templates
from scanner.types import Image
from scorer.cards import Card, DeckKind, OctoCard, StdCard
from webui.cli import main

PARAMS = ScannerParams()


def face(card: Card) -> Image:
    return render_face(card, CARD_WIDTH, CARD_HEIGHT)


def shot(card: Card, rng: np.random.Generator, turned: bool = False) -> Image:
    """A canonical card as a camera would give it: slightly off, shaded, blurred and noisy."""
    h, w = CARD_HEIGHT, CARD_WIDTH
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    src = (dst + 15 + rng.uniform(-4, 4, (4, 2))).astype(np.float32)
    big = cv2.copyMakeBorder(face(card), 15, 15, 15, 15, cv2.BORDER_CONSTANT, value=(60, 90, 50))
    warped = cv2.warpPerspective(big, cv2.getPerspectiveTransform(src, dst), (w, h)).astype(np.float32)
    warped *= rng.uniform(0.7, 1.05)
    warped = cv2.GaussianBlur(warped, (0, 0), 0.8) + rng.normal(0, 5, warped.shape)
    image = np.clip(warped, 0, 255).astype(np.uint8)
    return np.ascontiguousarray(image[::-1, ::-1]) if turned else image


def write_set(folder: Path, photos: list[tuple[str, Image | bytes]]) -> Path:
    """Write photos and a labels CSV (``file,label``) listing them; returns the CSV."""
    folder.mkdir(parents=True, exist_ok=True)
    labels = folder / "labels.csv"
    with labels.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["file", "label", "note"])
        for number, (label, image) in enumerate(photos):
            name = f"photos/{number:03d}.png"
            (folder / "photos").mkdir(exist_ok=True)
            if isinstance(image, bytes):
                (folder / name).write_bytes(image)
            else:
                cv2.imwrite(str(folder / name), image)
            writer.writerow([name, label, "x"])
    return labels


def test_a_learned_set_reads_new_shots_of_the_same_deck(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    cards = [StdCard.parse(t) for t in ("AS", "3H", "5D", "7C", "8S", "2H")]
    photos: list[tuple[str, Image | bytes]] = [
        (str(c), shot(c, rng, turned=i % 2 == 1)) for c in cards for i in range(3)
    ]
    labels = write_set(tmp_path, photos)
    report = learn_templates(labels, DeckKind.OKTRIS, tmp_path / "out")
    loaded = Templates.load(report.folder, DeckKind.OKTRIS)
    # the photographed cards, and the cards composed of their ranks and suits (5H: the 5D's
    # rank, the 3H's or 2H's heart; 4x and 6x: no 4 or 6 photographed, so none)
    assert set(loaded.cards) == set(cards) | set(report.composed)
    assert not set(cards) & set(report.composed)
    assert {StdCard.parse(t) for t in ("5H", "AH", "7S", "3C")} <= set(report.composed)
    assert not any(isinstance(c, StdCard) and c.rank in (4, 6) for c in report.composed)
    assert all(len(r.kept) == 3 and not r.rejected for r in report.cards)
    for card in [*cards, *report.composed]:
        answer = identify(shot(card, rng), loaded, PARAMS.identify)
        assert answer.card == card, f"{card}: {answer}"


def test_a_cut_out_unlike_the_other_cards_of_its_suit_and_rank_is_dropped(tmp_path: Path) -> None:
    rng = np.random.default_rng(11)
    blots = np.full((CARD_HEIGHT, CARD_WIDTH, 3), 215, np.uint8)  # dark blots on paper: no card
    for _ in range(14):
        centre = (int(rng.integers(0, CARD_WIDTH)), int(rng.integers(0, CARD_HEIGHT)))
        cv2.circle(blots, centre, int(rng.integers(8, 22)), (60, 60, 60), -1)
    blots = np.asarray(cv2.GaussianBlur(blots, (0, 0), 2), dtype=np.uint8)
    photos: list[tuple[str, Image | bytes]] = [
        (label, shot(StdCard.parse(label), rng)) for label in ("AS", "8S", "7C", "3D")
    ]
    photos.append(("7S", blots))
    report = learn_templates(write_set(tmp_path, photos), DeckKind.OKTRIS, tmp_path / "out")
    reasons = {path.name: why for path, why in report.skipped}
    # the blots match neither the spades (which match each other) nor the 7C; the 7C, whose
    # only peer is the blots, is kept
    assert set(reasons) == {"004.png"}, reasons
    assert "matches no other card of its suit or rank" in reasons["004.png"]
    assert [str(r.card) for r in report.cards] == ["AS", "8S", "7C", "3D"]
    # the 7S is composed instead, from the 7C's rank and the spades' suit
    assert StdCard.parse("7S") in report.composed


def test_one_bad_photo_cannot_spoil_a_card(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    card, other = StdCard.parse("6H"), StdCard.parse("2C")
    good = [shot(card, rng) for _ in range(3)]
    blurred = np.asarray(cv2.GaussianBlur(shot(card, rng), (0, 0), 9), dtype=np.uint8)
    photos: list[tuple[str, Image | bytes]] = [
        ("6H", good[0]),
        ("6H", shot(other, rng)),
        ("6H", good[1]),
        ("6H", blurred),
        ("6H", good[2]),
    ]
    labels = write_set(tmp_path, photos)
    report = learn_templates(labels, DeckKind.OKTRIS, tmp_path / "out")
    (only,) = report.cards
    rejected = {p.name for p in only.rejected}
    assert rejected == {"001.png", "003.png"}, rejected
    assert only.kept[0].name in {"000.png", "002.png", "004.png"}
    templates = Templates.load(report.folder)
    for image in templates.faces[card]:
        assert (
            identify(face(card), Templates(DeckKind.OKTRIS, {card: (image,)}), PARAMS.identify).confidence
            > 0.8
        )


def test_of_two_disagreeing_photos_the_better_found_is_kept() -> None:
    rng = np.random.default_rng(3)
    card = StdCard.parse("4S")
    good = Photo(Path("good.png"), card, shot(card, rng), quality=0.9)
    bad = Photo(Path("bad.png"), card, shot(StdCard.parse("8D"), rng), quality=0.4)
    for order in ([good, bad], [bad, good]):
        kept, rejected, _ = combine(order, DeckKind.OKTRIS, PARAMS, LearnParams())
        assert [p.path.name for p in kept] == ["good.png"]
        assert [p.path.name for p in rejected] == ["bad.png"]


def test_octoplus_templates_are_stored_upright(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    five = OctoCard.number(5)
    labels = write_set(tmp_path, [("5", shot(five, rng, turned=True)) for _ in range(3)])
    report = learn_templates(labels, DeckKind.OCTOPLUS, tmp_path / "out")
    learned = Templates.load(report.folder, DeckKind.OCTOPLUS)
    for image in learned.faces[five]:
        answer = identify(face(five), Templates(DeckKind.OCTOPLUS, {five: (image,)}), PARAMS.identify)
        assert not answer.turned


def test_cards_without_photos_are_reported_and_warned(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    rng = np.random.default_rng(5)
    labels = write_set(tmp_path, [("AS", shot(StdCard.parse("AS"), rng))])
    with caplog.at_level(logging.WARNING):
        report = learn_templates(labels, DeckKind.OKTRIS, tmp_path / "out")
    assert len(report.missing) == 31
    assert "8C" in caplog.text


def test_unreadable_photos_and_photos_without_a_card_are_skipped(tmp_path: Path) -> None:
    rng = np.random.default_rng(6)
    plain = np.full((480, 640, 3), 90, np.uint8)
    photos: list[tuple[str, Image | bytes]] = [
        ("2D", shot(StdCard.parse("2D"), rng)),
        ("3D", b"not an image"),
        ("4D", plain),
    ]
    report = learn_templates(write_set(tmp_path, photos), DeckKind.OKTRIS, tmp_path / "out")
    reasons = {path.name: why for path, why in report.skipped}
    assert reasons == {"001.png": "cannot be read as an image", "002.png": "no card found"}
    assert [r.card for r in report.cards] == [StdCard.parse("2D")]


def test_cut_outs_showing_no_card_face_are_skipped(tmp_path: Path) -> None:
    rng = np.random.default_rng(10)
    h, w = CARD_HEIGHT, CARD_WIDTH
    wall = np.zeros((h, w, 3), np.uint8)
    wall[:] = np.linspace(150, 210, w, dtype=np.uint8)[None, :, None]  # a shaded wall...
    specks = rng.random((h, w)) < 0.01
    wall[specks] = 20  # ...with specks of noise
    skin = np.clip(rng.normal((120, 150, 200), 25, (h, w, 3)), 0, 255).astype(np.uint8)  # texture
    skin = np.asarray(cv2.GaussianBlur(skin, (0, 0), 6), dtype=np.uint8)
    photos: list[tuple[str, Image | bytes]] = [
        ("AS", wall),
        ("2S", skin),
        ("3S", shot(StdCard.parse("3S"), rng)),
    ]
    report = learn_templates(write_set(tmp_path, photos), DeckKind.OKTRIS, tmp_path / "out")
    reasons = {path.name: why for path, why in report.skipped}
    assert set(reasons) == {"000.png", "001.png"}, reasons
    assert all("no card face" in why for why in reasons.values())
    assert [r.card for r in report.cards] == [StdCard.parse("3S")]


CANONICAL = np.array([[0, 0], [CARD_WIDTH, 0], [CARD_WIDTH, CARD_HEIGHT], [0, CARD_HEIGHT]], dtype=np.float32)


def on_table(card: StdCard, corners: npt.NDArray[np.floating], seed: int) -> Image:
    """An 800x600 photo of ``card``'s face laid with its corners (TL TR BR BL) at ``corners``
    on green felt, with a little sensor noise."""
    photo = np.full((600, 800, 3), (40, 70, 30), np.uint8)
    to_photo = cv2.getPerspectiveTransform(CANONICAL, np.asarray(corners, np.float32))
    warped = cv2.warpPerspective(face(card), to_photo, (800, 600))
    mask = cv2.warpPerspective(np.full((CARD_HEIGHT, CARD_WIDTH), 255, np.uint8), to_photo, (800, 600))
    photo[mask > 0] = warped[mask > 0]
    noise = np.random.default_rng(seed).normal(0, 3, photo.shape)
    return np.clip(photo + noise, 0, 255).astype(np.uint8)


def test_a_card_is_cut_out_of_a_table_photo(tmp_path: Path) -> None:
    card = StdCard.parse("7D")
    table = on_table(card, np.array([[300, 150], [520, 170], [500, 480], [270, 455]]), seed=7)
    report = learn_templates(write_set(tmp_path, [("7D", table)]), DeckKind.OKTRIS, tmp_path / "out")
    learned = Templates.load(report.folder)
    assert identify(face(card), learned, PARAMS.identify).confidence > 0.7


def test_a_card_photographed_at_a_slant_is_learned_from_its_nearly_square_outline(tmp_path: Path) -> None:
    card = StdCard.parse("7D")
    # the card squashed to 0.55 along a direction 30 degrees off its sides: a skewed outline
    # about as wide as long (corners of 61 and 119 degrees), no card quad
    turn = np.radians(-30.0)
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    centred = (CANONICAL - CANONICAL.mean(axis=0)) * 1.1
    photo = on_table(card, centred @ (rot @ np.diag([1.0, 0.55]) @ rot.T).T + [400, 300], seed=11)
    labels = write_set(tmp_path, [("7D", photo)])
    report = learn_templates(labels, DeckKind.OKTRIS, tmp_path / "out")
    assert identify(face(card), Templates.load(report.folder), PARAMS.identify).card == card
    # with slanted outlines turned off in the scanner's parameters, lenient outlines still learn
    # it, and without them no card is found
    square_only = replace(PARAMS, find=replace(PARAMS.find, slanted=False))
    again = learn_templates(labels, DeckKind.OKTRIS, tmp_path / "again", params=square_only)
    assert [r.card for r in again.cards] == [card]
    strict = LearnParams(lenient_outlines=False)
    with pytest.raises(TemplateError):
        learn_templates(labels, DeckKind.OKTRIS, tmp_path / "strict", params=square_only, learn=strict)


def test_of_several_outlines_the_one_showing_a_card_face_is_learned(tmp_path: Path) -> None:
    rng = np.random.default_rng(12)
    card = StdCard.parse("7D")
    table = np.full((700, 1000, 3), (40, 70, 30), np.uint8)
    cv2.rectangle(table, (40, 60), (330, 470), (225, 225, 225), -1)  # a larger blank card: a sheet
    small = cv2.resize(face(card), (180, 252))
    table[300:552, 600:780] = small
    table = np.clip(table + rng.normal(0, 3, table.shape), 0, 255).astype(np.uint8)
    labels = write_set(tmp_path, [("7D", table)])
    # the largest alone: the blank sheet (and no look for the card's paper, which finds the 7D)
    alone = LearnParams(candidates=1, paper_below=-1.0)
    with pytest.raises(TemplateError, match="nothing to learn"):
        learn_templates(labels, DeckKind.OKTRIS, tmp_path / "a", learn=alone)
    report = learn_templates(labels, DeckKind.OKTRIS, tmp_path / "b")
    assert not report.skipped and [r.card for r in report.cards] == [card]
    learned = Templates.load(report.folder)
    assert identify(face(card), learned, PARAMS.identify).card == card


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name,card\na.png,AS\n", "needs the columns file,label"),
        ("file,label\na.png,ZZ\n", "line 2"),
        ("file,label\n,AS\n", "file column is empty"),
        ("file,label\n", "lists no photo"),
    ],
)
def test_a_bad_labels_file_says_what_is_wrong(tmp_path: Path, text: str, message: str) -> None:
    labels = tmp_path / "labels.csv"
    labels.write_text(text, encoding="utf-8")
    with pytest.raises(LabelsError, match=message):
        read_labels(labels, DeckKind.OKTRIS)


def test_a_missing_labels_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(LabelsError, match="cannot read"):
        read_labels(tmp_path / "none.csv", DeckKind.OKTRIS)


def test_learning_parameters_are_validated() -> None:
    with pytest.raises(ValueError, match="templates_per_card"):
        LearnParams(templates_per_card=0)
    with pytest.raises(ValueError, match="min_agreement"):
        LearnParams(min_agreement=2.0)
    with pytest.raises(ValueError, match="candidates"):
        LearnParams(candidates=0)
    with pytest.raises(ValueError, match="min_peer_part"):
        LearnParams(min_peer_part=2.0)
    with pytest.raises(ValueError, match="min_likeness"):
        LearnParams(min_likeness=1.5)
    with pytest.raises(ValueError, match="min_contrast"):
        LearnParams(min_contrast=-1.0)
    with pytest.raises(ValueError, match="lenient_outlines"):
        LearnParams(lenient_outlines=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="paper_below"):
        LearnParams(paper_below=1.5)
    with pytest.raises(ValueError, match="other_decks"):
        LearnParams(other_decks=1)  # type: ignore[arg-type]


def test_calibrate_templates_command_writes_a_folder_scan_can_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = np.random.default_rng(8)
    cards = [OctoCard.parse(t) for t in ("1", "2", "3", "4", "5", "6", "7", "+2", "-2", "P")]
    labels = write_set(tmp_path, [(str(c), shot(c, rng)) for c in cards for _ in range(2)])
    out = tmp_path / "learned"
    code = main(["calibrate", "templates", "--deck", "octoplus", "--labels", str(labels), "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert f"to {out}" in printed
    learned = Templates.load(out, DeckKind.OCTOPLUS)
    assert learned.missing() == ()
    for card in cards:
        assert identify(shot(card, rng), learned, PARAMS.identify).card == card


def test_calibrate_templates_command_names_the_composed_cards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = np.random.default_rng(13)
    labels = write_set(tmp_path, [(label, shot(StdCard.parse(label), rng)) for label in ("5H", "AD")])
    out = str(tmp_path / "learned")
    assert (
        main(["calibrate", "templates", "--deck", "oktris", "--labels", labels.as_posix(), "--out", out]) == 1
    )
    printed = capsys.readouterr().out
    assert "composed from learned parts: AH 5D" in printed, printed
    assert "no template for" in printed and " 5D" not in printed.split("no template for")[1]


def test_calibrate_templates_command_reports_missing_cards_and_bad_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = np.random.default_rng(9)
    labels = write_set(tmp_path, [("3", shot(OctoCard.number(3), rng))])
    out = str(tmp_path / "learned")
    assert main(["calibrate", "templates", "--deck", "octoplus", "--labels", str(labels), "--out", out]) == 1
    assert "no template for 1 2 4" in capsys.readouterr().out
    bad = tmp_path / "bad.csv"
    bad.write_text("file,label\nx.png,Q\n", encoding="utf-8")
    assert main(["calibrate", "templates", "--deck", "octoplus", "--labels", str(bad), "--out", out]) == 2
    assert "line 2" in capsys.readouterr().err


def test_oktris_photos_of_nine_to_king_become_decoys(tmp_path: Path) -> None:
    rng = np.random.default_rng(11)
    king, three = StdCard.parse("KH"), StdCard.parse("3H")
    photos: list[tuple[str, Image | bytes]] = [("KH", shot(king, rng)), ("3H", shot(three, rng))]
    report = learn_templates(write_set(tmp_path, photos), DeckKind.OKTRIS, tmp_path / "out")
    learned = Templates.load(report.folder, DeckKind.OKTRIS)
    assert set(learned.cards) == {king, three}
    answer = identify(shot(king, rng), learned, PARAMS.identify)
    assert answer.card is None
    assert answer.candidate == king
    assert identify(shot(three, rng), learned, PARAMS.identify).card == three


def held_before_a_wall(card: StdCard) -> Image:
    """A 1280x720 webcam frame: a white wall, a beige shirt below, and ``card``'s built-in face
    (its paper a little greyer than the wall) held by a hand whose fingers cross its left side;
    blurred a little, with camera noise and dark specks.  The card's side on the wall makes no
    outline of its own."""
    rng = np.random.default_rng(3)
    img = np.full((720, 1280, 3), 252.0, np.float32)
    img[560:] = (120, 160, 185)
    shipped = Templates.builtin(DeckKind.OKTRIS).faces[card][0].astype(np.float32) * 0.93
    short, angle = 150.0, np.radians(6.0)
    half = np.array([[-short, -short * 88 / 63], [short, -short * 88 / 63], [short, short * 88 / 63]])
    half = np.vstack([half, [-short, short * 88 / 63]]) / 2.0
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    quad = half @ turn.T + [600.0, 330.0]
    matrix = cv2.getPerspectiveTransform(CANONICAL, np.asarray(quad, np.float32))
    warped = np.asarray(cv2.warpPerspective(shipped, matrix, (1280, 720)), np.float32)
    inside = cv2.warpPerspective(np.ones((CARD_HEIGHT, CARD_WIDTH), np.float32), matrix, (1280, 720)) > 0.5
    img[inside] = warped[inside]
    left = int(quad[0][0])
    skin = (140, 165, 215)
    cv2.ellipse(img, (left - 90, 380), (70, 120), 0, 0, 360, skin, -1)  # the hand
    for k in range(3):  # its fingers across the card's left side
        cv2.ellipse(img, (left - 20, 300 + 28 * k), (50, 11), -8, 0, 360, skin, -1)
    img = np.asarray(cv2.GaussianBlur(img, (0, 0), 2.5), np.float32)
    img += rng.integers(-3, 4, img.shape).astype(np.float32)
    img[rng.random((720, 1280)) < 0.003] = 40
    return np.clip(img, 0, 255).astype(np.uint8)


def test_a_card_held_before_a_white_wall_is_learned_from_its_paper(tmp_path: Path) -> None:
    card = StdCard.parse("4D")
    labels = write_set(tmp_path, [("4D", held_before_a_wall(card))])
    # the finder's cut-outs are the wall, the shirt and the hand: no card face to learn
    with pytest.raises(TemplateError, match="nothing to learn"):
        learn_templates(labels, DeckKind.OKTRIS, tmp_path / "off", learn=LearnParams(paper_below=-1.0))
    report = learn_templates(labels, DeckKind.OKTRIS, tmp_path / "on")
    assert [r.card for r in report.cards] == [card] and not report.skipped
    learned = Templates.load(report.folder, DeckKind.OKTRIS)
    assert (
        identify(face(card), Templates(DeckKind.OKTRIS, {card: learned.faces[card]}), PARAMS.identify).card
        == card
    )


def test_a_rejected_photo_whose_index_matches_its_peers_is_the_card_in_another_deck() -> None:
    rng = np.random.default_rng(12)
    chosen: dict[Card, list[Image]] = {
        StdCard.parse(t): [shot(StdCard.parse(t), rng)] for t in ("2H", "7H", "4C", "3D")
    }
    blots = np.full((CARD_HEIGHT, CARD_WIDTH, 3), 215, np.uint8)  # a wall cut out round a held card
    for _ in range(14):
        centre = (int(rng.integers(0, CARD_WIDTH)), int(rng.integers(0, CARD_HEIGHT)))
        cv2.circle(blots, centre, int(rng.integers(8, 22)), (60, 60, 60), -1)
    four = StdCard.parse("4H")
    path = Path("x.png")
    real = Photo(path, four, shot(four, rng), 0.0)
    wall = Photo(path, four, np.asarray(cv2.GaussianBlur(blots, (0, 0), 2), np.uint8), 0.0)
    # a 7H labelled 4H matches the hearts too, but the learned cards name it: a wrong label
    mislabelled = Photo(path, four, shot(StdCard.parse("7H"), rng), 0.0)
    learn = LearnParams()
    assert other_deck_photos({four: [wall, real]}, chosen, DeckKind.OKTRIS, PARAMS, learn) == {four: real}
    assert other_deck_photos({four: [wall]}, chosen, DeckKind.OKTRIS, PARAMS, learn) == {}
    assert other_deck_photos({four: [mislabelled]}, chosen, DeckKind.OKTRIS, PARAMS, learn) == {}


def test_cards_of_another_deck_are_composed_from_its_ranks_and_the_learned_suits() -> None:
    rng = np.random.default_rng(13)
    learned: dict[Card, Image] = {StdCard.parse(t): shot(StdCard.parse(t), rng) for t in ("2D", "7D", "3C")}
    other: dict[Card, Image] = {StdCard.parse("4H"): shot(StdCard.parse("4H"), rng)}
    composed = compose_other_deck(other, learned, DeckKind.OKTRIS, PARAMS, LearnParams())
    # the 4 in the other deck's style, with the learned diamonds' and clubs' symbols; no spade
    # was learned, and no other rank of the other deck
    assert set(composed) == {StdCard.parse("4D"), StdCard.parse("4C")}
    four = StdCard.parse("4D")
    templates = Templates(
        DeckKind.OKTRIS, {four: (composed[four],), StdCard.parse("4H"): (other[StdCard.parse("4H")],)}
    )
    assert identify(shot(four, rng), templates, PARAMS.identify).card == four
