"""The finder's work image (``make_work``) of a git revision against the current one, per frame.

Run: ``.venv/bin/python -m benchmarks.work_image --against REV [--repeat N]``.

The ``scanner`` folder of revision ``REV`` is loaded as a second package (as
``benchmarks.scanner_speed --against`` does) and both trees make the work image of the
speed benchmark's frames (1, 4 and 8 separate cards, 4 fanned; 1280x720) taking turns,
round by round, with OpenCV on one thread.  Printed per frame set: the medians of the
thread's CPU time (``time.thread_time``: what the work costs, whatever else runs on the
machine) and of the wall time, and their ratios (current / ``REV``); and whether every
field of the two work images is the same on these frames.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from benchmarks.scanner_speed import cases, cpu_wall_ms, load_tree
from scanner.find_work import Work, make_work
from scanner.params import FindParams

FIELDS = ("grey", "mask", "union", "split", "bright", "regions", "blurred", "colourless", "fine", "gx", "gy")


def same_work(a: Work, b: Work) -> bool:
    """Whether two work images hold the same pixels in every field, and the same light level."""
    return a.light_level == b.light_level and all(
        np.array_equal(getattr(a, name), getattr(b, name)) for name in FIELDS
    )


def compare(rev: str, repeat: int) -> None:
    """Print the current work image's medians against those of revision ``rev``, taking turns."""
    params = FindParams()
    with tempfile.TemporaryDirectory() as scratch:
        _scan, _find, old_work = load_tree(rev, Path(scratch))
        trees: dict[str, Callable[..., Work]] = {"old": old_work.make_work, "new": make_work}
        print(f"make_work, current tree against {rev}: {repeat} rounds, taking turns")
        print(f"load average at start: {os.getloadavg()[0]:.1f}")
        print(
            f"{'frames':>6} {'cpu old':>8} {'cpu new':>8} {'ratio':>6}"
            f" {'wall old':>9} {'wall new':>9} {'ratio':>6}  same"
        )
        for label, images in cases():
            same = all(same_work(trees["old"](im, params), trees["new"](im, params)) for im in images)
            cpu: dict[str, list[float]] = {"old": [], "new": []}
            wall: dict[str, list[float]] = {"old": [], "new": []}
            for round_ in range(repeat):
                order = ("old", "new") if round_ % 2 == 0 else ("new", "old")
                for image in images:
                    for tag in order:
                        spent_cpu, spent_wall = cpu_wall_ms(trees[tag], image, params)
                        cpu[tag].append(spent_cpu)
                        wall[tag].append(spent_wall)
            row = f"{label:>6}"
            for times in (cpu, wall):
                old, new = statistics.median(times["old"]), statistics.median(times["new"])
                row += f" {old:>8.3f} {new:>8.3f} {new / old:>6.3f}"
            print(f"{row}  {'yes' if same else 'NO'}")


def main(argv: list[str] | None = None) -> int:
    """Print the comparison; returns the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--against", metavar="REV", default="HEAD", help="git revision to compare with (default HEAD)"
    )
    parser.add_argument("--repeat", type=int, default=30, help="rounds over every frame (default 30)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    compare(args.against, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
