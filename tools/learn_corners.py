"""Fit the learned accept step of covered-card corner names (``scanner/data/corner_model.json``).

Run: ``.venv/bin/python tools/learn_corners.py [--count N] [--scenes DIR] [--out FILE]``;
``--compare FOLDER... [--cut P...] [--cut-std P] [--probe]`` prints the scanner's figures per folder with the
learned step off and on instead.

1. renders ``--count`` scenes (default 48) of each seed of ``TRAIN_SEEDS`` and ``CHECK_SEEDS``
   with the fixture maker (``tools/make_fixtures.py``) into ``--scenes`` (default
   ``/tmp/learn-SEED``; a folder already holding a ``truth.json`` is used as it is);
2. scans every scene with the scanner's default parameters, the learned step off, recording
   every corner read (``covered_read.RECORDER``): its cues (``covered_learned.CUES``), whether the
   thresholds or the second look named it, and its label: whether the scene's truth puts a card
   of its first card's name with an index corner within ``NEAR`` of its short side of the read
   corner;
3. fits one logistic regression per deck (numpy, iteratively reweighted least squares with a
   small ridge) on the reads of the ``TRAIN_SEEDS`` that the thresholds and the second look
   left unnamed (where the model decides), and writes the model to ``--out`` (default
   ``scanner/data/corner_model.json``);
4. prints, on the reads of the ``CHECK_SEEDS``, how many right and wrong names the model would
   add at several probability cut-offs (``CoveredParams.learned_accept`` is chosen from these).

Nothing is downloaded: the scenes are rendered by the project's own script.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scanner import covered_read  # noqa: E402
from scanner.covered_learned import MODEL_PATH, CornerModel  # noqa: E402
from scanner.params import ScannerParams  # noqa: E402
from scanner.scan import Scanner  # noqa: E402
from scorer.cards import DeckKind, parse_card  # noqa: E402

TRAIN_SEEDS = (4101, 4102, 4103, 4104, 4105, 4106, 4107, 4108)
CHECK_SEEDS = (4109, 4110, 4111, 4112)
NEAR = 0.25
"""A read corner within this fraction of a true card's short side of one of its index corners
reads that card."""
RIDGE = 1.0
"""The ridge (on the standardised weights) of the logistic fit."""
CUTS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.97, 0.98, 0.99)


def _short(quad: np.ndarray[Any, Any]) -> float:
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    return float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2.0)


def label(record: dict[str, Any], cards: list[dict[str, Any]], deck: DeckKind) -> bool:
    """Whether a true card of the read's first card lies with an index corner at the read corner."""
    corner = np.asarray(record["quad"], np.float64)[0]
    for t in cards:
        if str(parse_card(t["card"], deck)) != record["candidate"]:
            continue
        quad = np.asarray(t["corners"], np.float64)
        reach = NEAR * _short(quad)
        if min(float(np.hypot(*(quad[k] - corner))) for k in (0, 2)) < reach:
            return True
    return False


def collect(folder: Path) -> list[dict[str, Any]]:
    """Every corner read made scanning ``folder``'s scenes, labelled, with its scene's name."""
    doc = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    base = ScannerParams()
    params = replace(base, covered=replace(base.covered, learned_accept=None, learned_accept_std=None))
    scanners: dict[DeckKind, Scanner] = {}
    out: list[dict[str, Any]] = []
    for scene in doc["scenes"]:
        deck = DeckKind(scene["deck"])
        if deck not in scanners:
            scanners[deck] = Scanner(deck, params=params)
        frame = cv2.imread(str(folder / scene["file"]), cv2.IMREAD_COLOR)
        if frame is None:
            raise ValueError(f"{folder / scene['file']}: not a readable image")
        covered_read.RECORDER = []
        try:
            scanners[deck].scan(np.asarray(frame, np.uint8))
            records = covered_read.RECORDER
        finally:
            covered_read.RECORDER = None
        for r in records:
            r["right"] = label(r, scene["cards"], deck)
            r["scene"] = f"{folder.name}/{scene['file']}"
        out += records
    return out


def fit(x: np.ndarray[Any, Any], y: np.ndarray[Any, Any], ridge: float = RIDGE) -> CornerModel:
    """A logistic regression of ``y`` (0/1) on ``x`` (reads x cues), standardised, by IRLS."""
    return CornerModel.fitted(x, y, ridge)


def _decided(records: list[dict[str, Any]], deck: str) -> list[dict[str, Any]]:
    """The reads of ``deck`` the model decides: left unnamed by the thresholds and the second
    look, their first card one of the deck, not a size probe's (``CoveredParams.learned_probe``
    is off)."""
    return [
        r
        for r in records
        if r["deck"] == deck and not r["hand"] and not r["look"] and r["in_deck"] and not r.get("probe")
    ]


