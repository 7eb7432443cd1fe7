"""The card finder on the real photos (``../shared/data/real-cards``), when they are present.

Floors reached today (``python -m benchmarks.real_cards --sheet /tmp/sheet.png`` prints the
counts and draws what the finder found); see docs/studies/real-photos.md, "The finder on the
real photos".
"""

from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.real_cards import params_for, read_rows, real_cards_folder, split
from scanner.find import find_cards

pytestmark = pytest.mark.slow


def _phone_photos() -> list[Path]:
    folder = real_cards_folder()
    if folder is None:
        pytest.skip("real photos not present (set OCTOTABLE_REAL_CARDS or add ../shared/data/real-cards)")
    with (folder / "labels.csv").open(encoding="utf-8") as handle:
        return [folder / r["file"] for r in csv.DictReader(handle) if r["kind"] == "single_phone_table"]


def _phone_labels(folder: Path) -> list[tuple[Path, str]]:
    with (folder / "labels.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return [(folder / r["file"], r["label"]) for r in rows if r["kind"] == "single_phone_table"]


def test_phone_photos_of_one_card_mostly_give_one_quad() -> None:
    counts = {"none": 0, "one": 0, "several": 0}
    for path in _phone_photos():
        image = np.asarray(cv2.imread(str(path), cv2.IMREAD_COLOR), dtype=np.uint8)
        found = find_cards(image, params_for("single_phone_table").find)
        counts["none" if not found else "one" if len(found) == 1 else "several"] += 1
    assert sum(counts.values()) == 64
    assert counts["one"] >= 36, counts
    assert counts["none"] <= 7, counts


def test_a_card_crossed_by_a_shadow_band_is_found_by_the_fainter_flattened_look() -> None:
    # the 6H of the test half (the second phone photo of it): a shadow band across its lower
    # part cuts its faint outline, and on the flattened frame its top side shows only weakly
    folder = real_cards_folder()
    if folder is None:
        pytest.skip("real photos not present")
    rows, _ = split(read_rows(folder))
    learned = {r.path for r in rows}
    path = next(p for p, label in _phone_labels(folder) if label == "6H" and p not in learned)
    image = np.asarray(cv2.imread(str(path), cv2.IMREAD_COLOR), dtype=np.uint8)
    params = params_for("single_phone_table").find
    assert not find_cards(image, replace(params, flat_faint_factor=1.0))
    found = find_cards(image, params)
    assert len(found) == 1
    corners = np.asarray(found[0].corners, dtype=np.float32)
    # a whole card of the photo's cards' size: a fifth to a half of the frame
    share = float(cv2.contourArea(corners)) / (image.shape[0] * image.shape[1])
    assert 0.2 <= share <= 0.5, share
