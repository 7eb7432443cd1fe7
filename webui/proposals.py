"""From the watcher's observations to proposed scorer events.

A :class:`Proposer` turns each observation, in the light of the game's current
state, into events for the table's one writer (a :class:`Desk`, such as the
page's game service):

- Octoplus: the first pile card of a round is the ``TurnUp``; later pile cards
  join the current turn, which becomes ``Play(seat, cards)`` when it is over:
  its total reaches 8 or more, it empties the player's hand, a done signal or
  the idle timeout arrives (:class:`~scanner.observations.TurnDone`), the next
  card comes after a pause longer than ``turn_gap_s``, or the table is cleared.
  A ``+2`` or a Pass is a turn by itself.  A shown hand is a ``Reveal``.
- Oktris: a trick seen is a ``Trick``.

A reading below ``min_confidence``, with a card not identified, or one the
rules reject (``game.why_illegal``) becomes a :class:`Flagged` for a person with
the legal alternatives as candidates; it is never applied.  A confident legal
event is applied at once, or, with ``auto_accept`` off, offered for
confirmation.  After a play that makes exactly 8 the proposer reports
:class:`GiveAwaited`: the page asks whom the card goes to.  Draws are the
scorer's business.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, cast

from scanner.observations import (
    Candidate,
    HandShown,
    Observation,
    PileCard,
    TableCleared,
    TrickSeen,
    TurnDone,
    describe,
)
from scorer.cards import Card, OctoCard, OctoKind, StdCard
from scorer.events import Event, EventMeta, Play, Reveal, Source, Trick, TurnUp
from scorer.game import Game
from scorer.notation import format_line
from scorer.octoplus import OctoplusState, Phase

log = logging.getLogger(__name__)

MAX_CANDIDATES = 6
"""Most alternative events offered with one flagged reading."""


@dataclass(frozen=True)
class ProposalParams:
    """How sure a reading must be, and whether confident readings apply by themselves.

    Raises (on construction):
        ValueError: a field out of range, naming the field and the value.
    """

    min_confidence: float = 0.6
    """Readings below this confidence are flagged for a person."""
    auto_accept: bool = True
    """Apply confident legal readings at once (else every reading waits for confirmation)."""
    turn_gap_s: float = 3.0
    """A pile card arriving this long after the previous one starts a new turn."""
    note: str = ""
    """A note every proposed event carries (the built-in demo marks its events ``demo``)."""

    def __post_init__(self) -> None:
        if not (0.0 <= self.min_confidence <= 1.0):
            raise ValueError(
                f"ProposalParams.min_confidence must be within 0..1, got {self.min_confidence!r}"
            )
        if not isinstance(self.auto_accept, bool):
            raise ValueError(f"ProposalParams.auto_accept must be true or false, got {self.auto_accept!r}")
        if not (math.isfinite(self.turn_gap_s) and self.turn_gap_s > 0):
            raise ValueError(f"ProposalParams.turn_gap_s must be a positive number, got {self.turn_gap_s!r}")


class Desk(Protocol):
    """The table's one writer, as the proposer sees it (the page's game service fits)."""

    @property
    def game(self) -> Game: ...

    def propose(
        self,
        event: Event | None,
        *,
        reason: str = "",
        candidates: Sequence[Event] = (),
        image: bytes | None = None,
    ) -> object:
        """Apply ``event`` if the rules accept it (returning the stored event), else flag it."""
        ...


@dataclass(frozen=True)
class Applied:
    """A reading the desk applied: ``event`` as stored."""

    event: Event
    observations: tuple[Observation, ...]


@dataclass(frozen=True)
class Flagged:
    """A reading left to a person: ``event`` is what it seemed to say (if anything), never applied.

    ``candidates`` are legal events it may have meant, best first;
    ``frame_index`` is the frame whose snapshot shows the table at the time.
    """

    reason: str
    observations: tuple[Observation, ...]
    event: Event | None
    candidates: tuple[Event, ...]
    frame_index: int


@dataclass(frozen=True)
class GiveAwaited:
    """``seat`` made exactly 8 and gives a card: the page must ask to whom (one of ``to``)."""

    seat: int
    to: tuple[int, ...]


Outcome = Applied | Flagged | GiveAwaited
"""What handling one observation led to."""


def describe_outcome(outcome: Outcome) -> str:
    """The outcome in a few words, for logs: ``applied 3: play 2 +2``, ``flagged (reason): ...``."""
    if isinstance(outcome, Applied):
        return f"applied {format_line(outcome.event)}"
    if isinstance(outcome, Flagged):
        seen = "; ".join(describe(o) for o in outcome.observations) or "nothing readable"
        return f"flagged for a person ({outcome.reason}): {seen}"
    return f"seat {outcome.seat} made 8 and gives a card: waiting to hear to whom"


@dataclass(frozen=True)
class _Held:
    card: OctoCard | None
    confidence: float
    candidates: tuple[Candidate, ...]
    observation: PileCard


def _sure(card: Card | None, confidence: float, params: ProposalParams) -> bool:
    return card is not None and confidence >= params.min_confidence


def _octo_alternatives(held: _Held) -> list[OctoCard]:
    cards = [c for c, _ in held.candidates if isinstance(c, OctoCard)]
    if isinstance(held.card, OctoCard) and held.card not in cards:
        cards.insert(0, held.card)
    return cards


class Proposer:
    """Turns observations into events for a :class:`Desk`; holds the Octoplus turn in progress.

    ``snapshot(frame_index)`` may give the JPEG of a frame, attached to flagged readings.
    """

    def __init__(
        self,
        params: ProposalParams | None = None,
        *,
        snapshot: Callable[[int], bytes | None] | None = None,
    ) -> None:
        self.params = params or ProposalParams()
        self._snapshot = snapshot
        self._turn: list[_Held] = []

    @property
    def turn(self) -> tuple[Card | None, ...]:
        """The cards of the Octoplus turn in progress (not yet proposed)."""
        return tuple(h.card for h in self._turn)

    def clear(self) -> None:
        """Forget the turn in progress (e.g. after a person fixed the game by hand)."""
        self._turn = []

    # --- dispatch -----------------------------------------------------------

    def handle(self, observation: Observation, desk: Desk) -> list[Outcome]:
        """Everything ``observation`` leads to, in order (events already sent to ``desk``)."""
        if isinstance(observation, PileCard):
            return self._pile_card(observation, desk)
        if isinstance(observation, TurnDone | TableCleared):
            return self.end_turn(desk)
        if isinstance(observation, HandShown):
            return [*self.end_turn(desk), *self._hand(observation, desk)]
        return self._trick(observation, desk)

    def end_turn(self, desk: Desk) -> list[Outcome]:
        """Propose the turn in progress as a ``Play`` now (nothing if there is none)."""
        if not self._turn:
            return []
        held, self._turn = self._turn, []
        game = desk.game
        observations = tuple(h.observation for h in held)
        frame = held[-1].observation.frame_index
        if game.to_move is None:
            laid = " ".join("?" if h.card is None else str(h.card) for h in held)
            reason = f"cards laid on the pile ({laid}) when no seat is to play"
            return [self._flag(reason, observations, None, [], frame, desk)]
        seat = game.to_move
        if all(_sure(h.card, h.confidence, self.params) for h in held):
            cards = tuple(h.card for h in held if isinstance(h.card, OctoCard))
            return self._send(Play(seat, cards), observations, frame, desk)
        unsure = [i for i, h in enumerate(held) if not _sure(h.card, h.confidence, self.params)]
        guess = [h.card if isinstance(h.card, OctoCard) else None for h in held]
        candidates: list[Event] = []
        for i in unsure:
            for alternative in _octo_alternatives(held[i]):
                trial = [*guess]
                trial[i] = alternative
                if all(c is not None for c in trial):
                    candidates.append(Play(seat, tuple(c for c in trial if c is not None)))
        words = ", ".join(
            f"card {i + 1} ({'?' if held[i].card is None else held[i].card} at {held[i].confidence:.2f})"
            for i in unsure
        )
        event = (
            None if any(c is None for c in guess) else Play(seat, tuple(c for c in guess if c is not None))
        )
        return [
            self._flag(
                f"not sure of {words} of seat {seat}'s turn", observations, event, candidates, frame, desk
            )
        ]

    # --- Octoplus -----------------------------------------------------------

    def _pile_card(self, obs: PileCard, desk: Desk) -> list[Outcome]:
        out: list[Outcome] = []
        if self._turn and obs.timestamp - self._turn[-1].observation.timestamp >= self.params.turn_gap_s:
            out += self.end_turn(desk)
        state = desk.game.state
        if not isinstance(state, OctoplusState):
            return [
                *out,
                self._flag("a pile card in a game without a pile", (obs,), None, [], obs.frame_index, desk),
            ]
        card = obs.card if isinstance(obs.card, OctoCard) else None
        held = _Held(card, obs.confidence if card is not None else 0.0, obs.candidates, obs)
        if state.phase is Phase.TURN_UP and not self._turn:
            if _sure(card, held.confidence, self.params) and card is not None:
                return [*out, *self._send(TurnUp(card), (obs,), obs.frame_index, desk)]
            alternatives = [TurnUp(c) for c in _octo_alternatives(held)]
            reason = f"not sure which card was turned up ({describe(obs)})"
            return [*out, self._flag(reason, (obs,), None, alternatives, obs.frame_index, desk)]
        if card is not None and card.kind in (OctoKind.PLUS2, OctoKind.PASS):
            out += self.end_turn(desk)
            self._turn = [held]
            return [*out, *self.end_turn(desk)]
        self._turn.append(held)
        if self._turn_complete(desk.game):
            out += self.end_turn(desk)
        return out

    def _turn_complete(self, game: Game) -> bool:
        state = game.state
        if not isinstance(state, OctoplusState) or state.phase is not Phase.PLAY or state.to_move is None:
            return False
        if len(self._turn) >= state.hand_sizes[state.to_move - 1]:
            return True
        base = state.effective_base
        if base is None or any(h.card is None for h in self._turn):
            return False
        total = base + sum(h.card.value for h in self._turn if h.card is not None)
        return total >= 8

    def _hand(self, obs: HandShown, desk: Desk) -> list[Outcome]:
        cards = tuple(c for c in obs.cards if isinstance(c, OctoCard))
        sure = len(cards) == len(obs.cards) and all(c >= self.params.min_confidence for c in obs.confidences)
        event = Reveal(obs.seat, cards) if len(cards) == len(obs.cards) else None
        if sure and event is not None:
            return self._send(event, (obs,), obs.frame_index, desk)
        reason = f"not sure of the hand seat {obs.seat} shows ({describe(obs)})"
        return [self._flag(reason, (obs,), event, [], obs.frame_index, desk)]

    # --- Oktris -------------------------------------------------------------

    def _trick(self, obs: TrickSeen, desk: Desk) -> list[Outcome]:
        cards = [c if isinstance(c, StdCard) else None for c in obs.cards_by_seat]
        complete = all(c is not None for c in cards)
        event = Trick(tuple(c for c in cards if c is not None)) if complete else None
        unsure = [
            i
            for i, (c, conf) in enumerate(zip(cards, obs.confidences, strict=True))
            if not _sure(c, conf, self.params)
        ]
        if not unsure and event is not None:
            return self._send(event, (obs,), obs.frame_index, desk)
        candidates: list[Event] = []
        for i in unsure:
            for alternative, _ in obs.candidates[i]:
                if isinstance(alternative, StdCard):
                    replaced = [*cards]
                    replaced[i] = alternative
                    if all(c is not None for c in replaced):
                        candidates.append(Trick(tuple(c for c in replaced if c is not None)))
        words = ", ".join(f"seat {i + 1}" for i in unsure)
        reason = f"not sure of {words} in the trick ({describe(obs)})"
        return [self._flag(reason, (obs,), event, candidates, obs.frame_index, desk)]

    # --- sending ------------------------------------------------------------

    def _image(self, frame_index: int) -> bytes | None:
        return self._snapshot(frame_index) if self._snapshot is not None else None

    def _send(
        self, event: Event, observations: tuple[Observation, ...], frame_index: int, desk: Desk
    ) -> list[Outcome]:
        event = dataclasses.replace(event, source=Source.SCANNER, note=self.params.note or event.note)
        why = desk.game.why_illegal(event)
        if why is not None:
            return [self._flag(why, observations, event, [], frame_index, desk)]
        if not self.params.auto_accept:
            return [
                self._flag("confirm the camera's reading", observations, event, [event], frame_index, desk)
            ]
        stored = desk.propose(event)
        if not isinstance(stored, EventMeta):
            return [Flagged("the desk did not apply it", observations, event, (), frame_index)]
        out: list[Outcome] = [Applied(cast(Event, stored), observations)]
        state = desk.game.state
        if isinstance(state, OctoplusState) and state.phase is Phase.GIVE and state.awaiting_give is not None:
            to = tuple(s for s in range(1, state.players + 1) if s != state.awaiting_give)
            out.append(GiveAwaited(state.awaiting_give, to))
        return out

    def _flag(
        self,
        reason: str,
        observations: tuple[Observation, ...],
        event: Event | None,
        candidates: Sequence[Event],
        frame_index: int,
        desk: Desk,
    ) -> Flagged:
        game = desk.game
        legal: list[Event] = []
        for candidate in candidates:
            scanned = dataclasses.replace(
                candidate, source=Source.SCANNER, note=self.params.note or candidate.note
            )
            if scanned not in legal and game.can_apply(scanned):
                legal.append(scanned)
        legal = legal[:MAX_CANDIDATES]
        log.info("flagged for a person: %s", reason)
        desk.propose(None, reason=reason, candidates=legal, image=self._image(frame_index))
        return Flagged(reason, observations, event, tuple(legal), frame_index)


class GameDesk:
    """A desk over a bare :class:`Game` with nobody to ask: legal events are applied,
    everything else is kept in ``flagged`` (for replays, tests and benchmarks)."""

    def __init__(self, game: Game) -> None:
        self._game = game
        self.flagged: list[tuple[str, tuple[Event, ...]]] = []

    @property
    def game(self) -> Game:
        return self._game

    def propose(
        self,
        event: Event | None,
        *,
        reason: str = "",
        candidates: Sequence[Event] = (),
        image: bytes | None = None,
    ) -> object:
        """Apply ``event`` if legal and return it as stored; else remember the flag and return ``None``."""
        if event is not None:
            why = self._game.why_illegal(event)
            if why is None:
                return self._game.apply(event)
            reason = reason or why
        self.flagged.append((reason, tuple(candidates)))
        return None
