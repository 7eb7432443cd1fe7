"""Rendered table scenes with known truth: the scanner's test bench.

A ``Scene`` describes a table as the camera sees it: the surface, the camera's
pose, the light, the imaging chain, the cards lying on the table (in z-order,
the last on top) and any arms reaching in. ``render(scene, rng)`` paints it and
returns the image (BGR uint8, ``scene.width x scene.height``) and a
``SceneTruth`` saying where every card is and what of it can be seen.

Coordinates. Cards and hands are placed in *table* coordinates: pixels of the
image a camera looking straight down would take (so with ``Camera()`` at its
defaults the table coordinates are the image's). The camera may be tilted off
vertical (``tilt_deg`` up to about 20°) and rolled; the truth gives every card's
corners in the final image. A card's ``angle_deg`` turns it about its centre,
clockwise as seen in the image (0: upright, its top edge toward the top of the
image; 90: its top toward the right; 180: upside down).

The surface, the light and the placement depend only on the scene; the ``rng``
passed to ``render`` drives only the sensor noise, so rendering a scene frame by
frame (``scene.with_card(...)``) keeps the table still while the noise changes,
as a camera does.

Truth per card (``CardTruth``): the label, the image corners TL, TR, BR, BL of
the upright face, the z-order, ``top`` (no other card lies over any part of
it), ``visible_fraction`` (of its area, inside the frame and not covered by a
card or an arm), ``index_visible`` (top-left, bottom-right corner index boxes of
``scanner.faces.INDEX_BOX`` entirely visible), ``identifiable`` (at least one of
them visible), and the layout ``group`` and ``seat`` it was placed by.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from scanner import faces
from scanner import scenes_paint as paint
from scanner.scenes_model import (
    CARD_ASPECT,
    Arm,
    Camera,
    CardTruth,
    Glare,
    Imaging,
    Lighting,
    PlacedCard,
    Scene,
    SceneTruth,
    Table,
)
from scanner.scenes_paint import TableKind
from scanner.types import Image

__all__ = [
    "CARD_ASPECT",
    "Arm",
    "Camera",
    "CardTruth",
    "Glare",
    "Imaging",
    "Lighting",
    "PlacedCard",
    "Scene",
    "SceneTruth",
    "Table",
    "TableKind",
    "render",
]

_OVERLAP_TOLERANCE = 0.99
"""Share of an index box's pixels that must be visible for the index to count as visible."""
_HAND_ID = -2


def _card_corners(placed: PlacedCard, card_px: float) -> np.ndarray:
    """TL, TR, BR, BL of the card in table pixels (4 x 2)."""
    w, h = card_px * CARD_ASPECT, card_px
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    t = math.radians(placed.angle_deg)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    out: np.ndarray = local @ rot.T + np.array(placed.centre)
    return out


def _face_to_table(placed: PlacedCard, card_px: float, fw: int, fh: int) -> np.ndarray:
    """The 2x3 affine map from face pixels (``fw x fh``) to table pixels."""
    src = np.array([[0, 0], [fw, 0], [fw, fh]], dtype=np.float32)
    dst = _card_corners(placed, card_px)[:3].astype(np.float32)
    out: np.ndarray = cv2.getAffineTransform(src, dst)
    return out


def _index_polys(placed: PlacedCard, card_px: float) -> list[np.ndarray]:
    """The top-left and bottom-right index boxes of the card as table-pixel polygons."""
    x0, y0, x1, y1 = faces.INDEX_BOX
    boxes = [(x0, y0, x1, y1), (1 - x1, 1 - y1, 1 - x0, 1 - y0)]
    corners = _card_corners(placed, card_px)
    tl, tr, bl = corners[0], corners[1], corners[3]
    ex, ey = tr - tl, bl - tl
    out = []
    for bx0, by0, bx1, by1 in boxes:
        pts = [tl + ex * u + ey * v for u, v in ((bx0, by0), (bx1, by0), (bx1, by1), (bx0, by1))]
        out.append(np.array(pts))
    return out


def _canvas_bounds(h: np.ndarray, width: int, height: int) -> tuple[int, int, int, int]:
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float64)
    table = cv2.perspectiveTransform(corners[None], np.linalg.inv(h))[0]
    x0 = max(math.floor(table[:, 0].min()) - 8, -width)
    y0 = max(math.floor(table[:, 1].min()) - 8, -height)
    x1 = min(math.ceil(table[:, 0].max()) + 8, 2 * width)
    y1 = min(math.ceil(table[:, 1].max()) + 8, 2 * height)
    return x0, y0, x1, y1


