"""``octotable calibrate``: calibration tasks, one sub-subcommand each, for a Pi without a screen.

- ``check [--config FILE]``: validate a calibration file and say what is wrong with it;
- ``camera [--source SPEC | --image FILE]``: is the picture sharp and bright enough (with advice);
  on the Pi camera, focus once and record the settled exposure, gain and white balance;
- ``table [--source SPEC | --image FILE] [--corners ...]``: find the play area and measure the card
  laid in its middle;
- ``seats --players N [--angles ...] [--centre X,Y]``: seat zones around the play area;
- ``capture --deck oktris|octoplus [--source SPEC]``: guided capture of the user's own deck, then
  the templates learned and validated;
- ``templates --deck oktris|octoplus --labels FILE.csv --out DIR``: learn a template folder from
  labelled photos of the user's own deck.

Every task but ``check`` and ``templates`` updates the calibration file (``--config``, by
default ``calibration.toml`` in the per-user data folder), keeping its other sections.
"""

from __future__ import annotations

import argparse
import logging
import sys
from dataclasses import replace
from pathlib import Path

import cv2

from calibration.capture import CaptureParams, CaptureSession, Step
from calibration.config import (
    Calibration,
    CalibrationError,
    CameraSettings,
    DeckSettings,
    TableSettings,
    default_path,
    load,
    save,
)
from calibration.grab import frames, grab, read_image
from calibration.picamera_lock import settle_and_record
from calibration.quality import assess
from calibration.seats import SeatZones, default_zones, zones_for_area
from calibration.table import TableError, find_play_area, measure_card, top_down
from calibration.templates import learn_templates
from calibration.validation import validate
from scanner.params import FindParams
from scanner.sources import SourceSpecError, picamera_available
from scanner.sources_base import SourceError
from scanner.templates import TemplateError, Templates
from scanner.types import Image, Quad
from scorer.cards import DeckKind

HELP = "calibrate the scanner for a table and a deck (check, camera, table, seats, capture, templates)"

log = logging.getLogger(__name__)


def _config_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config", metavar="FILE", default=None, help=f"the calibration file (default: {default_path()})"
    )


