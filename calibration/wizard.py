"""The calibration wizard's state, independent of the web: camera check, table, seats, deck capture.

A ``Wizard`` works on one calibration file and a frame provider (a callable that
returns the camera's latest frame, or ``None`` when there is none).  Every step
answers plain JSON-ready dictionaries, and every step that changes the
calibration saves the file at once (the rest of it is kept).  Thread-safe: the
web server may call it from several threads.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeGuard

import cv2
import numpy as np

from calibration.capture import CaptureParams, CaptureSession, Step
from calibration.config import (
    Calibration,
    CalibrationError,
    CameraSettings,
    DeckSettings,
    TableSettings,
    load,
    save,
)
from calibration.quality import assess
from calibration.seats import SeatZones, zones_for_area
from calibration.table import TableError, find_play_area, measure_card, order_quad, top_down
from calibration.validation import validate
from scanner.params import FindParams
from scanner.types import Image, Quad
from scorer.cards import DeckKind

log = logging.getLogger(__name__)

FrameProvider = Callable[[], Image | None]


class WizardError(ValueError):
    """A wizard step that cannot be done now (no camera frame, nothing to capture, a bad value)."""


@contextmanager
def _table_errors() -> Iterator[None]:
    """Raises a ``TableError`` of the block as a ``WizardError`` with the same message."""
    try:
        yield
    except TableError as exc:
        raise WizardError(str(exc)) from None


def _pair(point: tuple[float, float]) -> list[float]:
    return [round(point[0], 1), round(point[1], 1)]


def _quad_json(quad: Quad | None) -> list[list[float]] | None:
    return None if quad is None else [_pair(p) for p in quad]


def _is_point(value: object) -> TypeGuard[list[float]]:
    """Whether ``value`` is an ``[x, y]`` list of two numbers (as the page sends points)."""
    return isinstance(value, list) and len(value) == 2 and all(isinstance(v, int | float) for v in value)


def _whole_frame(width: int, height: int) -> Quad:
    return ((0.0, 0.0), (float(width), 0.0), (float(width), float(height)), (0.0, float(height)))


def _jpeg(image: Image, width: int, what: str) -> bytes:
    """``image`` shrunk to at most ``width`` pixels wide, as a JPEG.

    Raises:
        WizardError: it cannot be encoded (``what`` names it in the message).
    """
    h, w = image.shape[:2]
    if w > width:
        image = np.asarray(
            cv2.resize(image, (width, max(1, round(h * width / w))), interpolation=cv2.INTER_AREA)
        )
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:
        raise WizardError(f"{what} cannot be encoded as JPEG")
    return bytes(data)


def calibration_json(cal: Calibration) -> dict[str, Any]:
    """The parts of a calibration the wizard page shows and edits."""
    size = cal.table.card_size_px
    return {
        "width": cal.camera.width,
        "height": cal.camera.height,
        "corners": _quad_json(cal.table.corners),
        "card_size_px": None if size is None else _pair(size),
        "seats": {
            "players": cal.seats.players,
            "centre": _pair(cal.seats.centre),
            "angles": [round(a, 1) for a in cal.seats.angles],
        },
        "deck": cal.deck.kind.value,
        "templates": None if cal.deck.templates is None else str(cal.deck.templates),
    }


class Wizard:
    """The wizard for the calibration file at ``path``, reading frames from ``frames``.

    A file that is missing starts from the defaults; one that cannot be used is
    reported (``problem``) and left alone until a step saves over it.
    """

    def __init__(self, path: Path, frames: FrameProvider) -> None:
        self.path = path
        self.frames = frames
        self.problem: str | None = None
        self._lock = threading.RLock()
        self._session: CaptureSession | None = None
        self._last_step: Step | None = None
        self._report: dict[str, Any] | None = None
        try:
            self.calibration = load(path) if path.exists() else Calibration()
        except CalibrationError as exc:
            self.problem = str(exc)
            self.calibration = Calibration()

    # --- helpers --------------------------------------------------------------

    def frame(self) -> Image:
        """The camera's latest frame.

        Raises:
            WizardError: there is no frame (the camera is offline).
        """
        image = self.frames()
        if image is None:
            raise WizardError("no camera frame: the camera is offline")
        return image

    def snapshot_jpeg(self, width: int = 960) -> tuple[bytes, int, int]:
        """The latest frame as a JPEG at most ``width`` pixels wide, and the frame's own width and height.

        Raises:
            WizardError: there is no frame, or it cannot be encoded.
        """
        image = self.frame()
        h, w = image.shape[:2]
        return _jpeg(image, width, "the camera frame"), w, h

    def top_down_jpeg(self, width: int = 720) -> bytes:
        """The latest frame's play area seen from straight above (the saved corners' homography),
        as a JPEG at most ``width`` pixels wide.

        Raises:
            WizardError: there is no frame, no play area is saved, or it was saved for frames of
                another size.
        """
        with self._lock:
            corners = self.calibration.table.corners
            if corners is None:
                raise WizardError("no play area is saved yet")
            image = self.frame()
            h, w = image.shape[:2]
            if (w, h) != self.calibration.frame_size:
                raise WizardError(
                    f"the play area was saved for {self.calibration.frame_size} frames, not {w}x{h}"
                )
            return _jpeg(top_down(corners).warp(image), width, "the top-down view")

    def _save(self, cal: Calibration) -> None:
        save(cal, self.path)
        self.calibration = cal
        self.problem = None

    def _sized(self, image: Image) -> Calibration:
        """The calibration for frames of ``image``'s size (the table and seats reset when it changed)."""
        h, w = image.shape[:2]
        cal = self.calibration
        if cal.frame_size == (w, h):
            return cal
        return Calibration(
            camera=CameraSettings(width=w, height=h),
            seats=zones_for_area(cal.seats.players, _whole_frame(w, h)),
            deck=cal.deck,
        )

    def state(self) -> dict[str, Any]:
        """Everything the page shows: the calibration, the file's problem, the capture's progress."""
        with self._lock:
            return {
                "file": str(self.path),
                "problem": self.problem,
                "calibration": calibration_json(self.calibration),
                "capture": self._capture_json(),
            }

    # --- camera ---------------------------------------------------------------

    def check_camera(self) -> dict[str, Any]:
        """Assess the latest frame (and record its size).

        Raises:
            WizardError: there is no frame.
        """
        with self._lock:
            image = self.frame()
            report = assess(image)
            self._save(self._sized(image))
            h, w = image.shape[:2]
            return {
                "ok": report.ok,
                "summary": report.summary(),
                "advice": list(report.advice),
                "sharpness": round(report.sharpness, 1),
                "mean": round(report.mean, 1),
                "clipped": round(report.clipped, 4),
                "width": w,
                "height": h,
                "calibration": calibration_json(self.calibration),
            }

    # --- table ----------------------------------------------------------------

    def detect_table(self) -> dict[str, Any]:
        """Find the play area and the middle card on the latest frame (nothing is saved).

        Raises:
            WizardError: there is no frame, or no play area is found.
        """
        with self._lock:
            image = self.frame()
            with _table_errors():
                corners = find_play_area(image)
            try:
                card: tuple[float, float] | None = measure_card(image, corners)
                card_problem = None
            except TableError as exc:
                card, card_problem = None, str(exc)
            h, w = image.shape[:2]
            return {
                "corners": _quad_json(corners),
                "card_size_px": None if card is None else _pair(card),
                "card_problem": card_problem,
                "width": w,
                "height": h,
            }

    def save_table(self, corners: object, measure: bool = True) -> dict[str, Any]:
        """Save the play area (four ``[x, y]`` frame points, any order) and, with ``measure``, the
        size of the card in its middle; the seats turn around the new area's centre.

        Raises:
            WizardError: no frame, corners that are not four points inside the frame, or no card.
        """
        with self._lock:
            image = self.frame()
            h, w = image.shape[:2]
            if not (isinstance(corners, list) and len(corners) == 4 and all(_is_point(p) for p in corners)):
                raise WizardError(f"corners must be four [x, y] points, got {corners!r}")
            if not all(-0.05 * w <= p[0] <= 1.05 * w and -0.05 * h <= p[1] <= 1.05 * h for p in corners):
                raise WizardError(f"corners {corners!r} lie outside the {w}x{h} frame")
            quad = order_quad(np.array(corners, dtype=float))
            with _table_errors():
                view = top_down(quad)
            cal = self._sized(image)
            card = cal.table.card_size_px
            if measure:
                with _table_errors():
                    card = measure_card(image, quad)
            area = zones_for_area(cal.seats.players, quad)
            seats = SeatZones(area.centre, cal.seats.angles)
            self._save(replace(cal, table=TableSettings(quad, card), seats=seats))
            return {"calibration": calibration_json(self.calibration), "view": list(view.size)}

    # --- seats ----------------------------------------------------------------

    def save_seats(self, players: object, centre: object = None, angles: object = None) -> dict[str, Any]:
        """Save seat zones: ``players`` seats, equal angles round the play area unless ``angles``
        (degrees) and ``centre`` (``[x, y]``) say otherwise.

        Raises:
            WizardError: a value out of range (the message says which).
        """
        with self._lock:
            cal = self.calibration
            if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 8:
                raise WizardError(f"players must be 2 to 8, got {players!r}")
            w, h = cal.frame_size
            area = cal.table.corners or _whole_frame(w, h)
            zones = zones_for_area(players, area)
            point = zones.centre
            if centre is not None:
                if not _is_point(centre):
                    raise WizardError(f"centre must be [x, y], got {centre!r}")
                point = (float(centre[0]), float(centre[1]))
            turns = zones.angles
            if angles is not None:
                if not (isinstance(angles, list) and all(isinstance(v, int | float) for v in angles)):
                    raise WizardError(f"angles must be a list of degrees, got {angles!r}")
                if len(angles) != players:
                    raise WizardError(f"{len(angles)} seat angles for {players} players")
                turns = tuple(float(a) % 360.0 for a in angles)
            try:
                seats = SeatZones(point, turns)
            except ValueError as exc:
                raise WizardError(str(exc)) from None
            self._save(replace(cal, seats=seats))
            return {"calibration": calibration_json(self.calibration)}

    # --- deck -----------------------------------------------------------------

    def start_capture(self, deck: object, captures: object = 3) -> dict[str, Any]:
        """Start a guided capture of ``deck`` (``oktris`` or ``octoplus``), ``captures`` per card.

        Raises:
            WizardError: an unknown deck or a count out of range.
        """
        with self._lock:
            try:
                kind = DeckKind(deck)
            except ValueError:
                raise WizardError(f"deck must be oktris or octoplus, got {deck!r}") from None
            if not isinstance(captures, int) or isinstance(captures, bool) or not 1 <= captures <= 10:
                raise WizardError(f"captures per card must be 1 to 10, got {captures!r}")
            cal = self.calibration
            self._session = CaptureSession(
                kind,
                params=CaptureParams(captures_per_card=captures),
                find=FindParams(card_size_px=cal.table.card_size_px),
                area=cal.table.corners,
            )
            self._last_step, self._report = None, None
            return self._capture_json()

    def _running(self) -> CaptureSession:
        if self._session is None:
            raise WizardError("no capture is running: start one first")
        return self._session

    def capture_step(self) -> dict[str, Any]:
        """Offer the latest frame to the running capture.

        Raises:
            WizardError: no capture is running, or there is no frame.
        """
        with self._lock:
            session = self._running()
            if not session.finished:
                self._last_step = session.offer(self.frame())
            return self._capture_json()

    def skip_card(self) -> dict[str, Any]:
        """Skip the card asked for (it gets no template).

        Raises:
            WizardError: no capture is running.
        """
        with self._lock:
            self._running().skip()
            self._last_step = None
            return self._capture_json()

    def finish_capture(self, folder: Path | None = None) -> dict[str, Any]:
        """Learn the templates of what was captured, save them (``folder``, by default
        ``templates-DECK`` beside the file), validate them and record them in the file.

        Raises:
            WizardError: no capture is running, or nothing was captured.
        """
        with self._lock:
            session = self._running()
            if not session.captures:
                raise WizardError("no card was captured yet")
            templates = session.learn()
            target = folder or self.path.parent / f"templates-{session.deck.value}"
            templates.save(target)
            report = validate(templates, session.captures)
            self._save(replace(self.calibration, deck=DeckSettings(session.deck, target.resolve())))
            self._report = {
                "accuracy": round(report.accuracy, 4),
                "ok": report.ok,
                "cards": [
                    {
                        "card": str(c.card),
                        "confidence": round(c.confidence, 3),
                        "correct": c.correct,
                        "captures": c.captures,
                        "runner_up": None if c.runner_up is None else str(c.runner_up),
                        "margin": round(c.margin, 3),
                    }
                    for c in report.cards
                ],
                "alike": [[str(a), str(b), round(lead, 3)] for a, b, lead in report.alike],
                "missing": [str(c) for c in report.missing],
                "templates": str(target),
            }
            self._session = None
            return {**self._capture_json(), "report": self._report}

    def _capture_json(self) -> dict[str, Any]:
        session = self._session
        if session is None:
            return {"running": False, "report": self._report}
        p = session.progress()
        step = self._last_step
        return {
            "running": True,
            "deck": session.deck.value,
            "card": None if p.card is None else str(p.card),
            "index": p.index,
            "cards": p.cards,
            "captures_of_card": p.captures_of_card,
            "captures_per_card": p.captures_per_card,
            "done": p.done,
            "total": p.total,
            "fraction": round(p.fraction, 4),
            "finished": session.finished,
            "step": None if step is None else step.value,
            "advice": Step.NO_CARD.advice if step is None else step.advice,
            "report": None,
        }
