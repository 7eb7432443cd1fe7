"""Typed errors of the scorer.

Every error names the input that caused it and, where there is one, the state it
met.  ``ScorerError`` is the common base so callers can catch the whole family.
"""

from __future__ import annotations


class ScorerError(Exception):
    """Base class of every error the scorer raises."""


class NotationError(ScorerError, ValueError):
    """Text that is not valid notation (a card, an event, a log line)."""


class IllegalPlayError(ScorerError):
    """A well-formed event that the rules do not allow in the current state."""


class OutOfTurnError(IllegalPlayError):
    """An event by a seat whose turn it is not."""


class LogError(ScorerError):
    """A game log line that cannot be parsed or applied.

    ``line`` is the 1-based line number in the log, ``text`` the line itself and
    ``reason`` the underlying error's message.
    """

    def __init__(self, line: int, text: str, reason: str) -> None:
        super().__init__(f"line {line}: {reason}: {text.strip()!r}")
        self.line = line
        self.text = text
        self.reason = reason
