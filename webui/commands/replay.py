"""``octotable replay``: run a recorded frame folder through the scanner, watcher, proposals and scorer.

The folder holds frames in name order and an optional ``timestamps.txt`` (one
seconds value per frame, else 10 fps; or per frame its seconds value and the image
it shows, ``scanner.sources.parse_frame_list``).  A ``people.txt`` beside them may hold
what people told the page during the game, one event per line in game-log
notation (e.g. ``give 1 to 3``); each is applied when the game waits for it.
The command prints the events (game-log lines) and the final score sheet; with
``--json`` one object: the JSON of ``octotable score`` plus ``"events"``.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from scanner.observations import Observation, describe
from scanner.sources import ReplaySource, SourceError, list_frames
from scanner.types import Detection, Frame, Image
from scanner.watcher import Detector, Watcher
from scanner.watcher_locate import Reader, reader_of
from scanner.watcher_params import WatcherParams
from scorer.cards import DeckKind
from scorer.errors import NotationError, ScorerError
from scorer.events import Event, Give
from scorer.game import Game, rules_for
from scorer.notation import format_line, parse_event, tokenize
from webui.proposals import Applied, Flagged, GameDesk, GiveAwaited, Outcome, ProposalParams, Proposer

if TYPE_CHECKING:
    from calibration.runtime import ScannerSetup

HELP = "replay a recorded frame folder through the real pipeline and print events and scores"

PEOPLE_FILE = "people.txt"
"""Optional file of a recorded folder: events people entered, in game-log notation."""

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the replay command's arguments to ``parser``."""
    parser.add_argument("folder", metavar="DIR", help="a folder of frames (images in name order)")
    parser.add_argument("--game", choices=("octoplus", "oktris"), required=True, help="which game is played")
    parser.add_argument("--players", type=int, required=True, metavar="N", help="number of players")
    parser.add_argument("--templates", metavar="DIR", help="a template folder (default: built-in)")
    parser.add_argument(
        "--calibration",
        metavar="FILE",
        help="a calibration file: card size, play area, seat zones, templates (as for serve)",
    )
    parser.add_argument("--json", action="store_true", help="print the score sheet and events as JSON")
    parser.add_argument(
        "--truth",
        action="store_true",
        help="take the cards from the folder's frames.json instead of scanning (checks watcher and rules)",
    )


@dataclass
class ReplayRun:
    """Everything a replay produced: the game, and what happened on the way."""

    game: Game
    observations: list[tuple[int, Observation]] = field(default_factory=list)
    """(index of the frame that completed it, observation)"""
    outcomes: list[Outcome] = field(default_factory=list)
    frame_ms: list[float] = field(default_factory=list)
    """per frame: milliseconds the watcher spent (scanning included)"""
    frames: int = 0
    scans: int = 0
    unanswered: list[str] = field(default_factory=list)

    @property
    def flagged(self) -> list[Flagged]:
        return [o for o in self.outcomes if isinstance(o, Flagged)]


def deck_of(game_name: str) -> DeckKind:
    """The deck a game is played with."""
    return DeckKind.OCTOPLUS if game_name == "octoplus" else DeckKind.OKTRIS


def read_people(folder: Path, players: Sequence[str]) -> list[Event]:
    """The events of ``folder/people.txt`` (none if there is no such file).

    Raises:
        NotationError: a line that is not an event, naming the line.
    """
    path = folder / PEOPLE_FILE
    if not path.is_file():
        return []
    events = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            tokens = tokenize(line)
            if tokens:
                events.append(parse_event(tokens, players))
        except NotationError as error:
            raise NotationError(f"{path} line {number}: {error}") from None
    return events


def frame_size(folder: Path) -> tuple[int, int] | None:
    """(width, height) of the first readable frame of a replay folder, if any."""
    import cv2

    try:
        files = list_frames(folder)
    except SourceError:
        return None
    for path in files:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is not None:
            return (int(image.shape[1]), int(image.shape[0]))
    return None


def table_setup(
    folder: Path, deck: DeckKind, players: int, calibration: str | None, templates_dir: str | None
) -> ScannerSetup:
    """The calibrated pieces for replaying ``folder``, as ``serve`` builds them for its camera: the
    file's card size, play area and seat zones rescaled to the folder's frames, and its templates
    (``templates_dir`` wins).  Never raises: a problem is a logged warning and a default."""
    from calibration.runtime import scanner_setup

    return scanner_setup(
        calibration, deck=deck, players=players, templates_dir=templates_dir, frame_size=frame_size(folder)
    )


def scanner_pipeline(deck: DeckKind, setup: ScannerSetup) -> tuple[Detector, Reader]:
    """The real scanner, set up by ``setup``, as the watcher's detector (a bad frame gives no
    detection) and as its reader of the card at given corners."""
    from scanner.scan import Scanner

    scanner = Scanner(deck, setup.templates, setup.params)
    scanner.warm_up()

    def detect(image: Image) -> Sequence[Detection]:
        return scanner.scan_or_empty(image).detections

    return detect, reader_of(scanner)


TRUTH_FILE = "frames.json"
"""Optional file of a rendered folder: per frame, the cards as rendered (see tools/record_games.py)."""


