"""The table page's weight: everything a phone downloads to show it (HTML, CSS, JS, SVG).

The page is rendered mid-game (a simulated 4-player Octoplus game, a few rounds
in) by the real app; the SSE snapshot and ``/api/state`` are listed too, since
every update sends one.  The server sends these uncompressed; gzip sizes are
shown for comparison.

Run: ``.venv/bin/python -m benchmarks.page_weight``
"""

from __future__ import annotations

import gzip
import logging
import random
import re
import sys
import tempfile
from pathlib import Path

from scorer.events import Undone
from scorer.game import rules_for
from scorer.simulate import simulate
from webui.app import create_app
from webui.config import ServeConfig
from webui.context import EXTENSION, Table

EVENTS = 120
"""Events of the simulated game applied before weighing (a few rounds in)."""


def main() -> int:
    logging.basicConfig(level=logging.WARNING)
    with tempfile.TemporaryDirectory() as data:
        app = create_app(ServeConfig(data_dir=Path(data), pin="1234", camera=False, players=4))
        table: Table = app.extensions[EXTENSION]
        script = simulate(rules_for("octoplus"), 4, random.Random(5))
        for event in [e for e in script.effective_events() if not isinstance(e, Undone)][:EVENTS]:
            table.service.apply(event)
        client = app.test_client()
        html = client.get("/").get_data()
        assets = sorted(set(re.findall(rb'(?:href|src)="(/static/[^"]+)"', html)))
        parts: list[tuple[str, bytes]] = [("/ (HTML, QR code and first snapshot inline)", html)]
        parts += [(path.decode(), client.get(path.decode()).get_data()) for path in assets]
        parts.append(("/chart.svg (fetched by the page)", client.get("/chart.svg").get_data()))
        table.service.store.close()
        rounds = len(table.service.game.score_sheet().rounds)
        snapshot = client.get("/api/state").get_data()
    print(f"table page of a 4-player Octoplus game after {EVENTS} events ({rounds} rounds scored)")
    total = total_gz = 0
    for name, body in parts:
        packed = len(gzip.compress(body, 9))
        total += len(body)
        total_gz += packed
        print(f"  {name:48s} {len(body) / 1024:7.1f} KB   gzip {packed / 1024:6.1f} KB")
    print(f"  {'page total (HTML+CSS+JS+SVG)':48s} {total / 1024:7.1f} KB   gzip {total_gz / 1024:6.1f} KB")
    print(
        f"  {'one live update (/events message, /api/state)':48s} {len(snapshot) / 1024:7.1f} KB   "
        f"gzip {len(gzip.compress(snapshot, 9)) / 1024:6.1f} KB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
