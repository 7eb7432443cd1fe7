"""Card reading on real photos: templates learned from half the single-card photos.

Run: ``.venv/bin/python -m benchmarks.real_cards [--folder DIR] [--json] [--sheet PNG]
[--scenes DIR] [--singles DIR]``.  The photos live outside the repository
(``../shared/data/real-cards`` or the folder named by ``OCTOTABLE_REAL_CARDS``); see that
folder's README for their kinds.

The split (fixed, so figures can be compared between runs):

- learning set: the first photo (in ``labels.csv`` order) of every card of
  ``single_phone_table``, and the ``single_webcam_handheld`` photo of every
  second card (A-8 of all suits in ``labels.csv`` order, starting with the
  first): 48 of the 96 single-card photos;
- test set: the other 48 single-card photos and every ``multi`` scene.

The templates are learned by ``calibration.templates.learn_templates`` (as
``octotable calibrate templates`` does), read back, and the photos are scanned
by ``scanner.scan.Scanner`` with them.  The webcam photos are not mirror images
(on the upright cards in them the corner index sits at the top left and reads
the right way round), so they are scanned and learned as they are; a kind listed
in ``MIRRORED_KINDS`` would be scanned with ``FindParams.mirrored`` and learned
from flipped copies (what a mirrored camera source delivers once it flips its
frames).  Per single-card kind it prints how many
photos read right (their card named), wrong (another card named) and not at
all, and the same among the photos whose card got a template learned from its
photos and among those whose template was composed from learned parts (and,
on the learning half alone, how each learned card reads when its template is
composed from the others instead); over
the scenes, recall and precision over the visible A-8 cards (9-K in a scene
are not counted as visible; naming one is a wrong reading), read with the learned
templates and again with the built-in ones (the scenes' deck need not be the learned
one), and where the visible cards are lost (``scene_candidates``).  Then the median
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

from calibration.template_combine import CombineParams, compose_missing
from calibration.templates import LearnReport, learn_templates
from scanner.find import find_cards, warp_card
from scanner.identify import identify
from scanner.params import FindParams, ScannerParams
from scanner.scan import Scanner
from scanner.templates import Templates
from scanner.types import Image
from scorer.cards import Card, DeckKind, StdCard
from scorer.errors import NotationError

REPO = Path(__file__).resolve().parent.parent
SINGLE_KINDS = ("single_phone_table", "single_webcam_handheld")
MIRRORED_KINDS: frozenset[str] = frozenset()
"""Kinds whose photos are mirror images (a webcam's selfie view): none of the folder's."""


def params_for(kind: str) -> ScannerParams:
    """The scanner's parameters for photos of ``kind`` (mirrored for a mirroring camera)."""
    return ScannerParams(find=FindParams(mirrored=kind in MIRRORED_KINDS))


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
    composed: int = 0
    """Photos whose card's template was composed from learned parts (no photo of it learned)."""
    composed_right: int = 0
    composed_wrong: int = 0
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
            "composed": self.composed,
            "composed_right": self.composed_right,
            "composed_wrong": self.composed_wrong,
            "wrong_examples": self.wrong_examples,
        }


def learn(folder: Path, out: Path) -> LearnReport:
    """Learn the templates of the learning set into ``out`` (mirrored photos from flipped copies)."""
    learn_rows, _ = split(read_rows(folder))
    labels = out / "labels.csv"
    flipped = out / "flipped"
    flipped.mkdir(parents=True, exist_ok=True)
    with labels.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["file", "label"])
        for row in learn_rows:
            path = row.path
            if row.kind in MIRRORED_KINDS:
                image = cv2.imread(str(row.path), cv2.IMREAD_COLOR)
                if image is not None:
                    path = flipped / row.path.name
                    cv2.imwrite(str(path), cv2.flip(image, 1))
            writer.writerow([str(path), str(row.label)])
    return learn_templates(labels, DeckKind.OKTRIS, out / "templates")


