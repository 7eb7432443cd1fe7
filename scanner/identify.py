"""Identify a warped card by template matching: the acceptance rule.

The input is the canonical warped card (``CARD_WIDTH`` x ``CARD_HEIGHT`` = 200 x
280, portrait).  Which short side is up is unknown, so both readers look at the
card as warped and turned half round.  Two readers score every card of the
templates:

- ``scanner.identify_index``: a standard card's corner index (rank above suit,
  either corner is enough) or an Octoplus card's big centre symbol, matched by
  normalised correlation at a few sizes and shifts, with the ink-colour cues of
  ``scanner.identify_colour``;
- ``scanner.identify_face``: the whole face, small (pip count and layout,
  colour, numeral), which only a card whose whole outline is visible matches
  well.

A card is named only when it belongs to the deck (a decoy such as a 9-K among
Oktris templates is never named) and one of these holds:

1. the index alone: its score reaches ``min_score``, each of its parts (rank,
   suit) reaches ``min_part_score`` and it leads the best other card by
   ``min_margin`` (or, for a standard card, each index corner on its own reads
   it first by ``pair_margin`` x ``min_margin``: two agreeing corners);
2. the index and the face agree: both rank it first, its index score reaches
   ``agree_min_score``, its face score ``agree_face_score`` and the face's lead
   ``agree_face_margin``;
3. the blend ``(1 - face_weight) x index + face_weight x face`` ranks it first
   at ``blend_min_score`` or more, ahead of the next card by
   ``blend_min_margin``, with its face score at ``blend_face_score`` (a cut-out
   showing no whole card matches no face).

4. rank from the face, suit from the index (standard cards): the face's best
   rank leads every other rank by ``rank_face_margin`` (the count and layout of
   its pips), the card of that rank the index ranks first leads the other suits
   by ``min_margin`` and the other suit of its colour by
   ``rank_face_twin_margin`` (a blurred spade and club look alike), its index
   score reaches ``agree_min_score`` and its face score ``rank_face_score`` (and
   ``agree_face_score``); its index rank part must reach
   ``rank_face_min_rank_part`` and lie within ``rank_face_index_slack`` of the
   best rank part of another rank.

In 2 and 3 each part must reach ``face_min_part_score``, in 4 the suit part; in 2 and 3 a
standard card must also lead its twin in the index (the same rank in the other suit of its
colour) by ``face_twin_margin`` unless its face score reaches ``face_twin_score`` (a face seen
poorly cannot tell a spade from a club any better than a blurred index).  A covered card's face
matches nothing well, so there the index decides alone; an Octoplus card none of
these names (its centre covered) is read once more from its corner index (label
above mark, ``read_index(..., corner=True)``) and named by rule 1 with
``corner_min_part_score`` for the parts, or, when the centre ranks the same card
first, by rule 1 with ``corner_agree_margin`` and ``corner_agree_part_score``
(two agreeing readings).  Conversely an Octoplus card named from its centre (or
face) is left unnamed when its corner index names another card by those
agreement thresholds (a clear corner of a different card) and the centre does not lead the
corner's card by more than ``corner_veto_ratio`` times the corner's lead over the centre's
card (a clear centre outweighs a corner read by a hair), or when the centre named it by
the index rule alone leading by less than ``centre_doubt_margin`` and the corner index ranks
another card first, at ``min_score``, ahead of the centre's card by more than the centre's
own lead (two readings that disagree: the surer one wins).

A standard card the index ranks first (named by these rules or not) yields to another card of
its suit whose rank part is the best of every card's, leading the first card's rank part by
``rank_mate_lead``, when that card's index score is within ``rank_mate_band`` of the first's and
passes ``min_score`` and ``min_part_score``: a template learned from a pale photo (a card far
from the camera) loses its suit part to a crisp template of another rank of the same suit, and
the rank part alone tells the two apart.

A standard card so named whose twin (the same rank in the other suit of its colour) the index
scores within ``twin_check_band`` of it is left unnamed when a look at the two suit symbols of
the index (``scanner.identify_look.twin_doubted``) does not prefer it by ``twin_check_lead``
and the whole face's pips do not name it either (a blurred spade and club read by a hair apart).

A card none of this names whose index ranks the spade and the club of one rank
first and second, too close to tell (the other cards ``min_margin`` behind), and
whose whole face shows (face score ``rank_face_score``), is named from its suit
symbols compared one by one (``scanner.identify_suit``): the spade when their
lead reaches ``spade_lead``, the club when it is ``club_lead`` or less.  When the
whole face's best rank leads every other rank by ``suit_face_rank_margin`` (one
big pip is an ace, whatever a blurred index says), the pair is the spade and the
club of that rank the index ranks first among its suits, held to rule 4's checks
on the index's rank part and only the suit part at ``face_min_part_score``.

A card none of this names is read once more with the index (centre, corner)
searched ``wide_search_px`` far at the sizes ``wide_template_scales`` (a
finder's quad a few pixels off puts the index beyond ``search_px``), by the
index rules alone (the face was heard already), when a first reading's best
card scored ``wide_min_score`` or more (a cut-out of no card scores less); that
answer counts only when its card was among the ``wide_among`` best of a first
reading (the wider search may reach into a neighbouring card's corner) and, for
a standard card, when the wide reading ranks it ahead of its twin (the same rank
in the other suit of its colour) by ``wide_twin_margin``.
Otherwise the answer is ``None`` (not identified) with the best candidate still
reported.  The thresholds were set on scenes rendered under other seeds than
the committed fixtures (see ``benchmarks.identify_holdout`` and
``benchmarks.identify_misses``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from scanner.identify_face import FaceReading, read_face
from scanner.identify_index import IndexReading, agree, read_index
from scanner.identify_look import twin_doubted
from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH, IdentifyParams
from scanner.identify_suit import shipped_suit_model, suit_cues, symbol_lead, twin_lead
from scanner.identify_view import CardView, whole
from scanner.templates import Templates, in_deck
from scanner.threads import one_blas_thread
from scanner.types import Image
from scorer.cards import Card, DeckKind, StdCard, Suit


class IdentifyInputError(ValueError):
    """A card image that is not a canonical warped card (wrong type, dtype or shape)."""


@dataclass(frozen=True)
class Identification:
    """The answer for one warped card.

    ``card`` is ``None`` when no card matched well enough and clearly enough;
    ``candidate`` is then the best-matching card all the same.  ``confidence``
    is the best card's score (normalised correlation, clipped to 0..1),
    ``runner_up`` the best other card and ``runner_up_confidence`` its score.
    ``turned`` is True when the card read upright only after a half turn (its
    warped top edge is the face's bottom edge); a standard card, whose index is
    in both corners, counts as turned only when its bottom-right index read
    clearly better (by ``min_margin``) than its top-left one.
    """

    card: Card | None
    confidence: float
    runner_up: Card | None = None
    runner_up_confidence: float = 0.0
    candidate: Card | None = None
    turned: bool = False
    part_scores: tuple[float, ...] = ()
    """The best card's correlation per part (rank and suit of a standard card; the centre)."""
    face_score: float | None = None
    """The best card's whole-face correlation (low when the card is partly covered); ``None``
    when the index alone named the card and the face was not looked at."""

    @property
    def margin(self) -> float:
        """How far the best card leads the runner-up."""
        return self.confidence - self.runner_up_confidence


def check_card_image(card_image: object) -> Image | CardView:
    """Return ``card_image`` if it is a canonical warped card (or a ``CardView`` of one).

    Raises:
        IdentifyInputError: not a uint8 array of 280 x 200 (grey) or 280 x 200 x 3 (BGR), nor
            a ``CardView`` of that shape.
    """
    if isinstance(card_image, CardView):
        if card_image.shape not in ((CARD_HEIGHT, CARD_WIDTH), (CARD_HEIGHT, CARD_WIDTH, 3)):
            raise IdentifyInputError(
                f"a card view must be of a {CARD_WIDTH}x{CARD_HEIGHT} card, got shape {card_image.shape}"
            )
        return card_image
    if not isinstance(card_image, np.ndarray):
        raise IdentifyInputError(f"a card image must be a numpy array, got {type(card_image).__name__}")
    if card_image.dtype != np.uint8:
        raise IdentifyInputError(f"a card image must be uint8, got dtype {card_image.dtype}")
    if card_image.shape not in ((CARD_HEIGHT, CARD_WIDTH), (CARD_HEIGHT, CARD_WIDTH, 3)):
        raise IdentifyInputError(
            f"a card image must be {CARD_WIDTH}x{CARD_HEIGHT} (shape ({CARD_HEIGHT}, {CARD_WIDTH}[, 3])), "
            f"got shape {card_image.shape}"
        )
    return card_image


def identify(
    card_image: Image | CardView, templates: Templates, params: IdentifyParams | None = None
) -> Identification:
    """Identify one canonical warped card against ``templates`` (an image, or a ``CardView``
    of a found card, warped only where it is read).

    Returns the best card when it passes the checks the module docstring lists
    (score, parts, lead over the runner-up or two agreeing corners, deck), else
    an ``Identification`` whose ``card`` is ``None`` (the best candidate is
    still in ``candidate``).

    Raises:
        IdentifyInputError: ``card_image`` is not a 200x280 uint8 image (grey or BGR), nor a
            view of one.
    """
    one_blas_thread()
    image = check_card_image(card_image)
    p = params if params is not None else IdentifyParams()
    faces: list[FaceReading] = []
    readings: list[IndexReading] = []
    answer = _decide(image, templates, p, faces, readings)
    if p.rank_mate_lead <= 1.0:
        answer = _rank_mate(readings[0], answer, templates, p)
    if answer.card is not None and twin_doubted(image, readings[0], answer.card, templates, p):
        answer = replace(answer, card=None)
    if answer.card is None and p.club_lead < p.spade_lead:
        answer = _spade_or_club(image, templates, p, answer, readings[0], faces)
    first_best = max(float(reading.scores.max()) for reading in readings)
    if answer.card is None and p.wide_search_px > p.search_px and first_best >= p.wide_min_score:
        # the index alone decides: the whole face was heard in the first pass already
        wide = replace(
            p,
            search_px=p.wide_search_px,
            template_scales=p.wide_template_scales,
            face_weight=0.0,
            agree_face_score=2.0,
        )
        wide_readings: list[IndexReading] = []
        second = _decide(image, templates, wide, faces, wide_readings)
        if (
            second.card is not None
            and any(_among_best(reading, second.card, p.wide_among) for reading in readings)
            and _twin_lead(wide_readings[0], second.card) >= p.wide_twin_margin
            and not twin_doubted(image, readings[0], second.card, templates, p)
        ):
            return second
    return answer


def _rank_by_face(
    reading: IndexReading, face: FaceReading, p: IdentifyParams
) -> tuple[int, int | None] | None:
    """Rank from the whole face, suit from the index: the best and second card of ``reading``
    (indices) when the face's best rank leads every other rank by ``rank_face_margin`` (its pips'
    count and layout) and, among the cards of that rank, the index ranks one first by
    ``min_margin`` (by ``rank_face_twin_margin`` over the other suit of its colour) at
    ``agree_min_score`` or more (the suit), with the face's score of that card at
    ``rank_face_score`` and ``agree_face_score``; ``None`` otherwise (and for cards without a rank)."""
    within = _face_rank_cards(reading, face, p.rank_face_margin)
    if within is None:
        return None
    best = int(within[0])
    runner = int(within[1]) if len(within) > 1 else None
    lead = float(reading.scores[best]) - (
        max(float(reading.scores[runner]), 0.0) if runner is not None else 0.0
    )
    card = reading.order[best]
    # the other suit of the card's colour (spades and clubs, hearts and diamonds) looks alike
    twins = [int(i) for i in within[1:] if _suit_colour(reading.order[int(i)]) == _suit_colour(card)]
    twin_lead = float(reading.scores[best]) - max((float(reading.scores[i]) for i in twins), default=-2.0)
    if (
        lead < p.min_margin
        or not _index_allows_rank(reading, best, p)
        or twin_lead < p.rank_face_twin_margin
        or float(reading.scores[best]) < p.agree_min_score
        or float(face.scores[best]) < max(p.rank_face_score, p.agree_face_score)
    ):
        return None
    others = np.delete(reading.scores, [best])
    return best, int(np.flatnonzero(reading.scores == others.max())[0]) if others.size else None


def _suit_colour(card: Card) -> bool | None:
    """True for a red suit, False for a black one, ``None`` for a card without a suit."""
    return card.suit.is_red if isinstance(card, StdCard) else None


def _spade_or_club(
    image: Image | CardView,
    templates: Templates,
    p: IdentifyParams,
    answer: Identification,
    reading: IndexReading,
    faces: list[FaceReading],
) -> Identification:
    """``answer`` with the card named when the index ranks the spade and the club of one rank
    first and second, too close to tell, or (``suit_face_rank_margin``) the whole face shows the
    rank and the index ranks that rank's spade and club first among its suits, and the whole
    face's suit symbols tell them apart (``scanner.identify_suit``); ``answer`` unchanged
    otherwise."""
    best, second = _top_two(reading.scores)
    if second is None:
        return answer
    rest = np.delete(np.arange(len(reading.order)), [best, second])
    pair = _pair_readable(reading, best, second, rest, p, templates.deck, from_face=False)
    if pair is None and p.suit_face_rank_margin <= 1.0:
        # the index's first two are not the pair: the face may show the rank
        if not faces:
            faces.append(read_face(whole(image), templates, p))
        within = _face_rank_cards(reading, faces[0], p.suit_face_rank_margin)
        if within is None or len(within) < 2:
            return answer
        best, second = int(within[0]), int(within[1])
        pair = _pair_readable(reading, best, second, within[2:], p, templates.deck, from_face=True)
    if pair is None:
        return answer
    spade, club = pair
    if not faces:
        faces.append(read_face(whole(image), templates, p))
    if float(faces[0].scores[best]) < max(p.rank_face_score, p.agree_face_score):
        return answer
    found = symbol_lead(whole(image), spade, club, templates, p)
    if found is None or found[1] < p.suit_fit:
        return answer
    lead = found[0]
    card = spade if lead >= p.spade_lead else club if lead <= p.club_lead else None
    if card is None:
        card = _learned_suit(whole(image), spade, club, templates, p)
    if card is None:
        return answer
    named = reading.order.index(card)
    other = second if named == best else best
    return Identification(
        card=card,
        confidence=_unit(float(reading.scores[named])),
        runner_up=reading.order[other],
        runner_up_confidence=_unit(float(reading.scores[other])),
        candidate=card,
        turned=bool(reading.turn_lead[named] > p.min_margin),
        part_scores=tuple(float(v) for v in reading.parts[named]),
        face_score=float(faces[0].scores[named]),
    )


def _pair_readable(
    reading: IndexReading,
    best: int,
    second: int,
    rest: npt.NDArray[np.intp],
    p: IdentifyParams,
    deck: DeckKind,
    from_face: bool,
) -> tuple[StdCard, StdCard] | None:
    """The spade and the club of cards ``best`` and ``second`` of ``reading`` when they are the
    pair of one rank of ``deck``, ``best`` scores ``agree_min_score``, the cards ``rest`` lie
    ``suit_rest_margin`` behind and the parts reach ``face_min_part_score``: every part, or with
    the rank read ``from_face`` only the suit parts, the rank part passing ``_index_allows_rank``;
    ``None`` otherwise."""
    pair = _spade_club_pair(reading, best, second)
    if pair is None or not in_deck(pair[0], deck):
        return None
    if from_face:
        # the rank is the face's: the index must show the suit, and must not clearly read another rank
        least_part = min(float(reading.parts[i][-1]) for i in (best, second))
        if not _index_allows_rank(reading, best, p):
            return None
    else:
        least_part = min(float(v) for i in (best, second) for v in reading.parts[i])
    runner = float(reading.scores[second])
    if (
        float(reading.scores[best]) < p.agree_min_score
        or (rest.size and runner - max(float(reading.scores[rest].max()), 0.0) < p.suit_rest_margin)
        or least_part < p.face_min_part_score
    ):
        return None
    return pair


def _spade_club_pair(reading: IndexReading, first: int, second: int) -> tuple[StdCard, StdCard] | None:
    """The spade and the club of one rank when cards ``first`` and ``second`` of ``reading``
    are those two (in either order), else ``None``."""
    pair = (reading.order[first], reading.order[second])
    spades = [c for c in pair if isinstance(c, StdCard) and c.suit is Suit.SPADES]
    clubs = [c for c in pair if isinstance(c, StdCard) and c.suit is Suit.CLUBS]
    if spades and clubs and spades[0].rank == clubs[0].rank:
        return spades[0], clubs[0]
    return None


def _same_rank(card: Card, other: Card) -> bool:
    """Whether ``card`` and ``other`` are standard cards of one rank."""
    return isinstance(card, StdCard) and isinstance(other, StdCard) and card.rank == other.rank


def _index_allows_rank(reading: IndexReading, card: int, p: IdentifyParams) -> bool:
    """Whether the index's rank part of ``card`` (an index of ``reading``, a standard card)
    reaches ``rank_face_min_rank_part`` and lies within ``rank_face_index_slack`` of the best
    rank part of a card of another rank: the index does not clearly read another rank."""
    rank = float(reading.parts[card, 0])
    named = reading.order[card]
    others = np.array([not _same_rank(other, named) for other in reading.order])
    gap = float(reading.parts[others, 0].max()) - rank if others.any() else 0.0
    return rank >= p.rank_face_min_rank_part and gap <= p.rank_face_index_slack


def _face_rank_cards(reading: IndexReading, face: FaceReading, margin: float) -> npt.NDArray[np.intp] | None:
    """The cards of ``reading`` (indices, best index score first) of the rank the whole face
    reads best, when that rank leads every other rank's best face score by ``margin``;
    ``None`` when it does not, or the reading holds a card without a rank."""
    ranks = [card.rank if isinstance(card, StdCard) else None for card in reading.order]
    if None in ranks or face.order != reading.order:
        return None
    by_rank: dict[int | None, float] = {}
    for rank, score in zip(ranks, face.scores, strict=True):
        by_rank[rank] = max(by_rank.get(rank, -2.0), float(score))
    ordered = sorted(by_rank.items(), key=lambda item: -item[1])
    if len(ordered) > 1 and ordered[0][1] - ordered[1][1] < margin:
        return None
    same = np.flatnonzero(np.array([rank == ordered[0][0] for rank in ranks]))
    return same[np.argsort(-reading.scores[same])]


def _learned_suit(
    image: Image, spade: StdCard, club: StdCard, templates: Templates, p: IdentifyParams
) -> StdCard | None:
    """The spade or the club the suit model names (``IdentifyParams.suit_model``) for a card whose
    symbols lead between the two thresholds; ``None`` when it names neither, is off or cannot be
    loaded, or the templates are not the deck's built-in ones (the model was fitted on those
    faces)."""
    if p.suit_model > 1.0 or not templates.shipped:
        return None
    model = shipped_suit_model()
    cues = suit_cues(image, spade, club, templates, p) if model is not None else None
    if model is None or cues is None:
        return None
    chance = model.probability(cues)
    return spade if chance >= p.suit_model else club if chance <= 1.0 - p.suit_model else None


def _rank_mate(
    reading: IndexReading, answer: Identification, templates: Templates, p: IdentifyParams
) -> Identification:
    """``answer`` with its card replaced by the card of the same suit whose rank part reads
    clearly best (``rank_mate_lead``, ``rank_mate_band``), when the index ranks another card of
    that suit first and ``answer`` names that card or none; ``answer`` unchanged otherwise."""
    best = int(np.argmax(reading.scores))
    first = reading.order[best]
    if not isinstance(first, StdCard) or answer.card not in (None, first):
        return answer
    mate = int(np.argmax(reading.parts[:, 0]))
    card = reading.order[mate]
    score = float(reading.scores[mate])
    if (
        mate == best
        or not isinstance(card, StdCard)
        or card.suit is not first.suit
        or not in_deck(card, templates.deck)
        or float(reading.parts[mate, 0]) - float(reading.parts[best, 0]) < p.rank_mate_lead
        or float(reading.scores[best]) - score > p.rank_mate_band
        or score < p.min_score
        or float(reading.parts[mate].min()) < p.min_part_score
    ):
        return answer
    return replace(
        answer,
        card=card,
        candidate=card,
        confidence=_unit(score),
        runner_up=first,
        runner_up_confidence=_unit(float(reading.scores[best])),
        turned=bool(reading.turn_lead[mate] > p.min_margin),
        part_scores=tuple(float(v) for v in reading.parts[mate]),
        face_score=None,
    )


def _twin_lead(reading: IndexReading, card: Card) -> float:
    """How far ``card`` leads its twin suit in ``reading`` (``inf`` when it has none there)."""
    if card not in reading.order:
        return float("inf")
    return twin_lead(reading.order, reading.scores, reading.order.index(card))


def _lead_over(reading: IndexReading, best: int, card: Card) -> float:
    """How far card ``best`` of ``reading`` leads ``card`` there (``inf`` when ``card`` is not read)."""
    if card not in reading.order:
        return float("inf")
    return float(reading.scores[best]) - float(reading.scores[reading.order.index(card)])


def _centre_outweighs(
    centre: IndexReading, best: int, corner: IndexReading, c_best: int, ratio: float
) -> bool:
    """Whether the centre's card ``best`` leads the corner's card ``c_best`` there by more than
    ``ratio`` times the corner's lead over the centre's card (never when ``ratio`` is 0)."""
    if ratio <= 0.0:
        return False
    centre_lead = _lead_over(centre, best, corner.order[c_best])
    corner_lead = _lead_over(corner, c_best, centre.order[best])
    return centre_lead > ratio * corner_lead


def _among_best(reading: IndexReading, card: Card, count: int) -> bool:
    """Whether ``card`` is one of the ``count`` best cards of ``reading``."""
    if card not in reading.order:
        return False
    score = reading.scores[reading.order.index(card)]
    return int(np.count_nonzero(reading.scores > score)) < count


def _decide(
    image: Image | CardView,
    templates: Templates,
    p: IdentifyParams,
    faces: list[FaceReading],
    readings: list[IndexReading],
) -> Identification:
    """The rules of the module docstring with the index searched as ``p`` says; ``faces`` holds
    the whole-face reading once it has been made (it does not depend on the index search), and
    every index reading made is appended to ``readings``."""
    reading = read_index(image, templates, p)
    readings.append(reading)
    index_scores = reading.scores
    best, second = _top_two(index_scores)
    best_score = float(index_scores[best])
    second_score = float(index_scores[second]) if second is not None else 0.0
    part_scores = tuple(float(v) for v in reading.parts[best])
    clear = best_score - max(second_score, 0.0) >= p.min_margin
    if not clear and p.pair_margin > 0 and templates.deck is DeckKind.OKTRIS:
        clear = agree(reading, best, p)
    accepted = best_score >= p.min_score and clear and min(part_scores) >= p.min_part_score
    by_face = False
    if not accepted and not faces:
        faces.append(read_face(whole(image), templates, p))
    face = None if accepted else faces[0]
    if face is not None:
        # the whole face and the index agree on a card the face shows well
        face_best, face_second = _top_two(face.scores)
        face_lead = float(face.scores[face_best]) - (
            float(face.scores[face_second]) if face_second is not None else 0.0
        )
        by_face = accepted = (
            face_best == best
            and best_score >= p.agree_min_score
            and float(face.scores[best]) >= p.agree_face_score
            and face_lead >= p.agree_face_margin
        )
    if face is not None and not accepted and p.face_weight > 0:
        blend = (1.0 - p.face_weight) * index_scores + p.face_weight * face.scores
        blend_best, blend_second = _top_two(blend)
        blend_score = float(blend[blend_best])
        blend_lead = blend_score - (float(blend[blend_second]) if blend_second is not None else 0.0)
        if (
            blend_score >= p.blend_min_score
            and blend_lead >= p.blend_min_margin
            and float(face.scores[blend_best]) >= p.blend_face_score
        ):
            by_face = accepted = True
            best, second = blend_best, blend_second
            best_score = blend_score
            second_score = float(blend[second]) if second is not None else 0.0
            part_scores = tuple(float(v) for v in reading.parts[best])
    candidate = reading.order[best]
    least_part = p.face_min_part_score if by_face else p.min_part_score
    accepted = accepted and in_deck(candidate, templates.deck) and min(part_scores) >= least_part
    if (
        accepted
        and by_face
        and face is not None
        and float(face.scores[best]) < p.face_twin_score
        and twin_lead(reading.order, index_scores, best) < p.face_twin_margin
    ):
        # a face seen poorly does not tell a card from its twin suit when the index cannot either
        accepted = False
    if face is not None and not accepted and p.rank_face_margin <= 1.0:
        joint = _rank_by_face(reading, face, p)
        # with the rank read from the face, only the index's suit part must reach the floor
        if joint is not None and float(reading.parts[joint[0]][-1]) >= p.face_min_part_score:
            by_face = True
            best, second = joint
            best_score = float(index_scores[best])
            second_score = float(index_scores[second]) if second is not None else 0.0
            part_scores = tuple(float(v) for v in reading.parts[best])
            candidate = reading.order[best]
            accepted = in_deck(candidate, templates.deck)
    from_corner = False
    if accepted and templates.deck is DeckKind.OCTOPLUS:
        # the corner index, when it clearly shows another card, overrules the centre
        corner = read_index(image, templates, p, corner=True)
        readings.append(corner)
        c_best, c_second = _top_two(corner.scores)
        agree_rule = replace(p, min_margin=p.corner_agree_margin)
        if (
            corner.order[c_best] != candidate
            and _index_names(corner, c_best, c_second, agree_rule, p.corner_agree_part_score, templates.deck)
            and not _centre_outweighs(reading, best, corner, c_best, p.corner_veto_ratio)
        ):
            accepted = False
        elif (
            not by_face
            and corner.order[c_best] != candidate
            and float(corner.scores[c_best]) >= p.min_score
            and best_score - max(second_score, 0.0) < p.centre_doubt_margin
            and _lead_over(corner, c_best, candidate) > best_score - max(second_score, 0.0)
        ):
            # a centre read by a hair yields to a corner index ranking another card first by more
            accepted = False
    elif templates.deck is DeckKind.OCTOPLUS:
        # a covered Octoplus card may still show a corner index (label above mark)
        corner = read_index(image, templates, p, corner=True)
        readings.append(corner)
        c_best, c_second = _top_two(corner.scores)
        # named by the corner alone, or by the corner and the centre (``reading``) agreeing
        agreeing = reading.order[_top_two(reading.scores)[0]] == corner.order[c_best] and _index_names(
            corner,
            c_best,
            c_second,
            replace(p, min_margin=p.corner_agree_margin),
            p.corner_agree_part_score,
            templates.deck,
        )
        if agreeing or _index_names(corner, c_best, c_second, p, p.corner_min_part_score, templates.deck):
            accepted, by_face, from_corner, reading = True, False, True, corner
            best, second = c_best, c_second
            best_score = float(corner.scores[best])
            second_score = float(corner.scores[second]) if second is not None else 0.0
            part_scores, candidate = tuple(float(v) for v in corner.parts[best]), corner.order[best]
    if face is not None and by_face and float(face.scores[best]) >= p.agree_face_score:
        turned = bool(face.turned[best])
    else:
        # a standard card carries its index in both corners: call it turned only when the
        # bottom-right index reads clearly better
        lead = p.min_margin if templates.deck is DeckKind.OKTRIS or from_corner else 0.0
        turned = bool(reading.turn_lead[best] > lead)
    return Identification(
        card=candidate if accepted else None,
        confidence=_unit(best_score),
        runner_up=reading.order[second] if second is not None else None,
        runner_up_confidence=_unit(second_score),
        candidate=candidate,
        turned=turned,
        part_scores=part_scores,
        face_score=float(face.scores[best]) if face is not None else None,
    )


def _index_names(
    reading: IndexReading, best: int, second: int | None, p: IdentifyParams, least_part: float, deck: DeckKind
) -> bool:
    """Whether the index rule alone names card ``best`` of ``reading``: its score, its lead over
    ``second``, each part at ``least_part`` or more, and a card of ``deck``."""
    score = float(reading.scores[best])
    runner = float(reading.scores[second]) if second is not None else 0.0
    return (
        score >= p.min_score
        and score - max(runner, 0.0) >= p.min_margin
        and min(float(v) for v in reading.parts[best]) >= least_part
        and in_deck(reading.order[best], deck)
    )


def _unit(score: float) -> float:
    """``score`` clipped to 0..1 (as ``np.clip`` would, without its dispatch on a scalar)."""
    return min(max(score, 0.0), 1.0)


def _top_two(scores: npt.NDArray[np.float32]) -> tuple[int, int | None]:
    """The indices of the best and the second-best score (``None`` when there is one)."""
    if len(scores) < 2:
        return 0, None
    first, second = np.argpartition(-scores, 1)[:2]
    if scores[second] > scores[first]:
        first, second = second, first
    return int(first), int(second)


__all__ = ["Identification", "IdentifyInputError", "check_card_image", "identify"]
