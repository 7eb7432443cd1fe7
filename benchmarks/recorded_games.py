"""How robustly the recorded games replay through the real scanner: each folder re-rendered at
several JPEG qualities and camera-noise seeds.

``.venv/bin/python -m benchmarks.recorded_games [--only NAME ...] [--qualities 52,58,62,66,70]
[--seeds own,1,2] [--out DIR]``

For each folder of ``tests/fixtures/games/`` (or those named with ``--only``) and each quality and
noise seed it renders the folder again with ``tools/record_games.py --quality Q --noise-seed S``
(the same cards, moves and times; ``own`` is the folder's own seed) into ``--out`` (default a
folder under /tmp), replays it as ``octotable replay`` does (the real scanner, the folder's
calibration and ``people.txt``) and prints whether it gave the expected log and score sheet; for a
wrong replay, the events missing and the events extra (in game-log notation); for every replay the
proposals flagged for a person, if any. The last lines count the right replays per folder.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

from recorded_games import GAMES, PLAYED, QUIET, expected, normalised  # noqa: E402

from scorer.events import Event  # noqa: E402
from scorer.notation import format_event  # noqa: E402
from webui.commands.replay import replay_folder  # noqa: E402

QUALITIES = (52, 58, 62, 66, 70)
SEEDS = ("own", "1")


def _render(name: str, quality: int, seed: str, out: Path) -> Path:
    command = [sys.executable, str(ROOT / "tools" / "record_games.py"), "--only", name, "--out", str(out)]
    command += ["--demo", str(out / "demo"), "--quality", str(quality)]
    if seed != "own":
        command += ["--noise-seed", seed]
    subprocess.run(command, check=True, capture_output=True)
    return out / name


def _texts(events: list[Event]) -> list[str]:
    return [format_event(e) for e in normalised(events)]


def _check(name: str, folder: Path) -> tuple[bool, str]:
    game_name, players, events, sheet = expected(name)
    run = replay_folder(folder, game_name, players, calibration=str(folder / "calibration.toml"))
    got, want = _texts(list(run.game.events)), _texts(events)
    if name in QUIET:
        right = not got and not run.flagged
    else:
        right = got == want and run.game.score_sheet().to_json() == sheet
    flagged = [f.reason for f in run.flagged]
    if right:
        return True, "right" + (f" (flagged for a person: {flagged})" if flagged else "")
    missing = [t for t in want if t not in got]
    extra = [t for t in got if t not in want]
    return False, f"WRONG missing {missing} extra {extra} flagged {flagged}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", choices=[*PLAYED, *QUIET], help="folders (default all)")
    parser.add_argument("--qualities", default=",".join(map(str, QUALITIES)), help="JPEG qualities")
    parser.add_argument("--seeds", default=",".join(SEEDS), help="noise seeds; 'own' is the folder's")
    parser.add_argument("--out", type=Path, help="where the renders go (default a new folder in /tmp)")
    args = parser.parse_args(argv)
    qualities = [int(q) for q in args.qualities.split(",")]
    seeds = args.seeds.split(",")
    out = args.out or Path(tempfile.mkdtemp(prefix="recorded-games-"))
    names = args.only or [*PLAYED, *QUIET]
    print(f"renders in {out}; committed folders in {GAMES}")
    tally: dict[str, list[str]] = {}
    for name in names:
        for quality in qualities:
            for seed in seeds:
                folder = _render(name, quality, seed, out / f"q{quality}-s{seed}")
                right, text = _check(name, folder)
                tally.setdefault(name, []).append(f"q{quality}/s{seed}" + ("" if right else " WRONG"))
                print(f"{name:20s} quality {quality:3d} seed {seed:>4s}: {text}", flush=True)
    for name, runs in tally.items():
        good = sum(not r.endswith("WRONG") for r in runs)
        print(f"{name}: {good} of {len(runs)} right ({', '.join(runs)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
