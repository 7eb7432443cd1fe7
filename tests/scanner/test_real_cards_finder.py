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
import numpy.typing as npt
import pytest

from benchmarks.real_cards import params_for, read_rows, real_cards_folder, split
from scanner.find import FoundCard, find_cards
from scanner.params import FindParams
from scanner.types import Image

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


def _test_half_phone_photo(label: str) -> np.ndarray:
    """The phone photo of ``label`` that the benchmark's split leaves for testing (skips the test
    when the real photos are absent)."""
    folder = real_cards_folder()
    if folder is None:
        pytest.skip("real photos not present")
    rows, _ = split(read_rows(folder))
    learned = {r.path for r in rows}
    path = next(p for p, name in _phone_labels(folder) if name == label and p not in learned)
    return np.asarray(cv2.imread(str(path), cv2.IMREAD_COLOR), dtype=np.uint8)


def test_a_card_crossed_by_a_shadow_band_is_found_by_the_fainter_flattened_look() -> None:
    # the 6H of the test half (the second phone photo of it): a shadow band across its lower
    # part cuts its faint outline, and on the flattened frame its top side shows only weakly
    image = _test_half_phone_photo("6H")
    params = params_for("single_phone_table").find
    corners = _found_alone(image, params, replace(params, flat_faint_factor=1.0))
    # a whole card of the photo's cards' size: a fifth to a half of the frame
    share = _share(corners, image)
    assert 0.2 <= share <= 0.5, share


def _found_alone(image: Image, params: FindParams, without: FindParams) -> npt.NDArray[np.float64]:
    """The corners of the one card ``params`` find in ``image``, where ``without`` finds none."""
    assert not find_cards(image, without)
    found = find_cards(image, params)
    assert len(found) == 1
    return np.asarray(found[0].corners, dtype=np.float64)


def _share(corners: npt.NDArray[np.float64], image: Image) -> float:
    """The share of ``image`` that the quad ``corners`` covers."""
    return float(cv2.contourArea(corners.astype(np.float32))) / (image.shape[0] * image.shape[1])


def test_a_card_whose_outline_a_shadow_cuts_into_scraps_is_bounded_by_lines_in_the_flattened_frame() -> None:
    # the 7C of the test half (the second phone photo of it): the phone's shadow crosses the
    # card, and the first looks outline only scraps of print and shadow (none showing half its
    # outline), so the frame is looked at with the table's light divided out, where lines bound
    # the whole card and take the place of the scraps
    image = _test_half_phone_photo("7C")
    params = params_for("single_phone_table").find
    area = float(image.shape[0] * image.shape[1])

    def shares(found: list[FoundCard]) -> list[float]:
        return [float(cv2.contourArea(np.asarray(f.corners, dtype=np.float32))) / area for f in found]

    scraps = find_cards(image, replace(params, flat_weak_below=0.0))
    assert scraps and max(shares(scraps)) < 0.1, shares(scraps)
    found = find_cards(image, params)
    assert len(found) == 1
    # a whole card of the photo's cards' size: a fifth to a half of the frame
    assert 0.2 <= shares(found)[0] <= 0.5, shares(found)


def test_a_card_whose_corner_the_frame_just_cuts_off_is_bounded_by_lines() -> None:
    # the 5H of the test half (the second phone photo of it): the phone's shadow crosses the
    # card, its top-right corner lies on the frame's right border and its bottom-right corner
    # a little below the frame, so its four sides bound it only with corners allowed outside
    image = _test_half_phone_photo("5H")
    params = params_for("single_phone_table").find
    corners = _found_alone(image, params, replace(params, line_outside=0.0))
    h, w = image.shape[:2]
    # a corner beyond the frame, by no more than the allowance
    beyond = np.maximum(np.maximum(-corners, corners - np.array([w, h])), 0.0).max()
    assert 0.0 < beyond <= params.line_outside * min(w, h) + 2.0, corners
    share = _share(corners, image)
    assert 0.2 <= share <= 0.6, share


def test_the_corner_allowance_is_checked() -> None:
    with pytest.raises(ValueError, match="line_outside"):
        replace(params_for("single_phone_table").find, line_outside=0.6)
