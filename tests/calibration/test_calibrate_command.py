"""``octotable calibrate check|camera|table|seats|capture`` on recorded frames, for a Pi without a screen."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from calibration_fixtures import FIXTURES, truth

from calibration.config import load
from webui.cli import main

TABLE = truth()["tables"][0]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["calibrate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_check_names_what_is_wrong_with_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.toml"
    path.write_text("version = 1\n[seats]\nplayers = 12\n[camera]\nwidth = -1\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", "--config", str(path))
    assert code == 1
    assert "NOT usable" in out and "seats.players" in out and "camera.width" in out


def test_check_rejects_an_old_version(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.toml"
    path.write_text("version = 0\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", "--config", str(path))
    assert code == 1 and "old format" in out


def test_check_says_a_missing_file_does_not_exist(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--config", str(tmp_path / "none.toml"))
    assert code == 1 and "does not exist" in out


def test_camera_table_and_seats_write_a_file_check_accepts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(tmp_path / "c.toml")
    image = str(FIXTURES / TABLE["image"])
    code, out, _ = run(capsys, "camera", "--config", path, "--image", image)
    assert code == 0 and "good for reading cards" in out
    code, out, _ = run(capsys, "table", "--config", path, "--image", image, "--view", str(tmp_path / "v.png"))
    assert code == 0 and "card size" in out
    assert (tmp_path / "v.png").is_file()
    code, out, _ = run(capsys, "seats", "--config", path, "--players", "6")
    assert code == 0 and "seat 6: 300°" in out
    code, out, _ = run(capsys, "check", "--config", path)
    assert code == 0 and "OK" in out
    cal = load(path)
    assert cal.frame_size == (960, 540)
    assert cal.table.card_size_px == pytest.approx(TABLE["card_size_px"], rel=0.03)
    assert cal.seats.players == 6
    assert cal.table.corners is not None
    centre = (sum(p[0] for p in cal.table.corners) / 4, sum(p[1] for p in cal.table.corners) / 4)
    assert cal.seats.centre == pytest.approx(centre, abs=0.01)


def test_table_takes_corners_given_by_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / "c.toml")
    corners = "100,60 860,60 860,480 100,480"
    image = str(FIXTURES / TABLE["image"])
    code, _, _ = run(capsys, "table", "--config", path, "--image", image, "--corners", corners, "--no-card")
    assert code == 0
    assert load(path).table.corners == ((100, 60), (860, 60), (860, 480), (100, 480))


def test_seats_refuses_angles_out_of_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(
        capsys, "seats", "--config", str(tmp_path / "c.toml"), "--players", "3", "--angles", "0,200,100"
    )
    assert code == 2 and "does not follow" in err


def test_a_corrupt_file_is_not_overwritten(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.toml"
    path.write_text("version = 1\n[seats\n", encoding="utf-8")
    code, _, err = run(capsys, "seats", "--config", str(path), "--players", "4")
    assert code == 2 and "is not valid TOML" in err
    assert path.read_text(encoding="utf-8") == "version = 1\n[seats\n"


def test_a_missing_image_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(
        capsys, "camera", "--config", str(tmp_path / "c.toml"), "--image", str(tmp_path / "x.jpg")
    )
    assert code == 2 and "x.jpg" in err and "does not exist" in err


def test_capture_from_a_replay_folder_learns_and_records_templates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    records = truth()["captures"][:6]  # the first two cards
    number = 0
    for record in records:
        for _ in range(2):
            shutil.copy(FIXTURES / record["image"], frames / f"{number:04d}.jpg")
            number += 1
        if record["image"].endswith("-3.jpg"):
            shutil.copy(FIXTURES / "capture" / "empty.jpg", frames / f"{number:04d}.jpg")
            number += 1
    path = tmp_path / "c.toml"
    run(
        capsys,
        "table",
        "--config",
        str(path),
        "--image",
        str(FIXTURES / "capture" / "empty.jpg"),
        "--no-card",
    )
    code, out, _ = run(
        capsys, "capture", "--config", str(path), "--deck", "oktris", "--source", f"replay:{frames}"
    )
    assert "AS: hold still" in out and "AH: " in out
    assert "the capture ended early: 6 of 96 captures" in out
    assert "AS: confidence" in out
    assert code == 1  # thirty cards have no template yet
    cal = load(path)
    assert cal.deck.templates == (tmp_path / "templates-oktris").resolve()
    assert sorted(p.name for p in cal.deck.templates.glob("A*.png")) == ["AH.png", "AS.png"]  # one per card
