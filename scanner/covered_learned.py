"""A learned accept step for covered-card corner names: many cues of one corner read weighed
together by a logistic model (``scanner/data/corner_model.json``).

``covered_read.read_corner`` names a card when its index passes the hand-set thresholds
(``CoveredParams.min_score``, the deck's lead, each part's score, the twin look) or a second
look; a corner read these leave unnamed is named all the same when the model's probability that
its first card is the card there reaches ``CoveredParams.learned_accept`` (``None``: off).

The cues (``CUES``) are numbers of the read itself: its scores, leads and parts, how far from its
place the index was found, how crowded the first places are, the card's size in the frame and
the print's contrast in the index box.  The model is fitted by ``tools/learn_corners.py`` on
corner reads of rendered scenes of its own seeds, labelled by the scenes' truth; it is one
logistic regression per deck (Oktris, Octoplus) over the cues standardised.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from scanner.faces import INDEX_BOX
from scanner.identify_index import IndexReading
from scanner.types import Image

__all__ = ["CUES", "MODEL_PATH", "CornerModel", "corner_cues", "load_model"]

FloatArray = npt.NDArray[np.float64]

MODEL_PATH = Path(__file__).resolve().parent / "data" / "corner_model.json"

CUES: tuple[str, ...] = (
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


@dataclass(frozen=True)
class CornerModel:
    """A logistic model over the cues (``CUES``) standardised: ``mean`` and ``scale`` per cue,
    ``weights`` per cue and an ``intercept``."""

    cues: tuple[str, ...]
    mean: FloatArray
    scale: FloatArray
    weights: FloatArray
    intercept: float

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Check the model's shape and numbers.

        Raises:
            ValueError: the cues differ from ``CUES``, an array has the wrong length, a number is
                not finite or a scale is not positive.
        """
        if self.cues != CUES:
            raise ValueError(f"corner model cues {self.cues!r} differ from {CUES!r}")
        for name in ("mean", "scale", "weights"):
            values = getattr(self, name)
            if values.shape != (len(CUES),):
                raise ValueError(f"corner model {name} has shape {values.shape}, expected ({len(CUES)},)")
            if not np.isfinite(values).all():
                raise ValueError(f"corner model {name} holds a number that is not finite")
        if not (self.scale > 0).all():
            raise ValueError("corner model scale must be positive")
        if not math.isfinite(self.intercept):
            raise ValueError("corner model intercept is not finite")

    def probability(self, cues: FloatArray) -> float:
        """The model's probability that a corner read with ``cues`` names the card there."""
        z = float(((cues - self.mean) / self.scale) @ self.weights) + self.intercept
        return 1.0 / (1.0 + math.exp(-max(min(z, 50.0), -50.0)))

    def as_dict(self) -> dict[str, object]:
        return {
            "cues": list(self.cues),
            "mean": [float(v) for v in self.mean],
            "scale": [float(v) for v in self.scale],
            "weights": [float(v) for v in self.weights],
            "intercept": float(self.intercept),
        }

    @staticmethod
    def from_dict(doc: dict[str, object]) -> CornerModel:
        """The model a dictionary (``as_dict``) describes.

        Raises:
            ValueError: a field is missing or malformed (``validate``).
        """
        try:
            return CornerModel(
                cues=tuple(str(c) for c in doc["cues"]),  # type: ignore[attr-defined]
                mean=np.asarray(doc["mean"], np.float64),
                scale=np.asarray(doc["scale"], np.float64),
                weights=np.asarray(doc["weights"], np.float64),
                intercept=float(doc["intercept"]),  # type: ignore[arg-type]
            )
        except (KeyError, TypeError) as err:
            raise ValueError(f"corner model malformed: {err}") from err


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
