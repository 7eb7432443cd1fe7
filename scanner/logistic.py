"""A logistic model over named cues, standardised: the form of the scanner's learned steps.

Each learned step (``scanner.covered_learned``'s corner model, ``scanner.identify_suit``'s suit
model) is one logistic regression fitted by a script in ``tools/`` on rendered scenes of its own
seeds and stored as JSON in ``scanner/data``.  A subclass names its cues (``EXPECTED``) and what it
is (``KIND``, for messages); a model whose cues differ from those is refused.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar, Self

import numpy as np
import numpy.typing as npt

__all__ = ["LogisticModel"]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class LogisticModel:
    """A logistic model over the cues standardised: ``mean`` and ``scale`` per cue, ``weights``
    per cue and an ``intercept``."""

    EXPECTED: ClassVar[tuple[str, ...]] = ()
    """The cues a model of this kind reads, in order."""
    KIND: ClassVar[str] = "logistic"
    """What the model is, for messages."""

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
            ValueError: the cues differ from ``EXPECTED``, an array has the wrong length, a number
                is not finite or a scale is not positive.
        """
        expected = self.EXPECTED
        if self.cues != expected:
            raise ValueError(f"{self.KIND} model cues {self.cues!r} differ from {expected!r}")
        for name in ("mean", "scale", "weights"):
            values = getattr(self, name)
            if values.shape != (len(expected),):
                shape = f"({len(expected)},)"
                raise ValueError(f"{self.KIND} model {name} has shape {values.shape}, expected {shape}")
            if not np.isfinite(values).all():
                raise ValueError(f"{self.KIND} model {name} holds a number that is not finite")
        if not (self.scale > 0).all():
            raise ValueError(f"{self.KIND} model scale must be positive")
        if not math.isfinite(self.intercept):
            raise ValueError(f"{self.KIND} model intercept is not finite")

    def probability(self, cues: FloatArray) -> float:
        """The model's probability for ``cues`` (one number per cue, in ``EXPECTED``'s order)."""
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

    @classmethod
    def from_dict(cls, doc: dict[str, object]) -> Self:
        """The model a dictionary (``as_dict``) describes.

        Raises:
            ValueError: a field is missing or malformed (``validate``).
        """
        try:
            return cls(
                cues=tuple(str(c) for c in doc["cues"]),  # type: ignore[attr-defined]
                mean=np.asarray(doc["mean"], np.float64),
                scale=np.asarray(doc["scale"], np.float64),
                weights=np.asarray(doc["weights"], np.float64),
                intercept=float(doc["intercept"]),  # type: ignore[arg-type]
            )
        except (KeyError, TypeError) as err:
            raise ValueError(f"{cls.KIND} model malformed: {err}") from err

    @classmethod
    def fitted(cls, x: FloatArray, y: FloatArray, ridge: float) -> Self:
        """The model of a logistic regression of ``y`` (0/1) on ``x`` (rows x ``EXPECTED`` cues),
        standardised, with a ridge of ``ridge`` on the standardised weights (not the intercept),
        by iteratively reweighted least squares."""
        mean = x.mean(axis=0)
        scale = x.std(axis=0)
        scale = np.where(scale > 1e-9, scale, 1.0)
        z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
        w = np.zeros(z.shape[1])
        penalty = np.eye(z.shape[1]) * ridge
        penalty[-1, -1] = 0.0
        for _ in range(50):
            p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -50, 50)))
            grad = z.T @ (y - p) - penalty @ w
            hess = (z * (p * (1 - p))[:, None]).T @ z + penalty
            step = np.linalg.solve(hess, grad)
            w += step
            if float(np.abs(step).max()) < 1e-8:
                break
        return cls(cls.EXPECTED, mean, scale, w[:-1].copy(), float(w[-1]))
