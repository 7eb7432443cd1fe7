"""Every tunable number of the watcher, in one validated, frozen parameters object."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class WatcherParams:
    """How the watcher decides that the table is still, that a view is confirmed, and what changed.

    Motion and change are measured on a small grey copy of each frame (the
    frame halved while it stays at least ``small_width`` pixels wide, blurred by
    ``blur``): a pixel changed when its grey level differs by more than
    ``pixel_threshold``.

    Raises (on construction):
        ValueError: a field is out of range; the message names the field and the value.
    """

    small_width: int = 240
    """Least width in pixels of the grey copy used for motion and change (640 or 1280 wide: 320)."""
    blur: int = 3
    """Side of the box blur applied to the grey copy (1 = none)."""
    pixel_threshold: int = 20
    """Grey levels a pixel must change by to count as changed."""
    motion_fraction: float = 0.002
    """Fraction of pixels changed since the previous frame that makes a frame "moving"."""
    change_fraction: float = 0.003
    """Fraction of pixels changed since the last confirmed view that makes a view worth reading."""
    still_frames: int = 2
    """Frames without motion before a view is read."""
    confirm_frames: int = 2
    """Still frames read (scanned) and combined into one confirmed view."""
    max_confirm_frames: int = 6
    """While a card on top (not covered by another) is not identified, up to this many still frames
    are read (motion or a hand ends the reading early; what was read counts)."""
    track_fraction: float = 0.5
    """A card must be found in at least this fraction of the confirming frames."""
    track_iou: float = 0.7
    """Overlap (IoU) that ties a card in one frame to the same card in the next."""
    same_iou: float = 0.5
    """Overlap (IoU) above which a card of a new view is the same card as one of the last view."""
    twin_iou: float = 0.1
    """Overlap (IoU) above which a card of the same face in the last view is its twin: the same
    card, moved or not, or one just like it played on it."""
    still_iou: float = 0.95
    """Overlap (IoU) above which a card has not moved at all between two views."""
    uncovered_min: float = 0.05
    """Part of a card's area that must be uncovered to tell a nudge from a card played on its twin."""
    twin_margin: float = 0.05
    """The new card's outline grows by this fraction of its size when the part of its twin it leaves
    uncovered is measured (its edge and shadow are not the twin)."""
    ink_contrast: int = 20
    """Grey levels below the card's paper that make a pixel print (or rim) when a twin is judged."""
    min_ink_pixels: int = 8
    """Printed pixels needed in the uncovered part to judge by them (else all of it is judged)."""
    uncovered_changed_max: float = 0.35
    """Changed part of the uncovered area at or below which the card below is still there."""
    new_card_changed: float = 0.1
    """Part of a new pile card's outline that must have changed since the last view (a card laid
    there changes it; an outline the scanner placed a little differently over an unchanged pile
    does not)."""
    laid_changed: float = 0.3
    """When the scanner offers several new outlines on the pile: part of an outline's area outside
    the other new outlines that must have changed for it to count as laid now (the card played
    changes the table where it lies; an outline under it changes only where the card played covers
    it).  The top flag comes first, a trusted name after this.  Also: a named card marked covered,
    without a twin, over a card of the last view (read differently there, so taken for a
    misreading) is a new card when this part of its area outside every other outline of the view
    changed (the scanner's top flags the wrong way round)."""
    explain_margin: float = 0.15
    """Card outlines grow by this fraction of their size when they explain changed pixels."""
    hand_fraction: float = 0.01
    """Fraction of the image changed outside any card found, and not card paper, that means a hand
    (or another object) is in view."""
    paper_max_saturation: int = 60
    paper_min_value: int = 140
    """Card paper: HSV saturation at most, value at least (0..255)."""
    paper_share: float = 0.4
    """A changed region this much paper is a card the scanner missed, not a hand."""
    skin_fraction: float = 0.004
    """Fraction of the image that is skin-coloured and changed that means a hand is in view."""
    skin_cr_min: int = 138
    skin_cr_max: int = 173
    skin_cb_min: int = 80
    skin_cb_max: int = 125
    """Skin colour: the Cr and Cb ranges (OpenCV's YCrCb, 0..255)."""
    skin_open: int = 5
    """Side in small pixels of the opening that removes thin skin-coloured lines (1 = none)."""
    hand_patience_frames: int = 45
    """Still frames after which a view is read even though something unexplained stays in it."""
    rescan_frames: int = 5
    """Still frames to wait before reading again after a hand blocked the view."""
    turn_idle_s: float = 3.0
    """Seconds without a new pile card after which the turn is reported done."""
    pile_centre_x: float = 0.5
    pile_centre_y: float = 0.5
    """Centre of the pile area, as fractions of the image width and height."""
    pile_radius: float = 0.25
    """Radius of the pile area, as a fraction of the image's shorter side."""
    cleared_change: float = 0.8
    """Part of where the cards lay that must have changed for a view without cards to be a cleared
    table (below it the scanner missed cards that are still there)."""
    locate_below: float = 0.6
    """When the scanner's new top card on the pile is missing or less sure than this, the watcher
    looks where the pile changed and has the card there read (if it was given a reader)."""
    hand_locate_min: float = 0.6
    """When hands are shown: a card-sized change away from the pile that no found card covers is read
    (if the watcher was given a reader), and joins its seat's hand if read at least this surely."""
    locate_min_size: float = 0.5
    locate_max_size: float = 1.6
    """A changed region's long side, as a fraction of a card's (calibrated) long side, to be a card."""
    locate_aspect_tolerance: float = 0.4
    """Without a calibrated card size: how far a changed region's side ratio may be from 88:63."""
    report_initial: bool = False
    """Report the cards of the first view (normally that view is only the baseline)."""
    snapshots: int = 8
    """How many recent confirmed views are kept as snapshots for people to look at."""

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Check every field's range.

        Raises:
            ValueError: naming the first field out of range and its value.
        """
        ranges: dict[str, tuple[float, float]] = {
            "small_width": (32, 1920),
            "blur": (1, 31),
            "pixel_threshold": (1, 254),
            "motion_fraction": (0.0, 1.0),
            "change_fraction": (0.0, 1.0),
            "still_frames": (1, 600),
            "confirm_frames": (1, 60),
            "max_confirm_frames": (1, 600),
            "track_fraction": (0.0, 1.0),
            "track_iou": (0.01, 1.0),
            "same_iou": (0.01, 1.0),
            "still_iou": (0.01, 1.0),
            "twin_iou": (0.0, 1.0),
            "uncovered_min": (0.0, 1.0),
            "uncovered_changed_max": (0.0, 1.0),
            "new_card_changed": (0.0, 1.0),
            "laid_changed": (0.0, 1.0),
            "explain_margin": (0.0, 2.0),
            "hand_fraction": (0.0, 1.0),
            "paper_max_saturation": (0, 255),
            "paper_min_value": (0, 255),
            "paper_share": (0.0, 1.0),
            "skin_fraction": (0.0, 1.0),
            "skin_cr_min": (0, 255),
            "skin_cr_max": (0, 255),
            "skin_cb_min": (0, 255),
            "skin_cb_max": (0, 255),
            "skin_open": (1, 31),
            "hand_patience_frames": (1, 100_000),
            "rescan_frames": (1, 10_000),
            "turn_idle_s": (0.0, 3600.0),
            "pile_centre_x": (0.0, 1.0),
            "pile_centre_y": (0.0, 1.0),
            "pile_radius": (0.0, 2.0),
            "locate_below": (0.0, 1.0),
            "hand_locate_min": (0.0, 1.0),
            "locate_min_size": (0.0, 10.0),
            "locate_max_size": (0.0, 10.0),
            "locate_aspect_tolerance": (0.0, 10.0),
            "twin_margin": (0.0, 2.0),
            "ink_contrast": (0, 255),
            "min_ink_pixels": (0, 1_000_000),
            "cleared_change": (0.0, 1.0),
            "snapshots": (0, 1000),
        }
        for f in fields(self):
            value: Any = getattr(self, f.name)
            if f.name == "report_initial":
                if not isinstance(value, bool):
                    raise ValueError(f"WatcherParams.report_initial must be true or false, got {value!r}")
                continue
            low, high = ranges[f.name]
            integral = f.type in ("int", int)
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or (integral and not isinstance(value, int))
            ):
                kind = "an integer" if integral else "a number"
                raise ValueError(f"WatcherParams.{f.name} must be {kind}, got {value!r}")
            if not math.isfinite(value) or not low <= value <= high:
                raise ValueError(f"WatcherParams.{f.name} must be within {low}..{high}, got {value!r}")
        if self.skin_cr_min > self.skin_cr_max:
            raise ValueError(
                f"WatcherParams.skin_cr_min {self.skin_cr_min} exceeds skin_cr_max {self.skin_cr_max}"
            )
        if self.skin_cb_min > self.skin_cb_max:
            raise ValueError(
                f"WatcherParams.skin_cb_min {self.skin_cb_min} exceeds skin_cb_max {self.skin_cb_max}"
            )
        if self.max_confirm_frames < self.confirm_frames:
            raise ValueError(
                f"WatcherParams.max_confirm_frames {self.max_confirm_frames} is below "
                f"confirm_frames {self.confirm_frames}"
            )
        if self.locate_min_size > self.locate_max_size:
            raise ValueError(
                f"WatcherParams.locate_min_size {self.locate_min_size} exceeds "
                f"locate_max_size {self.locate_max_size}"
            )
        if self.still_iou < self.same_iou:
            raise ValueError(f"WatcherParams.still_iou {self.still_iou} is below same_iou {self.same_iou}")

    @classmethod
    def from_mapping(cls, values: dict[str, Any]) -> WatcherParams:
        """Parameters from a mapping (e.g. a calibration file's ``[watcher]`` table); others keep defaults.

        Raises:
            ValueError: an unknown name, or a value out of range.
        """
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"WatcherParams has no field {unknown[0]!r} (known: {', '.join(sorted(known))})")
        return cls(**values)
