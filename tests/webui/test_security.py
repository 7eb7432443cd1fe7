"""PIN, session secret and the wrong-attempt limit."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from webui.security import (
    AttemptLimiter,
    check_csrf,
    load_pin,
    load_secret_key,
    new_pin,
    pin_fingerprint,
    valid_pin,
)


def test_new_pins_are_digits_of_the_asked_length() -> None:
    for digits in (4, 5, 6):
        pin = new_pin(digits)
        assert len(pin) == digits and pin.isdigit() and valid_pin(pin)
    with pytest.raises(ValueError, match="4 to 6 digits"):
        new_pin(3)


def test_pin_shape_is_four_to_six_ascii_digits() -> None:
    assert not valid_pin("123")
    assert not valid_pin("1234567")
    assert not valid_pin("12a4")
    assert not valid_pin("١٢٣٤")  # Arabic-Indic digits are not accepted


def test_pin_and_secret_survive_a_restart_and_are_private(tmp_path: Path) -> None:
    pin, secret = load_pin(tmp_path), load_secret_key(tmp_path)
    assert load_pin(tmp_path) == pin and load_secret_key(tmp_path) == secret
    assert len(secret) == 64
    assert stat.S_IMODE((tmp_path / "table-pin").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "session-secret").stat().st_mode) == 0o600


def test_renewing_the_pin_changes_the_session_fingerprint(tmp_path: Path) -> None:
    secret = load_secret_key(tmp_path)
    first = load_pin(tmp_path)
    second = load_pin(tmp_path, renew=True)
    while second == first:
        second = load_pin(tmp_path, renew=True)
    assert pin_fingerprint(first, secret) != pin_fingerprint(second, secret)


def test_a_damaged_pin_file_is_replaced(tmp_path: Path) -> None:
    (tmp_path / "table-pin").write_text("abc\n")
    assert valid_pin(load_pin(tmp_path))


def test_csrf_needs_both_tokens_equal() -> None:
    assert check_csrf("abc", "abc")
    assert not check_csrf("abc", "abd")
    assert not check_csrf(None, "abc")
    assert not check_csrf("abc", None)
    assert not check_csrf("", "")


def test_limiter_blocks_after_the_limit_until_the_window_passes() -> None:
    now = [0.0]
    limiter = AttemptLimiter(limit=5, window=60.0, clock=lambda: now[0])
    for _ in range(4):
        limiter.record_failure("a")
    assert limiter.blocked_for("a") == 0.0
    limiter.record_failure("a")
    assert limiter.blocked_for("a") == pytest.approx(60.0)
    assert limiter.blocked_for("b") == 0.0  # other clients are not affected
    now[0] = 59.0
    assert limiter.blocked_for("a") == pytest.approx(1.0)
    now[0] = 60.0
    assert limiter.blocked_for("a") == 0.0


def test_limiter_reset_forgets_a_client() -> None:
    limiter = AttemptLimiter(limit=1, window=60.0, clock=lambda: 0.0)
    limiter.record_failure("a")
    assert limiter.blocked_for("a") > 0
    limiter.reset("a")
    assert limiter.blocked_for("a") == 0.0
