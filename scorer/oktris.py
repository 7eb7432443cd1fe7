"""The Oktris rules engine: pure functions over a frozen state.

Oktris is played with the 32 cards A-8 of four suits by 2-4 players who lay one
card each at the same time; a trick is one :class:`~scorer.events.Trick` event
whose ``cards[i]`` is seat ``i + 1``'s card.  A deal is eight tricks; every deal
starts with a high trick (the strongest card wins); the colours of a trick decide
whether the next one is high or low (the weakest card wins).  A run of ``n``
consecutive tricks won by one seat scores ``n × n``; runs end with the deal.
The game is played to a target (88) by the house rules of :class:`OktrisRules`.

The module is standard library only: :func:`initial` builds the state before the
first trick, :func:`step` returns the state after one event (never mutating) and
:func:`allowed` says what may happen next.  Undo is not handled here: the game
replays its log without the undone events.

Tie at the top (house rule ``tie``): with ``extra_deal``, when the end check finds
the highest total shared, the current deal is closed (its points kept) and one
more full deal is played as a tie-break; at its end the highest total wins, and
another tie-break deal follows while the top is still shared.  With ``shared``
the tied seats win together.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from scorer.cards import StdCard, Suit
from scorer.errors import IllegalPlayError, NotationError
from scorer.events import Adjust, Event, Trick
from scorer.sheet import Adjustment, ScoreCell

TRICKS_PER_DEAL = 8
"""Every player holds eight cards, so a deal is eight tricks."""

MIN_PLAYERS = 2
MAX_PLAYERS = 4
HIGHEST_RANK = 8
"""Oktris uses ranks A (1) to 8."""


class SuitOrder(enum.Enum):
    """How suits rank inside one rank (house rule ``suit_order``)."""

    SERBIAN = "serbian"
    """Clubs > spades > hearts > diamonds (the default)."""
    OCTRIX = "octrix"
    """Clubs > spades > diamonds > hearts (the 3M Octrix order)."""
    BRIDGE = "bridge"
    """Spades > hearts > diamonds > clubs."""


_SUIT_INDEX: dict[SuitOrder, dict[Suit, int]] = {
    SuitOrder.SERBIAN: {Suit.CLUBS: 4, Suit.SPADES: 3, Suit.HEARTS: 2, Suit.DIAMONDS: 1},
    SuitOrder.OCTRIX: {Suit.CLUBS: 4, Suit.SPADES: 3, Suit.DIAMONDS: 2, Suit.HEARTS: 1},
    SuitOrder.BRIDGE: {Suit.SPADES: 4, Suit.HEARTS: 3, Suit.DIAMONDS: 2, Suit.CLUBS: 1},
}


class ColourRule(enum.Enum):
    """How a trick's colours set the next trick's mode (house rule ``colour_rule``)."""

    ALL_SAME = "all_same"
    """All cards one colour -> next trick low, else high (the default)."""
    HIGH_LOW = "high_low"
    """Strongest and weakest card the same colour -> next trick high, else low."""


class EndCheck(enum.Enum):
    """When reaching the target ends the game (house rule ``end_check``)."""

    IMMEDIATE = "immediate"
    """At the trick (or adjustment) where a running total reaches the target."""
    END_OF_DEAL = "end_of_deal"
    """After the eighth trick of a deal (or an adjustment between deals)."""


class Tie(enum.Enum):
    """What an exact tie at the top after reaching the target means (house rule ``tie``)."""

    EXTRA_DEAL = "extra_deal"
    """One more deal is played (the default)."""
    SHARED = "shared"
    """The tied seats share the win."""


_E = TypeVar("_E", bound=enum.Enum)


class Mode(enum.Enum):
    """Whether a trick is won by the strongest (high) or the weakest (low) card."""

    HIGH = "high"
    LOW = "low"


def _parse_enum(kind: type[_E], name: str, text: str) -> _E:
    try:
        return kind(text.strip().lower())
    except ValueError:
        choices = ", ".join(str(member.value) for member in kind)
        raise NotationError(f"option {name}={text!r} is not one of {choices}") from None


@dataclass(frozen=True)
class OktrisRules:
    """The house rules of Oktris; the defaults are those of RULES.md.

    Raises:
        NotationError: ``target`` is not a positive number of points.
    """

    suit_order: SuitOrder = SuitOrder.SERBIAN
    colour_rule: ColourRule = ColourRule.ALL_SAME
    end_check: EndCheck = EndCheck.IMMEDIATE
    target: int = 88
    tie: Tie = Tie.EXTRA_DEAL

    def __post_init__(self) -> None:
        if isinstance(self.target, bool) or not isinstance(self.target, int) or self.target < 1:
            raise NotationError(f"option target={self.target!r} must be a positive number of points")

    def options(self) -> dict[str, str]:
        """Every option by name, its value as text (as :meth:`from_options` reads it)."""
        return {
            "suit_order": self.suit_order.value,
            "colour_rule": self.colour_rule.value,
            "end_check": self.end_check.value,
            "target": str(self.target),
            "tie": self.tie.value,
        }

    @classmethod
    def from_options(cls, options: Mapping[str, str]) -> OktrisRules:
        """The rules named by ``options``; options not given keep their defaults.

        Raises:
            NotationError: an unknown option name or a bad value, naming both.
        """
        known = cls().options()
        for name, value in options.items():
            if name not in known:
                raise NotationError(
                    f"unknown Oktris option {name!r} (value {value!r}); known: {', '.join(known)}"
                )
        suit_order = _parse_enum(SuitOrder, "suit_order", options.get("suit_order", known["suit_order"]))
        colour_rule = _parse_enum(ColourRule, "colour_rule", options.get("colour_rule", known["colour_rule"]))
        end_check = _parse_enum(EndCheck, "end_check", options.get("end_check", known["end_check"]))
        tie = _parse_enum(Tie, "tie", options.get("tie", known["tie"]))
        target_text = options.get("target", known["target"]).strip()
        if not target_text.isdigit():
            raise NotationError(f"option target={target_text!r} must be a positive number of points")
        return cls(suit_order, colour_rule, end_check, int(target_text), tie)


def strength(card: StdCard, suit_order: SuitOrder = SuitOrder.SERBIAN) -> int:
    """The card's strength 1..32: ``4 × (rank − 1)`` plus the suit's place (1..4) in ``suit_order``.

    Raises:
        IllegalPlayError: the card is not an Oktris card (rank above 8).
    """
    if card.rank > HIGHEST_RANK:
        raise IllegalPlayError(f"{card} is not an Oktris card (ranks A-8 only)")
    return 4 * (card.rank - 1) + _SUIT_INDEX[suit_order][card.suit]


def runs(winners: Sequence[int | None], seat: int) -> tuple[int, ...]:
    """The lengths of ``seat``'s maximal runs of consecutive tricks, in play order.

    ``winners[i]`` is the seat that won trick ``i + 1`` of one deal (``None``: not
    known or nobody).
    """
    lengths: list[int] = []
    current = 0
    for winner in winners:
        if winner == seat:
            current += 1
        elif current:
            lengths.append(current)
            current = 0
    if current:
        lengths.append(current)
    return tuple(lengths)


def run_points(winners: Sequence[int | None], seat: int) -> int:
    """``seat``'s points for the tricks of one deal: ``n × n`` for each maximal run of ``n``."""
    return sum(n * n for n in runs(winners, seat))


