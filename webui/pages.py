"""The HTML pages (table, setup, camera) and the images they show (QR code, chart, camera)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from webui.auth import attempt_login, authorized, csrf_ok, csrf_token, is_loopback
from webui.chart import score_chart_svg
from webui.context import table
from webui.qr import page_url, qr_svg

pages = Blueprint("pages", __name__)

MAX_PREVIEWS = 2
"""Camera previews streamed at once (each holds a server thread)."""

_previews = threading.BoundedSemaphore(MAX_PREVIEWS)


def render_page(template: str, **extra: object) -> str:
    """``template`` (a page extending ``base.html``) rendered with what ``base.html`` needs: the CSRF
    token, whether this session holds the PIN, the table's snapshot and the join URL, plus ``extra``."""
    t = table()
    return render_template(
        template,
        csrf=csrf_token(),
        authorized=authorized(),
        snapshot=t.service.snapshot(),
        join_url=page_url(t.config.host, t.config.port),
        **extra,
    )


@pages.get("/")
def index() -> str:
    """The table view: live scores for everybody, controls for those with the PIN."""
    return render_page("table.html", qr=qr_svg(page_url(table().config.host, table().config.port)))


@pages.get("/setup")
def setup() -> str:
    """New game, players, house rules, rematch; the PIN is shown to the Pi's own screen."""
    t = table()
    return render_page(
        "setup.html",
        pin=t.pin if is_loopback() else None,
        games=t.service.games(),
        login_error=request.args.get("error"),
    )


@pages.post("/login")
def login_form() -> BaseResponse:
    """The PIN form of the setup page (a plain form POST with its CSRF field)."""
    if not csrf_ok():
        abort(403, "missing or wrong CSRF token: reload the page and try again")
    failed = attempt_login(request.form.get("pin", ""))
    target = request.form.get("next", "")
    if not target.startswith("/") or target.startswith("//"):
        target = url_for("pages.index")
    if failed is not None:
        message = failed.get_json()["error"] if failed.is_json else "wrong PIN"
        return redirect(url_for("pages.setup", error=message), code=303)
    return redirect(target, code=303)


@pages.get("/camera")
def camera_page() -> str:
    """The camera preview with the detections drawn and the scanner's state."""
    return render_page("camera.html")


@pages.get("/qr.svg")
def qr() -> Response:
    """The QR code of the page's LAN address."""
    t = table()
    return Response(qr_svg(page_url(t.config.host, t.config.port)), mimetype="image/svg+xml")


@pages.get("/chart.svg")
def chart() -> Response:
    """The score chart of the current game."""
    service = table().service
    target = service.record.options.get("target", "88")  # Oktris plays to its target; Octoplus fears 88
    goal = int(target) if target.isdigit() else 88
    response = Response(score_chart_svg(service.game.score_sheet(), goal), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response


@pages.get("/flagged/<int:flag_id>.jpg")
def flagged_image(flag_id: int) -> Response:
    """The camera snapshot of a flagged reading."""
    image = table().service.flagged_image(flag_id)
    if image is None:
        abort(404)
    return Response(image, mimetype="image/jpeg")


def _mjpeg(frames: Iterator[bytes]) -> Iterator[bytes]:
    for jpeg in frames:
        yield (
            b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: " + str(len(jpeg)).encode() + b"\r\n\r\n"
        )
        yield jpeg + b"\r\n"


@pages.get("/camera/stream.mjpg")
def camera_stream() -> Response:
    """The live preview (MJPEG) with detections drawn; 503 when the camera is offline or busy."""
    camera = table().camera
    if camera is None or not table().service.camera.live:
        abort(503, "camera offline")
    if not _previews.acquire(blocking=False):
        abort(503, f"at most {MAX_PREVIEWS} camera previews at once")
    response = Response(_mjpeg(camera.frames()), mimetype="multipart/x-mixed-replace; boundary=frame")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    response.call_on_close(_previews.release)
    return response
