"""Scanner speed: median milliseconds per 1280x720 frame on one core, 1, 4 and 8 cards, 4 fanned.

Run: ``.venv/bin/python -m benchmarks.scanner_speed [--repeat N] [--against REV]``.

Frames are rendered scenes (``scanner.scenes``) of separate cards of the
Oktris deck on green felt, seen slightly tilted, with the renderer's default
light, blur and noise, and (row ``4 fan``) of four cards fanned out, each
lying on the one before: there covered-card reading runs too.  Every frame is
scanned ``--repeat`` times after a warm-up; the figures are medians over all
scans of the whole pipeline (find and identify every card, ``Scanner.scan``),
of finding alone (``find_cards``) and of the finder's fixed cost per frame, its
work image (``make_work``: scaling, Lab, table estimate, edges), and per card
found, the medians of cutting it out (``warp_card``) and of identifying it
(``identify``), and of identifying its ``CardView`` (the card warped only where
it is read, as the scan does: cutting and identifying together).
OpenCV runs on one thread (``cv2.setNumThreads(1)``).

With ``--against REV`` the scanner of git revision ``REV`` (its ``scanner`` folder,
loaded as a second package) and the current one scan the same frames taking turns,
round by round, and the medians of both and their ratios (current / ``REV``) are
printed for the whole pipeline, finding (given the work image, as the scan runs it: without the cards'
scores where a tree's finder can skip them) and the work image: the side-by-side figure
that a shared, noisy machine still measures fairly.  With ``--scenes DIR`` as well, the scenes of a
fixture folder (``tests/fixtures/scenes``, or held-out scenes rendered into a folder) are scanned
that way instead, ``--repeat`` rounds, and the whole scan's time per frame is compared; a folder
without ``truth.json`` (camera photos, e.g. ``../shared/data/real-cards/images``) has every image
scanned as an Oktris frame with the built-in templates.

With ``--stages`` the steps of ``Scanner.scan`` are timed one by one on the same frames, as the
scan runs them: the work image, finding (given the work image), identifying every card found,
covered-card reading with the steps after it (refitting unnamed cards, twins, top flags), and
their sum; medians per frame.

With ``--cpu`` (with ``--against`` or ``--stages``) every time is the calling thread's CPU time
(``time.thread_time``) instead of the wall clock: on a machine shared with other work, the time
the scheduler gives other processes is left out, so the two trees' figures move far less with
the load (they still include what a busy machine costs in caches).
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import io
import json
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np

from scanner.find import find_cards, warp_card
from scanner.find_work import make_work
from scanner.identify import identify
from scanner.identify_view import CardView
from scanner.scan import Scanner
from scanner.scenes import Camera, PlacedCard, Scene, render
from scorer.cards import DeckKind, oktris_deck

COUNTS = (1, 4, 8)
FRAMES = 4
"""Different frames per card count."""


def frames(count: int, seed: int) -> list[np.ndarray]:
    """``FRAMES`` rendered 1280x720 frames of ``count`` separate cards."""
    rng = np.random.default_rng(seed)
    deck = oktris_deck()
    out = []
    for _ in range(FRAMES):
        cols = 4 if count > 4 else count
        rows = 2 if count > 4 else 1
        picks = rng.choice(len(deck), size=count, replace=False)
        cards = []
        for k, pick in enumerate(picks):
            r, c = divmod(k, cols)
            centre = ((c + 0.5) * 1280 / cols, (r + 0.5) * 720 / rows)
            cards.append(PlacedCard(deck[int(pick)], centre, float(rng.uniform(-40, 40))))
        scene = Scene(cards=tuple(cards), camera=Camera(tilt_deg=8.0), card_px=150.0)
        image, _truth = render(scene, rng)
        out.append(image)
    return out


FAN = 4
"""Cards of the fanned frames."""


def fanned_frames(seed: int) -> list[np.ndarray]:
    """``FRAMES`` rendered 1280x720 frames of ``FAN`` Oktris cards fanned out left to right, each
    lying on the one before with the index corner of its left side showing: frames where
    covered-card reading runs (corners read at the cards' visible index corners)."""
    rng = np.random.default_rng(seed)
    deck = oktris_deck()
    out = []
    for _ in range(FRAMES):
        picks = rng.choice(len(deck), size=FAN, replace=False)
        x0, y0 = float(rng.uniform(450, 700)), float(rng.uniform(280, 440))
        base = float(rng.uniform(-20, 20))
        cards = tuple(
            PlacedCard(deck[int(pick)], (x0 + 48.0 * k, y0 + float(rng.uniform(-6, 6))), base + 8.0 * k)
            for k, pick in enumerate(picks)
        )
        scene = Scene(cards=cards, camera=Camera(tilt_deg=8.0), card_px=150.0)
        image, _truth = render(scene, rng)
        out.append(image)
    return out


def cases() -> list[tuple[str, list[np.ndarray]]]:
    """The frames measured, by row label: 1, 4 and 8 separate cards, and 4 cards fanned."""
    return [(str(count), frames(count, seed=count)) for count in COUNTS] + [
        (f"{FAN} fan", fanned_frames(seed=40 + FAN))
    ]


def _median_ms(fn: object, images: list[np.ndarray], repeat: int) -> float:
    call = fn  # a callable taking an image
    times = []
    for _ in range(repeat):
        for image in images:
            start = time.perf_counter()
            call(image)  # type: ignore[operator]
            times.append((time.perf_counter() - start) * 1000.0)
    return statistics.median(times)


def _per_card_ms(scanner: Scanner, images: list[np.ndarray], repeat: int) -> tuple[float, float, float]:
    """Median milliseconds per card found of warping it whole, of identifying the whole card, and
    of identifying its ``CardView`` (warped only where it is read, as ``Scanner.scan`` does)."""
    params = scanner.params
    cards = [(image, card.corners) for image in images for card in find_cards(image, params.find)]
    warps: list[float] = []
    idents: list[float] = []
    views: list[float] = []
    if scanner.templates is None or not cards:
        return float("nan"), float("nan"), float("nan")
    for _ in range(repeat):
        for image, corners in cards:
            start = time.perf_counter()
            warped = warp_card(image, corners, params.find)
            middle = time.perf_counter()
            identify(warped, scanner.templates, params.identify)
            end = time.perf_counter()
            identify(CardView(image, corners, params.find), scanner.templates, params.identify)
            viewed = time.perf_counter()
            warps.append((middle - start) * 1000.0)
            idents.append((end - middle) * 1000.0)
            views.append((viewed - end) * 1000.0)
    return statistics.median(warps), statistics.median(idents), statistics.median(views)


STAGES = ("work", "find", "identify", "covered", "sum")
"""The steps of ``Scanner.scan`` that ``--stages`` times (``covered``: covered-card reading, the
refit of unnamed cards, twins and the top flags)."""


def stage_ms(
    scanner: Scanner, images: list[np.ndarray], repeat: int, clock: Callable[[], float] = time.perf_counter
) -> dict[str, float]:
    """Median milliseconds per frame of each of ``STAGES``, the steps run as ``Scanner.scan`` runs
    them (with templates), by ``clock`` (seconds: the wall clock, or the thread's CPU time)."""
    from scanner.scan import _retop
    from scanner.scan_covered import read_covered
    from scanner.scan_twins import merge_twins

    assert scanner.templates is not None
    times: dict[str, list[float]] = {name: [] for name in STAGES}
    params = scanner.params
    for _ in range(repeat):
        for image in images:
            marks = [clock()]
            work = make_work(image, params.find)
            marks.append(clock())
            found = find_cards(image, params.find, work, scores=False)
            marks.append(clock())
            read = [scanner._detect(image, card) for card in found]
            marks.append(clock())
            detections = [d for d, _ in read]
            covered = read_covered(image, work, detections, scanner.templates, params, [c for _, c in read])
            whole = {id(d) for d in detections}
            covered = scanner._refit_unnamed(image, work, covered, whole)
            covered, twins = merge_twins(covered, params.find)
            _retop(covered, whole | twins, work, params.find)
            marks.append(clock())
            for name, start, end in zip(STAGES, marks, marks[1:], strict=False):
                times[name].append((end - start) * 1000.0)
            times["sum"].append((marks[-1] - marks[0]) * 1000.0)
    return {name: statistics.median(values) for name, values in times.items()}


def print_stages(repeat: int, clock: Callable[[], float] = time.perf_counter) -> None:
    """Print ``stage_ms`` for every row of ``cases``, by ``clock``."""
    scanner = Scanner(DeckKind.OKTRIS)
    scanner.warm_up()
    kind = "thread CPU" if clock is time.thread_time else "wall"
    print(f"median {kind} ms per frame of each step of the scan, {FRAMES} frames x {repeat} scans each")
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    print(f"{'cards':>5} " + " ".join(f"{name:>9}" for name in STAGES))
    for label, images in cases():
        ms = stage_ms(scanner, images, repeat, clock)
        print(f"{label:>5} " + " ".join(f"{ms[name]:>9.2f}" for name in STAGES))


ROOT = Path(__file__).resolve().parent.parent


def cpu_wall_ms(call: Callable[..., object], *args: object) -> tuple[float, float]:
    """Milliseconds of one ``call(*args)``: the calling thread's CPU time (what the work costs,
    whatever else runs on a shared machine) and the wall time."""
    wall, cpu = time.perf_counter(), time.thread_time()
    call(*args)
    return (time.thread_time() - cpu) * 1000.0, (time.perf_counter() - wall) * 1000.0


def load_tree(rev: str, scratch: Path) -> tuple[ModuleType, ModuleType, ModuleType]:
    """The ``scan``, ``find`` and ``find_work`` modules of the scanner at git revision ``rev``,
    unpacked into ``scratch`` and imported as a package of another name.

    Raises:
        subprocess.CalledProcessError: ``rev`` is not a revision of the repository.
    """
    archive = subprocess.run(
        ["git", "archive", rev, "scanner"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    name = "scanner_" + re.sub(r"\W", "_", rev)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(scratch, filter="data")
    package = scratch / name
    (scratch / "scanner").rename(package)
    for path in package.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"\b(from|import) scanner\b", rf"\1 {name}", text), encoding="utf-8")
    sys.path.insert(0, str(scratch))
    return tuple(importlib.import_module(f"{name}.{module}") for module in ("scan", "find", "find_work"))  # type: ignore[return-value]


def compare(rev: str, repeat: int, clock: Callable[[], float] = time.perf_counter) -> None:
    """Print the current scanner's medians against those of revision ``rev``, taking turns, by
    ``clock`` (seconds: the wall clock, or the calling thread's CPU time)."""
    with tempfile.TemporaryDirectory() as scratch:
        old_scan, old_find, old_work = load_tree(rev, Path(scratch))
        trees = {
            "old": (old_scan.Scanner(DeckKind.OKTRIS), old_find.find_cards, old_work.make_work),
            "new": (Scanner(DeckKind.OKTRIS), find_cards, make_work),
        }
        for scanner, _find, _work in trees.values():
            scanner.warm_up()
        # finding as the scan runs it: without the cards' scores where the tree's finder can skip them
        as_scanned = {
            tag: {"scores": False} if "scores" in inspect.signature(find).parameters else {}
            for tag, (_scanner, find, _work) in trees.items()
        }
        kind = "thread CPU" if clock is time.thread_time else "wall"
        print(f"current tree against {rev}: {FRAMES} frames x {repeat} rounds, taking turns, {kind} ms")
        print(f"load average at start: {os.getloadavg()[0]:.1f}")
        print(
            f"{'cards':>5} {'scan old':>9} {'scan new':>9} {'ratio':>6} {'find old':>9} {'find new':>9}"
            f" {'ratio':>6} {'work old':>9} {'work new':>9} {'ratio':>6}"
        )
        for label, images in cases():
            times: dict[tuple[str, str], list[float]] = {}
            for round_ in range(repeat):
                order = ("old", "new") if round_ % 2 == 0 else ("new", "old")
                for image in images:
                    for tag in order:
                        scanner, find, work_of = trees[tag]
                        params = scanner.params.find
                        start = clock()
                        scanner.scan(image)
                        scanned = clock()
                        work = work_of(image, params)
                        worked = clock()
                        find(image, params, work, **as_scanned[tag])
                        found = clock()
                        for stage, ms in (
                            ("scan", scanned - start),
                            ("find", found - worked),
                            ("work", worked - scanned),
                        ):
                            times.setdefault((stage, tag), []).append(ms * 1000.0)
            row = f"{label:>5}"
            for stage in ("scan", "find", "work"):
                old = statistics.median(times[(stage, "old")])
                new = statistics.median(times[(stage, "new")])
                row += f" {old:>9.2f} {new:>9.2f} {new / old:>6.2f}"
            print(row)


def _scene_list(folder: Path) -> list[dict[str, str]]:
    """The scenes of ``folder``: its ``truth.json``'s (file and deck of each), else every image
    of the folder in name order as an Oktris frame.

    Raises:
        FileNotFoundError: ``folder`` has neither a ``truth.json`` nor an image.
    """
    truth = folder / "truth.json"
    if truth.is_file():
        scenes: list[dict[str, str]] = json.loads(truth.read_text(encoding="utf-8"))["scenes"]
        return scenes
    images = sorted(p.name for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    if not images:
        raise FileNotFoundError(f"{folder}: no truth.json and no image (.jpg, .jpeg, .png)")
    return [{"file": name, "deck": DeckKind.OKTRIS.value} for name in images]


def compare_scenes(rev: str, folder: Path, rounds: int) -> None:
    """Print the whole scan's time per frame of the scenes of ``folder`` (``_scene_list``), the
    scanner of revision ``rev`` and the current one taking turns on every frame: the medians per
    frame, the totals, and the median of the per-frame ratios.

    Raises:
        FileNotFoundError: ``folder`` has no ``truth.json`` and no image.
        ValueError: an image of the folder cannot be read.
    """
    scenes = _scene_list(folder)
    with tempfile.TemporaryDirectory() as scratch:
        old_scan, _find, _work = load_tree(rev, Path(scratch))
        scanners: dict[tuple[str, DeckKind], Scanner] = {}
        times: dict[tuple[str, str], list[float]] = {}
        print(f"current tree against {rev}: {len(scenes)} scenes of {folder} x {rounds} rounds, taking turns")
        print(f"load average at start: {os.getloadavg()[0]:.1f}")
        for round_ in range(rounds):
            order = ("old", "new") if round_ % 2 == 0 else ("new", "old")
            for scene in scenes:
                image = cv2.imread(str(folder / scene["file"]), cv2.IMREAD_COLOR)
                if image is None:
                    raise ValueError(f"{folder / scene['file']}: not a readable image")
                deck = DeckKind(scene["deck"])
                for tag in order:
                    if (tag, deck) not in scanners:
                        scanners[(tag, deck)] = (old_scan.Scanner if tag == "old" else Scanner)(deck)
                        scanners[(tag, deck)].warm_up()
                    start = time.perf_counter()
                    scanners[(tag, deck)].scan(np.asarray(image, np.uint8))
                    times.setdefault((scene["file"], tag), []).append((time.perf_counter() - start) * 1000.0)
        old = [statistics.median(times[(scene["file"], "old")]) for scene in scenes]
        new = [statistics.median(times[(scene["file"], "new")]) for scene in scenes]
        ratio = statistics.median(n / o for o, n in zip(old, new, strict=True))
        print(
            f"median ms per frame: old {statistics.median(old):.1f}, new {statistics.median(new):.1f}; "
            f"total: old {sum(old):.0f}, new {sum(new):.0f} (ratio {sum(new) / sum(old):.2f}); "
            f"median per-frame ratio {ratio:.2f}"
        )


def main(argv: list[str] | None = None) -> int:
    """Print the speed figures; returns the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10, help="scans of every frame (default 10)")
    parser.add_argument("--against", metavar="REV", help="compare with the scanner of git revision REV")
    parser.add_argument("--stages", action="store_true", help="time the steps of the scan one by one")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="with --against or --stages: time the calling thread's CPU instead of the wall clock "
        "(what the work costs, whatever else runs on a shared machine)",
    )
    parser.add_argument(
        "--scenes",
        metavar="DIR",
        type=Path,
        help="with --against: scan the scenes of DIR (a folder with truth.json, e.g. tests/fixtures/scenes, "
        "or of photos: every image as an Oktris frame) instead of the speed frames, --repeat rounds",
    )
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    if args.scenes is not None and not args.against:
        parser.error("--scenes needs --against REV")
    if args.against and args.scenes is not None:
        compare_scenes(args.against, args.scenes, args.repeat)
        return 0
    clock = time.thread_time if args.cpu else time.perf_counter
    if args.against:
        compare(args.against, args.repeat, clock)
        return 0
    if args.stages:
        print_stages(args.repeat, clock)
        return 0
    scanner = Scanner(DeckKind.OKTRIS)
    scanner.warm_up()
    params = scanner.params.find
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"median ms per 1280x720 frame, one core, {FRAMES} frames x {args.repeat} scans each")
    print(f"load average at start: {load:.1f}")
    print(
        f"{'cards':>5} {'found':>6} {'scan ms':>8} {'find ms':>8} {'work ms':>8}"
        f" {'warp/card':>10} {'ident/card':>10} {'view/card':>10}"
    )
    for label, images in cases():
        found = statistics.median(len(scanner.scan(image).detections) for image in images)
        scan_ms = _median_ms(scanner.scan, images, args.repeat)
        find_ms = _median_ms(lambda image: find_cards(image, params), images, args.repeat)
        work_ms = _median_ms(lambda image: make_work(image, params), images, args.repeat)
        warp_ms, ident_ms, view_ms = _per_card_ms(scanner, images, args.repeat)
        print(
            f"{label:>5} {found:>6.0f} {scan_ms:>8.2f} {find_ms:>8.2f} {work_ms:>8.2f}"
            f" {warp_ms:>10.2f} {ident_ms:>10.2f} {view_ms:>10.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
