"""Every tunable number of the scanner, in one validated parameters object.

``ScannerParams`` is what calibration writes and the scanner reads.  It is frozen
and checks itself on construction: a bad value raises ``ValueError`` naming the
field and the value.  Pixel quantities of the finder are in pixels of the *work
image* (the frame scaled so that its long side is ``FindParams.work_long_side``)
unless their name says otherwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace
from typing import Any

from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH, IdentifyParams
from scorer.cards import OctoCard
from scorer.errors import NotationError

CARD_ASPECT = 88.0 / 63.0
"""Long side over short side of a playing card (63 x 88 mm)."""


def _check(name: str, value: float, low: float, high: float) -> None:
    if not (isinstance(value, int | float) and math.isfinite(value) and low <= value <= high):
        raise ValueError(f"{name} must be a number in [{low}, {high}], got {value!r}")


def _check_int(name: str, value: int, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{name} must be an int in [{low}, {high}], got {value!r}")
    _check(name, value, low, high)


def _check_bool(name: str, value: bool) -> None:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be a bool, got {value!r}")


def _check_steps(name: str, value: tuple[float, ...], low: float, high: float) -> None:
    """A tuple of 1 to 16 numbers, each in [low, high]."""
    if not isinstance(value, tuple) or not 1 <= len(value) <= 16:
        raise ValueError(f"{name} must be a tuple of 1 to 16 numbers, got {value!r}")
    for step in value:
        _check(f"{name}[]", step, low, high)


def _check_pair(name: str, value: tuple[float, float], low: float, high: float) -> None:
    """A (low, high) pair of numbers in [low, high], the first no larger than the second."""
    if not isinstance(value, tuple) or len(value) != 2:
        raise ValueError(f"{name} must be a (low, high) pair, got {value!r}")
    _check(f"{name}[0]", value[0], low, high)
    _check(f"{name}[1]", value[1], value[0], high)


def _check_labels(name: str, value: tuple[str, ...]) -> None:
    """A tuple of at most 16 Octoplus card labels (``1``-``99``, ``+2``, ``-2``, ``P``)."""
    if not isinstance(value, tuple) or len(value) > 16:
        raise ValueError(f"{name} must be a tuple of at most 16 Octoplus labels, got {value!r}")
    for label in value:
        if not isinstance(label, str):
            raise ValueError(f"{name} must hold Octoplus labels, got {label!r}")
        try:
            OctoCard.parse(label)
        except NotationError:
            raise ValueError(f"{name} must hold Octoplus labels, got {label!r}") from None


@dataclass(frozen=True)
class FindParams:
    """Parameters of the card finder (``scanner.find``).

    Attributes:
        work_long_side: the frame is scaled down so its long side has this many pixels.
        card_width, card_height: size of a warped card image (portrait, 63:88).
        card_aspect: long side over short side of a card.
        aspect_tolerance: relative tolerance of the aspect of a found quad (perspective).
        card_size_px: the known size of a card in frame pixels ``(short, long)``, from
            calibration; ``None`` estimates it from the frame.
        play_area: the play area's corners in frame pixels, from calibration: a card whose centre
            lies outside it is not reported; ``None``: the whole frame.
        min_card_area: smallest card area as a fraction of the frame area.
        max_card_area: largest card area as a fraction of the frame area.
        background_scale: the table brightness is estimated on the work image shrunk by this factor.
        background_kernel: median window of the table estimate, as a fraction of the shrunk image's long side.
        white_margin: a card pixel is this much lighter (L of Lab, 0..255) than the local table.
        max_chroma: a card pixel's largest |a|, |b| deviation in Lab (cards are white).
        paper_chroma: with more than 0, on a table of strong colour (``table_chroma``) a pixel of
            chroma (the length of (a, b) less 128, in OpenCV's 8-bit Lab) at most this and no
            darker than the local table is a card pixel too, however little lighter than the
            table it is (0 in the first look at a frame: see ``grey_look``).
        table_chroma: ...a table of strong colour: the median chroma of a sample of the frame's
            pixels at least this (wood 12-42 on the rendered scenes, felt 10-39, grey 1-9).
        grey_look: a frame in which no card is named is looked at once more with ``paper_chroma``
            this, when its table is of strong colour and shows grey pixels over a card's least
            area (``find_work.grey_on_colour``; 0: never). In dim light on light wood a card is
            a few levels lighter than the wood (an Octoplus pile's top +2, its paper cut into
            scraps by its red print: held-out scene 2468-19), but grey against it. Taken in the
            first look instead, grey pixels changed the card pixels of every wood and felt frame:
            2 cards more over the fifteen scene folders, but 6 wrong names and 2 tops more.
        denoise_kernel: median filter size (odd) applied before edges are found (noise, texture).
        canny_low, canny_high: hysteresis thresholds of the (denoised) edges that outline lone cards.
        outline_shrink: those denoised edges, the regions they enclose and the light colourless
            pixels (Otsu) are first made of the work image shrunk this many times (1: not, they
            are made at the work image's size for every frame): only when one of their outlines,
            scaled back, could be a card that the lone cards found by then do not explain are
            they made at the work image's size (a frame of separate cards found whole never
            needs them) ...
        shrunk_denoise_kernel: ... with a median filter of this size (odd) when shrunk; their
            outlines, scaled back, are grown by ``shrunk_grow`` work pixels (a region enclosed by
            edges ends an edge and its widening inside the card's side, wider when shrunk).
        shrunk_canny_low, shrunk_canny_high: the hysteresis thresholds of those edges when shrunk.
        split_canny_low, split_canny_high: hysteresis thresholds of the fine edges that split
            touching and overlapping cards.
        fine_pad: the fine edges are looked for only in the boxes of clusters of card pixels,
            padded by this many work pixels.
        min_colourless: a card outlined by edges has at least this fraction of colourless pixels inside.
        min_lightness: ... and its median lightness is at least this fraction of the frame's lightest tenth
        max_darker: ... and at most this much darker than the table around it.
        full_blur, full_canny_low, full_canny_high: Gaussian sigma (frame pixels) and hysteresis
            thresholds of the full-resolution edges that cut whole cards out of a cluster.
        full_open: size (frame pixels) of the opening that breaks leaks between such cut-out parts.
        min_outside: a card cut out of a cluster borders the table along at least this fraction of
            its outline (a frame printed on a face borders only its own card).
        row_part, row_span, row_overlap, row_width: a card-shaped outline is a row of overlapping
            cards when two parts of its card pixels, each at least ``row_part`` of its area, both
            run one way from end to end (within ``1 - row_span`` of either end: a frame printed
            on a face stops short) and overlap by less than ``row_overlap`` the other way, each
            at least ``row_width`` of it wide (a face's printed border strips are narrower).
        row_gap: ... and lie at most this fraction of the outline apart that way: a row's cards
            abut, while the two side margins of one face, cut apart where its printed frame
            meets a thin end margin, lie about half the card apart (1 = no such limit).
        square_corners: also try each outline corner squared on its longer arm (a short arm's
            direction is unsure).
        poly_epsilon: polygon simplification tolerance as a fraction of the outline's perimeter.
        min_fill: a lone card's outline fills at least this fraction of its quad.
        min_corner_angle, max_corner_angle: corner angles (degrees) accepted as a card corner.
        min_part_area: outlines smaller than this fraction of the smallest card give no corners.
        corner_epsilon: outline simplification tolerance (work pixels) when looking for card corners.
        min_arm: both arms of a card corner are at least this long (work pixels).
        size_tolerance: relative tolerance within which whole sides seen agree on the card size.
        size_steps: relative steps around the lone cards' size also tried (a tilted camera sees
            nearer cards larger).
        max_sizes: card sizes tried, besides the longest side seen, when the size is not known.
        size_ladder_step, whole_inside, whole_support: with no lone card and no known size, card
            sizes in relative steps of ``size_ladder_step`` are tried on every corner and the card
            lying on card pixels (``whole_inside``) whose outline shows best, along at least
            ``whole_support`` of it (the top card of a pile), gives the size; of those, only the ones
            at least ``whole_largest`` of the largest's size compete (a frame printed on a face is a
            smaller card-shaped outline).
        arm_slack: an arm may exceed the card side it is taken for by this fraction.
        min_inside: a card rebuilt from a corner lies at least this much on card pixels.
        min_support: ... and at least this fraction of its outline shows as an edge.
        min_new_area: each further card of a blob explains at least this fraction of a card's area anew.
        duplicate_distance: two hypotheses whose corners differ by less than this fraction of the
            card's short side are the same card.
        edge_probe: half-length (work pixels) of the probe across a card side measuring its edge.
        top_margin: of two overlapping cards, the upper one's sides show inside the other by at
            least this fraction more than the lower one's.
        top_min_overlap: cards overlapping by less than this fraction of the smaller are not compared.
        top_inset: only side points this far (work pixels) inside the other card are compared.
        top_min_samples: fewest side points that make a comparison.
        top_min_gradient: Sobel gradient across a side that shows it as an edge.
        top_alignment: ... and the share of the gradient that must point across the side.
        top_small: an outline not identified with a side below this fraction of the named cards'
            (median short and long side) lies over no named card: print or a part of a card;
        top_print_margin: of two overlapping named cards, the one whose template face agrees with
            the frame where they overlap better by this much (normalised correlation) lies over
            the other (``scanner.find_top_print``; above 2 it never decides);
        top_print_min_score: ... and agrees at least this well;
        top_print_min_overlap: ... compared only where they overlap by this fraction of the
            smaller card;
        top_print_inset: ... the overlap taken this fraction of the smaller short side in from
            its outline;
        top_print_min_spread: ... and only where a face laid there has print: a standard
            deviation of at least this many grey levels;
        top_print_shading: ... both compared less their shading, a blur over this fraction of
            the short side.
        top_index_share: a named card lies over another card when at least this share of its read
            index box's corners lie inside that card's outline (print shows only on the upper card) ...
        top_index_ink: ... unless that box straddles the other card's side and its index print,
            where it lies inside the other outline, shows less than this share of its contrast
            outside (the least-squares slope of the frame on the laid template there over the
            slope outside; ``find_top_print.index_ink``): the other card's pixels cover it there.
            0 takes the box's corners alone.
        top_index_blank: ... and, with this, unless the index print shows outside the other
            outline but the index box holds no print where it lies inside it (a spread under
            ``top_print_min_spread``): none of the card's print lies inside the other outline
            there, so the box's place says nothing of which card is over (a pile's card named
            from the index corner that peeps out beside the card on top, its box's blank end
            under that card, was put over it; off by default until measured on the folders).
        top_index_shift: ... the index print laid up to this many work pixels either way, where the
            box's part outside the other card follows it best (an outline is seldom exact).
        top_refit_turn: a card not identified (top cards first) is fitted again to the strongest card-size
            outline turned up to this many degrees either way from its own outline ...
        top_refit_turn_step: ... in steps of this many degrees;
        top_refit_sizes: ... of a short side from this range of fractions of its own outline's
            short side (a top card's outline often takes in the cards peeking out under it) ...
        top_refit_size_band: ... or within this fraction of the frame's card size when it is known;
        top_refit_size_step: the step (fraction of the short side) between those sizes.
        top_refit_grow: the fitted outline lies within the card's own outline grown by this
            fraction of its short side.
        top_refit_same: a fitted outline that lies this near (fraction of its short side, corners
            on average) to another card's is that card, and is dropped.
        top_refit_fresh: ...so too (``top_refit_same``) near an outline fitted for another card of
            the frame before it (two unnamed outlines of one card fitted to the same place: on
            scenes rendered with six other seeds, an Octoplus 7 named twice 2 pixels apart, one a
            false card).
        top_refit_moved: a fitted outline that lies this near to the card's own outline is not read
            again (the identifier has read that outline already) ...
        top_refit_reach: ... nor one that lies this far from it (another card's outline, not
            this card's put right).
        top_refit_max: most cards fitted again per frame.
        top_refit_named_below: a named card marked top that overlaps another card and whose
            sides show along less than this fraction of its outline (a top card's outline that
            took in a card under it) is fitted again the same way (0 never) ...
        top_refit_named_gain: ... and takes the fitted outline when that one reads the same card
            and its sides show along at least this fraction more of it ...
        top_refit_named_rename: ... or reads another card, at a confidence at least this much
            above the card's own (an outline taking in a card under it reads the top card's
            print off its place, as a look-alike; above 1 never).
        top_refit_named_by_read: ... an outline so fitted that lies within ``top_refit_same`` of
            another named card's is dropped only when it reads that card (off: whatever it reads;
            in a neat pile the card under the top card lies a few pixels off its outline, and the
            top card's own outline was dropped as that card's).
        top_refit_pile: a card fitted again that names none there is fitted once more over the
            whole pile it lies in (the outlines overlapping it): the card on top of a pile is the
            one whose whole outline shows.
        top_refit_near_best: ... where the card size is not known, over the whole cluster of
            touching cards, and of the sizes whose outline shows at least this fraction as well
            as the best one's and holds it (print inside a card is card-shaped too), the largest.
        top_refit_around: a card marked top that names nothing on the outline fitted near its own
            is fitted once more turned any way (not only ``top_refit_turn`` from its outline's
            sides): the outline found may be a card's and the hand or arm over it, whose sides
            run some way off the card's.
        top_refit_read_agree: a card marked top that names nothing after its refits (the top card
            of a dim pile, outlined along its print frame or the cards under it) is fitted once
            more at each of a ladder of sizes (``scanner.find_top.refits_by_size``), the best
            outline of each size read in turn, and a card taken when at least this many of them
            name it and no other card is so named (its best read): the best-shown outline over
            all sizes is seldom the top card's there, but a card's print reads only on outlines
            near its own, and look-alikes read at a single size (0 never).  3 by default: at 2,
            over the fixtures and 14 rendered folders 4 more cards and 3 more tops are right, but
            a real webcam photo of a held 7S (template composed from other cards' parts) is named
            7C, read so at two sizes on an outline of the room behind it ...
        top_refit_read_under: ... and so too, with this, a card not marked top that names nothing
            (of a dim pile the outlines near the top card may all be marked under another); a card
            so read does not displace a card another refit named there (off by default: on
            fifteen rendered folders 2 tops and 9 names more, none lost, but about 15% more time
            on frames of piles and hands: a read for each size of every unnamed card) ...
        top_refit_read_sizes: ... where the card size is not known, sizes over this range of
            fractions of its own outline's short side (the outline found is often the card's
            print frame, 10-30% small) ...
        top_refit_read_step: ... in steps of this fraction ...
        top_refit_read_grow: ... within its outline grown by this fraction of its short side;
            a read naming the card of an outline within ``top_refit_same`` of it is that card
            read again, and not counted.
        top_face_fit: a named card marked top that overlaps another outline has its template
            face aligned to the frame from its outline (``scanner.scan_face_fit``: an affine map,
            ``cv2.findTransformECC``, both less their shading) ...
        top_face_min_score: ... and takes the outline so aligned when the face agrees there
            (normalised correlation) at least this well ...
        top_face_gain: ... by at least this much more than on its own outline ...
        top_face_moved: ... the outline lies at least this fraction of its short side from its own
            (nearer, the outline was right) ...
        top_face_reach: ... and at most this fraction (farther, another card's print);
        top_face_aspect: ... and its long side over its short lies within this of ``card_aspect``.
        top_face_iterations: most steps of the alignment.
        top_uncovered_share: a cluster of touching cards holding a card named from a corner
            alone (its whole outline not found), where the card pixels no detection's outline
            holds come to this fraction of a card's area or more,
            is fitted over as a whole at the frame's card size and the card read there joins the
            detections (``scanner.scan_uncovered``: a top card left without an outline) ...
        top_uncovered_max: ... at most this many clusters a frame (0 never).
        top_skin: a card marked top that names nothing after its refits is fitted once more
            (``scanner.find_top.refit_under_hand``), with the pixels of hands and arms
            (``scanner.find_skin``) counted as unknown: a side under a hand neither shows nor
            fails to show, and the hand's own outline is no card's side (the outline found may
            be a card's and the arm over it: light skin on a dark table counts as card pixels) ...
        top_skin_share: ... when a hand or arm covers at least this share of its outline (0: every
            such card; where no hand is near, the fit is a wider refit) ...
        top_skin_grow: ... within its outline grown by this fraction of its short side, at sizes
            from its own, turned any way (0 never) ...
        top_skin_min_known: ... and an outline so fitted keeps at least this fraction of its
            length off the hand.
        skin_min_chroma: a hand's pixels have at least this chroma (Lab a, b about 128) ...
        skin_max_chroma: ... and at most this (printed red ink is stronger) ...
        skin_hue: ... a hue (degrees of atan2(b, a)) within this range, from orange-red to
            yellow (red and blue ink and blue or green tables lie outside it) ...
        skin_table_distance: ... lie at least this far (a, b) from the table's colour (the median
            of the pixels away from the cards: wood is warm too) ...
        skin_paper_distance: ... and at least this far from the paper's (the median of the
            lightest ``skin_paper_lightest`` of the card pixels: a warm light makes paper warm,
            and a light hand on dark felt counts as card pixels), warmer than it by at least
            ``skin_warmer`` (a, b) ...
        skin_paper_lightest: (see ``skin_paper_distance``);
        skin_warmer: ... (see ``skin_paper_distance``);
        skin_min_blob: ... in blobs of at least this fraction of the work image's area.
        top_lone_named: a card named from a corner (its whole outline not found) that overlaps
            no other outline is on top, as a card found whole is: nothing found lies over it
            (a hand over the top card's middle leaves it no outline of its own).
        top_corner_sides: the sides (the weakest sign of which card lies over which) never put a
            card named from a corner over a card named and found whole: the first's outline is
            laid out from its corner, beyond that a guess, whose sides may run over the other
            card's print (a covered 2 named beside the 1 just played on it was marked on top of
            it); the index and the print still can.
        top_hand_sides: an outline not identified whose area a hand or arm covers by at least
            this share (``find_top.hand_share``) is put by the sides alone over no identified
            card found whole or marked on top where it was found: a hand over a pile is
            outlined as a card of its own, whose sides run across the top card under it; the
            index and the print still can (0: off).  A card named from a corner and not marked
            stays under it (under an arm over a fan, the outlines of the cards over it take in
            the arm).
        refine_radius: search radius (work pixels) when refining corners at full resolution.
        refine_min_points: fraction of a side's probes that must find an edge to refine that side.
        refine_min_step: grey-level step across a side that counts as its edge when refining.
        faint_canny_low, faint_canny_high: hysteresis thresholds of the faint edges (denoised) that
            outline a card hardly lighter than its table (white on white); their regions are
            opened by ``faint_open`` work pixels so that a leak through a gap breaks off.
        faint_below: the faint edges are also looked at when every lone card found shows less
            than this fraction of its outline (a scrap of the table outlined in a corner of the
            frame is no reason to stop looking for the card); 0 looks at them only when no lone
            card was found.
        faint_at_border: ... and when every lone card found touches the frame's border (within
            ``frame_margin``).
        lone_aspect_tolerance: relative aspect tolerance of a lone card that also passes the
            card checks below (a camera seeing the table at a slant).
        support_points: points per side sampled by the card checks.
        min_side_support: every side of a card (but those the frame cuts off) shows as an edge
            along at least this fraction of it.
        frame_margin: a side within this many work pixels of the frame's border is cut off by it.
        border_inset: the paper strip checked inside a card, from and to this fraction of its short
            side in from its sides.
        border_min_px: ... but at least this many work pixels in (a blurred side).
        paper_tolerance: grey levels by which paper in that strip may differ from its median.
        min_paper: at least this fraction of the strip is paper.
        line_min_length, line_votes, line_gap: straight runs of the faint edges at least
            ``line_min_length`` of the frame's short side long, with ``line_votes`` votes and gaps of
            up to ``line_gap`` work pixels, are the lines that bound a card whose outline is broken.
        line_merge_angle, line_merge_distance: runs within this angle (degrees) and distance (work
            pixels) are one line.
        max_lines: the longest lines kept.
        line_parallel: the opposite sides of a card are parallel within this angle (degrees) ...
        line_square: ... and its adjacent sides square within this angle (degrees).
        max_line_cards: the best supported candidates bounded by lines that are checked.
        line_outside: how far (a fraction of the frame's short side) a corner of a card bounded
            by lines may lie outside the frame (a card whose corner the frame just cuts off).
        cut_min_seen: a card the frame cuts off is kept only when at least this fraction of its
            length (across the cut) is in view, so that an index corner is.
        min_relative_area: a quad of less than this fraction of the area of the card whose outline
            shows best in the frame is not reported (the cards of one deck on one table are about
            one size).
        line_below: cards bounded by lines are looked for only when no lone card was found and no
            card rebuilt from corners shows this fraction of its outline (``FoundCard.score``).
        overshoot_length, max_overshoot: a card bounded by lines is kept only when none of its
            sides runs on as an edge past a corner (from 5% to ``overshoot_length`` of the side)
            along ``max_overshoot`` or more of that stretch (the sides of cards lying together do).
        square_aspect: a found card whose long sides are less than this many times its short
            sides (a card seen at a slant, a photo stretched across) may lie either way: when it
            is not identified as found, it is read once more with its other sides as the short
            ones (``other_way``).
        mirrored: the camera delivers mirror images (a webcam's selfie view): cut-out cards are
            flipped back (``warp_card``).
        complete_cut: a region the frame's border cuts is completed to a whole card from its sides
            in view (``scanner.find_cut``; kept when at least ``cut_min_seen`` of it is in view).
        cut_min_side: of such a region's outline, the edges at least this fraction of its longest
            edge off the border are the card's sides in view ...
        cut_square: ... and they run along or square to one another within this angle (degrees).
        recut: a checked region at the frame's border whose outline simplified to a quad that fails
            the card checks (a corner the frame cuts off lost in the simplification) is completed
            from its sides in view too.  Off for live frames (it named a card of another deck
            wrongly in a real scene); learning from labelled photos turns it on.
        slanted: a checked outline nearer square than ``lone_aspect_tolerance`` allows is a card
            seen at a slant when it is skewed (its sharpest corner at most ``slant_max_corner``
            degrees, every corner within ``slant_min_corner`` of a straight line's half turn),
            fills its quad (``slant_min_fill``), has a paper border strip and all four sides show
            as strong edges along ``slant_min_support`` of them (a phone held over the table, a
            camera not quite looking down).
        slant_min_part: ... such a card is named only when each part of its index (rank, suit)
            reads at least this well: a small card seen at a strong slant reads coarsely (a 6 for
            an 8 by the index alone), a clearly read index does not (``scanner.scan``).
        complete_hand: a region of card pixels that a hand or an arm cuts (its outline is no quad)
            is completed to a whole card from its sides in view (``scanner.find_hand_cut``) ...
        hand_min_seen: ... kept when the region fills at least this fraction of that card.
        flat_fallback: a frame in which no card is found is looked at once more with the table's
            light divided out (``scanner.find_work.flatten_light``): a shadow band across a light
            table and the card on it falls to the level of the light around it, so its edges no
            longer cut the card's outline or run on past its corners.
        flat_close: the light is the denoised lightness closed (print and thin edges filled) by a
            disc of this fraction of the work image's long side ...
        flat_blur: ... then smoothed (Gaussian) by this fraction of it.
        flat_min_shade: the look is taken only when the light's darkest twentieth is at least
            this fraction darker than its lightest (a shadow; an evenly lit table is not looked
            at twice).
        flat_faint_factor: when that look finds no card either, the flattened frame is looked at
            once more with the faint edges' thresholds (``faint_canny_low``, ``faint_canny_high``)
            times this factor: a card's side that the shadow's edge leaves hardly darker than the
            table shows only as a weaker edge (1.0: no such look).
        flat_weak_below: a frame with no lone card whose every other card shows less than this
            fraction of its outline (scraps of print and shadow: a shadow across a card on a light
            table cuts its outline into pieces) is looked at with the table's light divided out
            too, when the light is uneven: cards bounded by lines there take the place of the
            quads they overlap (0.0: no such look).
        paper_fallback: in a frame in which no card is named, a card is looked for by its paper
            grown out from its print (``scanner.find_paper``): a card held before a white wall,
            whose side on the wall hardly shows. On the real photos, with templates learned
            in the webcam deck's style too (``calibration.templates``, ``LearnParams.other_decks``),
            it names one more webcam card (5S) and no card wrongly at ``paper_agree`` 2; the
            rendered scenes read as without it (docs/studies/real-photos.md) ...
        paper_ink_window: ... the print is what is darker than the lightest pixel within a disc
            of this fraction of the work image's long side (a black-hat) ...
        paper_ink_margin: ... by at least this many grey levels (L of Lab, 0..255) ...
        paper_glyph_area: ... in spots of a glyph's area (low, high), fractions of the work image;
        paper_max_seeds: ... at most this many glyphs are grown from (the largest first);
        paper_min_light: the ground round a glyph is paper when its median lightness (L, 0..255) is
            at least this (and its colour within ``max_chroma``) ...
        paper_tolerances: ... and the paper is grown from there over the connected pixels within
            each of these many Lab levels of it (one candidate per tolerance) ...
        paper_close: ... its print closed over by a disc of this fraction of the long side ...
        paper_open: ... and thin bridges past fingers to the wall cut by a disc of this fraction;
        paper_aspect: a grown region is a candidate card when its hull's long side over its short
            lies within these multiples (low, high) of ``card_aspect`` ...
        paper_min_fill: ... the hull fills this fraction of its smallest box ...
        paper_min_solid: ... and the region this fraction of its hull.
        paper_agree: a card is named from the candidates when at least this many of them name it
            and none names another card (``scanner.scan``): at 1 a phone 3S (a grey photo) was
            named 3C by one candidate.
        octo_frame: in an Octoplus frame where a card found is not identified, the cards whose
            printed frame shows whole (``scanner.find_frame``) near the cards not identified are
            read on the outline grown from that frame, before covered cards are read; a card so
            named takes the place of the cards not identified whose centres it holds (a pile on
            light wood in dim light shows no outline of its top card, but its frame).
        octo_frame_block, octo_frame_offset: the neighbourhood (frame pixels, odd) and offset
            of the threshold that takes the print from the paper around it...
        octo_frame_epsilon: ... the tolerance (a fraction of its hull's perimeter) its outline
            is simplified to a quad with...
        octo_frame_aspect: ... and the range, as multiples of a printed frame's long side over
            its short, that quad's must lie in (a tilted camera foreshortens it).
        octo_frame_pad: ... frames are looked for within this fraction of their short side
            around the cards not identified.
        ladder_reads: in a frame where no card found is identified and the finder guessed the
            card size (no lone card, known size nor whole outline told it: ``Work.guesses``), up to
            this many cards rebuilt at its corners at other sizes are read whole
            (``scanner.find_ladder``), the best shown first; a card so named takes the place of
            the cards not identified whose centres it holds (a pile's top card that a hand
            covers shows no whole outline, and the longest side seen is a part of one; 0: off)...
        ladder_sizes: ... the sizes tried, from the first to the second multiple of the guessed
            short side in steps of ``size_ladder_step``...
        ladder_support, ladder_inside: ... each card's outline showing as an edge along at least
            ``ladder_support`` of it and at least ``ladder_inside`` of it lying on card pixels
            (a hand over the card is no card pixel).
        twin_inside: two named cards whose read index corners each lie at least this fraction of
            the short side inside the other's outline are one card read twice
            (``scanner.scan_twins``) ...
        twin_aspect_tolerance: ... made one card, from one read corner to the other, when its long
            side is within this fraction of ``card_aspect`` times its short side.
        twin_inside_joined: two cards named alike whose read corners each lie at least this
            fraction of the short side inside the other's outline, and span a card's shape from
            one to the other, are one card too (each read at a size a little too large, or one
            outlined exactly, as from its printed frame, and the other laid out too large from
            the opposite corner: at 0.05 held-out 5791-39's 4 was named twice).
        outline_corner: a card not named whose corner lies within this fraction of the short side
            of a named card's read index corner, its sides along the named card's ...
        outline_turn: ... within this angle (degrees), is an outline of that card: it is dropped.
        relay_gain: a named top card whose whole outline was found, overlapping another outline,
            is laid out again from its read index corner (``scanner.scan_relay``) when an outline
            of a card's shape from that corner shows at least this much more of its length as
            edges than its own (a share, 0..1; 0 turns this off) ...
        relay_moved: ... and lies at least this fraction of its short side from its own outline;
        relay_sizes: ... the short sides tried, as fractions (low, high) of its own outline's ...
        relay_size_step: ... in steps of this fraction;
        relay_turn: ... turned at most this many degrees from its own outline's sides ...
        relay_turn_step: ... in steps of this many degrees.
        relay_far_turn: ... and, when above 0 and no outline from its read corner is taken, laid
            out from each of its four corners, turned at most this many degrees (an outline
            found may share only one corner with its card) ...
        relay_far_gain: ... taking the one that shows best when it shows at least this much more
            of its length than its own (and lies ``relay_moved`` from it) ...
        relay_far_reach: ... and, when set, lies at most this fraction of its short side from it
            (None: any distance).  An outline from one of the card's other corners running well
            off its own runs along the sides of the card under it as often as along its own: on
            the fixtures and eight rendered folders 7 of the 8 such moves beyond 0.12 took a card
            from its own outline (0.02-0.05 off it) to 0.16-0.21 off (fresh 8642/27: a pile's
            whole top 6 laid out along the 1 under it, nearer the 1: a wrong name), while each of
            the 18 moves within 0.1 came nearer its card or went at most 0.04 farther.  The cost:
            an outline found 0.2 off its card, sharing one corner with it, is no longer laid
            out from that corner (held-out 2727/5, named by ``CoveredParams.overlap_open``
            instead).
        relay_read: ... and (with this) when a card reads on the outline so laid (a neat pile's
            card under the top card can show more of its length along an outline from one of the
            top card's corners; read there, it names nothing).
        quick_long_side: with more than 0 (and less than ``work_long_side``), a frame is first
            scanned with a work image of this long side (``ScannerParams.at_work_side``: every
            size in work pixels scaled with it; the corners are refined at full resolution as
            always), and that scan is the answer when the frame holds only separate cards found
            whole and all named (``scanner.scan.Scanner.scan``); any other frame is scanned again
            at ``work_long_side`` (0: never).
    """

    work_long_side: int = 640
    card_width: int = CARD_WIDTH
    card_height: int = CARD_HEIGHT
    card_aspect: float = CARD_ASPECT
    aspect_tolerance: float = 0.15
    card_size_px: tuple[float, float] | None = None
    play_area: tuple[tuple[float, float], ...] | None = None
    min_card_area: float = 0.004
    max_card_area: float = 0.9
    background_scale: int = 8
    background_kernel: float = 0.5
    white_margin: float = 14.0
    max_chroma: float = 28.0
    paper_chroma: float = 0.0
    table_chroma: float = 12.0
    grey_look: float = 8.0
    denoise_kernel: int = 5
    canny_low: float = 15.0
    canny_high: float = 45.0
    outline_shrink: int = 2
    shrunk_denoise_kernel: int = 3
    shrunk_grow: int = 1
    shrunk_canny_low: float = 15.0
    shrunk_canny_high: float = 45.0
    split_canny_low: float = 20.0
    split_canny_high: float = 50.0
    fine_pad: int = 8
    min_colourless: float = 0.6
    min_lightness: float = 0.55
    max_darker: float = 30.0
    full_blur: float = 1.2
    full_canny_low: float = 30.0
    full_canny_high: float = 70.0
    full_open: int = 7
    min_outside: float = 0.15
    square_corners: bool = True
    row_part: float = 0.1
    row_span: float = 0.95
    row_overlap: float = 0.2
    row_width: float = 0.12
    row_gap: float = 0.25
    poly_epsilon: float = 0.03
    min_fill: float = 0.88
    min_corner_angle: float = 65.0
    max_corner_angle: float = 115.0
    min_part_area: float = 0.1
    corner_epsilon: float = 2.0
    min_arm: float = 4.0
    arm_slack: float = 0.2
    size_tolerance: float = 0.08
    max_sizes: int = 2
    size_ladder_step: float = 0.06
    whole_inside: float = 0.9
    whole_support: float = 0.8
    whole_largest: float = 0.7
    size_steps: tuple[float, ...] = (-0.1, 0.1)
    min_inside: float = 0.85
    min_support: float = 0.4
    min_new_area: float = 0.12
    duplicate_distance: float = 0.2
    edge_probe: int = 2
    top_margin: float = 0.1
    top_min_overlap: float = 0.02
    top_inset: float = 2.0
    top_min_samples: int = 6
    top_min_gradient: float = 24.0
    top_alignment: float = 0.85
    top_index_share: float = 0.5
    top_index_ink: float = 0.4
    top_index_blank: bool = False
    top_index_shift: int = 2
    top_small: float = 0.75
    top_print_margin: float = 0.15
    top_print_min_score: float = 0.2
    top_print_min_overlap: float = 0.05
    top_print_inset: float = 0.05
    top_print_min_spread: float = 10.0
    top_print_shading: float = 0.15
    top_refit_turn: float = 6.0
    top_refit_turn_step: float = 2.0
    top_refit_sizes: tuple[float, float] = (0.72, 1.02)
    top_refit_size_band: float = 0.08
    top_refit_size_step: float = 0.02
    top_refit_grow: float = 0.2
    top_refit_same: float = 0.25
    top_refit_fresh: bool = True
    top_refit_moved: float = 0.05
    top_refit_reach: float = 0.35
    top_refit_pile: bool = True
    top_refit_near_best: float = 0.9
    top_refit_around: bool = True
    top_lone_named: bool = True
    top_corner_sides: bool = True
    top_hand_sides: float = 0.3
    top_skin: bool = True
    top_skin_min_known: float = 0.5
    top_skin_share: float = 0.0
    top_skin_grow: float = 0.5
    skin_min_chroma: float = 8.0
    skin_max_chroma: float = 55.0
    skin_hue: tuple[float, float] = (45.0, 85.0)
    skin_table_distance: float = 10.0
    skin_paper_distance: float = 8.0
    skin_paper_lightest: float = 0.15
    skin_warmer: tuple[float, float] = (2.0, 4.0)
    skin_min_blob: float = 2e-4
    top_uncovered_share: float = 0.15
    top_uncovered_max: int = 2
    top_refit_read_agree: int = 3
    top_refit_read_under: bool = False
    top_refit_read_sizes: tuple[float, float] = (0.72, 1.46)
    top_refit_read_step: float = 0.04
    top_refit_read_grow: float = 0.7
    top_face_fit: bool = True
    top_face_min_score: float = 0.6
    top_face_gain: float = 0.15
    top_face_moved: float = 0.03
    top_face_reach: float = 0.35
    top_face_aspect: float = 0.15
    top_face_iterations: int = 30
    top_refit_max: int = 4
    top_refit_named_below: float = 0.9
    top_refit_named_gain: float = 0.0
    top_refit_named_rename: float = 0.15
    top_refit_named_by_read: bool = True
    refine_radius: int = 4
    refine_min_points: float = 0.5
    refine_min_step: float = 12.0
    faint_canny_low: float = 8.0
    faint_canny_high: float = 24.0
    faint_open: int = 5
    faint_below: float = 0.7
    faint_at_border: bool = True
    lone_aspect_tolerance: float = 0.25
    support_points: int = 24
    min_side_support: float = 0.5
    frame_margin: float = 3.0
    border_inset: tuple[float, float] = (0.01, 0.025)
    border_min_px: float = 2.0
    paper_tolerance: float = 24.0
    min_paper: float = 0.7
    line_min_length: float = 0.15
    line_votes: int = 30
    line_gap: int = 12
    line_merge_angle: float = 3.0
    line_merge_distance: float = 4.0
    max_lines: int = 12
    line_parallel: float = 12.0
    line_square: float = 25.0
    max_line_cards: int = 12
    line_outside: float = 0.05
    cut_min_seen: float = 0.55
    line_below: float = 0.7
    min_relative_area: float = 0.4
    overshoot_length: float = 0.2
    max_overshoot: float = 0.5
    square_aspect: float = 1.2
    mirrored: bool = False
    complete_cut: bool = True
    recut: bool = False
    cut_min_side: float = 0.3
    cut_square: float = 15.0
    slanted: bool = True
    slant_max_corner: float = 76.0
    slant_min_corner: float = 55.0
    slant_min_fill: float = 0.95
    slant_min_support: float = 0.9
    slant_min_part: float = 0.75
    complete_hand: bool = True
    hand_min_seen: float = 0.6
    flat_fallback: bool = True
    flat_close: float = 0.14
    flat_blur: float = 0.0625
    flat_min_shade: float = 0.15
    flat_faint_factor: float = 0.5
    flat_weak_below: float = 0.5
    paper_fallback: bool = True
    paper_ink_window: float = 0.03
    paper_ink_margin: float = 25.0
    paper_glyph_area: tuple[float, float] = (0.00005, 0.004)
    paper_max_seeds: int = 40
    paper_min_light: float = 100.0
    paper_tolerances: tuple[float, ...] = (5.0, 8.0, 11.0, 14.0)
    paper_close: float = 0.012
    paper_open: float = 0.02
    paper_aspect: tuple[float, float] = (0.86, 1.29)
    paper_min_fill: float = 0.85
    paper_min_solid: float = 0.6
    paper_agree: int = 2
    octo_frame: bool = True
    octo_frame_block: int = 15
    octo_frame_offset: float = 6.0
    octo_frame_epsilon: float = 0.04
    octo_frame_aspect: tuple[float, float] = (0.75, 1.35)
    octo_frame_pad: float = 0.5
    ladder_reads: int = 12
    ladder_sizes: tuple[float, float] = (0.8, 1.7)
    ladder_support: float = 0.7
    ladder_inside: float = 0.6
    twin_inside: float = 0.1
    twin_aspect_tolerance: float = 0.15
    twin_inside_joined: float = 0.02
    outline_corner: float = 0.1
    outline_turn: float = 10.0
    relay_gain: float = 0.1
    relay_moved: float = 0.03
    relay_sizes: tuple[float, float] = (0.84, 1.04)
    relay_size_step: float = 0.02
    relay_turn: float = 6.0
    relay_turn_step: float = 1.0
    relay_far_turn: float = 16.0
    relay_far_gain: float = 0.08
    relay_far_reach: float | None = 0.12
    relay_read: bool = True
    quick_long_side: int = 427

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Check every field.

        Raises:
            ValueError: a field is out of range; the message names the field and its value.
        """
        _check("find.work_long_side", self.work_long_side, 64, 8192)
        if not isinstance(self.work_long_side, int):
            raise ValueError(f"find.work_long_side must be an int, got {self.work_long_side!r}")
        for name in (
            "card_width",
            "card_height",
            "background_scale",
            "edge_probe",
            "refine_radius",
            "full_open",
            "fine_pad",
        ):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"find.{name} must be an int, got {value!r}")
        _check("find.card_width", self.card_width, 16, 4096)
        _check("find.card_height", self.card_height, 16, 4096)
        if self.card_height <= self.card_width:
            raise ValueError(
                "find.card_height must exceed find.card_width (portrait), "
                f"got {self.card_width}x{self.card_height}"
            )
        _check("find.card_aspect", self.card_aspect, 1.0, 3.0)
        _check("find.aspect_tolerance", self.aspect_tolerance, 0.0, 1.0)
        if self.card_size_px is not None:
            size = self.card_size_px
            if not (isinstance(size, tuple) and len(size) == 2):
                raise ValueError(f"find.card_size_px must be (short, long) or None, got {size!r}")
            _check("find.card_size_px[0]", size[0], 4.0, 10000.0)
            _check("find.card_size_px[1]", size[1], 4.0, 10000.0)
            if size[1] < size[0]:
                raise ValueError(f"find.card_size_px must be (short, long) with short <= long, got {size!r}")
        if self.play_area is not None:
            area = self.play_area
            if not (
                isinstance(area, tuple)
                and len(area) >= 3
                and all(isinstance(p, tuple) and len(p) == 2 for p in area)
                and all(isinstance(v, int | float) and math.isfinite(v) for p in area for v in p)
            ):
                raise ValueError(f"find.play_area must be 3 or more (x, y) points or None, got {area!r}")
        _check("find.min_card_area", self.min_card_area, 0.0, 1.0)
        _check("find.max_card_area", self.max_card_area, 0.0, 1.0)
        if self.min_card_area >= self.max_card_area:
            raise ValueError(
                f"find.min_card_area ({self.min_card_area}) must be below "
                f"find.max_card_area ({self.max_card_area})"
            )
        _check("find.background_scale", self.background_scale, 1, 64)
        _check("find.background_kernel", self.background_kernel, 0.01, 2.0)
        _check("find.white_margin", self.white_margin, -255.0, 255.0)
        _check("find.max_chroma", self.max_chroma, 0.0, 255.0)
        _check("find.paper_chroma", self.paper_chroma, 0.0, 182.0)
        _check("find.table_chroma", self.table_chroma, 0.0, 182.0)
        _check("find.grey_look", self.grey_look, 0.0, 182.0)
        _check("find.denoise_kernel", self.denoise_kernel, 1, 15)
        if not isinstance(self.denoise_kernel, int) or self.denoise_kernel % 2 == 0:
            raise ValueError(f"find.denoise_kernel must be an odd int, got {self.denoise_kernel!r}")
        _check_int("find.outline_shrink", self.outline_shrink, 1, 4)
        _check_int("find.shrunk_denoise_kernel", self.shrunk_denoise_kernel, 1, 15)
        if self.shrunk_denoise_kernel % 2 == 0:
            raise ValueError(f"find.shrunk_denoise_kernel must be odd, got {self.shrunk_denoise_kernel!r}")
        _check_int("find.shrunk_grow", self.shrunk_grow, 0, 8)
        _check("find.shrunk_canny_low", self.shrunk_canny_low, 0.0, 1000.0)
        _check("find.shrunk_canny_high", self.shrunk_canny_high, self.shrunk_canny_low, 1000.0)
        _check("find.canny_low", self.canny_low, 0.0, 1000.0)
        _check("find.canny_high", self.canny_high, 0.0, 1000.0)
        if self.canny_low > self.canny_high:
            raise ValueError(
                f"find.canny_low ({self.canny_low}) must not exceed find.canny_high ({self.canny_high})"
            )
        _check("find.min_colourless", self.min_colourless, 0.0, 1.0)
        _check("find.min_lightness", self.min_lightness, 0.0, 1.0)
        _check("find.max_darker", self.max_darker, 0.0, 255.0)
        _check("find.split_canny_low", self.split_canny_low, 0.0, 1000.0)
        _check("find.split_canny_high", self.split_canny_high, 0.0, 1000.0)
        if self.split_canny_low > self.split_canny_high:
            raise ValueError(
                f"find.split_canny_low ({self.split_canny_low}) must not exceed "
                f"find.split_canny_high ({self.split_canny_high})"
            )
        _check("find.full_blur", self.full_blur, 0.3, 10.0)
        _check("find.full_canny_low", self.full_canny_low, 0.0, 1000.0)
        _check("find.full_canny_high", self.full_canny_high, 0.0, 1000.0)
        _check("find.full_open", self.full_open, 1, 99)
        _check("find.min_outside", self.min_outside, 0.0, 1.0)
        _check("find.row_part", self.row_part, 0.0, 1.0)
        _check("find.row_span", self.row_span, 0.0, 1.0)
        _check("find.row_overlap", self.row_overlap, 0.0, 1.0)
        _check("find.row_width", self.row_width, 0.0, 1.0)
        _check("find.row_gap", self.row_gap, 0.0, 1.0)
        _check("find.poly_epsilon", self.poly_epsilon, 0.001, 0.2)
        _check("find.min_fill", self.min_fill, 0.0, 1.0)
        _check("find.min_corner_angle", self.min_corner_angle, 10.0, 90.0)
        _check("find.max_corner_angle", self.max_corner_angle, 90.0, 170.0)
        _check("find.min_part_area", self.min_part_area, 0.0, 1.0)
        _check("find.corner_epsilon", self.corner_epsilon, 0.1, 50.0)
        _check("find.min_arm", self.min_arm, 0.0, 1000.0)
        _check("find.arm_slack", self.arm_slack, 0.0, 2.0)
        _check("find.size_tolerance", self.size_tolerance, 0.0, 1.0)
        _check("find.max_sizes", self.max_sizes, 1, 10)
        _check("find.fine_pad", self.fine_pad, 1, 64)
        _check("find.size_ladder_step", self.size_ladder_step, 0.01, 1.0)
        _check("find.whole_inside", self.whole_inside, 0.0, 1.0)
        _check("find.whole_support", self.whole_support, 0.0, 1.0)
        _check("find.whole_largest", self.whole_largest, 0.0, 1.0)
        if not isinstance(self.size_steps, tuple) or len(self.size_steps) > 8:
            raise ValueError(f"find.size_steps must be a tuple of at most 8 numbers, got {self.size_steps!r}")
        for step in self.size_steps:
            _check("find.size_steps[]", step, -0.5, 0.5)
        _check("find.min_inside", self.min_inside, 0.0, 1.0)
        _check("find.min_support", self.min_support, 0.0, 1.0)
        _check("find.min_new_area", self.min_new_area, 0.0, 1.0)
        _check("find.duplicate_distance", self.duplicate_distance, 0.0, 2.0)
        _check("find.edge_probe", self.edge_probe, 1, 16)
        _check("find.top_margin", self.top_margin, 0.0, 1.0)
        _check("find.top_min_overlap", self.top_min_overlap, 0.0, 1.0)
        _check("find.top_inset", self.top_inset, 0.0, 100.0)
        _check("find.top_min_samples", self.top_min_samples, 1, 10000)
        _check("find.top_min_gradient", self.top_min_gradient, 0.0, 10000.0)
        _check("find.top_alignment", self.top_alignment, 0.0, 1.0)
        _check("find.top_small", self.top_small, 0.0, 1.0)
        _check("find.top_print_margin", self.top_print_margin, 0.0, 10.0)
        _check("find.top_print_min_score", self.top_print_min_score, -1.0, 1.0)
        _check("find.top_print_min_overlap", self.top_print_min_overlap, 0.0, 1.0)
        _check("find.top_print_inset", self.top_print_inset, 0.0, 0.5)
        _check("find.top_print_min_spread", self.top_print_min_spread, 0.0, 255.0)
        _check("find.top_print_shading", self.top_print_shading, 0.0, 10.0)
        _check("find.top_index_share", self.top_index_share, 0.0, 1.0)
        _check("find.top_index_ink", self.top_index_ink, 0.0, 2.0)
        _check_bool("find.top_index_blank", self.top_index_blank)
        _check_int("find.top_index_shift", self.top_index_shift, 0, 8)
        _check("find.top_refit_turn", self.top_refit_turn, 0.0, 45.0)
        _check("find.top_refit_turn_step", self.top_refit_turn_step, 0.1, 45.0)
        _check_pair("find.top_refit_sizes", self.top_refit_sizes, 0.1, 2.0)
        _check("find.top_refit_size_band", self.top_refit_size_band, 0.0, 0.5)
        _check("find.top_refit_size_step", self.top_refit_size_step, 0.001, 0.5)
        _check("find.top_refit_grow", self.top_refit_grow, 0.0, 1.0)
        _check("find.top_refit_same", self.top_refit_same, 0.0, 2.0)
        _check_bool("find.top_refit_fresh", self.top_refit_fresh)
        _check("find.top_refit_moved", self.top_refit_moved, 0.0, 2.0)
        _check("find.top_refit_reach", self.top_refit_reach, self.top_refit_moved, 4.0)
        _check_int("find.top_refit_max", self.top_refit_max, 0, 64)
        _check("find.top_refit_named_below", self.top_refit_named_below, 0.0, 1.0)
        _check("find.top_refit_named_gain", self.top_refit_named_gain, -1.0, 1.0)
        _check("find.top_refit_named_rename", self.top_refit_named_rename, 0.0, 2.0)
        _check_bool("find.top_refit_named_by_read", self.top_refit_named_by_read)
        _check("find.top_refit_near_best", self.top_refit_near_best, 0.0, 1.0)
        _check_int("find.top_refit_read_agree", self.top_refit_read_agree, 0, 64)
        _check_bool("find.top_refit_read_under", self.top_refit_read_under)
        _check_pair("find.top_refit_read_sizes", self.top_refit_read_sizes, 0.1, 3.0)
        _check("find.top_refit_read_step", self.top_refit_read_step, 0.005, 1.0)
        _check("find.top_refit_read_grow", self.top_refit_read_grow, 0.0, 2.0)
        _check("find.refine_radius", self.refine_radius, 0, 64)
        _check("find.refine_min_points", self.refine_min_points, 0.0, 1.0)
        _check("find.refine_min_step", self.refine_min_step, 0.0, 255.0)
        _check("find.faint_canny_low", self.faint_canny_low, 0.0, 1000.0)
        _check("find.faint_canny_high", self.faint_canny_high, 0.0, 1000.0)
        if self.faint_canny_low > self.faint_canny_high:
            raise ValueError(
                f"find.faint_canny_low ({self.faint_canny_low}) must not exceed "
                f"find.faint_canny_high ({self.faint_canny_high})"
            )
        _check_int("find.faint_open", self.faint_open, 1, 31)
        _check("find.faint_below", self.faint_below, 0.0, 1.0)
        _check("find.square_aspect", self.square_aspect, 1.0, 2.0)
        _check("find.lone_aspect_tolerance", self.lone_aspect_tolerance, 0.0, 1.0)
        _check_int("find.support_points", self.support_points, 4, 1000)
        _check("find.min_side_support", self.min_side_support, 0.0, 1.0)
        _check("find.frame_margin", self.frame_margin, 0.0, 100.0)
        inset = self.border_inset
        if not (isinstance(inset, tuple) and len(inset) == 2):
            raise ValueError(f"find.border_inset must be (from, to), got {inset!r}")
        _check("find.border_inset[0]", inset[0], 0.0, 0.5)
        _check("find.border_inset[1]", inset[1], 0.0, 0.5)
        if inset[0] > inset[1]:
            raise ValueError(f"find.border_inset must be (from, to) with from <= to, got {inset!r}")
        _check("find.border_min_px", self.border_min_px, 0.0, 100.0)
        _check("find.paper_tolerance", self.paper_tolerance, 0.0, 255.0)
        _check("find.min_paper", self.min_paper, 0.0, 1.0)
        _check("find.line_min_length", self.line_min_length, 0.01, 1.0)
        _check_int("find.line_votes", self.line_votes, 1, 10000)
        _check_int("find.line_gap", self.line_gap, 0, 1000)
        _check("find.line_merge_angle", self.line_merge_angle, 0.0, 45.0)
        _check("find.line_merge_distance", self.line_merge_distance, 0.0, 100.0)
        _check_int("find.max_lines", self.max_lines, 0, 100)
        _check("find.line_parallel", self.line_parallel, 0.0, 45.0)
        _check("find.line_square", self.line_square, 0.0, 45.0)
        _check_int("find.max_line_cards", self.max_line_cards, 0, 1000)
        _check("find.line_outside", self.line_outside, 0.0, 0.5)
        _check("find.cut_min_seen", self.cut_min_seen, 0.0, 1.0)
        _check("find.min_relative_area", self.min_relative_area, 0.0, 1.0)
        _check("find.line_below", self.line_below, 0.0, 1.01)
        _check("find.overshoot_length", self.overshoot_length, 0.06, 1.0)
        _check("find.max_overshoot", self.max_overshoot, 0.0, 1.0)
        _check("find.cut_min_side", self.cut_min_side, 0.0, 1.0)
        _check("find.cut_square", self.cut_square, 0.0, 45.0)
        _check("find.slant_max_corner", self.slant_max_corner, 0.0, 90.0)
        _check("find.slant_min_corner", self.slant_min_corner, 0.0, 90.0)
        _check("find.slant_min_fill", self.slant_min_fill, 0.0, 1.0)
        _check("find.slant_min_support", self.slant_min_support, 0.0, 1.0)
        _check("find.slant_min_part", self.slant_min_part, -1.0, 2.0)
        _check("find.hand_min_seen", self.hand_min_seen, 0.0, 1.0)
        _check("find.flat_close", self.flat_close, 0.0, 1.0)
        _check("find.flat_blur", self.flat_blur, 0.0, 1.0)
        _check("find.flat_min_shade", self.flat_min_shade, 0.0, 1.0)
        _check("find.flat_faint_factor", self.flat_faint_factor, 0.01, 1.0)
        _check("find.flat_weak_below", self.flat_weak_below, 0.0, 1.0)
        _check_bool("find.paper_fallback", self.paper_fallback)
        _check("find.paper_ink_window", self.paper_ink_window, 0.001, 0.5)
        _check("find.paper_ink_margin", self.paper_ink_margin, 1.0, 255.0)
        if not isinstance(self.paper_glyph_area, tuple) or len(self.paper_glyph_area) != 2:
            raise ValueError(f"find.paper_glyph_area must be a pair, got {self.paper_glyph_area!r}")
        _check("find.paper_glyph_area[0]", self.paper_glyph_area[0], 0.0, 1.0)
        _check("find.paper_glyph_area[1]", self.paper_glyph_area[1], self.paper_glyph_area[0], 1.0)
        _check_int("find.paper_max_seeds", self.paper_max_seeds, 1, 10000)
        _check("find.paper_min_light", self.paper_min_light, 0.0, 255.0)
        _check_steps("find.paper_tolerances", self.paper_tolerances, 0.5, 128.0)
        _check("find.paper_close", self.paper_close, 0.0, 0.5)
        _check("find.paper_open", self.paper_open, 0.0, 0.5)
        _check_pair("find.paper_aspect", self.paper_aspect, 0.1, 10.0)
        _check("find.paper_min_fill", self.paper_min_fill, 0.0, 1.0)
        _check("find.paper_min_solid", self.paper_min_solid, 0.0, 1.0)
        _check_int("find.paper_agree", self.paper_agree, 1, 1000)
        _check_bool("find.octo_frame", self.octo_frame)
        _check_int("find.octo_frame_block", self.octo_frame_block, 3, 255)
        if self.octo_frame_block % 2 == 0:
            raise ValueError(f"find.octo_frame_block must be odd, got {self.octo_frame_block!r}")
        _check("find.octo_frame_offset", self.octo_frame_offset, 0.0, 255.0)
        _check("find.octo_frame_epsilon", self.octo_frame_epsilon, 0.001, 0.2)
        _check_pair("find.octo_frame_aspect", self.octo_frame_aspect, 0.1, 10.0)
        _check("find.octo_frame_pad", self.octo_frame_pad, 0.0, 10.0)
        _check_int("find.ladder_reads", self.ladder_reads, 0, 1000)
        _check_pair("find.ladder_sizes", self.ladder_sizes, 0.1, 10.0)
        _check("find.ladder_support", self.ladder_support, 0.0, 1.0)
        _check("find.ladder_inside", self.ladder_inside, 0.0, 1.0)
        _check("find.twin_inside", self.twin_inside, 0.0, 1.0)
        _check("find.twin_aspect_tolerance", self.twin_aspect_tolerance, 0.0, 1.0)
        _check("find.twin_inside_joined", self.twin_inside_joined, 0.0, 1.0)
        _check("find.outline_corner", self.outline_corner, 0.0, 1.0)
        _check("find.outline_turn", self.outline_turn, 0.0, 45.0)
        _check("find.relay_gain", self.relay_gain, 0.0, 1.0)
        _check("find.relay_moved", self.relay_moved, 0.0, 1.0)
        _check_pair("find.relay_sizes", self.relay_sizes, 0.5, 1.5)
        _check("find.relay_size_step", self.relay_size_step, 0.001, 0.5)
        _check("find.relay_turn", self.relay_turn, 0.0, 45.0)
        _check("find.relay_turn_step", self.relay_turn_step, 0.1, 45.0)
        _check("find.relay_far_turn", self.relay_far_turn, 0.0, 45.0)
        _check("find.relay_far_gain", self.relay_far_gain, 0.0, 1.0)
        if self.relay_far_reach is not None:
            _check("find.relay_far_reach", self.relay_far_reach, 0.0, 2.0)
        _check_bool("find.relay_read", self.relay_read)
        _check_int("find.quick_long_side", self.quick_long_side, 0, 8192)
        if self.quick_long_side > 0 and not 64 <= self.quick_long_side < self.work_long_side:
            raise ValueError(
                f"find.quick_long_side must be 0 or in [64, find.work_long_side), "
                f"got {self.quick_long_side!r}"
            )
        if not isinstance(self.faint_at_border, bool):
            raise ValueError(f"find.faint_at_border must be True or False, got {self.faint_at_border!r}")
        if not isinstance(self.mirrored, bool):
            raise ValueError(f"find.mirrored must be True or False, got {self.mirrored!r}")
        _check_bool("find.complete_cut", self.complete_cut)
        _check_bool("find.recut", self.recut)
        _check_bool("find.slanted", self.slanted)
        _check_bool("find.complete_hand", self.complete_hand)
        _check_bool("find.flat_fallback", self.flat_fallback)
        _check_bool("find.top_refit_around", self.top_refit_around)
        _check_bool("find.top_lone_named", self.top_lone_named)
        _check_bool("find.top_corner_sides", self.top_corner_sides)
        _check("find.top_hand_sides", self.top_hand_sides, 0.0, 1.0)
        _check("find.top_uncovered_share", self.top_uncovered_share, 0.01, 10.0)
        _check_bool("find.top_skin", self.top_skin)
        _check("find.top_skin_min_known", self.top_skin_min_known, 0.05, 1.0)
        _check("find.top_skin_share", self.top_skin_share, 0.0, 1.0)
        _check("find.top_skin_grow", self.top_skin_grow, 0.0, 2.0)
        _check("find.skin_min_chroma", self.skin_min_chroma, 0.0, 128.0)
        _check("find.skin_max_chroma", self.skin_max_chroma, self.skin_min_chroma, 182.0)
        _check_pair("find.skin_hue", self.skin_hue, -180.0, 180.0)
        _check("find.skin_table_distance", self.skin_table_distance, 0.0, 128.0)
        _check("find.skin_paper_distance", self.skin_paper_distance, 0.0, 128.0)
        _check("find.skin_paper_lightest", self.skin_paper_lightest, 0.01, 1.0)
        if not isinstance(self.skin_warmer, tuple) or len(self.skin_warmer) != 2:
            raise ValueError(f"find.skin_warmer must be an (a, b) pair, got {self.skin_warmer!r}")
        _check("find.skin_warmer[0]", self.skin_warmer[0], -128.0, 128.0)
        _check("find.skin_warmer[1]", self.skin_warmer[1], -128.0, 128.0)
        _check("find.skin_min_blob", self.skin_min_blob, 0.0, 0.1)
        _check_int("find.top_uncovered_max", self.top_uncovered_max, 0, 64)
        _check_bool("find.top_face_fit", self.top_face_fit)
        _check("find.top_face_min_score", self.top_face_min_score, -1.0, 1.0)
        _check("find.top_face_gain", self.top_face_gain, 0.0, 2.0)
        _check("find.top_face_moved", self.top_face_moved, 0.0, 1.0)
        _check("find.top_face_reach", self.top_face_reach, self.top_face_moved, 2.0)
        _check("find.top_face_aspect", self.top_face_aspect, 0.0, 1.0)
        _check_int("find.top_face_iterations", self.top_face_iterations, 1, 1000)


@dataclass(frozen=True)
class CoveredParams:
    """Parameters of reading covered cards from their corner index (``scanner.scan_covered``).

    Attributes:
        enabled: read covered cards from their corners at all.
        patch: the part of the card (fraction of each side, from the corner) cut out around a
            corner and read; it holds the index and its search margin.
        index_on_card: the corner's index box lies on card pixels by at least this fraction...
        index_ink: ...and its darkest point is at least this much darker than its median
            (lightness, 0..255, work image): it holds print.
        min_open: corners are looked for only when the card pixels outside the cards identified,
            opened by ``open_margin`` (thin rims along their outlines taken away), add up to
            this fraction of the smallest card's area...
        open_margin: ...and only within this many work pixels of those card pixels.
        overlap_open: where those are too few, the card pixels inside a card identified that
            overlaps another card identified, on another visible card part (``work.split``) than
            the index that card was identified at and reaching the outer outline of the card
            pixels, count as well (with ``over_identified``; not opened): the middle card of a
            fan or a row of three shows only inside the outlines of the identified cards either
            side of it.  Such a frame's corners are read as they lie and turned, not moved nor
            searched farther.
        max_reads: at most this many corners are read per frame (the time per frame stays
            bounded; a hand row of a dozen cards offers a hundred corners and more, and 24
            reads left cards of hand rows unread: 64 named 4-7 more cards on each of the
            fixtures and three sets of held-out scenes, none wrong).
        search_px: how far (canonical card pixels, each way) the index is looked for around its
            place (a corner found from edges may be a few pixels off).
        min_score: a corner names a card when its index score reaches this...
        min_margin: ...leads the next card by this much...
        min_part_score: ...and each part of a standard card's index (rank, suit) reaches this...
        octo_min_part_score: ...or each part of an Octoplus index (label, mark) reaches this...
        octo_min_margin: ...and an Octoplus index leads by this much (its labels differ in less
            ink than a standard index: +2 and -2 by one stroke).
        octo_clear: an Octoplus corner whose parts read under ``octo_min_part_score`` still
            names its card when it scores ``min_score``, leads the next card by
            ``octo_clear_margin`` and each part reaches ``octo_clear_part_score``, unless its
            label is one of ``octo_clear_except``: a clear lead on a faint label (a blurred or
            small card's mark and strokes read under 0.7).  On scenes rendered with three other
            seeds every corner read of the scan so (score 0.6, lead 0.06-0.08, parts 0.55-0.6)
            lay at a corner of a card of that name, but for the label 4: of the reads ranking a
            4 first at score 0.6, lead 0.04 and parts 0.5, 64 of 171 lay at another card's
            corner or at none (its open strokes fit other prints).  A size probe's reads
            (``size_probes``, ``cluster_probes``) are named by the usual thresholds alone: a
            label read at a wrong size may still lead clearly.  Off by default: on folders of
            scenes rendered for no tuning it named 22 cards more and made two wrong names
            (a covered 2 read as 1, a false card 1 on a fan), a wrong rate far over the
            scanner's goal; the watcher replays every recording right with it on or off...
        octo_clear_margin: ...the lead over the next card...
        octo_clear_part_score: ...each part's least score...
        octo_clear_except: ...and the labels left to the usual thresholds.
        octo_blur: an Octoplus corner that the thresholds leave unnamed is read again against
            templates blurred by this much (canonical card pixels; 0: off) and named when that
            read ranks the same card first and passes the usual thresholds: a print out of focus
            or moving reads fainter and wider strokes than the sharp templates, its parts under
            ``octo_min_part_score`` at its own card.  Size probes never read so.  At 1.5 (the
            default) the fixtures are unchanged, the held-out folders name 13 cards more, the
            fresh 20 and six unseen folders 29, no wrong name added
            (docs/studies/scanner-accuracy.md); on held-out 5656-27 it names a fan's under card
            at its corner, which then takes the top from the card over it...
        octo_blur_min_score: ...only a corner whose first card scores at least this (sharp)...
        octo_blur_lead: ...and the blurred read must lead its next card by this much more than
            ``octo_min_margin``.
        twin_band: a standard corner named so whose twin (the same rank in the other suit of
            its colour) scores within this much of it keeps its name only when a second look at
            the suits (``scanner.identify_look.look``) does not prefer the twin (0: off): a
            spade and a club read alike on a small index, and a card's template composed from
            other cards' parts (``octotable calibrate templates``) can outscore the learned
            twin (on a real photo, an ace of spades named AC by 0.07).
        twin_unscored: the twin is looked at so too when the index reader did not score it
            finely (``identify_index.UNSCORED``: the coarse pass did not shortlist it), which says
            nothing of how close it reads: on scenes rendered with six other seeds, four lone
            corners of spades were named clubs with their spade unscored, the look preferring
            the spade each time, and the look preferred no right name's twin.
        black_ink: a standard corner's index ink counts as black below this redness (0..1, the
            darkest ink's red over its other channels, ``scanner.identify_colour.redness``), so
            that red cards lose the identifier's ``colour_penalty`` there (whole cards keep
            ``IdentifyParams.black_ink``, 0.03): a lone corner has no second corner to agree on its
            suit, and a black index blurred on a green table read 0.032 and was named 6D.
        learned_accept: an Octoplus corner read that the thresholds above and the second look
            leave unnamed names its first card when the learned model (``scanner.covered_learned``,
            ``scanner/data/corner_model.json``, weighing the read's cues with those of the scene
            around it, ``covered_learned.CornerScene``) gives it at least this probability of being
            the card there (0.5..1; ``None``: off; at 0.9 no wrong name was added on the fixtures,
            the held-out and two unseen folders and 7 more cards were named; the four scanner
            tests it changed were right answers, and the fixture pile top it cost was the index
            cue's mistake, mended by ``FindParams.top_index_blank``: both wait for side-by-side
            figures to be switched on)...
        learned_accept_std: ...and a standard (Oktris) corner read at least this (``None``: off).
        learned_except: Octoplus labels the learned model never names (labels whose strokes
            fit other prints: a blurred 6 reads as 4).
        learned_probe: the learned step names cards in the size probes too (the reads that choose
            the frame's card size, ``scan_covered._probe_size``), where ``octo_clear`` does not.
        size_steps: relative steps around the frame's card size tried when a corner's card is
            laid out; the size whose outline shows best on card pixels is kept (by default
            the frame's size alone: on scenes rendered with other seeds the best-shown outline
            of a covered card was more often a wrong size than the frame's).
        size_spread: with no card identified in the frame, the largest card found is tried
            too when it is this much larger than the median one (a frame printed on a face is
            a smaller card-shaped outline).
        size_probes: with neither calibration nor a card identified, the frame's card size is
            chosen by the index: up to this many corners (those with the longest arms whose
            index box shows print) are read at every candidate size (``scanner.covered_size``),
            a corner named votes for the size its card scores best at, and the size with most
            votes (the best scored on a tie) is the frame's; 0 keeps
            the sizes of the outlines found...
        size_votes: ...corners are read so until one size names this many, or until
            ``size_reads`` reads are made.
        ladder_steps: when no corner the frame-wide probe (``size_probes``: no calibration, no
            card identified) reads names a card at any candidate size, the corners probed are
            read again at sizes between the candidates: each candidate lengthened by each of
            these fractions in turn (every candidate by the first, then by the next), and the
            first such size at which ``ladder_votes`` corners name a card is the frame's (not
            a cluster's, ``cluster_probes``: the cards identified give sizes at each place, and
            a cluster so read laid a fan's card out 17% too large).  A true size lying between
            two candidates reads right at neither (an index names its card only within about 5%
            of its size, and scores best about 5% above it), so the steps lengthen only: sizes
            5% shorter named a false card and 15% longer laid a card out too large on held-out
            folders...
        ladder_gap: ...sizes within this fraction of a candidate or of a size already listed
            are left out...
        ladder_votes: ...a corner names a card at such a size only when it ranked that card
            first at the candidate the size lengthens (read far off its size, an index may
            name another card)...
        ladder_reads: ...at most this many such reads a probe (0: off; 96 by default: with
            ``ladder_min_score`` it names 8 more cards on two of 14 rendered held-out folders and
            marks 2 more pile tops right, for no wrong name, and changes nothing on the
            fixtures and the real photos).
        ladder_min_score: ...and a corner names a card at such a size only when its read scores at
            least this much (the read's thresholds apart): on the real photos' scenes the card
            named that is not there (a 5D) read 0.60 at a size 5% over a candidate, its index's
            least part 0.52, while the six cards the sizes between named on held-out folders read
            0.72-0.74 there (0: no more than the thresholds).
        over_identified: a corner whose index box lies inside a card identified is read when it
            lies on another visible card part (``work.split``) than the index that card was
            identified at (a card lying on it); otherwise it is not read.
        veto_lead: the identifier's first card for a found card vetoes a different name read at
            a corner on nearly its outline only when it leads the identifier's runner-up by at
            least this much (0: whenever it is first).
        veto_score: ...and only when it scores at least this much: a found card whose first
            card scores less is read poorly (outlines over two or three cards of a fan or a hand
            row: 0.10-0.43, against corners read at 0.55-0.88), and its first card says nothing
            (0: at any score). On 15 rendered folders every rival leading by ``veto_lead`` (46,
            at 0.10-0.59) stood against a right name, none against a wrong one; a rival at 0.68
            once kept a wrong name out, so a rival scoring 0.6 or more still vetoes.
        veto_named: in a deck holding every card once (Oktris), the identifier's first card
            for a found card vetoes nothing when that card is identified elsewhere in the frame:
            the found outline then runs over that card and reads its print (an outline over two
            cards of a pile read as the top card it reaches into), not the card under it.
        veto_near: in any deck, the identifier's first card for a found card vetoes nothing
            when a card of that name is identified within this many short sides of it
            (``scan_covered._apart``; 0: off): the found outline then lies over that card's
            neighbour in a fan or a row, whose print it reads (an Octoplus fan's covered 5
            whose outline ranked the +2 over it first, at 0.11).  At 0.5 it names that 5 and a
            card of held-out 5151 and changes nothing else over the fixtures and 14 rendered
            folders; it once cost a play of the recorded Octoplus round re-rendered at JPEG
            quality 52 with noise seed 2 (``benchmarks.recorded_games``), where the 2 it names
            under the 1 just played was put over the 1 by the sides alone: no longer, with
            ``FindParams.top_corner_sides``.
        size_candidates: at most this many candidate sizes: those of the outlines found, then
            those that whole card sides on the outline of the card pixels agree with, then
            those of the ``size_edges`` longest straight edges on card pixels taken for long
            sides (found as ``line_votes``, ``line_gap``, at least ``side_min_px`` long), each
            lengthened by every one of ``edge_steps`` (relative: an edge found by the Hough
            transform is mostly a part of a side, and an index reads right only within about
            5% of its card's size)...
        size_match: ...sizes (and a side and a size) within this fraction of each other agree.
        side_tolerance: the outline of the card pixels is straightened to within this many work
            pixels before its whole sides are measured...
        side_min_px: ...a straight run at least this long (work pixels) may be a card side...
        side_join: ...it meets the next one at a card's corner when at most this much outline
            (work pixels, a rounded corner) lies between them...
        side_angle: ...and they turn the outline's way within this many degrees of a right angle.
        same_card: two readings (or a reading and a detection) whose corners lie on average
            within this fraction of the card's short side of each other are the same card.
        replace_card: found cards not identified that lie within this (as ``same_card``) of a
            card named from a corner are outlines of it: the named card replaces them.
        same_place: two readings of different cards whose index corners are closer than this
            fraction of the card's short side read one place: only the better is kept.
        duplicate_point: two corners closer than this (work pixels) with arms within
            ``duplicate_angle`` degrees are one corner.
        duplicate_angle: see ``duplicate_point``. 7: at 10, fixture scene_012's pile card strip
            kept its outline's corner 9 degrees off the card and dropped the end of the straight
            run along its short side (1 degree off, 7.5 from the other), which reads the card; 5
            and 7 measured the same on the fixtures and the held-out folders.
        junction_duplicate_angle: ...the same for a junction (``junction_reach``) against every
            corner kept before it: a junction's arms come from 12-24 work pixels of edge and
            scatter more, so junctions further apart are still one corner, while outline corners
            (longer arms) 7-10 degrees apart are two readings of the place (a thin card strip's
            outline turned off the card's side beside the straight run along that side).
        line_votes, line_length, line_gap: straight edges of card sides are found by a
            probabilistic Hough transform of the work image's edges with this many votes, at
            least this long (work pixels) and bridging gaps this long.
        line_angle: two straight edges meet at a card corner when they are within this many
            degrees of a right angle...
        line_join: ...and their lines cross within this many work pixels of an end of each.
        outline_corners: the corners of the outline of each cluster of touching cards
            (``work.union``) are proposed too, not only those of the visible parts of single
            cards: a covered card's corner that lies on the table shows there even where no
            fine edge cuts it from the card over it.
        longest_first: proposals are read in order of their longer arm, longest first (a long
            straight side is the surest sign of a card's corner; reads are bounded by
            ``max_reads``).
        min_run: with more than 0, both ends of every straight run of a cluster's outline at
            least this long (work pixels) are proposed as well, one arm along the run, the other
            at right angles into the cards: where a fan or a hand row steps by a few pixels,
            each card's index corner ends a run (0: off; on scenes rendered with seven other
            seeds they named 5 more cards of about 1,100 and no wrong one, at the cost of more
            reads).
        run_epsilon: the outline is cut into straight runs with this tolerance (work pixels).
        refine_samples: with more than 0, every proposal is laid on the card edges along its
            arms: this many lightness profiles across each arm locate its edge to a fraction of
            a pixel (8 when used; 0, off, by default: the corners came out nearer the true ones
            but no more cards were named on scenes rendered with other seeds, and a clearer
            corner made a spade read as a club)...
        refine_radius: ...each profile reaching this far (work pixels) either side of the arm...
        refine_edge: ...an edge showing where the lightness rises this much towards the card...
        refine_angle: ...and an arm turned by at most this many degrees (else it stays).
        refine_length: an arm of unknown length (the one across a run) is profiled this far.
        refine_slant_length: the shorter arm takes its own direction from its edge (a card seen
            at a slant has no right-angled corner) when it is at least this long (work pixels);
            a shorter one stays at right angles to the longer.
        turn_reads: a corner that reads unclear (no card named, best score at least
            ``turn_min_score``) is read again with its card turned about the corner point by each
            of ``turn_angles`` degrees (a corner proposal is often a few degrees off, and an index
            read at 3 degrees off reads right only about half as often), at most this many such
            extra reads per frame (0: off; on scenes rendered with three other seeds turns of
            1.5 and 3 degrees either way named 0-4.6% more of the visible cards, none wrong, for
            about 6 extra reads a frame, and turns of 2.5 degrees alone about half as many)...
        turn_angles: ...the turns tried (degrees, counter-clockwise in the image)...
        turn_min_score: ...a corner whose best score is below this is not read again...
        turn_lead: ...and a turned read names its card only when it passes the thresholds of
            any read, leads the next card by this much more than ``min_margin`` (or
            ``octo_min_margin``), is the card the corner ranked first as it lay, and no other
            turn names another card: a second read is a second chance to be wrong (on scenes
            rendered with other seeds a turned read named a spade's corner a club).
        shift_reads: a corner that names no card (as it lay and turned) is read again with its
            card moved back along its longer arm (the side it was found by) by each of
            ``shift_steps``, at most this many such extra reads per frame (0: off): a corner
            found where an outline's straight run ends lies where the card over it cuts the
            side, or where a rounded corner ends it, short of the card's own corner (on the
            fixtures such corners lay 4-20 work pixels along the side from the true one; on
            scenes rendered with three other seeds moved reads named 0-2 more cards of 150-180,
            none wrong)...
        shift_steps: ...the moves tried (fractions of the card's short side)...
        shift_lead: ...and a moved read names its card only when it passes the thresholds of any
            read, leads the next card by this much more than ``min_margin`` (or
            ``octo_min_margin``), and no other move names another card (with no extra lead a
            moved read named a spade's corner a club).
        cluster_probes: with no calibration, each cluster of touching cards (``work.union``)
            holding no card identified has its own card size chosen by the index, as
            ``size_probes`` chooses a frame's, among the frame's size and those its whole card
            sides agree with: cards at another height or distance from the camera than the
            cards identified (a pile whose top card is not identified) show at another size (on
            scenes rendered with three other seeds it named 0-6 more cards of 150-180, none
            wrong, for some 10% more time on frames of covered cards).
        junction_reach: with more than 0, a straight edge inside a cluster of touching cards
            (at least ``junction_length`` work pixels long) that runs into the cluster's outline
            within this many work pixels of its end gives a corner there, proposed after all
            others and never used to choose a card size: in a hand row or a fan each card lying
            on the one before it shows its side so, and its index corner lies where that side
            meets the row's outline (0: off; on scenes rendered with three other seeds they
            named 3-5 more cards of 150-180 and none wrong at 6 or 8; at 12 the lines printed
            on a card's face reached the outline too and one fixture card was named wrong)...
        junction_length: ...(12 named 1-2 more of those cards than 16)...
        junction_refine: ...and each junction is laid on the card edges along its arms with
            this many lightness profiles (``refine_samples`` for these alone; 0: off; 8 named
            one more card on those scenes than none).
        junction_reads: junctions may be read beyond ``max_reads`` by this many reads a frame
            (they come last: on the fixtures and scenes rendered with three other seeds 32 more
            named one more card of each set but one, none wrong).
        size_settle: with more than 0, a frame read at more than one card size (no calibration,
            no card identified, and no probe naming a corner at any candidate size) keeps to one
            size once it has named this many cards and the other sizes none: the reads those
            sizes would spend go to the corners still to be read (fixture scene_039's hand rows
            ran out of reads before their junctions; 0: every corner read at every size).
        unfound_probe: with no calibration and no card found at all (the finder rebuilt no
            outline, e.g. a pile whose top card a hand cuts), the frame-wide size probe
            (``size_probes``) still chooses a size among those whole card sides and long edges
            give (those of a card smaller than the finder's smallest left out), and the corners
            are read at it (off: such a frame is left with no card); where the probe names no
            corner, at the first ``unfound_sizes`` of those sizes in turn (``size_settle``).
        found_sizes: with outlines found but none identified, no calibration and no probe
            naming a corner at any candidate size, the corners are read at the sizes of the
            outlines found and then, in turn, at the likeliest of the probe's sizes, up to this
            many sizes in all; those extra sizes' reads are beyond the frame's read budgets
            (counted, they took the reads of the corners read after them: a pile's top card
            lost), and every corner is read at them until named (no ``size_settle``: held-out
            8484-039 holds cards of both sizes). A hand row of overlapping cards is outlined as
            one card-shaped blob, and its size is no card's (8484-039's rows, found at 139 px
            against a true 99; 1: the outlines' sizes only; 3: a wrong name more).
        local_size: with cards identified and no calibration, a corner that names nothing at
            the frame's size is read again at the card size those cards imply at its place
            (``covered_size.local_shorts``: a plane fitted over their short sides, or the nearest
            card's) when that differs from the frame's by more than ``size_match`` (a camera off
            vertical sees the cards of one frame at sizes up to a quarter apart, and an index
            reads right only within about 5% of its card's size; read first at the local size
            instead, the fixtures and held-out scenes lost as many cards as they gained)...
        named_size: once every pass has read the frame, when the cards named on their own
            outlines are of a median size this fraction or more away from every size the
            corners were read at (the frame's size, chosen before any card was named, may be a
            printed frame's or a whole row's), covered-card reading runs once more with that
            size as the frame's (0: off).
        local_plane: ...the plane is fitted over at least this many cards...
        local_spread: ...whose centres spread at least this fraction of their median short side
            across every direction (the smaller standard deviation of the centres; else the
            nearest card's size: 0.25 named fixture scene_010's 8H, which 0.5 left, and the same
            cards on three held-out folders)...
        local_reach: ...and its value is kept within this fraction below the smallest and above
            the largest of their sizes.
        size_ties: when the frame-wide size probe (``size_probes``) ends with sizes tied on
            votes (one corner named at each), they are all the frame's sizes, the best scored
            first, until one names its cards (``size_settle``), instead of the best scored alone
            (a hand row of held-out scene 7373-011 was read at 107 px, tied with 90 and 82 px,
            against a true 82-90).
        probe_reread: the corners the frame-wide size probe read and left unnamed are read again
            at the size it chose (or at the sizes tied, ``size_ties``) as every other corner is
            (turned, moved, searched where they read unclear), as a cluster's own probe leaves
            them, first and beyond the frame's read budgets (at most ``size_probes`` corners;
            counted, they took the reads of corners read after them and a held-out hand card was
            lost). Off: the probe's plain read at that size only, which leaves a corner a few
            pixels or degrees off unnamed (fixture scene_019's pile P, read at 1.11 of its size;
            on, 7 cards more over the fixtures and eight rendered folders, none lost, no wrong
            name).
        search_reads: a corner that names no card (as it lay, turned and moved) but whose best
            card scored at least ``search_min_score`` is read once more with its index looked for
            ``search_wide_px`` (canonical card pixels) around its place instead of ``search_px``,
            turned by each of ``search_turns`` degrees about the corner point, at most this many
            such reads a frame (0: off): a corner proposed where a card's side meets a row's
            outline lies a few pixels and degrees off the card's own corner...
        search_turns: ...the turns tried (degrees, counter-clockwise in the image)...
        search_wide_px: ...how far the index is looked for...
        search_min_score: ...a corner whose best card scored below this is not searched...
        search_lead: ...and the best scored read names its card only when it passes the
            thresholds of any read, is the card the corner ranked first as it lay, leads the next
            card by this much more than ``min_margin`` (or ``octo_min_margin``), and no other read
            names another card (on scenes rendered with four other seeds, 40 reads from a score of
            0.6 named 0-1 more cards of 148-178 and none wrong; from 0.5 a club's corner was named
            a spade).
        moved_agree: a turned, moved or searched read that only a second reading names (the
            second look at the parts that tell close cards apart, ``IdentifyParams.look_lead``,
            or an Octoplus label read against blurred templates, ``octo_blur``), at a lead over
            the next card under what its step asks, names its card when at least this many of
            that step's reads of the corner name the same card, and no read names another (0:
            never).  One such read alone named wrong cards (on the committed fixtures and 14
            rendered folders, 2411 cards: second looks alone, 9 cards more and 2 wrong names; two
            agreeing, second looks and blurred labels, 4 more and none wrong).
        gap_reads: two named cards of a row or a fan (their sides within ``gap_turn`` degrees,
            their short sides within ``gap_size`` of each other, their index corners
            ``gap_min``-``gap_max`` of the short side apart along the mean direction of their short
            sides: cosine at least ``gap_along``) leave a gap for one card between them: the card there
            lies half way between them (half the turn from one to the other, about the point the
            turn leaves in place, at the mean size), and its index corner is read there (turned
            a few degrees, then searched farther, as any other corner), at most this many reads
            a frame (each read counted, turned, searched or on the laid card; 0: off).  A hand row's cards
            lying edge to edge, or a fan's, show no corner of their own in the row's outline...
        gap_turn: ...the largest turn between the two cards (degrees)...
        gap_size: ...how much larger the larger card's short side may be (fraction)...
        gap_min: ...the least distance between their index corners (fraction of the short side)...
        gap_max: ...the largest...
        gap_along: ...and the least cosine between that gap and the two cards' short sides.
        gap_apart: such a corner is read where its index box's centre lies farther than this
            (fraction of the short side) from the index boxes of the cards named (or lies on
            another card part than theirs), even inside a named card's outline: the card between
            lies on the card below it, white on white, often on one card part with it.
        gap_beyond: two named cards of a row or a fan next to each other (as for ``gap_reads``,
            their index corners ``gap_step_min``-``gap_step_max`` of the short side apart)
            propose the cards one step past either of them, read after all the gaps: a row's last
            cards...
        gap_step_min: ...
        gap_step_max: ...
        gap_most: a pair of cards whose gap holds a step of the row (``gap_step_min``-
            ``gap_step_max`` of the short side, a pair of either card next to another) 3 to this
            many times leaves room for the cards between, laid out evenly (a fan's several cards
            lying edge to edge), read after the gaps for one card...
        gap_fit: ...when the step goes into the gap a whole number of times within this.
        gap_rounds: the cards named in gaps make new pairs with their neighbours, read in up to
            this many rounds (a row missing its last card and the one before it).
        gap_laid: a gap's corner that no read names (turned, then searched) is read once more on
            the card laid out between the two named cards as they lie (their outline moved part of
            the way, slanted as a tilted camera shows them, sized as they are there) rather than
            laid square from the corner at their mean short side, where the row's print shows at
            that end (each of the two cards named whole, or named from a corner at that end: the
            other index of a card named from a corner lies under its neighbour).  Fixture
            scene_039's hand row on a 15 degree tilt: the -2's corner laid square reads 0.58 by
            0.03, laid as its neighbours lie 0.76 by 0.05 (named); named, it pairs with the +2
            beside it to propose the row's top card, the 6, one step past.
        row_reads: a named card whose card pixels' outline runs on straight past its index corner
            along its short side (``row_reach`` of it, checked ``row_margin`` work pixels to either
            side of that line: card pixels on its body's side, none on the other) lies on a hand row
            whose cards step along their short sides, the cards under it showing a strip beyond its
            long side with their index corners on that line (no corner of their own in the outline:
            white on white on the card below).  The card one step along is read at its index corner
            on the named card moved ``row_steps`` of its short side along the line (the step is not
            known), at most this many reads a frame (0: off); no step is read where another named
            card's index corner lies within ``same_place`` of its corner...
        row_reach: ...how far past the corner the straight run must reach (fraction of the short side)...
        row_margin: ...the distance to either side of the line it is checked at (work pixels)...
        row_steps: ...the steps read (fractions of the short side, rising)...
        row_agree: ...and a card is named when at least this many steps name it and no step names
            another (at the middle one of those steps).  Fixture scene_025: the hand row under the
            4 on top steps 0.36 of the short side; its 1's corner names it at 0.3-0.4, no other step
            names a card.
        centre_check: an Octoplus card named from a corner is read whole by the identifier
            (``scanner.identify.identify``: its centre symbol) on its outline laid out again from its
            read corner (``centre_gain``), and names nothing when the identifier names another card
            there: a whole card on top whose finder outline was not named shows its corner label
            small and blurred (a 6 read as 4), and its centre big (off: False)...
        centre_gain: ...that outline is the one of a card's shape starting at the read corner
            (``scanner.scan_relay.anchored_outlines``, turned as ``FindParams.relay_turn``) of short
            sides ``centre_sizes`` of its own shown best as edges, when it shows this much more of
            its length than the card as laid out (a card laid out at another card's size shows its
            centre symbol off the place the identifier reads; else the card as laid out)...
        centre_sizes: ...the short sides tried, as fractions (low, high) of its own.
        centre_relay: ...and where the identifier names the card's own name there, the card is laid
            out on that outline (off: False): the corner and the centre agree that the card lies
            whole there, and a whole pile top laid out at another card's size reaches over the card
            under it (held-out 9292/27: a 3 laid out 12% too large, nearer the hidden 4 below).  Not
            where that outline parts the card from another reading of its card (fixture scene_003:
            a motion-blurred 7 read whole 0.17 of a short side off its sides, where its other two
            readings no longer joined it, named twice).  On: over the fixtures and 14 rendered
            folders 3 wrong names fewer (10 -> 7), 7 cards more identified and 1 fewer, 5 pile tops
            more right.
        resize_steps: a card named from a corner is read again at each of these fractions of its
            size (smaller: about its read corner), and laid out at the one where its index names
            the same card with the best score, when that leads the score it was named with by
            ``resize_gain`` (empty: off): a card laid out at a size taken from other cards (the
            frame's, or a probe's) reaches past its own sides, and its index reads best at its
            own size...
        resize_gain: ...the lead over its first score that moves it.
        resize_rival: a card named from a corner names nothing when its index read at one of
            ``resize_steps`` ranks another card first, scoring at least this much more than the
            name's own first score (``None``: off): a corner laid out too large reads its own card
            better smaller (on scenes rendered with six other seeds, an 8H read as 6H at 0.744
            reads 8H at 0.802 at 0.9 of its size; the other card ranked first there by a right
            name scored 0.039 under it or less).
        motion_reads: in a frame smeared by motion (``scanner.motion``: measured on the cards
            identified whole), up to this many corners read and left unnamed, the best read first,
            are read again against templates smeared by the same line as each card shows it
            (0: off)...
        motion_cards: ...the blur measured on at most this many cards identified whole (the
            largest first)...
        motion_blind_fit: ...or, with no card identified whole, on the cards found whole and not
            named (``motion.estimate_motion_blind``): each outline's fits are those of its
            candidate (the identifier's first or runner-up) whose face fits best smeared by some
            line, kept when that fit reaches this (a pile's top 2D smeared 6 px: 0.88 as 2D, 0.76
            as 3D; outlines of no card 0.1-0.2; 1.0: never). Such a blur is used only to read
            those outlines' index corners (``motion_found``), not the corners left unnamed: laid
            out at a size no card gave, a card named there was named 35 px off its place...
        motion_found: ...and the cards found whole and not named are read at both their index
            corners against the smeared templates too (the first corner naming a card), before
            the corners left unnamed.
        motion_min_fit: ...whose print correlates with their template unsmeared this much at
            least (a card of a fan whose outline holds the cards over it, or a template laid onto
            another card, fits better smeared, as a motion would: the whole cards of the fixtures
            fit theirs 0.91-0.98 with a motion blur of 6 px or none, a fan card under two others
            0.73, a template on another card 0.3-0.6)...
        motion_lengths: ...by lines of these lengths (frame pixels)...
        motion_angle_step: ...every this many degrees (and the line as a card shows it rounded to
            this step)...
        motion_min_gain: ...the best line kept when the cards' print correlates this much better
            with their templates smeared by it than unsmeared or softened by any of
            ``motion_soft`` (over the fixtures and three rendered folders, 145 frames measured:
            every sharp frame 0.000 or less, the frames smeared 6-7 px 0.011-0.024, 4-5 px
            0.006-0.017 or not told from sharp)...
        motion_soft: ...(Gaussians, frame pixels, over ``motion_defocus``: a frame out of focus
            fits a short line better than the sharp templates, as a motion would)...
        motion_defocus: ...the templates laid on the cards softened by this Gaussian (frame pixels;
            every camera's print is a little soft)...
        motion_highpass: ...and both compared less their blur by this Gaussian (frame pixels: light
            and glare across the card do not count)...
        motion_align_px: ...after the frame's print is moved onto the template's by the affine map
            that fits them best, found in at most ``motion_align_steps`` steps, when that moves no
            corner of the card's box more than this (frame pixels; 0: not moved): an outline a few
            pixels off fits the template better smeared, as a motion would.
        plane_reads: with cards identified whole, up to this many corners read and left unnamed,
            the best read first, are read again on the card the table plane lays at the corner
            (``scanner.covered_plane``: the homography from the table, where every card is an
            upright rectangle of one size, to the frame, fitted on the corners of the cards
            identified whole; the corner and its sides mapped into the table, the card laid there
            and mapped back; 0: off): a tilted camera sees a card far from it smaller and
            foreshortened, and the rectangle of the card's aspect laid at its corner misses its
            index (over the fixtures and 14 rendered folders of 48 scenes, 2002 cards named right
            became 2027 and 335 piles' tops right 341, no wrong name added; 32 reads
            named no more)...
        plane_fit: ...the plane kept when it puts every such card's corners within this fraction
            of its short side (the outlines found on a rendered folder tilted up to 20 degrees fit
            their frame's plane within 0.07; at 0.05 a few frames' planes were left out and 5
            cards fewer named over 8 folders, at 0.15 none more), fitted over several cards in
            this many rounds of their places on the table and the homography over them (started
            from the largest card's own homography, the fit settles in a few)...
        plane_replace: ...and a card so named replaces the cards found and not identified where it
            lies only when one of them is marked top (``False``: never); a card found under
            others is read again on its own outline after (``scanner.scan``), as a whole card that
            can be on top, where the card laid on the plane, not whole, could not (replacing any
            named 4 cards more over the 15 folders but lost a pile's top; never replacing, 13
            cards and 3 tops fewer).
        edge_reads: up to this many corners read and left unnamed (a corner left at two sizes counts
            twice), the best read first, are read again laid on their card's edges
            (``find_corners.laid_on_edges``: lightness profiles across each arm place its edge to a
            fraction of a pixel, the longer arm giving the direction and the shorter one its own
            where it is long enough; 0: off): a corner proposal's arms are off the card's sides by 2
            degrees at the median and by 5 or more for one corner in five (a junction's or a run's
            end, or a card seen at a slant, whose corner is no right angle), and such a corner read
            as proposed names its card a third as often as read on its true sides. A read unclear is
            read turned (``turn_angles``). A card so named is a last resort (read after the others,
            as a moved read), and one whose corner lies inside a card of its name is that card read
            from its other index corner: not named again (over the fixtures and 14 rendered folders
            of 48 scenes, 2082 cards named right became 2103, 2113 with ``edge_near``, and 346
            piles' tops right 350, no wrong name added; 32 reads named no more)...
        edge_samples: ...each arm profiled at this many places...
        edge_angle: ...an arm turned by at most this many degrees (else it stays as proposed; 12
            named one card fewer)...
        edge_min_turn: ...and a corner laid within this many degrees of its arms as proposed...
        edge_min_move: ...and this many work pixels of its place is not read again.
        edge_near: a corner that names nothing laid on the edges of its whole arms is laid again on
            the edges of each of these fractions of its arms nearest the corner in turn, until one
            names its card (``()``: not): a side turned 5 degrees from its arm leaves the edge
            profiles' reach far from the corner, where the index lies; a card named so only when
            the corner ranked it first as it lay (over the 15 folders, 0.6 named 10 cards more and
            no wrong name; 0.4 alone 8; 0.4 after 0.6 3 more, but a held-out fan lost its top card;
            named whatever the corner ranked first, 0.6 named 13 and read a 3 as 1; the near fit
            alone instead of the whole arms', at 0.4 or 0.6, lost 6-8 of their cards and 2-3
            tops).
    """

    enabled: bool = True
    patch: float = 0.5
    index_on_card: float = 0.8
    index_ink: float = 40.0
    min_open: float = 0.1
    open_margin: int = 3
    overlap_open: bool = True
    max_reads: int = 64
    search_px: int = 12
    min_score: float = 0.6
    min_margin: float = 0.02
    min_part_score: float = 0.65
    octo_min_part_score: float = 0.7
    octo_min_margin: float = 0.04
    octo_clear: bool = False
    octo_clear_margin: float = 0.06
    octo_clear_part_score: float = 0.55
    octo_clear_except: tuple[str, ...] = ("4",)
    octo_blur: float = 1.5
    octo_blur_min_score: float = 0.55
    octo_blur_lead: float = 0.0
    twin_band: float = 0.1
    twin_unscored: bool = True
    black_ink: float = 0.05
    learned_accept: float | None = None
    learned_accept_std: float | None = None
    learned_except: tuple[str, ...] = ("4",)
    learned_probe: bool = False
    size_steps: tuple[float, ...] = (0.0,)
    size_spread: float = 0.15
    size_probes: int = 8
    over_identified: bool = True
    veto_lead: float = 0.02
    veto_score: float = 0.6
    veto_named: bool = True
    veto_near: float = 0.5
    size_votes: int = 2
    size_candidates: int = 10
    size_edges: int = 3
    edge_steps: tuple[float, ...] = (0.0, 0.07, 0.14)
    size_reads: int = 48
    ladder_steps: tuple[float, ...] = (0.05, 0.1)
    ladder_gap: float = 0.03
    ladder_votes: int = 1
    ladder_reads: int = 96
    ladder_min_score: float = 0.65
    size_match: float = 0.06
    side_tolerance: float = 1.5
    side_min_px: float = 10.0
    side_join: float = 12.0
    side_angle: float = 12.0
    same_card: float = 0.2
    replace_card: float = 0.3
    same_place: float = 0.25
    duplicate_point: float = 3.0
    duplicate_angle: float = 7.0
    junction_duplicate_angle: float = 10.0
    line_votes: int = 12
    line_length: float = 12.0
    line_gap: float = 2.0
    line_angle: float = 12.0
    line_join: float = 4.0
    outline_corners: bool = True
    longest_first: bool = True
    min_run: float = 8.0
    run_epsilon: float = 1.5
    refine_samples: int = 0
    refine_radius: float = 3.0
    refine_edge: float = 8.0
    refine_angle: float = 8.0
    refine_length: float = 12.0
    refine_slant_length: float = 12.0
    turn_reads: int = 32
    turn_angles: tuple[float, ...] = (-3.0, -1.5, 1.5, 3.0)
    turn_min_score: float = 0.5
    turn_lead: float = 0.0
    shift_reads: int = 64
    shift_steps: tuple[float, ...] = (0.05, 0.1, 0.15, 0.2)
    shift_lead: float = 0.02
    cluster_probes: bool = True
    junction_reach: float = 6.0
    junction_length: float = 12.0
    junction_refine: int = 8
    junction_reads: int = 32
    size_settle: int = 2
    size_ties: bool = True
    probe_reread: bool = True
    unfound_probe: bool = True
    unfound_sizes: int = 2
    found_sizes: int = 2
    local_size: bool = True
    named_size: float = 0.03
    local_plane: int = 3
    local_spread: float = 0.25
    local_reach: float = 0.15
    search_reads: int = 40
    search_turns: tuple[float, ...] = (-6.0, -3.0, 0.0, 3.0, 6.0)
    search_wide_px: int = 20
    search_min_score: float = 0.6
    search_lead: float = 0.0
    moved_agree: int = 2
    gap_reads: int = 32
    gap_turn: float = 30.0
    gap_size: float = 0.15
    gap_min: float = 0.6
    gap_max: float = 1.2
    gap_along: float = 0.9
    gap_apart: float = 0.3
    gap_beyond: bool = True
    gap_step_min: float = 0.25
    gap_step_max: float = 0.6
    gap_most: int = 4
    gap_fit: float = 0.25
    gap_rounds: int = 2
    gap_laid: bool = True
    row_reads: int = 32
    row_reach: float = 0.3
    row_margin: float = 2.0
    row_steps: tuple[float, ...] = (0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6)
    row_agree: int = 2
    centre_check: bool = True
    centre_gain: float = 0.1
    centre_sizes: tuple[float, float] = (0.8, 1.04)
    centre_relay: bool = True
    resize_steps: tuple[float, ...] = (0.86, 0.9)
    resize_gain: float = 0.03
    resize_rival: float | None = 0.0
    motion_reads: int = 16
    motion_cards: int = 3
    motion_blind_fit: float = 0.8
    motion_found: bool = True
    motion_min_fit: float = 0.85
    motion_lengths: tuple[float, ...] = (3.0, 5.0, 7.0, 9.0)
    motion_angle_step: float = 15.0
    motion_min_gain: float = 0.005
    motion_soft: tuple[float, ...] = (0.7, 1.2)
    motion_defocus: float = 1.0
    motion_highpass: float = 6.0
    motion_align_px: float = 8.0
    motion_align_steps: int = 20
    plane_reads: int = 16
    plane_fit: float = 0.1
    plane_rounds: int = 8
    plane_replace: bool = True
    edge_reads: int = 16
    edge_samples: int = 8
    edge_angle: float = 20.0
    edge_min_turn: float = 0.5
    edge_min_move: float = 0.5
    edge_near: tuple[float, ...] = (0.6,)

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Check every field.

        Raises:
            ValueError: a field is out of range; the message names the field and its value.
        """
        _check_bool("covered.enabled", self.enabled)
        _check("covered.patch", self.patch, 0.3, 1.0)
        _check("covered.index_on_card", self.index_on_card, 0.0, 1.0)
        _check("covered.index_ink", self.index_ink, 0.0, 255.0)
        _check_int("covered.max_reads", self.max_reads, 0, 1000)
        _check("covered.min_open", self.min_open, 0.0, 10.0)
        _check_int("covered.open_margin", self.open_margin, 0, 100)
        _check_int("covered.search_px", self.search_px, 0, 40)
        _check("covered.min_score", self.min_score, -1.0, 1.0)
        _check("covered.min_margin", self.min_margin, 0.0, 2.0)
        _check("covered.min_part_score", self.min_part_score, -1.0, 1.0)
        _check("covered.octo_min_part_score", self.octo_min_part_score, -1.0, 1.0)
        _check("covered.octo_min_margin", self.octo_min_margin, 0.0, 2.0)
        _check_bool("covered.octo_clear", self.octo_clear)
        _check("covered.octo_clear_margin", self.octo_clear_margin, 0.0, 2.0)
        _check("covered.octo_clear_part_score", self.octo_clear_part_score, -1.0, 1.0)
        _check_labels("covered.octo_clear_except", self.octo_clear_except)
        _check("covered.octo_blur", self.octo_blur, 0.0, 10.0)
        _check("covered.octo_blur_min_score", self.octo_blur_min_score, -1.0, 1.0)
        _check("covered.octo_blur_lead", self.octo_blur_lead, 0.0, 2.0)
        _check_steps("covered.size_steps", self.size_steps, -0.5, 0.5)
        _check("covered.size_spread", self.size_spread, 0.0, 10.0)
        _check_int("covered.size_probes", self.size_probes, 0, 100)
        _check_int("covered.size_votes", self.size_votes, 1, 100)
        _check("covered.veto_lead", self.veto_lead, 0.0, 2.0)
        _check("covered.veto_score", self.veto_score, 0.0, 1.0)
        _check_bool("covered.veto_named", self.veto_named)
        _check("covered.veto_near", self.veto_near, 0.0, 5.0)
        _check_bool("covered.overlap_open", self.overlap_open)
        _check_bool("covered.over_identified", self.over_identified)
        _check_int("covered.size_candidates", self.size_candidates, 1, 32)
        _check_int("covered.size_edges", self.size_edges, 0, 32)
        _check_steps("covered.edge_steps", self.edge_steps, -0.5, 1.0)
        _check_int("covered.size_reads", self.size_reads, 0, 10000)
        _check_steps("covered.ladder_steps", self.ladder_steps, -0.5, 0.5)
        _check("covered.ladder_gap", self.ladder_gap, 0.0, 0.5)
        _check_int("covered.ladder_votes", self.ladder_votes, 1, 100)
        _check_int("covered.ladder_reads", self.ladder_reads, 0, 10000)
        _check("covered.ladder_min_score", self.ladder_min_score, 0.0, 1.0)
        _check("covered.size_match", self.size_match, 0.0, 0.5)
        _check("covered.side_tolerance", self.side_tolerance, 0.0, 20.0)
        _check("covered.side_min_px", self.side_min_px, 1.0, 10000.0)
        _check("covered.side_join", self.side_join, 0.0, 100.0)
        _check("covered.side_angle", self.side_angle, 0.0, 45.0)
        _check("covered.same_card", self.same_card, 0.0, 2.0)
        _check("covered.same_place", self.same_place, 0.0, 2.0)
        _check("covered.replace_card", self.replace_card, 0.0, 2.0)
        _check("covered.duplicate_point", self.duplicate_point, 0.0, 100.0)
        _check("covered.duplicate_angle", self.duplicate_angle, 0.0, 90.0)
        _check("covered.junction_duplicate_angle", self.junction_duplicate_angle, 0.0, 90.0)
        _check_int("covered.line_votes", self.line_votes, 1, 10000)
        _check("covered.line_length", self.line_length, 1.0, 10000.0)
        _check("covered.line_gap", self.line_gap, 0.0, 100.0)
        _check("covered.line_angle", self.line_angle, 0.0, 45.0)
        _check("covered.line_join", self.line_join, 0.0, 100.0)
        _check_bool("covered.longest_first", self.longest_first)
        _check_bool("covered.outline_corners", self.outline_corners)
        _check("covered.min_run", self.min_run, 0.0, 10000.0)
        _check("covered.run_epsilon", self.run_epsilon, 0.1, 100.0)
        _check_int("covered.refine_samples", self.refine_samples, 0, 100)
        _check("covered.refine_radius", self.refine_radius, 0.5, 50.0)
        _check("covered.refine_edge", self.refine_edge, 0.0, 255.0)
        _check("covered.refine_angle", self.refine_angle, 0.0, 45.0)
        _check("covered.refine_length", self.refine_length, 0.0, 1000.0)
        _check("covered.refine_slant_length", self.refine_slant_length, 0.0, 1000.0)
        _check_int("covered.turn_reads", self.turn_reads, 0, 10000)
        _check_steps("covered.turn_angles", self.turn_angles, -15.0, 15.0)
        _check("covered.turn_min_score", self.turn_min_score, 0.0, 1.0)
        _check("covered.turn_lead", self.turn_lead, 0.0, 1.0)
        _check_int("covered.shift_reads", self.shift_reads, 0, 10000)
        _check_steps("covered.shift_steps", self.shift_steps, -0.5, 0.5)
        _check("covered.shift_lead", self.shift_lead, 0.0, 1.0)
        _check("covered.twin_band", self.twin_band, 0.0, 1.0)
        _check_bool("covered.twin_unscored", self.twin_unscored)
        _check("covered.black_ink", self.black_ink, 0.0, 1.0)
        if self.learned_accept is not None:
            _check("covered.learned_accept", self.learned_accept, 0.5, 1.0)
        _check_labels("covered.learned_except", self.learned_except)
        _check_bool("covered.learned_probe", self.learned_probe)
        if self.learned_accept_std is not None:
            _check("covered.learned_accept_std", self.learned_accept_std, 0.5, 1.0)
        _check_bool("covered.cluster_probes", self.cluster_probes)
        _check("covered.junction_reach", self.junction_reach, 0.0, 100.0)
        _check("covered.junction_length", self.junction_length, 1.0, 1000.0)
        _check_int("covered.junction_refine", self.junction_refine, 0, 64)
        _check_int("covered.junction_reads", self.junction_reads, 0, 1000)
        _check_int("covered.size_settle", self.size_settle, 0, 1000)
        _check_bool("covered.size_ties", self.size_ties)
        _check_bool("covered.probe_reread", self.probe_reread)
        _check_bool("covered.unfound_probe", self.unfound_probe)
        _check_int("covered.unfound_sizes", self.unfound_sizes, 1, 32)
        _check_int("covered.found_sizes", self.found_sizes, 1, 32)
        _check_bool("covered.local_size", self.local_size)
        _check("covered.named_size", self.named_size, 0.0, 10.0)
        _check_int("covered.local_plane", self.local_plane, 3, 1000)
        _check("covered.local_spread", self.local_spread, 0.0, 100.0)
        _check("covered.local_reach", self.local_reach, 0.0, 1.0)
        _check_int("covered.search_reads", self.search_reads, 0, 10000)
        _check_steps("covered.search_turns", self.search_turns, -15.0, 15.0)
        _check_int("covered.search_wide_px", self.search_wide_px, 0, 40)
        _check("covered.search_min_score", self.search_min_score, 0.0, 1.0)
        _check("covered.search_lead", self.search_lead, 0.0, 1.0)
        _check_int("covered.moved_agree", self.moved_agree, 0, 100)
        _check_int("covered.motion_reads", self.motion_reads, 0, 1000)
        _check_int("covered.motion_cards", self.motion_cards, 1, 32)
        _check("covered.motion_blind_fit", self.motion_blind_fit, -1.0, 1.0)
        _check_bool("covered.motion_found", self.motion_found)
        _check("covered.motion_min_fit", self.motion_min_fit, -1.0, 1.0)
        _check_steps("covered.motion_lengths", self.motion_lengths, 1.0, 40.0)
        _check("covered.motion_angle_step", self.motion_angle_step, 1.0, 90.0)
        _check("covered.motion_min_gain", self.motion_min_gain, 0.0, 1.0)
        _check_steps("covered.motion_soft", self.motion_soft, 0.1, 10.0)
        _check("covered.motion_defocus", self.motion_defocus, 0.0, 10.0)
        _check("covered.motion_highpass", self.motion_highpass, 1.0, 100.0)
        _check("covered.motion_align_px", self.motion_align_px, 0.0, 100.0)
        _check_int("covered.motion_align_steps", self.motion_align_steps, 1, 1000)
        _check_int("covered.plane_reads", self.plane_reads, 0, 1000)
        _check("covered.plane_fit", self.plane_fit, 0.0, 1.0)
        _check_int("covered.plane_rounds", self.plane_rounds, 0, 100)
        _check_bool("covered.plane_replace", self.plane_replace)
        _check_int("covered.edge_reads", self.edge_reads, 0, 1000)
        _check_int("covered.edge_samples", self.edge_samples, 3, 64)
        _check("covered.edge_angle", self.edge_angle, 0.0, 45.0)
        _check("covered.edge_min_turn", self.edge_min_turn, 0.0, 45.0)
        _check("covered.edge_min_move", self.edge_min_move, 0.0, 100.0)
        if self.edge_near != ():
            _check_steps("covered.edge_near", self.edge_near, 0.05, 1.0)
        _check_int("covered.gap_reads", self.gap_reads, 0, 1000)
        _check("covered.gap_turn", self.gap_turn, 0.0, 90.0)
        _check("covered.gap_size", self.gap_size, 0.0, 1.0)
        _check("covered.gap_min", self.gap_min, 0.0, 10.0)
        _check("covered.gap_max", self.gap_max, self.gap_min, 10.0)
        _check("covered.gap_along", self.gap_along, 0.0, 1.0)
        _check("covered.gap_apart", self.gap_apart, 0.0, 10.0)
        _check_bool("covered.centre_check", self.centre_check)
        _check("covered.centre_gain", self.centre_gain, 0.0, 1.0)
        _check_pair("covered.centre_sizes", self.centre_sizes, 0.5, 1.5)
        _check_bool("covered.centre_relay", self.centre_relay)
        if self.resize_steps != ():
            _check_steps("covered.resize_steps", self.resize_steps, 0.5, 1.5)
        _check("covered.resize_gain", self.resize_gain, 0.0, 1.0)
        if self.resize_rival is not None:
            _check("covered.resize_rival", self.resize_rival, -1.0, 1.0)
        _check_bool("covered.gap_beyond", self.gap_beyond)
        _check("covered.gap_step_min", self.gap_step_min, 0.0, 10.0)
        _check("covered.gap_step_max", self.gap_step_max, self.gap_step_min, 10.0)
        _check_int("covered.gap_rounds", self.gap_rounds, 1, 100)
        _check_bool("covered.gap_laid", self.gap_laid)
        _check_int("covered.row_reads", self.row_reads, 0, 1000)
        _check("covered.row_reach", self.row_reach, 0.0, 2.0)
        _check("covered.row_margin", self.row_margin, 0.0, 50.0)
        _check_steps("covered.row_steps", self.row_steps, 0.0, 2.0)
        _check_int("covered.row_agree", self.row_agree, 1, 100)
        _check_int("covered.gap_most", self.gap_most, 3, 100)
        _check("covered.gap_fit", self.gap_fit, 0.0, 0.5)


@dataclass(frozen=True)
class ScannerParams:
    """All parameters of the scanner: ``find`` (locating cards), ``identify`` (reading them) and
    ``covered`` (reading covered cards from their corners)."""

    find: FindParams = field(default_factory=FindParams)
    identify: IdentifyParams = field(default_factory=IdentifyParams)
    covered: CoveredParams = field(default_factory=CoveredParams)

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Check every section.

        Raises:
            ValueError: a field is out of range; the message names the field and its value.
        """
        for f in fields(self):
            section = getattr(self, f.name)
            if not hasattr(section, "validate"):
                raise ValueError(f"{f.name} must be a parameters section, got {section!r}")
            section.validate()
        if (self.find.card_width, self.find.card_height) != (CARD_WIDTH, CARD_HEIGHT):
            raise ValueError(
                f"find.card_width x find.card_height must be the identifier's {CARD_WIDTH}x{CARD_HEIGHT}, "
                f"got {self.find.card_width}x{self.find.card_height}"
            )

    def at_work_side(self, side: int) -> ScannerParams:
        """These parameters for a work image of long side ``side`` instead of
        ``find.work_long_side``: every size given in work pixels (``WORK_PIXEL_SIZES``) scaled by
        ``side / find.work_long_side`` (whole numbers rounded, at least 1 where 0 would turn a
        step off; the median filter's size to the nearest odd number), ``quick_long_side`` 0.
        Fractions, areas as fractions and thresholds stay as they are."""
        ratio = side / self.find.work_long_side
        find = replace(
            self.find,
            work_long_side=side,
            quick_long_side=0,
            denoise_kernel=max(1, 2 * round((self.find.denoise_kernel * ratio - 1) / 2) + 1),
            **_scaled(self.find, WORK_PIXEL_SIZES["find"], ratio),
        )
        covered = replace(self.covered, **_scaled(self.covered, WORK_PIXEL_SIZES["covered"], ratio))
        return replace(self, find=find, covered=covered)


WORK_PIXEL_SIZES: dict[str, tuple[str, ...]] = {
    "find": (
        "corner_epsilon",
        "min_arm",
        "top_inset",
        "frame_margin",
        "border_min_px",
        "line_merge_distance",
        "fine_pad",
        "edge_probe",
        "refine_radius",
        "faint_open",
        "line_gap",
        "line_votes",
        "top_index_shift",
        "shrunk_grow",
    ),
    "covered": (
        "side_tolerance",
        "side_min_px",
        "side_join",
        "duplicate_point",
        "line_length",
        "line_gap",
        "line_join",
        "min_run",
        "run_epsilon",
        "refine_radius",
        "refine_length",
        "refine_slant_length",
        "junction_reach",
        "junction_length",
        "open_margin",
        "line_votes",
    ),
}
"""The fields of ``FindParams`` and ``CoveredParams`` that are sizes in work pixels (besides
``FindParams.denoise_kernel``, a filter size): ``ScannerParams.at_work_side`` scales them."""

_MAY_BE_ZERO = frozenset({"top_index_shift", "shrunk_grow"})
"""Whole-number sizes that may round to 0 (a step of no pixels); the others stay at least 1."""


def _scaled(section: object, names: tuple[str, ...], ratio: float) -> dict[str, Any]:
    """The fields ``names`` of ``section`` times ``ratio``: ints rounded (at least 1 unless in
    ``_MAY_BE_ZERO`` or 0 already), floats as they come."""
    out: dict[str, Any] = {}
    for name in names:
        value = getattr(section, name)
        if isinstance(value, int):
            low = 0 if name in _MAY_BE_ZERO or value == 0 else 1
            out[name] = max(low, round(value * ratio))
        else:
            out[name] = value * ratio
    return out
