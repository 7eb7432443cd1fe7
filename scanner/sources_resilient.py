"""Reopening a failed camera with exponential backoff, and its live/offline status."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from scanner.sources_base import FrameSource, SourceError, StoppableSource
from scanner.types import Frame

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff between reopen attempts: ``initial_s`` times ``factor`` per failure, capped."""

    initial_s: float = 0.5
    factor: float = 2.0
    cap_s: float = 30.0

    def __post_init__(self) -> None:
        if not 0 < self.initial_s <= self.cap_s:
            raise ValueError(f"Backoff.initial_s must be > 0 and <= cap_s, got {self.initial_s!r}")
        if not self.factor >= 1:
            raise ValueError(f"Backoff.factor must be >= 1, got {self.factor!r}")

    def delay(self, failures: int) -> float:
        """Seconds to wait after ``failures`` consecutive failures (1 = the first)."""
        if failures < 1:
            return 0.0
        return float(min(self.cap_s, self.initial_s * self.factor ** min(failures - 1, 64)))


LIVE = "live"
OFFLINE = "offline"


class ResilientSource(StoppableSource):
    """Opens a source with ``opener`` and reopens it with backoff whenever it fails.

    ``status`` is ``"live"`` while frames arrive and ``"offline"`` from a
    failure until the next frame; ``last_error`` says what failed.  Frame
    indices run on across reopenings.  The source ends when the wrapped source
    ends by itself (a file played to its end) or :meth:`stop` is called.  Only
    :class:`SourceError` counts as a failure; other errors propagate.
    """

    def __init__(
        self,
        opener: Callable[[], FrameSource],
        *,
        name: str = "camera",
        backoff: Backoff | None = None,
        wait: Callable[[float], None] | None = None,
    ) -> None:
        super().__init__()
        self.name = name
        self.backoff = backoff or Backoff()
        self._opener = opener
        self._wait = wait or (lambda seconds: self._stop.wait(seconds) and None)
        self._current: FrameSource | None = None
        self.status = OFFLINE
        self.last_error: str | None = None
        self.failures = 0
        self.reopenings = 0

    def __enter__(self) -> ResilientSource:
        return self

    def stop(self) -> None:
        super().stop()
        current = self._current
        if current is not None:
            current.stop()

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        opened_before = False
        while not self.stopped:
            try:
                with self._opener() as source:
                    self._current = source
                    if opened_before:
                        self.reopenings += 1
                        log.info("%s: reopened", self.name)
                    opened_before = True
                    for frame in source:
                        if self.status != LIVE:
                            log.info("%s: live", self.name)
                        self.status, self.failures = LIVE, 0
                        yield Frame(image=frame.image, timestamp=frame.timestamp, index=index)
                        index += 1
                        if self.stopped:
                            return
                    return
            except SourceError as exc:
                self.status = OFFLINE
                self.last_error = str(exc)
                self.failures += 1
                delay = self.backoff.delay(self.failures)
                log.warning("%s: offline (%s); retrying in %.1f s", self.name, exc, delay)
                self._wait(delay)
            finally:
                self._current = None
