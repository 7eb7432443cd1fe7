"""Render the committed scene fixtures: ``tests/fixtures/scenes/`` (JPEG images and ``truth.json``).

Run from the repository root: ``.venv/bin/python tools/make_fixtures.py [--out DIR] [--seed N]``.
The same seed always writes the same files. The schema of ``truth.json`` is
described in ``tests/fixtures/scenes/README.md``.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scanner.scenes import Scene, SceneTruth, render  # noqa: E402
from scanner.scenes_layout import LAYOUTS, random_scene  # noqa: E402
from scanner.scenes_paint import TableKind  # noqa: E402
from scorer.cards import DeckKind  # noqa: E402

log = logging.getLogger("make_fixtures")

SCHEMA = 1
COUNT = 48
TILTS = (0.0, 5.0, 10.0, 15.0, 20.0, 8.0)


def _conditions(i: int) -> dict[str, Any]:
    """The conditions of fixture ``i``: every condition recurs across decks, layouts and tables."""
    return {
        "deck": DeckKind.OKTRIS if i % 2 == 0 else DeckKind.OCTOPLUS,
        "layout": LAYOUTS[(i // 2) % len(LAYOUTS)],
        "table": list(TableKind)[(i // 3) % len(TableKind)],
        "tilt_deg": TILTS[i % len(TILTS)],
        "glare": i % 3 == 1,
        "arms": 1 if i % 4 == 2 else (2 if i % 11 == 7 else 0),
        "motion": i % 5 == 3,
        "noisy": i % 6 == 4,
        "dim": i % 7 == 5,
        "jpeg_quality": (75, 68, 80)[i % 3],
    }


def _truth_json(truth: SceneTruth) -> list[dict[str, Any]]:
    return [
        {
            "card": str(c.card),
            "corners": [[round(x, 2), round(y, 2)] for x, y in c.corners],
            "z": c.z,
            "top": c.top,
            "visible_fraction": c.visible_fraction,
            "index_visible": list(c.index_visible),
            "identifiable": c.identifiable,
            "group": c.group,
            "seat": c.seat,
        }
        for c in truth.cards
    ]


def render_scene(seed: int, index: int) -> tuple[dict[str, Any], Scene, np.ndarray, SceneTruth]:
    """Scene ``index`` of the set rendered with ``seed``: its conditions, layout, image (before
    JPEG) and truth.  The same seed and index always give the same scene."""
    cond = _conditions(index)
    rng = np.random.default_rng([seed, index])
    scene = random_scene(
        rng,
        cond["deck"],
        cond["layout"],
        table=cond["table"],
        tilt_deg=cond["tilt_deg"],
        glare=cond["glare"],
        dim=cond["dim"],
        motion=cond["motion"],
        noisy=cond["noisy"],
        arms=cond["arms"],
    )
    image, truth = render(scene, rng)
    return cond, scene, image, truth


LINE = 240
"""Widest line of ``truth.json``: a value whose JSON fits on one line is written on one line."""


def dumps(value: Any, indent: int = 0) -> str:
    """JSON of ``value``, each list or object that fits in ``LINE`` characters on one line, the
    others one item per line (``truth.json``: a card or a homography per line, about half the bytes
    of one number per line)."""
    flat = json.dumps(value)
    if len(flat) + indent <= LINE or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = " " * (indent + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {dumps(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + dumps(v, indent + 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def make(out: Path, seed: int, count: int = COUNT) -> dict[str, Any]:
    """Render ``count`` scenes into ``out``; returns the truth document written as ``truth.json``."""
    out.mkdir(parents=True, exist_ok=True)
    scenes = []
    for i in range(count):
        cond, scene, image, truth = render_scene(seed, i)
        name = f"scene_{i:03d}.jpg"
        ok = cv2.imwrite(
            str(out / name),
            image,
            [cv2.IMWRITE_JPEG_QUALITY, cond["jpeg_quality"], cv2.IMWRITE_JPEG_OPTIMIZE, 1],
        )
        if not ok:
            raise OSError(f"could not write {out / name}")
        tags = [cond["table"].value, f"tilt-{cond['tilt_deg']:g}", cond["layout"]]
        tags += [t for t in ("glare", "motion", "noisy", "dim") if cond[t]]
        if cond["arms"]:
            tags.append("arm")
        scenes.append(
            {
                "file": name,
                "deck": cond["deck"].value,
                "width": scene.width,
                "height": scene.height,
                "card_px": round(scene.card_px, 2),
                "jpeg_quality": cond["jpeg_quality"],
                "conditions": tags,
                "homography": [[round(v, 8) for v in row] for row in truth.homography],
                "cards": _truth_json(truth),
            }
        )
        log.info("%s: %s, %d cards", name, ", ".join(tags), len(truth.cards))
    doc = {"schema": SCHEMA, "seed": seed, "scenes": scenes}
    (out / "truth.json").write_text(dumps(doc) + "\n", encoding="utf-8")
    return doc


def main(argv: list[str] | None = None) -> int:
    """Parse the options and write the fixtures; returns the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "fixtures" / "scenes")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--count", type=int, default=COUNT)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    make(args.out, args.seed, args.count)
    total = sum(p.stat().st_size for p in args.out.iterdir())
    log.info("wrote %d scenes to %s (%.2f MB)", args.count, args.out, total / 1e6)
    return 0


if __name__ == "__main__":
    sys.exit(main())
