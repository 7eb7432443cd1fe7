"""The Game facade: append-only log, seq numbers, undo as replay, checks that change nothing."""

from __future__ import annotations

import pytest

from scorer.cards import OctoCard, StdCard
from scorer.errors import IllegalPlayError, LogError, NotationError, OutOfTurnError
from scorer.events import Adjust, Give, Play, Source, Trick, TurnUp, Undone
from scorer.game import Game, game_name_of, rules_for
from scorer.octoplus import OctoplusRules, OctoplusState
from scorer.oktris import OktrisRules, OktrisState


def cards(text: str) -> tuple[OctoCard, ...]:
    return tuple(OctoCard.parse(part) for part in text.split())


def trick(text: str) -> Trick:
    return Trick(tuple(StdCard.parse(part) for part in text.split()))


def octoplus(*names: str) -> Game:
    return Game.new(OctoplusRules(), names or ("Ana", "Ben", "Cleo"))


def snapshot_of(game: Game) -> tuple[object, ...]:
    return (game.state, game.events, game.seq, game.effective_events())


def test_new_game_names_players_or_numbers_them() -> None:
    assert octoplus().players == ("Ana", "Ben", "Cleo")
    assert Game.new(OktrisRules(), 2).players == ("Player 1", "Player 2")
    assert Game.new(OktrisRules(), 2).seq == 0


@pytest.mark.parametrize("names", [("Ana", "ana"), ("Ana", " ")])
def test_player_names_must_be_distinct_and_not_blank(names: tuple[str, ...]) -> None:
    with pytest.raises(NotationError, match="player name"):
        Game.new(OktrisRules(), names)


def test_players_given_as_one_text_are_refused() -> None:
    with pytest.raises(NotationError, match="sequence of names"):
        Game.new(OktrisRules(), "Ana")


def test_a_bad_player_count_is_an_illegal_play() -> None:
    with pytest.raises(IllegalPlayError):
        Game.new(OktrisRules(), 5)


def test_rules_for_builds_either_game_and_keeps_defaults_for_missing_options() -> None:
    assert rules_for("octoplus") == OctoplusRules()
    assert rules_for("oktris", {"target": "50"}) == OktrisRules(target=50)
    assert game_name_of(rules_for("octoplus", {"max_rounds": "3"})) == "octoplus"
    with pytest.raises(NotationError, match="chess"):
        rules_for("chess")
    with pytest.raises(NotationError, match="colour"):
        rules_for("oktris", {"colour": "red"})


def test_apply_numbers_events_from_one_and_keeps_source_and_note() -> None:
    game = octoplus()
    first = game.apply(TurnUp(OctoCard.number(5), seq=99))
    second = game.apply(Play(1, cards("2"), source=Source.SCANNER, note="seen"))
    assert (first.seq, second.seq) == (1, 2)
    assert second == Play(1, cards("2"), seq=2, source=Source.SCANNER, note="seen")
    assert game.events == (first, second)
    assert game.to_move == 2


def test_a_failed_apply_leaves_the_game_unchanged() -> None:
    game = octoplus()
    game.apply(TurnUp(OctoCard.number(5)))
    before = snapshot_of(game)
    with pytest.raises(OutOfTurnError, match="seat 2"):
        game.apply(Play(2, cards("1")))
    with pytest.raises(IllegalPlayError):
        game.apply(Give(1, 2))
    assert snapshot_of(game) == before


def test_verify_can_apply_and_why_illegal_agree_and_change_nothing() -> None:
    game = octoplus()
    game.apply(TurnUp(OctoCard.number(5)))
    before = snapshot_of(game)
    good, bad = Play(1, cards("3")), Play(3, cards("3"))
    game.verify(good)
    assert game.can_apply(good) and game.why_illegal(good) is None
    assert not game.can_apply(bad)
    reason = game.why_illegal(bad)
    assert reason is not None and "seat 1's turn" in reason
    assert snapshot_of(game) == before


