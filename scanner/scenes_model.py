"""The value types of a rendered table scene: what is on the table, the camera, the light, the truth.

See ``scanner.scenes`` for the coordinate conventions and ``render``; every type
here is re-exported there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from scanner.scenes_paint import TableKind
from scanner.types import Point, Quad
from scorer.cards import Card

CARD_ASPECT = 63.0 / 88.0
"""Card width over card height."""


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

    def __post_init__(self) -> None:
        if not 0.0 <= self.strength <= 1.0:
            raise ValueError(f"Glare.strength must be 0..1, got {self.strength!r}")
        if min(self.radii) <= 0:
            raise ValueError(f"Glare.radii must be positive, got {self.radii!r}")


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

    def __post_init__(self) -> None:
        if self.brightness <= 0:
            raise ValueError(f"Lighting.brightness must be positive, got {self.brightness!r}")
        if not 0.0 <= self.vignette < 1.0:
            raise ValueError(f"Lighting.vignette must be 0..1, got {self.vignette!r}")
        if not 0.0 <= self.shadow_strength <= 1.0:
            raise ValueError(f"Lighting.shadow_strength must be 0..1, got {self.shadow_strength!r}")
        if self.shadow_blur < 0:
            raise ValueError(f"Lighting.shadow_blur must not be negative, got {self.shadow_blur!r}")
        if min(self.white_balance) <= 0:
            raise ValueError(f"Lighting.white_balance gains must be positive, got {self.white_balance!r}")


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

    def __post_init__(self) -> None:
        if not 0.2 <= self.tone <= 1.5:
            raise ValueError(f"PlacedCard.tone must be 0.2..1.5, got {self.tone!r} for {self.card}")


@dataclass(frozen=True)
class Arm:
    """An arm reaching in from ``start`` (usually beyond the frame) to a hand at ``end`` (table pixels)."""

    start: Point
    end: Point
    width: float = 110.0
    skin: tuple[int, int, int] = (120, 150, 200)
    sleeve: tuple[int, int, int] | None = None

    def __post_init__(self) -> None:
        if self.width <= 0:
            raise ValueError(f"Arm.width must be positive, got {self.width!r}")


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