def _run_rule(winners: Sequence[int | None], seat: int) -> str | None:
    scoring = [n for n in runs(winners, seat) if n > 1]
    if not scoring:
        return None
    text = " + ".join(f"{n}×{n}" for n in scoring)
    return f"run {text}" if len(scoring) == 1 else f"runs {text}"


@dataclass(frozen=True)
class Run:
    """The run in progress: ``seat`` has won the last ``length`` tricks of the deal."""

    seat: int
    length: int


@dataclass(frozen=True)
class PlayedTrick:
    """A trick as played: the cards by seat, the winning seat and the mode it was played in."""

    cards: tuple[StdCard, ...]
    winner: int
    mode: Mode

    @property
    def winning_card(self) -> StdCard:
        """The card that won the trick."""
        return self.cards[self.winner - 1]


@dataclass(frozen=True)
class OktrisState:
    """Everything a page needs to show an Oktris game.

    ``deal_no`` and ``trick_no`` are 1-based and name the *next* trick; ``mode`` is
    the next trick's mode.  ``tricks_this_deal`` holds the cards of the deal's
    tricks so far and ``winners_this_deal`` their winners.  ``deal_points`` are the
    running points of the current deal (finished runs + the current run squared);
    ``totals`` = finished deals + ``deal_points`` + adjustments.  ``rounds`` has one
    row per finished deal; when the game ends in the middle of a deal, that deal's
    row is added too (its running points are then also still shown in
    ``deal_points``).  ``tiebreak`` is true while an extra deal settles a tie.
    """

    players: int
    deal_no: int
    trick_no: int
    mode: Mode
    tricks_this_deal: tuple[tuple[StdCard, ...], ...]
    winners_this_deal: tuple[int, ...]
    current_run: Run | None
    deal_points: tuple[int, ...]
    last_trick: PlayedTrick | None
    totals: tuple[int, ...]
    rounds: tuple[tuple[ScoreCell, ...], ...]
    adjustments: tuple[Adjustment, ...]
    finished: bool
    winners: tuple[int, ...]
    last_play: str
    tiebreak: bool = False
    to_move: int | None = None
    """Always ``None``: everybody plays at once."""

    @property
    def seen(self) -> frozenset[StdCard]:
        """The cards played so far in this deal."""
        return frozenset(card for trick in self.tricks_this_deal for card in trick)

    @property
    def describe(self) -> str:
        """Where the game stands, for error messages (``"deal 2, trick 5 (low)"``)."""
        if self.finished:
            won = ", ".join(f"seat {s}" for s in self.winners)
            return f"game over after deal {self.deal_no} (won by {won})"
        tb = " of the tie-break" if self.tiebreak else ""
        return f"deal {self.deal_no}{tb}, trick {self.trick_no} ({self.mode.value})"


