"""The sides never put a card named from a corner over a card named on its whole outline
(``FindParams.top_corner_sides``)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.scan import Scanner
from scorer.cards import DeckKind, parse_card
from webui.commands.replay import table_setup

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def round_q52(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The recorded Octoplus round rendered again at JPEG quality 52, camera noise seed 2 (as
    ``benchmarks.recorded_games`` renders it)."""
    out = tmp_path_factory.mktemp("games")
    command = [sys.executable, str(ROOT / "tools" / "record_games.py"), "--only", "octoplus-3p-round"]
    command += ["--out", str(out), "--demo", str(out / "demo"), "--quality", "52", "--noise-seed", "2"]
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT, timeout=300)
    return out / "octoplus-3p-round"


def test_a_covered_card_named_beside_the_card_just_played_on_it_is_not_put_over_it(round_q52: Path) -> None:
    # frame 49: the 1 just played lies on the pile's 2; read with the covered reader's veto
    # lifted next to a named card (``CoveredParams.veto_near``), the 2 is named from its corner
    # on an outline laid out past it that runs over the 1's print: by the sides alone it lay
    # over the 1, and the 1 was no longer on top
    setup = table_setup(round_q52, DeckKind.OCTOPLUS, 3, str(round_q52 / "calibration.toml"), None)
    near = replace(setup.params, covered=replace(setup.params.covered, veto_near=0.5))
    frame = np.asarray(cv2.imread(str(round_q52 / "frame_0049.jpg")), np.uint8)
    one, two = parse_card("1", DeckKind.OCTOPLUS), parse_card("2", DeckKind.OCTOPLUS)

    def tops(find_corner_sides: bool) -> dict[object, bool]:
        params = replace(near, find=replace(near.find, top_corner_sides=find_corner_sides))
        detections = Scanner(DeckKind.OCTOPLUS, setup.templates, params).scan(frame).detections
        return {d.card: d.top for d in detections if d.card in (one, two)}

    on, off = tops(True), tops(False)
    assert set(on) == set(off) == {one, two}  # both named either way
    assert on[one]
    assert not off[one]
