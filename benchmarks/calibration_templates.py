"""Templates learned from guided captures against the shipped ones, on the same evaluation cards.

Run: ``.venv/bin/python -m benchmarks.calibration_templates [--seeds 11,12,13]
[--deck oktris|octoplus] [--json]``.

Sets: the committed calibration fixtures (``tests/fixtures/calibration``) and,
per seed, a set rendered on the fly by ``tools/make_calibration_fixtures.py``'s
``make_captures`` and ``make_evaluation`` into a temporary folder (other cards
positions, light and blur than the committed one: the learning was tuned on
those, not on the committed set).  A set is 3 guided captures of each of the 32
Oktris cards at 480x270 and 4 frames holding every card once in other light at
960x540 (cards about 115 px long).  With ``--deck octoplus`` only rendered sets
of the 10 Octoplus faces are measured (there is no committed Octoplus set).

Each card's capture frames are offered to a one-card ``CaptureSession`` (held
still twice), so a card that stalls cannot shift the labels of the next.  The
evaluation cards are cut out as the finder outlines them and identified with:

- ``built-in``: the shipped templates;
- ``one capture each``: every capture a template of its own (cleaned corners,
  turned alike), the way templates were learned before captures were combined;
- ``aligned + averaged``: captures aligned onto the shipped face (or the
  medoid) and averaged, parts not shared;
- ``learned``: what ``CaptureSession.learn`` makes (aligned, averaged, the
  corner index's rank and suit shared among the cards that print them).

Per set and over all sets it prints identified %, wrong %, right card ranked
first %, the median lead of the right card over the next (negative when another
card ranks first), and the time ``learn`` took.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.capture import CaptureParams, CaptureSession, clean_corners, combine_all
from calibration.table import find_play_area
from calibration.template_combine import CombineParams
from scanner.find import find_cards, warp_card
from scanner.identify import identify
from scanner.params import FindParams
from scanner.templates import Templates
from scanner.types import Image
from scorer.cards import Card, DeckKind, parse_card

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = ROOT / "tests" / "fixtures" / "calibration"


def _read(folder: Path, name: str) -> Image:
    image = cv2.imread(str(folder / name), cv2.IMREAD_COLOR)
    if image is None:
        raise SystemExit(f"cannot read {folder / name}")
    return np.asarray(image, dtype=np.uint8)


def render_set(out: Path, seed: int, deck: DeckKind) -> dict[str, Any]:
    """Render capture and evaluation frames for ``seed`` into ``out``; returns their truth."""
    sys.path.insert(0, str(ROOT / "tools"))
    import make_calibration_fixtures as make  # type: ignore[import-not-found]  # a script folder

    from scanner.templates import expected_cards

    rng = np.random.default_rng(seed)
    cards = expected_cards(deck)
    truth = {
        "captures": make.make_captures(out, rng, cards),
        "evaluation": make.make_evaluation(out, rng, cards),
    }
    (out / "truth.json").write_text(json.dumps(truth), encoding="utf-8")
    return truth


def captures_of(folder: Path, truth: dict[str, Any], deck: DeckKind) -> dict[Card, list[Image]]:
    """Every card's captures, each card's frames offered to a one-card session."""
    area = find_play_area(_read(folder, "capture/empty.jpg"))
    captures: dict[Card, list[Image]] = {}
    for record in truth["captures"]:
        card = parse_card(record["card"], deck)
        session = CaptureSession(deck, cards=(card,), area=area)
        frame = _read(folder, record["image"])
        for _ in range(2):
            session.offer(frame)
        captures.setdefault(card, []).extend(session.captures.get(card, []))
    return captures


def evaluation_cards(folder: Path, truth: dict[str, Any]) -> list[tuple[str, Image]]:
    """Every evaluation card, cut out where the finder outlines it, with its label."""
    out = []
    for record in truth["evaluation"]:
        frame = _read(folder, record["image"])
        found = find_cards(frame, FindParams())
        for card in record["cards"]:
            centre = np.mean(card["corners"], axis=0)
            near = min(found, key=lambda f: float(np.linalg.norm(np.mean(f.corners, axis=0) - centre)))
            out.append((card["card"], warp_card(frame, near.corners, FindParams())))
    return out


def _one_capture_each(captures: dict[Card, list[Image]], deck: DeckKind) -> Templates:
    faces = {card: tuple(clean_corners(i) for i in combine_all(images)) for card, images in captures.items()}
    return Templates(deck, faces, source="<one capture each>")


def _learned(captures: dict[Card, list[Image]], deck: DeckKind, combine: CombineParams) -> Templates:
    session = CaptureSession(deck, params=CaptureParams(combine=combine))
    session.captures = {card: list(images) for card, images in captures.items()}
    return session.learn()


VARIANTS: dict[str, Callable[[dict[Card, list[Image]], DeckKind], Templates]] = {
    "built-in": lambda _, deck: Templates.builtin(deck),
    "one capture each": _one_capture_each,
    "aligned + averaged": lambda c, deck: _learned(c, deck, CombineParams(share_parts=False)),
    "learned": lambda c, deck: _learned(c, deck, CombineParams()),
}


def score(templates: Templates, cards: list[tuple[str, Image]]) -> dict[str, float]:
    """Counts and the median lead of the right card for ``cards`` read with ``templates``."""
    right = wrong = first = 0
    leads = []
    for label, image in cards:
        answer = identify(image, templates)
        right += int(str(answer.card) == label)
        wrong += int(answer.card is not None and str(answer.card) != label)
        ranked_first = str(answer.candidate) == label
        first += int(ranked_first)
        leads.append(answer.margin if ranked_first else -answer.margin)
    n = len(cards)
    return {
        "cards": n,
        "identified": 100.0 * right / n,
        "wrong": 100.0 * wrong / n,
        "first": 100.0 * first / n,
        "median_lead": statistics.median(leads),
    }


def measure(name: str, folder: Path, truth: dict[str, Any], deck: DeckKind) -> dict[str, dict[str, float]]:
    """Every variant's figures on one set (printed as they come)."""
    captures = captures_of(folder, truth, deck)
    cards = evaluation_cards(folder, truth)
    taken = sum(len(v) for v in captures.values())
    print(f"{name}: {taken} captures of {len(captures)} cards, {len(cards)} evaluation cards")
    out = {}
    for variant, make in VARIANTS.items():
        start = time.perf_counter()
        templates = make(captures, deck)
        learn_ms = (time.perf_counter() - start) * 1000.0
        figures = score(templates, cards) | {"learn_ms": learn_ms}
        out[variant] = figures
        print(
            f"  {variant:20} identified {figures['identified']:5.1f}%  wrong {figures['wrong']:4.1f}%  "
            f"first {figures['first']:5.1f}%  median lead {figures['median_lead']:+.3f}  "
            f"(templates made in {learn_ms:.0f} ms)",
            flush=True,
        )
    return out


