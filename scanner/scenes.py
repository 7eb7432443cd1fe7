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
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from scanner import faces
from scanner import scenes_paint as paint
from scanner.scenes_paint import TableKind
from scanner.types import Image, Point, Quad
from scorer.cards import Card

__all__ = [
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

CARD_ASPECT = 63.0 / 88.0
"""Card width over card height."""
_OVERLAP_TOLERANCE = 0.99
"""Share of an index box's pixels that must be visible for the index to count as visible."""
_HAND_ID = -2


@dataclass(frozen=True)
class Table:
    """The table surface; ``seed`` fixes its texture."""

    kind: TableKind = TableKind.FELT_GREEN
    seed: int = 0


@dataclass(frozen=True)
class Camera:
    """The camera's pose over the table.

    ``tilt_deg`` off vertical toward the image direction ``tilt_azimuth_deg``,
    ``roll_deg`` about the optical axis, ``focal_px`` the focal length in pixels.
    """

    tilt_deg: float = 0.0
    tilt_azimuth_deg: float = 0.0
    roll_deg: float = 0.0
    focal_px: float = 1000.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.tilt_deg <= 45.0:
            raise ValueError(f"Camera.tilt_deg must be 0..45, got {self.tilt_deg!r}")
        if self.focal_px <= 0:
            raise ValueError(f"Camera.focal_px must be positive, got {self.focal_px!r}")


@dataclass(frozen=True)
class Glare:
    """A lamp's reflection: an elliptic spot in image pixels washing toward white."""

    centre: Point
    radii: tuple[float, float]
    angle_deg: float = 0.0
    strength: float = 0.6


@dataclass(frozen=True)
class Lighting:
    """Room light: overall brightness, a gradient, a darker rim, white balance, glare and shadows.

    ``white_balance`` multiplies B, G, R; ``shadow_offset`` is how far (table
    pixels) a card's shadow falls from it, ``shadow_blur`` its softness and
    ``shadow_strength`` how dark it is (0..1).
    """

    brightness: float = 1.0
    gradient: float = 0.0
    gradient_deg: float = 0.0
    vignette: float = 0.15
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    glare: tuple[Glare, ...] = ()
    shadow_offset: tuple[float, float] = (3.0, 4.0)
    shadow_blur: float = 4.0
    shadow_strength: float = 0.35


@dataclass(frozen=True)
class Imaging:
    """The camera's imaging chain: defocus and motion blur, sensor noise, JPEG (``None``: no JPEG)."""

    defocus: float = 0.7
    motion_px: float = 0.0
    motion_deg: float = 0.0
    read_noise: float = 2.0
    shot_noise: float = 4.0
    jpeg_quality: int | None = None

    def __post_init__(self) -> None:
        if self.defocus < 0 or self.motion_px < 0 or self.read_noise < 0 or self.shot_noise < 0:
            raise ValueError(f"Imaging values must not be negative, got {self!r}")
        if self.jpeg_quality is not None and not 1 <= self.jpeg_quality <= 100:
            raise ValueError(f"Imaging.jpeg_quality must be 1..100 or None, got {self.jpeg_quality!r}")


@dataclass(frozen=True)
class PlacedCard:
    """A card lying face up at ``centre`` (table pixels), turned ``angle_deg`` clockwise.

    ``group`` names the layout it belongs to (``single``, ``pile``, ``fan``,
    ``trick``, ``hand``) and ``seat`` the seat it was placed for, if any.
    ``tone`` scales the paper's brightness (a card slightly bent toward or away
    from the light).
    """

    card: Card
    centre: Point
    angle_deg: float = 0.0
    group: str = "single"
    seat: int | None = None
    tone: float = 1.0


@dataclass(frozen=True)
class Arm:
    """An arm reaching in from ``start`` (usually beyond the frame) to a hand at ``end`` (table pixels)."""

    start: Point
    end: Point
    width: float = 110.0
    skin: tuple[int, int, int] = (120, 150, 200)
    sleeve: tuple[int, int, int] | None = None


@dataclass(frozen=True)
class Scene:
    """A table scene: cards in z-order (the last lies on top) and arms above them all.

    ``card_px`` is the length of a card's long side in table pixels.
    """

    cards: tuple[PlacedCard, ...] = ()
    arms: tuple[Arm, ...] = ()
    table: Table = field(default_factory=Table)
    camera: Camera = field(default_factory=Camera)
    lighting: Lighting = field(default_factory=Lighting)
    imaging: Imaging = field(default_factory=Imaging)
    card_px: float = 170.0
    width: int = 1280
    height: int = 720

    def __post_init__(self) -> None:
        if self.width < 64 or self.height < 64:
            raise ValueError(f"Scene size must be at least 64x64, got {self.width}x{self.height}")
        if not 56 <= self.card_px <= 2000:
            raise ValueError(f"Scene.card_px must be 56..2000, got {self.card_px!r}")

    def with_card(self, card: PlacedCard) -> Scene:
        """The same scene with ``card`` laid on top of everything."""
        return replace(self, cards=(*self.cards, card))

    def with_arms(self, *arms: Arm) -> Scene:
        """The same scene with exactly these arms in view."""
        return replace(self, arms=tuple(arms))

    def homography(self) -> np.ndarray:
        """The 3x3 matrix mapping table pixels to image pixels."""
        return _homography(self.camera, self.width, self.height)


@dataclass(frozen=True)
class CardTruth:
    """What the renderer knows about one card in the image (see the module docstring)."""

    card: Card
    corners: Quad
    z: int
    top: bool
    visible_fraction: float
    index_visible: tuple[bool, bool]
    group: str
    seat: int | None

    @property
    def identifiable(self) -> bool:
        """At least one corner index is entirely visible."""
        return any(self.index_visible)


@dataclass(frozen=True)
class SceneTruth:
    """Every card of a rendered scene, in z-order, and the table-to-image homography."""

    cards: tuple[CardTruth, ...]
    homography: tuple[tuple[float, float, float], ...]
    card_px: float


def _homography(camera: Camera, width: int, height: int) -> np.ndarray:
    """Table pixels to image pixels for a camera that orbits the table point under the image centre.

    With no tilt the camera hangs ``focal_px`` above the table and the map is the
    identity; a tilt swings it round that point, still looking at it.
    """
    f = camera.focal_px
    k = np.array([[f, 0, width / 2.0], [0, f, height / 2.0], [0, 0, 1]], dtype=np.float64)
    look = np.array([width / 2.0, height / 2.0, 0.0])
    r0 = np.diag([1.0, 1.0, -1.0])  # camera x, y along the table's; the camera looks down
    a = math.radians(camera.tilt_azimuth_deg)
    axis = np.array([-math.sin(a), math.cos(a), 0.0]) * math.radians(camera.tilt_deg)
    swing, _ = cv2.Rodrigues(axis)
    roll, _ = cv2.Rodrigues(np.array([0.0, 0.0, math.radians(camera.roll_deg)]))
    rot = roll @ r0 @ swing.T
    centre = look + swing @ np.array([0.0, 0.0, f])
    h = k @ np.column_stack([rot[:, 0], rot[:, 1], -rot @ centre])
    out: np.ndarray = h / h[2, 2]
    return out


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
