"""The calibration file: one versioned TOML file describing a table, its camera and its deck.

``octotable calibrate ...`` writes it; ``serve`` and ``replay`` read it at start
(``--calibration FILE``).  Its schema, version 1::

    version = 1

    [camera]
    width = 1280                 # frame size the rest of the file is measured in
    height = 720
    exposure_time_us = 12000     # optional: locked exposure, gain, white balance, focus
    analogue_gain = 1.5
    colour_gains = [1.8, 1.5]
    lens_position = 2.0

    [table]
    corners = [[x, y], [x, y], [x, y], [x, y]]   # optional: play area TL, TR, BR, BL (frame pixels)
    card_size_px = [short, long]                 # optional: one card's side lengths (frame pixels)

    [seats]
    players = 4
    centre = [640.0, 360.0]                      # frame pixels
    angles = [0.0, 90.0, 180.0, 270.0]           # each seat's direction, see calibration.seats

    [deck]
    kind = "oktris"
    templates = "templates"                      # optional: folder, relative to this file

``parse`` checks everything at once and raises one ``CalibrationError`` listing
every problem; ``load_or_default`` turns a missing, corrupt or old file into the
defaults plus a message saying why.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs
import tomli_w

from calibration.seats import SeatZones, default_zones
from scanner.types import Point, Quad
from scorer.cards import DeckKind

VERSION = 1
"""The calibration file version this code reads and writes."""
FILE_NAME = "calibration.toml"


def file_in(data_dir: Path) -> Path | None:
    """The calibration file of a data folder (where the wizard saves without ``--calibration``),
    or ``None`` when there is none yet."""
    path = data_dir / FILE_NAME
    return path if path.is_file() else None


def default_path() -> Path:
    """Where the calibration file lives unless told otherwise: in the per-user data folder."""
    return Path(platformdirs.user_data_dir("octotable", appauthor=False)) / FILE_NAME


_SECTIONS = ("camera", "table", "seats", "deck")
_KEYS: dict[str, tuple[str, ...]] = {
    "camera": ("width", "height", "exposure_time_us", "analogue_gain", "colour_gains", "lens_position"),
    "table": ("corners", "card_size_px"),
    "seats": ("players", "centre", "angles"),
    "deck": ("kind", "templates"),
}


class CalibrationError(ValueError):
    """A calibration file that cannot be used; ``problems`` lists every fault found.

    The message names the file (``source``) and each problem.
    """

    def __init__(self, source: str, problems: list[str] | tuple[str, ...]) -> None:
        self.source = source
        self.problems = tuple(problems)
        listed = "; ".join(self.problems)
        super().__init__(f"calibration file {source}: {listed}")


@dataclass(frozen=True)
class CameraSettings:
    """The frame size and, when ``calibrate camera`` locked them, exposure, gain, white balance and focus."""

    width: int = 1280
    height: int = 720
    exposure_time_us: int | None = None
    analogue_gain: float | None = None
    colour_gains: tuple[float, float] | None = None
    lens_position: float | None = None


@dataclass(frozen=True)
class TableSettings:
    """The play area's corners (TL, TR, BR, BL in frame pixels) and a card's size in frame pixels."""

    corners: Quad | None = None
    card_size_px: tuple[float, float] | None = None


@dataclass(frozen=True)
class DeckSettings:
    """Which deck is played and where its learned templates are (``None``: the built-in ones)."""

    kind: DeckKind = DeckKind.OKTRIS
    templates: Path | None = None


@dataclass(frozen=True)
class Calibration:
    """A whole calibration: camera, table, seats and deck.  ``Calibration()`` is the default."""

    camera: CameraSettings = field(default_factory=CameraSettings)
    table: TableSettings = field(default_factory=TableSettings)
    seats: SeatZones = field(default_factory=lambda: default_zones(4, 1280, 720))
    deck: DeckSettings = field(default_factory=DeckSettings)

    @property
    def frame_size(self) -> tuple[int, int]:
        """``(width, height)`` of the frames the file's pixel values refer to."""
        return (self.camera.width, self.camera.height)


