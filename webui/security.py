"""The table PIN, the session secret, CSRF tokens and the limit on wrong PINs.

Watching is open to the LAN; changing anything needs the table PIN.  A correct
PIN is remembered in Flask's signed session cookie (the signing key is kept in
the data folder so sessions survive a restart).  Every POST carries the
session's CSRF token (form field ``csrf_token`` or header ``X-CSRF-Token``).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

PIN_DIGITS = (4, 6)
"""Shortest and longest table PIN."""

SECRET_FILE = "session-secret"
PIN_FILE = "table-pin"


def new_pin(digits: int = 4) -> str:
    """A random PIN of ``digits`` decimal digits (leading zeros allowed).

    Raises:
        ValueError: ``digits`` is outside ``PIN_DIGITS``.
    """
    if not PIN_DIGITS[0] <= digits <= PIN_DIGITS[1]:
        raise ValueError(f"a PIN has {PIN_DIGITS[0]} to {PIN_DIGITS[1]} digits, not {digits}")
    return "".join(secrets.choice("0123456789") for _ in range(digits))


def valid_pin(text: str) -> bool:
    """True if ``text`` has the form of a table PIN."""
    return text.isascii() and text.isdigit() and PIN_DIGITS[0] <= len(text) <= PIN_DIGITS[1]


def _read_or_create(path: Path, make: Callable[[], str]) -> str:
    try:
        value = path.read_text(encoding="ascii").strip()
        if value:
            return value
    except FileNotFoundError:
        pass
    value = make()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(value + "\n")
    return value


def load_secret_key(data_dir: Path) -> str:
    """The session signing key kept in ``data_dir`` (created on first use, mode 0600)."""
    return _read_or_create(data_dir / SECRET_FILE, lambda: secrets.token_hex(32))


def load_pin(data_dir: Path, *, renew: bool = False) -> str:
    """The table PIN kept in ``data_dir``: created on first use, or anew when ``renew``.

    Keeping it means a restart (a power cut) does not lock the table out.
    """
    path = data_dir / PIN_FILE
    if renew and path.exists():
        path.unlink()
    pin = _read_or_create(path, new_pin)
    if not valid_pin(pin):
        path.unlink()
        pin = _read_or_create(path, new_pin)
    return pin


def pin_fingerprint(pin: str, secret_key: str) -> str:
    """What the session stores for a correct PIN: changing the PIN logs everyone out."""
    return hmac.new(secret_key.encode(), b"pin:" + pin.encode(), hashlib.sha256).hexdigest()[:32]


def check_pin(candidate: str, pin: str) -> bool:
    """Constant-time comparison of a PIN attempt."""
    return hmac.compare_digest(candidate.encode(), pin.encode())


def new_csrf_token() -> str:
    """A fresh CSRF token for a session."""
    return secrets.token_urlsafe(24)


def check_csrf(sent: str | None, expected: str | None) -> bool:
    """True if the token sent with a request matches the session's."""
    if not sent or not expected:
        return False
    return hmac.compare_digest(sent.encode(), expected.encode())


class AttemptLimiter:
    """At most ``limit`` wrong PIN attempts per client within ``window`` seconds."""

    def __init__(
        self, limit: int = 5, window: float = 60.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._lock = threading.Lock()
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, client: str) -> deque[float]:
        now = self._clock()
        failures = self._failures.setdefault(client, deque())
        while failures and now - failures[0] >= self.window:
            failures.popleft()
        return failures

    def blocked_for(self, client: str) -> float:
        """Seconds until ``client`` may try again (0 when it may try now)."""
        with self._lock:
            failures = self._recent(client)
            if len(failures) < self.limit:
                return 0.0
            return max(0.0, self.window - (self._clock() - failures[0]))

    def record_failure(self, client: str) -> None:
        """Count one wrong attempt by ``client``."""
        with self._lock:
            self._recent(client).append(self._clock())
            if len(self._failures) > 10_000:
                self._failures = {k: v for k, v in self._failures.items() if v}

    def reset(self, client: str) -> None:
        """Forget ``client``'s wrong attempts (after a correct PIN)."""
        with self._lock:
            self._failures.pop(client, None)
