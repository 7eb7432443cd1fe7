"""Properties of the game log over random legal games (Hypothesis).

Replay equals stepwise application, undo restores the previous state exactly,
the notation round-trips, random games end, and Octoplus conserves its cards.
"""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.cards import MINUS2, PASS, PLUS2, DeckKind, OctoCard, StdCard, Suit, parse_card
from scorer.events import Adjust, Event, Source
from scorer.game import Game, Rules
from scorer.notation import format_log, parse_log
from scorer.octoplus import OctoplusRules, OctoplusState
from scorer.oktris import OktrisRules
from scorer.simulate import simulate

SETTINGS = settings(max_examples=25, deadline=None)

games = st.sampled_from(["octoplus", "oktris"])
seeds = st.integers(min_value=0, max_value=2**32)


def rules_and_players(game: str, players: int) -> tuple[Rules, int]:
    if game == "octoplus":
        return OctoplusRules(max_rounds=2), 2 + players % 7
    return OktrisRules(target=40), 2 + players % 3


@st.composite
def simulated(draw: st.DrawFn) -> Game:
    rules, players = rules_and_players(draw(games), draw(st.integers(0, 6)))
    return simulate(rules, players, random.Random(draw(seeds)))


def with_undos(game: Game, rng: random.Random) -> Game:
    """The same game rebuilt with random undo/redo pairs and undone adjustments mixed in."""
    built = Game.new(game.rules, game.players)
    for event in game.events:
        fresh = dataclasses.replace(event, seq=0)
        built.apply(fresh)
        roll = rng.random()
        if roll < 0.15:
            built.undo()
            built.apply(fresh)
        elif roll < 0.25 and not built.finished:
            built.apply(Adjust(rng.randint(1, len(game.players)), rng.randint(-9, 9), "check"))
            built.undo()
    return built


@SETTINGS
@given(simulated(), seeds)
def test_replay_equals_stepwise_application(game: Game, seed: int) -> None:
    built = with_undos(game, random.Random(seed))
    assert Game.replay(built.rules, built.players, built.events).state == built.state
    assert built.state == game.state


@SETTINGS
@given(simulated(), st.data())
def test_undo_restores_the_previous_state_exactly(game: Game, data: st.DataObject) -> None:
    count = data.draw(st.integers(0, len(game.events) - 1))
    built = Game.replay(game.rules, game.players, game.events[:count])
    before = built.state
    built.apply(dataclasses.replace(game.events[count], seq=0))
    built.undo()
    assert built.state == before
    assert built.seq == count + 2


names = st.text(min_size=1, max_size=8).filter(lambda s: s.strip() != "")
texts = st.text(max_size=20)


@SETTINGS
@given(simulated(), st.data())
def test_whole_logs_round_trip_through_the_notation(game: Game, data: st.DataObject) -> None:
    players = data.draw(
        st.lists(names, min_size=len(game.players), max_size=len(game.players), unique_by=str.casefold)
    )
    events: list[Event] = []
    for event in game.events:
        note = data.draw(texts) if data.draw(st.booleans()) else ""
        source = data.draw(st.sampled_from(Source))
        events.append(dataclasses.replace(event, source=source, note=note))
    rebuilt = Game.replay(game.rules, players, events)
    if not rebuilt.finished:
        rebuilt.apply(Adjust(1, data.draw(st.integers(-99, 99)), data.draw(texts)))
    again = parse_log(format_log(rebuilt))
    assert (again.rules, again.players, again.events) == (rebuilt.rules, rebuilt.players, rebuilt.events)
    assert again.state == rebuilt.state


octo_cards = st.one_of(st.builds(OctoCard.number, st.integers(1, 99)), st.sampled_from([PLUS2, MINUS2, PASS]))
std_cards = st.builds(StdCard, st.integers(1, 13), st.sampled_from(Suit))


@settings(max_examples=100, deadline=None)
@given(octo_cards, std_cards)
def test_cards_round_trip_through_their_notation(octo: OctoCard, std: StdCard) -> None:
    assert parse_card(str(octo), DeckKind.OCTOPLUS) == octo
    assert parse_card(str(std), DeckKind.OKTRIS) == std


@SETTINGS
@given(games, st.integers(0, 6), seeds)
def test_random_legal_games_always_end(game_name: str, players: int, seed: int) -> None:
    rules = OctoplusRules() if game_name == "octoplus" else OktrisRules()
    count = 2 + players % (7 if game_name == "octoplus" else 3)
    game = simulate(rules, count, random.Random(seed))
    assert game.finished
    assert game.score_sheet().winners
    assert game.allowed() is not None


@SETTINGS
@given(st.integers(2, 8), seeds)
def test_octoplus_conserves_cards_across_a_whole_game(players: int, seed: int) -> None:
    rules = OctoplusRules(max_rounds=3)
    game = simulate(rules, players, random.Random(seed))
    replayed = Game.new(rules, players)
    for event in game.events:
        replayed.apply(event)
        state = replayed.state
        assert isinstance(state, OctoplusState)
        assert sum(state.hand_sizes) + state.draw_pile + state.discard == rules.deck_size
        assert min(state.hand_sizes) >= 0 and state.draw_pile >= 0