def _frame_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--source", default="auto", help="auto|picamera|opencv:N|replay:DIR (default auto)")
    group.add_argument("--image", metavar="FILE", help="use this image file instead of the camera")
    parser.add_argument(
        "--settle",
        type=int,
        default=10,
        metavar="N",
        help="frames to skip while the camera settles (default 10)",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the calibrate command's sub-subcommands to ``parser``."""
    sub = parser.add_subparsers(dest="calibrate_command", metavar="TASK", required=True)
    templates = sub.add_parser(
        "templates",
        help="learn card templates from labelled photos",
        description="learn card templates from labelled photos (CSV columns file,label)",
    )
    templates.add_argument("--deck", choices=("oktris", "octoplus"), required=True, help="which deck")
    templates.add_argument("--labels", required=True, metavar="FILE.csv", help="CSV with columns file,label")
    templates.add_argument("--out", required=True, metavar="DIR", help="the template folder to write")

    check = sub.add_parser(
        "check", help="validate a calibration file", description="validate a calibration file"
    )
    _config_option(check)

    camera = sub.add_parser(
        "camera",
        help="check the picture is sharp and bright enough",
        description="check the camera's picture",
    )
    _config_option(camera)
    _frame_options(camera)
    camera.add_argument(
        "--size", default="1280x720", metavar="WxH", help="the Pi camera's frame size (default 1280x720)"
    )

    table = sub.add_parser(
        "table",
        help="find the play area and measure a card laid in its middle",
        description="find the play area (or take --corners) and measure the card laid in its middle",
    )
    _config_option(table)
    _frame_options(table)
    table.add_argument("--corners", metavar="X,Y X,Y X,Y X,Y", help="the play area's corners TL TR BR BL")
    table.add_argument(
        "--no-card", action="store_true", help="do not measure a card (keep the file's card size)"
    )
    table.add_argument(
        "--view", metavar="FILE", help="write the top-down view of the play area to this image"
    )

    seats = sub.add_parser(
        "seats", help="set the seat zones", description="seat zones: seat 1 at the bottom, then clockwise"
    )
    _config_option(seats)
    seats.add_argument("--players", type=int, required=True, metavar="N", help="number of seats (2 to 8)")
    seats.add_argument(
        "--angles", metavar="A,B,...", help="each seat's direction in degrees (0 bottom, 90 left)"
    )
    seats.add_argument("--centre", metavar="X,Y", help="the centre the seats turn around (frame pixels)")

    capture = sub.add_parser(
        "capture",
        help="capture the user's own deck card by card and learn its templates",
        description="guided capture: show each card asked for, hold still, take it away; then validate",
    )
    _config_option(capture)
    capture.add_argument("--deck", choices=("oktris", "octoplus"), required=True, help="which deck")
    capture.add_argument("--source", default="auto", help="auto|picamera|opencv:N|replay:DIR (default auto)")
    capture.add_argument(
        "--out", metavar="DIR", help="the template folder (default: templates-DECK beside the file)"
    )
    capture.add_argument("--captures", type=int, default=3, metavar="N", help="captures per card (default 3)")


# ---------------------------------------------------------------------------
# helpers


def _path(args: argparse.Namespace) -> Path:
    return Path(args.config) if args.config else default_path()


def _current(path: Path) -> Calibration:
    """The file's calibration to update; a missing file starts from the defaults.

    Raises:
        CalibrationError: the file exists but cannot be used.
    """
    if not path.exists():
        return Calibration()
    return load(path)


def _frame(args: argparse.Namespace) -> Image:
    if args.image:
        return read_image(args.image)
    return grab(args.source, settle=max(0, args.settle))


def _size(text: str) -> tuple[int, int]:
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise ValueError(f"--size: expected WIDTHxHEIGHT, got {text!r}")
    return (int(parts[0]), int(parts[1]))


def _numbers(text: str, what: str) -> list[float]:
    try:
        return [float(v) for v in text.replace(",", " ").split()]
    except ValueError:
        raise ValueError(f"{what}: expected numbers, got {text!r}") from None


def _corners(text: str) -> Quad:
    values = _numbers(text, "--corners")
    if len(values) != 8:
        raise ValueError(f"--corners: expected four X,Y points, got {text!r}")
    return ((values[0], values[1]), (values[2], values[3]), (values[4], values[5]), (values[6], values[7]))


def _err(message: str) -> None:
    print(f"octotable calibrate: {message}", file=sys.stderr)


# ---------------------------------------------------------------------------
# tasks


def run_check(args: argparse.Namespace) -> int:
    """Validate the file (and its template folder); 0 when usable, 1 when not."""
    path = _path(args)
    try:
        cal = load(path)
    except CalibrationError as exc:
        print(f"{path}: NOT usable")
        for problem in exc.problems:
            print(f"  - {problem}")
        return 1
    faults: list[str] = []
    notes: list[str] = []
    if cal.deck.templates is not None:
        try:
            templates = Templates.load(cal.deck.templates, cal.deck.kind)
        except TemplateError as exc:
            faults.append(str(exc))
        else:
            missing = templates.missing()
            if missing:
                notes.append("no template for " + " ".join(str(c) for c in missing))
    print(f"{path}: {'NOT usable' if faults else 'OK'} (version 1)")
    c = cal.camera
    print(f"  camera: {c.width}x{c.height}")
    if cal.table.corners is None:
        print("  table: the whole frame (no play area set: run `octotable calibrate table`)")
    else:
        print("  table: corners " + " ".join(f"{x:.0f},{y:.0f}" for x, y in cal.table.corners))
    size = cal.table.card_size_px
    print(
        "  card size: "
        + ("estimated from each frame" if size is None else f"{size[0]:.1f} x {size[1]:.1f} px")
    )
    s = cal.seats
    print(
        f"  seats: {s.players} around {s.centre[0]:.0f},{s.centre[1]:.0f} at "
        + ", ".join(f"{a:.0f}°" for a in s.angles)
    )
    folder = cal.deck.templates
    print(f"  deck: {cal.deck.kind.value}, templates {'built-in' if folder is None else folder}")
    for fault in faults:
        print(f"  - {fault}")
    for note in notes:
        print(f"  note: {note}")
    return 1 if faults else 0


def run_camera(args: argparse.Namespace) -> int:
    """Assess one settled frame; records the frame size. 0 when the picture is good, 1 when not."""
    path = _path(args)
    cal = _current(path)
    camera: CameraSettings | None = None
    if args.image is None and (args.source == "picamera" or (args.source == "auto" and picamera_available())):
        width, height = _size(args.size)
        settled = settle_and_record(width, height)
        image, camera = settled.image, settled.settings
        if settled.focused is not None:
            print(f"autofocus: {'focused' if settled.focused else 'FAILED: focus by hand'}")
        print(
            f"settled: exposure {camera.exposure_time_us} µs, gain {camera.analogue_gain:.2f}, "
            f"colour gains {camera.colour_gains}, lens position {camera.lens_position}"
        )
    else:
        image = _frame(args)
    report = assess(image)
    h, w = image.shape[:2]
    print(f"frame {w}x{h}: {report.summary()}")
    for advice in report.advice:
        print(f"  - {advice}")
    if report.ok:
        print("the picture is good for reading cards")
    if (w, h) != cal.frame_size:
        cal = replace(cal, camera=replace(cal.camera, width=w, height=h), table=TableSettings())
        cal = replace(cal, seats=default_zones(cal.seats.players, w, h))
        if path.exists():
            print(
                "the frame size changed: the play area and seats are reset "
                "(run `calibrate table` and `calibrate seats`)"
            )
    if camera is not None:
        cal = replace(cal, camera=camera)
    save(cal, path)
    print(f"saved {path}")
    return 0 if report.ok else 1


def run_table(args: argparse.Namespace) -> int:
    """Find (or take) the play area and measure the middle card; updates the file."""
    path = _path(args)
    cal = _current(path)
    image = _frame(args)
    h, w = image.shape[:2]
    corners = _corners(args.corners) if args.corners else find_play_area(image)
    print("play area: " + " ".join(f"{x:.0f},{y:.0f}" for x, y in corners))
    view = top_down(corners)
    print(f"top-down view: {view.size[0]}x{view.size[1]} px")
    if args.view:
        cv2.imwrite(args.view, view.warp(image))
        print(f"wrote the top-down view to {args.view}")
    card = cal.table.card_size_px if cal.frame_size == (w, h) else None
    if not args.no_card:
        card = measure_card(image, corners)
        print(f"card size: {card[0]:.1f} x {card[1]:.1f} px")
    camera = cal.camera if cal.frame_size == (w, h) else CameraSettings(width=w, height=h)
    seats = zones_for_area(cal.seats.players, corners)
    if cal.frame_size == (w, h):
        seats = SeatZones(seats.centre, cal.seats.angles)
    cal = replace(cal, camera=camera, table=TableSettings(corners, card), seats=seats)
    save(cal, path)
    print(f"saved {path}")
    return 0


def run_seats(args: argparse.Namespace) -> int:
    """Seat zones for ``--players`` (equal angles unless ``--angles``); updates the file."""
    path = _path(args)
    cal = _current(path)
    if cal.table.corners is not None:
        zones = zones_for_area(args.players, cal.table.corners)
    else:
        zones = default_zones(args.players, *cal.frame_size)
    centre = zones.centre
    if args.centre:
        values = _numbers(args.centre, "--centre")
        if len(values) != 2:
            raise ValueError(f"--centre: expected X,Y, got {args.centre!r}")
        centre = (values[0], values[1])
    angles = zones.angles
    if args.angles:
        angles = tuple(v % 360.0 for v in _numbers(args.angles, "--angles"))
        if len(angles) != args.players:
            raise ValueError(f"--angles lists {len(angles)} seats for --players {args.players}")
    zones = SeatZones(centre, angles)
    for seat in range(1, zones.players + 1):
        print(f"seat {seat}: {zones.angles[seat - 1]:.0f}° from straight down, clockwise")
    save(replace(cal, seats=zones), path)
    print(f"saved {path}")
    return 0


def run_capture(args: argparse.Namespace) -> int:
    """Guided capture from ``--source``, then templates learned, validated and recorded in the file."""
    path = _path(args)
    cal = _current(path)
    deck = DeckKind(args.deck)
    find = FindParams(card_size_px=cal.table.card_size_px)
    session = CaptureSession(
        deck, params=CaptureParams(captures_per_card=args.captures), find=find, area=cal.table.corners
    )
    last: tuple[Step, object] | None = None
    print(
        "show each card asked for, face up in the middle, and hold it still "
        f"({args.captures} captures each); Ctrl-C stops and learns what was captured"
    )
    try:
        for image in frames(args.source):
            step = session.offer(image)
            progress = session.progress()
            if last != (step, progress.card) or step in (Step.CAPTURED, Step.CARD_DONE):
                card = "" if progress.card is None else f"{progress.card}: "
                bar = int(20 * progress.fraction)
                print(f"[{'#' * bar}{'.' * (20 - bar)}] {progress.done}/{progress.total} {card}{step.advice}")
                last = (step, progress.card)
            if session.finished:
                break
    except KeyboardInterrupt:
        print("stopped")
    if not session.captures:
        _err("no card was captured")
        return 1
    if not session.finished:
        print(f"the capture ended early: {session.progress().done} of {session.progress().total} captures")
    templates = session.learn()
    folder = Path(args.out) if args.out else path.parent / f"templates-{deck.value}"
    templates.save(folder)
    print(f"wrote {len(templates)} templates to {folder}")
    report = validate(templates, session.captures)
    for check in report.cards:
        rival = "" if check.runner_up is None else f", nearest {check.runner_up} (lead {check.margin:+.2f})"
        print(
            f"  {check.card}: confidence {check.confidence:.2f}, "
            f"{check.correct}/{check.captures} read right{rival}"
        )
    for a, b, lead in report.alike:
        print(f"  too alike: {a} and {b} (lead {lead:+.2f}): recapture them in better light")
    if report.missing:
        print("  no template for " + " ".join(str(c) for c in report.missing))
    print(f"read right: {100 * report.accuracy:.1f}% of the captures")
    save(replace(cal, deck=DeckSettings(deck, folder.resolve())), path)
    print(f"saved {path}")
    return 0 if report.ok else 1


def run_templates(args: argparse.Namespace) -> int:
    """Learn a template folder from labelled photos; 0 when every card of the deck has a
    template, 1 when some are missing (the folder is written all the same)."""
    try:
        report = learn_templates(args.labels, DeckKind(args.deck), args.out)
    except TemplateError as exc:
        _err(str(exc))
        return 2
    for card in report.cards:
        rejected = f", rejected {', '.join(p.name for p in card.rejected)}" if card.rejected else ""
        print(f"  {card.card}: {len(card.kept)} template(s), agreement {card.agreement:.2f}{rejected}")
    for path, reason in report.skipped:
        print(f"  skipped {path}: {reason}")
    print(f"wrote {len(report.templates)} templates of {len(report.cards)} cards to {report.folder}")
    if report.composed:
        print("composed from learned parts: " + " ".join(str(card) for card in report.composed))
    if report.missing:
        print("no template for " + " ".join(str(card) for card in report.missing))
        return 1
    return 0


_TASKS = {
    "check": run_check,
    "camera": run_camera,
    "table": run_table,
    "seats": run_seats,
    "capture": run_capture,
    "templates": run_templates,
}


def run(args: argparse.Namespace) -> int:
    """Run the chosen task; 0 on success, 1 when the result is not usable, 2 on bad input."""
    task = _TASKS[args.calibrate_command]
    try:
        return task(args)
    except CalibrationError as exc:
        _err(f"{exc} (fix it, or remove the file to start again)")
    except (TableError, SourceError, SourceSpecError, ValueError, OSError) as exc:
        _err(str(exc))
    return 2
