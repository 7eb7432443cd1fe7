"""Reading the calibration fixtures (``tools/make_calibration_fixtures.py`` writes them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scanner.types import Image

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "calibration"


def truth() -> dict[str, Any]:
    """The fixtures' ``truth.json``."""
    data: dict[str, Any] = json.loads((FIXTURES / "truth.json").read_text(encoding="utf-8"))
    return data


def image(name: str) -> Image:
    """A fixture frame (BGR uint8)."""
    found = cv2.imread(str(FIXTURES / name), cv2.IMREAD_COLOR)
    assert found is not None, f"fixture {name} is missing: run tools/make_calibration_fixtures.py"
    return np.asarray(found, dtype=np.uint8)