def default_calibration(players: int = 4, width: int = 1280, height: int = 720) -> Calibration:
    """The calibration used when there is no file: whole frame, estimated card size, equal seat angles.

    Raises:
        ValueError: ``players`` is not 2..8 or the size is not positive.
    """
    return Calibration(
        camera=CameraSettings(width=width, height=height), seats=default_zones(players, width, height)
    )


# ---------------------------------------------------------------------------
# reading


class _Problems:
    """Collects problems while a document is checked, so one pass reports them all."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, text: str) -> None:
        self.items.append(text)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _number(
    p: _Problems, table: dict[str, Any], key: str, where: str, low: float, high: float
) -> float | None:
    value = table.get(key)
    if value is None:
        return None
    if not _is_number(value) or not low <= value <= high:
        p.add(f"{where}.{key} must be a number in [{low:g}, {high:g}], got {value!r}")
        return None
    return float(value)


def _point(
    p: _Problems, value: object, what: str, size: tuple[int, int], margin: float = 0.0
) -> Point | None:
    if not (isinstance(value, list) and len(value) == 2 and all(_is_number(v) for v in value)):
        p.add(f"{what} must be a point [x, y], got {value!r}")
        return None
    x, y = float(value[0]), float(value[1])
    w, h = size
    if not (-margin * w <= x <= w * (1 + margin) and -margin * h <= y <= h * (1 + margin)):
        p.add(f"{what} = [{x:g}, {y:g}] lies outside the {w}x{h} frame")
        return None
    return (x, y)


def _unknown(p: _Problems, table: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in table:
        if key not in allowed:
            p.add(f"unknown key {where}{key!r} (expected one of {', '.join(allowed)})")


def _section(p: _Problems, doc: dict[str, Any], name: str) -> dict[str, Any]:
    value = doc.get(name, {})
    if not isinstance(value, dict):
        p.add(f"[{name}] must be a table, got {value!r}")
        return {}
    _unknown(p, value, _KEYS[name], f"{name}.")
    return value


def _camera(p: _Problems, t: dict[str, Any]) -> CameraSettings:
    size = []
    for key, default in (("width", 1280), ("height", 720)):
        value = t.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or not 16 <= value <= 8192:
            p.add(f"camera.{key} must be a whole number of pixels in [16, 8192], got {value!r}")
            value = default
        size.append(value)
    exposure = t.get("exposure_time_us")
    if exposure is not None and (
        not isinstance(exposure, int) or isinstance(exposure, bool) or not 1 <= exposure <= 10_000_000
    ):
        p.add(
            "camera.exposure_time_us must be a whole number of microseconds in [1, 10000000], "
            f"got {exposure!r}"
        )
        exposure = None
    gain = _number(p, t, "analogue_gain", "camera", 1.0, 64.0)
    gains_raw = t.get("colour_gains")
    gains: tuple[float, float] | None = None
    if gains_raw is not None:
        if (
            isinstance(gains_raw, list)
            and len(gains_raw) == 2
            and all(_is_number(g) and 0 < g <= 32 for g in gains_raw)
        ):
            gains = (float(gains_raw[0]), float(gains_raw[1]))
        else:
            p.add(f"camera.colour_gains must be [red, blue] gains in (0, 32], got {gains_raw!r}")
    lens = _number(p, t, "lens_position", "camera", 0.0, 32.0)
    return CameraSettings(size[0], size[1], exposure, gain, gains, lens)


def _corners(p: _Problems, value: object, size: tuple[int, int]) -> Quad | None:
    if not (isinstance(value, list) and len(value) == 4):
        p.add(f"table.corners must be four points [[x, y], ...] (TL, TR, BR, BL), got {value!r}")
        return None
    points = [_point(p, v, f"table.corners[{i}]", size, margin=0.05) for i, v in enumerate(value)]
    if any(q is None for q in points):
        return None
    pts = [q for q in points if q is not None]
    crosses = []
    for i in range(4):
        a, b, c = pts[i], pts[(i + 1) % 4], pts[(i + 2) % 4]
        crosses.append((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]))
    area = 0.5 * abs(sum(pts[i][0] * pts[(i + 1) % 4][1] - pts[(i + 1) % 4][0] * pts[i][1] for i in range(4)))
    if not all(c > 0 for c in crosses):
        p.add("table.corners must be a convex quad listed clockwise in the image (TL, TR, BR, BL)")
        return None
    if area < 0.05 * size[0] * size[1]:
        p.add(f"table.corners enclose {area:.0f} px², under 5% of the frame: not a play area")
        return None
    return (pts[0], pts[1], pts[2], pts[3])


def _table(p: _Problems, t: dict[str, Any], size: tuple[int, int]) -> TableSettings:
    corners = _corners(p, t["corners"], size) if "corners" in t else None
    card: tuple[float, float] | None = None
    raw = t.get("card_size_px")
    if raw is not None:
        limit = float(max(size))
        if not (
            isinstance(raw, list) and len(raw) == 2 and all(_is_number(v) and 4 <= v <= limit for v in raw)
        ):
            p.add(f"table.card_size_px must be [short, long] in pixels within [4, {limit:g}], got {raw!r}")
        elif raw[0] > raw[1]:
            p.add(f"table.card_size_px must list the short side first, got {raw!r}")
        elif raw[1] / raw[0] > 2.0:
            p.add(f"table.card_size_px {raw!r} is not card-shaped (long/short above 2)")
        else:
            card = (float(raw[0]), float(raw[1]))
    return TableSettings(corners, card)


def _seats(p: _Problems, t: dict[str, Any], size: tuple[int, int]) -> SeatZones:
    players = t.get("players", 4)
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 8:
        p.add(f"seats.players must be a whole number in [2, 8], got {players!r}")
        return default_zones(4, *size)
    fallback = default_zones(players, *size)
    centre = fallback.centre if "centre" not in t else _point(p, t["centre"], "seats.centre", size)
    angles_raw = t.get("angles")
    angles = fallback.angles
    if angles_raw is not None:
        if not (isinstance(angles_raw, list) and all(_is_number(a) for a in angles_raw)):
            p.add(f"seats.angles must be a list of numbers (degrees), got {angles_raw!r}")
            return fallback
        if len(angles_raw) != players:
            p.add(f"seats.angles lists {len(angles_raw)} seats but seats.players is {players}")
            return fallback
        angles = tuple(float(a) % 360.0 for a in angles_raw)
    if centre is None:
        return fallback
    try:
        return SeatZones(centre, angles)
    except ValueError as exc:
        p.add(f"seats: {exc}")
        return fallback


def _deck(p: _Problems, t: dict[str, Any], base: Path | None) -> DeckSettings:
    kind_text = t.get("kind", DeckKind.OKTRIS.value)
    try:
        kind = DeckKind(kind_text)
    except ValueError:
        p.add(f"deck.kind must be one of {', '.join(k.value for k in DeckKind)}, got {kind_text!r}")
        kind = DeckKind.OKTRIS
    folder = t.get("templates")
    templates: Path | None = None
    if folder is not None:
        if not isinstance(folder, str) or not folder.strip():
            p.add(f"deck.templates must be a folder path, got {folder!r}")
        else:
            templates = Path(folder)
            if base is not None and not templates.is_absolute():
                templates = base / templates
    return DeckSettings(kind, templates)


def parse(doc: dict[str, Any], source: str = "<memory>", base: Path | None = None) -> Calibration:
    """A calibration from a parsed TOML document; ``base`` resolves a relative template folder.

    Raises:
        CalibrationError: the version is missing, old or newer than ``VERSION``, a
            section or key is unknown, or a value is out of range; every problem
            found is listed.
    """
    version = doc.get("version")
    if version != VERSION:
        if version is None:
            why = "has no version (expected version = 1)"
        elif isinstance(version, int) and not isinstance(version, bool) and version < VERSION:
            why = f"is version {version}, an old format; this octotable reads version {VERSION}"
        elif isinstance(version, int) and not isinstance(version, bool):
            why = f"is version {version}, newer than this octotable reads (version {VERSION})"
        else:
            why = f"has version {version!r}; expected version = {VERSION}"
        raise CalibrationError(source, [why + ": run `octotable calibrate` again to write a new one"])
    p = _Problems()
    _unknown(p, doc, ("version", *_SECTIONS), "")
    camera = _camera(p, _section(p, doc, "camera"))
    size = (camera.width, camera.height)
    table = _table(p, _section(p, doc, "table"), size)
    seats = _seats(p, _section(p, doc, "seats"), size)
    deck = _deck(p, _section(p, doc, "deck"), base)
    if p.items:
        raise CalibrationError(source, p.items)
    return Calibration(camera, table, seats, deck)


def load(path: str | Path) -> Calibration:
    """Read and check a calibration file.

    Raises:
        CalibrationError: the file is missing, unreadable, not TOML, or fails ``parse``.
    """
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CalibrationError(str(file), ["does not exist"]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CalibrationError(str(file), [f"cannot be read ({exc})"]) from None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CalibrationError(str(file), [f"is not valid TOML ({exc})"]) from None
    return parse(doc, str(file), base=file.parent)


@dataclass(frozen=True)
class Loaded:
    """What ``load_or_default`` found: the calibration to use and, when it fell back, why."""

    calibration: Calibration
    problem: str | None = None

    @property
    def is_default(self) -> bool:
        """True when the defaults are used because the file could not be."""
        return self.problem is not None


def load_or_default(path: str | Path | None, players: int = 4) -> Loaded:
    """The calibration in ``path``, or the defaults (for ``players``) with a message saying why not.

    ``None`` means no file was asked for: the defaults, without a problem.  Never raises.
    """
    if path is None:
        return Loaded(default_calibration(players))
    try:
        return Loaded(load(path))
    except CalibrationError as exc:
        return Loaded(default_calibration(players), f"{exc}; using the default calibration")


# ---------------------------------------------------------------------------
# writing


def to_document(calibration: Calibration, base: Path | None = None) -> dict[str, Any]:
    """The TOML document of ``calibration``; a template folder under ``base`` is written relative to it."""
    c = calibration.camera
    camera: dict[str, Any] = {"width": c.width, "height": c.height}
    if c.exposure_time_us is not None:
        camera["exposure_time_us"] = c.exposure_time_us
    if c.analogue_gain is not None:
        camera["analogue_gain"] = c.analogue_gain
    if c.colour_gains is not None:
        camera["colour_gains"] = list(c.colour_gains)
    if c.lens_position is not None:
        camera["lens_position"] = c.lens_position
    table: dict[str, Any] = {}
    if calibration.table.corners is not None:
        table["corners"] = [[round(x, 2), round(y, 2)] for x, y in calibration.table.corners]
    if calibration.table.card_size_px is not None:
        table["card_size_px"] = [round(v, 2) for v in calibration.table.card_size_px]
    s = calibration.seats
    seats = {
        "players": s.players,
        "centre": [round(s.centre[0], 2), round(s.centre[1], 2)],
        "angles": [round(a, 2) for a in s.angles],
    }
    deck: dict[str, Any] = {"kind": calibration.deck.kind.value}
    folder = calibration.deck.templates
    if folder is not None:
        if base is not None and folder.is_absolute() and folder.is_relative_to(base.resolve()):
            folder = folder.relative_to(base.resolve())
        elif base is not None and not folder.is_absolute() and folder.is_relative_to(base):
            folder = folder.relative_to(base)
        deck["templates"] = folder.as_posix()
    return {"version": VERSION, "camera": camera, "table": table, "seats": seats, "deck": deck}


def save(calibration: Calibration, path: str | Path) -> Path:
    """Write ``calibration`` to ``path`` (atomically: a temporary file renamed over it); returns the path.

    Raises:
        OSError: the file cannot be written.
    """
    file = Path(path)
    file.parent.mkdir(parents=True, exist_ok=True)
    text = tomli_w.dumps(to_document(calibration, file.parent))
    temporary = file.with_name(file.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(file)
    return file
