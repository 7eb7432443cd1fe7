"""Scanner accuracy on the committed scene fixtures (``tests/fixtures/scenes``).

Run: ``.venv/bin/python -m benchmarks.scanner_accuracy [FOLDER] [--compare] [--quiet]
[--seed N [--count M]]`` (default: the committed fixtures; ``--seed`` renders held-out
scenes; ``--compare`` scans each frame with and without covered-card reading).
Prints, overall and per scene kind (the card's layout group and the table):

- found %: visible cards (a corner index entirely visible, ``identifiable`` in
  ``truth.json``) that some detection outlines;
- identified %: visible cards detected *and* named right;
- wrong %: detections named with a card that is not the card there (a false
  detection with a name counts too), over all named detections; ``None`` (not
  identified) is never wrong;
- top right %: piles and fans whose top card is detected, marked ``top`` and
  named right, with no other card of that pile marked ``top`` under a name.

A detection matches a true card when their corners (in any of the four
rotations) lie within ``MATCH_DISTANCE`` of the card's short side on average;
the nearest pairs are matched first. Where a detection lies within
``NAME_TIE`` of a short side as near to a true card of its name as to the
nearest other (a neat pile: the top card lies on the card under it, and their
outlines differ by about a pixel), the card of its name is taken as nearer: the
corners cannot tell the two apart, and the print the scanner read is the one
that shows.
"""

from __future__ import annotations

import json
import math
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scanner.params import ScannerParams
from scanner.scan import Scanner
from scanner.types import Detection
from scorer.cards import DeckKind, parse_card

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "scenes"
MATCH_DISTANCE = 0.25
NAME_TIE = 0.01
"""Distances (fraction of the true card's short side) this close count as equal, and the
detection's name decides between the two true cards."""
PILE_GROUPS = ("pile", "fan")


@dataclass
class Tally:
    """Counts behind the accuracy figures of one kind of scene."""

    visible: int = 0
    found: int = 0
    identified: int = 0
    named: int = 0
    wrong: int = 0
    piles: int = 0
    top_right: int = 0

    def add(self, other: Tally) -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def found_pct(self) -> float:
        return 100.0 * self.found / self.visible if self.visible else math.nan

    @property
    def identified_pct(self) -> float:
        return 100.0 * self.identified / self.visible if self.visible else math.nan

    @property
    def wrong_pct(self) -> float:
        return 100.0 * self.wrong / self.named if self.named else 0.0

    @property
    def top_pct(self) -> float:
        return 100.0 * self.top_right / self.piles if self.piles else math.nan


@dataclass
class Report:
    """Tallies overall, per layout group and per table, plus the mistakes seen."""

    total: Tally = field(default_factory=Tally)
    by_group: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    by_table: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    mistakes: list[str] = field(default_factory=list)
    ms: list[float] = field(default_factory=list)


def _distance(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> float:
    return min(float(np.linalg.norm(a - np.roll(b, k, axis=0), axis=1).mean()) for k in range(4))


def _short_side(quad: np.ndarray[Any, Any]) -> float:
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    return float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2.0)


def _match(
    truth: list[dict[str, Any]], detections: tuple[Detection, ...], deck: DeckKind | None = None
) -> dict[int, int]:
    """Truth index -> detection index, greedily by corner distance; given the ``deck``, a pair
    whose names agree counts ``NAME_TIE`` of the true card's short side nearer."""
    pairs: list[tuple[float, int, int]] = []
    for ti, t in enumerate(truth):
        tq = np.array(t["corners"], np.float64)
        short = _short_side(tq)
        card = parse_card(t["card"], deck) if deck is not None else None
        for di, d in enumerate(detections):
            dist = _distance(np.array(d.corners, np.float64), tq)
            if dist < MATCH_DISTANCE * short:
                same = card is not None and d.card == card
                pairs.append((dist - NAME_TIE * short if same else dist, ti, di))
    pairs.sort()
    out: dict[int, int] = {}
    used: set[int] = set()
    for _dist, ti, di in pairs:
        if ti not in out and di not in used:
            out[ti] = di
            used.add(di)
    return out


