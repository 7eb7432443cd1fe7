"""Pixel painters for the scene renderer: table surfaces, arms and hands, light and camera effects.

Everything here works on float32 BGR images (0..255) or uint8 masks and is
deterministic for a given seed or ``numpy.random.Generator``. The scene model
and the compositing order live in ``scanner.scenes``.
"""

from __future__ import annotations

import enum
import functools
import math

import cv2
import numpy as np
import numpy.typing as npt

FloatImage = npt.NDArray[np.float32]
Mask = npt.NDArray[np.uint8]
BGR = tuple[int, int, int]


class TableKind(enum.Enum):
    """The table surfaces the renderer can draw."""

    FELT_GREEN = "felt-green"
    FELT_BLUE = "felt-blue"
    WOOD = "wood"
    GREY = "grey"


GLOSS: dict[TableKind, float] = {
    TableKind.FELT_GREEN: 0.12,
    TableKind.FELT_BLUE: 0.12,
    TableKind.WOOD: 0.55,
    TableKind.GREY: 0.35,
}
"""How strongly each surface reflects a lamp, relative to a glossy card (1.0)."""

_BASE: dict[TableKind, BGR] = {
    TableKind.FELT_GREEN: (58, 98, 34),
    TableKind.FELT_BLUE: (104, 62, 26),
    TableKind.WOOD: (120, 168, 206),
    TableKind.GREY: (132, 132, 128),
}


def _smooth_noise(
    rng: np.random.Generator, width: int, height: int, cell: float, cell_y: float | None = None
) -> FloatImage:
    """Value noise of unit spread with features about ``cell`` (and ``cell_y`` tall) pixels wide."""
    cy = cell if cell_y is None else cell_y
    gw = max(2, math.ceil(width / cell) + 2)
    gh = max(2, math.ceil(height / cy) + 2)
    grid = rng.normal(0.0, 1.0, (gh, gw)).astype(np.float32)
    big = cv2.resize(grid, (round(gw * cell), round(gh * cy)), interpolation=cv2.INTER_CUBIC)
    out: FloatImage = np.ascontiguousarray(big[:height, :width], dtype=np.float32)
    return out


def _line_kernel(length: int, angle_deg: float) -> FloatImage:
    size = max(3, length | 1)
    kernel = np.zeros((size, size), dtype=np.float32)
    c = size // 2
    dx = math.cos(math.radians(angle_deg)) * c
    dy = math.sin(math.radians(angle_deg)) * c
    cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1, cv2.LINE_AA)
    total = float(kernel.sum())
    out: FloatImage = kernel / total if total > 0 else kernel
    return out


def table_texture(kind: TableKind, seed: int, width: int, height: int) -> FloatImage:
    """A ``height x width`` surface of the given kind; the same seed always gives the same surface.

    The last few surfaces are kept, so frames of one table cost the texture once;
    each call returns a fresh copy.
    """
    return _table_texture(kind, seed, width, height).copy()


@functools.lru_cache(maxsize=3)
def _table_texture(kind: TableKind, seed: int, width: int, height: int) -> FloatImage:
    rng = np.random.default_rng(seed)
    base = np.array(_BASE[kind], dtype=np.float32) * rng.uniform(0.85, 1.15)
    shade = np.zeros((height, width), dtype=np.float32)
    if kind in (TableKind.FELT_GREEN, TableKind.FELT_BLUE):
        shade += 0.05 * _smooth_noise(rng, width, height, 90.0)
        for _ in range(3):
            fibres = rng.normal(0.0, 1.0, (height, width)).astype(np.float32)
            kernel = _line_kernel(int(rng.integers(5, 11)), float(rng.uniform(0, 180)))
            shade += 0.16 * cv2.filter2D(fibres, -1, kernel)
        shade += 0.04 * rng.normal(0.0, 1.0, (height, width)).astype(np.float32)
        image = base[None, None, :] * (1.0 + shade[:, :, None])
    elif kind is TableKind.WOOD:
        image = np.empty((height, width, 3), dtype=np.float32)
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        warp = 22.0 * _smooth_noise(rng, width, height, 420.0, 90.0) + 4.0 * _smooth_noise(
            rng, width, height, 120.0, 12.0
        )
        plank = float(rng.uniform(150, 240))
        offset = float(rng.uniform(0, plank))
        plank_index = np.floor((ys + offset) / plank)
        period = float(rng.uniform(7, 13))
        phase = (plank_index * 7.31) % (2 * math.pi)
        grain = np.sin(2 * math.pi * (ys + warp + 0.02 * xs) / period + phase)
        streak = np.clip(grain, 0.3, 1.0) - 0.3
        fine = _smooth_noise(rng, width, height, 60.0, 1.5)
        shade = -0.13 * streak + 0.03 * fine + 0.03 * _smooth_noise(rng, width, height, 300.0, 60.0)
        plank_tone = 0.08 * np.sin(plank_index * 12.9898 + seed % 1000)
        shade += plank_tone.astype(np.float32)
        seam = np.abs(((ys + offset) % plank) - 0.0) < 1.6
        shade[seam] -= 0.35
        shade += 0.02 * rng.normal(0.0, 1.0, (height, width)).astype(np.float32)
        image[:] = base[None, None, :] * (1.0 + shade[:, :, None])
    else:
        shade += 0.03 * _smooth_noise(rng, width, height, 200.0)
        shade += 0.025 * rng.normal(0.0, 1.0, (height, width)).astype(np.float32)
        image = base[None, None, :] * (1.0 + shade[:, :, None])
    out: FloatImage = np.clip(image, 0, 255).astype(np.float32)
    out.flags.writeable = False
    return out


