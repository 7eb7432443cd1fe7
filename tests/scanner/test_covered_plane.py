"""The table plane fitted on the cards identified whole, and corners read on the card it lays
there (``scanner.covered_plane``, ``CoveredParams.plane_reads``)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from scanner.covered_plane import fit_plane, plane_quad
from scanner.find_corners import CornerProposal
from scanner.params import CARD_ASPECT, CoveredParams, ScannerParams
from tests.scanner.fixture_scenes import fixture_scene, named_at

# a camera tilted some 20 degrees: table coordinates (a card's short side is 1) to frame pixels
TILT = np.array([[95.0, 12.0, 300.0], [4.0, 70.0, 160.0], [0.004, 0.09, 1.0]], np.float64)


def _map(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    mapped = np.hstack([points, np.ones((len(points), 1))]) @ matrix.T
    return np.asarray(mapped[:, :2] / mapped[:, 2:3], np.float64)


def _card_on_table(x: float, y: float, degrees: float) -> np.ndarray:
    """A card's corners in table coordinates (TL TR BR BL), its top left at (x, y), turned."""
    rad = math.radians(degrees)
    across = np.array([math.cos(rad), math.sin(rad)])
    down = np.array([-math.sin(rad), math.cos(rad)]) * CARD_ASPECT
    tl = np.array([x, y])
    return np.array([tl, tl + across, tl + across + down, tl + down])


def _seen(x: float, y: float, degrees: float) -> np.ndarray:
    return _map(TILT, _card_on_table(x, y, degrees))


def _proposal(quad: np.ndarray) -> CornerProposal:
    """The corner proposal at the card ``quad``'s index corner (frame pixels) along its sides."""
    across = (quad[1] - quad[0]) / np.linalg.norm(quad[1] - quad[0])
    down = (quad[3] - quad[0]) / np.linalg.norm(quad[3] - quad[0])
    return CornerProposal(quad[0].copy(), across, down, 0.0, 0.0)


def test_the_plane_of_a_tilted_table_is_recovered_from_three_cards() -> None:
    whole = [_seen(0.0, 0.0, 0.0), _seen(3.0, 0.5, 30.0), _seen(-1.0, 3.0, -75.0)]
    # the cards are seen foreshortened: no card is a rectangle of the card's aspect
    assert all(
        abs(np.linalg.norm(q[3] - q[0]) / np.linalg.norm(q[1] - q[0]) - CARD_ASPECT) > 0.05 for q in whole
    )
    plane = fit_plane(whole, CARD_ASPECT, 0.02, 8)
    assert plane is not None and plane.misfit < 1e-3
    # a card lying elsewhere on the table, found by its index corner, is laid where it lies
    covered = _seen(1.5, 2.0, 110.0)
    laid = plane_quad(plane, _proposal(covered), 1.0, CARD_ASPECT)
    assert laid is not None
    assert float(np.hypot(*(laid - covered).T).max()) < 0.5
    # the rectangle of the card's aspect laid at its corner misses it
    short = float(np.linalg.norm(whole[0][1] - whole[0][0]))
    p = _proposal(covered)
    rectangle = np.array(
        [p.point, p.point + p.across * short, p.point + (p.across + p.down * CARD_ASPECT) * short]
    )
    assert float(np.hypot(*(rectangle - covered[[0, 1, 2]]).T).max()) > 5.0


def test_one_card_is_its_own_plane_and_work_pixels_are_scaled() -> None:
    card = _seen(0.0, 0.0, 20.0)
    plane = fit_plane([card], CARD_ASPECT, 1e-6, 8)
    assert plane is not None
    laid = plane_quad(plane, _proposal(card * 0.5), 0.5, CARD_ASPECT)
    assert laid is not None and float(np.hypot(*(laid - card).T).max()) < 1e-3


def test_a_card_off_the_plane_rejects_it() -> None:
    whole = [_seen(0.0, 0.0, 0.0), _seen(3.0, 0.5, 30.0)]
    held_up = _seen(-1.0, 3.0, -75.0)
    held_up = held_up.mean(axis=0) + (held_up - held_up.mean(axis=0)) * 1.3  # nearer the camera
    assert fit_plane([*whole, held_up], CARD_ASPECT, 0.05, 8) is None
    assert fit_plane([*whole, held_up], CARD_ASPECT, 0.5, 8) is not None
    assert fit_plane([], CARD_ASPECT, 0.05, 8) is None


def test_plane_parameters_are_validated() -> None:
    with pytest.raises(ValueError, match="plane_reads"):
        CoveredParams(plane_reads=-1)
    with pytest.raises(ValueError, match="plane_fit"):
        CoveredParams(plane_fit=2.0)
    with pytest.raises(ValueError, match="plane_rounds"):
        CoveredParams(plane_rounds=-1)
    with pytest.raises(ValueError, match="plane_replace"):
        CoveredParams(plane_replace=1)  # type: ignore[arg-type]
    assert replace(ScannerParams().covered, plane_reads=0).plane_reads == 0


def test_the_fixture_piles_top_6S_is_named_on_the_table_plane() -> None:
    """scene_040 (tilted 20 degrees): the pile's top 6S shows its index corner only foreshortened;
    the rectangle laid at that corner names nothing, the card the plane of the 5S and the AH
    identified whole lays there names it, and it is the pile's top card."""
    scene, frame = fixture_scene("scene_040.jpg")
    on = ScannerParams()
    off = replace(on, covered=replace(on.covered, plane_reads=0))
    assert named_at(scene, frame, "6S", off) == []
    assert any(gap < 0.25 * scene["card_px"] and top for gap, top in named_at(scene, frame, "6S", on))
