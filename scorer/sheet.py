"""The score sheet: per-round scores, the rule that changed each, totals, winners."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ScoreCell:
    """One player's score for one round (Octoplus) or deal (Oktris).

    ``points`` is what was added to the total; ``rule`` names the rule that
    changed the score, if one did (``"void 8"``, ``"88 reset"``, ``"run 3×3"``).
    """

    points: int
    rule: str | None = None


@dataclass(frozen=True)
class Adjustment:
    """A manual change of a total: ``points`` for ``seat``, with its reason."""

    seq: int
    seat: int
    points: int
    reason: str


@dataclass(frozen=True)
class ScoreSheet:
    """The scores of a game so far.  Seats are 1-based; ``winners`` are seats."""

    game: str
    players: tuple[str, ...]
    rounds: tuple[tuple[ScoreCell, ...], ...]
    adjustments: tuple[Adjustment, ...]
    totals: tuple[int, ...]
    finished: bool
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``octotable score``."""
        return {
            "game": self.game,
            "players": list(self.players),
            "rounds": [[cell.points for cell in row] for row in self.rounds],
            "totals": list(self.totals),
            "finished": self.finished,
            "winners": [self.players[seat - 1] for seat in self.winners],
        }
