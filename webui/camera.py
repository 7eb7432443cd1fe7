"""The camera thread: source -> scanner -> watcher -> proposals -> the game service.

It is a guest of the game service: through ``webui.proposals.Proposer`` it
only *proposes* events (the service applies what the rules accept and flags
the rest for a person, with the camera's snapshot of that moment), and it reports
its state (live or offline, frames per second, still or moving, last reading).
Anything missing or failing (no camera, no scanner, a broken frame) leaves the
page saying "camera offline" while manual entry keeps working; the thread
retries with a growing pause.  It also keeps the latest preview frame, with the
cards it found drawn on it, as JPEG for the camera page.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorer.cards import Card
from scorer.events import Source
from webui.demo import DEMO_NOTE
from webui.service import CameraStatus, GameService, deck_of

if TYPE_CHECKING:
    from webui.config import ServeConfig

log = logging.getLogger(__name__)

NO_CAMERA = "no camera found (the Pi camera and OpenCV device 0 were tried)"


@dataclass(frozen=True)
class CameraParams:
    """The camera thread's timing and preview settings."""

    preview_fps: float = 5.0
    preview_width: int = 640
    jpeg_quality: int = 70
    offline_after_s: float = 3.0
    status_every_s: float = 1.0
    retry_initial_s: float = 2.0
    retry_cap_s: float = 60.0
    demo_pace_s: float = 2.5
    realtime_replay: bool = True
    """Play ``replay:DIR`` sources at their recorded pace (off: as fast as they are read)."""

    def __post_init__(self) -> None:
        if not 0 < self.preview_fps <= 30:
            raise ValueError(f"preview_fps must be in (0, 30], got {self.preview_fps}")
        if not 64 <= self.preview_width <= 4096:
            raise ValueError(f"preview_width must be 64..4096, got {self.preview_width}")
        if not 10 <= self.jpeg_quality <= 100:
            raise ValueError(f"jpeg_quality must be 10..100, got {self.jpeg_quality}")
        if not 0.01 <= self.demo_pace_s <= 60:
            raise ValueError(f"demo_pace_s must be 0.01..60 seconds, got {self.demo_pace_s}")
        if not 0 < self.retry_initial_s <= self.retry_cap_s:
            raise ValueError("retry_initial_s must be positive and at most retry_cap_s")