@dataclass(frozen=True)
class OktrisAllowed:
    """What may happen next: a trick of ``cards_needed`` cards, none of ``excluded``.

    ``cards_needed`` is 0 once the game is finished (no trick may follow).
    """

    trick_no: int
    mode: Mode
    cards_needed: int
    excluded: frozenset[StdCard]


def initial(rules: OktrisRules, players: int) -> OktrisState:
    """The state before the first trick of the first deal.

    Raises:
        IllegalPlayError: ``players`` is not 2, 3 or 4.
    """
    del rules  # every house rule plays from the same starting state
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalPlayError(f"Oktris is played by 2-4 players, not {players!r}")
    zeros = (0,) * players
    return OktrisState(
        players=players,
        deal_no=1,
        trick_no=1,
        mode=Mode.HIGH,
        tricks_this_deal=(),
        winners_this_deal=(),
        current_run=None,
        deal_points=zeros,
        last_trick=None,
        totals=zeros,
        rounds=(),
        adjustments=(),
        finished=False,
        winners=(),
        last_play="",
    )


def _trick_text(cards: Sequence[object]) -> str:
    return "trick " + " ".join(str(card) for card in cards)


def _check_trick(rules: OktrisRules, state: OktrisState, event: Trick) -> None:
    text = _trick_text(event.cards)
    where = state.describe
    if len(event.cards) != state.players:
        raise IllegalPlayError(
            f"{text} has {len(event.cards)} cards but {state.players} seats play ({where})"
        )
    for seat, card in enumerate(event.cards, start=1):
        if not isinstance(card, StdCard):
            raise IllegalPlayError(f"{text}: seat {seat}'s {card} is not an Oktris card ({where})")
        if card.rank > HIGHEST_RANK:
            raise IllegalPlayError(
                f"{text}: seat {seat}'s {card} is not an Oktris card (ranks A-8 only) ({where})"
            )
    for seat, card in enumerate(event.cards, start=1):
        first = event.cards.index(card) + 1
        if first != seat:
            raise IllegalPlayError(f"{text}: {card} is shown by both seat {first} and seat {seat} ({where})")
    for number, earlier in enumerate(state.tricks_this_deal, start=1):
        for card in event.cards:
            if card in earlier:
                raise IllegalPlayError(
                    f"{text}: {card} was already played in trick {number} of this deal ({where})"
                )
    del rules


