"""The page snapshot: common keys for both games, each game's own under its name, names for seats."""

from __future__ import annotations

import json
import random

from scorer.cards import OctoCard, StdCard
from scorer.events import Adjust, Play, Trick, TurnUp
from scorer.game import Game
from scorer.octoplus import OctoplusRules
from scorer.oktris import OktrisRules
from scorer.simulate import simulate
from scorer.view import jsonable, snapshot, with_names

KEYS = {
    "game", "players", "to_move", "finished", "winners", "low_wins", "totals", "last_play", "standings",
    "sheet", "recent", "seq",
}  # fmt: skip


def octo(text: str) -> tuple[OctoCard, ...]:
    return tuple(OctoCard.parse(part) for part in text.split())


def test_last_play_names_players_instead_of_seats() -> None:
    assert with_names("seat 1: 5 + 3 = 8, gives a card", ("Ana", "Ben")) == "Ana: 5 + 3 = 8, gives a card"
    assert with_names("seat 2 gives a card to seat 1; seat 9", ("Ana", "Ben")) == (
        "Ben gives a card to Ana; seat 9"
    )


def test_octoplus_snapshot_shows_the_chain_running_total_and_draws() -> None:
    game = Game.new(OctoplusRules(), ("Ana", "Ben", "Cleo"))
    game.apply(TurnUp(OctoCard.number(5)))
    game.apply(Play(1, octo("+2")))
    view = snapshot(game)
    assert set(view) == KEYS | {"octoplus"}
    own = view["octoplus"]
    assert (own["phase"], view["to_move"], own["dealer"], own["round"]) == ("play", 2, 1, 1)
    assert (own["base"], own["chain"], own["running"], own["top"]) == (5, 1, 7, "+2")
    assert own["hand_sizes"] == [7, 8, 8]
    assert view["last_play"].startswith("Ana: +2")
    assert own["allowed"]["seat"] == 2 and own["allowed"]["take_chain"] is True
    assert own["allowed"]["pass"] is False
    game.apply(Play(2, octo("4")))  # 5 + 2 + 4 = 11: Ben draws 3
    view = snapshot(game)
    own = view["octoplus"]
    assert own["owed"] == {"seat": 2, "player": "Ben", "cards": 3}
    assert own["running"] == 4 and own["chain"] == 0
    assert view["seq"] == 3


def test_oktris_snapshot_shows_trick_mode_and_streaks() -> None:
    game = Game.new(OktrisRules(), ("Ana", "Ben"))
    game.apply(Trick((StdCard.parse("8C"), StdCard.parse("2C"))))
    game.apply(Trick((StdCard.parse("3D"), StdCard.parse("4H"))))
    game.apply(Adjust(2, 3, "missed a trick"))
    view = snapshot(game)
    assert set(view) == KEYS | {"oktris"}
    own = view["oktris"]
    assert (own["phase"], own["deal"], own["trick"], own["mode"]) == ("trick", 1, 3, "low")
    assert own["run"] == {"seat": 1, "length": 2}
    assert own["last_trick"] == {"cards": ["3♦", "4♥"], "winner": 1, "mode": "low"}
    assert view["totals"] == [4, 3]
    assert view["sheet"]["adjustments"] == [
        {"seq": 3, "seat": 2, "player": "Ben", "points": 3, "reason": "missed a trick"}
    ]
    assert own["allowed"]["cards_needed"] == 2
    assert sorted(own["allowed"]["excluded"]) == ["2C", "3D", "4H", "8C"]


def test_finished_snapshots_are_plain_json_with_winners_and_rule_cells() -> None:
    for rules, players in ((OctoplusRules(), 4), (OktrisRules(), 3)):
        game = simulate(rules, players, random.Random(11))
        view = snapshot(game)
        assert json.loads(json.dumps(view)) == view
        assert view["finished"] is True and view[game.name]["phase"] == "finished"
        assert view["winners"] == [game.players[s - 1] for s in view["sheet"]["winners"]]
        cells = [cell for row in view["sheet"]["rounds"] for cell in row]
        assert cells and all(set(cell) == {"points", "rule"} for cell in cells)


def test_jsonable_turns_values_into_plain_types() -> None:
    assert jsonable((OctoCard.number(3), frozenset({StdCard.parse("AS")}))) == ["3", ["AS"]]
