"""The event store: events committed one row each, games kept and listed, WAL on."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from webui.store import EventStore, StoreError


def test_events_are_on_disk_as_soon_as_append_returns(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "s.sqlite3")
    game_id = store.create_game("octoplus", ("Ana", "Ben"), {"hand_size": "8"})
    store.append(game_id, 1, {"type": "turnup", "card": "5"})
    # A second, independent connection sees the committed row at once.
    other = sqlite3.connect(tmp_path / "s.sqlite3")
    rows = other.execute("SELECT seq, body FROM events").fetchall()
    other.close()
    store.close()
    assert rows == [(1, '{"type": "turnup", "card": "5"}')]


def test_store_uses_write_ahead_logging(tmp_path: Path) -> None:
    EventStore(tmp_path / "s.sqlite3").close()
    db = sqlite3.connect(tmp_path / "s.sqlite3")
    mode = db.execute("PRAGMA journal_mode").fetchone()[0]
    db.close()
    assert mode == "wal"


def test_reopened_store_has_the_current_game_and_its_events(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "s.sqlite3")
    first = store.create_game("oktris", ("A", "B"), {})
    second = store.create_game("octoplus", ("C", "D", "E"), {"max_rounds": "3"})
    store.append(second, 1, {"type": "turnup", "card": "2"})
    store.append(second, 2, {"type": "play", "seat": 1, "cards": ["3"]})
    store.close()
    again = EventStore(tmp_path / "s.sqlite3")
    assert again.current_game_id() == second
    assert [e["type"] for e in again.events(second)] == ["turnup", "play"]
    assert again.events(first) == []
    assert again.game(second).players == ("C", "D", "E")
    assert again.game(second).options == {"max_rounds": "3"}
    assert [g.id for g in again.games()] == [second, first]
    again.close()


def test_an_event_number_cannot_be_written_twice(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "s.sqlite3")
    game_id = store.create_game("octoplus", ("A", "B"), {})
    store.append(game_id, 1, {"type": "turnup", "card": "5"})
    with pytest.raises(StoreError, match="already has an event 1"):
        store.append(game_id, 1, {"type": "turnup", "card": "6"})
    assert store.events(game_id) == [{"type": "turnup", "card": "5"}]
    store.close()


def test_finished_games_keep_their_result(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "s.sqlite3", clock=lambda: 1000.0)
    game_id = store.create_game("oktris", ("A", "B"), {})
    store.set_result(game_id, {"winners": ["A"], "totals": [88, 12]})
    record = store.game(game_id)
    assert record.finished == 1000.0
    assert record.result == {"winners": ["A"], "totals": [88, 12]}
    store.set_result(game_id, None)
    assert store.game(game_id).finished is None
    store.close()


def test_unknown_game_and_unreadable_file_raise_store_errors(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "s.sqlite3")
    with pytest.raises(StoreError, match="no game 7"):
        store.game(7)
    store.close()
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="cannot open the event store"):
        EventStore(junk)