def table(models: dict[str, CornerModel], records: list[dict[str, Any]]) -> list[str]:
    """Per deck and cut-off: the right and wrong names the model adds to these reads (each read
    counted, a corner read several times counted each time), and the rule's own counts."""
    lines = []
    for deck, model in models.items():
        ours = [r for r in records if r["deck"] == deck]
        rule = [r for r in ours if r["hand"] or r["look"]]
        lines.append(
            f"{deck}: {len(ours)} reads; named by the rule {len(rule)}, "
            f"{sum(not r['right'] for r in rule)} of them wrong"
        )
        decided = _decided(records, deck)
        probs = np.array([model.probability(np.asarray(r["cues"])) for r in decided])
        right = np.array([r["right"] for r in decided], bool)
        lines.append(f"  left unnamed: {len(decided)}, right first card {int(right.sum())}")
        for cut in CUTS:
            taken = probs >= cut
            lines.append(
                f"  cut {cut:.2f}: +{int((taken & right).sum())} right, +{int((taken & ~right).sum())} wrong"
            )
    return lines


def compare(folders: list[Path], cuts: list[float], probe: bool, cut_std: float | None = None) -> list[str]:
    """Identified / wrong (named) / top right per folder, the learned step off and on at each of
    ``cuts`` (Octoplus; Oktris at ``cut_std``, ``None``: off; the size probes using it with
    ``probe``), every frame scanned with each in turn; each set's wrong names and pile tops missed
    that the step off does not make are listed after its figures."""
    from benchmarks.scanner_accuracy import evaluate_side_by_side

    base = ScannerParams()
    sets = [replace(base, covered=replace(base.covered, learned_accept=None, learned_accept_std=None))]
    sets += [
        replace(
            base,
            covered=replace(base.covered, learned_accept=c, learned_accept_std=cut_std, learned_probe=probe),
        )
        for c in cuts
    ]
    lines = []
    for folder in folders:
        reports = evaluate_side_by_side(folder, list(sets))
        figures = [
            f"{r.total.identified}/{r.total.visible} ident, {r.total.wrong}/{r.total.named} wrong, "
            f"top {r.total.top_right}/{r.total.piles}"
            for r in reports
        ]
        # wrong names and pile tops missed (confidences cut off: one name read twice compares)
        wrong = [
            {m.split(" (")[0] for m in r.mistakes if " read as " in m or "false card" in m or "top card" in m}
            for r in reports
        ]
        on = "; ".join(
            f"on {c} {f}" + (f" (new: {', '.join(sorted(w - wrong[0]))})" if w - wrong[0] else "")
            for c, f, w in zip(cuts, figures[1:], wrong[1:], strict=True)
        )
        lines.append(f"{folder}: off {figures[0]}; {on}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--compare", type=Path, nargs="+", help="only compare the step off and on over these scene folders"
    )
    parser.add_argument(
        "--cut", type=float, nargs="+", default=[0.85], help="the cut-offs compared (--compare)"
    )
    parser.add_argument("--cut-std", type=float, help="the Oktris cut-off compared (--compare; default off)")
    parser.add_argument("--probe", action="store_true", help="the size probes use the step (--compare)")
    parser.add_argument("--count", type=int, default=48, help="scenes per seed")
    parser.add_argument("--scenes", type=Path, default=Path("/tmp"), help="folder of the /learn-SEED folders")
    parser.add_argument("--out", type=Path, default=MODEL_PATH, help="model file written")
    parser.add_argument("--train", type=int, nargs="*", default=list(TRAIN_SEEDS))
    parser.add_argument("--check", type=int, nargs="*", default=list(CHECK_SEEDS))
    parser.add_argument("--reads", type=Path, help="also store every labelled read (JSON lines)")
    parser.add_argument("--from-reads", type=Path, help="fit on reads stored by --reads, scanning nothing")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    if args.compare:
        for line in compare(args.compare, args.cut, args.probe, args.cut_std):
            print(line, flush=True)
        return 0
    sys.path.insert(0, str(ROOT / "tools"))
    import make_fixtures  # type: ignore[import-not-found]  # a script folder, imported on demand

    reads: dict[int, list[dict[str, Any]]] = {s: [] for s in [*args.train, *args.check]}
    if args.from_reads is not None:
        for line in args.from_reads.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            if r["seed"] in reads:
                reads[r["seed"]].append(r)
    for seed in [] if args.from_reads is not None else [*args.train, *args.check]:
        folder = args.scenes / f"learn-{seed}"
        if not (folder / "truth.json").exists():
            make_fixtures.make(folder, seed, args.count)
        reads[seed] = collect(folder)
        print(f"seed {seed}: {len(reads[seed])} corner reads", flush=True)
    if args.reads is not None:
        with args.reads.open("w", encoding="utf-8") as fh:
            for seed, records in reads.items():
                for r in records:
                    fh.write(json.dumps({"seed": seed, **r}) + "\n")
    train = [r for s in args.train for r in reads[s]]
    check = [r for s in args.check for r in reads[s]]
    models: dict[str, CornerModel] = {}
    for deck in (DeckKind.OKTRIS.value, DeckKind.OCTOPLUS.value):
        decided = _decided(train, deck)
        if len({r["right"] for r in decided}) < 2:
            raise SystemExit(f"{deck}: too few reads to fit ({len(decided)})")
        x = np.array([r["cues"] for r in decided], np.float64)
        y = np.array([r["right"] for r in decided], np.float64)
        models[deck] = fit(x, y)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps({deck: m.as_dict() for deck, m in models.items()}, indent=1) + "\n", encoding="utf-8"
    )
    print(f"model written to {args.out}")
    for name, records in (("training reads", train), ("check reads", check)):
        if records:
            print(f"\n{name}:")
            print("\n".join(table(models, records)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
