"""The event store: every game and every event in one SQLite file.

One row per event, written and committed (WAL journal, ``synchronous=FULL``)
before the caller returns, so a request is only answered once its event is on
disk and a killed process restarts into the same game.  Finished games stay in
the store and are listed on the setup page.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    options TEXT NOT NULL,
    created REAL NOT NULL,
    finished REAL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


class StoreError(RuntimeError):
    """The event store cannot be opened or does not hold what it should."""


@dataclass(frozen=True)
class GameRecord:
    """One stored game: its rules by name and options, its players and its state."""

    id: int
    game: str
    players: tuple[str, ...]
    options: Mapping[str, str]
    created: float
    finished: float | None
    result: Mapping[str, Any] | None


class EventStore:
    """A SQLite event store; safe to call from several threads (calls are serialised)."""

    def __init__(self, path: Path, clock: Callable[[], float] = time.time) -> None:
        """Open (and create if needed) the store at ``path``.

        Raises:
            StoreError: the file cannot be opened as a SQLite database.
        """
        self.path = path
        self._clock = clock
        self._lock = threading.Lock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as error:
            raise StoreError(f"cannot open the event store {path}: {error}") from error

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._db.close()

    # --- games ---------------------------------------------------------------

    def create_game(self, game: str, players: tuple[str, ...], options: Mapping[str, str]) -> int:
        """Store a new game and make it the current one; returns its id."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            cursor = self._db.execute(
                "INSERT INTO games (game, players, options, created) VALUES (?, ?, ?, ?)",
                (game, json.dumps(list(players)), json.dumps(dict(options)), self._clock()),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            self._db.execute(
                "INSERT OR REPLACE INTO settings (key, value) VALUES ('current_game', ?)", (str(game_id),)
            )
        return game_id

    def current_game_id(self) -> int | None:
        """The id of the game being played, or ``None`` for a fresh store."""
        value = self.get_setting("current_game")
        return int(value) if value is not None else None

    def game(self, game_id: int) -> GameRecord:
        """The stored game with this id.

        Raises:
            StoreError: no game has this id.
        """
        with self._lock:
            row = self._db.execute(
                "SELECT id, game, players, options, created, finished, result FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
        if row is None:
            raise StoreError(f"no game {game_id} in the event store {self.path}")
        return _record(row)

    def games(self, limit: int = 50) -> list[GameRecord]:
        """The most recent games, newest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, game, players, options, created, finished, result FROM games "
                "ORDER BY id DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [_record(row) for row in rows]

    def set_result(self, game_id: int, result: Mapping[str, Any] | None) -> None:
        """Mark a game finished with its final result (``None`` marks it unfinished again)."""
        with self._lock, self._db:
            self._db.execute(
                "UPDATE games SET finished = ?, result = ? WHERE id = ?",
                (
                    None if result is None else self._clock(),
                    None if result is None else json.dumps(result),
                    game_id,
                ),
            )

    # --- events --------------------------------------------------------------

    def append(self, game_id: int, seq: int, body: Mapping[str, Any]) -> None:
        """Append event number ``seq`` to a game and commit it.

        Raises:
            StoreError: the game already has an event with this number.
        """
        try:
            with self._lock, self._db:
                self._db.execute(
                    "INSERT INTO events (game_id, seq, body, created) VALUES (?, ?, ?, ?)",
                    (game_id, seq, json.dumps(dict(body)), self._clock()),
                )
        except sqlite3.IntegrityError as error:
            raise StoreError(f"game {game_id} already has an event {seq}: {error}") from error

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """Every event of a game as stored, in order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT body FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return [json.loads(row[0]) for row in rows]

    # --- settings ------------------------------------------------------------

    def get_setting(self, key: str) -> str | None:
        """A stored setting, or ``None``."""
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str) -> None:
        """Store a setting."""
        with self._lock, self._db:
            self._db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))


def _record(row: tuple[Any, ...]) -> GameRecord:
    return GameRecord(
        id=int(row[0]),
        game=str(row[1]),
        players=tuple(json.loads(row[2])),
        options=json.loads(row[3]),
        created=float(row[4]),
        finished=None if row[5] is None else float(row[5]),
        result=None if row[6] is None else json.loads(row[6]),
    )
