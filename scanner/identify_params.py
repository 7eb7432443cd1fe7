"""The tunable numbers of card identification, in one validated value.

``IdentifyParams`` is the ``identify`` section of the scanner's parameters.  It
lives in its own module so that the parameters object can include it without
importing the identifier itself.  Every region is given in the pixels of the
canonical card (``card_width`` x ``card_height``, portrait, upright).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields

CARD_WIDTH = 200
"""Width of the canonical warped card, in pixels."""
CARD_HEIGHT = 280
"""Height of the canonical warped card, in pixels."""


@dataclass(frozen=True)
class Region:
    """An axis-aligned box ``x0 <= x < x1``, ``y0 <= y < y1`` of the canonical card.

    Raises:
        ValueError: the box is empty or leaves the canonical card.
    """

    x0: int
    y0: int
    x1: int
    y1: int

    def __post_init__(self) -> None:
        if not (0 <= self.x0 < self.x1 <= CARD_WIDTH and 0 <= self.y0 < self.y1 <= CARD_HEIGHT):
            raise ValueError(
                f"region {self!r} must be a non-empty box inside the {CARD_WIDTH}x{CARD_HEIGHT} card"
            )

    def union(self, other: Region) -> Region:
        """The smallest region holding both."""
        return Region(
            min(self.x0, other.x0), min(self.y0, other.y0), max(self.x1, other.x1), max(self.y1, other.y1)
        )

    @property
    def width(self) -> int:
        """``x1 - x0``."""
        return self.x1 - self.x0

    @property
    def height(self) -> int:
        """``y1 - y0``."""
        return self.y1 - self.y0


@dataclass(frozen=True)
class IdentifyParams:
    """Every tunable number of template matching.

    A standard card is read from its corner index (rank above suit:
    ``index_rank_region`` and ``index_suit_region``, looked at in the card as
    warped and turned half round, so either corner is enough); an
    Octoplus card from its centre symbol (``centre_region``, at 0° and 180°),
    or, when that and the whole face name nothing, from its corner index (label
    above mark, at the standard index regions).

    Raises:
        ValueError: (from construction) a field is out of range; the message
            names the field and its value.
    """

    index_rank_region: Region = field(default_factory=lambda: Region(2, 4, 42, 44))
    """Where the rank of a standard card's top-left corner index lies (with paper around it)."""
    index_suit_region: Region = field(default_factory=lambda: Region(2, 42, 42, 84))
    """Where the suit symbol under the rank lies."""
    rank_weight: float = 0.4
    """Share of the rank in a standard card's score (the suit has the rest)."""
    index_scale: float = 0.75
    """Resampling factor applied to the card before the index is matched."""
    centre_region: Region = field(default_factory=lambda: Region(40, 56, 160, 224))
    """Where the big numeral or symbol of an Octoplus card lies."""
    centre_scale: float = 0.25
    """Resampling factor applied to the card before the centre is matched."""
    template_scales: tuple[float, ...] = (0.9, 1.0, 1.1)
    """Sizes (about the point ``index_scale_about`` says) at which every template is tried, for
    warp scale error."""
    lone_corner_scales: tuple[float, ...] = (0.9, 0.95, 1.0, 1.05, 1.1)
    """Sizes at which every template is tried when one standard index corner is read alone (a
    covered card's corner, ``read_index(..., upright_only=True)``; not an Octoplus label): with
    no second corner to agree with, steps of 10% leave a spade and a club (a heart and a
    diamond) too close to tell."""
    index_scale_about: float = 0.0
    """Where a standard card's index templates are scaled to their other sizes: 0 about the
    card's top-left corner, 1 about the middle of the index (between: that fraction of the way;
    an Octoplus card's always about the corner).  The fine pass looks for every size where the
    templates at their own size were located, so only at 1 does a card seen 10% small or large
    match its template at that size; but the acceptance thresholds were set at 0, and at 1 they
    name more cards and more of them wrongly (docs/studies/identifier.md, "Index identifier")."""
    search_px: int = 8
    """How far (canonical pixels, each direction) a region may be off, to absorb warp error."""
    coarse_ratio: float = 0.5
    """The region is first located at this fraction of its resampling factor, over every shift..."""
    shortlist: int = 6
    """Only the cards that scored best in the coarse pass, this many (0: all), are matched finely."""
    refine_px: int = 1
    """...then every template is matched at full resampling within this many pixels of that place."""
    blur_sigma: float = 0.7
    """Gaussian blur (in resampled pixels) applied to templates and cards before matching."""
    highpass_sigma: float = 2.5
    """Subtract a blur of this sigma (resampled pixels; 0 = off): matches shapes, not blobs or shading."""
    template_blur: float = 0.0
    """Gaussian blur (canonical card pixels; 0 = none) of the template images before they are cut
    and resampled: a read against templates as soft as a blurred print
    (``CoveredParams.octo_blur``)."""
    min_score: float = 0.6
    """Normalised correlation below which a card is not identified."""
    min_part_score: float = 0.65
    """Correlation every part (rank, suit) must reach, so a card the templates lack is not named."""
    min_margin: float = 0.02
    """Least lead of the best card over the runner-up (another card) to name the best."""
    pair_margin: float = 0.3
    """A standard card whose two index corners each read it first, leading by this fraction of
    ``min_margin``, is named even when its overall lead is smaller (0: off)."""
    red_ink: float = 0.12
    """Redness of the ink (0..1) above which a region counts as printed in red."""
    black_ink: float = 0.03
    """Redness below which the ink counts as black, when the card is seen in colour."""
    colour_present: float = 1.0
    """Mean colourfulness (largest minus smallest channel, 0..255) from which a card is seen in colour."""
    colour_penalty: float = 0.25
    """Subtracted from the score of a black card on red ink, and of a red card on black ink."""
    ink_quantile: float = 0.15
    """Fraction of the darkest pixels of a region taken as its ink for the colour cue."""
    face_size: tuple[int, int] = (50, 70)
    """``(w, h)`` to which the whole card is resampled for whole-face matching."""
    face_blur: float = 0.7
    """Gaussian blur (face pixels) before whole-face matching."""
    face_highpass: float = 6.0
    """Subtract a blur of this sigma (face pixels; 0 = off) before whole-face matching."""
    face_colour_weight: float = 1.0
    """Weight of the two colour-opponent channels against the grey one in a face vector (0: grey only)."""
    face_weight: float = 0.3
    """Share of the whole-face correlation in the blended score (the index or centre has the rest)."""
    agree_min_score: float = 0.5
    """A card that both the index (centre) and the whole face rank first is named when its
    index score reaches this..."""
    agree_face_score: float = 0.4
    """...and its whole-face correlation reaches this (a covered card's face matches nothing)..."""
    agree_face_margin: float = 0.01
    """...and leads the face's next card by this much."""
    face_min_part_score: float = 0.55
    """Correlation every part (rank, suit) must reach for a card named with the whole face's help."""
    blend_min_score: float = 0.5
    """The best card of the blended score is named when it reaches this..."""
    blend_min_margin: float = 0.02
    """...and leads the next card of the blended score by this much."""
    blend_face_score: float = 0.25
    """...and the whole face's score of that card reaches this: a cut-out showing no card's
    outline (a false find over part of a card) matches no face, and its index alone must not
    carry the blend."""
    corner_rank_weight: float = 0.7
    """Share of the label in an Octoplus card's corner-index score (the mark under it, the
    same dot on every number card, has the rest); the corner index is read only when the
    centre and the whole face name nothing (a covered card)."""
    corner_min_part_score: float = 0.7
    """Correlation the label and the mark of an Octoplus corner index must each reach (its
    score must reach ``min_score`` and lead by ``min_margin``, as an index alone; above 1: off)."""
    corner_agree_margin: float = 0.04
    """An Octoplus card whose centre ranks first the card its corner index ranks first (two
    agreeing readings, neither clear alone) is named when the corner's score reaches
    ``min_score`` and leads its next card by this much..."""
    corner_agree_part_score: float = 0.55
    """...and each of the corner's parts (label, mark) reaches this (above 1: off).  A corner
    index that passes these two for another card than the centre names leaves the card
    unnamed."""
    corner_veto_ratio: float = 1.0
    """...unless the centre leads the corner's card by more than this many times the corner's
    lead over the centre's card: a clear centre outweighs a corner read by a hair, e.g. a small
    6 label taken for a 4 (0: the corner always vetoes)."""
    centre_doubt_margin: float = 0.04
    """An Octoplus card named from its centre by the index rule alone, leading by less than
    this, is left unnamed when its corner index ranks another card first at ``min_score`` or
    more (0: off)."""

    rank_face_margin: float = 0.05
    """A standard card none of the rules above names is named when the whole face's best rank
    leads every other rank by this much (the face's pips show the rank, not always the suit)
    and the index ranks that rank's card first among the suits by ``min_margin`` (the index
    shows the suit) at ``agree_min_score``, its suit part at ``face_min_part_score`` (above 1:
    off)..."""
    rank_face_index_slack: float = 0.1
    """...the index's rank part of that card is at most this much below its best rank part of
    another rank (the index does not clearly read another rank)..."""
    rank_face_min_rank_part: float = 0.3
    """...and reaches this (a rank the templates lack reads as no rank at all)..."""
    rank_face_score: float = 0.6
    """...its whole-face score reaches this (the whole face shows, so all its pips count)..."""
    rank_face_twin_margin: float = 0.05
    """...and its index score leads the other suit of its colour (spades and clubs, hearts and
    diamonds: alike when small and blurred) by this much."""
    face_twin_margin: float = 0.03
    """A standard card named with the whole face's help (index and face agreeing, or their
    blend) must lead its twin in the index, the same rank in the other suit of its colour, by
    this much (a small, blurred index tells a spade from a club by a hair)..."""
    face_twin_score: float = 0.65
    """...unless its whole-face score reaches this (the whole face shows, sharp enough for its
    pips to count; above 1: always the lead)."""
    rank_mate_lead: float = 0.05
    """A standard card the index ranks first (named or not) yields to another card of its suit
    whose rank part is the best of every card's and leads the first card's rank part by this
    much (above 1: off): a pale template of the right card (a photo learned from afar) loses
    its suit part to a crisp one of another rank, and the index ranks that rank first..."""
    rank_mate_band: float = 0.08
    """...when that card's index score is within this much of the first card's, reaches
    ``min_score``, and each of its parts reaches ``min_part_score``."""
    suit_blur: float = 1.0
    """Gaussian blur (canonical pixels) of the two template faces in the spade-or-club check
    (``scanner.identify_suit``), which compares a whole card's suit symbols one by one..."""
    suit_search_px: int = 6
    """...each within this many canonical pixels of its place..."""
    suit_fit: float = 0.85
    """...where the symbols must match one of the two this well on average (the whole face shows)..."""
    spade_lead: float = 0.025
    """...and names the spade when its symbols lead the club's by this much or more..."""
    club_lead: float = 0.0
    """...and the club when the spade's lead is this much or less: blurred clubs lean towards
    spades, so the club's threshold is lower (at or above ``spade_lead``: the check is off)."""
    suit_model: float = 0.9
    """Between those two thresholds, with the deck's built-in templates, the learned suit model
    (``scanner.identify_suit.SuitModel``) names the spade when its probability reaches this,
    the club when it is at most 1 minus this (above 1: off)."""
    suit_rest_margin: float = 0.01
    """The spade-or-club check reads a card only when the index ranks every other card at least
    this far behind the pair (a third card close behind: the rank may be another)."""
    suit_face_rank_margin: float = 0.06
    """The spade-or-club check also reads a card whose index ranks a card of another rank among
    the first two, when the whole face's best rank leads every other rank by this much (one big
    pip is an ace, whatever a blurred index reads): the pair is then the spade and the club of
    that rank, the other cards of that rank behind them by ``suit_rest_margin``, the index's rank
    part held to ``rank_face_min_rank_part`` and ``rank_face_index_slack`` and only its suit
    parts to ``face_min_part_score`` (above 1: off)."""
    wide_search_px: int = 14
    """A card no rule names is read once more with the index (centre) searched this far
    (canonical pixels, each direction): a finder's quad a little off, as a rebuilt covered
    card's often is, puts the index beyond ``search_px`` (0 or at most ``search_px``: off)..."""
    wide_template_scales: tuple[float, ...] = (0.9, 1.0, 1.1)
    """...and its templates tried at these sizes; the same rules then decide..."""
    wide_min_score: float = 0.45
    """...when a first reading's best card (the centre's or a corner index's) scored this much
    or more: a cut-out of no card scores less, and is not read twice..."""
    wide_among: int = 3
    """...and the card it names must have been among this many best cards of a reading at
    ``search_px`` (the centre's or the corner index's): where the wider search reaches into a
    neighbouring card's corner, it names a card the first readings did not rank near the top."""
    wide_twin_margin: float = 0.05
    """...and a standard card must lead its twin there, the same rank in the other suit of its
    colour, by this much: a spade and a club (a heart and a diamond) read alike when the search
    reaches beyond a blurred or covered index (0: off)."""

    look_scales: tuple[float, ...] = (0.85, 0.95, 1.05, 1.15)
    """The second look at an index (``scanner.identify_look``), which compares two cards on the
    parts of their index that tell them apart, tries each part's glyph at these sizes..."""
    look_blurs: tuple[float, ...] = (0.0, 1.0, 2.0)
    """...at these extra blurs (canonical pixels) each..."""
    look_highpass: float = 1.5
    """...card and glyph with a blur of this sigma (canonical pixels) taken away (0: off)..."""
    look_search_px: int = 4
    """...anywhere within this many canonical pixels of where the index reader found the index..."""
    look_pad: int = 3
    """...each glyph cut with this much paper around its ink."""
    look_min_score: float = 0.6
    """A lone index corner (``scanner.scan_covered``) that the index rule leaves unclear is named
    by a second look (``scanner.identify_look.second_look``) when the card it reads first scores
    this much or more (at 0.55 the built-in templates named an 8D on a real photo of another
    deck)..."""
    look_min_part_score: float = 0.5
    """...each of its parts this much or more..."""
    look_band: float = 0.05
    """...and, against every card within this much of it (the runner-up and its twin suit at
    least)..."""
    look_rivals: int = 6
    """...at most this many of them (more: too unclear to look at)..."""
    look_lead: float = 0.05
    """...its parts that tell the two apart lead by this much (a standard index; 0: off)..."""
    look_fit: float = 0.65
    """...and the better of the two fits this well (mean correlation)."""
    corner_look_lead: float = 0.0
    """``look_lead`` for an Octoplus corner index (0: off: its labels' strokes, a 4's above all,
    fit parts of other cards' faces, and named false cards on held-out scenes)."""
    look_banks: int = 32
    """How many glyph pairs' transformed variants (``scanner.identify_look``, about 0.35 MB each
    for a standard index's suit symbols) are kept for the next look; the oldest made go first."""
    twin_check_band: float = 0.05
    """A standard card the identifier names (but not from its pips, ``spade_lead``) whose twin
    (the same rank in the other suit of its colour) scores within this much of it in the index
    is looked at again (``scanner.identify_look.twin_doubted``; 0: off)..."""
    twin_check_lead: float = 0.005
    """...and left unnamed when the look at the index's suit symbols fits ``look_fit`` or better
    but leads the twin by less than this, unless the whole face's pips name it (``spade_lead``,
    ``club_lead`` at ``suit_fit``)."""
    twin_check_unscored: float = 0.8
    """The twin is looked at so too when the index reader did not score it finely
    (``identify_index.UNSCORED``: not shortlisted by the coarse pass), which says nothing of how
    close it reads, when the card's index score is under this (0: never): on scenes rendered with
    other seeds a fan's 3C was named 3S at 0.72 with the 3C unscored, the look preferring the club
    by 0.10; clear whole cards score higher, and a look at every one of them cost 12-17% of a
    scan of 4-8 separate cards."""

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Check every field.

        Raises:
            ValueError: a field is out of range; the message names it and its value.
        """
        checks: dict[str, tuple[float, float]] = {
            "rank_weight": (0.0, 1.0),
            "index_scale": (0.05, 1.0),
            "centre_scale": (0.05, 1.0),
            "search_px": (0, 40),
            "wide_search_px": (0, 40),
            "suit_blur": (0.0, 10.0),
            "face_twin_margin": (0.0, 2.0),
            "centre_doubt_margin": (0.0, 2.0),
            "corner_veto_ratio": (0.0, 100.0),
            "face_twin_score": (-1.0, 2.0),
            "suit_search_px": (0, 20),
            "suit_fit": (-1.0, 2.0),
            "spade_lead": (-1.0, 1.0),
            "club_lead": (-1.0, 1.0),
            "suit_model": (0.5, 2.0),
            "suit_rest_margin": (0.0, 2.0),
            "suit_face_rank_margin": (0.0, 2.0),
            "rank_face_margin": (0.0, 2.0),
            "rank_mate_lead": (0.0, 2.0),
            "rank_mate_band": (0.0, 2.0),
            "rank_face_score": (-1.0, 2.0),
            "rank_face_min_rank_part": (-1.0, 2.0),
            "rank_face_index_slack": (0.0, 2.0),
            "rank_face_twin_margin": (0.0, 2.0),
            "wide_among": (1, 1000),
            "wide_min_score": (-1.0, 2.0),
            "coarse_ratio": (0.1, 1.0),
            "refine_px": (0, 20),
            "shortlist": (0, 1000),
            "blur_sigma": (0.0, 10.0),
            "highpass_sigma": (0.0, 50.0),
            "template_blur": (0.0, 10.0),
            "min_score": (-1.0, 1.0),
            "min_part_score": (-1.0, 1.0),
            "min_margin": (0.0, 2.0),
            "pair_margin": (0.0, 1.0),
            "wide_twin_margin": (0.0, 2.0),
            "look_highpass": (0.0, 20.0),
            "look_search_px": (0, 40),
            "look_pad": (0, 20),
            "look_lead": (0.0, 2.0),
            "look_fit": (-1.0, 2.0),
            "look_min_score": (-1.0, 2.0),
            "corner_look_lead": (0.0, 2.0),
            "twin_check_band": (0.0, 2.0),
            "twin_check_lead": (-1.0, 1.0),
            "twin_check_unscored": (0.0, 2.0),
            "look_min_part_score": (-1.0, 2.0),
            "look_band": (0.0, 2.0),
            "look_rivals": (1, 100),
            "look_banks": (1, 10_000),
            "red_ink": (0.0, 1.0),
            "black_ink": (0.0, 1.0),
            "colour_present": (0.0, 255.0),
            "colour_penalty": (0.0, 2.0),
            "index_scale_about": (0.0, 1.0),
            "ink_quantile": (0.01, 0.9),
            "face_blur": (0.0, 10.0),
            "face_highpass": (0.0, 50.0),
            "face_colour_weight": (0.0, 10.0),
            "face_weight": (0.0, 1.0),
            "agree_min_score": (-1.0, 2.0),
            "agree_face_score": (-1.0, 2.0),
            "agree_face_margin": (0.0, 2.0),
            "blend_min_score": (-1.0, 2.0),
            "face_min_part_score": (-1.0, 1.0),
            "corner_rank_weight": (0.0, 1.0),
            "corner_min_part_score": (-1.0, 2.0),
            "corner_agree_margin": (0.0, 2.0),
            "corner_agree_part_score": (-1.0, 2.0),
            "blend_min_margin": (0.0, 2.0),
            "blend_face_score": (0.0, 1.0),
        }
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "look_blurs":
                if (
                    not isinstance(value, tuple)
                    or not value
                    or not all(
                        isinstance(v, int | float) and not isinstance(v, bool) and 0.0 <= v <= 10.0
                        for v in value
                    )
                ):
                    raise ValueError(
                        f"IdentifyParams.{f.name} must be a non-empty tuple of blurs in [0, 10], "
                        f"got {value!r}"
                    )
                continue
            if f.name in ("template_scales", "wide_template_scales", "lone_corner_scales", "look_scales"):
                if (
                    not isinstance(value, tuple)
                    or not value
                    or not all(isinstance(v, int | float) and 0.5 <= v <= 2.0 for v in value)
                ):
                    raise ValueError(
                        f"IdentifyParams.{f.name} must be a non-empty tuple of sizes in [0.5, 2.0], "
                        f"got {value!r}"
                    )
                continue
            if f.name == "face_size":
                if (
                    not isinstance(value, tuple)
                    or len(value) != 2
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
                    or not (4 <= value[0] <= CARD_WIDTH and 4 <= value[1] <= CARD_HEIGHT)
                ):
                    raise ValueError(
                        f"IdentifyParams.face_size must be (w, h) integers within 4..{CARD_WIDTH} and "
                        f"4..{CARD_HEIGHT}, got {value!r}"
                    )
                continue
            if f.name.endswith("_region"):
                if not isinstance(value, Region):
                    raise ValueError(f"IdentifyParams.{f.name} must be a Region, got {value!r}")
                continue
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise ValueError(f"IdentifyParams.{f.name} must be a finite number, got {value!r}")
            low, high = checks[f.name]
            if not low <= value <= high:
                raise ValueError(f"IdentifyParams.{f.name} must be in [{low}, {high}], got {value!r}")
        for name in (
            "search_px",
            "wide_search_px",
            "wide_among",
            "suit_search_px",
            "refine_px",
            "shortlist",
            "look_search_px",
            "look_pad",
            "look_rivals",
            "look_banks",
        ):
            if not isinstance(getattr(self, name), int):
                raise ValueError(f"IdentifyParams.{name} must be an integer, got {getattr(self, name)!r}")
        for name, scale in (
            ("index_rank_region", self.index_scale),
            ("index_suit_region", self.index_scale),
            ("centre_region", self.centre_scale),
        ):
            region: Region = getattr(self, name)
            coarse = scale * self.coarse_ratio
            if region.width * coarse < 3 or region.height * coarse < 3:
                raise ValueError(
                    f"IdentifyParams.{name} {region!r} at scale {scale!r} x coarse_ratio "
                    f"{self.coarse_ratio!r} is smaller than 3x3 pixels"
                )
