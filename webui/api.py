"""The JSON API: the state for anyone, every change behind the PIN and a CSRF token.

Every answer is JSON; every error is ``{"error": message}`` with a 4xx status:
400 for a malformed request, 401 without the PIN, 403 for a wrong PIN or CSRF
token, 404 for something that does not exist, 409 for a play the rules forbid
(the message says why; nothing changes), 429 after too many wrong PINs.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request, session

from scorer.errors import IllegalPlayError, NotationError
from scorer.game import rules_for
from webui.auth import attempt_login, authorized, csrf_ok, csrf_token, error, require_pin
from webui.codec import EventFormatError, event_to_json
from webui.context import table
from webui.service import CommandError
from webui.store import StoreError

api = Blueprint("api", __name__, url_prefix="/api")

MAX_BODY = 16 * 1024
"""Largest accepted JSON body, in bytes."""


class BadRequest(ValueError):
    """A request body that is not the JSON object an endpoint expects."""


@api.before_request
def _check_csrf() -> Response | None:
    if request.method == "POST" and not csrf_ok():
        return error(403, "missing or wrong CSRF token: reload the page and try again")
    return None


@api.errorhandler(BadRequest)
@api.errorhandler(EventFormatError)
@api.errorhandler(CommandError)
def _bad_request(exc: Exception) -> Response:
    return error(400, str(exc))


@api.errorhandler(IllegalPlayError)
def _illegal(exc: IllegalPlayError) -> Response:
    return error(409, str(exc))


@api.errorhandler(StoreError)
def _store_failed(exc: StoreError) -> Response:
    return error(503, f"the event store failed, nothing was changed: {exc}")


def body() -> dict[str, Any]:
    """The request's JSON object.

    Raises:
        BadRequest: no body, too large, not JSON, not an object.
    """
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise BadRequest(f"the request body is larger than {MAX_BODY} bytes")
    data = request.get_json(silent=True, force=True) if request.get_data(cache=True) else {}
    if data is None:
        raise BadRequest("the request body is not valid JSON")
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    return data


def state_response() -> Response:
    """The current snapshot as the answer (the same JSON ``/events`` sends)."""
    _, text = table().service.snapshot_json()
    response = Response(text, mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


@api.get("/state")
def state() -> Response:
    """The table's snapshot."""
    return state_response()


@api.get("/session")
def session_info() -> Response:
    """Whether this session holds the PIN, and its CSRF token."""
    return jsonify(authorized=authorized(), csrf=csrf_token())


@api.get("/games")
def games() -> Response:
    """The stored games, newest first, with their results."""
    current = table().service.record.id
    return jsonify(
        games=[
            {
                "id": g.id,
                "game": g.game,
                "players": list(g.players),
                "created": g.created,
                "finished": g.finished,
                "result": g.result,
                "current": g.id == current,
            }
            for g in table().service.games()
        ]
    )


@api.get("/rules/<game>")
def rules(game: str) -> Response:
    """The house rule options of a game with their default values."""
    try:
        return jsonify(game=game, options=rules_for(game).options())
    except NotationError as exc:
        return error(404, str(exc))


@api.get("/camera")
def camera() -> Response:
    """The camera thread's status (fps and more; polled by the camera page)."""
    return jsonify(table().service.camera.public())


@api.post("/login")
def login() -> Response:
    """Enter the table PIN: ``{"pin": "1234"}``."""
    failed = attempt_login(body().get("pin"))
    if failed is not None:
        return failed
    return jsonify(authorized=True, csrf=csrf_token())


@api.post("/logout")
def logout() -> Response:
    """Forget the PIN in this session."""
    session.pop("pin", None)
    return jsonify(authorized=False, csrf=csrf_token())


@api.post("/event")
@require_pin
def event() -> Response:
    """Apply one event: the body is the event object (see ``webui.codec``), or ``{"event": {...}}``.

    Answers the new state; ``X-Event-Seq`` names the stored event's number.
    """
    service = table().service
    data = body()
    stored = service.apply(service.parse(data.get("event", data)))
    response = state_response()
    response.headers["X-Event-Seq"] = str(stored.seq)
    return response


@api.post("/undo")
@require_pin
def undo() -> Response:
    """Undo the last effective event, or ``{"target": seq}``."""
    target = body().get("target")
    if target is not None and (isinstance(target, bool) or not isinstance(target, int)):
        raise BadRequest(f"'target' must be an event number, got {target!r}")
    table().service.undo(target)
    return state_response()


@api.post("/edit-round")
@require_pin
def edit_round() -> Response:
    """Correct a scored round: ``{"round": 1, "points": [..], "reason": ".."}`` (round is 1-based)."""
    data = body()
    number, points, reason = data.get("round"), data.get("points"), data.get("reason", "")
    if isinstance(number, bool) or not isinstance(number, int):
        raise BadRequest(f"'round' must be a round number, got {number!r}")
    if not isinstance(points, list):
        raise BadRequest("'points' must be a list with one number per player")
    if not isinstance(reason, str) or len(reason) > 120:
        raise BadRequest("'reason' must be text of at most 120 characters")
    table().service.edit_round(number - 1, points, reason)
    return state_response()


@api.post("/new-game")
@require_pin
def new_game() -> Response:
    """Start a game: ``{"game": "oktris", "players": ["Ana", ...], "options": {...}}``."""
    data = body()
    game, players, options = data.get("game"), data.get("players"), data.get("options", {})
    if not isinstance(game, str):
        raise BadRequest("'game' must be 'octoplus' or 'oktris'")
    if not isinstance(players, list):
        raise BadRequest("'players' must be a list of names")
    if not isinstance(options, dict):
        raise BadRequest("'options' must be an object of house rules")
    table().service.new_game(game, players, options)
    return state_response()


@api.post("/rematch")
@require_pin
def rematch() -> Response:
    """A new game with the same players and house rules."""
    table().service.rematch()
    return state_response()


@api.post("/turn-done")
@require_pin
def turn_done() -> Response:
    """Tell the camera the turn on the pile is over, so it proposes the cards it saw now."""
    t = table()
    if t.camera is None or not t.service.camera.live:
        return error(409, "the camera is offline: enter the play by hand")
    t.camera.signal_done()
    return jsonify(signalled=True)


@api.post("/flagged/<int:flag_id>")
@require_pin
def settle_flag(flag_id: int) -> Response:
    """Confirm a flagged reading with ``{"choice": index}`` or dismiss it with ``{"choice": null}``."""
    choice = body().get("choice")
    if choice is not None and (isinstance(choice, bool) or not isinstance(choice, int)):
        raise BadRequest(f"'choice' must be a candidate number or null, got {choice!r}")
    applied = table().service.resolve(flag_id, choice)
    response = state_response()
    if applied is not None:
        response.headers["X-Event"] = str(event_to_json(applied)["type"])
    return response