def cast_shadow(
    canvas: FloatImage,
    mask: Mask,
    x0: int,
    y0: int,
    offset: tuple[float, float],
    blur: float,
    strength: float,
) -> None:
    """Darken ``canvas`` (in place) under ``mask`` placed at ``(x0, y0)``, moved by ``offset`` and blurred."""
    pad = round(3 * blur + max(abs(offset[0]), abs(offset[1]))) + 2
    h, w = mask.shape
    big = np.zeros((h + 2 * pad, w + 2 * pad), dtype=np.float32)
    big[pad : pad + h, pad : pad + w] = mask.astype(np.float32) / 255.0
    m = np.array([[1, 0, offset[0]], [0, 1, offset[1]]], dtype=np.float32)
    big = np.asarray(cv2.warpAffine(big, m, (big.shape[1], big.shape[0])), dtype=np.float32)
    if blur > 0:
        big = np.asarray(cv2.GaussianBlur(big, (0, 0), blur), dtype=np.float32)
    _multiply_region(canvas, (1.0 - strength * big).astype(np.float32), x0 - pad, y0 - pad)


def _multiply_region(canvas: FloatImage, factor: FloatImage, x0: int, y0: int) -> None:
    ch, cw = canvas.shape[:2]
    fh, fw = factor.shape
    ax0, ay0 = max(0, x0), max(0, y0)
    ax1, ay1 = min(cw, x0 + fw), min(ch, y0 + fh)
    if ax0 >= ax1 or ay0 >= ay1:
        return
    sub = factor[ay0 - y0 : ay1 - y0, ax0 - x0 : ax1 - x0]
    canvas[ay0:ay1, ax0:ax1] *= sub[:, :, None]


def paint_arm(
    canvas: FloatImage,
    start: tuple[float, float],
    end: tuple[float, float],
    width: float,
    skin: BGR,
    sleeve: BGR | None,
    shadow_offset: tuple[float, float],
) -> Mask:
    """Paint an arm from ``start`` (usually beyond the frame edge) to a hand at ``end``; returns its mask.

    The arm tapers toward the wrist, ends in a palm with four fingers and a
    thumb, is shaded as a rounded body and casts a soft shadow. Only the part
    of the canvas the arm and its shadow can reach is worked on.
    """
    ch, cw = canvas.shape[:2]
    mask = np.zeros((ch, cw), dtype=np.uint8)
    margin = 3.6 * width + 5.0 * max(abs(shadow_offset[0]), abs(shadow_offset[1])) + 8.0
    x0 = max(0, math.floor(min(start[0], end[0]) - margin))
    y0 = max(0, math.floor(min(start[1], end[1]) - margin))
    x1 = min(cw, math.ceil(max(start[0], end[0]) + margin))
    y1 = min(ch, math.ceil(max(start[1], end[1]) + margin))
    if x0 >= x1 or y0 >= y1:
        return mask
    local = (start[0] - x0, start[1] - y0), (end[0] - x0, end[1] - y0)
    mask[y0:y1, x0:x1] = _paint_arm_here(
        canvas[y0:y1, x0:x1], local[0], local[1], width, skin, sleeve, shadow_offset
    )
    return mask


