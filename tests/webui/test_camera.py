"""The camera thread: live status, preview frames, the demo; "camera offline" never fails the table."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from webui_helpers import login, make_app, post, table_of

from scorer.events import Event, Give, Source
from scorer.notation import format_event
from scorer.octoplus import OctoplusState, Phase
from webui.camera import CameraParams, CameraThread
from webui.commands.replay import read_people, replay_folder
from webui.config import ServeConfig
from webui.demo import DEMO_NOTE, play_demo
from webui.service import Flagged, GameService
from webui.store import EventStore

REPLAY_S = 600.0
"""How long a whole recording may take to replay before a test calls it hung: the scanner reads
every frame, which takes minutes when the machine's cores are shared with other work."""


def wait_until(check: Callable[[], bool], timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.05)
    return check()


def demo_ended(service: GameService) -> bool:
    return "the demo recording has ended" in service.camera.message


def write_frames(folder: Path, count: int) -> None:
    folder.mkdir()
    for index in range(count):
        image = np.full((120, 160, 3), 60, np.uint8)
        cv2.rectangle(image, (10 + index, 20), (60 + index, 90), (240, 240, 240), -1)
        cv2.imwrite(str(folder / f"frame_{index:03d}.png"), image)


def test_a_replay_source_makes_the_camera_live_with_preview_frames(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    write_frames(frames, 40)
    app = make_app(tmp_path / "data", camera=True, source=f"replay:{frames}")
    table = table_of(app)
    try:
        assert wait_until(lambda: table.service.camera.live)
        assert table.service.camera.source == f"replay:{frames}"
        assert wait_until(lambda: table.service.camera.fps > 0)
        response = app.test_client().get("/camera/stream.mjpg", buffered=False)
        assert response.status_code == 200
        chunk = next(iter(response.response))
        response.close()
        assert isinstance(chunk, bytes) and chunk.startswith(b"--frame\r\nContent-Type: image/jpeg")
    finally:
        assert table.camera is not None
        table.camera.stop()
        table.service.store.close()


def test_a_missing_source_says_offline_and_manual_entry_still_works(tmp_path: Path) -> None:
    app = make_app(tmp_path / "data", camera=True, source=f"replay:{tmp_path / 'nowhere'}")
    table = table_of(app)
    try:
        assert wait_until(lambda: "does not exist" in table.service.camera.message)
        assert table.service.camera.live is False
        client = login(app.test_client())
        response = post(client, "/api/event", {"type": "turnup", "card": "4"})
        assert response.status_code == 200
        assert response.get_json()["camera"]["message"].startswith("camera offline")
    finally:
        assert table.camera is not None
        table.camera.stop()
        table.service.store.close()


def test_camera_thread_stops_promptly(tmp_path: Path) -> None:
    service = GameService(EventStore(tmp_path / "s.sqlite3"), default_players=2)
    config = ServeConfig(data_dir=tmp_path, source=f"replay:{tmp_path / 'nowhere'}", players=2)
    camera = CameraThread(service, config, params=CameraParams(retry_initial_s=0.05, retry_cap_s=0.1))
    camera.start()
    time.sleep(0.3)
    started = time.monotonic()
    camera.stop(timeout=5.0)
    assert time.monotonic() - started < 5.0
    assert not any(thread.is_alive() for thread in threading.enumerate() if thread.name.startswith("camera"))


def test_a_recordings_end_is_not_overwritten_by_the_status_watch(tmp_path: Path) -> None:
    # The status thread reported "live" just after the pipeline said the recording had ended
    # (its last frame was recent), and from then on "camera offline": the reason was lost.
    service = GameService(EventStore(tmp_path / "s.sqlite3"), default_players=2)
    config = ServeConfig(data_dir=tmp_path, source=f"replay:{tmp_path / 'nowhere'}", players=2)
    camera = CameraThread(service, config)
    camera._last_frame = time.monotonic()  # a frame a moment ago: the pipeline was live
    camera._watch_once()
    assert service.camera.live
    camera._went_offline("the recording has ended")
    for _ in range(2):
        camera._watch_once()
    assert not service.camera.live
    assert service.camera.message == "the recording has ended"
    service.store.close()


def test_a_recordings_gap_is_a_still_table_not_a_lost_camera(tmp_path: Path) -> None:
    # The demo recording holds gaps of a few seconds where the table was still and nothing was
    # recorded; played at its pace, the page said "camera offline" through every one of them.
    frames = tmp_path / "frames"
    write_frames(frames, 3)
    (frames / "timestamps.txt").write_text("0\n0.1\n2.6\n")
    service = GameService(EventStore(tmp_path / "s.sqlite3"), default_players=2)
    config = ServeConfig(data_dir=tmp_path, source=f"replay:{frames}", players=2)
    params = CameraParams(offline_after_s=0.5, status_every_s=0.05)
    camera = CameraThread(service, config, params=params)
    during: list[tuple[bool, str]] = []
    camera.start()
    try:
        assert wait_until(lambda: service.camera.live)
        while service.camera.message != "the recording has ended" and len(during) < 500:
            during.append((service.camera.live, service.camera.message))
            time.sleep(0.02)
        assert not service.camera.live
    finally:
        camera.stop()
    assert len(during) > 50  # the gap was watched (2.5 s)
    assert all(live for live, _ in during), [message for live, message in during if not live][:3]
    service.store.close()


def test_camera_params_are_validated() -> None:
    with pytest.raises(ValueError, match="preview_fps"):
        CameraParams(preview_fps=0)
    with pytest.raises(ValueError, match="jpeg_quality"):
        CameraParams(jpeg_quality=5)
    with pytest.raises(ValueError, match="demo_pace_s"):
        CameraParams(demo_pace_s=0)


def test_the_demo_plays_a_legal_game_as_camera_events(tmp_path: Path) -> None:
    service = GameService(EventStore(tmp_path / "s.sqlite3"), default_game="oktris", default_players=3)
    applied = play_demo(service, threading.Event(), pace_s=0.001, seed=7)
    assert applied == service.game.seq > 0
    assert service.game.finished
    assert all(e.source is Source.SCANNER and e.note == DEMO_NOTE for e in service.game.events)


def test_the_demo_stops_when_a_person_steps_in(tmp_path: Path) -> None:
    service = GameService(EventStore(tmp_path / "s.sqlite3"), default_players=2)
    stop = threading.Event()
    result: list[int] = []
    worker = threading.Thread(target=lambda: result.append(play_demo(service, stop, pace_s=0.05, seed=3)))
    worker.start()
    assert wait_until(lambda: service.game.seq >= 2)
    service.new_game("octoplus", ["Ana", "Ben"], {})
    worker.join(timeout=5.0)
    assert not worker.is_alive()
    assert service.game.seq == 0  # nothing was played into the person's game
    assert result and result[0] >= 2


def test_the_demo_never_plays_into_a_game_with_events(tmp_path: Path) -> None:
    from scorer.cards import OctoCard
    from scorer.events import TurnUp

    service = GameService(EventStore(tmp_path / "s.sqlite3"), default_players=2)
    service.apply(TurnUp(OctoCard.number(3)))
    assert play_demo(service, threading.Event(), pace_s=0.001) == 0
    assert service.game.seq == 1


GAMES = Path(__file__).resolve().parents[1] / "fixtures" / "games"


class PromptTable(GameService):
    """A game service whose players answer "to whom?" at once, as ``octotable replay`` does."""

    def __init__(self, store: EventStore, gives: list[Event]) -> None:
        super().__init__(store, default_players=3)
        self.gives = gives

    def propose(self, event: Event | None, **kwargs: Any) -> Event | Flagged:
        result = super().propose(event, **kwargs)
        state = self.game.state
        first = self.gives[0] if self.gives else None
        if (
            isinstance(state, OctoplusState)
            and state.phase is Phase.GIVE
            and isinstance(first, Give)
            and first.seat == state.awaiting_give
        ):
            self.apply(self.gives.pop(0))
        return result


@pytest.mark.slow
def test_the_camera_thread_scores_a_recording_as_octotable_replay_does(tmp_path: Path) -> None:
    folder = GAMES / "octoplus-3p-round"
    if not folder.is_dir():
        pytest.skip("the recorded game fixture is not present")
    players = ("Player 1", "Player 2", "Player 3")
    calibration = folder / "calibration.toml"
    reference = replay_folder(folder, "octoplus", 3, calibration=str(calibration)).game
    service = PromptTable(EventStore(tmp_path / "s.sqlite3"), read_people(folder, players))
    config = ServeConfig(data_dir=tmp_path, players=3, source=f"replay:{folder}", calibration=calibration)
    # Every frame is read (not at the recorded pace), so a busy machine sees the same frames.
    camera = CameraThread(service, config, params=CameraParams(realtime_replay=False))
    camera.start()
    try:
        assert wait_until(lambda: "the recording has ended" in service.camera.message, timeout=REPLAY_S)
    finally:
        camera.stop()
    assert reference.seq >= 3  # the recording gives the pipeline something to score
    assert [format_event(e) for e in service.game.events] == [format_event(e) for e in reference.events]
    assert [e.source for e in service.game.events] == [e.source for e in reference.events]
    service.store.close()


def test_auto_without_a_camera_plays_the_demo_recording_once_on_a_fresh_table(tmp_path: Path) -> None:
    from scanner.sources import DEFAULT_DEMO_DIR

    if not DEFAULT_DEMO_DIR.is_dir():
        pytest.skip("no built-in demo recording")
    service = GameService(EventStore(tmp_path / "s.sqlite3"), default_players=4)
    config = ServeConfig(data_dir=tmp_path, players=4, source="auto")
    camera = CameraThread(service, config, params=CameraParams(realtime_replay=False, retry_initial_s=0.05))
    camera.start()
    try:
        assert wait_until(lambda: "the demo recording has ended" in service.camera.message, timeout=REPLAY_S)
    finally:
        camera.stop()
    assert len(service.game.players) == 3  # the recording's table
    assert service.game.seq > 0
    assert all(e.source is Source.SCANNER for e in service.game.events)
    service.store.close()


def test_auto_never_plays_the_demo_into_a_game_in_progress(tmp_path: Path) -> None:
    from scorer.cards import OctoCard
    from scorer.events import TurnUp

    service = GameService(EventStore(tmp_path / "s.sqlite3"), default_players=4)
    service.apply(TurnUp(OctoCard.number(3)))
    config = ServeConfig(data_dir=tmp_path, players=4, source="auto")
    camera = CameraThread(service, config, params=CameraParams(realtime_replay=False))
    camera.start()
    try:
        assert wait_until(lambda: "no camera found" in service.camera.message, timeout=30)
        assert "only on a new game" in service.camera.message
        time.sleep(0.5)
    finally:
        camera.stop()
    assert service.game.seq == 1 and len(service.game.players) == 4
    service.store.close()


def test_auto_replays_the_demo_on_a_new_game_when_the_table_holds_only_an_earlier_demo(
    tmp_path: Path,
) -> None:
    from scanner.sources import DEFAULT_DEMO_DIR

    if not DEFAULT_DEMO_DIR.is_dir():
        pytest.skip("no built-in demo recording")
    config = ServeConfig(data_dir=tmp_path, players=4, source="auto")
    params = CameraParams(realtime_replay=False, retry_initial_s=0.05)
    runs: list[tuple[int, int]] = []
    for _start in range(2):  # the server started twice on the same data folder
        service = GameService(EventStore(tmp_path / "s.sqlite3"), default_players=4)
        camera = CameraThread(service, config, params=params)
        camera.start()
        try:
            assert wait_until(partial(demo_ended, service), timeout=REPLAY_S)
        finally:
            camera.stop()
        assert service.game.seq > 0
        assert all(e.note == DEMO_NOTE for e in service.game.events)
        runs.append((service.record.id, service.game.seq))
        service.store.close()
    (first_id, first_seq), (second_id, second_seq) = runs
    assert second_id != first_id  # a new game, the earlier demo kept as it was
    assert second_seq == first_seq


def test_with_confirm_readings_the_camera_flags_every_reading_and_applies_none(tmp_path: Path) -> None:
    from scanner.sources import DEFAULT_DEMO_DIR

    if not DEFAULT_DEMO_DIR.is_dir():
        pytest.skip("no built-in demo recording")
    service = GameService(EventStore(tmp_path / "s.sqlite3"), default_players=3)
    config = ServeConfig(
        data_dir=tmp_path,
        players=3,
        source=f"replay:{DEFAULT_DEMO_DIR}",
        calibration=DEFAULT_DEMO_DIR / "calibration.toml",
        auto_accept=False,
    )
    camera = CameraThread(service, config, params=CameraParams(realtime_replay=False))
    camera.start()
    try:
        assert wait_until(lambda: "the recording has ended" in service.camera.message, timeout=REPLAY_S)
    finally:
        camera.stop()
    assert service.game.seq == 0  # nothing applied by itself
    flagged = service.snapshot()["flagged"]
    reasons = [f["reason"] for f in flagged]
    assert "confirm the camera's reading" in reasons
    # The hands revealed at the end of the demo's round cannot be legal in a game where nothing was
    # applied: the rules flag them, saying why.
    assert all(r == "confirm the camera's reading" or "hands are revealed" in r for r in reasons)
    assert flagged[0]["candidates"]  # what the camera read, offered as a button
    service.store.close()
