"""Calibration on the committed fixture frames: accuracy and cost of every step.

Run: ``.venv/bin/python -m benchmarks.calibration [FOLDER]`` (default
``tests/fixtures/calibration``, written by ``tools/make_calibration_fixtures.py``).

Prints, in one run:

- play area: corner error against the truth (median and largest, frame pixels)
  and the time to find it (median ms per 960x540 frame);
- card size: relative error of the middle card's sides (median and largest)
  and the time to measure it;
- seats: cards found on the cloth whose seat is right;
- guided capture: time per offered frame (median ms, 480x270 frames), time to
  learn the templates and to validate them, the validation's accuracy;
- identification of the evaluation cards (each card of the deck once, in other
  light) with the learned templates and with the built-in ones: identified %,
  right card ranked first %, wrong readings.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.capture import CaptureSession, Step
from calibration.seats import zones_for_area
from calibration.table import find_play_area, measure_card
from calibration.validation import validate
from scanner.find import find_cards, warp_card
from scanner.identify import identify
from scanner.params import FindParams
from scanner.templates import Templates
from scanner.types import Image
from scorer.cards import DeckKind

DEFAULT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "calibration"


def _read(folder: Path, name: str) -> Image:
    image = cv2.imread(str(folder / name), cv2.IMREAD_COLOR)
    if image is None:
        raise SystemExit(f"cannot read {folder / name}")
    return np.asarray(image, dtype=np.uint8)


def _timed(call: Any, *args: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    out = call(*args)
    return out, (time.perf_counter() - start) * 1000.0


def table_figures(folder: Path, truth: dict[str, Any]) -> None:
    errors, size_errors, find_ms, measure_ms = [], [], [], []
    for record in truth["tables"]:
        frame = _read(folder, record["image"])
        corners, ms = _timed(find_play_area, frame)
        find_ms.append(ms)
        errors.append(float(np.abs(np.array(corners) - np.array(record["corners"])).max()))
        size, ms = _timed(measure_card, frame, corners)
        measure_ms.append(ms)
        size_errors += [abs(a / b - 1.0) for a, b in zip(size, record["card_size_px"], strict=True)]
    print(
        f"play area: {len(errors)} frames, corner error median {statistics.median(errors):.2f} px, "
        f"largest {max(errors):.2f} px; find {statistics.median(find_ms):.1f} ms median"
    )
    print(
        f"card size: error median {100 * statistics.median(size_errors):.2f}%, largest "
        f"{100 * max(size_errors):.2f}%; measure {statistics.median(measure_ms):.1f} ms median"
    )
    right = total = 0
    for record in truth["seats"]:
        frame = _read(folder, record["image"])
        area = find_play_area(frame)
        zones = zones_for_area(record["players"], area)
        outline = np.asarray(area, dtype=np.float32).reshape(-1, 1, 2)
        centres = [np.asarray(c.corners).mean(axis=0) for c in find_cards(frame, FindParams())]
        centres = [
            c for c in centres if cv2.pointPolygonTest(outline, (float(c[0]), float(c[1])), False) >= 0
        ]
        for card in record["cards"]:
            total += 1
            if not centres:
                continue
            near = min(centres, key=lambda c: float(np.linalg.norm(c - card["centre"])))
            ok = np.linalg.norm(near - card["centre"]) < 15
            right += int(ok and zones.seat_of((float(near[0]), float(near[1]))) == card["seat"])
    print(f"seats: {right}/{total} cards on {len(truth['seats'])} tables of 2-8 seats in the right seat")


def capture_figures(folder: Path, truth: dict[str, Any]) -> Templates:
    empty = _read(folder, "capture/empty.jpg")
    session = CaptureSession(DeckKind(truth["deck"]), area=find_play_area(empty))
    offer_ms: list[float] = []
    for record in truth["captures"]:
        frame = _read(folder, record["image"])
        for _ in range(2):
            step, ms = _timed(session.offer, frame)
            offer_ms.append(ms)
        if step is Step.CARD_DONE:
            _, ms = _timed(session.offer, empty)
            offer_ms.append(ms)
    templates, learn_ms = _timed(session.learn)
    report, validate_ms = _timed(validate, templates, session.captures)
    print(
        f"guided capture: {len(offer_ms)} frames offered, {statistics.median(offer_ms):.1f} ms median per "
        f"frame; finished {session.finished}; learn {learn_ms:.0f} ms, validate {validate_ms:.0f} ms; "
        f"validation reads {100 * report.accuracy:.1f}% of the captures right, "
        f"{len(report.alike)} pairs too alike"
    )
    result: Templates = templates
    return result


def identification_figures(folder: Path, truth: dict[str, Any], learned: Templates) -> None:
    builtin = Templates.builtin(DeckKind(truth["deck"]))
    for name, templates in (("learned", learned), ("built-in", builtin)):
        right = first = wrong = total = 0
        for record in truth["evaluation"]:
            frame = _read(folder, record["image"])
            found = find_cards(frame, FindParams())
            for card in record["cards"]:
                total += 1
                centre = np.mean(card["corners"], axis=0)
                near = min(found, key=lambda f: float(np.linalg.norm(np.mean(f.corners, axis=0) - centre)))
                answer = identify(warp_card(frame, near.corners, FindParams()), templates)
                right += int(str(answer.card) == card["card"])
                first += int(str(answer.candidate) == card["card"])
                wrong += int(answer.card is not None and str(answer.card) != card["card"])
        print(
            f"identification with {name} templates: {total} cards, identified {100 * right / total:.1f}%, "
            f"right card first {100 * first / total:.1f}%, wrong {wrong}"
        )


def main(argv: list[str]) -> int:
    """Print every figure for the fixture folder ``argv[0]`` (default: the committed one)."""
    folder = Path(argv[0]) if argv else DEFAULT
    truth = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    table_figures(folder, truth)
    learned = capture_figures(folder, truth)
    identification_figures(folder, truth, learned)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
