"""A learned accept step for covered-card corner names: many cues of one corner read weighed
together by a logistic model (``scanner/data/corner_model.json``).

``covered_read.read_corner`` names a card when its index passes the hand-set thresholds
(``CoveredParams.min_score``, the deck's lead, each part's score, the twin look) or a second
look; a corner read these leave unnamed is named all the same when the model's probability that
its first card is the card there reaches ``CoveredParams.learned_accept`` (``None``: off).

The cues (``CUES``) are numbers of the read itself (``READ_CUES``: its scores, leads and parts, how
far from its place the index was found, how crowded the first places are, the card's size in the
frame and the print's contrast in the index box) and of the scene around it (``SCENE_CUES``, a
``CornerScene`` that ``scanner.scan_covered`` passes along: the card's size against the cards
found near it, how much of its index box other outlines cover, how much of its outline named
cards cover, how far the nearest named card lies, how many cards lie around it, and how many
earlier reads of the frame agree or disagree with it).  The model is fitted by ``tools/learn_corners.py`` on
corner reads of rendered scenes of its own seeds, labelled by the scenes' truth; it is one
logistic regression per deck (Oktris, Octoplus) over the cues standardised.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from scanner.faces import INDEX_BOX
from scanner.identify_index import IndexReading
from scanner.logistic import LogisticModel
from scanner.types import Image

__all__ = [
    "CUES",
    "MODEL_PATH",
    "READ_CUES",
    "SCENE_CUES",
    "CornerModel",
    "CornerScene",
    "corner_cues",
    "load_model",
]

FloatArray = npt.NDArray[np.float64]

MODEL_PATH = Path(__file__).resolve().parent / "data" / "corner_model.json"

READ_CUES: tuple[str, ...] = (
    "score",
    "margin",
    "least_part",
    "first_part",
    "second_part",
    "runner_up",
    "third_lead",
    "close_cards",
    "offset",
    "log_short",
    "ink_contrast",
    "ink_dark",
)
"""The cues of one corner read, in the model's order: the first card's score, its lead over the
runner-up, its least part's score, its first and second part's scores (rank and suit; label and
mark), the runner-up's score, the lead over the third card, how many cards score within 0.05 of
the first, how far (canonical pixels) from its own place its index was found, the log of the
card's short side (frame pixels), and the index box's print: the paper's grey less the darkest
tenth's (over 255) and the share of its pixels darker than the paper by 60 grey levels."""

SCENE_CUES: tuple[str, ...] = (
    "size_ratio",
    "index_under_named",
    "index_under_found",
    "overlap_named",
    "near_named",
    "cluster_cards",
    "agree_near",
    "agree_far",
    "disagree_near",
)
"""The cues of the scene around one corner read (``CornerScene.cues``): the log of the card's short
side over the local card size (the nearest named card's, else the nearest found card's; 0 with
none), the share of the index box's sample points inside a named card's outline and inside a
found card's outline (one not named and not this card's own: not within ``_OWN`` of it, as
``scan_covered._apart`` measures), the largest share of the card's outline a named card's
outline covers, the distance from the card's centre to the nearest named card's centre (over the
card's short side, at most ``_FAR``), the number of cards found (named or not) whose centres lie
within ``_AROUND`` short sides of its centre, and the number of earlier reads of the frame of the
same first card with their corner within ``_AROUND`` short sides of this one (the other index
corner, another size, a turn) or farther, and of another first card within ``_SAME`` short sides
(the same corner read as another card); the counts at most ``_COUNTS``."""

CUES: tuple[str, ...] = READ_CUES + SCENE_CUES
"""Every cue of the model, in its order: the read's then the scene's."""

_OWN = 0.3
"""A found outline within this (mean corner distance over the short side) of the card read is
that card's own outline, not a card over its index."""
_FAR = 5.0
"""The distance to the nearest named card (short sides) counted at most (and with none)."""
_AROUND = 2.0
"""Cards and reads within this many short sides of the card read are around it."""
_SAME = 0.5
"""Reads whose corners lie within this many short sides of each other read one corner."""
_COUNTS = 5.0
"""The counts of cards and reads counted at most."""