def _paint_arm_here(
    canvas: FloatImage,
    start: tuple[float, float],
    end: tuple[float, float],
    width: float,
    skin: BGR,
    sleeve: BGR | None,
    shadow_offset: tuple[float, float],
) -> Mask:
    h, w = canvas.shape[:2]
    mask = np.zeros((h, w), dtype=np.uint8)
    sx, sy = start
    ex, ey = end
    length = math.hypot(ex - sx, ey - sy)
    if length < 1:
        return mask
    ux, uy = (ex - sx) / length, (ey - sy) / length
    nx, ny = -uy, ux
    wrist = (ex - ux * width * 0.4, ey - uy * width * 0.4)
    pts = [
        (sx + nx * width * 0.6, sy + ny * width * 0.6),
        (wrist[0] + nx * width * 0.42, wrist[1] + ny * width * 0.42),
        (wrist[0] - nx * width * 0.42, wrist[1] - ny * width * 0.42),
        (sx - nx * width * 0.6, sy - ny * width * 0.6),
    ]
    cv2.fillPoly(mask, [np.array(pts, dtype=np.float32).round().astype(np.int32)], 255, cv2.LINE_AA)
    angle = math.degrees(math.atan2(uy, ux))
    cv2.ellipse(
        mask, (round(ex), round(ey)), (round(width * 0.62), round(width * 0.5)), angle, 0, 360, 255, -1
    )
    for k, spread in enumerate((-0.36, -0.12, 0.12, 0.36)):
        flen = width * (1.1 if k in (1, 2) else 0.9)
        bx = ex + ux * width * 0.4 + nx * spread * width
        by = ey + uy * width * 0.4 + ny * spread * width
        fx, fy = bx + ux * flen * 0.5, by + uy * flen * 0.5
        cv2.ellipse(
            mask, (round(fx), round(fy)), (round(flen * 0.55), round(width * 0.125)), angle, 0, 360, 255, -1
        )
    tx = ex + nx * width * 0.65 + ux * width * 0.2
    ty = ey + ny * width * 0.65 + uy * width * 0.2
    cv2.ellipse(
        mask, (round(tx), round(ty)), (round(width * 0.42), round(width * 0.13)), angle + 35, 0, 360, 255, -1
    )
    soft = np.asarray(cv2.GaussianBlur(mask, (0, 0), max(0.8, width * 0.02)), dtype=np.uint8)
    cast_shadow(canvas, soft, 0, 0, (shadow_offset[0] * 5, shadow_offset[1] * 5), width * 0.35, 0.45)
    dist = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 5)
    body = 0.62 + 0.38 * np.sqrt(np.clip(dist / max(1.0, width * 0.3), 0, 1))
    colour = np.empty((h, w, 3), dtype=np.float32)
    colour[:] = np.array(skin, dtype=np.float32)
    if sleeve is not None:
        # a sleeve covers the part of the arm nearest the frame edge
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        along = (xs - sx) * ux + (ys - sy) * uy
        colour[along < length * 0.45] = np.array(sleeve, dtype=np.float32)
    alpha = soft.astype(np.float32)[:, :, None] / 255.0
    canvas[:] = canvas * (1 - alpha) + colour * body[:, :, None] * alpha
    return mask


def light_field(
    width: int, height: int, gradient: float, direction_deg: float, vignette: float, brightness: float
) -> FloatImage:
    """A multiplicative light field: a linear gradient across the frame and a darker rim."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    cx, cy = width / 2.0, height / 2.0
    d = math.radians(direction_deg)
    along = ((xs - cx) * math.cos(d) + (ys - cy) * math.sin(d)) / max(width, height)
    r2 = ((xs - cx) ** 2 + (ys - cy) ** 2) / (cx * cx + cy * cy)
    out: FloatImage = (brightness * (1.0 + gradient * along) * (1.0 - vignette * r2)).astype(np.float32)
    return out


def add_glare(
    image: FloatImage,
    centre: tuple[float, float],
    radii: tuple[float, float],
    angle: float,
    strength: float,
    gloss: FloatImage,
) -> None:
    """Wash ``image`` (in place) toward white in a soft elliptic spot, as a lamp's reflection does.

    ``gloss`` (0..1 per pixel) says how shiny each surface is: glossy cards
    reflect the lamp fully, felt hardly at all.
    """
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    a = math.radians(angle)
    dx, dy = xs - centre[0], ys - centre[1]
    u = (dx * math.cos(a) + dy * math.sin(a)) / max(1.0, radii[0])
    v = (-dx * math.sin(a) + dy * math.cos(a)) / max(1.0, radii[1])
    g = strength * gloss * np.exp(-(u * u + v * v) * 2.0)
    image[:] = image + (255.0 - image) * g[:, :, None]


def blur(image: FloatImage, defocus: float, motion: float, motion_deg: float) -> FloatImage:
    """Defocus (Gaussian, sigma in pixels) then linear motion blur of ``motion`` pixels."""
    out = image
    if defocus > 0:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), defocus), dtype=np.float32)
    if motion >= 1.5:
        out = np.asarray(cv2.filter2D(out, -1, _line_kernel(round(motion), motion_deg)), dtype=np.float32)
    result: FloatImage = np.asarray(out, dtype=np.float32)
    return result


def sensor_noise(image: FloatImage, rng: np.random.Generator, read: float, shot: float) -> None:
    """Add read noise (constant sigma) and shot noise (growing with brightness), in place."""
    sigma = np.sqrt(read * read + shot * shot * np.clip(image, 0, 255) / 255.0)
    image += rng.normal(0.0, 1.0, image.shape).astype(np.float32) * sigma
    # a little colour noise shared by the three channels' neighbourhood, as a Bayer sensor shows
    chroma = rng.normal(0.0, read * 0.5, (image.shape[0] // 2 + 1, image.shape[1] // 2 + 1, 3)).astype(
        np.float32
    )
    image += cv2.resize(chroma, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_LINEAR)


def jpeg_roundtrip(image: npt.NDArray[np.uint8], quality: int) -> npt.NDArray[np.uint8]:
    """Encode and decode ``image`` as JPEG at ``quality`` (1..100).

    Raises:
        ValueError: the quality is outside 1..100 or the encoder failed.
    """
    if not 1 <= quality <= 100:
        raise ValueError(f"JPEG quality must be 1..100, got {quality!r}")
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError(f"JPEG encoding failed for an image of shape {image.shape}")
    out = np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), dtype=np.uint8)
    return out
