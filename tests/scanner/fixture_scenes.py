"""The committed scene fixtures for tests that scan one scene and look for one card in it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from benchmarks.scanner_accuracy import score_scene
from scanner.params import ScannerParams
from scanner.scan import Scanner
from scanner.types import Detection, Image
from scorer.cards import DeckKind

SCENES = Path(__file__).resolve().parents[1] / "fixtures" / "scenes"

NO_FRAMES = replace(ScannerParams(), find=replace(ScannerParams().find, octo_frame=False))
"""The scanner's parameters without the Octoplus printed-frame step (``FindParams.octo_frame``):
run before covered cards are read, it names many of the Octoplus cards that the tests of the
steps after it guard, so those tests look at their step with it off."""


def fixture_scene(name: str) -> tuple[dict[str, Any], Image]:
    """The truth of the committed scene ``name`` (e.g. ``scene_040.jpg``) and its frame."""
    truth = json.loads((SCENES / "truth.json").read_text(encoding="utf-8"))
    scene = next(s for s in truth["scenes"] if s["file"] == name)
    frame = cv2.imread(str(SCENES / name))
    assert frame is not None, f"{SCENES / name}: not readable"
    return scene, np.asarray(frame, np.uint8)


def named_at(
    scene: dict[str, Any], frame: Image, card: str, params: ScannerParams
) -> list[tuple[float, bool]]:
    """Every detection the scan of ``frame`` with ``params`` names ``card``: how far its centre
    lies from that true card's centre (pixels) and whether it is marked top."""
    centre = np.mean(next(c for c in scene["cards"] if c["card"] == card)["corners"], axis=0)
    result = Scanner(DeckKind(scene["deck"]), params=params).scan(frame)
    return [
        (float(np.hypot(*(np.mean(d.corners, axis=0) - centre))), d.top)
        for d in result.detections
        if str(d.card) == card
    ]


def named_near(
    image: Image, deck: DeckKind, params: ScannerParams, centre: npt.ArrayLike, reach: float
) -> list[tuple[str, bool]]:
    """The cards the scan of ``image`` with ``params`` names within ``reach`` pixels of ``centre``
    (a detection's centre), each with its top flag."""
    detections = Scanner(deck, params=params).scan(image).detections
    at = np.asarray(centre, np.float64)
    return [
        (str(d.card), d.top)
        for d in detections
        if d.card is not None and float(np.hypot(*(np.mean(d.corners, axis=0) - at))) < reach
    ]


def identified_and_wrong(
    scene: dict[str, Any], detections: Sequence[Detection], deck: DeckKind
) -> tuple[int, int]:
    """How many of ``scene``'s cards ``detections`` name right, and how many names are wrong (as
    ``benchmarks.scanner_accuracy`` counts them)."""
    tallies, _ = score_scene(scene, detections, deck)
    return sum(t.identified for t in tallies.values()), sum(t.wrong for t in tallies.values())


def scene_mistakes(scene: dict[str, Any], frame: Image, params: ScannerParams) -> list[str]:
    """The mistakes ``benchmarks.scanner_accuracy`` lists for ``scene`` scanned with ``params``
    (e.g. ``"7S (fan) not found"``), without the scene's file name."""
    deck = DeckKind(scene["deck"])
    _, found = score_scene(scene, Scanner(deck, params=params).scan(frame).detections, deck)
    return [m.split(": ", 1)[1] for m in found]