def render(scene: Scene, rng: np.random.Generator) -> tuple[Image, SceneTruth]:
    """Paint ``scene``; returns the BGR uint8 image and its truth.

    Raises:
        ValueError: a value of the scene is out of range (from the scene's parts).
    """
    h_img = scene.homography()
    cx0, cy0, cx1, cy1 = _canvas_bounds(h_img, scene.width, scene.height)
    cw, ch = cx1 - cx0, cy1 - cy0
    shift = np.array([[1, 0, -cx0], [0, 1, -cy0]], dtype=np.float64)
    canvas = paint.table_texture(scene.table.kind, scene.table.seed, cw, ch)
    ids = np.full((ch, cw), -1, dtype=np.int16)
    gloss = np.full((ch, cw), paint.GLOSS[scene.table.kind], dtype=np.float32)
    light = scene.lighting
    fh = max(56, round(scene.card_px))
    fw = max(40, round(scene.card_px * CARD_ASPECT))
    masks: list[tuple[int, int, np.ndarray, bool]] = []
    for z, placed in enumerate(scene.cards):
        affine = _face_to_table(placed, scene.card_px, fw, fh)
        affine[:, 2] += shift[:, 2]
        corners = cv2.transform(np.array([[[0, 0], [fw, 0], [fw, fh], [0, fh]]], dtype=np.float64), affine)[0]
        ux0, uy0 = math.floor(corners[:, 0].min()) - 1, math.floor(corners[:, 1].min()) - 1
        ux1, uy1 = math.ceil(corners[:, 0].max()) + 2, math.ceil(corners[:, 1].max()) + 2
        rx0, ry0, rx1, ry1 = max(0, ux0), max(0, uy0), min(cw, ux1), min(ch, uy1)
        clipped = (rx0, ry0, rx1, ry1) != (ux0, uy0, ux1, uy1)
        if rx0 >= rx1 or ry0 >= ry1:
            masks.append((0, 0, np.zeros((0, 0), dtype=np.uint8), True))
            continue
        local = affine.copy()
        local[:, 2] -= (rx0, ry0)
        size = (rx1 - rx0, ry1 - ry0)
        face = cv2.warpAffine(faces.render_face(placed.card, fw, fh), local, size, flags=cv2.INTER_LINEAR)
        mask = np.asarray(cv2.warpAffine(faces.card_mask(fw, fh), local, size), dtype=np.uint8)
        paint.cast_shadow(
            canvas, mask, rx0, ry0, light.shadow_offset, light.shadow_blur, light.shadow_strength
        )
        alpha = mask.astype(np.float32)[:, :, None] / 255.0
        # the card's edge shows as a thin darker rim
        edge = cv2.GaussianBlur(mask, (0, 0), 0.8).astype(np.float32) / 255.0
        rim = 0.82 + 0.18 * np.clip((edge - 0.5) * 2.0, 0, 1)
        region = canvas[ry0:ry1, rx0:rx1]
        paper = face.astype(np.float32) * placed.tone * rim[:, :, None]
        region[:] = region * (1 - alpha) + paper * alpha
        ids[ry0:ry1, rx0:rx1][mask > 127] = z
        gloss[ry0:ry1, rx0:rx1][mask > 127] = 1.0
        masks.append((rx0, ry0, mask, clipped))
    for arm in scene.arms:
        arm_mask = paint.paint_arm(
            canvas,
            (arm.start[0] - cx0, arm.start[1] - cy0),
            (arm.end[0] - cx0, arm.end[1] - cy0),
            arm.width,
            arm.skin,
            arm.sleeve,
            light.shadow_offset,
        )
        ids[arm_mask > 127] = _HAND_ID
        gloss[arm_mask > 127] = 0.3
    canvas_to_image = h_img @ np.array([[1, 0, cx0], [0, 1, cy0], [0, 0, 1]], dtype=np.float64)
    image = np.asarray(
        cv2.warpPerspective(canvas, canvas_to_image, (scene.width, scene.height), flags=cv2.INTER_LINEAR),
        dtype=np.float32,
    )
    gloss_image = np.asarray(
        cv2.warpPerspective(gloss, canvas_to_image, (scene.width, scene.height)), dtype=np.float32
    )
    in_frame = cv2.warpPerspective(
        np.ones((scene.height, scene.width), dtype=np.uint8),
        np.linalg.inv(canvas_to_image),
        (cw, ch),
        flags=cv2.INTER_NEAREST,
    )
    image *= paint.light_field(
        scene.width, scene.height, light.gradient, light.gradient_deg, light.vignette, light.brightness
    )[:, :, None]
    image *= np.array(light.white_balance, dtype=np.float32)[None, None, :]
    for g in light.glare:
        paint.add_glare(image, g.centre, g.radii, g.angle_deg, g.strength, gloss_image)
    im = scene.imaging
    image = paint.blur(image, im.defocus, im.motion_px, im.motion_deg)
    paint.sensor_noise(image, rng, im.read_noise, im.shot_noise)
    out = np.clip(image + 0.5, 0, 255).astype(np.uint8)
    if im.jpeg_quality is not None:
        out = paint.jpeg_roundtrip(out, im.jpeg_quality)
    truth = _truth(scene, masks, ids, in_frame, cx0, cy0, h_img)
    return out, truth


