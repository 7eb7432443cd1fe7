"""Card reading on real photos: templates learned from half the single-card photos.

Run: ``.venv/bin/python -m benchmarks.real_cards [--folder DIR] [--json]``.  The
photos live outside the repository (``../shared/data/real-cards`` or the folder
named by ``OCTOTABLE_REAL_CARDS``); see that folder's README for their kinds.

The split (fixed, so figures can be compared between runs):

- learning set: the first photo (in ``labels.csv`` order) of every card of
  ``single_phone_table``, and the ``single_webcam_handheld`` photo of every
  second card (A-8 of all suits in ``labels.csv`` order, starting with the
  first): 48 of the 96 single-card photos;
- test set: the other 48 single-card photos and every ``multi`` scene.

The templates are learned by ``calibration.templates.learn_templates`` (as
``octotable calibrate templates`` does), read back, and the photos are scanned
by ``scanner.scan.Scanner`` with them.  Per single-card kind it prints how many
photos read right (their card named), wrong (another card named) and not at
all, and the same among the photos whose card got a learned template; over
the scenes, recall and precision over the visible A-8 cards (9-K in a scene
are not counted as visible; naming one is a wrong reading).  Then the median
time per card of identification alone (``identify`` on the found cards).
"""

from __future__ import annotations

import argparse
import csv
import json
import logging
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from calibration.templates import LearnReport, learn_templates
from scanner.find import find_cards, warp_card
from scanner.identify import identify
from scanner.params import ScannerParams
from scanner.scan import Scanner
from scanner.templates import Templates
from scanner.types import Image
from scorer.cards import Card, DeckKind, StdCard
from scorer.errors import NotationError

REPO = Path(__file__).resolve().parent.parent
SINGLE_KINDS = ("single_phone_table", "single_webcam_handheld")


def real_cards_folder() -> Path | None:
    """The real-photo folder (``OCTOTABLE_REAL_CARDS`` or ``../shared/data/real-cards``), if present."""
    env = os.environ.get("OCTOTABLE_REAL_CARDS")
    folder = Path(env) if env else REPO.parent / "shared" / "data" / "real-cards"
    return folder if (folder / "labels.csv").is_file() else None


@dataclass(frozen=True)
class Row:
    """One photo of ``labels.csv``."""

    path: Path
    kind: str
    label: Card | None
    visible: frozenset[Card]
    """Every A-8 card whose corner index is visible (scenes), or the label."""


def _card(text: str) -> Card | None:
    try:
        card = StdCard.parse(text)
    except NotationError:
        return None
    return card if card.rank <= 8 else None


def read_rows(folder: Path) -> list[Row]:
    """Every photo of the folder's ``labels.csv``."""
    rows = []
    with (folder / "labels.csv").open(encoding="utf-8") as handle:
        for raw in csv.DictReader(handle):
            label = _card(raw["label"]) if raw["kind"] in SINGLE_KINDS else None
            visible = frozenset(c for c in map(_card, raw["all_labels"].split(";")) if c is not None)
            if not visible and label is not None:
                visible = frozenset({label})
            rows.append(Row(folder / raw["file"], raw["kind"], label, visible))
    return rows


def split(rows: list[Row]) -> tuple[list[Row], list[Row]]:
    """``(learning set, test set)`` as the module docstring says."""
    learn: list[Row] = []
    test: list[Row] = []
    seen_phone: set[Card] = set()
    webcam_order: list[Card] = []
    for row in rows:
        if row.kind == "single_phone_table" and row.label is not None and row.label not in seen_phone:
            seen_phone.add(row.label)
            learn.append(row)
        elif row.kind == "single_webcam_handheld" and row.label is not None:
            webcam_order.append(row.label)
            (learn if len(webcam_order) % 2 == 1 else test).append(row)
        else:
            test.append(row)
    return learn, test


@dataclass
class Tally:
    """Counts of one kind."""

    photos: int = 0
    right: int = 0
    wrong: int = 0
    learned: int = 0
    """Photos whose card has a learned template."""
    learned_right: int = 0
    learned_wrong: int = 0
    visible: int = 0
    named: int = 0
    named_right: int = 0
    wrong_examples: list[str] = field(default_factory=list)

    def as_dict(self, scenes: bool) -> dict[str, float | int | list[str]]:
        if scenes:
            return {
                "scenes": self.photos,
                "visible": self.visible,
                "named": self.named,
                "recall": self.named_right / self.visible if self.visible else 0.0,
                "precision": self.named_right / self.named if self.named else 1.0,
                "wrong": self.wrong_examples,
            }
        return {
            "photos": self.photos,
            "right": self.right,
            "wrong": self.wrong,
            "none": self.photos - self.right - self.wrong,
            "right_pct": 100.0 * self.right / self.photos if self.photos else 0.0,
            "wrong_pct": 100.0 * self.wrong / self.photos if self.photos else 0.0,
            "learned": self.learned,
            "learned_right": self.learned_right,
            "learned_wrong": self.learned_wrong,
            "wrong_examples": self.wrong_examples,
        }


