"""Identification of the finder's cut-outs, on the committed scene fixtures and on held-out scenes.

Run: ``.venv/bin/python -m benchmarks.identify_holdout [--seeds 4711,4712,4713] [--scenes DIR ...] [--json]``.

The acceptance rule of ``scanner.identify`` (scores and margins in
``IdentifyParams``) is judged on scenes it was not tuned on: for each seed, 48
scenes are rendered by ``tools/make_fixtures.py``'s ``make`` into a temporary
folder (the committed fixtures use seed 2026; ``--scenes`` reads folders
rendered earlier instead).  Every card the finder outlines (``find_cards``,
``warp_card``) is matched to the true card by its corners (as in
``benchmarks.scanner_accuracy``) and identified three times: with the committed
parameters, with the first pass alone (the rank-from-face rule, the
spade-or-club check and the wider second search switched off: the identifier
before them), and with the
index (centre) rule alone (the whole face switched off).  Per set it prints the
cut-outs, the identifiable ones (a corner index entirely visible), how many are
named, named right and named wrong (a cut-out of no true card that is named
counts as wrong), and the median and mean time of ``identify`` per cut-out (the rules
take turns on each card, so their times are compared under the same load).
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
FIRST_PASS = replace(IdentifyParams(), wide_search_px=0, rank_face_margin=2.0, club_lead=1.0)


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
        truth_of = {d: t for t, d in _match(scene["cards"], detections, deck).items()}
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
    return tally_rules(cards, {"rule": params})["rule"]


def tally_rules(cards: list[CutOut], rules: dict[str, IdentifyParams]) -> dict[str, dict[str, Any]]:
    """``tally`` for every rule of ``rules``; each card is identified by every rule in turn, so
    the rules' times are measured side by side under the same load."""
    templates = {deck: Templates.builtin(deck) for deck in DeckKind}
    for params in rules.values():
        for card in cards[:3]:
            identify(card.image, templates[card.deck], params)
    counts = {name: dict.fromkeys(("named", "right", "wrong", "identified"), 0) for name in rules}
    times: dict[str, list[float]] = {name: [] for name in rules}
    for card in cards:
        for name, params in rules.items():
            start = time.perf_counter()
            answer = identify(card.image, templates[card.deck], params)
            times[name].append(time.perf_counter() - start)
            if answer.card is None:
                continue
            count = counts[name]
            count["named"] += 1
            count["right"] += answer.card == card.truth
            count["wrong"] += answer.card != card.truth
            count["identified"] += card.identifiable and answer.card == card.truth
    return {
        name: {
            "cut_outs": len(cards),
            "identifiable": sum(c.identifiable for c in cards),
            "named": count["named"],
            "right": count["right"],
            "wrong": count["wrong"],
            "identifiable_right": count["identified"],
            "wrong_pct": 100.0 * count["wrong"] / count["named"] if count["named"] else 0.0,
            "median_ms": 1000.0 * float(np.median(times[name])) if times[name] else float("nan"),
            "mean_ms": 1000.0 * float(np.mean(times[name])) if times[name] else float("nan"),
        }
        for name, count in counts.items()
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
    parser.add_argument(
        "--scenes", nargs="*", default=[], help="folders rendered earlier (instead of --seeds)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    params = ScannerParams()
    sets: dict[str, list[CutOut]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        sets["fixtures"], _ = cut_outs(FIXTURES, params)
        held: list[CutOut] = []
        folders = [Path(f) for f in args.scenes]
        if not folders:
            folders = [render(int(s), Path(tmp) / s) for s in args.seeds.split(",") if s]
        for folder in folders:
            cards, _ = cut_outs(folder, params)
            held += cards
        sets["held-out"] = held
    figures = {
        name: tally_rules(
            cards, {"committed": params.identify, "first_pass": FIRST_PASS, "index_only": INDEX_ONLY}
        )
        for name, cards in sets.items()
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(
        f"{'set':10} {'rule':10} {'cut-outs':>8} {'identif.':>8} {'named':>6} {'right':>6} {'wrong':>6} "
        f"{'wrong%':>7} {'ident. right':>12} {'ms':>6} {'mean ms':>7}"
    )
    for name, rules in figures.items():
        for rule, f in rules.items():
            print(
                f"{name:10} {rule:10} {f['cut_outs']:8d} {f['identifiable']:8d} {f['named']:6d} "
                f"{f['right']:6d} {f['wrong']:6d} {f['wrong_pct']:7.2f} {f['identifiable_right']:12d} "
                f"{f['median_ms']:6.2f} {f['mean_ms']:7.2f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
