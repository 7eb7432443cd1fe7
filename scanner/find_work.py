"""The finder's work image: the frame scaled down, its card pixels and its edges.

Card pixels are lighter than the local table (a median estimate of the table's
lightness over a large window, so uneven light does not matter) and have little
colour (cards are white; tables are coloured or textured).  Two edge maps are
kept: fine edges of a lightly smoothed image (a thin shadow where a card lies
on a card) that cut the card pixels into the visible parts of single cards, and
edges of a median-filtered image (speckle and table texture gone) whose
enclosed regions outline lone cards whatever the table's lightness.  Those
(``Work.bright``, ``Work.regions``) are first made of the work image shrunk
(``FindParams.outline_shrink``, ``Work.rough``) and at the work image's size
only when the finder asks: when a rough outline could be a card that the lone
cards found by then do not explain.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from scanner.find_geometry import Arr
from scanner.find_skin import skin_mask
from scanner.params import FindParams
from scanner.types import Image

if TYPE_CHECKING:
    from scanner.find_split import SizeGuess


@dataclass(frozen=True)
class Work:
    """Everything the finder derives from one frame, at work scale (uint8 0/255 masks)."""

    scale: float
    """Work pixels per frame pixel."""
    grey: Arr
    """Lightness (L of Lab)."""
    mask: Arr
    """Card pixels."""
    union: Arr
    """Card pixels with small gaps closed: every cluster of touching cards is one blob."""
    split: Arr
    """Card pixels with fine edges cut out: the visible parts of single cards."""
    colourless: Arr
    """Pixels of little colour."""
    fine: Arr
    """Fine edges (Canny of the lightly smoothed grey, around the clusters of card pixels)."""
    gx: Arr
    """Horizontal gradient (Sobel) of the lightly smoothed grey (int16)."""
    gy: Arr
    """Vertical gradient (Sobel) of the lightly smoothed grey (int16)."""
    light_level: float
    """Lightness of the frame's lightest tenth."""
    union_outlines: tuple[Arr, ...]
    """The outer outlines of ``union`` (``cv2.RETR_EXTERNAL``, chains compressed)."""
    denoise_kernel: int
    """The median filter's size that makes ``blurred`` of ``grey``."""
    canny: tuple[float, float]
    """Canny's hysteresis thresholds of the denoised edges (``regions``)."""
    rough: tuple[int, Arr, Arr] | None = None
    """``None``, or the shrink factor, ``bright`` and ``regions`` made of the work image shrunk that
    many times (``FindParams.outline_shrink``): the finder's last lone-card passes look at those
    first and ask for the full ones only when they show an outline no card found explains."""
    lab: Arr | None = None
    """The work image in Lab (OpenCV's 8-bit encoding; ``None`` for a work image made without
    it): where hands and arms are (``skin``)."""
    skin_params: FindParams | None = None
    """The parameters ``skin`` reads (those of ``make_work``)."""
    guesses: list[SizeGuess] = field(default_factory=list)
    """Where the finder rebuilt cards from corners at a card size it guessed (no lone card, known
    size nor whole outline told it), appended by it: the corners, the card pixels and that
    size, for ``scanner.find_ladder`` to try other sizes on; empty otherwise."""

    @functools.cached_property
    def skin(self) -> Arr | None:
        """The pixels of hands and arms (``scanner.find_skin``), made on first use (only where a
        top card names nothing once fitted again) and kept; ``None`` without ``lab``."""
        if self.lab is None or self.skin_params is None:
            return None
        return skin_mask(self.lab, self.union, self.skin_params)

    @functools.cached_property
    def blurred(self) -> Arr:
        """``grey`` median-filtered (speckle and table texture gone).  Made with the work image
        when it has no ``rough`` cuts, else on first use, and kept."""
        k = self.denoise_kernel
        return np.asarray(cv2.medianBlur(self.grey, k)) if k > 1 else self.grey

    @functools.cached_property
    def _cuts(self) -> tuple[Arr, Arr]:
        """``bright`` and ``regions``, made on first use and kept."""
        return _denoised_cuts(self.blurred, self.colourless, *self.canny)

    @property
    def bright(self) -> Arr:
        """Light colourless pixels by a global (Otsu) split, denoised edges cut out."""
        return self._cuts[0]

    @property
    def regions(self) -> Arr:
        """Everything but denoised edges: regions enclosed by edges."""
        return self._cuts[1]

    @functools.cached_property
    def edges(self) -> Arr:
        """Fine edges, widened by a pixel, plus the outline of ``union``, near ``union``: where
        card sides show.  Made on first use (only covered cards and corner hypotheses ask: a
        frame of separate cards found whole never does) and kept."""
        square = np.ones((3, 3), np.uint8)
        outline = cv2.morphologyEx(self.union, cv2.MORPH_GRADIENT, square)
        near_cards = cv2.dilate(self.union, np.ones((5, 5), np.uint8))
        return np.asarray(cv2.bitwise_and(cv2.bitwise_or(cv2.dilate(self.fine, square), outline), near_cards))


