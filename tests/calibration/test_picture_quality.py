"""The camera check: sharpness, brightness and glare, each failure with its advice."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration.quality import QualityLimits, assess
from scanner.scenes import Imaging, Lighting, PlacedCard, Scene, Table, render
from scanner.scenes_paint import TableKind
from scorer.cards import DeckKind, parse_card


def table_scene() -> Scene:
    cards = tuple(
        PlacedCard(parse_card(label, DeckKind.OKTRIS), (x, 360.0), angle)
        for label, x, angle in (("7H", 300.0, 10.0), ("AS", 640.0, -20.0), ("3C", 980.0, 95.0))
    )
    return Scene(cards=cards, table=Table(TableKind.FELT_GREEN, 3), lighting=Lighting(brightness=0.95))


def picture(scene: Scene) -> np.ndarray:
    image, _ = render(scene, np.random.default_rng(0))
    return image


def test_a_sharp_evenly_lit_table_passes() -> None:
    report = assess(picture(table_scene()))
    assert report.ok, report.advice


def test_a_defocused_picture_is_called_blurred() -> None:
    scene = table_scene()
    report = assess(picture(replace(scene, imaging=Imaging(defocus=4.0))))
    assert any("blurred" in a and "focus" in a for a in report.advice)
    assert report.sharpness < assess(picture(scene)).sharpness / 2


def test_a_dim_room_is_called_too_dark() -> None:
    scene = table_scene()
    report = assess(picture(replace(scene, lighting=Lighting(brightness=0.25))))
    assert any("too dark" in a for a in report.advice)


def test_an_overexposed_picture_is_called_too_bright() -> None:
    scene = table_scene()
    report = assess(
        picture(replace(scene, table=Table(TableKind.WOOD, 3), lighting=Lighting(brightness=1.7)))
    )
    assert any("too bright" in a for a in report.advice)


def test_a_lamp_reflected_on_the_table_is_called_glare() -> None:
    image = picture(table_scene())
    cv2.ellipse(image, (400, 200), (140, 80), 20, 0, 360, (255, 255, 255), -1)
    report = assess(image)
    assert any("glare" in a for a in report.advice)
    assert report.clipped > 0.02


def test_the_figures_do_not_depend_on_the_resolution() -> None:
    image = picture(table_scene())
    half = np.asarray(cv2.resize(image, (640, 360), interpolation=cv2.INTER_AREA), dtype=np.uint8)
    a, b = assess(image), assess(half)
    assert b.mean == pytest.approx(a.mean, abs=2)
    assert b.sharpness == pytest.approx(a.sharpness, rel=0.35)


def test_a_grey_image_is_assessed_too() -> None:
    grey = np.asarray(cv2.cvtColor(picture(table_scene()), cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    assert assess(grey).ok


@pytest.mark.parametrize(
    "bad",
    [np.zeros((8, 8, 3), np.uint8), np.zeros((100, 100, 3), np.float32), np.zeros((100, 100, 4), np.uint8)],
)
def test_a_frame_that_is_not_an_image_is_refused(bad: np.ndarray) -> None:
    with pytest.raises(ValueError, match=r"expected|too small"):
        assess(bad)


def test_limits_out_of_range_are_refused() -> None:
    with pytest.raises(ValueError, match="min_mean"):
        QualityLimits(min_mean=200, max_mean=100)