def test_undo_removes_the_last_effective_event_from_the_state() -> None:
    game = octoplus()
    game.apply(TurnUp(OctoCard.number(5)))
    after_turn_up = game.state
    game.apply(Play(1, cards("3")))
    undone = game.undo()
    assert undone == Undone(2, seq=3)
    assert game.state == after_turn_up
    assert game.is_undone(2)
    assert [e.seq for e in game.effective_events()] == [1]
    assert game.undo().target == 1  # the next undo skips the already undone event


def test_undoing_an_undo_is_refused_redo_by_applying_again() -> None:
    game = octoplus()
    game.apply(TurnUp(OctoCard.number(5)))
    game.undo()
    before = snapshot_of(game)
    with pytest.raises(IllegalPlayError, match="apply the event again"):
        game.undo(2)
    with pytest.raises(IllegalPlayError, match="already undone"):
        game.undo(1)
    with pytest.raises(IllegalPlayError, match=r"events 1\.\.2"):
        game.undo(7)
    with pytest.raises(IllegalPlayError, match="nothing to undo"):
        game.undo()
    assert snapshot_of(game) == before
    game.apply(TurnUp(OctoCard.number(5)))
    assert game.state.base == 5  # type: ignore[union-attr]


def test_undo_that_would_make_a_later_event_illegal_is_refused() -> None:
    game = octoplus()
    game.apply(TurnUp(OctoCard.number(5)))
    game.apply(Play(1, cards("3")))  # 5 + 3 = 8: seat 1 gives
    game.apply(Give(1, 3))
    before = snapshot_of(game)
    with pytest.raises(IllegalPlayError, match="cannot undo event 2: later event 3"):
        game.undo(2)
    assert snapshot_of(game) == before


def test_undoing_an_adjustment_restores_the_total() -> None:
    game = Game.new(OktrisRules(), ("Ana", "Ben"))
    game.apply(trick("7S 2C"))
    game.apply(Adjust(2, 5, "missed trick"))
    assert game.state.totals == (1, 5)
    assert [a.seq for a in game.score_sheet().adjustments] == [2]
    game.undo()
    assert game.state.totals == (1, 0)
    assert game.score_sheet().adjustments == ()


def test_replay_gives_the_same_state_as_stepwise_apply() -> None:
    game = Game.new(OktrisRules(), ("Ana", "Ben"))
    for text in ("7S 2C", "3H 4D", "8C AS"):
        game.apply(trick(text))
    game.undo(2)
    game.apply(Adjust(1, -1, "table vote"))
    again = Game.replay(game.rules, game.players, game.events)
    assert again.state == game.state
    assert again.events == game.events


def test_replay_names_the_event_that_cannot_be_applied() -> None:
    events = [trick("7S 2C"), trick("7S 3C")]
    with pytest.raises(LogError) as info:
        Game.replay(OktrisRules(), 2, events)
    assert info.value.line == 2
    assert info.value.text == "trick 7S 3C"
    assert "already played" in info.value.reason


def test_replay_refuses_events_out_of_sequence() -> None:
    with pytest.raises(LogError, match="numbered 5 found at position 1"):
        Game.replay(OktrisRules(), 2, [Trick(trick("7S 2C").cards, seq=5)])


def test_score_sheet_names_the_rule_that_changed_a_score() -> None:
    game = Game.new(OktrisRules(), ("Ana", "Ben"))
    for text in ("8C 2C", "3H 4D", "2H 4H", "AS 2S", "5H 6H", "5C 3D", "7C 7D", "8D 6C"):
        game.apply(trick(text))
    sheet = game.score_sheet()
    assert sheet.game == "oktris" and sheet.players == ("Ana", "Ben")
    assert len(sheet.rounds) == 1
    assert sum(cell.points for cell in sheet.rounds[0]) == sum(sheet.totals)
    assert any(cell.rule and cell.rule.startswith("run") for cell in sheet.rounds[0])
    assert sheet.to_json()["players"] == ["Ana", "Ben"]


def test_state_types_follow_the_rules() -> None:
    assert isinstance(octoplus().state, OctoplusState)
    assert isinstance(Game.new(OktrisRules(), 3).state, OktrisState)
    assert Game.new(OktrisRules(), 3).to_move is None
    assert octoplus().to_move == 1
