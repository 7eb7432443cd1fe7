"""Colour cues of card identification: the colour of a region's ink, and whether a card is seen in colour.

A grey photo shows red ink grey, so the cues only ever take score away from
cards whose ink colour contradicts a colour photo (see ``IdentifyParams.colour_penalty``).
"""

from __future__ import annotations

import cv2
import numpy as np

from scanner.identify_params import IdentifyParams, Region
from scanner.types import Image
from scorer.cards import Card, StdCard


def grey(image: Image) -> Image:
    """``image`` as one grey channel (a grey image is returned as it is)."""
    if image.ndim == 2:
        return image
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)


def redness(bgr: Image, params: IdentifyParams) -> float:
    """How red the ink of ``bgr`` is: 0 for black or grey ink, up to 1 for pure red.

    The ink is the darkest ``ink_quantile`` of the pixels (by grey value).
    """
    if bgr.ndim != 3 or bgr.size == 0:
        return 0.0
    return rednesses([bgr], params)[0]


def rednesses(bgrs: list[Image], params: IdentifyParams) -> list[float]:
    """``redness`` of each of ``bgrs``; colour crops of one shape are taken together (each crop's
    darkest pixels chosen along its own row of one array)."""
    first = bgrs[0] if bgrs else None
    if first is None:
        return []
    if first.ndim != 3 or first.size == 0 or any(b.shape != first.shape for b in bgrs):
        return [redness(bgr, params) for bgr in bgrs]
    pixels = np.stack(bgrs).reshape(len(bgrs), -1, 3)
    # the channel sums in 16 bits, then as float32 (exact): the same ordering values, so the
    # same darkest pixels, without converting every pixel to float
    summed = np.add(pixels[..., 0], pixels[..., 1], dtype=np.uint16)
    summed += pixels[..., 2]
    lightness = summed.astype(np.float32)
    count = max(1, round(params.ink_quantile * lightness.shape[1]))
    darkest = np.argpartition(lightness, count - 1, axis=1)[:, :count]
    ink = pixels[np.arange(len(bgrs))[:, None], darkest].astype(np.float32)
    red = ink[..., 2] - np.maximum(ink[..., 0], ink[..., 1])
    return [min(max(float(mean / 255.0), 0.0), 1.0) for mean in red.mean(axis=1)]


CHROMA_STEP = 4
"""``chroma`` looks at every 4th pixel of every 4th row."""


def chroma(image: Image) -> float:
    """Mean colourfulness (largest minus smallest channel) of a BGR card, on every 4th pixel."""
    return sample_chroma(image[::CHROMA_STEP, ::CHROMA_STEP])


def sample_chroma(sample: Image) -> float:
    """Mean colourfulness (largest minus smallest channel) of the BGR pixels ``sample``."""
    b, g, r = cv2.split(np.ascontiguousarray(sample))
    spread = cv2.absdiff(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
    return float(cv2.mean(spread)[0])


def is_black(card: Card, image: Image, area: Region, params: IdentifyParams) -> bool:
    """Whether ``card`` is printed in black (or blue) ink: a standard card by its suit, an
    Octoplus template by the ink of ``area`` in its face ``image``."""
    if isinstance(card, StdCard):
        return not card.suit.is_red
    return redness(image[area.y0 : area.y1, area.x0 : area.x1], params) <= params.red_ink


__all__ = ["CHROMA_STEP", "chroma", "grey", "is_black", "redness", "rednesses", "sample_chroma"]
