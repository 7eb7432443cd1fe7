"""The game service: the one writer of the table's game.

People (through the API) and the camera thread (through :meth:`GameService.propose`)
send commands here; the service checks them with the rules, appends accepted
events to the event store (committed before the call returns), and publishes a
new snapshot, numbered by ``version``, to everybody waiting in :meth:`wait`.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorer.cards import DeckKind
from scorer.errors import IllegalPlayError, NotationError, ScorerError
from scorer.events import Adjust, Event, Source, Undone
from scorer.game import GAMES, Game, rules_for
from scorer.view import event_words, snapshot
from webui.codec import EventFormatError, event_from_json, event_to_json
from webui.store import EventStore, GameRecord, StoreError

log = logging.getLogger(__name__)

MAX_FLAGGED = 5
"""Most flagged readings kept waiting for a person; older ones are dropped."""

PLAYER_LIMITS = {"octoplus": (2, 8), "oktris": (2, 4)}
MAX_NAME = 20


class CommandError(ValueError):
    """A command that is well-formed JSON but names something that does not exist or is not allowed."""


@dataclass(frozen=True)
class Flagged:
    """A camera reading the rules could not accept, waiting for a person to confirm or fix.

    ``candidates`` are legal events the reading may have meant (best first);
    ``image`` is the camera's JPEG snapshot of that moment, if any.
    """

    id: int
    reason: str
    candidates: tuple[Event, ...]
    image: bytes | None
    created: float


@dataclass(frozen=True)
class CameraStatus:
    """What the camera thread reports: live or offline, speed, stillness, last reading."""

    live: bool = False
    source: str = ""
    message: str = "camera offline"
    fps: float = 0.0
    still: bool | None = None
    last_reading: str | None = None

    def public(self) -> dict[str, Any]:
        """The status as the page shows it (fps rounded)."""
        data = dataclasses.asdict(self)
        data["fps"] = round(self.fps, 1)
        return data


def deck_of(game_name: str) -> DeckKind:
    """The deck a game is played with."""
    return DeckKind.OCTOPLUS if game_name == "octoplus" else DeckKind.OKTRIS


def check_players(game_name: str, players: Sequence[object]) -> tuple[str, ...]:
    """Validated player names for a new game.

    Raises:
        CommandError: unknown game, a wrong number of players, a name that is not
            text, blank, too long or repeated.
    """
    if game_name not in GAMES:
        raise CommandError(f"unknown game {game_name!r}; expected one of {sorted(GAMES)}")
    low, high = PLAYER_LIMITS[game_name]
    if not low <= len(players) <= high:
        raise CommandError(f"{game_name} is for {low} to {high} players, got {len(players)}")
    names: list[str] = []
    for seat, name in enumerate(players, start=1):
        if not isinstance(name, str) or not name.strip():
            raise CommandError(f"player {seat} needs a name")
        if len(name.strip()) > MAX_NAME:
            raise CommandError(f"player {seat}'s name is longer than {MAX_NAME} characters")
        names.append(" ".join(name.split()))
    if len({n.casefold() for n in names}) != len(names):
        raise CommandError(f"player names must differ: {names}")
    return tuple(names)


class GameService:
    """Holds the current game; applies, stores and publishes every change (thread-safe)."""

    def __init__(
        self,
        store: EventStore,
        *,
        default_game: str = "octoplus",
        default_players: int = 4,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """Load the store's current game, or start ``default_game`` for ``default_players``.

        Raises:
            CommandError: the default game or player count is invalid.
        """
        self.store = store
        self._clock = clock
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._version = int(clock() * 1000)
        self._flagged: list[Flagged] = []
        self._next_flag = 1
        self._camera = CameraStatus()
        self._cached: tuple[int, str] | None = None
        self._closed = False
        loaded = self._load_current()
        if loaded is None:
            names = tuple(f"Player {seat}" for seat in range(1, default_players + 1))
            self.new_game(default_game, names, {})
        else:
            self._record, self._game = loaded

    # --- loading -------------------------------------------------------------

    def _load_current(self) -> tuple[GameRecord, Game] | None:
        game_id = self.store.current_game_id()
        if game_id is None:
            return None
        try:
            record = self.store.game(game_id)
            rules = rules_for(record.game, record.options)
            deck = deck_of(record.game)
            events = [event_from_json(body, deck) for body in self.store.events(game_id)]
            game = Game.replay(rules, record.players, events)
        except (StoreError, ScorerError, EventFormatError) as error:
            log.error(
                "cannot restore game %s from %s: %s; starting a new game", game_id, self.store.path, error
            )
            return None
        log.info("restored game %s (%s, %d events)", game_id, record.game, game.seq)
        return record, game

    # --- reading -------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The current game (read it only under :meth:`locked` or accept a racy view)."""
        return self._game

    @property
    def record(self) -> GameRecord:
        """The stored record of the current game."""
        return self._record

    @property
    def version(self) -> int:
        """Grows with every published change."""
        return self._version

    def snapshot_json(self) -> tuple[int, str]:
        """The current version and the snapshot as JSON text (built once per version)."""
        with self._lock:
            if self._cached is None or self._cached[0] != self._version:
                self._cached = (self._version, json.dumps(self._snapshot(), separators=(",", ":")))
            return self._cached

    def snapshot(self) -> dict[str, Any]:
        """The current snapshot as a dict."""
        result: dict[str, Any] = json.loads(self.snapshot_json()[1])
        return result

    def _snapshot(self) -> dict[str, Any]:
        view = snapshot(self._game)
        view["version"] = self._version
        view["game_id"] = self._record.id
        view["options"] = dict(self._record.options)
        view["camera"] = self._camera.public()
        view["flagged"] = [
            {
                "id": f.id,
                "reason": f.reason,
                "image": f.image is not None,
                "candidates": [
                    {"index": i, "words": event_words(e, self._game.players), "event": event_to_json(e)}
                    for i, e in enumerate(f.candidates)
                ],
            }
            for f in self._flagged
        ]
        return view

    def wait(self, after: int, timeout: float) -> tuple[int, str] | None:
        """Block until the version differs from ``after`` (then return the snapshot) or ``timeout``
        (or :meth:`close`): ``None`` when nothing changed."""
        with self._changed:
            changed = self._changed.wait_for(lambda: self._closed or self._version != after, timeout=timeout)
            if not changed or self._closed:
                return None
            return self.snapshot_json()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called: live streams end."""
        return self._closed

    def close(self) -> None:
        """Wake every waiting stream so it ends (the server is stopping)."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def _publish(self) -> None:
        self._version = max(self._version + 1, int(self._clock() * 1000))
        self._changed.notify_all()

    def flagged_image(self, flag_id: int) -> bytes | None:
        """The JPEG snapshot of a flagged reading, or ``None``."""
        with self._lock:
            for flag in self._flagged:
                if flag.id == flag_id:
                    return flag.image
        return None

    @property
    def camera(self) -> CameraStatus:
        """The camera thread's last reported status."""
        return self._camera

    def games(self) -> list[GameRecord]:
        """Recent games in the store, newest first."""
        return self.store.games()

    # --- changing ------------------------------------------------------------

    def parse(self, data: object) -> Event:
        """An event object sent by a person, for the current game.

        Raises:
            EventFormatError: the object is not an event of this game.
        """
        return event_from_json(data, deck_of(self._game.name), source=Source.MANUAL)

    def apply(self, event: Event) -> Event:
        """Apply ``event``, store it and publish; returns the stored event.

        Raises:
            IllegalPlayError: the rules forbid it now (nothing changes).
            StoreError: the store refused the write (the game is reloaded from the store).
        """
        with self._lock:
            stored = self._game.apply(event)
            try:
                self.store.append(self._record.id, stored.seq, event_to_json(stored))
            except (StoreError, OSError) as error:
                loaded = self._load_current()
                if loaded is not None:
                    self._record, self._game = loaded
                raise StoreError(f"event {stored.seq} was not stored: {error}") from error
            self._after_change()
            return stored

    def _after_change(self) -> None:
        sheet = self._game.score_sheet()
        was_finished = self._record.finished is not None
        if sheet.finished != was_finished:
            result = sheet.to_json() if sheet.finished else None
            self.store.set_result(self._record.id, result)
            self._record = self.store.game(self._record.id)
        self._publish()

    def undo(self, target: int | None = None) -> Event:
        """Undo event ``target`` (default: the last effective one).

        Raises:
            IllegalPlayError: nothing to undo, or the target cannot be undone.
        """
        with self._lock:
            if target is None:
                effective = self._game.effective_events()
                if not effective:
                    raise IllegalPlayError("nothing to undo: no play has been recorded in this game")
                target = effective[-1].seq
            return self.apply(Undone(target, source=Source.MANUAL))

    def edit_round(self, round_index: int, points: Sequence[object], reason: str) -> list[Event]:
        """Correct a finished round's scores: one ``Adjust`` per seat whose points differ.

        Raises:
            CommandError: no such round, or ``points`` is not one whole number per player.
            IllegalPlayError: the rules refuse an adjustment (the game is over).
        """
        with self._lock:
            sheet = self._game.score_sheet()
            if not 0 <= round_index < len(sheet.rounds):
                raise CommandError(
                    f"there is no round {round_index + 1}; {len(sheet.rounds)} rounds are scored"
                )
            if len(points) != len(sheet.players) or not all(
                isinstance(p, int) and not isinstance(p, bool) and -999 <= p <= 999 for p in points
            ):
                raise CommandError(f"give one whole number (-999..999) per player, got {list(points)!r}")
            row = sheet.rounds[round_index]
            why = reason.strip() or "corrected"
            applied: list[Event] = []
            for seat, (cell, wanted) in enumerate(zip(row, points, strict=True), start=1):
                assert isinstance(wanted, int)
                if wanted != cell.points:
                    note = f"round {round_index + 1} corrected: {why}"
                    applied.append(self.apply(Adjust(seat, wanted - cell.points, note[:200])))
            return applied

    def new_game(self, game_name: str, players: Sequence[object], options: Mapping[str, object]) -> None:
        """Start a new game (the old one stays in the store) and publish it.

        Raises:
            CommandError: a bad game name, player list or option.
        """
        names = check_players(game_name, players)
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in options.items()):
            raise CommandError("house rule options must be text values")
        try:
            rules = rules_for(game_name, {str(k): str(v) for k, v in options.items()})
            game = Game.new(rules, names)
        except (NotationError, IllegalPlayError) as error:
            raise CommandError(str(error)) from None
        full = rules.options()
        with self._lock:
            game_id = self.store.create_game(game_name, names, full)
            self._record = self.store.game(game_id)
            self._game = game
            self._flagged.clear()
            self._publish()
        log.info("new game %s: %s for %s", game_id, game_name, ", ".join(names))

    def rematch(self) -> None:
        """A new game with the same table: the same game, players and house rules."""
        with self._lock:
            record = self._record
            self.new_game(record.game, record.players, dict(record.options))

    # --- the camera ----------------------------------------------------------

    def propose(
        self,
        event: Event | None,
        *,
        reason: str = "",
        candidates: Sequence[Event] = (),
        image: bytes | None = None,
    ) -> Event | Flagged:
        """A reading from the camera: applied when the rules accept it, else flagged for a person.

        The event is applied with ``Source.SCANNER``.  A flagged reading keeps the
        legal ones of ``candidates`` (and of ``event``) as buttons.
        """
        with self._lock:
            if event is not None:
                scanned = dataclasses.replace(event, source=Source.SCANNER)
                why = self._game.why_illegal(scanned)
                if why is None:
                    return self.apply(scanned)
                reason = reason or why
            legal = tuple(
                dataclasses.replace(c, source=Source.MANUAL)
                for c in ([event] if event is not None else []) + list(candidates)
                if c is not None and self._game.can_apply(c)
            )
            flag = Flagged(self._next_flag, reason or "the camera is not sure", legal, image, self._clock())
            self._next_flag += 1
            self._flagged = [*self._flagged, flag][-MAX_FLAGGED:]
            self._publish()
            return flag

    def propose_if_unchanged(self, event: Event, game_id: int, seq: int) -> Event | Flagged | None:
        """:meth:`propose` ``event`` only if the current game is ``game_id`` with ``seq`` events
        (checked and proposed under one lock); ``None`` when someone changed the game meanwhile."""
        with self._lock:
            if self._record.id != game_id or self._game.seq != seq:
                return None
            return self.propose(event)

    def resolve(self, flag_id: int, choice: int | None) -> Event | None:
        """Settle a flagged reading: apply its candidate number ``choice``, or dismiss it (``None``).

        Raises:
            CommandError: no such flagged reading or candidate.
            IllegalPlayError: the chosen candidate is no longer legal.
        """
        with self._lock:
            flag = next((f for f in self._flagged if f.id == flag_id), None)
            if flag is None:
                raise CommandError(f"no flagged reading {flag_id} (it may have been settled already)")
            applied: Event | None = None
            if choice is not None:
                if not 0 <= choice < len(flag.candidates):
                    raise CommandError(f"flagged reading {flag_id} has no candidate {choice}")
                applied = self.apply(flag.candidates[choice])
            self._flagged = [f for f in self._flagged if f.id != flag_id]
            self._publish()
            return applied

    def set_camera(self, status: CameraStatus) -> None:
        """Record the camera's status; publishes only when something the table shows changed."""
        with self._lock:
            old = self._camera
            self._camera = status
            if (old.live, old.message, old.still, old.last_reading) != (
                status.live,
                status.message,
                status.still,
                status.last_reading,
            ):
                self._publish()