def learning_by_kind(folder: Path, report: LearnReport) -> dict[str, dict[str, int]]:
    """Per kind, how many learning photos gave a template (of the card's deck, or of another
    deck: ``LearnParams.other_decks``), were rejected as outliers or skipped."""
    learn_rows, _ = split(read_rows(folder))
    kinds = {row.path.name: row.kind for row in learn_rows}
    out: dict[str, dict[str, int]] = {}
    for row in learn_rows:
        out.setdefault(
            row.kind,
            {"photos": 0, "kept": 0, "other_deck": 0, "rejected": 0, "no_card": 0, "no_face": 0, "unlike": 0},
        )
        out[row.kind]["photos"] += 1
    for card in report.cards:
        for path in card.kept:
            out[kinds[path.name]]["kept"] += 1
        for path in card.other_deck:
            out[kinds[path.name]]["other_deck"] += 1
        for path in card.rejected:
            out[kinds[path.name]]["rejected"] += 1
    for path, why in report.skipped:
        reason = "no_card" if why == "no card found" else "unlike" if "matches no other" in why else "no_face"
        out[kinds[path.name]][reason] += 1
    return out


def evaluate(
    folder: Path,
    templates: Templates,
    composed: frozenset[Card] = frozenset(),
    singles: bool = True,
) -> dict[str, dict[str, float | int | list[str]]]:
    """Scan the test set with ``templates``; figures per kind (``composed``: the cards whose
    template was composed from learned parts, counted apart from the learned ones; without
    ``singles``, the multi-card scenes alone)."""
    _, test_rows = split(read_rows(folder))
    if not singles:
        test_rows = [row for row in test_rows if row.kind not in SINGLE_KINDS]
    scanners = {
        kind: Scanner(DeckKind.OKTRIS, templates=templates, params=params_for(kind)) for kind in SINGLE_KINDS
    }
    plain = Scanner(DeckKind.OKTRIS, templates=templates)
    tallies: dict[str, Tally] = {}
    for row in test_rows:
        image = cv2.imread(str(row.path), cv2.IMREAD_COLOR)
        if image is None:
            continue
        scanner = scanners.get(row.kind, plain)
        named = {d.card for d in scanner.scan(np.asarray(image, dtype=np.uint8)).detections if d.card}
        tally = tallies.setdefault(row.kind, Tally())
        tally.photos += 1
        if row.kind in SINGLE_KINDS:
            others = named - {row.label}
            right = not others and row.label in named
            has_template = row.label in templates.faces and row.label not in composed
            tally.learned += has_template
            tally.learned_right += has_template and right
            tally.learned_wrong += has_template and bool(others)
            tally.composed += row.label in composed
            tally.composed_right += row.label in composed and right
            tally.composed_wrong += row.label in composed and bool(others)
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


def scene_candidates(folder: Path, templates: Templates) -> dict[str, int]:
    """Where the scenes' visible A-8 cards are lost, read with ``templates``: each found quad is
    warped and identified, and every visible card counts once as ``named`` (some quad names it),
    ``first`` (some quad ranks it first but names nothing: below the identifier's thresholds) or
    ``missed`` (no quad ranks it first: no outline of it, a wrong outline or warp, or templates of
    another deck); ``quads`` counts the found quads and ``wrong_first`` the quads whose first
    candidate is no visible card."""
    _, test_rows = split(read_rows(folder))
    params = ScannerParams()
    out = {"visible": 0, "named": 0, "first": 0, "missed": 0, "quads": 0, "wrong_first": 0}
    for row in test_rows:
        if row.kind in SINGLE_KINDS:
            continue
        raw = cv2.imread(str(row.path), cv2.IMREAD_COLOR)
        if raw is None:
            continue
        image: Image = np.asarray(raw, dtype=np.uint8)
        named: set[Card] = set()
        first: set[Card] = set()
        for found in find_cards(image, params.find):
            answer = identify(warp_card(image, found.corners, params.find), templates, params.identify)
            out["quads"] += 1
            if answer.card is not None:
                named.add(answer.card)
            best = answer.card if answer.card is not None else answer.candidate
            if best is not None:
                first.add(best)
                out["wrong_first"] += best not in row.visible
        out["visible"] += len(row.visible)
        out["named"] += len(row.visible & named)
        out["first"] += len((row.visible & first) - named)
        out["missed"] += len(row.visible - first - named)
    return out


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


