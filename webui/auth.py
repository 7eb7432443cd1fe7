"""Request-level rules: the session's CSRF token, the PIN check, who counts as "the Pi itself"."""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from flask import Response, jsonify, request, session

from webui.context import table
from webui.security import check_csrf, check_pin, new_csrf_token, valid_pin

P = ParamSpec("P")
R = TypeVar("R")

CSRF_HEADER = "X-CSRF-Token"
CSRF_FIELD = "csrf_token"


def csrf_token() -> str:
    """The session's CSRF token (made on first use)."""
    token = session.get("csrf")
    if not isinstance(token, str):
        token = new_csrf_token()
        session["csrf"] = token
        session.permanent = True
    return token


def csrf_ok() -> bool:
    """True if the current request carries the session's CSRF token (header or form field)."""
    sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD)
    expected = session.get("csrf")
    return check_csrf(sent, expected if isinstance(expected, str) else None)


def authorized() -> bool:
    """True if this session entered the current table PIN."""
    return session.get("pin") == table().pin_mark


def is_loopback() -> bool:
    """True for requests from the machine itself (the Pi's own screen).

    A request relayed by a proxy (``Forwarded`` or ``X-Forwarded-For``) never counts,
    even when the proxy runs on the Pi.
    """
    if request.headers.get("Forwarded") or request.headers.get("X-Forwarded-For"):
        return False
    try:
        return ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        return False


def client_key() -> str:
    """The key wrong PIN attempts are counted under: the client's address."""
    return request.remote_addr or "unknown"


def error(status: int, message: str) -> Response:
    """A JSON error answer ``{"error": message}``."""
    response = jsonify(error=message)
    response.status_code = status
    return response


def attempt_login(pin: object) -> Response | None:
    """Check a PIN attempt; ``None`` on success (the session is marked), else the error answer.

    Wrong attempts are counted per client; beyond the limit the answer is a 429
    with ``Retry-After`` and the PIN is not even compared.
    """
    t = table()
    key = client_key()
    wait = t.limiter.blocked_for(key)
    if wait > 0:
        response = error(429, f"too many wrong PINs; try again in {int(wait) + 1} seconds")
        response.headers["Retry-After"] = str(int(wait) + 1)
        return response
    if not isinstance(pin, str) or not valid_pin(pin.strip()):
        return error(400, "the PIN is 4 to 6 digits")
    if not check_pin(pin.strip(), t.pin):
        t.limiter.record_failure(key)
        return error(403, "wrong PIN")
    t.limiter.reset(key)
    session["pin"] = t.pin_mark
    session.permanent = True
    return None


def require_pin(view: Callable[P, R]) -> Callable[P, R | Response]:
    """Answer 401 unless the session entered the table PIN."""

    @functools.wraps(view)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> R | Response:
        if not authorized():
            return error(401, "enter the table PIN to change the game")
        return view(*args, **kwargs)

    return wrapped