def make_work(image: Image, p: FindParams) -> Work:
    """Scale ``image`` (BGR or grey uint8) down and derive the finder's masks and edges."""
    h, w = image.shape[:2]
    scale = min(1.0, p.work_long_side / max(h, w))
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    small: Arr
    if scale == 1.0:
        small = image
    elif 0.25 <= scale < 0.5:
        # halved by pixel blocks (OpenCV's fast path for a factor of 2), once more at a quarter or
        # less, then linearly the rest of the way (at most 1.5 times from a half: every pixel of
        # it still counts); a pixel-area resize by another factor takes a slower path (about 2 ms
        # at 1/3 and 1 ms at 1/4, against 0.4 and 0.25 ms so, for a 1280x720 frame)
        small = cv2.resize(image, (max(1, round(w / 2)), max(1, round(h / 2))), interpolation=cv2.INTER_AREA)
        if scale <= 0.25 + 1e-9:
            hh, hw = small.shape[:2]
            small = cv2.resize(
                small, (max(1, round(hw / 2)), max(1, round(hh / 2))), interpolation=cv2.INTER_AREA
            )
        if small.shape[1::-1] != size:
            small = cv2.resize(small, size, interpolation=cv2.INTER_LINEAR)
    else:
        small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    grey, a, b = cv2.split(lab)
    # |a - 128| <= max_chroma and |b - 128| <= max_chroma, as integer ranges
    low, high = math.ceil(128 - p.max_chroma), math.floor(128 + p.max_chroma)
    colourless: Arr = cv2.bitwise_and(cv2.inRange(a, low, high), cv2.inRange(b, low, high))

    tiny_size = (max(1, size[0] // p.background_scale), max(1, size[1] // p.background_scale))
    tiny = cv2.resize(grey, tiny_size, interpolation=cv2.INTER_AREA)
    k = max(3, int(max(tiny_size) * p.background_kernel) | 1)
    k = min(k, (min(tiny_size) * 2 - 1) | 1) if min(tiny_size) > 1 else 1
    background = cv2.medianBlur(tiny, k) if k >= 3 else tiny
    background = cv2.resize(background, size, interpolation=cv2.INTER_LINEAR)
    mask: Arr = cv2.bitwise_and(_lighter_by(grey, background, p.white_margin), colourless)
    if p.paper_chroma > 0.0 and coloured_table(np.asarray(small, np.uint8), p):
        mask = cv2.bitwise_or(mask, _grey_paper(grey, a, b, background, p))
    square = np.ones((3, 3), np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, square)
    union = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, square)

    smooth = cv2.GaussianBlur(grey, (3, 3), 0)
    union_outlines, _ = cv2.findContours(union, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    fine = _fine_edges(smooth, union_outlines, p)
    split = cv2.bitwise_and(
        mask, cv2.bitwise_not(cv2.dilate(fine, cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))))
    )

    shrink = p.outline_shrink
    rough: tuple[int, Arr, Arr] | None = None
    if shrink > 1:
        # the rough cuts: the regions and the bright pixels of the work image shrunk
        shrunk = (max(1, size[0] // shrink), max(1, size[1] // shrink))
        k = p.shrunk_denoise_kernel
        small_grey = cv2.resize(grey, shrunk, interpolation=cv2.INTER_AREA)
        denoised = cv2.medianBlur(small_grey, k) if k > 1 else small_grey
        small_colourless = cv2.resize(colourless, shrunk, interpolation=cv2.INTER_NEAREST)
        rough = (shrink, *_denoised_cuts(denoised, small_colourless, p.shrunk_canny_low, p.shrunk_canny_high))

    gx, gy = cv2.spatialGradient(smooth, ksize=3)  # both 3x3 Sobel derivatives (int16) in one pass
    work = Work(
        scale=scale,
        grey=grey,
        mask=mask,
        union=union,
        split=split,
        colourless=colourless,
        fine=fine,
        gx=gx,
        gy=gy,
        light_level=_lightest_tenth(tiny),
        union_outlines=tuple(union_outlines),
        denoise_kernel=p.denoise_kernel,
        canny=(p.canny_low, p.canny_high),
        rough=rough,
        lab=lab,
        skin_params=p,
    )
    if rough is None:
        _ = work.bright  # made with the work image, as the finder asks for them on every frame
    return work


def _denoised_cuts(denoised: Arr, colourless: Arr, low: float, high: float) -> tuple[Arr, Arr]:
    """The light colourless pixels (``Work.bright``) and the regions enclosed by edges
    (``Work.regions``) of a median-filtered lightness ``denoised``."""
    square = np.ones((3, 3), np.uint8)
    not_edges = cv2.bitwise_not(cv2.dilate(_canny(denoised, low, high), square))
    # A global lightness split catches cards too large for the local table estimate.
    _t, bright = cv2.threshold(denoised, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    bright = cv2.bitwise_and(bright, colourless)
    bright = cv2.bitwise_and(cv2.morphologyEx(bright, cv2.MORPH_OPEN, square), not_edges)
    return np.asarray(bright), np.asarray(not_edges)


@dataclass(frozen=True)
class Faint:
    """The faint edges of a work image, made only for frames where the rest finds no card."""

    edges: Arr
    """Faint denoised edges (Canny, one pixel wide)."""
    regions: Arr
    """Everything but the faint edges, opened: regions enclosed by faint edges."""


def make_faint(work: Work, p: FindParams) -> Faint:
    """The faint edges of ``work`` and the regions they enclose (leaks through gaps narrower
    than ``faint_open`` work pixels broken off)."""
    edges = cv2.Canny(work.blurred, p.faint_canny_low, p.faint_canny_high)
    regions = cv2.bitwise_not(cv2.dilate(edges, np.ones((3, 3), np.uint8)))
    if p.faint_open > 1:
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (p.faint_open, p.faint_open))
        regions = cv2.morphologyEx(regions, cv2.MORPH_OPEN, disc)
    return Faint(edges=np.asarray(edges), regions=np.asarray(regions))


def _canny(grey: Arr, low: float, high: float) -> Arr:
    """``cv2.Canny(grey, low, high)``, the same pixels, from its two Sobel derivatives taken in one
    pass (``cv2.spatialGradient``, with Canny's own replicated border).

    Cheaper than Canny's own two passes for a whole work image at the thresholds that outline
    cards (about 0.1 ms of 1 ms); not for small boxes (the extra call costs more), and not
    measurably for the faint edges (their many weak edges dominate)."""
    dx, dy = cv2.spatialGradient(grey, ksize=3, borderType=cv2.BORDER_REPLICATE)
    return np.asarray(cv2.Canny(dx, dy, low, high))


def table_light(work: Work, p: FindParams) -> Arr:
    """The table's light at ``work.blurred`` shrunk by ``p.background_scale`` (float32): closed by
    a disc of ``p.flat_close`` of its long side (dark print, a card's thin edges and dark marks
    narrower than that are filled), then smoothed by ``p.flat_blur`` of it."""
    wh, ww = work.blurred.shape[:2]
    size = (max(1, ww // p.background_scale), max(1, wh // p.background_scale))
    tiny = cv2.resize(work.blurred, size, interpolation=cv2.INTER_AREA)
    long_side = max(size)
    k = max(3, int(p.flat_close * long_side) | 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    light: Arr = cv2.morphologyEx(tiny, cv2.MORPH_CLOSE, disc).astype(np.float32)
    return np.asarray(cv2.GaussianBlur(light, (0, 0), max(0.5, p.flat_blur * long_side)))


def flatten_light(image: Image, work: Work, p: FindParams, light: Arr | None = None) -> Image:
    """``image`` (BGR or grey uint8) at work scale with the table's light (``table_light``, or
    ``light`` when the caller has it) divided out: every pixel is scaled by the median light
    over that pixel's light.  A shadow band lying across the table and a card falls to the
    level of the light around it, while a card's own outline, a step sharper than the
    smoothing, stays.  Returns a new image of the work image's size."""
    wh, ww = work.blurred.shape[:2]
    small: Arr = (
        image if image.shape[:2] == (wh, ww) else cv2.resize(image, (ww, wh), interpolation=cv2.INTER_AREA)
    )
    tiny = table_light(work, p) if light is None else light
    full = cv2.resize(tiny, (ww, wh), interpolation=cv2.INTER_LINEAR)
    gain = float(np.median(tiny)) / np.maximum(full, 1.0)
    scaled = small.astype(np.float32) * (gain[:, :, None] if small.ndim == 3 else gain)
    return np.asarray(np.clip(scaled, 0.0, 255.0), dtype=np.uint8)


def flat_work(image: Image, work: Work, p: FindParams) -> Work | None:
    """The work image of ``image`` with the table's light divided out (``flatten_light``), at
    ``work``'s scale of the frame; ``None`` when the light is even (its darkest twentieth at
    least ``1 - p.flat_min_shade`` of its lightest): there is no shadow to divide out."""
    light = table_light(work, p)
    dark, bright = np.percentile(light, (5.0, 95.0))
    if float(dark) >= (1.0 - p.flat_min_shade) * float(bright):
        return None
    flat = flatten_light(image, work, p, light)
    again = make_work(flat, replace(p, work_long_side=max(work.grey.shape[:2])))
    return replace(again, scale=work.scale)


def _chroma2(a: Arr, b: Arr) -> Arr:
    """The squared chroma (a and b of OpenCV's 8-bit Lab, less 128) of every pixel (int32)."""
    da = a.astype(np.int32) - 128
    db = b.astype(np.int32) - 128
    return np.asarray(da * da + db * db, np.int32)


def _tenth_lab(image: Image) -> Arr | None:
    """Every tenth pixel of every tenth row of ``image``, in Lab; ``None`` for a grey image (a
    sample, not an average: a twentieth of the time, and the medians and counts taken of it
    hardly differ)."""
    if image.ndim == 2:
        return None
    sample = np.ascontiguousarray(image[5::10, 5::10])
    return np.asarray(cv2.cvtColor(sample, cv2.COLOR_BGR2LAB))


def _strong_colour(chroma2: Arr, p: FindParams) -> bool:
    """Whether the median of a sample's squared chromas reaches ``table_chroma``: the table that
    covers most of the frame is of strong colour (wood, felt; not a grey or white one)."""
    return float(np.median(chroma2)) >= p.table_chroma**2


def coloured_table(image: Image, p: FindParams) -> bool:
    """Whether ``image``'s table is of strong colour (``_strong_colour``) in a sample of its pixels
    (``_tenth_lab``)."""
    lab = _tenth_lab(image)
    return lab is not None and _strong_colour(_chroma2(lab[..., 1], lab[..., 2]), p)


def grey_on_colour(image: Image, p: FindParams, chroma: float) -> bool:
    """Whether ``image``'s table is of strong colour (``coloured_table``) and, in a sample of its
    pixels (``_tenth_lab``), those of chroma at most ``chroma`` no darker than the median lightness
    cover at least a card's least area (``min_card_area``): what a look at grey pixels for card
    pixels may find (an empty table on its own shows none)."""
    lab = _tenth_lab(image)
    if lab is None:
        return False
    chroma2 = _chroma2(lab[..., 1], lab[..., 2])
    if not _strong_colour(chroma2, p):
        return False
    light = lab[..., 0] >= np.median(lab[..., 0])
    grey = np.count_nonzero((chroma2 <= chroma**2) & light)
    return bool(grey >= p.min_card_area * chroma2.size)


def _grey_paper(grey: Arr, a: Arr, b: Arr, background: Arr, p: FindParams) -> Arr:
    """0/255: the pixels of hardly any colour (chroma at most ``paper_chroma``) no darker than the
    table: a card in dim light on light wood is only a few levels lighter than the wood, but grey
    against it (taken only on a table of strong colour, ``coloured_table``)."""
    grey_enough = _chroma2(a, b) <= p.paper_chroma**2
    not_darker = cv2.compare(grey, background, cv2.CMP_GE) > 0
    return np.asarray(np.logical_and(grey_enough, not_darker), np.uint8) * 255


def _lighter_by(grey: Arr, background: Arr, margin: float) -> Arr:
    """0/255: where ``grey`` is at least ``margin`` lighter than ``background`` (both uint8)."""
    least = math.ceil(margin)
    if least >= 1:
        # a saturated difference only clips values below the threshold
        _t, lighter = cv2.threshold(cv2.subtract(grey, background), least - 1, 255, cv2.THRESH_BINARY)
        return np.asarray(lighter)
    rel = cv2.subtract(grey.astype(np.int16), background.astype(np.int16))
    return (rel >= least).astype(np.uint8) * 255


def _fine_edges(smooth: Arr, clusters: Sequence[Arr], p: FindParams) -> Arr:
    """Fine (Canny) edges of ``smooth``, only around the clusters of card pixels (their
    outlines ``clusters``).

    Fine edges are used only on and next to card pixels; each cluster's box, padded
    by ``fine_pad`` pixels, is edge-detected on its own (most of a frame is table).
    Clusters too small to give a part of a card (``min_part_area`` of the smallest
    card) are left out.
    """
    fine = np.zeros_like(smooth)
    h, w = smooth.shape[:2]
    boxes = [cv2.boundingRect(c) for c in clusters]
    smallest = p.min_part_area * p.min_card_area * h * w
    boxes = [b for b in boxes if b[2] * b[3] >= smallest]
    if sum(b[2] * b[3] for b in boxes) >= h * w // 2:
        return _canny(smooth, p.split_canny_low, p.split_canny_high)
    for x, y, bw, bh in boxes:
        x0, y0 = max(0, x - p.fine_pad), max(0, y - p.fine_pad)
        x1, y1 = min(w, x + bw + p.fine_pad), min(h, y + bh + p.fine_pad)
        part = cv2.Canny(smooth[y0:y1, x0:x1], p.split_canny_low, p.split_canny_high)
        np.maximum(fine[y0:y1, x0:x1], part, out=fine[y0:y1, x0:x1])
    return fine


def _lightest_tenth(grey: Arr) -> float:
    """The 90th percentile of a (small) grey image, by partial sort."""
    flat = grey.ravel()
    k = min(len(flat) - 1, int(0.9 * (len(flat) - 1) + 0.5))
    return float(np.partition(flat, k)[k])
