"""The calibration wizard's pages and JSON steps, through Flask's test client, on recorded frames."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from calibration_fixtures import image, truth
from flask import Flask
from flask.testing import FlaskClient

from calibration.config import load
from calibration.wizard import Wizard
from scanner.types import Image
from webui.app import create_app
from webui.calibration_views import install_wizard
from webui.config import ServeConfig
from webui.context import EXTENSION, Table

PIN = "8642"
TABLE = truth()["tables"][1]


class Camera:
    """A frame provider the test points at any fixture frame."""

    def __init__(self) -> None:
        self.image: Image | None = image(TABLE["image"])

    def __call__(self) -> Image | None:
        return self.image


@pytest.fixture
def camera() -> Camera:
    return Camera()


@pytest.fixture
def app(tmp_path: Path, camera: Camera) -> Iterator[Flask]:
    flask_app = create_app(ServeConfig(data_dir=tmp_path, pin=PIN, camera=False))
    flask_app.testing = True
    install_wizard(flask_app, Wizard(tmp_path / "calibration.toml", camera))
    yield flask_app
    table: Table = flask_app.extensions[EXTENSION]
    table.service.store.close()


def csrf(client: FlaskClient) -> str:
    token = client.get("/api/session").get_json()["csrf"]
    assert isinstance(token, str)
    return token


def post(client: FlaskClient, url: str, body: object = None) -> Any:
    return client.post(url, json=body if body is not None else {}, headers={"X-CSRF-Token": csrf(client)})


@pytest.fixture
def scorer(app: Flask) -> FlaskClient:
    client = app.test_client()
    assert post(client, "/api/login", {"pin": PIN}).status_code == 200
    return client


def test_the_wizard_page_shows_every_step_to_anyone(app: Flask) -> None:
    page = app.test_client().get("/calibrate")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    for step in ("1 · Camera", "2 · Table", "3 · Seats", "4 · Your deck", "Enter the table PIN"):
        assert step in text
    assert "calibration.toml" not in text  # where the file lives is for those with the PIN
    assert app.test_client().get("/calibrate/api/state").get_json()["file"] is None


def test_the_snapshot_is_the_latest_frame_with_its_size(app: Flask, camera: Camera) -> None:
    response = app.test_client().get("/calibrate/snapshot.jpg")
    assert response.status_code == 200 and response.mimetype == "image/jpeg"
    assert (response.headers["X-Frame-Width"], response.headers["X-Frame-Height"]) == ("960", "540")
    camera.image = None
    offline = app.test_client().get("/calibrate/snapshot.jpg")
    assert offline.status_code == 503 and "camera is offline" in offline.get_json()["error"]


def test_changing_the_calibration_needs_the_pin_and_the_csrf_token(app: Flask, scorer: FlaskClient) -> None:
    stranger = app.test_client()
    assert post(stranger, "/calibrate/api/seats", {"players": 3}).status_code == 401
    assert scorer.post("/calibrate/api/seats", json={"players": 3}).status_code == 403


def test_camera_table_and_seats_steps_save_the_file(scorer: FlaskClient, tmp_path: Path) -> None:
    checked = post(scorer, "/calibrate/api/camera").get_json()
    assert checked["ok"] and (checked["width"], checked["height"]) == (960, 540)
    found = post(scorer, "/calibrate/api/table/detect").get_json()
    assert found["card_size_px"] == pytest.approx(TABLE["card_size_px"], rel=0.03)
    saved = post(scorer, "/calibrate/api/table", {"corners": found["corners"]}).get_json()
    assert saved["calibration"]["corners"] == found["corners"]
    view = scorer.get("/calibrate/top-down.jpg")
    assert view.status_code == 200 and view.mimetype == "image/jpeg"
    decoded = cv2.imdecode(np.frombuffer(view.data, np.uint8), cv2.IMREAD_COLOR)
    assert decoded is not None and decoded.shape[1] == min(720, saved["view"][0])
    seats = post(scorer, "/calibrate/api/seats", {"players": 5, "angles": [0, 70, 150, 220, 290]})
    assert seats.status_code == 200
    cal = load(tmp_path / "calibration.toml")
    assert cal.table.card_size_px == pytest.approx(TABLE["card_size_px"], rel=0.03)
    assert cal.seats.angles == (0.0, 70.0, 150.0, 220.0, 290.0)
    state = scorer.get("/calibrate/api/state").get_json()
    assert state["calibration"]["seats"]["players"] == 5
    assert state["file"] == str(tmp_path / "calibration.toml")


def test_a_bad_step_is_refused_with_its_reason_and_changes_nothing(
    scorer: FlaskClient, tmp_path: Path
) -> None:
    assert scorer.get("/calibrate/top-down.jpg").status_code == 409
    answer = post(scorer, "/calibrate/api/seats", {"players": 3, "angles": [0, 200, 100]})
    assert answer.status_code == 409 and "does not follow" in answer.get_json()["error"]
    answer = post(scorer, "/calibrate/api/table", {"corners": [[0, 0], [10, 0]]})
    assert answer.status_code == 409 and "four [x, y] points" in answer.get_json()["error"]
    assert not (tmp_path / "calibration.toml").exists()


def test_a_guided_capture_runs_card_by_card_and_reports(scorer: FlaskClient, camera: Camera) -> None:
    camera.image = image("capture/empty.jpg")
    area = post(scorer, "/calibrate/api/table/detect").get_json()["corners"]
    assert post(scorer, "/calibrate/api/table", {"corners": area, "measure": False}).status_code == 200
    started = post(scorer, "/calibrate/api/capture/start", {"deck": "oktris", "captures": 2}).get_json()
    assert started["card"] == "AS" and started["total"] == 64
    frames = [r["image"] for r in truth()["captures"] if r["card"] == "AS"][:2]
    steps = []
    for name in frames:
        camera.image = image(name)
        steps += [post(scorer, "/calibrate/api/capture/step").get_json()["step"] for _ in range(2)]
    camera.image = image("capture/empty.jpg")
    after = post(scorer, "/calibrate/api/capture/step").get_json()
    assert steps == ["moving", "captured", "moving", "card-done"]
    assert (after["card"], after["done"]) == ("AH", 2)
    assert post(scorer, "/calibrate/api/capture/skip").get_json()["card"] == "AD"
    finished = post(scorer, "/calibrate/api/capture/finish").get_json()
    report = finished["report"]
    assert [c["card"] for c in report["cards"]] == ["AS"]
    assert "AH" in report["missing"] and not finished["running"]


def test_without_a_wizard_given_the_page_reads_the_camera_threads_latest_frame(tmp_path: Path) -> None:
    flask_app = create_app(ServeConfig(data_dir=tmp_path, pin=PIN, camera=False))
    table: Table = flask_app.extensions[EXTENSION]
    client = flask_app.test_client()
    assert client.get("/calibrate/snapshot.jpg").status_code == 503  # no camera thread at all

    class Thread:
        latest_image: Image | None = image(TABLE["image"])

    table.camera = Thread()  # type: ignore[assignment]
    response = client.get("/calibrate/snapshot.jpg")
    assert response.status_code == 200 and response.headers["X-Frame-Width"] == "960"
    assert client.get("/calibrate/api/state").get_json()["calibration"]["width"] == 1280
    table.service.store.close()
