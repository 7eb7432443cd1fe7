"""A dim pile's top card read on the best outline of each card size near its own
(``Scanner._refit_read``, ``FindParams.top_refit_read_agree``).

On a dim pile the outline found for the top card is its print frame or takes in the cards under
it (held-out 8484/19: an Octoplus 3 on a pile of eight on wood, its outline 0.19 of a short side
off and 10% small; no card of the frame is named, so the card size is not known). The fit whose
four sides show best lands on print or on the cards under it at every size, so the refits name
nothing; read size by size, the outlines of the sizes near the card's own read 3 (0.94 at 0.02
off), the others nothing.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from benchmarks.scanner_accuracy import score_scene
from scanner.find_geometry import side_lengths
from scanner.find_top import refits_by_size
from scanner.find_work import make_work
from scanner.params import FindParams, ScannerParams
from scanner.scan import Scanner
from scorer.cards import DeckKind
from tests.scanner.fixture_scenes import NO_FRAMES
from tests.scanner.test_identify_heldout import held_out_scene

BASE = NO_FRAMES
OFF = replace(BASE, find=replace(BASE.find, top_refit_read_agree=0))
# the steps read at 2 sizes agreeing (3 by default: at 2 a real webcam photo's 7S is named 7C);
# these rendered cases show what each step mends at 2
BASE = replace(BASE, find=replace(BASE.find, top_refit_read_agree=2))
ON = BASE


def _pile_mistakes(seed: int, index: int, params: ScannerParams) -> list[str]:
    """The wrong names and wrong tops of held-out scene ``seed``-``index`` scanned with ``params``."""
    image, scene = held_out_scene(seed, index)
    deck = DeckKind(scene["deck"])
    _, mistakes = score_scene(scene, Scanner(deck, params=params).scan(image).detections, deck)
    return [m for m in mistakes if "top card" in m or " read as " in m or "false card" in m]


def test_a_dim_piles_top_card_is_named_and_on_top_when_read_size_by_size() -> None:
    # the sizes between the size probe's candidates (``CoveredParams.ladder_reads``) name this
    # top too, and so does its corner read when a poor first card of the outline over it vetoes
    # nothing (``CoveredParams.veto_score``): both off here, to show this step alone
    unladdered = replace(BASE, covered=replace(BASE.covered, ladder_reads=0, veto_score=0.0))
    off = replace(unladdered, find=replace(unladdered.find, top_refit_read_agree=0))
    assert _pile_mistakes(8484, 19, off) == ["8484-19: top card of the pile wrong"]
    assert _pile_mistakes(8484, 19, unladdered) == []


def test_the_outlines_by_size_run_smallest_first_over_the_range_asked() -> None:
    image, scene = held_out_scene(8484, 19)
    p = BASE.find
    work = make_work(image, p)
    top = next(c for c in scene["cards"] if c["top"] and c["group"] == "pile")
    card = np.array(top["corners"], np.float64) * work.scale
    quad = card.mean(axis=0) + 0.9 * (card - card.mean(axis=0))  # the print frame's size
    rects = refits_by_size(quad, work, p, None)
    shorts = [side_lengths(r)[0] for r in rects]
    assert len(rects) >= 10
    assert shorts == sorted(shorts)
    own = side_lengths(quad)[0]
    low, high = p.top_refit_read_sizes
    assert low * own - 1.0 <= shorts[0] and shorts[-1] <= high * own + 1.0


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("top_refit_read_agree", -1),
        ("top_refit_read_sizes", (1.2, 0.9)),
        ("top_refit_read_step", 0.0),
        ("top_refit_read_grow", -0.1),
        ("top_refit_read_under", 1),
        ("top_refit_named_by_read", 1),
        ("relay_read", "yes"),
    ],
)
def test_the_read_refit_parameters_are_checked(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        FindParams(**{field: value})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("seed", "index", "base", "switch", "mistakes"),
    [
        # 9292/27: a 3 on a neat pile, its outline taking in the 4 under it (0.16 off the 3, so
        # matched to the 4); fitted again it lies 0.03 off the 3 but within ``top_refit_same`` of
        # the 1's outline under it, and was dropped as the 1's; it reads 3, not 1 (the centre
        # relay, ``CoveredParams.centre_relay``, lays the 3 out right too: off here)
        (
            9292,
            27,
            replace(BASE, covered=replace(BASE.covered, centre_relay=False)),
            "top_refit_named_by_read",
            ["9292-27: 4 read as 3 (0.79)", "9292-27: top card of the pile wrong"],
        ),
        # 8642/27: a 6 on a 1 (a fan of two), its outline 0.05 off; laid out again from one of
        # its corners turned a few degrees, along the 1 (0.17 off the 1, showing 0.98 of its
        # length against 0.90): read there it names nothing (the far relay's reach,
        # ``FindParams.relay_far_reach``, keeps the 6 on its outline too, and the second covered
        # reading at the named cards' size, ``CoveredParams.named_size``, names the 1: off here)
        (
            8642,
            27,
            replace(
                BASE,
                find=replace(BASE.find, relay_far_reach=None),
                covered=replace(BASE.covered, named_size=0.0),
            ),
            "relay_read",
            ["8642-27: 1 read as 6 (0.83)", "8642-27: top card of the fan wrong"],
        ),
        # 5151/19: every unnamed outline near the pile's 3 is marked under another, so only the
        # read of the cards not marked top names it
        (5151, 19, BASE, "top_refit_read_under", ["5151-19: top card of the pile wrong"]),
    ],
    ids=["named-by-read-9292-27", "relay-read-8642-27", "read-under-5151-19"],
)
def test_a_top_card_step_mends_its_held_out_pile(
    seed: int, index: int, base: ScannerParams, switch: str, mistakes: list[str]
) -> None:
    off = replace(base, find=replace(base.find, **{switch: False}))
    on = replace(base, find=replace(base.find, **{switch: True}))
    assert _pile_mistakes(seed, index, off) == mistakes
    assert _pile_mistakes(seed, index, on) == []


def test_a_card_under_another_read_size_by_size_does_not_displace_a_card_named_there() -> None:
    # 8642/38: a hand's unnamed outline, read size by size, names the AC 0.04 off; the AC read
    # already 0.02 off by an earlier refit keeps its name (no false AC, no AC left unnamed)
    on = replace(BASE, find=replace(BASE.find, top_refit_read_under=True))
    assert _pile_mistakes(8642, 38, on) == []
