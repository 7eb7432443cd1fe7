"""The simulator: deterministic random legal games that end, with a mix of every kind of turn."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from scorer.events import Give, Play, Reveal, TakeChain, Trick, TurnUp
from scorer.game import Game
from scorer.octoplus import OctoplusRules, OctoplusState
from scorer.oktris import OktrisRules
from scorer.simulate import SimulationError, deal_octoplus, deal_oktris, simulate


def kinds_of_turn(game: Game) -> Counter[str]:
    seen: Counter[str] = Counter()
    for event in game.events:
        if isinstance(event, Play):
            card_kinds = {card.kind for card in event.cards}
            if len(event.cards) > 1:
                seen["multi"] += 1
            for kind in card_kinds:
                seen[kind.value] += 1
        else:
            seen[type(event).__name__] += 1
    return seen


@pytest.mark.parametrize(("rules", "players"), [(OctoplusRules(), 4), (OktrisRules(), 3)])
def test_the_same_seed_plays_the_same_game(rules: OctoplusRules | OktrisRules, players: int) -> None:
    one = simulate(rules, players, random.Random(7))
    two = simulate(rules, players, random.Random(7))
    other = simulate(rules, players, random.Random(8))
    assert one.events == two.events
    assert one.events != other.events


def test_simulated_octoplus_games_mix_every_kind_of_turn() -> None:
    seen: Counter[str] = Counter()
    for seed in range(12):
        seen += kinds_of_turn(simulate(OctoplusRules(), 3, random.Random(seed)))
    for kind in ("multi", "number", "+2", "-2", "P", "Give", "Reveal", "TurnUp"):
        assert seen[kind] > 0, kind


def test_a_player_without_number_cards_takes_the_chain() -> None:
    rules = OctoplusRules.from_options({"deck": "1:6,2:6,+2:30,-2:6,P:6"})
    seen: Counter[str] = Counter()
    for seed in range(5):
        game = simulate(rules, 3, random.Random(seed))
        seen += kinds_of_turn(game)
    assert seen["TakeChain"] > 0


def test_simulated_games_end_and_are_won() -> None:
    for seed in range(5):
        for game in (
            simulate(OctoplusRules(), 2 + seed, random.Random(seed)),
            simulate(OktrisRules(), 2 + seed % 3, random.Random(seed)),
        ):
            assert game.finished
            assert game.score_sheet().winners


def test_octoplus_reveals_are_the_real_hands_and_conserve_the_deck() -> None:
    rules = OctoplusRules(max_rounds=3, end_total=10_000)
    game = simulate(rules, 4, random.Random(3))
    replayed = Game.new(rules, 4)
    for event in game.events:
        replayed.apply(event)
        state = replayed.state
        assert isinstance(state, OctoplusState)
        assert sum(state.hand_sizes) + state.draw_pile + state.discard == rules.deck_size
    assert len(game.score_sheet().rounds) == 3
    assert sum(isinstance(e, Reveal) for e in game.events) >= 3


def test_octoplus_deal_uses_the_whole_deck() -> None:
    rules = OctoplusRules()
    table = deal_octoplus(rules, 5, random.Random(1))
    assert [len(hand) for hand in table.hands] == [8] * 5
    assert table.card_count == rules.deck_size
    every = Counter(card for hand in table.hands for card in hand) + Counter(table.pile)
    assert every == Counter({card: count for card, count in rules.deck})


def test_oktris_deal_gives_distinct_cards_eight_each() -> None:
    hands = deal_oktris(4, random.Random(2))
    dealt = [card for hand in hands for card in hand]
    assert [len(hand) for hand in hands] == [8] * 4
    assert len(set(dealt)) == 32


def test_oktris_simulation_plays_only_tricks() -> None:
    game = simulate(OktrisRules(), 2, random.Random(4))
    assert {type(e) for e in game.events} == {Trick}
    assert all(not isinstance(e, TurnUp | Give | TakeChain) for e in game.events)


@pytest.mark.parametrize(
    "options",
    [
        {"start_special": "apply", "chain_without_number": "draw_chain"},
        {"reshuffle": "false", "hand_size": "12"},
        {"shared_win": "false", "void_eight": "false", "reset_88": "false", "max_rounds": "2"},
        {"deck": "1:4,2:4,3:4,+2:10,-2:4,P:4", "special_points": "0", "start_special": "apply"},
    ],
)
def test_simulated_octoplus_games_end_under_every_house_rule(options: dict[str, str]) -> None:
    rules = OctoplusRules.from_options(options)
    for seed in range(4):
        game = simulate(rules, 3, random.Random(seed))
        assert game.finished and game.score_sheet().winners
        assert Game.replay(rules, game.players, game.events).state == game.state


@pytest.mark.parametrize(
    "options",
    [{"end_check": "end_of_deal", "tie": "shared"}, {"colour_rule": "high_low", "suit_order": "bridge"}],
)
def test_simulated_oktris_games_end_under_every_house_rule(options: dict[str, str]) -> None:
    rules = OktrisRules.from_options(options)
    for seed in range(4):
        game = simulate(rules, 2 + seed % 3, random.Random(seed))
        assert game.finished and game.score_sheet().winners


def test_simulation_can_stop_at_a_number_of_events() -> None:
    game = simulate(OctoplusRules(), 3, random.Random(0), max_events=10)
    assert game.seq == 10 and not game.finished


def test_a_pile_of_only_special_cards_to_turn_up_stops_the_simulation() -> None:
    rules = OctoplusRules.from_options({"deck": "1:4,2:4,3:4,+2:10,-2:4,P:4", "special_points": "0"})
    with pytest.raises(SimulationError, match="only special cards"):
        simulate(rules, 3, random.Random(1))