def contact_sheets(folder: Path, path: Path, tile: int = 240, columns: int = 8) -> dict[str, dict[str, int]]:
    """Draw the finder's quads on every photo, one contact sheet per kind (``path`` with the kind
    added to its name); per kind, how many photos gave no quad, one, or several."""
    counts: dict[str, dict[str, int]] = {}
    tiles: dict[str, list[Image]] = {}
    for row in read_rows(folder):
        raw = cv2.imread(str(row.path), cv2.IMREAD_COLOR)
        if raw is None:
            continue
        image: Image = np.asarray(raw, dtype=np.uint8)
        found = find_cards(image, params_for(row.kind).find)
        tally = counts.setdefault(row.kind, {"none": 0, "one": 0, "several": 0})
        tally["none" if not found else "one" if len(found) == 1 else "several"] += 1
        canvas = image.copy()
        for card in found:
            pts = np.round(np.asarray(card.corners)).astype(np.int32)
            colour = (0, 200, 0) if card.score >= 0.7 else (0, 0, 255)
            cv2.polylines(canvas, [pts], True, colour, 3)
            cv2.putText(canvas, f"{card.score:.2f}", (int(pts[0, 0]), int(pts[0, 1])), 0, 0.8, colour, 2)
        label = str(row.label) if row.label is not None else "scene"
        cv2.putText(canvas, f"{label} n={len(found)}", (6, 30), 0, 1.0, (255, 0, 255), 2)
        scale = tile / max(canvas.shape[:2])
        small = cv2.resize(canvas, (round(canvas.shape[1] * scale), round(canvas.shape[0] * scale)))
        cell = np.zeros((tile, tile, 3), np.uint8)
        cell[: small.shape[0], : small.shape[1]] = small
        tiles.setdefault(row.kind, []).append(cell)
    for kind, cells in tiles.items():
        cells = cells + [np.zeros_like(cells[0])] * (-len(cells) % columns)
        rows = [np.hstack(cells[i : i + columns]) for i in range(0, len(cells), columns)]
        cv2.imwrite(str(path.with_name(f"{path.stem}-{kind}{path.suffix or '.png'}")), np.vstack(rows))
    return counts


def draw_scenes(folder: Path, out: Path, readers: dict[str, Templates]) -> int:
    """Draw every scene with the finder's quads and what each reads as, per template set of
    ``readers`` (its name's first letter, the named card or ``-``, the first candidate and its
    score): one PNG per scene in ``out`` (outside the repository).  Returns how many were drawn."""
    out.mkdir(parents=True, exist_ok=True)
    params = ScannerParams()
    drawn = 0
    for index, row in enumerate(r for r in read_rows(folder) if r.kind not in SINGLE_KINDS):
        raw = cv2.imread(str(row.path), cv2.IMREAD_COLOR)
        if raw is None:
            continue
        image: Image = np.asarray(raw, dtype=np.uint8)
        canvas = image.copy()
        for found in find_cards(image, params.find):
            warp = warp_card(image, found.corners, params.find)
            texts = []
            for name, templates in readers.items():
                answer = identify(warp, templates, params.identify)
                texts.append(f"{name[0]}:{answer.card or '-'}/{answer.candidate} {answer.confidence:.2f}")
            pts = np.round(np.asarray(found.corners)).astype(np.int32)
            cv2.polylines(canvas, [pts], True, (0, 200, 0), 2)
            for line, text in enumerate(texts):
                place = (int(pts[0, 0]), int(pts[0, 1]) + 14 * line)
                cv2.putText(canvas, text, place, cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 255), 1)
        visible = " ".join(sorted(map(str, row.visible)))
        cv2.putText(
            canvas, f"visible A-8: {visible}", (6, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 0, 255), 2
        )
        cv2.imwrite(str(out / f"scene-{index:02d}.png"), canvas)
        drawn += 1
    return drawn


