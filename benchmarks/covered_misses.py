"""Why visible cards go unnamed: the causes of covered-card reading's misses, counted.

Run: ``.venv/bin/python -m benchmarks.covered_misses [FOLDER] [--seed N [--count M]]
[--side-by-side]``
(default: the committed fixtures ``tests/fixtures/scenes``; ``--seed`` renders held-out
scenes). Every visible card (a corner index entirely visible) that the scanner does not
name right is looked at from its true index corners (``truth.json``):

- the corner proposal nearest the true corner whose ``across`` runs within 20 degrees of the
  card's short side, and its distance (a proposal within 0.15 of the card's short side
  counts as proposed);
- the index read at the true card (``covered_read.read_corner`` on the true corners): named,
  ranked first but below the thresholds, or another card ranked first;
- the index read at the proposal, at the card sizes ``scan_covered`` reads it at (the frame's,
  or those the cards identified imply at its place, ``CoveredParams.local_size``) and at the
  true size.

With ``--side-by-side`` it prints instead, for every scene scanned both ways in turn, the
figures (identified, wrong, top card right, median ms per frame and the median per-frame
time ratio) with the last resorts of covered-card reading off (``CoveredParams.shift_reads``
0, ``cluster_probes`` off) and on.

Causes: ``not proposed`` (split by what the true card's index reads), ``size`` (proposed,
misread at the frame's sizes, named at the true size), ``read, dropped`` (named at a
proposal at the frame's size, yet the scan left it out: the read budget, a veto, a merge),
``below thresholds`` and ``not first`` (the true card's own index is not clear enough),
``misread`` (the rest). One line per miss, then the counts.
"""

from __future__ import annotations

import json
import math
import sys
import tempfile
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from benchmarks.scanner_accuracy import _match, _short_side, evaluate_side_by_side, scene_folder
from scanner.covered_read import CornerReading, read_corner
from scanner.find import find_cards
from scanner.find_corners import card_quad, corner_proposals
from scanner.find_work import make_work
from scanner.params import ScannerParams
from scanner.scan import Scanner
from scanner.scan_covered import _card_shorts, _local_sizes
from scorer.cards import DeckKind, parse_card

NEAR = 0.15
"""A proposal within this fraction of the card's short side of its true corner proposes it."""
ALIGNED = math.cos(math.radians(20.0))


def _fmt(r: CornerReading) -> str:
    return f"{r.candidate} {r.score:.2f}/{r.margin:.3f}/{r.least_part:.2f}"


