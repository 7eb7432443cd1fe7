"""A frame's motion blur, measured on the cards named in it, and templates blurred as it.

A camera that moves while it exposes (a bumped table, a loose mount) smears every print along
one line: an index stroke across the motion turns into a wide, faint ramp, and against the sharp
templates the right card may no longer lead (a 5 read as 3, a 3D as 4D).  Read against templates
smeared the same way, the same index reads clearly again (fixture scene_013's 5: 0.59 as a 3
sharp, 0.84 as a 5 blurred; scene_018's 3D: 0.56 as 4D, 0.81 as 3D).

The blur is measured on what the frame already shows for sure: the cards identified whole.  Each
one's template is laid onto its outline, the frame's print there moved onto it by the affine map
that fits them best (an outline a few pixels off would look smeared), and the two are compared
(normalised correlation of the two high-passed, over the card's inside) with the expected print
smeared by each line of a small bank of lengths and directions (``CoveredParams.motion_lengths``,
every ``motion_angle_step`` degrees) and, as the no-motion alternatives, unsmeared and softened a
little more (``motion_soft``: a frame out of focus fits a short line better than the sharp
templates too).  The line that fits best, by at least ``motion_min_gain`` more than every
no-motion alternative, is the frame's blur.  The line is then taken into each card's own
canonical pixels (its outline's affine map), and that card's corner is read against templates
smeared by it (``motion_templates``, a few kept per template set).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from scanner.find_geometry import FloatArray
from scanner.params import CoveredParams
from scanner.templates import Templates
from scanner.types import Image
from scorer.cards import Card

__all__ = [
    "Motion",
    "canonical_line",
    "estimate_motion",
    "estimate_motion_blind",
    "line_kernel",
    "motion_templates",
]

Grey = npt.NDArray[np.float32]
"""A grey image or filter in single-precision floats (what OpenCV's filters take)."""

_KEPT = 8
"""Template sets smeared by one line kept per template set (``motion_templates``): a frame's cards
lie at a few angles, and each set costs a preparation of its matrices when first read."""


@dataclass(frozen=True)
class Motion:
    """A frame's motion blur: a line ``length`` frame pixels long at ``angle`` degrees (image axes:
    x right, y down; 0 to 180), fitting the named cards' print ``gain`` better than none."""

    length: float
    angle: float
    gain: float


def line_kernel(length: float, angle: float) -> Grey:
    """A filter smearing an image along a line ``length`` pixels long at ``angle`` degrees (image
    axes), drawn anti-aliased with sub-pixel ends; its weights sum to 1."""
    size = max(3, math.ceil(length) | 1)
    kernel = np.zeros((size, size), np.float32)
    centre = size // 2
    dx = math.cos(math.radians(angle)) * length / 2.0
    dy = math.sin(math.radians(angle)) * length / 2.0
    shift = 4  # sub-pixel ends: coordinates in sixteenths of a pixel
    ends = [(round((centre + s * dx) * 16), round((centre + s * dy) * 16)) for s in (-1.0, 1.0)]
    cv2.line(kernel, ends[0], ends[1], 1.0, 1, cv2.LINE_AA, shift)
    total = float(kernel.sum())
    if total <= 0.0:
        kernel[centre, centre] = 1.0
        return kernel
    return np.asarray(kernel / total, np.float32)


def _highpass(image: Grey, sigma: float) -> Grey:
    return np.asarray(image - cv2.GaussianBlur(image, (0, 0), sigma), np.float32)


def _bank(p: CoveredParams) -> list[tuple[float, float, float]]:
    """(length, angle, softening) of every smear tried: first no motion, as sharp as the
    templates laid on (``motion_defocus``) and softened more by each of ``motion_soft`` (a frame
    out of focus), then every line."""
    steps = max(1, round(180.0 / p.motion_angle_step))
    still = [(0.0, 0.0, soft) for soft in (0.0, *p.motion_soft)]
    return still + [(length, k * 180.0 / steps, 0.0) for length in p.motion_lengths for k in range(steps)]


def _aligned(real: Grey, expected: Grey, inside: npt.NDArray[np.bool_], p: CoveredParams) -> Grey:
    """``real`` (the frame's print around a named card) moved onto ``expected`` (its template laid
    onto the card's outline) by the affine map that makes the two correlate best (OpenCV's ECC):
    an outline a few pixels off shows the print smeared against the template, as a motion would
    (a 2H whose outline lay 4 px off at one corner fitted best smeared 7 px in a sharp frame).
    ``real`` as it is when the alignment fails or moves a corner more than ``motion_align_px``."""
    if p.motion_align_px <= 0:
        return real
    warp = np.eye(2, 3, dtype=np.float32)
    criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, p.motion_align_steps, 1e-4)
    try:
        _, fitted = cv2.findTransformECC(
            expected, real, warp, cv2.MOTION_AFFINE, criteria, inside.astype(np.uint8), 5
        )
    except cv2.error:
        return real
    warp = np.asarray(fitted, np.float32)
    height, width = real.shape
    box = np.array([[0, 0, 1], [width, 0, 1], [width, height, 1], [0, height, 1]], np.float32)
    if float(np.abs(box @ warp.T - box[:, :2]).max()) > p.motion_align_px:
        return real
    moved = cv2.warpAffine(real, warp, (width, height), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    return np.asarray(moved, np.float32)


@dataclass(frozen=True)
class _Laid:
    """A named card's template laid onto its outline: the frame's print around it and the
    template's (both high-passed, ``motion_highpass``) and the card's inside, away from its
    edges by the longest line tried."""

    real: Grey
    expected: Grey
    inside: npt.NDArray[np.bool_]


def _laid(frame: Image, quad: FloatArray, face: Image, pad: int, p: CoveredParams) -> _Laid | None:
    """``face`` (the card's template) laid onto ``quad`` (frame pixels) in ``frame``; ``None`` when
    the card reaches past the frame or its inside is too small to measure."""
    x0, y0 = (np.floor(quad.min(axis=0)).astype(int) - pad).tolist()
    x1, y1 = (np.ceil(quad.max(axis=0)).astype(int) + pad).tolist()
    height, width = frame.shape[:2]
    if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
        return None
    size = (x1 - x0, y1 - y0)
    face_h, face_w = face.shape[:2]
    corners = np.array([[0, 0], [face_w, 0], [face_w, face_h], [0, face_h]], np.float32)
    matrix = cv2.getPerspectiveTransform(corners, (quad - (x0, y0)).astype(np.float32))
    plain = np.asarray(cv2.cvtColor(face, cv2.COLOR_BGR2GRAY), np.float32)
    expected = np.asarray(cv2.warpPerspective(plain, matrix, size, flags=cv2.INTER_LINEAR), np.float32)
    card = cv2.warpPerspective(np.ones((face_h, face_w), np.uint8), matrix, size, flags=cv2.INTER_NEAREST)
    inside = np.asarray(cv2.erode(card, np.ones((2 * pad + 1, 2 * pad + 1), np.uint8)), np.bool_)
    if int(inside.sum()) < 100:
        return None
    around = frame[y0:y1, x0:x1]
    grey = np.asarray(cv2.cvtColor(around, cv2.COLOR_BGR2GRAY) if around.ndim == 3 else around, np.float32)
    real = _highpass(grey, p.motion_highpass)
    return _Laid(real, _highpass(expected, p.motion_highpass), inside)


def _correlation(real: FloatArray, seen: Grey, inside: npt.NDArray[np.bool_]) -> float:
    """Normalised correlation of ``real`` (values inside, less their mean) with ``seen`` there."""
    values = seen[inside]
    values = values - values.mean()
    norm = float(np.linalg.norm(real)) * float(np.linalg.norm(values))
    return float(real @ values) / norm if norm > 0 else 0.0


def _centred(laid: _Laid) -> FloatArray:
    values = np.asarray(laid.real[laid.inside], np.float64)
    centred: FloatArray = values - values.mean()
    return centred


def _fits(laid: _Laid, bank: list[tuple[float, float, float]], p: CoveredParams) -> FloatArray:
    """Per smear of ``bank``, how well the frame's print correlates with the template laid on,
    smeared so, once the print is moved onto the template (``_aligned``)."""
    shown = _aligned(laid.real, laid.expected, laid.inside, p)
    real = np.asarray(shown[laid.inside], np.float64)
    real -= real.mean()
    expected = laid.expected
    if p.motion_defocus > 0:
        expected = np.asarray(cv2.GaussianBlur(expected, (0, 0), p.motion_defocus), np.float32)
    fits = np.empty(len(bank))
    for k, (length, angle, soft) in enumerate(bank):
        if length > 0:
            smeared = cv2.filter2D(expected, -1, line_kernel(length, angle))
        else:
            smeared = expected if soft <= 0 else cv2.GaussianBlur(expected, (0, 0), soft)
        fits[k] = _correlation(real, np.asarray(smeared, np.float32), laid.inside)
    return fits


def estimate_motion(
    frame: Image, known: Sequence[tuple[FloatArray, Card]], templates: Templates, p: CoveredParams
) -> Motion | None:
    """The frame's motion blur as the cards ``known`` (outline in frame pixels, TL TR BR BL, and
    the card named there; the first ``motion_cards`` that lie inside the frame and whose print
    fits their template unsmeared by ``motion_min_fit``) show it, or ``None``: no card to
    measure on, or no line fits ``motion_min_gain`` better than none."""
    bank = _bank(p)
    pad = max(3, math.ceil(max(length for length, _, _ in bank)))
    total = np.zeros(len(bank))
    used = 0
    for quad, card in known:
        if used >= p.motion_cards:
            break
        faces = templates.faces.get(card)
        if not faces:
            continue
        quad = np.asarray(quad, np.float64)
        # the outline may start at either index corner: the print is laid on the way it fits
        ways = [_laid(frame, q, faces[0], pad, p) for q in (quad, np.roll(quad, 2, axis=0))]
        laid = [way for way in ways if way is not None]
        if not laid:
            continue
        best_way = max(laid, key=lambda way: _correlation(_centred(way), way.expected, way.inside))
        fit = _fits(best_way, bank, p)
        if float(fit[0]) < p.motion_min_fit:
            continue  # the print does not match the card named there well: no measure of blur
        total += fit
        used += 1
    return _best_line(total / used, bank, p) if used else None


def estimate_motion_blind(
    frame: Image,
    outlines: Sequence[tuple[FloatArray, Sequence[Card]]],
    templates: Templates,
    p: CoveredParams,
) -> Motion | None:
    """The frame's motion blur as cards found whole but named by nothing show it, or ``None``.

    ``outlines`` are such cards (outline in frame pixels, TL TR BR BL) with the cards they may be
    (the identifier's first and runner-up).  A whole face tells its card by its layout even
    smeared (a 2 from a 3 by its pips, where the small index no longer tells them): each
    candidate's template is laid on the outline, either way round, and the smear of the bank it
    fits best found (``_fits``); the outline's fits are those of the candidate fitting best, kept
    when that reaches ``motion_blind_fit``.  The first ``motion_cards`` outlines kept (largest
    first; at most twice as many tried) give the blur as ``estimate_motion`` does: the best line,
    when it fits ``motion_min_gain`` better than no motion."""
    bank = _bank(p)
    pad = max(3, math.ceil(max(length for length, _, _ in bank)))
    total = np.zeros(len(bank))
    used = 0
    tried = 0
    for quad, cards in sorted(
        outlines, key=lambda item: -abs(float(cv2.contourArea(item[0].astype(np.float32))))
    ):
        if used >= p.motion_cards or tried >= 2 * p.motion_cards:
            break  # a few fitting outlines give the blur; many that do not cost time for nothing
        tried += 1
        quad = np.asarray(quad, np.float64)
        best: FloatArray | None = None
        for card in dict.fromkeys(cards):
            faces = templates.faces.get(card)
            if not faces:
                continue
            for way in (quad, np.roll(quad, 2, axis=0)):
                laid = _laid(frame, way, faces[0], pad, p)
                if laid is None:
                    continue
                fit = _fits(laid, bank, p)
                if best is None or float(fit.max()) > float(best.max()):
                    best = fit
        if best is None or float(best.max()) < p.motion_blind_fit:
            continue
        total += best
        used += 1
    return _best_line(total / used, bank, p) if used else None


def _best_line(fits: FloatArray, bank: list[tuple[float, float, float]], p: CoveredParams) -> Motion | None:
    """The line of ``bank`` whose smear the cards' print fits best (``fits``, averaged over the
    cards), when it fits ``motion_min_gain`` better than every no-motion alternative; else ``None``."""
    still = 1 + len(p.motion_soft)
    line = still + int(np.argmax(fits[still:]))
    gain = float(fits[line] - fits[:still].max())
    if gain < p.motion_min_gain:
        return None
    length, angle, _ = bank[line]
    return Motion(length, angle, gain)


def canonical_line(
    quad: FloatArray, motion: Motion, card_size: tuple[int, int], step: float
) -> tuple[int, int]:
    """``motion``'s line as the card ``quad`` (frame pixels, TL TR BR BL) shows it cut out to
    ``card_size`` (width, height) canonical pixels: its length (whole pixels) and its angle (the
    nearest multiple of ``step`` degrees, 0 to 180)."""
    width, height = card_size
    source = np.asarray(quad[[0, 1, 3]], np.float32)
    target = np.array([[0, 0], [width, 0], [0, height]], np.float32)
    linear = cv2.getAffineTransform(source, target)[:, :2]
    turn = math.radians(motion.angle)
    dx, dy = linear @ np.array([math.cos(turn), math.sin(turn)]) * motion.length
    length = max(1, round(math.hypot(dx, dy)))
    angle = round(math.degrees(math.atan2(dy, dx)) % 180.0 / step) * step % 180.0
    return length, round(angle)


def motion_templates(templates: Templates, line: tuple[int, int], part: float = 1.0) -> Templates:
    """``templates`` with the top-left ``part`` of every image (that fraction of its width and
    height, where a corner read looks: ``CoveredParams.patch``) smeared by ``line`` (length, angle
    in canonical pixels and degrees, ``canonical_line``); the last few sets made are kept with
    ``templates``."""
    kept = templates.cache.get("motion-templates")
    if not isinstance(kept, OrderedDict):
        kept = templates.cache["motion-templates"] = OrderedDict()
    key = (line, part)
    found = kept.get(key)
    if isinstance(found, Templates):
        kept.move_to_end(key)
        return found
    kernel = line_kernel(*line)

    def smeared_part(image: Image) -> Image:
        height, width = image.shape[:2]
        reach = kernel.shape[0]  # beyond the part: its smear takes in what lies just past it
        rows, cols = (
            min(height, math.ceil(height * part) + reach),
            min(width, math.ceil(width * part) + reach),
        )
        out = image.copy()
        out[:rows, :cols] = cv2.filter2D(image[:rows, :cols], -1, kernel, borderType=cv2.BORDER_REPLICATE)
        return out

    faces = {card: tuple(smeared_part(image) for image in images) for card, images in templates.faces.items()}
    smeared = Templates(
        templates.deck, faces, source=f"{templates.source} (smeared {line[0]} px at {line[1]} deg)"
    )
    kept[key] = smeared
    while len(kept) > _KEPT:
        kept.popitem(last=False)
    return smeared
