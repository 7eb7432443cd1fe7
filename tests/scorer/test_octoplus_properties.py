"""Properties of the Octoplus engine over random legal games (a seeded random driver).

The driver asks ``allowed()`` what may happen and picks an event at random
(hands are hidden, so any card of the deck is a legal play).  Most turns try
to stay at or under 8, as players do; the rest are random plays that may
overshoot, so draws, reshuffles, gives and chains all occur.
"""

from __future__ import annotations

import random

import pytest

from scorer.cards import MINUS2, PASS, PLUS2, OctoCard
from scorer.events import Event, Give, Play, Reveal, TakeChain, TurnUp
from scorer.octoplus import (
    ChainWithoutNumber,
    OctoplusRules,
    OctoplusState,
    Phase,
    StartSpecial,
    allowed,
    initial,
    step,
)

ROUND_EVENT_LIMIT = 3000


def random_play(rules: OctoplusRules, state: OctoplusState, rng: random.Random) -> Event:
    options = allowed(rules, state)
    assert options.seat is not None
    seat, room = options.seat, options.max_cards
    base = state.effective_base
    assert base is not None
    roll = rng.random()
    if options.take_chain and roll < 0.15:
        return TakeChain(seat)
    if options.plus2 and roll < 0.25:
        return Play(seat, (PLUS2,))
    if options.pass_ and roll < 0.32:
        return Play(seat, (PASS,))
    if roll < 0.45:
        count = rng.randint(1, min(3, room))
        return Play(seat, tuple(OctoCard.number(rng.choice(options.numbers)) for _ in range(count)))
    chosen: list[OctoCard] = []
    total = base
    if options.minus2 and total >= 7 and room > 1:
        chosen.append(MINUS2)
        total -= 2
    while len(chosen) < room:
        fitting = [value for value in options.numbers if total + value <= 8]
        if not fitting or (chosen and rng.random() < 0.4):
            break
        value = rng.choice(fitting)
        chosen.append(OctoCard.number(value))
        total += value
    if not any(not card.is_special for card in chosen):
        chosen.append(OctoCard.number(min(options.numbers)))
    return Play(seat, tuple(chosen[:room]))


def random_event(rules: OctoplusRules, state: OctoplusState, rng: random.Random) -> Event:
    options = allowed(rules, state)
    if options.turn_up:
        faces = [card for card, count in rules.deck if count > 0]
        return TurnUp(rng.choice(faces))
    if options.give_to:
        assert options.seat is not None
        return Give(options.seat, rng.choice(options.give_to))
    if options.reveal_seats:
        seat = rng.choice(options.reveal_seats)
        pool = [card for card, count in rules.deck for _ in range(count)]
        return Reveal(seat, tuple(rng.sample(pool, state.hand_sizes[seat - 1])))
    return random_play(rules, state, rng)


def play_game(rules: OctoplusRules, players: int, seed: int) -> list[OctoplusState]:
    """Every state of one random legal game, checking invariants as it goes."""
    rng = random.Random(seed)
    state = initial(rules, players)
    states = [state]
    since_round = 0
    while not state.finished:
        round_no = state.round_no
        state = step(rules, state, random_event(rules, state, rng))
        states.append(state)
        since_round = 0 if state.round_no != round_no else since_round + 1
        assert since_round < ROUND_EVENT_LIMIT, f"round {round_no} did not end (seed {seed})"
    return states


CONFIGS = [
    OctoplusRules(),
    OctoplusRules(reshuffle=False, start_special=StartSpecial.APPLY),
    OctoplusRules(chain_without_number=ChainWithoutNumber.DRAW_CHAIN, hand_size=5, shared_win=False),
]


@pytest.mark.parametrize("config", range(len(CONFIGS)))
@pytest.mark.parametrize("seed", range(6))
def test_cards_are_conserved_in_every_state_of_random_legal_games(config: int, seed: int) -> None:
    rules = CONFIGS[config]
    players = 2 + (seed + config) % 7
    for state in play_game(rules, players, seed * 31 + config):
        assert sum(state.hand_sizes) + state.draw_pile + state.discard == rules.deck_size
        assert min(state.hand_sizes) >= 0 and state.draw_pile >= 0 and state.discard >= 0
        assert (state.to_move is None) == (state.phase in (Phase.REVEAL, Phase.FINISHED))


@pytest.mark.parametrize("seed", range(6))
def test_random_legal_games_end_with_the_lowest_totals_winning(seed: int) -> None:
    rules = CONFIGS[seed % len(CONFIGS)]
    final = play_game(rules, 2 + seed % 7, 1000 + seed)[-1]
    assert final.finished and final.phase is Phase.FINISHED
    assert len(final.rounds) == final.round_no <= rules.max_rounds
    assert final.round_no == rules.max_rounds or max(final.totals) >= rules.end_total
    assert final.winners
    assert all(final.totals[seat - 1] == min(final.totals) for seat in final.winners)


def test_the_driver_exercises_every_kind_of_turn() -> None:
    seen: set[str] = set()
    for seed in range(4):
        for state in play_game(OctoplusRules(), 4, seed):
            for marker in ("gives a card to", "takes the chain", "+2 (chain", "Pass", "draws", "reveals"):
                if marker in state.last_play:
                    seen.add(marker)
    assert seen == {"gives a card to", "takes the chain", "+2 (chain", "Pass", "draws", "reveals"}
