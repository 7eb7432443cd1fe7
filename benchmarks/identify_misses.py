"""Why found cards are not identified: a breakdown of the identifier's misses.

Run: ``.venv/bin/python -m benchmarks.identify_misses [--seeds 4711,4712,4713]
[--scenes DIR ...] [--list] [--json]``.

It takes every card the finder cuts out (``find_cards``, ``warp_card``) of the
committed scene fixtures and of scenes rendered under other seeds (``--seeds``,
by ``tools/make_fixtures.py``; ``--scenes`` reads folders rendered earlier, each
with its ``truth.json``), keeps the cut-outs of true cards whose corner index is
entirely visible (``identifiable``), identifies each and, for every one left
unnamed (or named wrongly), looks at why:

- the found quad against the true corners: the mean corner error in canonical
  card pixels (the 200 x 280 card) and whether the same card cut out at its
  true corners is named (``quad`` is the cause when it is);
- which index corners are visible (the top-left one of the card as warped, the
  bottom-right one, or both), the card's short side in frame pixels, and the
  scene's blur and light conditions (``motion``, ``noisy``, ``dim``);
- the identifier's best candidate against the truth: right but rejected, or a
  rank, a suit or a whole-card confusion; for a rejected right candidate, its
  runner-up's relation (a suit or a rank confusion) and which acceptance rule
  of the index fails (``min_score``, ``min_part_score`` by part,
  ``min_margin``) by how much (median shortfall).

Each miss counts once per table of the printout.  Named right and named wrong
are printed per set too, so the misses' share is clear.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from benchmarks.identify_holdout import render
from benchmarks.scanner_accuracy import FIXTURES, _distance, _match, _short_side
from scanner.find import find_cards, warp_card
from scanner.identify import Identification, identify
from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH, IdentifyParams
from scanner.params import ScannerParams
from scanner.templates import Templates
from scanner.types import Detection
from scorer.cards import Card, DeckKind, StdCard, parse_card

QUAD_BUCKETS = (2.0, 4.0, 8.0)
"""Upper bounds (canonical pixels) of the quad-error buckets; the last bucket is open."""
SIZE_BUCKETS = (100.0, 120.0, 140.0)
"""Upper bounds (frame pixels of the card's short side) of the size buckets."""
TURN_BUCKETS = (2.0, 5.0, 10.0)
"""Upper bounds (degrees) of the index-turn buckets."""
SCALE_BUCKETS = (0.05, 0.1, 0.2)
"""Upper bounds of the index-scale error buckets (``|scale - 1|``)."""
CONDITIONS = ("motion", "noisy", "dim", "glare", "arm")


@dataclass(frozen=True)
class Case:
    """One cut-out of an identifiable true card and what the identifier made of it."""

    scene: str
    deck: str
    truth: str
    named: str | None
    candidate: str | None
    runner_up: str | None
    score: float
    margin: float
    parts: tuple[float, ...]
    face_score: float | None
    quad_px: float
    """Mean corner error of the found quad, in canonical card pixels."""
    true_cut_named: bool
    """The same card cut out at its true corners is named right."""
    index_visible: str
    """``both``, ``top-left``, ``bottom-right`` (or ``sideways``, a quad turned 90°): the visible
    index corners of the card as warped."""
    short_px: float
    conditions: tuple[str, ...]
    index_offset_px: float
    """How far (canonical pixels) the nearest visible index centre lies from its place in the cut-out."""
    index_turn_deg: float
    """The cut-out's rotation (degrees) at that index."""
    index_scale: float
    """The cut-out's scale at that index (1: the card's own size)."""


def _index_side(found: np.ndarray[Any, Any], true: np.ndarray[Any, Any], visible: list[bool]) -> str:
    """Which of the true card's visible indices lie at the warped card's top-left or bottom-right."""
    if all(visible):
        return "both"
    # found corner i lies at true corner i + shift: shift 0 upright, 2 turned half round
    shift = min(
        range(4), key=lambda k: float(np.linalg.norm(found - np.roll(true, -k, axis=0), axis=1).mean())
    )
    if shift in (1, 3):
        return "sideways"
    return "top-left" if visible[0] == (shift == 0) else "bottom-right"


INDEX_CENTRE = (22.0, 43.0)
"""The centre of the top-left corner index in canonical card pixels (``scanner.faces.INDEX_BOX``)."""


def index_geometry(
    found: np.ndarray[Any, Any], true: np.ndarray[Any, Any], visible: list[bool]
) -> tuple[float, float, float]:
    """Offset (canonical px), rotation (degrees) and scale of the cut-out at the visible index
    corner that lies nearest its place, as ``(offset, turn, scale)``."""
    w, h = CARD_WIDTH, CARD_HEIGHT
    canon = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    to_frame = cv2.getPerspectiveTransform(canon, true.astype(np.float32))
    to_found = cv2.getPerspectiveTransform(found.astype(np.float32), canon)
    through = to_found @ to_frame
    best = (float("inf"), 0.0, 1.0)
    cx, cy = INDEX_CENTRE
    for corner, seen in enumerate(visible):
        if not seen:
            continue
        centre = (cx, cy) if corner == 0 else (w - 1 - cx, h - 1 - cy)
        step = 10.0 if corner == 0 else -10.0
        points = np.array([[centre, (centre[0] + step, centre[1])]], np.float64)
        mapped = cv2.perspectiveTransform(points, through)[0]
        # the index sits at the top left of the cut-out whichever way up the card was cut
        place = np.array(INDEX_CENTRE) if np.linalg.norm(mapped[0] - INDEX_CENTRE) < 100 else None
        if place is None:
            place = np.array([w - 1 - cx, h - 1 - cy])
        offset = float(np.linalg.norm(mapped[0] - place))
        dx, dy = mapped[1] - mapped[0]
        turn = float(np.degrees(np.arctan2(dy, dx)))
        turn = (turn + 90.0) % 180.0 - 90.0
        if offset < best[0]:
            best = (offset, turn, float(np.hypot(dx, dy) / 10.0))
    return best


def cases(folder: Path, params: ScannerParams) -> list[Case]:
    """Every cut-out of an identifiable true card in the scenes of ``folder``, identified."""
    doc = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    templates = {deck: Templates.builtin(deck) for deck in DeckKind}
    out: list[Case] = []
    for scene in doc["scenes"]:
        deck = DeckKind(scene["deck"])
        image = np.asarray(cv2.imread(str(folder / scene["file"]), cv2.IMREAD_COLOR), dtype=np.uint8)
        try:
            found = find_cards(image, params.find)
        except ValueError as exc:
            print(f"  {scene['file']}: the finder failed: {exc}", file=sys.stderr)
            continue
        detections = tuple(Detection(card=None, confidence=0.0, corners=f.corners, top=f.top) for f in found)
        for ti, di in _match(scene["cards"], detections, deck).items():
            true = scene["cards"][ti]
            if not true["identifiable"]:
                continue
            card = parse_card(true["card"], deck)
            quad = np.array(found[di].corners, np.float64)
            true_quad = np.array(true["corners"], np.float64)
            short = _short_side(true_quad)
            answer = identify(
                warp_card(image, found[di].corners, params.find), templates[deck], params.identify
            )
            (a, b), (c, d), (e, f), (g, h) = true["corners"]
            true_corners = (
                (float(a), float(b)),
                (float(c), float(d)),
                (float(e), float(f)),
                (float(g), float(h)),
            )
            at_truth = identify(warp_card(image, true_corners, params.find), templates[deck], params.identify)
            out.append(_case(scene, true, card, answer, at_truth, quad, true_quad, short))
    return out


def _case(
    scene: dict[str, Any],
    true: dict[str, Any],
    card: Card,
    answer: Identification,
    at_truth: Identification,
    quad: np.ndarray[Any, Any],
    true_quad: np.ndarray[Any, Any],
    short: float,
) -> Case:
    offset, turn, scale = index_geometry(quad, true_quad, list(true["index_visible"]))
    return Case(
        scene=scene["file"],
        deck=scene["deck"],
        truth=str(card),
        named=None if answer.card is None else str(answer.card),
        candidate=None if answer.candidate is None else str(answer.candidate),
        runner_up=None if answer.runner_up is None else str(answer.runner_up),
        score=answer.confidence,
        margin=answer.margin,
        parts=answer.part_scores,
        face_score=answer.face_score,
        quad_px=_distance(quad, true_quad) * CARD_WIDTH / short,
        true_cut_named=at_truth.card == card,
        index_visible=_index_side(quad, true_quad, list(true["index_visible"])),
        short_px=short,
        conditions=tuple(c for c in scene["conditions"] if c in CONDITIONS),
        index_offset_px=offset,
        index_turn_deg=turn,
        index_scale=scale,
    )


def relation(truth: str, other: str | None, deck: str) -> str:
    """How ``other`` differs from ``truth``: ``same``, ``suit``, ``rank``, ``both`` or ``card``."""
    if other is None:
        return "none"
    if other == truth:
        return "same"
    a, b = parse_card(truth, DeckKind(deck)), parse_card(other, DeckKind(deck))
    if isinstance(a, StdCard) and isinstance(b, StdCard):
        if a.rank == b.rank:
            return "suit"
        return "rank" if a.suit == b.suit else "both"
    return "card"


def failing_rules(case: Case, p: IdentifyParams) -> list[tuple[str, float]]:
    """The index rule's checks the best candidate misses, each with its shortfall."""
    out = []
    if case.score < p.min_score:
        out.append(("min_score", p.min_score - case.score))
    names = ("rank", "suit") if len(case.parts) == 2 else ("centre",)
    for name, value in zip(names, case.parts, strict=False):
        if value < p.min_part_score:
            out.append((f"min_part_score ({name})", p.min_part_score - value))
    if case.margin < p.min_margin:
        out.append(("min_margin", p.min_margin - case.margin))
    return out


def _bucket(value: float, bounds: Iterable[float], unit: str) -> str:
    low = 0.0
    for high in bounds:
        if value < high:
            return f"{low:g}-{high:g} {unit}"
        low = high
    return f">= {low:g} {unit}"


def breakdown(all_cases: list[Case], p: IdentifyParams) -> dict[str, Any]:
    """The counts of one set: overall, and per cause for the misses."""
    misses = [c for c in all_cases if c.named != c.truth]
    unnamed = [c for c in misses if c.named is None]
    rules: Counter[str] = Counter()
    shortfalls: dict[str, list[float]] = {}
    for case in unnamed:
        if case.candidate != case.truth:
            continue
        for rule, short in failing_rules(case, p):
            rules[rule] += 1
            shortfalls.setdefault(rule, []).append(short)
    return {
        "cut-outs": len(all_cases),
        "named right": sum(c.named == c.truth for c in all_cases),
        "named wrong": sum(c.named is not None and c.named != c.truth for c in all_cases),
        "not named": len(unnamed),
        "deck": Counter(c.deck for c in unnamed),
        "candidate vs truth": Counter(relation(c.truth, c.candidate, c.deck) for c in unnamed),
        "runner-up of a right candidate": Counter(
            relation(c.truth, c.runner_up, c.deck) for c in unnamed if c.candidate == c.truth
        ),
        "failing rule of a right candidate": rules,
        "median shortfall": {k: round(float(np.median(v)), 3) for k, v in shortfalls.items()},
        "quad error": Counter(_bucket(c.quad_px, QUAD_BUCKETS, "px") for c in unnamed),
        "quad error (named right)": Counter(
            _bucket(c.quad_px, QUAD_BUCKETS, "px") for c in all_cases if c.named == c.truth
        ),
        "index offset": Counter(_bucket(c.index_offset_px, QUAD_BUCKETS, "px") for c in unnamed),
        "index offset (named right)": Counter(
            _bucket(c.index_offset_px, QUAD_BUCKETS, "px") for c in all_cases if c.named == c.truth
        ),
        "index turn": Counter(_bucket(abs(c.index_turn_deg), TURN_BUCKETS, "deg") for c in unnamed),
        "index scale": Counter(_bucket(abs(c.index_scale - 1.0), SCALE_BUCKETS, "off") for c in unnamed),
        "named when cut at the true corners": Counter("yes" if c.true_cut_named else "no" for c in unnamed),
        "index visible": Counter(c.index_visible for c in unnamed),
        "card short side": Counter(_bucket(c.short_px, SIZE_BUCKETS, "px") for c in unnamed),
        "card short side (all)": Counter(_bucket(c.short_px, SIZE_BUCKETS, "px") for c in all_cases),
        "conditions": Counter(k for c in unnamed for k in (c.conditions or ("clean",))),
        "conditions (all)": Counter(k for c in all_cases for k in (c.conditions or ("clean",))),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="4711,4712,4713", help="held-out seeds to render, comma-separated")
    parser.add_argument(
        "--scenes", nargs="*", default=[], help="folders rendered earlier (instead of --seeds)"
    )
    parser.add_argument("--list", action="store_true", help="print every miss")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    params = ScannerParams()
    sets: dict[str, list[Case]] = {"fixtures": cases(FIXTURES, params)}
    held: list[Case] = []
    with tempfile.TemporaryDirectory() as tmp:
        folders = [Path(f) for f in args.scenes]
        if not folders:
            folders = [render(int(s), Path(tmp) / s) for s in args.seeds.split(",") if s]
        for folder in folders:
            held += cases(folder, params)
    sets["held-out"] = held
    figures = {name: breakdown(found, params.identify) for name, found in sets.items()}
    if args.json:
        print(json.dumps(figures, indent=2, sort_keys=True))
        return 0
    for name, figure in figures.items():
        print(f"== {name}")
        for key, value in figure.items():
            if isinstance(value, dict):
                items = ", ".join(f"{k} {v}" for k, v in sorted(value.items(), key=lambda kv: str(kv[0])))
                print(f"  {key}: {items}")
            else:
                print(f"  {key}: {value}")
        if args.list:
            for case in sets[name]:
                if case.named != case.truth:
                    print("   ", json.dumps(asdict(case)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