def _next_mode(rules: OktrisRules, cards: Sequence[StdCard]) -> tuple[Mode, str]:
    """The next trick's mode after ``cards`` and the reason in words."""
    if rules.colour_rule is ColourRule.ALL_SAME:
        reds = sum(card.suit.is_red for card in cards)
        if reds == len(cards):
            return Mode.LOW, "all red"
        if reds == 0:
            return Mode.LOW, "all black"
        return Mode.HIGH, "colours mixed"
    ranked = sorted(cards, key=lambda card: strength(card, rules.suit_order))
    low, high = ranked[0], ranked[-1]
    if low.suit.is_red == high.suit.is_red:
        return Mode.HIGH, f"highest {high} and lowest {low} same colour"
    return Mode.LOW, f"highest {high} and lowest {low} differ in colour"


def trick_winner(rules: OktrisRules, cards: Sequence[StdCard], mode: Mode) -> int:
    """The seat (1-based) whose card wins a trick of ``cards`` played in ``mode``.

    Raises:
        IllegalPlayError: a card is not an Oktris card.
    """
    strengths = [strength(card, rules.suit_order) for card in cards]
    best = max(strengths) if mode is Mode.HIGH else min(strengths)
    return strengths.index(best) + 1


def _deal_row(state: OktrisState) -> tuple[ScoreCell, ...]:
    return tuple(
        ScoreCell(state.deal_points[seat - 1], _run_rule(state.winners_this_deal, seat))
        for seat in range(1, state.players + 1)
    )


def _start_next_deal(state: OktrisState, tiebreak: bool) -> OktrisState:
    """Close the current deal into ``rounds`` and start the next one (high)."""
    return replace(
        state,
        deal_no=state.deal_no + 1,
        trick_no=1,
        mode=Mode.HIGH,
        tricks_this_deal=(),
        winners_this_deal=(),
        current_run=None,
        deal_points=(0,) * state.players,
        rounds=(*state.rounds, _deal_row(state)),
        tiebreak=tiebreak,
    )


def _leaders(totals: Sequence[int]) -> tuple[int, ...]:
    top = max(totals)
    return tuple(seat for seat, total in enumerate(totals, start=1) if total == top)


def _finish(state: OktrisState, winners: tuple[int, ...]) -> OktrisState:
    """End the game; an interrupted deal's running points become its row."""
    rounds = state.rounds
    if state.tricks_this_deal:
        rounds = (*rounds, _deal_row(state))
    names = " and ".join(f"seat {seat}" for seat in winners)
    verb = "wins" if len(winners) == 1 else "share the win"
    note = f"game over: {names} {verb} with {state.totals[winners[0] - 1]}"
    return replace(
        state, rounds=rounds, finished=True, winners=winners, last_play=f"{state.last_play}; {note}"
    )


def _end_check(rules: OktrisRules, state: OktrisState, deal_over: bool) -> OktrisState:
    """Apply the game-end check; ``deal_over``: the eighth trick of the deal was just played."""
    if state.tiebreak:
        if not deal_over:
            return state
        leaders = _leaders(state.totals)
        if len(leaders) == 1 or rules.tie is Tie.SHARED:
            return _finish(state, leaders)
        state = replace(state, last_play=f"{state.last_play}; still tied at {state.totals[leaders[0] - 1]}")
        return _start_next_deal(state, tiebreak=True)
    checking = rules.end_check is EndCheck.IMMEDIATE or deal_over or not state.tricks_this_deal
    if checking and max(state.totals) >= rules.target:
        leaders = _leaders(state.totals)
        if len(leaders) == 1 or rules.tie is Tie.SHARED:
            return _finish(state, leaders)
        tied = " and ".join(f"seat {seat}" for seat in leaders)
        note = f"{tied} tied at {state.totals[leaders[0] - 1]} -> one more deal"
        state = replace(state, last_play=f"{state.last_play}; {note}")
        if state.tricks_this_deal:
            return _start_next_deal(state, tiebreak=True)
        return replace(state, tiebreak=True)
    if deal_over:
        return _start_next_deal(state, tiebreak=False)
    return state


