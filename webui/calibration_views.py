"""The calibration wizard pages: camera check, play area, seats and the user's own deck, from a phone.

``/calibrate`` is the wizard page; ``/calibrate/snapshot.jpg`` the camera's latest
frame; ``/calibrate/api/...`` the JSON steps (every POST behind the table PIN and
a CSRF token).  The work is done by ``calibration.wizard.Wizard``, made on first
use for the file of ``serve --calibration`` (or ``calibration.toml`` in the data
folder) and the camera thread's latest frame.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from flask import Blueprint, Flask, Response, current_app, jsonify, request

from calibration.config import FILE_NAME
from calibration.wizard import Wizard, WizardError
from scanner.types import Image
from webui.auth import authorized, csrf_ok, error, require_pin
from webui.context import table
from webui.pages import render_page

calibration_pages = Blueprint("calibration", __name__, url_prefix="/calibrate")

WIZARD = "octotable-calibration"
"""Key of the app's wizard in ``app.extensions``."""


def install_wizard(app: Flask, wizard: Wizard) -> None:
    """Use ``wizard`` for ``app`` (tests and embedders; otherwise one is made on first use)."""
    app.extensions[WIZARD] = wizard


def _camera_frames() -> Callable[[], Image | None]:
    running = table()

    def latest() -> Image | None:
        camera = running.camera
        if camera is None:
            return None
        found = getattr(camera, "latest_image", None)
        if callable(found):
            found = found()
        return found if isinstance(found, np.ndarray) else None

    return latest


def wizard() -> Wizard:
    """The app's wizard (made on first use)."""
    found = current_app.extensions.get(WIZARD)
    if isinstance(found, Wizard):
        return found
    config = table().config
    path = config.calibration if config.calibration is not None else config.data_dir / FILE_NAME
    made = Wizard(path, _camera_frames())
    current_app.extensions[WIZARD] = made
    return made


@calibration_pages.before_request
def _check_csrf() -> Response | None:
    if request.method == "POST" and not csrf_ok():
        return error(403, "missing or wrong CSRF token: reload the page and try again")
    return None


@calibration_pages.errorhandler(WizardError)
def _wizard_error(exc: WizardError) -> Response:
    return error(409, str(exc))


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if data is None and not request.data:
        return {}
    if not isinstance(data, dict):
        raise WizardError("the request body must be a JSON object")
    return data


def _visible_state() -> dict[str, Any]:
    """The wizard's state; where the file lives (a path on the Pi) only for those with the PIN."""
    found = wizard().state()
    if not authorized():
        found["file"] = None
    return found


@calibration_pages.get("")
def page() -> str:
    """The wizard page."""
    return render_page("calibration.html", wizard=_visible_state())


@calibration_pages.get("/snapshot.jpg")
def snapshot() -> Response:
    """The camera's latest frame (503 when there is none)."""
    try:
        data, width, height = wizard().snapshot_jpeg()
    except WizardError as exc:
        return error(503, str(exc))
    response = Response(data, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Frame-Width"] = str(width)
    response.headers["X-Frame-Height"] = str(height)
    return response


@calibration_pages.get("/top-down.jpg")
def top_down_view() -> Response:
    """The play area of the latest frame seen from straight above (409 before one is saved)."""
    try:
        data = wizard().top_down_jpeg()
    except WizardError as exc:
        return error(409, str(exc))
    response = Response(data, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    return response


@calibration_pages.get("/api/state")
def state() -> Response:
    """The calibration, the file's problem if any, and the capture's progress."""
    return jsonify(_visible_state())


@calibration_pages.post("/api/camera")
@require_pin
def camera() -> Response:
    """Sharpness, brightness and glare of the latest frame, with advice."""
    return jsonify(wizard().check_camera())


@calibration_pages.post("/api/table/detect")
@require_pin
def detect_table() -> Response:
    """The play area and the middle card found on the latest frame (not saved)."""
    return jsonify(wizard().detect_table())


@calibration_pages.post("/api/table")
@require_pin
def save_table() -> Response:
    """Save the play area ``{"corners": [[x, y] x 4], "measure": true}``."""
    data = _body()
    return jsonify(wizard().save_table(data.get("corners"), bool(data.get("measure", True))))


@calibration_pages.post("/api/seats")
@require_pin
def save_seats() -> Response:
    """Save seat zones ``{"players": N, "centre": [x, y]?, "angles": [...]?}``."""
    data = _body()
    return jsonify(wizard().save_seats(data.get("players"), data.get("centre"), data.get("angles")))


@calibration_pages.post("/api/capture/start")
@require_pin
def start_capture() -> Response:
    """Start capturing ``{"deck": "oktris"|"octoplus", "captures": N}``."""
    data = _body()
    return jsonify(wizard().start_capture(data.get("deck"), data.get("captures", 3)))


@calibration_pages.post("/api/capture/step")
@require_pin
def capture_step() -> Response:
    """Offer the latest frame to the running capture; answers the progress."""
    return jsonify(wizard().capture_step())


@calibration_pages.post("/api/capture/skip")
@require_pin
def skip_card() -> Response:
    """Skip the card asked for."""
    return jsonify(wizard().skip_card())


@calibration_pages.post("/api/capture/finish")
@require_pin
def finish_capture() -> Response:
    """Learn, save and validate the templates of what was captured."""
    return jsonify(wizard().finish_capture())
