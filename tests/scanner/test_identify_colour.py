"""The ink-colour cue of identification (``scanner.identify_colour``)."""

from __future__ import annotations

import numpy as np
import pytest

from scanner.identify_colour import redness, rednesses
from scanner.identify_params import IdentifyParams

PARAMS = IdentifyParams()


@pytest.mark.parametrize("seed", range(8))
def test_crops_taken_together_give_each_crop_s_own_redness(seed: int) -> None:
    rng = np.random.default_rng(seed)
    crops = [rng.integers(0, int(rng.integers(2, 256)), (32, 30, 3), dtype=np.uint8) for _ in range(2)]
    crops[0][: 10 * (seed % 3)] = crops[0][0, 0]  # many pixels of one lightness: ties at the quantile
    assert rednesses(crops, PARAMS) == [redness(crop, PARAMS) for crop in crops]


def test_crops_of_other_shapes_and_grey_crops_are_read_one_by_one() -> None:
    rng = np.random.default_rng(1)
    mixed = [rng.integers(0, 256, shape, dtype=np.uint8) for shape in ((12, 9, 3), (7, 5, 3))]
    assert rednesses(mixed, PARAMS) == [redness(crop, PARAMS) for crop in mixed]
    grey = [rng.integers(0, 256, (8, 8), dtype=np.uint8)] * 2
    assert rednesses(grey, PARAMS) == [0.0, 0.0]
    assert rednesses([], PARAMS) == []


def test_red_ink_reads_red_and_black_ink_does_not() -> None:
    paper = np.full((20, 20, 3), 235, dtype=np.uint8)
    red, black = paper.copy(), paper.copy()
    red[5:15, 5:15] = (40, 30, 200)
    black[5:15, 5:15] = (20, 20, 20)
    red_value, black_value = rednesses([red, black], PARAMS)
    assert red_value > PARAMS.red_ink
    assert black_value < PARAMS.black_ink
