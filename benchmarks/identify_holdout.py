"""Identification of the finder's cut-outs, on the committed scene fixtures and on held-out scenes.

Run: ``.venv/bin/python -m benchmarks.identify_holdout [--seeds 4711,4712,4713] [--json]``.

The acceptance rule of ``scanner.identify`` (scores and margins in
``IdentifyParams``) is judged on scenes it was not tuned on: for each seed, 48
scenes are rendered by ``tools/make_fixtures.py``'s ``make`` into a temporary
folder (the committed fixtures use seed 2026).  Every card the finder outlines
(``find_cards``, ``warp_card``) is matched to the true card by its corners (as in
``benchmarks.scanner_accuracy``) and identified twice: with the committed
parameters, and with the index (centre) rule alone (the whole face switched
off).  Per set it prints the cut-outs, the identifiable ones (a corner index
entirely visible), how many are named, named right and named wrong (a cut-out
of no true card that is named counts as wrong), and the median time of
``identify`` per cut-out.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from benchmarks.scanner_accuracy import FIXTURES, ROOT, _match
from scanner.find import find_cards, warp_card
from scanner.identify import identify
from scanner.identify_params import IdentifyParams
from scanner.params import ScannerParams
from scanner.templates import Templates
from scanner.types import Detection, Image
from scorer.cards import Card, DeckKind, parse_card

INDEX_ONLY = replace(IdentifyParams(), face_weight=0.0, agree_face_score=2.0)


@dataclass(frozen=True)
class CutOut:
    """One warped card the finder outlined, with the true card there (``None``: no card)."""

    image: Image
    deck: DeckKind
    truth: Card | None
    identifiable: bool


def cut_outs(folder: Path, params: ScannerParams) -> tuple[list[CutOut], int]:
    """Every cut-out of the scenes of ``folder`` and how many scenes the finder failed on."""
    doc = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    out: list[CutOut] = []
    failed = 0
    for scene in doc["scenes"]:
        deck = DeckKind(scene["deck"])
        image = np.asarray(cv2.imread(str(folder / scene["file"]), cv2.IMREAD_COLOR), dtype=np.uint8)
        try:
            found = find_cards(image, params.find)
        except ValueError as exc:  # a finder failure is reported, not fatal here
            print(f"  {scene['file']}: the finder failed: {exc}", file=sys.stderr)
            failed += 1
            continue
        detections = tuple(Detection(card=None, confidence=0.0, corners=f.corners, top=f.top) for f in found)
        truth_of = {d: t for t, d in _match(scene["cards"], detections).items()}
        for index, card in enumerate(found):
            true = scene["cards"][truth_of[index]] if index in truth_of else None
            out.append(
                CutOut(
                    image=warp_card(image, card.corners, params.find),
                    deck=deck,
                    truth=parse_card(true["card"], deck) if true else None,
                    identifiable=bool(true and true["identifiable"]),
                )
            )
    return out, failed


def tally(cards: list[CutOut], params: IdentifyParams) -> dict[str, Any]:
    """Named, right and wrong over ``cards`` with ``params``, and the median ms per card."""
    templates = {deck: Templates.builtin(deck) for deck in DeckKind}
    for card in cards[:3]:
        identify(card.image, templates[card.deck], params)
    named = right = wrong = identified = 0
    times = []
    for card in cards:
        start = time.perf_counter()
        answer = identify(card.image, templates[card.deck], params)
        times.append(time.perf_counter() - start)
        if answer.card is None:
            continue
        named += 1
        right += answer.card == card.truth
        wrong += answer.card != card.truth
        identified += card.identifiable and answer.card == card.truth
    return {
        "cut_outs": len(cards),
        "identifiable": sum(c.identifiable for c in cards),
        "named": named,
        "right": right,
        "wrong": wrong,
        "identifiable_right": identified,
        "wrong_pct": 100.0 * wrong / named if named else 0.0,
        "median_ms": 1000.0 * float(np.median(times)) if times else float("nan"),
    }


def render(seed: int, out: Path) -> Path:
    """Render the 48 scenes of ``seed`` into ``out`` with the fixture maker."""
    sys.path.insert(0, str(ROOT / "tools"))
    import make_fixtures  # type: ignore[import-not-found]  # a script folder, imported on demand

    make_fixtures.make(out, seed)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="4711,4712,4713", help="held-out seeds, comma-separated")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    params = ScannerParams()
    sets: dict[str, list[CutOut]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        sets["fixtures"], _ = cut_outs(FIXTURES, params)
        held: list[CutOut] = []
        for seed in (int(s) for s in args.seeds.split(",") if s):
            cards, _ = cut_outs(render(seed, Path(tmp) / str(seed)), params)
            held += cards
        sets["held-out"] = held
    figures = {
        name: {"committed": tally(cards, params.identify), "index_only": tally(cards, INDEX_ONLY)}
        for name, cards in sets.items()
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(
        f"{'set':10} {'rule':10} {'cut-outs':>8} {'identif.':>8} {'named':>6} {'right':>6} {'wrong':>6} "
        f"{'wrong%':>7} {'ident. right':>12} {'ms':>6}"
    )
    for name, rules in figures.items():
        for rule, f in rules.items():
            print(
                f"{name:10} {rule:10} {f['cut_outs']:8d} {f['identifiable']:8d} {f['named']:6d} "
                f"{f['right']:6d} {f['wrong']:6d} {f['wrong_pct']:7.2f} {f['identifiable_right']:12d} "
                f"{f['median_ms']:6.2f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
