"""The event-sourced game: an append-only event log and the state it replays to.

A :class:`Game` holds the rules, the players' names and the log.  Its state is
the fold of the rules engine's ``step`` over the *effective* events: every event
that is neither an :class:`~scorer.events.Undone` nor the target of one.  The
state is kept incrementally (one ``step`` per ``apply``); only an undo replays
the log from the start.

The rules engines (``scorer.octoplus``, ``scorer.oktris``) are modules of pure
functions ``initial(rules, players)``, ``step(rules, state, event)`` and
``allowed(rules, state)`` (the :class:`Engine` protocol); :func:`engine_for`
picks the one for a rules object.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, cast

from scorer import octoplus, oktris
from scorer.errors import IllegalPlayError, LogError, NotationError, ScorerError
from scorer.events import Event, Source, Undone
from scorer.octoplus import OctoplusAllowed, OctoplusRules, OctoplusState
from scorer.oktris import OktrisAllowed, OktrisRules, OktrisState
from scorer.sheet import ScoreSheet

Rules = OctoplusRules | OktrisRules
"""The rules object of either game."""
State = OctoplusState | OktrisState
"""The engine state of either game."""
Allowed = OctoplusAllowed | OktrisAllowed
"""What may happen next, in either game."""


class Engine(Protocol):
    """The functions every rules engine module defines."""

    def initial(self, rules: Any, players: int) -> Any: ...

    def step(self, rules: Any, state: Any, event: Event) -> Any: ...

    def allowed(self, rules: Any, state: Any) -> Any: ...


GAMES: dict[str, tuple[Engine, type[Rules]]] = {
    "octoplus": (octoplus, OctoplusRules),
    "oktris": (oktris, OktrisRules),
}
"""Game name -> (engine module, rules class)."""


def _engine_module(game_name: str) -> Engine:
    try:
        return GAMES[game_name][0]
    except KeyError:
        raise NotationError(f"unknown game {game_name!r} (expected one of {', '.join(GAMES)})") from None


def rules_class(game_name: str) -> type[Rules]:
    """The rules class of a game (``OctoplusRules`` or ``OktrisRules``).

    Raises:
        NotationError: the game name is unknown.
    """
    try:
        return GAMES[game_name][1]
    except KeyError:
        raise NotationError(f"unknown game {game_name!r} (expected one of {', '.join(GAMES)})") from None


def rules_for(game_name: str, options: Mapping[str, str] | None = None) -> Rules:
    """The rules object of ``game_name`` ("octoplus" or "oktris") with ``options`` set.

    Options not given keep the defaults of ``RULES.md``.

    Raises:
        NotationError: the game name is unknown, or an option name or value is bad.
    """
    cls = rules_class(game_name)
    merged = {**cls().options(), **dict(options or {})}
    return cls.from_options(merged)


def game_name_of(rules: object) -> str:
    """The game name ("octoplus" or "oktris") a rules object belongs to.

    Raises:
        NotationError: ``rules`` is not a rules object of a known game.
    """
    for name, (_, cls) in GAMES.items():
        if type(rules) is cls:
            return name
    raise NotationError(f"not a rules object of a known game: {rules!r}")


def engine_for(rules: Rules) -> Engine:
    """The engine module that plays by ``rules``.

    Raises:
        NotationError: ``rules`` is not a rules object of a known game.
    """
    return _engine_module(game_name_of(rules))


def _player_names(players: int | Sequence[str]) -> tuple[str, ...]:
    if isinstance(players, int):
        return tuple(f"Player {seat}" for seat in range(1, players + 1))
    if isinstance(players, str):
        raise NotationError(f"players must be a count or a sequence of names, not the text {players!r}")
    names = tuple(players)
    for name in names:
        if not name.strip():
            raise NotationError(f"a player name must not be blank: {names!r}")
    if len({name.casefold() for name in names}) != len(names):
        raise NotationError(f"player names must differ: {names!r}")
    return names


class Game:
    """One game: rules, player names and the append-only event log.

    Build one with :meth:`new` or :meth:`replay`.  ``state`` is always the replay
    of the effective events; every failed operation leaves the game unchanged.
    """

    def __init__(self, rules: Rules, players: tuple[str, ...], state: State) -> None:
        self._rules = rules
        self._name = game_name_of(rules)
        self._engine = _engine_module(self._name)
        self._players = players
        self._initial = state
        self._state = state
        self._events: list[Event] = []
        self._undone: set[int] = set()

    # --- construction -----------------------------------------------------

    @classmethod
    def new(cls, rules: Rules, players: int | Sequence[str]) -> Game:
        """A game with no events yet; ``players`` is a count or the players' names.

        Raises:
            NotationError: ``rules`` is not a known rules object, or a name is blank or repeated.
            IllegalPlayError: the game cannot be played by that many players.
        """
        names = _player_names(players)
        engine = engine_for(rules)
        return cls(rules, names, engine.initial(rules, len(names)))

    @classmethod
    def replay(cls, rules: Rules, players: int | Sequence[str], events: Iterable[Event]) -> Game:
        """The game that results from applying ``events`` in order.

        Each event's ``seq`` must be 0 (numbered on the way) or its position in
        the log (1-based).

        Raises:
            LogError: an event is out of sequence or not allowed; ``line`` is the
                event's position, ``text`` its notation, ``reason`` why.
            NotationError, IllegalPlayError: as :meth:`new`.
        """
        from scorer.notation import format_event

        game = cls.new(rules, players)
        for position, event in enumerate(events, start=1):
            try:
                if event.seq not in (0, position):
                    raise IllegalPlayError(f"event numbered {event.seq} found at position {position}")
                game.apply(event)
            except ScorerError as error:
                raise LogError(position, format_event(event), str(error)) from error
        return game

    # --- reading ----------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rules object the game is played by."""
        return self._rules

    @property
    def name(self) -> str:
        """The game's name: "octoplus" or "oktris"."""
        return self._name

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names, seat 1 first."""
        return self._players

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event of the log, undone ones and ``Undone`` markers included."""
        return tuple(self._events)

    @property
    def seq(self) -> int:
        """The number of events in the log (the last event's ``seq``)."""
        return len(self._events)

    @property
    def state(self) -> State:
        """The engine's state after the effective events."""
        return self._state

    @property
    def to_move(self) -> int | None:
        """The seat expected to act next, or ``None`` (game over, or anyone may act)."""
        return self._state.to_move

    @property
    def finished(self) -> bool:
        """True once the game is over."""
        return bool(self._state.finished)

    def is_undone(self, seq: int) -> bool:
        """True if the event numbered ``seq`` has been undone."""
        return seq in self._undone

    def effective_events(self) -> tuple[Event, ...]:
        """The events the state is built from: no ``Undone``, no undone event."""
        return tuple(e for e in self._events if not isinstance(e, Undone) and e.seq not in self._undone)

    def allowed(self) -> Allowed:
        """What may happen next (the engine's ``allowed`` value for the current state)."""
        return cast(Allowed, self._engine.allowed(self._rules, self._state))

    def score_sheet(self) -> ScoreSheet:
        """The score sheet: per-round cells, adjustments, totals, winners."""
        s = self._state
        return ScoreSheet(
            game=self._name,
            players=self._players,
            rounds=tuple(tuple(row) for row in s.rounds),
            adjustments=tuple(s.adjustments),
            totals=tuple(s.totals),
            finished=bool(s.finished),
            winners=tuple(s.winners),
        )

    # --- checking ---------------------------------------------------------

    def _undo_target(self, target: int) -> int:
        if not 1 <= target <= len(self._events):
            raise IllegalPlayError(f"cannot undo event {target}: the log has events 1..{len(self._events)}")
        if isinstance(self._events[target - 1], Undone):
            raise IllegalPlayError(
                f"cannot undo event {target}: it is an undo (to redo, apply the event again)"
            )
        if target in self._undone:
            raise IllegalPlayError(f"cannot undo event {target}: it is already undone")
        return target

    def _state_without(self, target: int) -> State:
        from scorer.notation import format_event

        kept = [e for e in self.effective_events() if e.seq != target]
        state = self._initial
        for event in kept:
            try:
                state = self._engine.step(self._rules, state, event)
            except IllegalPlayError as error:
                raise IllegalPlayError(
                    f"cannot undo event {target}: later event {event.seq} ({format_event(event)}) "
                    f"would become illegal: {error}"
                ) from error
        return state

    def _next_state(self, event: Event) -> State:
        if isinstance(event, Undone):
            return self._state_without(self._undo_target(event.target))
        return cast(State, self._engine.step(self._rules, self._state, event))

    def verify(self, event: Event) -> None:
        """Check that ``event`` may be applied now; changes nothing.

        Raises:
            OutOfTurnError: the event's seat is not the one to act.
            IllegalPlayError: the rules do not allow the event now (for ``Undone``:
                the target does not exist, is an undo, is already undone, or later
                events would become illegal without it).
        """
        self._next_state(event)

    def can_apply(self, event: Event) -> bool:
        """True if ``event`` may be applied now."""
        return self.why_illegal(event) is None

    def why_illegal(self, event: Event) -> str | None:
        """Why ``event`` may not be applied now, or ``None`` if it may."""
        try:
            self._next_state(event)
        except ScorerError as error:
            return str(error)
        return None

    # --- changing ---------------------------------------------------------

    def apply(self, event: Event) -> Event:
        """Append ``event`` to the log and return it as stored (with its ``seq``).

        The event's own ``seq`` is ignored; ``source`` and ``note`` are kept.

        Raises:
            OutOfTurnError, IllegalPlayError: as :meth:`verify`; the game is unchanged.
        """
        seq = len(self._events) + 1
        stored = event if event.seq == seq else dataclasses.replace(event, seq=seq)
        new_state = self._next_state(stored)
        self._events.append(stored)
        if isinstance(stored, Undone):
            self._undone.add(stored.target)
        self._state = new_state
        return stored

    def undo(self, target: int | None = None, *, source: Source = Source.MANUAL, note: str = "") -> Undone:
        """Undo event ``target`` (default: the last effective event); returns the stored ``Undone``.

        Raises:
            IllegalPlayError: nothing to undo, or as :meth:`verify` for ``Undone``.
        """
        if target is None:
            effective = self.effective_events()
            if not effective:
                raise IllegalPlayError("nothing to undo: no effective event in the log")
            target = effective[-1].seq
        stored = self.apply(Undone(target, source=source, note=note))
        assert isinstance(stored, Undone)
        return stored

    def __repr__(self) -> str:
        return f"<Game {self._name} players={list(self._players)!r} events={len(self._events)}>"
