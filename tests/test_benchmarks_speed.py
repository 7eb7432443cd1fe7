"""``benchmarks.scanner_speed --against REV --scenes DIR``: which frames a folder gives."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.scanner_speed import _scene_list


def test_a_fixture_folder_gives_its_truth_scenes_and_a_photo_folder_every_image_as_oktris(
    tmp_path: Path,
) -> None:
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    scenes = [{"file": "scene_000.jpg", "deck": "octoplus"}, {"file": "scene_001.jpg", "deck": "oktris"}]
    (fixtures / "truth.json").write_text(json.dumps({"scenes": scenes}), encoding="utf-8")
    assert _scene_list(fixtures) == scenes
    photos = tmp_path / "photos"
    photos.mkdir()
    for name in ("b.JPG", "a.png", "c.jpeg"):
        cv2.imwrite(str(photos / name), np.zeros((8, 8, 3), np.uint8))
    (photos / "labels.csv").write_text("file,card\n", encoding="utf-8")
    assert _scene_list(photos) == [{"file": name, "deck": "oktris"} for name in ("a.png", "b.JPG", "c.jpeg")]


def test_a_folder_with_no_truth_and_no_image_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("nothing", encoding="utf-8")
    with pytest.raises(FileNotFoundError, match=r"no truth\.json and no image"):
        _scene_list(tmp_path)