class CameraThread:
    """Runs the camera pipeline in a daemon thread and feeds the game service."""

    def __init__(
        self,
        service: GameService,
        config: ServeConfig,
        *,
        params: CameraParams | None = None,
    ) -> None:
        self.service = service
        self.config = config
        self.params = params or CameraParams()
        self._done = threading.Event()
        self._demo_allowed = True
        self._live_message = "live"
        self._stop = threading.Event()
        self._source: Any = None
        self._frame_times: deque[float] = deque(maxlen=60)
        self._last_frame = 0.0
        self._preview: tuple[int, bytes] | None = None
        self.latest_image: Any = None  # the latest raw frame, for the calibration wizard
        self._preview_cond = threading.Condition()
        self._status = CameraStatus(source=config.source)
        self._status_lock = threading.Lock()
        self._offline_reason = "camera offline"
        self._threads: list[threading.Thread] = []

    # --- life ----------------------------------------------------------------

    def start(self) -> None:
        """Start the pipeline and status threads."""
        for target, name in ((self._run, "camera"), (self._watch, "camera-status")):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self, timeout: float = 2.0) -> None:
        """Stop both threads (waits up to ``timeout`` seconds each)."""
        self._stop.set()
        source = self._source
        if source is not None and hasattr(source, "stop"):
            source.stop()
        with self._preview_cond:
            self._preview_cond.notify_all()
        for thread in self._threads:
            thread.join(timeout)

    def signal_done(self) -> None:
        """The players say the turn on the pile is over (the page's button): the camera proposes it now."""
        self._done.set()

    # --- preview ---------------------------------------------------------------

    def frames(self) -> Iterator[bytes]:
        """Preview JPEGs as they come, until the camera stops or goes offline."""
        seen = -1
        while not self._stop.is_set():
            current = self._next_preview(seen)
            if current is None:
                if not self._live():
                    return
                continue
            seen = current[0]
            yield current[1]

    def _next_preview(self, seen: int) -> tuple[int, bytes] | None:
        def fresh() -> bool:
            return self._stop.is_set() or (self._preview is not None and self._preview[0] != seen)

        with self._preview_cond:
            self._preview_cond.wait_for(fresh, timeout=self.params.offline_after_s)
            current = self._preview
        return None if current is None or current[0] == seen else current

    # --- status ---------------------------------------------------------------

    def _live(self) -> bool:
        """A frame came lately, or a recording is waiting for its next frame's time (a still table
        it did not record is no lost camera)."""
        if time.monotonic() - self._last_frame < self.params.offline_after_s:
            return True
        return bool(getattr(self._source, "pausing", False))

    def _fps(self) -> float:
        times = list(self._frame_times)
        if len(times) < 2 or times[-1] <= times[0]:
            return 0.0
        return (len(times) - 1) / (times[-1] - times[0])

    def _report(self, **changes: Any) -> None:
        with self._status_lock:
            self._set_status(**changes)

    def _set_status(self, **changes: Any) -> None:
        """Change the status and tell the service (the caller holds ``_status_lock``)."""
        if changes.get("live") is False:
            if "message" in changes:
                self._offline_reason = str(changes["message"])
            else:
                changes["message"] = self._offline_reason
        if changes.get("live") is True:
            self._offline_reason = "camera offline"
        self._status = CameraStatus(**{**self._status.__dict__, **changes})
        self.service.set_camera(self._status)

    def _watch(self) -> None:
        while not self._stop.wait(self.params.status_every_s):
            self._watch_once()

    def _watch_once(self) -> None:
        # Liveness is judged under the status lock, so that a pipeline that has just stopped
        # (``_went_offline``) is never reported live again after it said why it stopped.
        with self._status_lock:
            if self._live():
                self._set_status(live=True, fps=self._fps(), message=self._live_message)
            else:
                self._set_status(live=False, fps=0.0)  # keeps the reason the pipeline gave

    def _went_offline(self, message: str) -> None:
        """The pipeline stopped (a recording's end, a failure): no longer live, and why."""
        with self._status_lock:
            self._last_frame = -math.inf
            self._set_status(live=False, message=message, fps=0.0, still=None)

    # --- the pipeline -----------------------------------------------------------

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                ended = self._pipeline()
            except Exception as error:  # the camera is a guest: no failure of it stops the table
                failures += 1
                message = f"camera offline: {error}"
                log.warning("%s", message, exc_info=log.isEnabledFor(logging.DEBUG))
            else:
                if self._stop.is_set():
                    return
                # A recording played to its end is not played again (that would score its
                # cards twice); after the demo, ``auto`` keeps looking for a camera.
                message = ended
                if self.config.source != "auto":
                    self._went_offline(message)
                    return
            self._went_offline(message)
            pause = min(self.params.retry_cap_s, self.params.retry_initial_s * 2 ** min(failures, 10))
            if self._stop.wait(pause):
                return

    def _pipeline(self) -> str:
        """Run the source to its end; returns why it ended.  Raises when it cannot run."""
        import cv2

        from calibration.config import file_in
        from calibration.runtime import picamera_settings
        from scanner.sources import DEFAULT_DEMO_DIR, ReplaySource, open_source
        from webui.proposals import ProposalParams, Proposer, describe_outcome

        calibration = self.config.calibration
        picamera = picamera_settings(calibration or file_in(self.config.data_dir))
        source = open_source(self.config.source, realtime=self.params.realtime_replay, picamera=picamera)
        self._source = source
        self._live_message = "live"
        demo = self.config.source == "auto" and isinstance(source, ReplaySource)
        if demo:
            if not DEFAULT_DEMO_DIR.is_dir():
                self._run_demo()
                raise RuntimeError(NO_CAMERA)
            refused = self._start_recorded_demo(DEFAULT_DEMO_DIR)
            if refused:
                raise RuntimeError(f"{NO_CAMERA}; {refused}")
            calibration = calibration or DEFAULT_DEMO_DIR / "calibration.toml"
        watcher: Any = None
        proposer: Any = None
        key: tuple[int, str, int] | None = None
        seen_seq = -1
        next_preview = 0.0
        with source:
            for frame in source:
                if self._stop.is_set():
                    return "camera stopped"
                now = time.monotonic()
                self._last_frame = now
                self._frame_times.append(now)
                self.latest_image = frame.image
                game = self.service.game
                wanted = (self.service.record.id, game.name, len(game.players))
                if wanted != key:
                    if demo and key is not None:
                        return "demo stopped: a new game was started"
                    watcher = self._watcher(game, frame.image, calibration or file_in(self.config.data_dir))
                    proposer = Proposer(
                        ProposalParams(auto_accept=self.config.auto_accept, note=DEMO_NOTE if demo else ""),
                        snapshot=self._snapshot_of(watcher),
                    )
                    key = wanted
                    seen_seq = game.seq
                if game.seq != seen_seq and game.events and game.events[-1].source is Source.MANUAL:
                    if demo:
                        return "demo stopped: a person took over"
                    proposer.clear()  # a person changed the game: the camera's half-seen turn is stale
                observations = watcher.feed(frame)
                if self._done.is_set():
                    self._done.clear()
                    observations = [*observations, watcher.signal_done("page")]
                for observation in observations:
                    self._observe(observation, proposer)
                seen_seq = self.service.game.seq
                if now >= next_preview:
                    next_preview = now + 1.0 / self.params.preview_fps
                    self._store_preview(cv2, frame.image, watcher.cards, frame.index)
                    if self._status.still != watcher.still:
                        self._report(still=bool(watcher.still))
        if proposer is not None and not self._stop.is_set():
            for observation in watcher.flush():  # readings still settling when the frames ended
                self._observe(observation, proposer)
            for outcome in proposer.end_turn(self.service):  # the recording ended mid-turn
                log.info("camera: %s", describe_outcome(outcome))
        return "the demo recording has ended" if demo else "the recording has ended"

    def _watcher(self, game: Any, image: Any, calibration: Path | None) -> Any:
        """The scanner and watcher for ``game``, set up from the calibration as ``octotable replay`` does."""
        from calibration.runtime import scanner_setup
        from scanner.scan import Scanner
        from scanner.watcher import Watcher

        deck = deck_of(game.name)
        height, width = image.shape[:2]
        players = len(game.players)
        setup = scanner_setup(
            calibration,
            deck=deck,
            players=players,
            templates_dir=self.config.templates,
            frame_size=(width, height),
        )
        scanner = Scanner(deck, setup.templates, setup.params)

        def detect(frame: Any) -> Any:
            return scanner.scan_or_empty(frame).detections

        read_at = None
        try:
            from scanner.watcher_locate import reader_of

            read_at = reader_of(scanner)
        except ImportError:
            log.info("the scanner has no reader for pile cards it missed")
        card_size = setup.params.find.card_size_px
        return Watcher(
            detect, deck=deck, seats=players, zones=setup.zones, read_at=read_at, card_size_px=card_size
        )

    def _start_recorded_demo(self, folder: Path) -> str | None:
        """Prepare the table for the built-in recording, once, and only on a game nobody has played
        (or an earlier demo, which then gives way to a new game): its game and number of players
        (from the recording's calibration).  Returns ``None`` when the demo starts, else why not."""
        game = self.service.game
        earlier_demo = bool(game.events) and all(e.note == DEMO_NOTE for e in game.events)
        if not self._demo_allowed:
            return "the demo recording has been played"
        if game.seq and not earlier_demo:
            return "the demo recording plays only on a new game, not over one in progress"
        self._demo_allowed = False
        from calibration.config import CalibrationError, load

        try:
            recorded = load(folder / "calibration.toml")
        except CalibrationError as error:
            log.warning("demo recording unusable: %s", error)
            return f"the demo recording is unusable: {error}"
        game_name = recorded.deck.kind.value
        players = recorded.seats.players
        if earlier_demo or game.name != game_name or len(game.players) != players:
            names = [f"Player {seat}" for seat in range(1, players + 1)]
            self.service.new_game(game_name, names, {})
        self._live_message = "no camera found: playing the demo recording"
        self._report(live=False, message=self._live_message)
        return None

    def _run_demo(self) -> None:
        """No camera and no recorded demo: a simulated game at a human pace, once, on a fresh game."""
        if not self._demo_allowed:
            return
        self._demo_allowed = False
        from webui.demo import play_demo

        self._report(live=False, message="no camera found: playing a simulated demo game")
        play_demo(self.service, self._stop, pace_s=self.params.demo_pace_s)

    def _observe(self, observation: Any, proposer: Any) -> None:
        from scanner.observations import describe
        from webui.proposals import describe_outcome

        self._report(last_reading=describe(observation))
        for outcome in proposer.handle(observation, self.service):
            log.info("camera: %s", describe_outcome(outcome))

    def _snapshot_of(self, watcher: Any) -> Callable[[int], bytes | None]:
        def snapshot(frame_index: int) -> bytes | None:
            return self._jpeg_of(watcher.snapshot(frame_index))

        return snapshot

    def _jpeg_of(self, image: Any) -> bytes | None:
        if image is None:
            return None
        import cv2

        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, self.params.jpeg_quality])
        return bytes(data) if ok else None

    def _store_preview(self, cv2: Any, image: Any, cards: Sequence[Any], index: int) -> None:
        drawn = image.copy()
        for seen in cards:
            corners = [(int(x), int(y)) for x, y in seen.corners]
            colour = (60, 200, 60) if seen.card is not None else (40, 140, 255)
            for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
                cv2.line(drawn, a, b, colour, 3)
            label = _label(seen.card)
            cv2.putText(drawn, label, corners[0], cv2.FONT_HERSHEY_SIMPLEX, 1.2, colour, 3)
        height, width = drawn.shape[:2]
        if width > self.params.preview_width:
            scale = self.params.preview_width / width
            drawn = cv2.resize(drawn, (self.params.preview_width, max(1, int(height * scale))))
        data = self._jpeg_of(drawn)
        if data is None:
            return
        with self._preview_cond:
            self._preview = (index, data)
            self._preview_cond.notify_all()


def _label(card: Card | None) -> str:
    return "?" if card is None else str(card)
