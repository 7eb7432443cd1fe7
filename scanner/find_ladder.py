"""Cards rebuilt at other sizes where the finder guessed the card size.

With no lone card, no known size and no card showing its whole outline (the top card of a
pile with a hand over it), the finder rebuilds cards from their corners at the size of the
longest side it saw, often a part of one (``FindParams.max_sizes``; ``Work.guesses``).  Here
every such corner is laid out again at a ladder of sizes around that guess
(``FindParams.ladder_sizes``, in steps of ``size_ladder_step``); the cards whose outline shows
as an edge (``ladder_support``) and that lie on card pixels (``ladder_inside``: a hand over a
card is no card pixel) are offered best shown first, at most ``ladder_reads`` of them, for the
identifier to name (``scanner.scan``).
"""

from __future__ import annotations

import math

import numpy as np

from scanner.find_geometry import FloatArray
from scanner.find_split import on_cards, outline_shown, parallelograms
from scanner.find_work import Work
from scanner.params import FindParams

__all__ = ["ladder_cards"]


def ladder_cards(work: Work, p: FindParams) -> list[FloatArray]:
    """The cards (work pixels, corners in the finder's order) rebuilt at the corners of the
    finder's last guess (``work.guesses``) at the ladder's sizes that pass ``ladder_support`` and
    ``ladder_inside``, the best shown first, at most ``ladder_reads``; none without a guess."""
    if not work.guesses or p.ladder_reads <= 0 or not work.guesses[-1].corners:
        return []
    guess = work.guesses[-1]
    low, high = p.ladder_sizes
    step = math.log1p(p.size_ladder_step)
    first = math.ceil(math.log(low) / step - 1e-9)
    last = math.floor(math.log(high) / step + 1e-9)
    sizes = guess.short * np.exp(step * np.arange(first, last + 1))
    stack = parallelograms(list(guess.corners), sizes, p)
    if len(stack) == 0:
        return []
    shown = outline_shown(stack, work.edges)
    inside = on_cards(stack, guess.cards)
    keep = np.flatnonzero((shown >= p.ladder_support) & (inside >= p.ladder_inside))
    order = keep[np.argsort(-shown[keep], kind="stable")]
    return [np.asarray(stack[k], np.float64) for k in order[: p.ladder_reads]]