def score_scene(
    scene: dict[str, Any], detections: tuple[Detection, ...], deck: DeckKind
) -> tuple[dict[str, Tally], list[str]]:
    """Tallies per layout group for one scene, and its mistakes described."""
    truth: list[dict[str, Any]] = scene["cards"]
    match = _match(truth, detections, deck)
    by_group: dict[str, Tally] = defaultdict(Tally)
    mistakes: list[str] = []
    matched_detections = set(match.values())
    for ti, t in enumerate(truth):
        card = parse_card(t["card"], deck)
        tally = by_group[t["group"]]
        di = match.get(ti)
        d = detections[di] if di is not None else None
        if d is not None and d.card is not None:
            tally.named += 1
            if d.card != card:
                tally.wrong += 1
                mistakes.append(f"{scene['file']}: {t['card']} read as {d.card} ({d.confidence:.2f})")
        if not t["identifiable"]:
            continue
        tally.visible += 1
        if d is None:
            mistakes.append(f"{scene['file']}: {t['card']} ({t['group']}) not found")
            continue
        tally.found += 1
        if d.card == card:
            tally.identified += 1
        elif d.card is None:
            mistakes.append(f"{scene['file']}: {t['card']} ({t['group']}) found, not identified")
    for di, d in enumerate(detections):
        if di not in matched_detections and d.card is not None:
            tally = by_group["none"]
            tally.named += 1
            tally.wrong += 1
            mistakes.append(f"{scene['file']}: false card {d.card} at {d.centre[0]:.0f},{d.centre[1]:.0f}")
    for group in PILE_GROUPS:
        members = [ti for ti, t in enumerate(truth) if t["group"] == group]
        if len(members) < 2:
            continue
        tally = by_group[group]
        tally.piles += 1
        top = [ti for ti in members if truth[ti]["top"]]
        right = False
        if len(top) == 1 and top[0] in match:
            d = detections[match[top[0]]]
            right = d.top and d.card == parse_card(truth[top[0]]["card"], deck)
        others_top = any(
            ti in match and detections[match[ti]].top and detections[match[ti]].card is not None
            for ti in members
            if ti not in top
        )
        if right and not others_top:
            tally.top_right += 1
        else:
            mistakes.append(f"{scene['file']}: top card of the {group} wrong")
    return by_group, mistakes


def evaluate(
    folder: Path, scanners: dict[DeckKind, Scanner] | None = None, params: ScannerParams | None = None
) -> Report:
    """Scan every fixture of ``folder`` (with its ``truth.json``) and tally the results.

    Raises:
        FileNotFoundError: no ``truth.json`` in ``folder``.
        ValueError: an image of the fixtures cannot be read.
    """
    return evaluate_side_by_side(folder, [params], [scanners if scanners is not None else {}])[0]


def evaluate_side_by_side(
    folder: Path,
    params: list[ScannerParams | None],
    scanners: list[dict[DeckKind, Scanner]] | None = None,
) -> list[Report]:
    """Like ``evaluate``, one report per parameter set, every frame scanned by each set in turn
    (so that their times compare like with like on a busy machine)."""
    doc = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    per_set = scanners if scanners is not None else [{} for _ in params]
    reports = [Report() for _ in params]
    for scene in doc["scenes"]:
        deck = DeckKind(scene["deck"])
        image = cv2.imread(str(folder / scene["file"]), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"{folder / scene['file']}: not a readable image")
        for chosen, found, report in zip(params, per_set, reports, strict=True):
            if deck not in found:
                found[deck] = Scanner(deck, params=chosen)
                found[deck].warm_up()
            result = found[deck].scan(np.asarray(image, np.uint8))
            report.ms.append(result.ms)
            by_group, mistakes = score_scene(scene, result.detections, deck)
            report.mistakes.extend(mistakes)
            table = scene["conditions"][0]
            for group, tally in by_group.items():
                report.total.add(tally)
                report.by_group[group].add(tally)
                report.by_table[table].add(tally)
    return reports


