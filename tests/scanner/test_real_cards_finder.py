"""The card finder on the real photos (``../shared/data/real-cards``), when they are present.

Floors reached today (``python -m benchmarks.real_cards --sheet /tmp/sheet.png`` prints the
counts and draws what the finder found); see docs/BENCHMARKS.md (real photos, the finder).
"""

from __future__ import annotations

import csv
from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.real_cards import params_for, real_cards_folder
from scanner.find import find_cards

pytestmark = pytest.mark.slow


def _phone_photos() -> list[Path]:
    folder = real_cards_folder()
    if folder is None:
        pytest.skip("real photos not present (set OCTOTABLE_REAL_CARDS or add ../shared/data/real-cards)")
    with (folder / "labels.csv").open(encoding="utf-8") as handle:
        return [folder / r["file"] for r in csv.DictReader(handle) if r["kind"] == "single_phone_table"]


def test_phone_photos_of_one_card_mostly_give_one_quad() -> None:
    counts = {"none": 0, "one": 0, "several": 0}
    for path in _phone_photos():
        image = np.asarray(cv2.imread(str(path), cv2.IMREAD_COLOR), dtype=np.uint8)
        found = find_cards(image, params_for("single_phone_table").find)
        counts["none" if not found else "one" if len(found) == 1 else "several"] += 1
    assert sum(counts.values()) == 64
    assert counts["one"] >= 36, counts
    assert counts["none"] <= 7, counts
