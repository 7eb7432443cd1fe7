"""A card named from a corner whose index, read a little smaller about its corner, ranks another
card first at a higher score names nothing (``CoveredParams.resize_rival``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scanner.params import CoveredParams, ScannerParams
from tests.scanner.test_identify_heldout import assert_wrong_names_mended

BASE = ScannerParams()
OFF = replace(BASE, covered=replace(BASE.covered, resize_rival=None))


def test_a_corner_read_better_as_another_card_smaller_names_nothing() -> None:
    # held-out scene 4747-24: a trick's 8H under a 5S, read at its lone corner as 6H (0.744, laid
    # out about 20% too large); read at 0.9 of that size about its corner it ranks 8H first at 0.802
    assert_wrong_names_mended(4747, 24, OFF, BASE)


def test_the_rival_lead_is_validated() -> None:
    assert CoveredParams(resize_rival=None).resize_rival is None
    assert CoveredParams(resize_rival=0.05).resize_rival == 0.05
    with pytest.raises(ValueError, match="resize_rival"):
        CoveredParams(resize_rival=1.5)
