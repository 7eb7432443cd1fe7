"""Cost of the Octoplus rules engine: one ``step`` and the replay of a whole game.

Run: ``.venv/bin/python -m benchmarks.octoplus_engine``.  Plays seeded random
legal 4-player games (default house rules), then times replaying each game's
event list from ``initial`` (the work an undo costs, since the game facade
replays its log) and reports medians.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from scorer.cards import MINUS2, PASS, PLUS2, OctoCard
from scorer.events import Event, Give, Play, Reveal, TakeChain, TurnUp
from scorer.octoplus import OctoplusRules, OctoplusState, allowed, initial, step

GAMES = 40
PLAYERS = 4
REPEATS = 5


def _event(rules: OctoplusRules, state: OctoplusState, rng: random.Random) -> Event:
    options = allowed(rules, state)
    if options.turn_up:
        return TurnUp(rng.choice([card for card, count in rules.deck if count > 0]))
    if options.give_to and options.seat is not None:
        return Give(options.seat, rng.choice(options.give_to))
    if options.reveal_seats:
        seat = options.reveal_seats[0]
        pool = [card for card, count in rules.deck for _ in range(count)]
        return Reveal(seat, tuple(rng.sample(pool, state.hand_sizes[seat - 1])))
    assert options.seat is not None and state.effective_base is not None
    seat, roll = options.seat, rng.random()
    if options.take_chain and roll < 0.15:
        return TakeChain(seat)
    if options.plus2 and roll < 0.25:
        return Play(seat, (PLUS2,))
    if options.pass_ and roll < 0.3:
        return Play(seat, (PASS,))
    room = 8 - state.effective_base
    fitting = [value for value in options.numbers if value <= room]
    if options.minus2 and not fitting:
        return Play(seat, (MINUS2,))
    count = rng.randint(1, min(3, options.max_cards))
    values = [rng.choice(fitting or list(options.numbers)) for _ in range(count)]
    return Play(seat, tuple(OctoCard.number(value) for value in values))


def _game(rules: OctoplusRules, seed: int) -> list[Event]:
    rng = random.Random(seed)
    state, events = initial(rules, PLAYERS), []
    while not state.finished:
        event = _event(rules, state, rng)
        state = step(rules, state, event)
        events.append(event)
    return events


def _replay(rules: OctoplusRules, events: list[Event]) -> OctoplusState:
    state = initial(rules, PLAYERS)
    for event in events:
        state = step(rules, state, event)
    return state


def main() -> int:
    """Print the median cost of one step and of replaying one game."""
    rules = OctoplusRules()
    games = [_game(rules, seed) for seed in range(GAMES)]
    per_game: list[float] = []
    per_step: list[float] = []
    for events in games:
        best = min(_timed(rules, events) for _ in range(REPEATS))
        per_game.append(best * 1e3)
        per_step.append(best * 1e6 / len(events))
    lengths = [len(events) for events in games]
    sys.stdout.write(
        f"octoplus engine, {GAMES} random {PLAYERS}-player games, median {statistics.median(lengths):.0f} "
        f"events per game\n"
        f"  step:        median {statistics.median(per_step):.1f} us per event\n"
        f"  game replay: median {statistics.median(per_game):.2f} ms per game (max {max(per_game):.2f} ms)\n"
    )
    return 0


def _timed(rules: OctoplusRules, events: list[Event]) -> float:
    start = time.perf_counter()
    _replay(rules, events)
    return time.perf_counter() - start


if __name__ == "__main__":
    sys.exit(main())