def misses(folder: Path) -> tuple[list[str], Counter[str]]:
    """One line per visible card not named right in ``folder``'s scenes, and the causes counted."""
    truth = json.loads((folder / "truth.json").read_text())
    scanners = {kind: Scanner(kind) for kind in DeckKind}
    lines: list[str] = []
    causes: Counter[str] = Counter()
    for scene in truth["scenes"]:
        deck = DeckKind(scene["deck"])
        scanner = scanners[deck]
        templates = scanner.templates
        assert templates is not None
        params = scanner.params
        frame = cv2.imread(str(folder / scene["file"]))
        if frame is None:
            raise ValueError(f"cannot read {folder / scene['file']}")
        detections = scanner.scan(frame).detections
        match = _match(scene["cards"], detections, deck)
        work = make_work(frame, params.find)
        proposals = corner_proposals(work, params.find, params.covered)
        points = np.array([p.point for p in proposals]).reshape(-1, 2) / work.scale
        acrosses = np.array([p.across for p in proposals]).reshape(-1, 2)
        found = [scanner._detect(frame, c)[0] for c in find_cards(frame, params.find, work)]
        shorts = [s / work.scale for s in _card_shorts(found, work, params)]
        identified = [np.asarray(d.corners, np.float64) * work.scale for d in found if d.card is not None]
        # a corner's own sizes where the cards identified imply one there (CoveredParams.local_size)
        local = _local_sizes(proposals, [s * work.scale for s in shorts], identified, {}, params)
        for ti, t in enumerate(scene["cards"]):
            card = parse_card(t["card"], deck)
            di = match.get(ti)
            if not t["identifiable"] or (di is not None and detections[di].card == card):
                continue
            quad = np.array(t["corners"], np.float64)
            true_short = _short_side(quad)
            best: dict[str, Any] | None = None
            for k, shown in enumerate(t["index_visible"]):
                if not shown:
                    continue
                q = np.roll(quad, -2 * k, axis=0)  # the index corner first
                across = (q[1] - q[0]) / np.linalg.norm(q[1] - q[0])
                at_truth = read_corner(frame, q, templates, params)
                gap, j = math.inf, -1
                if len(proposals):
                    dist = np.where(acrosses @ across >= ALIGNED, np.hypot(*(points - q[0]).T), np.inf)
                    j = int(np.argmin(dist))
                    gap = float(dist[j])
                at_proposal: list[CornerReading] = []
                sizes = [s / work.scale for s in local[j]] if j in local else shorts
                if gap < NEAR * true_short:
                    at_proposal = [
                        read_corner(
                            frame,
                            card_quad(proposals[j], s * work.scale, params.find.card_aspect) / work.scale,
                            templates,
                            params,
                        )
                        for s in [*sizes, true_short]
                    ]
                info = {"gap": gap, "truth": at_truth, "proposal": at_proposal, "sizes": sizes}
                if best is None or (at_truth.card == card and best["truth"].card != card):
                    best = info
            if best is None:
                continue
            r: CornerReading = best["truth"]
            readings: list[CornerReading] = best["proposal"]
            if di is not None and detections[di].card is not None:
                cause = "named wrong"
            elif not readings:
                what = "readable" if r.card == card else "first" if r.candidate == card else "unreadable"
                cause = f"not proposed ({what})"
            elif any(x.card == card for x in readings[:-1]):
                cause = "read, dropped"
            elif readings[-1].card == card:
                cause = "size"
            elif r.card == card:
                cause = "misread"
            elif r.candidate == card:
                cause = "below thresholds"
            else:
                cause = "not first"
            causes[cause] += 1
            lines.append(
                f"{scene['file']} {t['card']:>3} {t['group']:6} {cause:24} gap {best['gap']:5.0f}"
                f" short {true_short:4.0f} sizes {[round(s) for s in best['sizes']]} true: {_fmt(r)}"
                + (" at proposal: " + ", ".join(_fmt(x) for x in readings) if readings else "")
            )
    return lines, causes


def side_by_side(folder: Path) -> list[str]:
    """The figures of ``folder`` with moved reads and cluster sizes off and on, side by side."""
    base = ScannerParams()
    off = replace(base, covered=replace(base.covered, shift_reads=0, cluster_probes=False))
    reports = evaluate_side_by_side(folder, [off, base])
    lines = []
    for title, report in zip(("off", "on"), reports, strict=True):
        t = report.total
        lines.append(
            f"{title:>3}: identified {t.identified}/{t.visible} ({t.identified_pct:.1f}%), found"
            f" {t.found_pct:.1f}%, wrong {t.wrong}/{t.named} ({t.wrong_pct:.2f}%), top right"
            f" {t.top_right}/{t.piles} ({t.top_pct:.1f}%), median ms per frame {np.median(report.ms):.1f}"
        )
        lines += [f"       {m}" for m in report.mistakes if " read as " in m or "false card" in m]
    ratio = np.asarray(reports[1].ms) / np.maximum(np.asarray(reports[0].ms), 1e-9)
    lines.append(f"median per-frame time ratio, on / off: {float(np.median(ratio)):.2f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Print the misses of a fixture folder (or of rendered held-out scenes); returns 0."""
    args = sys.argv[1:] if argv is None else argv
    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as scratch:
        folder = scene_folder(args, Path(scratch), default_count=64)
        if "--side-by-side" in args:
            print("\n".join(side_by_side(folder)))
            return 0
        lines, causes = misses(folder)
    print("\n".join(lines))
    print(f"\n{sum(causes.values())} visible cards not named right:")
    for cause, n in causes.most_common():
        print(f"  {cause:24} {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
