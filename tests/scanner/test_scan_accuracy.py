"""Scanner accuracy on the committed scene fixtures and on real photos (when present).

The fixture figures come from ``benchmarks.scanner_accuracy`` (which prints them
per scene kind); the goals are those of the scanner's issue: at least 99% of
visible cards identified, under 0.5% wrong identities (``None`` is never
wrong), the top card of a pile right in at least 98%.
"""

from __future__ import annotations

import csv
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.scanner_accuracy import FIXTURES, Report, evaluate
from scanner.find import find_cards
from scanner.params import FindParams

REAL = Path(
    os.environ.get("OCTOTABLE_REAL_CARDS", Path(__file__).resolve().parents[3] / "shared/data/real-cards")
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def report() -> Report:
    if not (FIXTURES / "truth.json").is_file():
        pytest.skip(f"no scene fixtures in {FIXTURES}")
    return evaluate(FIXTURES)


def test_fixtures_have_no_wrong_identities(report: Report) -> None:
    assert report.total.named > 0
    assert report.total.wrong_pct < 0.5, report.mistakes


def test_fixtures_lone_cards_are_found(report: Report) -> None:
    # Single cards and the separate cards of a trick, arms and all.
    lone = [report.by_group[g] for g in ("single", "trick")]
    visible = sum(t.visible for t in lone)
    found = sum(t.found for t in lone)
    assert visible > 0
    assert found / visible >= 0.9


def test_fixtures_covered_cards_are_rebuilt_from_their_corners_at_todays_floor(report: Report) -> None:
    # Cards under other cards (piles, fans, shown hands) show only part of their outline;
    # the figures reached so far are floors, the goal is the expected failure below.
    # 93 of the 104 covered cards (89.4%) are found today, most rebuilt from their corners,
    # some named from the index at a visible corner (scanner.scan_covered), read turned a few
    # degrees or moved back along its side where it reads unclear as laid, or read between two
    # named cards of its row or fan.
    covered = [report.by_group[g] for g in ("pile", "fan", "hand")]
    visible = sum(t.visible for t in covered)
    found = sum(t.found for t in covered)
    assert visible > 0
    assert found / visible >= 0.88
    pile = report.by_group["pile"]
    assert pile.visible > 0 and pile.found / pile.visible >= 0.7
    assert report.total.found / report.total.visible >= 0.92


def test_fixtures_cards_are_identified_at_todays_floor(report: Report) -> None:
    # 147 of the 162 visible cards (90.7%) are named right today, 38 of the 40 fan cards
    # (95.0%; scene_021's 4 from a corner still unclear, its index searched farther around
    # it and turned up to 6 degrees; scene_006's 8S, scene_034's AC and scene_021's -2 and P
    # read between their named neighbours), 39 of the 46 hand cards (84.8%: scene_039's 1 and -2
    # read between their named neighbours; covered cards named from the index at a
    # visible corner, proposed also where a card's side inside a row meets the row's outline,
    # read at the size the index chooses where no card size is known, up to 64 corners read per
    # frame, an unclear one read again turned a few degrees or moved back along its side or
    # given a second look at the parts that tell its close cards apart, a cluster holding no
    # card identified at its own size, a frame left with two sizes kept to the one naming its
    # cards) and 12 of the 18 pile cards (66.7%; cards not
    # identified, top cards first, are read again on their outline fitted anew); the goal is
    # tested below.
    assert report.total.visible > 0
    assert report.total.identified / report.total.visible >= 0.9
    fan = report.by_group["fan"]
    assert fan.visible > 0 and fan.identified / fan.visible >= 0.94
    hand = report.by_group["hand"]
    assert hand.visible > 0 and hand.identified / hand.visible >= 0.84
    pile = report.by_group["pile"]
    # 12 of 18 (the top card of scene_032 read on its outline fitted again); a pile's 6C the
    # wide index search named 0.05 or less ahead of 6S stays open
    assert pile.visible > 0 and pile.identified / pile.visible >= 0.64


def test_fixtures_top_cards_are_right_at_todays_floor(report: Report) -> None:
    # 23 of the 26 piles and fans (88.5%) have their top card found, named and marked today:
    # a card whose index reads inside another's outline lies over it, and a top card not
    # identified is read again on the card-size outline fitted to its sides (scanner.find_top);
    # where two named cards overlap, the one whose print shows there lies over the other
    # (scanner.find_top_print), and the sides never overrule a chain of such signs.
    assert report.total.piles > 0
    assert report.total.top_right / report.total.piles >= 0.86


def test_fixtures_meet_the_wrong_name_and_top_card_goals(report: Report) -> None:
    assert report.total.wrong_pct < 0.5
    assert report.total.top_pct >= 98.0


def test_fixtures_meet_the_identification_goal(report: Report) -> None:
    # 161 of 162 (99.4%): scene_039's hand row read on cards laid as their neighbours lie
    # (``CoveredParams.gap_laid``), scene_025's 1 along its row's outline (``row_reads``); left:
    # scene_018's 3D, its index smeared by motion past reading even on its true outline
    assert report.total.identified_pct >= 99.0


def _real_rows(kind: str) -> list[dict[str, str]]:
    labels = REAL / "labels.csv"
    if not labels.is_file():
        pytest.skip(f"real photos not present at {REAL}")
    with labels.open(newline="", encoding="utf-8") as f:
        return [row for row in csv.DictReader(f) if row["kind"] == kind]


def test_real_phone_photos_of_one_card_mostly_show_a_card_near_the_middle() -> None:
    rows = _real_rows("single_phone_table")
    params = FindParams()
    hits = 0
    for row in rows:
        image = cv2.imread(str(REAL / row["file"]), cv2.IMREAD_COLOR)
        assert image is not None, row["file"]
        h, w = image.shape[:2]
        for card in find_cards(np.asarray(image, np.uint8), params):
            cx = sum(x for x, _ in card.corners) / 4
            cy = sum(y for _, y in card.corners) / 4
            if abs(cx - w / 2) < w / 4 and abs(cy - h / 2) < h / 4:
                hits += 1
                break
    assert hits / len(rows) >= 0.6
