"""Turn-over signals from a GPIO push button and from a key at the server's terminal."""

from __future__ import annotations

import io
import sys
import types
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import pytest

from webui.buttons import ButtonError, gpio_button, terminal_key


class FakeButton:
    """Stands in for gpiozero.Button: records its set-up; ``press()`` acts as the hardware."""

    made: ClassVar[list[FakeButton]] = []

    def __init__(self, pin: int, pull_up: bool, bounce_time: float) -> None:
        if pin == 13:
            raise RuntimeError("GPIO13 is in use")
        self.pin, self.pull_up, self.bounce_time = pin, pull_up, bounce_time
        self.when_pressed: Callable[[], None] | None = None
        FakeButton.made.append(self)

    def press(self) -> None:
        assert self.when_pressed is not None
        self.when_pressed()


@pytest.fixture
def fake_gpiozero(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    module: Any = types.ModuleType("gpiozero")
    module.Button = FakeButton
    monkeypatch.setitem(sys.modules, "gpiozero", module)
    FakeButton.made.clear()
    yield


def test_a_pressed_gpio_button_ends_the_turn(fake_gpiozero: None) -> None:
    presses: list[str] = []
    gpio_button(17, lambda: presses.append("done"))
    (button,) = FakeButton.made
    assert (button.pin, button.pull_up) == (17, True)
    button.press()
    button.press()
    assert presses == ["done", "done"]


def test_a_gpio_pin_that_cannot_be_a_button_is_a_clear_error(fake_gpiozero: None) -> None:
    with pytest.raises(ButtonError, match="GPIO 13 cannot be used as a button: GPIO13 is in use"):
        gpio_button(13, lambda: None)
    with pytest.raises(ButtonError, match=r"BCM GPIO number 0\.\.27, got 40"):
        gpio_button(40, lambda: None)


def test_without_gpiozero_the_error_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gpiozero", None)  # import fails as if not installed
    with pytest.raises(ButtonError, match="python3-gpiozero"):
        gpio_button(17, lambda: None)


def test_each_enter_at_the_terminal_ends_a_turn() -> None:
    presses: list[str] = []
    thread = terminal_key(io.StringIO("\n\nanything\n"), lambda: presses.append("done"))
    thread.join(timeout=5)
    assert not thread.is_alive()
    assert presses == ["done", "done", "done"]