def _play_trick(rules: OktrisRules, state: OktrisState, event: Trick) -> OktrisState:
    _check_trick(rules, state, event)
    cards = tuple(event.cards)
    winner = trick_winner(rules, cards, state.mode)
    winners = (*state.winners_this_deal, winner)
    run = state.current_run
    run = Run(winner, run.length + 1) if run is not None and run.seat == winner else Run(winner, 1)
    deal_points = tuple(run_points(winners, seat) for seat in range(1, state.players + 1))
    totals = tuple(
        total - old + new
        for total, old, new in zip(state.totals, state.deal_points, deal_points, strict=True)
    )
    deal_over = len(winners) == TRICKS_PER_DEAL
    next_mode, reason = _next_mode(rules, cards)
    won = f"seat {winner} wins trick {state.trick_no} with {cards[winner - 1]} ({state.mode.value})"
    if run.length > 1:
        won += f", run of {run.length}"
    if deal_over:
        tail = f"deal {state.deal_no} over -> next deal starts high"
    else:
        tail = f"{reason} -> next trick {next_mode.value}"
    state = replace(
        state,
        trick_no=state.trick_no + 1,
        mode=Mode.HIGH if deal_over else next_mode,
        tricks_this_deal=(*state.tricks_this_deal, cards),
        winners_this_deal=winners,
        current_run=run,
        deal_points=deal_points,
        last_trick=PlayedTrick(cards, winner, state.mode),
        totals=totals,
        last_play=f"{won}; {tail}",
    )
    return _end_check(rules, state, deal_over)


def _adjust(rules: OktrisRules, state: OktrisState, event: Adjust) -> OktrisState:
    if not 1 <= event.seat <= state.players:
        raise IllegalPlayError(
            f"adjustment of {event.points:+d} for seat {event.seat}: no such seat "
            f"({state.players} seats play; {state.describe})"
        )
    totals = tuple(
        total + event.points if seat == event.seat else total
        for seat, total in enumerate(state.totals, start=1)
    )
    reason = f" ({event.reason})" if event.reason else ""
    state = replace(
        state,
        totals=totals,
        adjustments=(*state.adjustments, Adjustment(event.seq, event.seat, event.points, event.reason)),
        last_play=f"seat {event.seat}: {event.points:+d} points adjusted{reason}",
    )
    return _end_check(rules, state, deal_over=False)


def step(rules: OktrisRules, state: OktrisState, event: Event) -> OktrisState:
    """The state after ``event``; ``state`` is left as it was.

    Raises:
        IllegalPlayError: the game is over; the event is not an Oktris event
            (``Trick`` or ``Adjust``); a trick without exactly one card per seat,
            with a card outside A-8, with a card twice or with a card already
            played in this deal; an adjustment for a seat that does not play.
    """
    if state.finished:
        raise IllegalPlayError(f"{_event_text(event)} after the end of the game ({state.describe})")
    if isinstance(event, Trick):
        return _play_trick(rules, state, event)
    if isinstance(event, Adjust):
        return _adjust(rules, state, event)
    raise IllegalPlayError(f"{_event_text(event)} is not an Oktris event ({state.describe})")


def _event_text(event: Event) -> str:
    """The event in words for error messages (``"trick 5H 7S"``, ``"Play by seat 1"``)."""
    if isinstance(event, Trick):
        return _trick_text(event.cards)
    if isinstance(event, Adjust):
        return f"adjustment of {event.points:+d} for seat {event.seat}"
    seat = getattr(event, "seat", None)
    return type(event).__name__ if seat is None else f"{type(event).__name__} by seat {seat}"


def allowed(rules: OktrisRules, state: OktrisState) -> OktrisAllowed:
    """What may happen next: the trick number and mode, how many cards, which are excluded."""
    del rules
    return OktrisAllowed(
        trick_no=state.trick_no,
        mode=state.mode,
        cards_needed=0 if state.finished else state.players,
        excluded=state.seen,
    )
