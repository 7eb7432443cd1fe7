"""Seats assigned right on recorded frames: one card in front of each of 2 to 8 seats."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest
from calibration_fixtures import image, truth

from calibration.seats import zones_for_area
from calibration.table import find_play_area
from scanner.find import find_cards
from scanner.params import FindParams

SEATS = truth()["seats"]


@pytest.mark.parametrize("record", SEATS, ids=lambda r: f"{r['players']}-players")
def test_every_card_found_on_the_cloth_belongs_to_the_seat_it_was_laid_for(record: dict[str, Any]) -> None:
    frame = image(record["image"])
    area = find_play_area(frame)
    zones = zones_for_area(record["players"], area)
    outline = np.asarray(area, dtype=np.float32).reshape(-1, 1, 2)
    centres = [
        np.asarray(card.corners).mean(axis=0)
        for card in find_cards(frame, FindParams())
        if cv2.pointPolygonTest(
            outline, tuple(float(v) for v in np.asarray(card.corners).mean(axis=0)), False
        )
        >= 0
    ]
    for card in record["cards"]:
        nearest = min(centres, key=lambda c: float(np.linalg.norm(c - card["centre"])))
        assert np.linalg.norm(nearest - card["centre"]) < 15, f"{card['card']} not found"
        assert zones.seat_of((float(nearest[0]), float(nearest[1]))) == card["seat"], card
