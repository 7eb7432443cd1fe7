"""The frozen state of an Octoplus game and the words the engine uses for it."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from scorer.cards import OctoCard
from scorer.errors import IllegalPlayError
from scorer.events import Event, describe
from scorer.sheet import Adjustment, ScoreCell

MIN_PLAYERS = 2
MAX_PLAYERS = 8


class Phase(enum.Enum):
    """What the table is waiting for."""

    TURN_UP = "turn_up"
    """The dealer (``to_move``) turns up the round's first base."""
    PLAY = "play"
    """``to_move`` plays, passes, adds a ``+2`` or takes the chain."""
    GIVE = "give"
    """``to_move`` made exactly 8 and gives one card to another seat."""
    REVEAL = "reveal"
    """The round is over; every seat still holding cards reveals them."""
    FINISHED = "finished"
    """The game is over."""


@dataclass(frozen=True)
class OctoplusState:
    """Everything a page needs about an Octoplus game; per-seat tuples are indexed ``seat - 1``.

    ``base`` is the value the next play adds to, before any ``+2`` chain; a
    pending chain of ``chain`` cards makes the effective base ``base + 2 * chain``.
    ``top`` is the card on top of the discard pile.  ``last_draw`` is
    ``(seat, cards drawn)`` of the last turn that drew, ``None`` when it drew
    nothing.  ``revealed[i]`` is ``None`` until seat ``i + 1`` revealed in the
    reveal phase (``()`` for an empty hand).  ``went_out`` is the seat whose
    hand emptied, ending the round.  ``rounds`` holds one row per scored round:
    a cell's ``points`` is the round score added (0 when voided, rule
    ``"void 8"``); rule ``"88 reset"`` marks a total reset to 0 by it.
    """

    players: int
    phase: Phase
    round_no: int
    dealer: int
    to_move: int | None
    base: int | None
    chain: int
    hand_sizes: tuple[int, ...]
    draw_pile: int
    discard: int
    top: OctoCard | None
    awaiting_give: int | None
    last_draw: tuple[int, int] | None
    went_out: int | None
    revealed: tuple[tuple[OctoCard, ...] | None, ...]
    totals: tuple[int, ...]
    rounds: tuple[tuple[ScoreCell, ...], ...]
    adjustments: tuple[Adjustment, ...]
    finished: bool
    winners: tuple[int, ...]
    last_play: str

    @property
    def effective_base(self) -> int | None:
        """The base the next number play is evaluated on (``base + 2 * chain``)."""
        return None if self.base is None else self.base + 2 * self.chain

    @property
    def reveal_seats(self) -> tuple[int, ...]:
        """Seats that still have to reveal their hand (reveal phase only)."""
        if self.phase is not Phase.REVEAL:
            return ()
        return tuple(s for s in range(1, self.players + 1) if self.revealed[s - 1] is None)

    def describe(self) -> str:
        """The state in words, for error messages (round, phase, whose move, base, hands)."""
        hands = "/".join(str(n) for n in self.hand_sizes)
        tail = f"hands {hands}, draw pile {self.draw_pile}"
        if self.phase is Phase.TURN_UP:
            what = f"seat {self.to_move} to turn up the base"
        elif self.phase is Phase.PLAY:
            what = f"seat {self.to_move} to play on {base_words(self)}"
        elif self.phase is Phase.GIVE:
            what = f"seat {self.to_move} to give a card"
        elif self.phase is Phase.REVEAL:
            what = "round over, seats " + ", ".join(map(str, self.reveal_seats)) + " to reveal"
        else:
            return f"game over in round {self.round_no}, totals {list(self.totals)}"
        return f"round {self.round_no}, {what}; {tail}"


def base_words(state: OctoplusState) -> str:
    if state.chain:
        return f"a +2 chain of {state.chain} (base {state.effective_base})"
    return f"base {state.base}"


def next_seat(state: OctoplusState, seat: int) -> int:
    return seat % state.players + 1


def illegal(
    event: Event, state: OctoplusState, why: str, error: type[IllegalPlayError] = IllegalPlayError
) -> IllegalPlayError:
    return error(f"{why} [event: {describe(event)}; state: {state.describe()}]")
