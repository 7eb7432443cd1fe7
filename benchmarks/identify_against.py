"""Per-card identification time of the current tree against another revision, taking turns.

Run: ``.venv/bin/python -m benchmarks.identify_against REV [--rounds N]``.

Every card found on the 4- and 8-card frames of ``benchmarks.scanner_speed`` (48 cards) is
identified as ``Scanner.scan`` does it (``identify`` of its ``CardView``: the card warped only
where it is read) by the identifier of revision ``REV`` (its ``scanner`` folder loaded as a
second package) and by the current one, the two taking turns card by card, ``--rounds`` times,
in colour and with the frames made grey.  Printed per case: the median milliseconds per card of
each tree in CPU time of the calling thread (what the identifier itself costs: time the
scheduler gives other processes on a shared machine is left out) and in wall time, their ratios
(current / ``REV``), the median of the per-card ratios, and the mean milliseconds per card of
each tree with their ratio (what a frame pays: a step that only some cards take, such as the
twin look, moves the mean and not the median).  OpenCV runs on one thread.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import tempfile
from pathlib import Path

import cv2
import numpy as np

from benchmarks.scanner_speed import cpu_wall_ms, frames, load_tree
from scanner.find import find_cards
from scanner.identify import identify
from scanner.identify_view import CardView
from scanner.scan import Scanner
from scanner.types import Quad
from scorer.cards import DeckKind


def main(argv: list[str] | None = None) -> int:
    """Print the side-by-side per-card figures; returns the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "rev", nargs="?", default="HEAD", help="the git revision to compare against (default HEAD)"
    )
    parser.add_argument("--rounds", type=int, default=10, help="identifications of every card by each tree")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as scratch:
        old_scan, _find, _work = load_tree(args.rev, Path(scratch))
        package = old_scan.__name__.rsplit(".", 1)[0]
        old_identify = importlib.import_module(f"{package}.identify").identify
        old_view = importlib.import_module(f"{package}.identify_view").CardView
        old, new = old_scan.Scanner(DeckKind.OKTRIS), Scanner(DeckKind.OKTRIS)
        old.warm_up()
        new.warm_up()
        assert new.templates is not None
        templates = new.templates

        def run_old(image: np.ndarray, corners: Quad) -> object:
            return old_identify(old_view(image, corners, old.params.find), old.templates, old.params.identify)

        def run_new(image: np.ndarray, corners: Quad) -> object:
            return identify(CardView(image, corners, new.params.find), templates, new.params.identify)

        runs = {"old": run_old, "new": run_new}
        images = frames(4, seed=4) + frames(8, seed=8)
        cards = [(image, card.corners) for image in images for card in find_cards(image, new.params.find)]
        grey = [(np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8), c) for image, c in cards]
        print(
            f"identify per card, current tree against {args.rev}: {len(cards)} cards x {args.rounds} rounds"
        )
        print(f"load average at start: {os.getloadavg()[0]:.1f}")
        print(
            f"{'frames':>6} {'clock':>6} {'old ms':>7} {'new ms':>7} {'ratio':>6} {'per-card ratio':>15}"
            f" {'old mean':>9} {'new mean':>9} {'ratio':>6}"
        )
        for label, case in (("colour", cards), ("grey", grey)):
            times: dict[tuple[str, str], list[float]] = {}
            for round_ in range(args.rounds):
                for image, corners in case:
                    for tag in ("old", "new") if round_ % 2 == 0 else ("new", "old"):
                        cpu, wall = cpu_wall_ms(runs[tag], image, corners)
                        times.setdefault((tag, "cpu"), []).append(cpu)
                        times.setdefault((tag, "wall"), []).append(wall)
            for clock in ("cpu", "wall"):
                before, after = times[("old", clock)], times[("new", clock)]
                o, n = statistics.median(before), statistics.median(after)
                per_card = statistics.median(b / a for a, b in zip(before, after, strict=True) if a > 0)
                mo, mn = statistics.fmean(before), statistics.fmean(after)
                print(
                    f"{label:>6} {clock:>6} {o:>7.3f} {n:>7.3f} {n / o:>6.3f} {per_card:>15.3f}"
                    f" {mo:>9.3f} {mn:>9.3f} {mn / mo:>6.3f}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