def _rows(title: str, tallies: Iterable[tuple[str, Tally]]) -> list[str]:
    lines = [f"{title:<12} {'visible':>7} {'found%':>7} {'ident%':>7} {'wrong%':>7} {'piles':>6} {'top%':>6}"]
    for name, t in tallies:
        lines.append(
            f"{name:<12} {t.visible:>7} {t.found_pct:>7.1f} {t.identified_pct:>7.1f} "
            f"{t.wrong_pct:>7.2f} {t.piles:>6} {t.top_pct:>6.1f}"
        )
    return lines


def render(seed: int, count: int, out: Path) -> Path:
    """Render ``count`` scenes of ``seed`` into ``out`` with the fixture maker (as the committed
    fixtures, which use seed 2026 and 48 scenes)."""
    sys.path.insert(0, str(ROOT / "tools"))
    import make_fixtures  # type: ignore[import-not-found]  # a script folder, imported on demand

    make_fixtures.make(out, seed, count)
    return out


def scene_folder(args: list[str], scratch: Path, default_count: int) -> Path:
    """The scene folder the command line names: scenes rendered into ``scratch`` with
    ``--seed N [--count M]`` (``default_count`` scenes by default), else the folder given as the
    first plain argument, else the committed fixtures."""
    if "--seed" in args:
        seed = int(args[args.index("--seed") + 1])
        count = int(args[args.index("--count") + 1]) if "--count" in args else default_count
        return render(seed, count, scratch)
    values = {"--seed", "--count"}
    names = [
        a for i, a in enumerate(args) if not a.startswith("--") and (i == 0 or args[i - 1] not in values)
    ]
    return Path(names[0]) if names else FIXTURES


def main(argv: list[str] | None = None) -> int:
    """Print the accuracy figures of a fixture folder; returns the exit code.

    Options: ``--compare`` also scans every frame without covered-card reading
    (``CoveredParams.enabled`` off) and prints those figures first, with the median
    time per frame of both; ``--quiet`` leaves out the list of mistakes;
    ``--seed N [--count M]`` renders M scenes (default 182) of seed N into a temporary
    folder and measures those (held-out scenes) instead of a folder.
    """
    args = sys.argv[1:] if argv is None else argv
    cv2.setNumThreads(1)
    sets: list[ScannerParams | None] = [None]
    if "--compare" in args:
        base = ScannerParams()
        sets = [replace(base, covered=replace(base.covered, enabled=False)), base]
    with tempfile.TemporaryDirectory() as scratch:
        folder = scene_folder(args, Path(scratch), default_count=182)
        reports = evaluate_side_by_side(folder, sets)
    lines: list[str] = []
    for title, report in zip(("without covered-card reading", "with it"), reports, strict=False):
        if len(reports) > 1:
            lines += ["", f"== {title}"]
        lines += _rows("group", sorted(report.by_group.items()))
        lines += ["", *_rows("table", sorted(report.by_table.items()))]
        lines += ["", *_rows("all", [("all", report.total)])]
        lines.append(f"\nscenes: {len(report.ms)}, median ms per frame: {float(np.median(report.ms)):.1f}")
    if len(reports) > 1:
        ratio = np.array(reports[1].ms) / np.maximum(np.array(reports[0].ms), 1e-9)
        lines.append(f"median per-frame time ratio, with / without: {float(np.median(ratio)):.2f}")
    if reports[-1].mistakes and "--quiet" not in args:
        lines.append(f"\n{len(reports[-1].mistakes)} mistakes:")
        lines += [f"  {m}" for m in reports[-1].mistakes]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