def draw_singles(folder: Path, out: Path, templates: Templates) -> dict[str, int]:
    """Draw every single-card test photo whose quads, each read as found (not turned the other way
    as ``Scanner`` also tries), do not name its card alone, with the quads and what each reads as
    with ``templates`` (the named card or ``-``, the first candidate and its score;
    green where it names the photo's card): one PNG per photo in ``out`` (outside the repository),
    named after its kind, its number in the test set and its card.  Returns, per kind, how many
    were drawn with no quad, and with quads."""
    out.mkdir(parents=True, exist_ok=True)
    _, test_rows = split(read_rows(folder))
    counts: dict[str, int] = {}
    for index, row in enumerate(test_rows):
        if row.kind not in SINGLE_KINDS:
            continue
        raw = cv2.imread(str(row.path), cv2.IMREAD_COLOR)
        if raw is None:
            continue
        image: Image = np.asarray(raw, dtype=np.uint8)
        params = params_for(row.kind)
        found = find_cards(image, params.find)
        answers = [
            identify(warp_card(image, f.corners, params.find), templates, params.identify) for f in found
        ]
        if any(a.card == row.label for a in answers) and all(a.card in (None, row.label) for a in answers):
            continue
        canvas = image.copy()
        for card, answer in zip(found, answers, strict=True):
            pts = np.round(np.asarray(card.corners)).astype(np.int32)
            colour = (0, 200, 0) if answer.card == row.label else (0, 0, 255)
            cv2.polylines(canvas, [pts], True, colour, 2)
            text = f"{answer.card or '-'}/{answer.candidate} {answer.confidence:.2f}"
            cv2.putText(
                canvas, text, (int(pts[0, 0]), int(pts[0, 1])), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1
            )
        cv2.putText(
            canvas,
            f"{row.label} quads {len(found)}",
            (6, 24),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.7,
            (255, 0, 255),
            2,
        )
        cv2.imwrite(str(out / f"{row.kind}-{index:02d}-{row.label}.png"), canvas)
        key = f"{row.kind} {'no quad' if not found else 'quads'}"
        counts[key] = counts.get(key, 0) + 1
    return counts


def composed_leave_one_out(report: LearnReport, templates: Templates) -> dict[str, int]:
    """Composition checked on the learning half alone: each card learned from a photo is
    composed from the other learned cards, and its own learned template is read against the
    others plus the composed one; counts of right, wrong, not named, and not composable."""
    identify_params = ScannerParams().identify
    learned = {c.card: templates.faces[c.card][0] for c in report.cards if c.card in templates.faces}
    out = {"right": 0, "wrong": 0, "none": 0, "not_composed": 0}
    for card, face in learned.items():
        others = {c: f for c, f in learned.items() if c != card}
        composed = compose_missing(others, [card], identify_params, CombineParams())
        if card not in composed:
            out["not_composed"] += 1
            continue
        faces = {**{c: (f,) for c, f in others.items()}, card: (composed[card],)}
        named = identify(face, Templates(DeckKind.OKTRIS, faces), identify_params).card
        out["right" if named == card else "none" if named is None else "wrong"] += 1
    return out


def run(folder: Path) -> dict[str, object]:
    """Learn, evaluate and time; every figure in one dictionary (``learned_figures`` and
    ``builtin_figures`` merged)."""
    learned = learned_figures(folder)
    builtin = builtin_figures(folder)
    kinds = learned["kinds"]
    candidates = learned["scene_candidates"]
    assert isinstance(kinds, dict) and isinstance(candidates, dict)
    return {
        **learned,
        "kinds": {**kinds, **builtin["kinds"]},
        "scene_candidates": {**candidates, **builtin["scene_candidates"]},
    }


def learned_figures(folder: Path) -> dict[str, object]:
    """Learn from the learning half, then read the test half with the learned templates."""
    with tempfile.TemporaryDirectory(prefix="octotable-real-") as tmp:
        report = learn(folder, Path(tmp))
        templates = Templates.load(report.folder, DeckKind.OKTRIS)
    return {
        # cards learned from a photo of the deck most photos show; a card known only from
        # another deck's photo (``LearnParams.other_decks``) is composed in this deck's style
        "learned_cards": sum(1 for c in report.cards if c.kept),
        "other_deck_cards": [str(c.card) for c in report.cards if c.other_deck],
        "learned_templates": len(templates),
        "composed_cards": [str(card) for card in report.composed],
        "composed_leave_one_out": composed_leave_one_out(report, templates),
        "rejected_photos": sum(len(c.rejected) for c in report.cards),
        "skipped_photos": [f"{p.name}: {why}" for p, why in report.skipped],
        "learning": learning_by_kind(folder, report),
        "kinds": evaluate(folder, templates, frozenset(report.composed)),
        "scene_candidates": {"learned": scene_candidates(folder, templates)},
        "identify_ms_median": identify_ms(folder, templates),
    }