def main(argv: list[str]) -> int:
    """Print the figures of the committed set and of one rendered set per seed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seeds", default="11,12,13", help="comma-separated seeds of the rendered sets")
    parser.add_argument("--deck", choices=[d.value for d in DeckKind], default=DeckKind.OKTRIS.value)
    parser.add_argument("--json", action="store_true", help="also print every figure as one JSON line")
    args = parser.parse_args(argv)
    deck = DeckKind(args.deck)
    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    results: dict[str, dict[str, dict[str, float]]] = {}
    if deck is DeckKind.OKTRIS:
        committed = json.loads((COMMITTED / "truth.json").read_text(encoding="utf-8"))
        results["committed"] = measure("committed fixtures", COMMITTED, committed, deck)
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            folder = Path(tmp) / f"seed-{seed}"
            truth = render_set(folder, seed, deck)
            results[f"seed {seed}"] = measure(f"rendered {deck.value}, seed {seed}", folder, truth, deck)
    held_out = [k for k in results if k != "committed"]
    if held_out:
        print(f"rendered sets together ({', '.join(held_out)}):")
        for variant in VARIANTS:
            n = sum(results[k][variant]["cards"] for k in held_out)
            figures = {
                key: sum(results[k][variant][key] * results[k][variant]["cards"] for k in held_out) / n
                for key in ("identified", "wrong", "first")
            }
            print(
                f"  {variant:20} identified {figures['identified']:5.1f}%  wrong {figures['wrong']:4.1f}%  "
                f"first {figures['first']:5.1f}%  ({n} cards)"
            )
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
