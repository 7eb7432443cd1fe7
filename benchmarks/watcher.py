"""The watcher's cost per frame and its latency, on the recorded games of ``tests/fixtures/games/``.

``.venv/bin/python -m benchmarks.watcher [--scanner] [--repeat N]``

For each recorded folder it replays the frames through the watcher and the
proposals (as ``octotable replay`` does) and prints:

- the watcher's cost per frame, median and 90th percentile, over every frame
  and separately over the frames it did not scan (the steady state of a still
  or moving table) and the frames it scanned; with the rendered truth as the
  detector the scan itself costs nothing, so these are the watcher's own costs;
  with ``--scanner`` the real scanner runs too;
- the latency of each observation: frames (and milliseconds of recorded time)
  from the frame in which the table settled (the first frame after the last hand
  left, per the folder's ``frames.json``) to the frame whose processing reported
  it, and what that many frames would last at 30 frames a second.

The frames are decoded before timing starts; each figure is the median of
``--repeat`` runs per frame.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import cv2

from scanner.observations import describe
from scanner.sources import TIMESTAMPS_FILE, check_image, list_frames, parse_frame_list
from scanner.types import Frame
from scanner.watcher import Detector, Watcher
from scanner.watcher_locate import Reader
from scorer.game import Game, rules_for
from webui.commands.replay import TruthDetector, deck_of, scanner_pipeline, table_setup
from webui.proposals import GameDesk, Proposer

GAMES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "games"
FOLDERS = {
    "octoplus-3p-round": ("octoplus", 3),
    "oktris-4p-deal": ("oktris", 4),
    "idle-table": ("octoplus", 3),
    "hands-waving": ("octoplus", 3),
    "card-nudged": ("octoplus", 3),
}
CAMERA_FPS = 30.0


def _frames(folder: Path) -> list[Frame]:
    stamps = folder / TIMESTAMPS_FILE
    files, times = parse_frame_list(stamps.read_text(encoding="utf-8"), list_frames(folder), str(stamps))
    frames = []
    for i, (file, stamp) in enumerate(zip(files, times, strict=True)):
        image = check_image(cv2.imread(str(file)))
        if image is None:
            raise SystemExit(f"unreadable frame {file}")
        frames.append(Frame(image, stamp, i))
    return frames


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _run(
    folder: Path, game_name: str, players: int, frames: list[Frame], use_scanner: bool
) -> tuple[list[float], list[bool], list[tuple[int, int, str]]]:
    truth = TruthDetector(folder)
    deck = deck_of(game_name)
    setup = table_setup(folder, deck, players, str(folder / "calibration.toml"), None)
    detect: Detector = truth
    read_at: Reader | None = None
    if use_scanner:
        detect, read_at = scanner_pipeline(deck, setup)
    watcher = Watcher(
        detect,
        deck=deck,
        seats=players,
        zones=setup.zones,
        read_at=read_at,
        card_size_px=setup.params.find.card_size_px,
    )
    desk = GameDesk(Game.new(rules_for(game_name), players))
    proposer = Proposer()
    costs: list[float] = []
    scanned: list[bool] = []
    events: list[tuple[int, int, str]] = []
    for frame in frames:
        truth.at(frame)
        scans = watcher.scans
        start = time.perf_counter()
        observations = watcher.feed(frame)
        costs.append((time.perf_counter() - start) * 1000.0)
        scanned.append(watcher.scans > scans)
        for obs in observations:
            events.append((frame.index, obs.frame_index, describe(obs)))
            proposer.handle(obs, desk)
    for obs in watcher.flush():
        events.append((frames[-1].index, obs.frame_index, describe(obs)))
    return costs, scanned, events


def _settled(truth: list[dict[str, object]], reported: int) -> int:
    """The first frame after the last frame with a hand in view before ``reported``."""
    last_hand = -1
    for i in range(reported):
        if int(truth[i]["hands"]) > 0:  # type: ignore[call-overload]
            last_hand = i
    return last_hand + 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="watcher cost per frame and latency")
    parser.add_argument("--scanner", action="store_true", help="run the real scanner as the detector")
    parser.add_argument("--repeat", type=int, default=3, help="runs per folder (median per frame)")
    args = parser.parse_args(argv)
    mode = "real scanner" if args.scanner else "rendered truth as detector: the watcher's own cost"
    print(f"watcher on the recorded games ({mode}), median of {args.repeat} runs per frame")
    all_costs: list[float] = []
    idle_costs: list[float] = []
    scan_costs: list[float] = []
    latencies: list[tuple[int, float]] = []
    for name, (game_name, players) in FOLDERS.items():
        folder = GAMES / name
        frames = _frames(folder)
        truth = json.loads((folder / "frames.json").read_text())
        runs = [_run(folder, game_name, players, frames, args.scanner) for _ in range(args.repeat)]
        costs = [statistics.median(run[0][i] for run in runs) for i in range(len(frames))]
        scanned, events = runs[0][1], runs[0][2]
        quiet = [c for c, s in zip(costs, scanned, strict=True) if not s]
        busy = [c for c, s in zip(costs, scanned, strict=True) if s]
        all_costs += costs
        idle_costs += quiet
        scan_costs += busy
        print(
            f"  {name}: {len(frames)} frames, {sum(scanned)} scanned; per frame median "
            f"{statistics.median(costs):.2f} ms (p90 {_percentile(costs, 0.9):.2f}); "
            f"not scanning {statistics.median(quiet):.2f} ms"
            + (f", scanning {statistics.median(busy):.2f} ms" if busy else "")
        )
        for reported, _, words in events:
            settled = _settled(truth, reported)
            frames_late = reported - settled
            ms_late = (frames[reported].timestamp - frames[settled].timestamp) * 1000.0
            latencies.append((frames_late, ms_late))
            print(f"    frame {reported}: {words} (settled in frame {settled}: {frames_late} frames later)")
    print(
        f"all frames: median {statistics.median(all_costs):.2f} ms, "
        f"p90 {_percentile(all_costs, 0.9):.2f} ms; "
        f"frames not scanned: median {statistics.median(idle_costs):.2f} ms; "
        f"frames scanned: median {statistics.median(scan_costs):.2f} ms"
    )
    if latencies:
        late_frames = [f for f, _ in latencies]
        median_frames = statistics.median(late_frames)
        print(
            f"latency settle -> event over {len(latencies)} events: median {median_frames:.0f} frames "
            f"(min {min(late_frames)}, max {max(late_frames)}); recorded time median "
            f"{statistics.median(ms for _, ms in latencies):.0f} ms at the recordings' 10 fps; "
            f"at {CAMERA_FPS:.0f} fps {median_frames * 1000.0 / CAMERA_FPS:.0f} ms plus processing"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
