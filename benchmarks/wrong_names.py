"""Every wrong name of the whole scanner, with the step that made the detection.

Run: ``.venv/bin/python -m benchmarks.wrong_names [FOLDER ...] [--seed N [--count M]]``
(default: the committed fixtures ``tests/fixtures/scenes``; several folders are measured in
turn; ``--seed`` renders held-out scenes). Each frame is scanned once by ``Scanner.scan``
itself; the steps it calls are watched (not changed) to tell where each detection it
returns was made:

- ``found``: a card the finder outlined, named by the identifier;
- ``covered``: a card named from an index corner (``scanner.scan_covered``);
- ``refit``: a card named on an outline fitted again (``Scanner._refit_unnamed``);
- ``twin``: a card made from two readings of one card (``scanner.scan_twins``).

A name is wrong as ``benchmarks.scanner_accuracy`` counts it: the detection matched to a true
card of another name, or matched to none (a false card).  Per folder: the names, the right
and wrong ones per step, then one line per wrong name with its confidence, its runner-up and
the two true cards nearest its outline (mean corner distance over their short side).
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import cv2
import numpy as np

import scanner.scan as scan_module
from benchmarks.scanner_accuracy import _distance, _match, _short_side, scene_folder
from scanner import scan_covered, scan_twins
from scanner.scan import Scanner
from scanner.types import Detection, Quad
from scorer.cards import Card, DeckKind, parse_card

STEPS = ("found", "covered", "refit", "twin")


@dataclass(frozen=True)
class Named:
    """One named detection of a scene: its card, the true card it matched (``None``: none), the
    step that made it and its nearest true cards (distance over short side, card)."""

    scene: str
    card: Card
    truth: Card | None
    step: str
    confidence: float
    runner_up: Card | None
    runner_up_confidence: float
    nearest: tuple[tuple[float, str], ...]

    @property
    def right(self) -> bool:
        return self.truth == self.card


Key = tuple[Card | None, Quad]


def _key(d: Detection) -> Key:
    return (d.card, d.corners)


@contextmanager
def watched_steps(made: dict[Key, str]) -> Iterator[None]:
    """While active, ``made`` maps each detection (card and corners) that ``Scanner.scan``'s
    steps return to the first step that returned it (``STEPS``)."""

    def note(step: str, detections: list[Detection]) -> None:
        for d in detections:
            made.setdefault(_key(d), step)

    def wrap(step: str, function: Callable[..., Any], first: bool) -> Callable[..., Any]:
        def watched(*args: Any, **kwargs: Any) -> Any:
            out = function(*args, **kwargs)
            note(step, out[0] if first else out)
            return out

        return watched

    read_covered = scan_covered.read_covered
    merge_twins = scan_twins.merge_twins
    refit = Scanner._refit_unnamed
    detect = Scanner._detect

    covering = [False]  # the finder's cards are read before the covered cards, refits after

    def detect_watched(self: Scanner, *args: Any, **kwargs: Any) -> Any:
        out = detect(self, *args, **kwargs)
        if not covering[0]:
            made.setdefault(_key(out[0]), "found")
        return out

    def covered_watched(*args: Any, **kwargs: Any) -> list[Detection]:
        covering[0] = True
        out: list[Detection] = read_covered(*args, **kwargs)
        note("covered", out)
        return out

    with (
        mock.patch.object(scan_module, "read_covered", covered_watched),
        mock.patch.object(scan_module, "merge_twins", wrap("twin", merge_twins, True)),
        mock.patch.object(Scanner, "_refit_unnamed", wrap("refit", refit, False)),
        mock.patch.object(Scanner, "_detect", detect_watched),
    ):
        yield


def _step(d: Detection, made: dict[Key, str]) -> str:
    """The step that made ``d`` (``_retop`` and the play area keep its card and corners)."""
    return made.get(_key(d), "found")


def named_in(folder: Path) -> list[Named]:
    """Every named detection of ``folder``'s scenes (with its ``truth.json``)."""
    doc = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    scanners: dict[DeckKind, Scanner] = {}
    out: list[Named] = []
    made: dict[Key, str] = {}
    for scene in doc["scenes"]:
        deck = DeckKind(scene["deck"])
        frame = cv2.imread(str(folder / scene["file"]), cv2.IMREAD_COLOR)
        if frame is None:
            raise ValueError(f"{folder / scene['file']}: not a readable image")
        if deck not in scanners:
            scanners[deck] = Scanner(deck)
            scanners[deck].warm_up()
        made.clear()
        with watched_steps(made):
            detections = scanners[deck].scan(np.asarray(frame, np.uint8)).detections
        truth: list[dict[str, Any]] = scene["cards"]
        match = {di: ti for ti, di in _match(truth, detections, deck).items()}
        quads = [np.asarray(t["corners"], np.float64) for t in truth]
        for di, d in enumerate(detections):
            if d.card is None:
                continue
            ti = match.get(di)
            corners = np.asarray(d.corners, np.float64)
            near = sorted(
                (_distance(corners, q) / _short_side(q), t["card"]) for q, t in zip(quads, truth, strict=True)
            )
            out.append(
                Named(
                    scene=scene["file"],
                    card=d.card,
                    truth=None if ti is None else parse_card(truth[ti]["card"], deck),
                    step=_step(d, made),
                    confidence=d.confidence,
                    runner_up=d.runner_up,
                    runner_up_confidence=d.runner_up_confidence,
                    nearest=tuple((round(dist, 3), card) for dist, card in near[:2]),
                )
            )
    return out


def report(folder: Path, names: list[Named]) -> list[str]:
    """The lines printed for one folder."""
    right = Counter(n.step for n in names if n.right)
    wrong = Counter(n.step for n in names if not n.right)
    lines = [
        f"{folder}: {len(names)} named, {sum(wrong.values())} wrong "
        f"({100.0 * sum(wrong.values()) / max(len(names), 1):.2f}%)",
        "  step      right  wrong",
    ]
    lines += [f"  {step:<8} {right[step]:>6} {wrong[step]:>6}" for step in STEPS]
    for n in names:
        if n.right:
            continue
        there = "false card" if n.truth is None else f"{n.truth} read as {n.card}"
        runner = f", runner-up {n.runner_up} {n.runner_up_confidence:.3f}" if n.runner_up is not None else ""
        near = ", ".join(f"{card} {dist:.2f}" for dist, card in n.nearest)
        lines.append(f"  {n.scene}: {there} ({n.card} {n.confidence:.3f}{runner}), {n.step}; nearest {near}")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Print the wrong names of each folder named (the committed fixtures by default)."""
    args = sys.argv[1:] if argv is None else argv
    cv2.setNumThreads(1)
    values = {"--seed", "--count"}
    folders = [
        a for i, a in enumerate(args) if not a.startswith("--") and (i == 0 or args[i - 1] not in values)
    ]
    with tempfile.TemporaryDirectory() as scratch:
        chosen = (
            [Path(f) for f in folders]
            if folders and "--seed" not in args
            else [scene_folder(args, Path(scratch), default_count=48)]
        )
        for folder in chosen:
            print("\n".join(report(folder, named_in(folder))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
