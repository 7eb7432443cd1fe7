"""The demo game: a simulated game played into the table at a human pace.

When ``--source auto`` finds no camera and the built-in demo recording
(``webui/data/demo``, played by the camera thread) is missing, a newcomer
still sees a game being scored: ``scorer.simulate`` plays a random legal game
of the table's game and players, and its events are applied one by one, every
``pace_s`` seconds, as if the camera saw them (source ``scanner``, note
``"demo"``).  The demo only starts on a game nobody has played yet, and stops
for good the moment a person changes anything.
"""

from __future__ import annotations

import dataclasses
import logging
import random
import threading

from scorer.events import Source, Undone
from scorer.simulate import simulate
from webui.service import GameService

log = logging.getLogger(__name__)

DEMO_NOTE = "demo"


def play_demo(
    service: GameService, stop: threading.Event, *, pace_s: float = 2.5, seed: int | None = None
) -> int:
    """Play a simulated game into ``service`` until it ends, ``stop`` is set or a person steps in.

    Returns the number of events applied.  Does nothing when the current game
    already has events.
    """
    with_game = service.game
    if with_game.seq:
        return 0
    record_id = service.record.id
    rng = random.Random(seed)
    script = simulate(with_game.rules, len(with_game.players), rng)
    events = [e for e in script.effective_events() if not isinstance(e, Undone)]
    log.info("demo: playing a simulated %s game of %d events", with_game.name, len(events))
    applied = 0
    for event in events:
        if stop.wait(pace_s):
            break
        demo_event = dataclasses.replace(event, seq=0, source=Source.SCANNER, note=DEMO_NOTE)
        if service.propose_if_unchanged(demo_event, record_id, applied) is None:
            log.info("demo: a person took over; the demo stops")
            break
        applied += 1
    return applied