_CLOSE = 0.05
"""Cards scoring within this of the first count as close (``close_cards``)."""
_DARK = 60.0
"""Grey levels under the paper (the box's median) from which a pixel counts as print."""


def corner_cues(image: Image, reading: IndexReading, short_px: float) -> FloatArray:
    """The cues (``CUES``) of the index ``reading`` of the canonical corner image ``image``, of a
    card whose short side is ``short_px`` frame pixels."""
    scores = np.asarray(reading.scores, np.float64)
    order = np.argsort(-scores)
    best = int(order[0])
    score = float(scores[best])
    runner = float(scores[order[1]]) if len(order) > 1 else 0.0
    third = float(scores[order[2]]) if len(order) > 2 else 0.0
    parts = np.asarray(reading.parts[best], np.float64).ravel()
    first_part = float(parts[0]) if len(parts) else score
    second_part = float(parts[1]) if len(parts) > 1 else first_part
    offset = 0.0
    if reading.offsets is not None:
        offset = float(np.hypot(*np.asarray(reading.offsets[0, best], np.float64)))
        if not math.isfinite(offset):
            offset = 0.0
    h, w = image.shape[:2]
    x0, y0 = int(INDEX_BOX[0] * w), int(INDEX_BOX[1] * h)
    x1, y1 = math.ceil(INDEX_BOX[2] * w), math.ceil(INDEX_BOX[3] * h)
    box = np.asarray(image[y0:y1, x0:x1], np.float64)
    grey = box.mean(axis=2) if box.ndim == 3 else box
    paper = float(np.median(grey)) if grey.size else 0.0
    dark = float(np.percentile(grey, 10)) if grey.size else 0.0
    return np.array(
        [
            score,
            score - max(runner, 0.0),
            float(parts.min()) if len(parts) else score,
            first_part,
            second_part,
            runner,
            score - max(third, 0.0),
            float((scores >= score - _CLOSE).sum() - 1),
            offset,
            math.log(max(short_px, 1.0)),
            (paper - dark) / 255.0,
            float((grey < paper - _DARK).mean()) if grey.size else 0.0,
        ],
        np.float64,
    )


def _short(quad: FloatArray) -> float:
    """The mean short side of ``quad``."""
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    return float(max(min(sides[0] + sides[2], sides[1] + sides[3]) / 2.0, 1e-9))


def _apart(a: FloatArray, b: FloatArray) -> float:
    """The mean distance between the corners of two quads (the best of the four ways of pairing
    them round), over the short side of ``b``."""
    gap = min(float(np.linalg.norm(np.roll(a, k, axis=0) - b, axis=1).mean()) for k in range(4))
    return gap / _short(b)


def _inside(quad: FloatArray, points: FloatArray) -> npt.NDArray[np.bool_]:
    """Per point, whether it lies inside the convex ``quad`` (either turning)."""
    edges = np.roll(quad, -1, axis=0) - quad
    rel = points[:, None, :] - quad[None, :, :]
    cross = edges[None, :, 0] * rel[:, :, 1] - edges[None, :, 1] * rel[:, :, 0]
    return np.asarray((cross >= 0).all(axis=1) | (cross <= 0).all(axis=1), np.bool_)


def _area(quad: FloatArray) -> float:
    x, y = quad[:, 0], quad[:, 1]
    return float(abs(x @ np.roll(y, -1) - y @ np.roll(x, -1)) / 2.0)


_BOX_GRID = np.stack(
    np.meshgrid(np.linspace(INDEX_BOX[0], INDEX_BOX[2], 4), np.linspace(INDEX_BOX[1], INDEX_BOX[3], 6)),
    axis=-1,
).reshape(-1, 2)
"""Sample points of the index box, as fractions of the card's width and height."""


