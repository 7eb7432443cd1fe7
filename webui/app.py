"""The Flask application factory of the table companion."""

from __future__ import annotations

import logging
from datetime import timedelta

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

from webui.api import api
from webui.auth import error
from webui.calibration_views import calibration_pages
from webui.config import ServeConfig
from webui.context import EXTENSION, Table
from webui.live import live
from webui.pages import pages
from webui.security import AttemptLimiter, load_pin, load_secret_key, pin_fingerprint, valid_pin
from webui.service import GameService
from webui.store import EventStore

log = logging.getLogger(__name__)

STORE_FILE = "octotable.sqlite3"


def create_app(config: ServeConfig) -> Flask:
    """A ready app: the event store opened, the current game restored, the camera thread started.

    Raises:
        StoreError: the event store cannot be opened.
        ValueError: ``config.pin`` is not 4 to 6 digits.
    """
    app = Flask(__name__)
    config.data_dir.mkdir(parents=True, exist_ok=True)
    secret = load_secret_key(config.data_dir)
    if config.pin is not None and not valid_pin(config.pin):
        raise ValueError(f"the table PIN must be 4 to 6 digits, got {config.pin!r}")
    pin = config.pin if config.pin is not None else load_pin(config.data_dir)
    app.config.update(
        SECRET_KEY=secret,
        SESSION_COOKIE_NAME="octotable",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=timedelta(days=30),
        MAX_CONTENT_LENGTH=64 * 1024,
        TEMPLATES_AUTO_RELOAD=False,
        SEND_FILE_MAX_AGE_DEFAULT=timedelta(hours=1),
    )
    store = EventStore(config.data_dir / STORE_FILE)
    service = GameService(store, default_game=config.game, default_players=config.players)
    t = Table(
        config=config,
        service=service,
        pin=pin,
        pin_mark=pin_fingerprint(pin, secret),
        limiter=AttemptLimiter(config.login_limit, config.login_window),
    )
    app.extensions[EXTENSION] = t
    app.register_blueprint(pages)
    app.register_blueprint(api)
    app.register_blueprint(live)
    app.register_blueprint(calibration_pages)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException) -> Response | HTTPException:
        if request.path.startswith("/api/") or request.path == "/events":
            return error(exc.code or 500, exc.description or exc.name)
        return exc

    @app.after_request
    def _headers(response: Response) -> Response:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response

    if config.camera:
        from webui.camera import CameraThread

        t.camera = CameraThread(service, config)
        t.camera.start()
    return app
