"""The learned accept step of covered-card corner names (``scanner.covered_learned``,
``CoveredParams.learned_accept``): the shipped model loads and validates, its re-make command
runs, and it is validated as a parameter."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from benchmarks.scanner_accuracy import _match, score_scene
from scanner.covered_learned import (
    CUES,
    MODEL_PATH,
    READ_CUES,
    SCENE_CUES,
    CornerModel,
    CornerScene,
    load_model,
)
from scanner.params import CoveredParams, ScannerParams
from scanner.scan import Scanner
from scanner.types import Image
from scorer.cards import DeckKind, parse_card
from tests.scanner.fixture_scenes import NO_FRAMES
from tests.scanner.test_identify_heldout import held_out_scene

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_model_loads_and_validates() -> None:
    models = load_model(MODEL_PATH)
    assert set(models) == {"oktris", "octoplus"}
    for model in models.values():
        assert model.cues == CUES
        assert model.weights.shape == model.mean.shape == model.scale.shape == (len(CUES),)
        assert np.isfinite(model.weights).all() and (model.scale > 0).all()
        p = model.probability(model.mean)
        assert 0.0 < p < 1.0


def _model(**changed: object) -> dict[str, object]:
    doc: dict[str, object] = {
        "cues": list(CUES),
        "mean": [0.0] * len(CUES),
        "scale": [1.0] * len(CUES),
        "weights": [0.5] * len(CUES),
        "intercept": 0.0,
    }
    doc.update(changed)
    return doc


@pytest.mark.parametrize(
    "changed",
    [
        {"weights": [0.5] * (len(CUES) - 1)},
        {"weights": [float("nan")] * len(CUES)},
        {"scale": [0.0] * len(CUES)},
        {"cues": list(reversed(CUES))},
        {"intercept": float("inf")},
    ],
)
def test_a_malformed_model_is_refused(changed: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="corner model"):
        CornerModel.from_dict(_model(**changed))


def test_a_model_file_without_both_decks_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "model.json"
    path.write_text(json.dumps({"oktris": _model()}), encoding="utf-8")
    with pytest.raises(ValueError, match="oktris and octoplus"):
        load_model(path)


def test_the_probability_rises_with_a_cue_of_positive_weight() -> None:
    model = CornerModel.from_dict(_model())
    low, high = np.zeros(len(CUES)), np.zeros(len(CUES))
    high[0] = 2.0
    assert model.probability(high) > model.probability(low) == pytest.approx(0.5)


def test_the_learned_cut_off_is_validated() -> None:
    assert CoveredParams(learned_accept=0.9).learned_accept == 0.9
    assert CoveredParams(learned_accept=None).learned_accept is None
    for bad in (0.3, 1.2):
        with pytest.raises(ValueError, match="learned_accept"):
            CoveredParams(learned_accept=bad)
        with pytest.raises(ValueError, match="learned_accept_std"):
            CoveredParams(learned_accept_std=bad)
    assert CoveredParams(learned_except=("4", "-2")).learned_except == ("4", "-2")
    with pytest.raises(ValueError, match="learned_except"):
        CoveredParams(learned_except=("4S",))
    with pytest.raises(ValueError, match="learned_probe"):
        CoveredParams(learned_probe=1)  # type: ignore[arg-type]


def test_the_remake_command_fits_a_model_from_a_few_rendered_scenes(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    import learn_corners  # type: ignore[import-not-found]  # a script folder, imported on demand

    out = tmp_path / "model.json"
    code = learn_corners.main(
        ["--count", "8", "--scenes", str(tmp_path), "--train", "4101", "--check", "--out", str(out)]
    )
    assert code == 0
    models = load_model(out)
    assert set(models) == {"oktris", "octoplus"}
    assert all(np.isfinite(m.weights).all() for m in models.values())
    lines = learn_corners.compare([tmp_path / "learn-4101"], [0.85], probe=False)
    assert len(lines) == 1 and "off " in lines[0] and "on " in lines[0]


# scene 27 of seed 4101 (a study seed of ``tools/learn_corners.py``): an Octoplus pile whose 7 shows
# only its corner label, read with its first card right but under the thresholds
SEED, INDEX, CARD = 4101, 27, "7"
# the blurred read of soft labels (``CoveredParams.octo_blur``), the corner laid on its edges
# (``CoveredParams.edge_reads``) and the second reading at the named cards' size
# (``CoveredParams.named_size``) name this 7 too: off, to show the model
BASE = replace(NO_FRAMES, covered=replace(NO_FRAMES.covered, octo_blur=0.0, edge_reads=0, named_size=0.0))
# the cut-offs studied (``docs/studies/wrong-names.md``); the step is off by default
ON = replace(BASE, covered=replace(BASE.covered, learned_accept=0.9))
STRICT = replace(BASE, covered=replace(BASE.covered, learned_accept=0.95))


def _named(image: Image, doc: dict[str, Any], params: ScannerParams) -> tuple[set[str], list[str]]:
    """The true cards named right in the scene, and its wrong names."""
    deck = DeckKind(doc["deck"])
    detections = Scanner(deck, params=params).scan(image).detections
    match = _match(doc["cards"], detections)
    right = {
        t["card"]
        for k, t in enumerate(doc["cards"])
        if k in match and detections[match[k]].card == parse_card(t["card"], deck)
    }
    _, mistakes = score_scene(doc, detections, deck)
    return right, [m for m in mistakes if " read as " in m or "false card" in m]


def test_a_corner_under_the_thresholds_is_named_by_the_model() -> None:
    off = replace(BASE, covered=replace(BASE.covered, learned_accept=None))
    image, doc = held_out_scene(SEED, INDEX)
    right_off, wrong_off = _named(image, doc, off)
    assert CARD not in right_off, "the case no longer shows the card the thresholds leave unnamed"
    for params in (ON, STRICT):
        right_on, wrong_on = _named(image, doc, params)
        assert CARD in right_on
        assert right_off <= right_on
        assert not set(wrong_on) - set(wrong_off)


def _card(x: float, y: float, short: float = 100.0, aspect: float = 1.4) -> np.ndarray[Any, Any]:
    """An upright card (TL TR BR BL) whose top-left corner is at (``x``, ``y``)."""
    return np.array([[x, y], [x + short, y], [x + short, y + short * aspect], [x, y + short * aspect]], float)


def test_the_scene_cues_of_a_hand_made_case() -> None:
    # a named card to the right, overlapping the card read by a quarter of its width; a found card
    # (not named) lying over the read card's top-left index box; an earlier read of the same card
    # at its other index corner and one of another card at this corner
    read = _card(100.0, 100.0, short=110.0)
    named = _card(185.0, 100.0)
    over = _card(60.0, 60.0, short=80.0)
    scene = CornerScene(named=[named], found=[over, _card(100.0, 101.0, short=110.0)])
    scene.note(np.roll(read, -2, axis=0), "7")
    scene.note(read + 3.0, "8")
    cues = dict(zip(SCENE_CUES, scene.cues(read, "7"), strict=True))
    assert cues["size_ratio"] == pytest.approx(np.log(1.1))
    assert cues["index_under_named"] == 0.0
    # the found card's outline reaches x, y <= 140 and 172: the index box (its top-left tenth or so)
    # lies wholly under it; the found card at the read card's own place is its own outline
    assert cues["index_under_found"] == 1.0
    assert cues["overlap_named"] == pytest.approx(25.0 * 140.0 / (110.0 * 154.0))
    assert cues["near_named"] == pytest.approx(np.hypot(235.0 - 155.0, 170.0 - 177.0) / 110.0)
    assert cues["cluster_cards"] == 3.0
    assert (cues["agree_near"], cues["agree_far"], cues["disagree_near"]) == (1.0, 0.0, 1.0)
    assert scene.cues(read, "9")[SCENE_CUES.index("agree_near")] == 0.0
    assert CUES == READ_CUES + SCENE_CUES


def test_a_scene_without_cards_gives_neutral_cues() -> None:
    cues = dict(zip(SCENE_CUES, CornerScene().cues(_card(0.0, 0.0), "7"), strict=True))
    assert cues["size_ratio"] == 0.0 and cues["near_named"] == 5.0
    assert cues["index_under_named"] == cues["index_under_found"] == cues["overlap_named"] == 0.0
