"""Turn-over signals from outside the page: a push button on the Pi's GPIO, a key at the server's terminal.

Both call ``on_press`` (the camera thread's ``signal_done``) when a player says the
turn on the pile is over.  ``gpiozero`` ships with Raspberry Pi OS
(``python3-gpiozero``) and is imported only when a button is asked for.
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Callable
from typing import Any, TextIO

log = logging.getLogger(__name__)


class ButtonError(RuntimeError):
    """The GPIO button cannot be set up (no gpiozero, a bad pin)."""


def gpio_button(pin: int, on_press: Callable[[], None]) -> Any:
    """A push button between BCM GPIO ``pin`` and ground that calls ``on_press`` when pressed.

    Keep the returned object alive for as long as the button should work.

    Raises:
        ButtonError: ``pin`` is not a BCM GPIO number, gpiozero is missing, or it refuses the pin.
    """
    if not 0 <= pin <= 27:
        raise ButtonError(f"--done-button takes a BCM GPIO number 0..27, got {pin}")
    try:
        gpiozero = importlib.import_module("gpiozero")
    except ImportError as error:
        raise ButtonError(
            "--done-button needs gpiozero (on Raspberry Pi OS: sudo apt install python3-gpiozero, "
            f"and a venv made with --system-site-packages): {error}"
        ) from None
    try:
        button = gpiozero.Button(pin, pull_up=True, bounce_time=0.05)
    except Exception as error:  # gpiozero raises its own error family for busy or absent pins
        raise ButtonError(f"GPIO {pin} cannot be used as a button: {error}") from None

    def pressed() -> None:
        log.info("GPIO %d pressed: turn over", pin)
        on_press()

    button.when_pressed = pressed
    return button


def terminal_key(stream: TextIO, on_press: Callable[[], None]) -> threading.Thread:
    """A daemon thread that calls ``on_press`` for every Enter typed on ``stream``, until it closes."""

    def run() -> None:
        for _line in stream:
            log.info("Enter at the terminal: turn over")
            on_press()

    thread = threading.Thread(target=run, name="terminal-key", daemon=True)
    thread.start()
    return thread
