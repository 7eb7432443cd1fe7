"""The running table: what every request handler reaches through ``current_app``."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from flask import current_app

from webui.config import ServeConfig
from webui.security import AttemptLimiter
from webui.service import GameService

if TYPE_CHECKING:
    from webui.camera import CameraThread

EXTENSION = "octotable"


@dataclass
class Table:
    """The app's shared parts: config, game service, PIN, attempt limiter, camera thread."""

    config: ServeConfig
    service: GameService
    pin: str
    pin_mark: str
    limiter: AttemptLimiter
    camera: CameraThread | None = None
    streams: int = 0
    streams_lock: threading.Lock = field(default_factory=threading.Lock)

    def open_stream(self) -> bool:
        """Count a new live stream; False when there are already ``max_streams``."""
        with self.streams_lock:
            if self.streams >= self.config.max_streams:
                return False
            self.streams += 1
            return True

    def close_stream(self) -> None:
        """Forget a live stream that ended."""
        with self.streams_lock:
            self.streams -= 1


def table() -> Table:
    """The table of the app handling the current request."""
    found: Table = current_app.extensions[EXTENSION]
    return found
