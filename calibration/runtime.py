"""What the scanner takes from a calibration file when ``serve`` or ``replay`` starts.

``scanner_setup`` reads the file (or falls back to the defaults, saying why) and
returns the pieces the pipeline is built from: the scanner's parameters with the
calibrated card size and play area (cards off it are not reported), the
watcher's seat zones and the learned templates.  Pixel values are rescaled
when the frames are not the size the file was calibrated at.  It never raises:
every problem becomes a message in ``problems`` (and a logged warning), and the
affected piece keeps its default.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from pathlib import Path

from calibration.config import Calibration, load_or_default
from calibration.picamera_lock import lock_controls
from calibration.seats import SeatZones
from scanner.params import ScannerParams
from scanner.sources_pi import PicameraSettings
from scanner.templates import TemplateError, Templates
from scanner.types import Quad
from scanner.watcher_zones import AngleZones
from scorer.cards import DeckKind

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ScannerSetup:
    """The calibrated pieces of the pipeline.

    ``templates`` is ``None`` when the deck's built-in templates are to be used;
    ``play_area`` is ``None`` when the whole frame is the table; ``problems``
    says what could not be used and why.
    """

    calibration: Calibration
    params: ScannerParams
    zones: AngleZones
    templates: Templates | None
    play_area: Quad | None
    problems: tuple[str, ...] = ()


def _scaled(calibration: Calibration, size: tuple[int, int] | None) -> tuple[float, float]:
    if size is None:
        return (1.0, 1.0)
    width, height = calibration.frame_size
    return (size[0] / width, size[1] / height)


def watcher_zones(seats: SeatZones, players: int, scale: tuple[float, float] = (1.0, 1.0)) -> AngleZones:
    """The watcher's zones for ``players`` seats: the calibrated ones when the counts agree, else
    equal angles around the calibrated centre (seat 1 at the bottom)."""
    centre = (seats.centre[0] * scale[0], seats.centre[1] * scale[1])
    if seats.players == players:
        return AngleZones(players, centre, seats.angles)
    return AngleZones(players, centre)


def scanner_setup(
    path: str | Path | None,
    *,
    deck: DeckKind,
    players: int,
    templates_dir: str | Path | None = None,
    params: ScannerParams | None = None,
    frame_size: tuple[int, int] | None = None,
) -> ScannerSetup:
    """The pipeline's calibrated pieces from the file at ``path`` (``None``: the defaults).

    ``templates_dir`` (``--templates``) wins over the file's template folder;
    ``frame_size`` (width, height) rescales the file's pixel values to the
    frames actually delivered.  Never raises (see the module docstring).
    """
    problems: list[str] = []
    loaded = load_or_default(path, players)
    if loaded.problem is not None:
        problems.append(loaded.problem)
    cal = loaded.calibration
    sx, sy = _scaled(cal, frame_size)
    base = params if params is not None else ScannerParams()
    card = cal.table.card_size_px
    if card is not None:
        scale = (sx + sy) / 2.0
        sized = (card[0] * scale, card[1] * scale)
        base = replace(base, find=replace(base.find, card_size_px=sized))
    if cal.seats.players != players and not loaded.is_default and path is not None:
        problems.append(
            f"the calibration has {cal.seats.players} seats but the game has {players} players: "
            "using equal seat angles around the calibrated centre (run `octotable calibrate seats`)"
        )
    zones = watcher_zones(cal.seats, players, (sx, sy))
    area: Quad | None = None
    if cal.table.corners is not None:
        c = cal.table.corners
        area = (
            (c[0][0] * sx, c[0][1] * sy),
            (c[1][0] * sx, c[1][1] * sy),
            (c[2][0] * sx, c[2][1] * sy),
            (c[3][0] * sx, c[3][1] * sy),
        )
    if area is not None:
        base = replace(base, find=replace(base.find, play_area=area))
    templates: Templates | None = None
    folder: Path | None = Path(templates_dir) if templates_dir is not None else None
    if folder is None and cal.deck.templates is not None:
        if cal.deck.kind is deck:
            folder = cal.deck.templates
        else:
            problems.append(
                f"the calibration's templates are of the {cal.deck.kind.value} deck, the game uses the "
                f"{deck.value} deck: using the built-in templates"
            )
    if folder is not None:
        try:
            templates = Templates.load(folder, deck)
        except TemplateError as exc:
            problems.append(f"{exc}: using the built-in templates")
    for problem in problems:
        log.warning("calibration: %s", problem)
    return ScannerSetup(cal, base, zones, templates, area, tuple(problems))


def picamera_settings(path: str | Path | None) -> PicameraSettings:
    """The Pi camera's set-up from the calibration file at ``path``: its frame size and the
    exposure, gains, white balance and focus that ``calibrate camera`` recorded.  Never raises:
    a missing or bad file gives the defaults (the camera then settles and locks by itself)."""
    camera = load_or_default(path).calibration.camera
    return PicameraSettings(
        width=camera.width, height=camera.height, controls=tuple(lock_controls(camera).items())
    )
