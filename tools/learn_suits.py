"""Fit the learned spade-or-club step (``scanner/data/suit_model.json``).

Run: ``.venv/bin/python tools/learn_suits.py [--count N] [--scenes DIR] [--out FILE]``.

1. renders ``--count`` scenes (default 48) of each seed of ``TRAIN_SEEDS`` and ``CHECK_SEEDS``
   with the fixture maker (``tools/make_fixtures.py``) into ``--scenes`` (default
   ``/tmp/learn-suit-SEED``; a folder already holding a ``truth.json`` is used as it is);
2. cuts out every whole spade and club of an Oktris scene (at least ``WHOLE`` of it in view) on
   its true outline and on ``JITTER`` outlines with corners moved up to ``JITTER_PX`` frame
   pixels (a found outline is a few pixels off), and reads its suit cues
   (``identify_suit.suit_cues``: the spade's lead over the club of its rank and the fit, with the
   templates blurred by each of ``SUIT_BLURS``), labelled by the truth;
3. fits one logistic regression (``SuitModel``, a small ridge) on the cut-outs of the
   ``TRAIN_SEEDS`` and writes it to ``--out`` (default ``scanner/data/suit_model.json``);
4. prints, on the cut-outs of the ``CHECK_SEEDS`` that the hand-set thresholds leave open
   (``IdentifyParams.spade_lead`` and ``club_lead``, with the symbols fitting at
   ``suit_fit``), how many spades and clubs the model names, right and wrong, at several
   probability cut-offs (``IdentifyParams.suit_model`` is chosen from these).

Nothing is downloaded: the scenes are rendered by the project's own script.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scanner.find import warp_card  # noqa: E402
from scanner.find_geometry import as_quad  # noqa: E402
from scanner.identify_params import IdentifyParams  # noqa: E402
from scanner.identify_suit import SUIT_MODEL_PATH, SuitModel, suit_cues  # noqa: E402
from scanner.params import FindParams  # noqa: E402
from scanner.templates import Templates  # noqa: E402
from scorer.cards import DeckKind, StdCard, Suit, parse_card  # noqa: E402

TRAIN_SEEDS = (4301, 4302, 4303, 4304, 4305, 4306, 4307, 4308)
CHECK_SEEDS = (4309, 4310, 4311, 4312)
WHOLE = 0.95
"""A card with at least this share of it in view counts as whole."""
JITTER = 3
"""Outlines with moved corners cut out per card, besides its true one."""
JITTER_PX = 3.0
"""How far (frame pixels, each way) a moved outline's corners move at most."""
RIDGE = 1.0
"""The ridge (on the standardised weights) of the logistic fit."""
CUTS = (0.8, 0.85, 0.9, 0.95, 0.98)


def collect(folder: Path, seed: int) -> list[dict[str, Any]]:
    """Every whole spade and club of ``folder``'s Oktris scenes, cut out on its true outline and
    on ``JITTER`` moved ones: its cues, whether it is the spade, and its scene's name."""
    doc = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    templates = Templates.builtin(DeckKind.OKTRIS)
    params = IdentifyParams()
    find = FindParams()
    rng = np.random.default_rng(seed)
    out: list[dict[str, Any]] = []
    for scene in doc["scenes"]:
        if scene["deck"] != DeckKind.OKTRIS.value:
            continue
        image: np.ndarray[Any, Any] | None = None
        for truth in scene["cards"]:
            card = parse_card(truth["card"], DeckKind.OKTRIS)
            if truth["visible_fraction"] < WHOLE or not isinstance(card, StdCard) or card.suit.is_red:
                continue
            if image is None:
                image = cv2.imread(str(folder / scene["file"]), cv2.IMREAD_COLOR)
            spade, club = StdCard(card.rank, Suit.SPADES), StdCard(card.rank, Suit.CLUBS)
            quad = np.asarray(truth["corners"], np.float64)
            outlines = [quad] + [quad + rng.uniform(-JITTER_PX, JITTER_PX, quad.shape) for _ in range(JITTER)]
            for outline in outlines:
                cues = suit_cues(warp_card(image, as_quad(outline), find), spade, club, templates, params)
                if cues is not None:
                    out.append({"cues": cues.tolist(), "spade": card == spade, "scene": scene["file"]})
    return out


