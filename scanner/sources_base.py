"""The frame source protocol, its error and the plumbing every source shares."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from types import TracebackType
from typing import Any, Protocol

import numpy as np

from scanner.types import Frame, Image


class SourceError(RuntimeError):
    """A frame source could not be opened or stopped delivering frames."""


class FrameSource(Protocol):
    """What every source offers: a context manager that yields frames."""

    name: str

    def __enter__(self) -> FrameSource: ...

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None: ...

    def __iter__(self) -> Iterator[Frame]: ...

    def stop(self) -> None: ...


def check_image(image: Any) -> Image | None:
    """``image`` if it is a non-empty H x W x 3 uint8 array, else ``None``."""
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        return None
    if image.ndim != 3 or image.shape[2] != 3 or image.shape[0] == 0 or image.shape[1] == 0:
        return None
    return image


class StoppableSource:
    """Common plumbing: a name, a stop flag and a no-op context manager."""

    name = "source"

    def __init__(self) -> None:
        self._stop = threading.Event()

    def stop(self) -> None:
        """Ends iteration at the next frame (safe to call from another thread)."""
        self._stop.set()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Releases the device; the base class holds none."""