@dataclass
class CornerScene:
    """The scene of one frame's corner reads (frame pixels): the outlines of the cards named
    (``named``: identified, then named from corners as the scan goes) and of the cards found but
    not named (``found``), and the reads made so far (``reads``: corner point and first card)."""

    named: list[FloatArray] = field(default_factory=list)
    found: list[FloatArray] = field(default_factory=list)
    reads: list[tuple[FloatArray, str]] = field(default_factory=list)

    def cues(self, quad: FloatArray, candidate: str) -> FloatArray:
        """The scene cues (``SCENE_CUES``) of the card ``quad`` (TL TR BR BL, its read corner
        first) read as ``candidate``."""
        quad = np.asarray(quad, np.float64)
        short = _short(quad)
        centre = quad.mean(axis=0)
        across, down = quad[1] - quad[0], quad[3] - quad[0]
        box = quad[0] + _BOX_GRID[:, :1] * across + _BOX_GRID[:, 1:] * down
        others = [q for q in self.found if _apart(q, quad) > _OWN]
        everyone = [*self.named, *self.found]

        def nearest(quads: list[FloatArray]) -> tuple[float, int]:
            gaps = [float(np.hypot(*(q.mean(axis=0) - centre))) for q in quads]
            k = int(np.argmin(gaps))
            return gaps[k], k

        size_ratio = 0.0
        if self.named or self.found:
            pool = self.named or self.found
            size_ratio = math.log(short / _short(pool[nearest(pool)[1]]))
        under_named = np.zeros(len(box), bool)
        for q in self.named:
            under_named |= _inside(q, box)
        under_found = np.zeros(len(box), bool)
        for q in others:
            under_found |= _inside(q, box)
        overlap = 0.0
        own = max(_area(quad), 1e-9)
        for q in self.named:
            if (q.min(axis=0) > quad.max(axis=0)).any() or (quad.min(axis=0) > q.max(axis=0)).any():
                continue  # their bounding boxes lie apart
            area, _ = cv2.intersectConvexConvex(quad.astype(np.float32), q.astype(np.float32))
            overlap = max(overlap, float(area) / own)
        near_named = min(nearest(self.named)[0] / short, _FAR) if self.named else _FAR
        around = sum(float(np.hypot(*(q.mean(axis=0) - centre))) <= _AROUND * short for q in everyone)
        agree_near = agree_far = disagree = 0
        for point, card in self.reads:
            gap = float(np.hypot(*(point - quad[0]))) / short
            if card == candidate:
                if gap <= _AROUND:
                    agree_near += 1
                else:
                    agree_far += 1
            elif gap <= _SAME:
                disagree += 1
        return np.array(
            [
                size_ratio,
                float(under_named.mean()),
                float(under_found.mean()),
                min(overlap, 1.0),
                near_named,
                min(float(around), _COUNTS),
                min(float(agree_near), _COUNTS),
                min(float(agree_far), _COUNTS),
                min(float(disagree), _COUNTS),
            ],
            np.float64,
        )

    def note(self, quad: FloatArray, candidate: str) -> None:
        """Keep the read of ``quad`` as ``candidate`` (for the agreement cues of later reads)."""
        self.reads.append((np.asarray(quad[0], np.float64).copy(), candidate))


class CornerModel(LogisticModel):
    """The corner model: a logistic model over the corner cues (``CUES``)."""

    EXPECTED = CUES
    KIND = "corner"


@functools.lru_cache(maxsize=4)
def load_model(path: Path = MODEL_PATH) -> dict[str, CornerModel]:
    """The models per deck (``"oktris"``, ``"octoplus"``) stored at ``path``.

    Raises:
        ValueError: the file does not hold a model for each deck, or a model is malformed.
    """
    doc = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(doc, dict) or set(doc) < {"oktris", "octoplus"}:
        raise ValueError(f"{path}: expected a model for oktris and octoplus")
    return {deck: CornerModel.from_dict(doc[deck]) for deck in ("oktris", "octoplus")}
