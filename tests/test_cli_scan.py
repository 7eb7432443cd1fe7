"""``octotable scan``: one JSON line per image, errors per image, exit codes."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from webui.cli import main


def write_scene(path: Path, cards: int) -> Path:
    """A JPEG of ``cards`` plain white cards on green felt."""
    img = np.empty((720, 1280, 3), np.uint8)
    img[:] = (40, 110, 30)
    for i in range(cards):
        cx, cy = 200 + 300 * i, 360
        a = math.radians(20 * i)
        half = np.array([[-70, -98], [70, -98], [70, 98], [-70, 98]], np.float64)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        cv2.fillConvexPoly(img, np.round(half @ rot.T + [cx, cy]).astype(np.int32), (245, 245, 245))
    assert cv2.imwrite(str(path), img)
    return path


def test_json_prints_one_line_per_image_with_cards_corners_and_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = write_scene(tmp_path / "one.jpg", 1)
    three = write_scene(tmp_path / "three.png", 3)
    code = main(["scan", "--deck", "oktris", "--json", str(one), str(three)])
    assert code == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["image"] == str(one) and second["image"] == str(three)
    assert len(first["cards"]) == 1 and len(second["cards"]) == 3
    for record in (first, second):
        assert isinstance(record["ms"], float) and record["ms"] > 0
        for card in record["cards"]:
            assert set(card) == {"card", "confidence", "corners", "top"}
            assert card["card"] is None or isinstance(card["card"], str)
            assert len(card["corners"]) == 4 and all(len(p) == 2 for p in card["corners"])
            assert card["top"] is True
    centre = np.mean(np.array(first["cards"][0]["corners"]), axis=0)
    assert centre == pytest.approx([200, 360], abs=3)


def test_unreadable_image_gives_an_error_line_and_exit_1_but_the_others_are_scanned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write_scene(tmp_path / "good.png", 2)
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a jpeg at all")
    missing = tmp_path / "missing.png"
    code = main(["scan", "--deck", "octoplus", "--json", str(broken), str(missing), str(good)])
    assert code == 1
    captured = capsys.readouterr()
    lines = captured.out.strip().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["image"] == str(good)
    assert f"{broken}: not a readable image" in captured.err
    assert f"{missing}: no such file" in captured.err


def test_text_output_has_a_line_per_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    image = write_scene(tmp_path / "two.png", 2)
    assert main(["scan", "--deck", "oktris", str(image)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith(f"{image}: 2 card(s)")
    assert len(out) == 3 and all("confidence" in line for line in out[1:])


def test_bad_template_folder_is_refused_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image = write_scene(tmp_path / "one.png", 1)
    code = main(["scan", "--deck", "oktris", "--templates", str(tmp_path / "nowhere"), str(image)])
    assert code == 2
    assert "nowhere" in capsys.readouterr().err