def learn(folder: Path, out: Path) -> LearnReport:
    """Learn the templates of the learning set into ``out``."""
    learn_rows, _ = split(read_rows(folder))
    labels = out / "labels.csv"
    out.mkdir(parents=True, exist_ok=True)
    with labels.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["file", "label"])
        for row in learn_rows:
            writer.writerow([str(row.path), str(row.label)])
    return learn_templates(labels, DeckKind.OKTRIS, out / "templates")


def evaluate(folder: Path, templates: Templates) -> dict[str, dict[str, float | int | list[str]]]:
    """Scan the test set with ``templates``; figures per kind."""
    _, test_rows = split(read_rows(folder))
    scanner = Scanner(DeckKind.OKTRIS, templates=templates)
    tallies: dict[str, Tally] = {}
    for row in test_rows:
        image = cv2.imread(str(row.path), cv2.IMREAD_COLOR)
        if image is None:
            continue
        named = {d.card for d in scanner.scan(np.asarray(image, dtype=np.uint8)).detections if d.card}
        tally = tallies.setdefault(row.kind, Tally())
        tally.photos += 1
        if row.kind in SINGLE_KINDS:
            others = named - {row.label}
            has_template = row.label in templates.faces
            tally.learned += has_template
            tally.learned_right += has_template and not others and row.label in named
            tally.learned_wrong += has_template and bool(others)
            if others:
                tally.wrong += 1
                tally.wrong_examples.append(
                    f"{row.path.name}: {row.label} read as {sorted(map(str, others))}"
                )
            elif row.label in named:
                tally.right += 1
        else:
            tally.visible += len(row.visible)
            tally.named += len(named)
            tally.named_right += len(named & row.visible)
            for card in sorted(named - row.visible, key=str):
                tally.wrong_examples.append(f"{row.path.name}: {card}")
    return {kind: tally.as_dict(kind not in SINGLE_KINDS) for kind, tally in sorted(tallies.items())}


def identify_ms(folder: Path, templates: Templates, limit: int = 120) -> float:
    """Median milliseconds of ``identify`` per found card of the test set."""
    _, test_rows = split(read_rows(folder))
    params = ScannerParams()
    warps: list[Image] = []
    for row in test_rows:
        raw = cv2.imread(str(row.path), cv2.IMREAD_COLOR)
        if raw is None:
            continue
        image: Image = np.asarray(raw, dtype=np.uint8)
        warps.extend(warp_card(image, f.corners, params.find) for f in find_cards(image, params.find))
        if len(warps) >= limit:
            break
    identify(warps[0], templates, params.identify)  # prepares the template matrices once
    times = []
    for _ in range(3):
        for warp in warps:
            start = time.perf_counter()
            identify(warp, templates, params.identify)
            times.append((time.perf_counter() - start) * 1000.0)
    return statistics.median(times)


def run(folder: Path) -> dict[str, object]:
    """Learn, evaluate and time; every figure in one dictionary."""
    with tempfile.TemporaryDirectory(prefix="octotable-real-") as tmp:
        report = learn(folder, Path(tmp))
        templates = Templates.load(report.folder, DeckKind.OKTRIS)
    return {
        "learned_cards": len(report.cards),
        "learned_templates": len(templates),
        "rejected_photos": sum(len(c.rejected) for c in report.cards),
        "skipped_photos": [f"{p.name}: {why}" for p, why in report.skipped],
        "kinds": evaluate(folder, templates),
        "identify_ms_median": identify_ms(folder, templates),
    }


def main(argv: list[str] | None = None) -> int:
    """Print the figures (a table, or one JSON object with ``--json``)."""
    parser = argparse.ArgumentParser(description="card reading on the real photos")
    parser.add_argument("--folder", type=Path, default=None, help="the real-cards folder")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    folder = args.folder or real_cards_folder()
    if folder is None:
        print("no real-cards folder (set OCTOTABLE_REAL_CARDS)", file=sys.stderr)
        return 2
    figures = run(folder)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(
        f"learned {figures['learned_templates']} templates of {figures['learned_cards']} cards "
        f"({figures['rejected_photos']} photos rejected as outliers, "
        f"{len(figures['skipped_photos'])} without a card found)"  # type: ignore[arg-type]
    )
    kinds = figures["kinds"]
    assert isinstance(kinds, dict)
    for kind, f in kinds.items():
        if "recall" in f:
            print(
                f"{kind:24s} scenes {f['scenes']:3d}  visible A-8 {f['visible']:4d}  named {f['named']:4d}  "
                f"recall {100 * f['recall']:5.1f}%  precision {100 * f['precision']:5.1f}%"
            )
        else:
            print(
                f"{kind:24s} photos {f['photos']:3d}  right {f['right']:3d} ({f['right_pct']:5.1f}%)  "
                f"wrong {f['wrong']:3d} ({f['wrong_pct']:4.1f}%)  none {f['none']:3d}  "
                f"| of {f['learned']} with a learned template: right {f['learned_right']}, "
                f"wrong {f['learned_wrong']}"
            )
    print(f"identify: median {figures['identify_ms_median']:.3f} ms per found card")
    return 0


if __name__ == "__main__":
    sys.exit(main())