class TruthDetector:
    """Reports the cards a rendered folder's ``frames.json`` says each frame shows, as a perfect scanner
    would: every card at least ``min_visible`` visible, identified when one of its indices is visible.

    Call :meth:`at` with each frame before the watcher sees it.

    Raises (on construction):
        SourceError: the folder has no readable ``frames.json``.
    """

    def __init__(self, folder: Path, min_visible: float = 0.5) -> None:
        path = folder / TRUTH_FILE
        try:
            self.frames = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise SourceError(f"no usable truth in {path}: {error}") from None
        self.deck = DeckKind.OKTRIS
        self.min_visible = min_visible
        self.index = 0

    def at(self, frame: Frame) -> None:
        self.index = frame.index

    def __call__(self, image: Image) -> Sequence[Detection]:
        from scorer.cards import parse_card

        out = []
        for label, corners, top, visible, identifiable in self.frames[self.index]["cards"]:
            if visible < self.min_visible:
                continue
            deck = DeckKind.OKTRIS if label[-1] in "SHDC" else DeckKind.OCTOPLUS
            card = parse_card(label, deck) if identifiable else None
            quad = tuple((float(x), float(y)) for x, y in corners)
            out.append(Detection(card, 1.0 if card is not None else 0.0, quad, bool(top)))  # type: ignore[arg-type]
        return out


def replay_folder(
    folder: Path,
    game_name: str,
    players: int,
    *,
    calibration: str | None = None,
    templates_dir: str | None = None,
    detect: Detector | None = None,
    watcher_params: WatcherParams | None = None,
    proposal_params: ProposalParams | None = None,
    on_frame: Callable[[Frame], None] | None = None,
) -> ReplayRun:
    """Run ``folder`` through the watcher, the proposals and a new game.

    The scanner (unless ``detect`` stands in for it) and the seat zones are set
    up from the ``calibration`` file as ``serve`` sets them up (defaults without
    one); ``on_frame`` is called with each frame before the watcher sees it.

    Raises:
        SourceError: the folder cannot be read as a replay.
        NotationError: a bad ``people.txt`` line, an unknown game.
        ScorerError: the game cannot be played by that many players.
    """
    game = Game.new(rules_for(game_name), players)
    desk = GameDesk(game)
    deck = deck_of(game_name)
    people = deque(read_people(folder, game.players))
    setup = table_setup(folder, deck, players, calibration, templates_dir)
    read_at: Reader | None = None
    if detect is None:
        detect, read_at = scanner_pipeline(deck, setup)
    watcher = Watcher(
        detect,
        deck=deck,
        seats=players,
        params=watcher_params,
        zones=setup.zones,
        read_at=read_at,
        card_size_px=setup.params.find.card_size_px,
    )
    proposer = Proposer(proposal_params)
    run = ReplayRun(game)

    def answer(outcomes: list[Outcome]) -> None:
        for outcome in outcomes:
            run.outcomes.append(outcome)
            if isinstance(outcome, GiveAwaited):
                if people and isinstance(people[0], Give) and people[0].seat == outcome.seat:
                    event = people.popleft()
                    stored = game.apply(event)
                    run.outcomes.append(Applied(stored, ()))
                else:
                    run.unanswered.append(f"seat {outcome.seat} gives a card: nobody said to whom")

    with ReplaySource(folder) as source:
        for frame in source:
            if on_frame is not None:
                on_frame(frame)
            start = time.perf_counter()
            observations = watcher.feed(frame)
            run.frame_ms.append((time.perf_counter() - start) * 1000.0)
            run.frames += 1
            for observation in observations:
                log.debug("frame %d: %s", frame.index, describe(observation))
                run.observations.append((frame.index, observation))
                answer(proposer.handle(observation, desk))
    for observation in watcher.flush():
        run.observations.append((run.frames - 1, observation))
        answer(proposer.handle(observation, desk))
    answer(proposer.end_turn(desk))
    run.scans = watcher.scans
    return run


def run(args: argparse.Namespace) -> int:
    """Replay the folder and print events and the score sheet; 1 for a folder or option that is wrong."""
    from webui.commands.score import render_sheet

    folder = Path(args.folder)
    try:
        truth = TruthDetector(folder) if args.truth else None
        result = replay_folder(
            folder,
            args.game,
            args.players,
            calibration=args.calibration,
            templates_dir=args.templates,
            detect=truth,
            on_frame=truth.at if truth is not None else None,
        )
    except (SourceError, ScorerError, OSError) as error:
        print(f"octotable replay: {error}", file=sys.stderr)
        return 1
    for outcome in result.flagged:
        print(f"octotable replay: flagged: {outcome.reason}", file=sys.stderr)
    for problem in result.unanswered:
        print(f"octotable replay: {problem}", file=sys.stderr)
    lines = [format_line(event) for event in result.game.events]
    sheet = result.game.score_sheet()
    if args.json:
        print(json.dumps({**sheet.to_json(), "events": lines}, ensure_ascii=False))
    else:
        for line in lines:
            print(line)
        print()
        sys.stdout.write(render_sheet(sheet))
    return 0
