"""How long the scene renderer takes per 1280x720 frame, and a card face uncached.

Run: ``.venv/bin/python -m benchmarks.scene_render``. Prints the median of
several renders per scene kind (the same scene each time, a new noise seed), so
whoever renders frame sequences (recorded games, the watcher's tests) knows the
cost of a frame.
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

from scanner import faces
from scanner.scenes import Scene, render
from scanner.scenes_layout import random_scene
from scorer.cards import DeckKind, OctoCard, StdCard

REPEATS = 7


def _median_ms(scene: Scene) -> float:
    times = []
    for k in range(REPEATS):
        rng = np.random.default_rng(k)
        start = time.perf_counter()
        render(scene, rng)
        times.append((time.perf_counter() - start) * 1000.0)
    return statistics.median(times)


def main() -> int:
    """Print the figures."""
    kinds = [
        ("1 card, tilt 0, no arm", dict(layout="single", tilt_deg=0.0)),
        ("pile of 2-8, tilt 10", dict(layout="pile", tilt_deg=10.0)),
        ("pile of 2-8, tilt 10, arm", dict(layout="pile", tilt_deg=10.0, arms=1)),
        ("fan of 2-8, tilt 20, glare, motion", dict(layout="fan", tilt_deg=20.0, glare=True, motion=True)),
        ("hands of 2-4 seats, tilt 5", dict(layout="hands", tilt_deg=5.0)),
    ]
    print(f"scene render, 1280x720, median of {REPEATS} renders per scene (ms)")
    for name, options in kinds:
        layout = str(options.pop("layout"))
        scene = random_scene(np.random.default_rng(11), DeckKind.OCTOPLUS, layout, **options)  # type: ignore[arg-type]
        print(f"  {name:40s} {len(scene.cards):2d} cards  {_median_ms(scene):7.1f} ms")
    for w, h in ((200, 280), (400, 560)):
        times = []
        for card in (StdCard.parse("7H"), StdCard.parse("KS"), OctoCard.number(5), OctoCard.parse("P")):
            faces._render.cache_clear()
            start = time.perf_counter()
            faces.render_face(card, w, h)
            times.append((time.perf_counter() - start) * 1000.0)
        print(f"  face {w}x{h}, uncached: median {statistics.median(times):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