def _truth(
    scene: Scene,
    masks: list[tuple[int, int, np.ndarray, bool]],
    ids: np.ndarray,
    in_frame: np.ndarray,
    cx0: int,
    cy0: int,
    h_img: np.ndarray,
) -> SceneTruth:
    ch, cw = ids.shape
    fh = max(56, round(scene.card_px))
    fw = max(40, round(scene.card_px * CARD_ASPECT))
    # a card's whole area in table pixels, for cards reaching past the painted canvas
    whole_area = float((faces.card_mask(fw, fh) > 127).sum()) * scene.card_px**2 * CARD_ASPECT / (fw * fh)
    visible_ids = np.where(in_frame > 0, ids, -3)
    cards: list[CardTruth] = []
    for z, placed in enumerate(scene.cards):
        rx0, ry0, mask, clipped = masks[z]
        own = mask > 127
        area = max(float(own.sum()), whole_area) if clipped else float(own.sum())
        if area == 0:
            fraction, covered = 0.0, False
        else:
            region_ids = ids[ry0 : ry0 + mask.shape[0], rx0 : rx0 + mask.shape[1]]
            region_vis = visible_ids[ry0 : ry0 + mask.shape[0], rx0 : rx0 + mask.shape[1]]
            fraction = min(1.0, float((region_vis[own] == z).sum()) / area)
            covered = bool((region_ids[own] > z).any())
        index_visible = []
        for poly in _index_polys(placed, scene.card_px):
            pts = (poly - (cx0, cy0)).round().astype(np.int32)
            bx0, by0 = np.maximum(pts.min(axis=0), 0)
            bx1, by1 = np.minimum(pts.max(axis=0) + 1, (cw, ch))
            if bx0 >= bx1 or by0 >= by1:
                index_visible.append(False)
                continue
            box = np.zeros((by1 - by0, bx1 - bx0), dtype=np.uint8)
            cv2.fillPoly(box, [pts - (bx0, by0)], 1)
            inside = box > 0
            n = int(inside.sum())
            whole = n >= 0.9 * cv2.contourArea(pts.astype(np.float32))
            seen = float((visible_ids[by0:by1, bx0:bx1][inside] == z).sum()) / max(1, n)
            index_visible.append(n > 0 and whole and seen >= _OVERLAP_TOLERANCE)
        corners_img = cv2.perspectiveTransform(_card_corners(placed, scene.card_px)[None], h_img)[0]
        quad = tuple((float(x), float(y)) for x, y in corners_img)
        cards.append(
            CardTruth(
                card=placed.card,
                corners=(quad[0], quad[1], quad[2], quad[3]),
                z=z,
                top=not covered,
                visible_fraction=round(fraction, 4),
                index_visible=(index_visible[0], index_visible[1]),
                group=placed.group,
                seat=placed.seat,
            )
        )
    hom = tuple((float(row[0]), float(row[1]), float(row[2])) for row in h_img)
    return SceneTruth(cards=tuple(cards), homography=hom, card_px=scene.card_px)
