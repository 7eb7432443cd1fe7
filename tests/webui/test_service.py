"""The game service: the single writer applies, stores, restores, flags and publishes."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from scorer.cards import OctoCard, StdCard
from scorer.errors import IllegalPlayError, OutOfTurnError
from scorer.events import Play, Source, Trick, TurnUp
from webui.service import CameraStatus, CommandError, Flagged, GameService
from webui.store import EventStore


def n(value: int) -> OctoCard:
    return OctoCard.number(value)


@pytest.fixture
def service(tmp_path: Path) -> GameService:
    svc = GameService(EventStore(tmp_path / "s.sqlite3"), default_players=2)
    svc.new_game("octoplus", ["Ana", "Ben"], {"hand_size": "2"})
    return svc


def test_a_fresh_store_starts_the_default_game(tmp_path: Path) -> None:
    svc = GameService(EventStore(tmp_path / "s.sqlite3"), default_game="oktris", default_players=3)
    assert svc.game.name == "oktris"
    assert svc.game.players == ("Player 1", "Player 2", "Player 3")


def test_applied_events_are_stored_and_a_new_service_restores_them(
    service: GameService, tmp_path: Path
) -> None:
    service.apply(TurnUp(n(5)))
    service.apply(Play(1, (n(2),)))
    restored = GameService(EventStore(tmp_path / "s.sqlite3"))
    assert restored.game.players == ("Ana", "Ben")
    assert restored.game.events == service.game.events
    assert restored.game.state == service.game.state


def test_an_illegal_play_changes_nothing_and_names_the_reason(service: GameService) -> None:
    service.apply(TurnUp(n(5)))
    version = service.version
    with pytest.raises(OutOfTurnError, match="seat 1's turn"):
        service.apply(Play(2, (n(2),)))
    assert service.version == version
    assert service.game.seq == 1
    assert len(service.store.events(service.record.id)) == 1


def test_undo_appends_an_undone_event_and_restores_the_state(service: GameService) -> None:
    service.apply(TurnUp(n(5)))
    before = service.game.state
    service.apply(Play(1, (n(2),)))
    service.undo()
    assert service.game.state == before
    assert [e["type"] for e in service.store.events(service.record.id)] == ["turnup", "play", "undone"]


def test_undo_with_nothing_played_is_refused(service: GameService) -> None:
    with pytest.raises(IllegalPlayError, match="nothing to undo"):
        service.undo()


def _finish_round(service: GameService) -> None:
    service.apply(TurnUp(n(1)))
    service.apply(Play(1, (n(1),)))
    service.apply(Play(2, (n(2),)))
    service.apply(Play(1, (n(3),)))  # Ana's hand is empty: the round ends


def test_edit_round_appends_one_adjustment_per_changed_seat(service: GameService) -> None:
    from scorer.events import Reveal

    _finish_round(service)
    service.apply(Reveal(2, (n(5),)))
    assert [c.points for c in service.game.score_sheet().rounds[0]] == [0, 5]
    service.edit_round(0, [0, 3], "Ben's card was a 3")
    sheet = service.game.score_sheet()
    assert sheet.totals == (0, 3)
    assert [(a.seat, a.points) for a in sheet.adjustments] == [(2, -2)]
    assert "Ben's card was a 3" in sheet.adjustments[0].reason


def test_edit_round_refuses_a_missing_round_or_bad_points(service: GameService) -> None:
    with pytest.raises(CommandError, match="no round 1"):
        service.edit_round(0, [0, 0], "")
    from scorer.events import Reveal

    _finish_round(service)
    service.apply(Reveal(2, (n(5),)))
    with pytest.raises(CommandError, match="one whole number"):
        service.edit_round(0, [0], "")
    with pytest.raises(CommandError, match="one whole number"):
        service.edit_round(0, [0, "3"], "")


@pytest.mark.parametrize(
    ("game", "players", "words"),
    [
        ("chess", ["A", "B"], "unknown game"),
        ("oktris", ["A", "B", "C", "D", "E"], "2 to 4 players"),
        ("octoplus", ["A"], "2 to 8 players"),
        ("octoplus", ["A", "a"], "must differ"),
        ("octoplus", ["A", "  "], "player 2 needs a name"),
        ("octoplus", ["A", 7], "player 2 needs a name"),
        ("octoplus", ["A", "B" * 21], "longer than 20"),
    ],
)
def test_new_game_validates_game_and_players(
    service: GameService, game: str, players: list[object], words: str
) -> None:
    with pytest.raises(CommandError, match=words):
        service.new_game(game, players, {})


def test_new_game_refuses_a_bad_house_rule(service: GameService) -> None:
    with pytest.raises(CommandError, match="colour_rule"):
        service.new_game("oktris", ["A", "B"], {"colour_rule": "purple"})


def test_rematch_keeps_players_and_house_rules_and_lists_both_games(service: GameService) -> None:
    old = service.record.id
    service.apply(TurnUp(n(5)))
    service.rematch()
    assert service.record.id != old
    assert service.game.players == ("Ana", "Ben")
    assert service.record.options["hand_size"] == "2"
    assert service.game.seq == 0
    assert {g.id for g in service.games()} >= {old, service.record.id}


def test_a_legal_camera_reading_is_applied_as_scanner_event(service: GameService) -> None:
    stored = service.propose(TurnUp(n(4)))
    assert isinstance(stored, TurnUp) and stored.source is Source.SCANNER
    assert service.game.seq == 1


def test_an_illegal_camera_reading_is_flagged_with_its_legal_candidates(service: GameService) -> None:
    service.apply(TurnUp(n(4)))
    flag = service.propose(
        Play(2, (n(3),)), candidates=[Play(1, (n(3),)), Play(1, (n(9),))], image=b"\xff\xd8jpeg"
    )
    assert isinstance(flag, Flagged)
    assert "seat 1's turn" in flag.reason
    assert flag.candidates == (Play(1, (n(3),)),)  # the illegal ones are dropped
    assert service.game.seq == 1
    assert service.snapshot()["flagged"][0]["candidates"][0]["words"] == "Ana plays 3"
    assert service.flagged_image(flag.id) == b"\xff\xd8jpeg"
    applied = service.resolve(flag.id, 0)
    assert applied is not None and applied.source is Source.MANUAL
    assert service.game.seq == 2
    assert service.snapshot()["flagged"] == []


def test_a_dismissed_flag_changes_no_score(service: GameService) -> None:
    flag = service.propose(None, reason="card not identified")
    assert isinstance(flag, Flagged)
    assert service.resolve(flag.id, None) is None
    assert service.game.seq == 0
    with pytest.raises(CommandError, match="no flagged reading"):
        service.resolve(flag.id, None)


def test_only_a_visible_camera_change_publishes(service: GameService) -> None:
    v0 = service.version
    service.set_camera(CameraStatus(live=True, message="live", fps=9.5))
    v1 = service.version
    service.set_camera(CameraStatus(live=True, message="live", fps=10.2))
    assert v1 > v0
    assert service.version == v1
    assert service.camera.fps == 10.2


def test_wait_returns_the_new_snapshot_when_another_thread_applies(service: GameService) -> None:
    version = service.version
    timer = threading.Timer(0.05, lambda: service.apply(TurnUp(n(6))))
    timer.start()
    got = service.wait(version, timeout=5.0)
    timer.join()
    assert got is not None
    new_version, text = got
    assert new_version > version
    assert '"running":6' in text


def test_wait_times_out_with_none_when_nothing_changes(service: GameService) -> None:
    assert service.wait(service.version, timeout=0.05) is None


def test_oktris_tricks_are_applied_and_shown(tmp_path: Path) -> None:
    svc = GameService(EventStore(tmp_path / "s.sqlite3"), default_game="oktris", default_players=2)
    svc.apply(Trick((StdCard.parse("4H"), StdCard.parse("6D"))))
    view = svc.snapshot()
    assert view["oktris"]["last_trick"] == {"cards": ["4♥", "6♦"], "winner": 2, "mode": "high"}
    assert view["oktris"]["mode"] == "low"  # both red: the next trick is won by the weakest card
    assert view["totals"] == [0, 1]
