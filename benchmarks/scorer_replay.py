"""Replay speed of the game log: ``python -m benchmarks.scorer_replay``.

Builds a 10,000-event log per game with the simulator (one long game: the
end-of-game limits raised by house rules, the simulation stopped at 10,000
events) and prints, as the median of several runs: ``Game.replay`` of the
events (and, for comparison, the bare fold of the engine's ``step``),
``parse_log`` of the log text (parse + replay), these three taking turns run by
run, then ``format_log``, one ``undo`` at the end of the log (a full replay) and
``snapshot``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from scorer.events import Undone
from scorer.game import Game, Rules, engine_for
from scorer.notation import format_log, parse_log
from scorer.octoplus import OctoplusRules
from scorer.oktris import OktrisRules
from scorer.simulate import simulate
from scorer.view import snapshot

EVENTS = 10_000
RUNS = 5
SEED = 1


def long_log(rules: Rules, players: int) -> Game:
    """A legal game of exactly ``EVENTS`` events."""
    game = simulate(rules, players, random.Random(SEED), max_events=EVENTS)
    if game.seq < EVENTS:
        raise SystemExit(f"the simulated game has only {game.seq} events; raise its limits")
    return game


def elapsed_ms(action: Callable[[], object]) -> float:
    """The wall time of one call of ``action`` in milliseconds."""
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


def median_ms(action: Callable[[], object], runs: int = RUNS) -> float:
    """The median wall time of ``action`` in milliseconds."""
    return statistics.median(elapsed_ms(action) for _ in range(runs))


def interleaved_ms(actions: Sequence[Callable[[], object]], runs: int = RUNS) -> list[float]:
    """The median wall time of each action, the actions taking turns run by run (fair comparison)."""
    times: list[list[float]] = [[] for _ in actions]
    for _ in range(runs):
        for action, bucket in zip(actions, times, strict=True):
            bucket.append(elapsed_ms(action))
    return [statistics.median(bucket) for bucket in times]


def measure(label: str, game: Game) -> None:
    events, text = game.events, format_log(game)

    def undo_last() -> None:
        copy = Game.replay(game.rules, game.players, events)
        start = time.perf_counter()
        copy.undo()
        undo_times.append((time.perf_counter() - start) * 1000)

    undo_times: list[float] = []
    engine = engine_for(game.rules)

    def fold() -> None:
        state = engine.initial(game.rules, len(game.players))
        undone = {e.target for e in events if isinstance(e, Undone)}
        for event in events:
            if not isinstance(event, Undone) and event.seq not in undone:
                state = engine.step(game.rules, state, event)

    bare, replay, parse = interleaved_ms(
        [fold, lambda: Game.replay(game.rules, game.players, events), lambda: parse_log(text)]
    )
    fmt = median_ms(lambda: format_log(game))
    for _ in range(RUNS):
        undo_last()
    view = median_ms(lambda: snapshot(game), runs=50)
    out = sys.stdout
    out.write(f"{label}: {len(events)} events, log {len(text) / 1024:.0f} KiB, median of {RUNS} runs\n")
    out.write(f"  engine fold   {bare:8.1f} ms   {len(events) / bare * 1000:10,.0f} events/s\n")
    out.write(f"  Game.replay   {replay:8.1f} ms   {len(events) / replay * 1000:10,.0f} events/s\n")
    out.write(f"  parse_log     {parse:8.1f} ms   {len(events) / parse * 1000:10,.0f} events/s\n")
    out.write(f"  format_log    {fmt:8.1f} ms\n")
    out.write(f"  undo (last)   {statistics.median(undo_times):8.1f} ms\n")
    out.write(f"  snapshot      {view:8.3f} ms (median of 50)\n")
    out.write(
        f"  Game.replay / engine fold = {replay / bare:.2f}, parse_log / Game.replay = {parse / replay:.2f}\n"
    )


def main() -> int:
    """Build both logs and print the figures."""
    octoplus = OctoplusRules(max_rounds=10_000, end_total=1_000_000)
    measure("octoplus, 4 players", long_log(octoplus, 4))
    measure("oktris, 4 players", long_log(OktrisRules(target=1_000_000), 4))
    return 0


if __name__ == "__main__":
    sys.exit(main())
