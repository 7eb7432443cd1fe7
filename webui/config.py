"""The settings of a running table companion, validated once at start."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import platformdirs

from webui.service import PLAYER_LIMITS

DEFAULT_PORT = 8088
SERVER_THREADS = 32
"""Waitress worker threads: every open live stream holds one (8 phones and more),
and ordinary requests need some left over."""

MAX_STREAMS = SERVER_THREADS - 8
"""Live streams beyond this get a 503 and the page falls back to polling."""


def default_data_dir() -> Path:
    """The per-user data folder where the event store, PIN and session key live."""
    return Path(platformdirs.user_data_dir("octotable", appauthor=False))


@dataclass(frozen=True)
class ServeConfig:
    """Everything ``create_app`` needs.

    ``pin`` fixes the table PIN (tests); ``None`` keeps the one in the data
    folder (made at first start).  ``camera`` False runs without a camera thread.
    """

    data_dir: Path
    game: str = "octoplus"
    players: int = 4
    source: str = "auto"
    host: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    templates: Path | None = None
    calibration: Path | None = None
    pin: str | None = None
    camera: bool = True
    heartbeat: float = 15.0
    login_limit: int = 5
    login_window: float = 60.0
    max_streams: int = MAX_STREAMS
    auto_accept: bool = True
    """Apply the camera's confident legal readings at once; False: every reading waits for a person."""

    def __post_init__(self) -> None:
        if self.game not in PLAYER_LIMITS:
            raise ValueError(f"--game must be one of {sorted(PLAYER_LIMITS)}, got {self.game!r}")
        low, high = PLAYER_LIMITS[self.game]
        if not low <= self.players <= high:
            raise ValueError(f"{self.game} is for {low} to {high} players, got --players {self.players}")
        if not 0 <= self.port <= 65535:
            raise ValueError(f"--port must be 0..65535, got {self.port}")
        if self.heartbeat <= 0:
            raise ValueError(f"the heartbeat interval must be positive, got {self.heartbeat}")
