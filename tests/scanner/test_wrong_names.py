"""``benchmarks.wrong_names``: every wrong name with the step of the scan that made it."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from benchmarks.scanner_accuracy import score_scene
from benchmarks.wrong_names import named_in, report
from scanner.scan import Scanner
from scorer.cards import DeckKind
from tests.scanner.test_identify_heldout import held_out_scene


def test_wrong_names_are_counted_as_the_accuracy_benchmark_counts_them_with_their_step(
    tmp_path: Path,
) -> None:
    # 2727/25: a finder's outline over two cards of a hand, a 6 read as 7;
    # 1357/24: a covered AS read as 4S at its corner; 8080/26: covered cards named
    # right from their corners (its 3C, once read as 3S there, is left unnamed)
    scenes = []
    expected = 0
    for seed, index in ((2727, 25), (1357, 24), (8080, 26)):
        image, scene = held_out_scene(seed, index)
        scene["file"] = f"{seed}-{index}.png"  # lossless: the pixels scanned are the ones rendered
        assert cv2.imwrite(str(tmp_path / scene["file"]), image)
        deck = DeckKind(scene["deck"])
        detections = Scanner(deck).scan(np.asarray(image, np.uint8)).detections
        tallies, _ = score_scene(scene, detections, deck)
        expected += sum(t.wrong for t in tallies.values())
        scenes.append(scene)
    (tmp_path / "truth.json").write_text(json.dumps({"scenes": scenes}), encoding="utf-8")

    names = named_in(tmp_path)

    wrong = [n for n in names if not n.right]
    assert len(wrong) == expected
    steps = {(n.scene, str(n.truth), str(n.card)): n.step for n in wrong}
    assert steps == {("2727-25.png", "6", "7"): "found", ("1357-24.png", "AS", "4S"): "covered"}
    assert {n.step for n in names if n.right} >= {"found", "covered"}
    lines = report(tmp_path, names)
    assert lines[0].startswith(f"{tmp_path}: {len(names)} named, 2 wrong")
    assert any("6 read as 7" in line and "found" in line for line in lines)