def _open(rows: list[dict[str, Any]], params: IdentifyParams) -> list[dict[str, Any]]:
    """The cut-outs the hand-set thresholds leave open: the symbols fit at ``suit_fit`` (at the
    blur ``suit_blur``, one of the cues' blurs) and lead between ``club_lead`` and ``spade_lead``."""
    k = SuitModel.EXPECTED.index(f"lead_{params.suit_blur:g}")
    fit = SuitModel.EXPECTED.index(f"fit_{params.suit_blur:g}")
    return [
        r
        for r in rows
        if r["cues"][fit] >= params.suit_fit and params.club_lead < r["cues"][k] < params.spade_lead
    ]


def table(model: SuitModel, rows: list[dict[str, Any]]) -> list[str]:
    """Per cut-off: the spades and clubs the model names among ``rows``, right and wrong."""
    chances = [model.probability(np.asarray(r["cues"], np.float64)) for r in rows]
    spades = sum(r["spade"] for r in rows)
    lines = [f"{len(rows)} cut-outs ({spades} spades, {len(rows) - spades} clubs)"]
    lines.append("cut-off  spades named (wrong)  clubs named (wrong)  open")
    for cut in CUTS:
        named_spade = [r for r, c in zip(rows, chances, strict=True) if c >= cut]
        named_club = [r for r, c in zip(rows, chances, strict=True) if c <= 1.0 - cut]
        wrong_spade = sum(not r["spade"] for r in named_spade)
        wrong_club = sum(r["spade"] for r in named_club)
        rest = len(rows) - len(named_spade) - len(named_club)
        spade, club = f"{len(named_spade)} ({wrong_spade})", f"{len(named_club)} ({wrong_club})"
        lines.append(f"{cut:>7.2f}  {spade:>20}  {club:>19}  {rest:>4}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=48, help="scenes per seed")
    parser.add_argument(
        "--scenes", type=Path, default=Path("/tmp"), help="folder of the learn-suit-SEED folders"
    )
    parser.add_argument("--out", type=Path, default=SUIT_MODEL_PATH, help="model file written")
    parser.add_argument("--train", type=int, nargs="*", default=list(TRAIN_SEEDS))
    parser.add_argument("--check", type=int, nargs="*", default=list(CHECK_SEEDS))
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    sys.path.insert(0, str(ROOT / "tools"))
    import make_fixtures  # type: ignore[import-not-found]  # a script folder, imported on demand

    rows: dict[int, list[dict[str, Any]]] = {}
    for seed in [*args.train, *args.check]:
        folder = args.scenes / f"learn-suit-{seed}"
        if not (folder / "truth.json").exists():
            make_fixtures.make(folder, seed, args.count)
        rows[seed] = collect(folder, seed)
        print(f"seed {seed}: {len(rows[seed])} cut-outs", flush=True)
    train = [r for s in args.train for r in rows[s]]
    check = [r for s in args.check for r in rows[s]]
    if len({r["spade"] for r in train}) < 2:
        raise SystemExit(f"too few cut-outs to fit ({len(train)})")
    x = np.array([r["cues"] for r in train], np.float64)
    y = np.array([r["spade"] for r in train], np.float64)
    model = SuitModel.fitted(x, y, RIDGE)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(model.as_dict(), indent=1) + "\n", encoding="utf-8")
    print(f"model written to {args.out}")
    params = IdentifyParams()
    for name, chosen in (("training cut-outs", train), ("check cut-outs", check)):
        if chosen:
            print(f"\n{name}, all:")
            print("\n".join(table(model, chosen)))
            print(f"{name} the thresholds leave open:")
            print("\n".join(table(model, _open(chosen, params))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