def builtin_figures(folder: Path) -> dict[str, dict[str, object]]:
    """The multi-card scenes read with the built-in templates (the scenes' deck need not be the
    learned one); made apart from ``learned_figures`` so that the two can run side by side."""
    builtin = Templates.builtin(DeckKind.OKTRIS)
    return {
        "kinds": {
            f"{kind} (built-in templates)": f for kind, f in evaluate(folder, builtin, singles=False).items()
        },
        "scene_candidates": {"built-in": scene_candidates(folder, builtin)},
    }


def main(argv: list[str] | None = None) -> int:
    """Print the figures (a table, or one JSON object with ``--json``)."""
    parser = argparse.ArgumentParser(description="card reading on the real photos")
    parser.add_argument("--folder", type=Path, default=None, help="the real-cards folder")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--sheet", type=Path, default=None, help="also draw contact sheets (PNG) here")
    parser.add_argument(
        "--scenes",
        type=Path,
        default=None,
        help="also draw every scene's quads and readings into this folder",
    )
    parser.add_argument(
        "--singles",
        type=Path,
        default=None,
        help="also draw every single-card test photo not read right into this folder",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    folder = args.folder or real_cards_folder()
    if folder is None:
        print("no real-cards folder (set OCTOTABLE_REAL_CARDS)", file=sys.stderr)
        return 2
    if args.sheet is not None:
        for kind, count in contact_sheets(folder, args.sheet).items():
            print(
                f"finder {kind:24s} no quad {count['none']:3d}  one {count['one']:3d}  "
                f"several {count['several']:3d}"
            )
    if args.scenes is not None:
        with tempfile.TemporaryDirectory(prefix="octotable-real-") as tmp:
            learned = Templates.load(learn(folder, Path(tmp)).folder, DeckKind.OKTRIS)
        readers = {"learned": learned, "built-in": Templates.builtin(DeckKind.OKTRIS)}
        print(f"drew {draw_scenes(folder, args.scenes, readers)} scenes into {args.scenes}")
    if args.singles is not None:
        with tempfile.TemporaryDirectory(prefix="octotable-real-") as tmp:
            learned = Templates.load(learn(folder, Path(tmp)).folder, DeckKind.OKTRIS)
        for what, drawn in sorted(draw_singles(folder, args.singles, learned).items()):
            print(f"drew {drawn} single photos not read right ({what}) into {args.singles}")
    figures = run(folder)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(
        f"learned {figures['learned_templates']} templates of {figures['learned_cards']} cards "
        f"({figures['rejected_photos']} photos rejected as outliers, "
        f"{len(figures['skipped_photos'])} without a card found)"  # type: ignore[arg-type]
    )
    other = figures["other_deck_cards"]
    assert isinstance(other, list)
    print(f"also learned in another deck's style: {len(other)} cards ({' '.join(other) or 'none'})")
    composed = figures["composed_cards"]
    assert isinstance(composed, list)
    print(f"composed from learned parts: {len(composed)} cards ({' '.join(composed) or 'none'})")
    loo = figures["composed_leave_one_out"]
    assert isinstance(loo, dict)
    print(
        f"composition, leave-one-out on the learning half: right {loo['right']}, wrong {loo['wrong']}, "
        f"none {loo['none']}, not composable {loo['not_composed']}"
    )
    learning = figures["learning"]
    assert isinstance(learning, dict)
    for kind, f in learning.items():
        print(
            f"learning {kind:24s} photos {f['photos']:3d}  templates {f['kept']:3d}  "
            f"another deck {f['other_deck']:3d}  outliers {f['rejected']:3d}  no card {f['no_card']:3d}  "
            f"no face seen {f['no_face']:3d}  "
            f"unlike its suit and rank {f['unlike']:3d}"
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
                f"wrong {f['learned_wrong']} | of {f['composed']} composed: right {f['composed_right']}, "
                f"wrong {f['composed_wrong']}"
            )
    candidates = figures["scene_candidates"]
    assert isinstance(candidates, dict)
    for which, c in candidates.items():
        print(
            f"scenes read with {which:8s} templates: of {c['visible']} visible A-8 named {c['named']}, "
            f"first candidate of a quad but not named {c['first']}, no quad's first candidate "
            f"{c['missed']} | {c['quads']} quads, {c['wrong_first']} with a first candidate not there"
        )
    print(f"identify: median {figures['identify_ms_median']:.3f} ms per found card")
    return 0


if __name__ == "__main__":
    sys.exit(main())
