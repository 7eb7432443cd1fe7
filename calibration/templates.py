"""Learn the templates of a user's own deck from labelled photos.

The labels are a CSV file with (at least) the columns ``file`` and ``label``;
``file`` is relative to the CSV's folder.  Each photo shows one card: of the
largest outlines the finder makes (``LearnParams.candidates``), the cut-out that
shows a card face and looks most like one of the deck's is taken (a hand, a face
or a window outlined round a held card is passed over); when none of them looks
like a card (``LearnParams.paper_below``), the outlines grown from the card's paper
round its print (``scanner.find_paper``: a card held up before a white wall) are
offered too.  A photo that is already a canonical warped card (200 x 280) is used
as it is.  A cut-out whose index (or
Octoplus centre) shows too little contrast in either end is no card face (blank
paper, table, a hand) and is not taken, nor is one that scores low against every
shipped face of the deck (``LearnParams.min_likeness``); a standard card whose corner index matches none
of the other learned cards of its suit or rank is dropped too
(``LearnParams.min_peer_part``: a hand or a wall framed as the card; the card
is then composed from parts, like a card without photos).  Several photos per
card are best: per card the photos are compared with each other by the
identifier's own measure (``identify`` against a single photo as template), and

- the *medoid* (the photo that agrees best, by median, with the others) becomes
  the first template;
- a photo that agrees with the medoid less than ``LearnParams.min_agreement``
  is rejected as an outlier (a misframed, blurred or mislabelled photo), so one
  bad photo cannot spoil a card;
- with exactly two photos that disagree, the one the finder saw better is kept;
- up to ``LearnParams.templates_per_card`` of the most central remaining photos
  are kept;
- a photo rejected so, or kept but too unlike the others to be averaged with them,
  whose corner index still matches learned cards of its suit or rank is the card in
  another deck (``LearnParams.other_decks``): it becomes a template of its own, and the
  cards whose rank it prints are composed in its deck's style too.

The kept photos of a card are turned the way the shipped template of the same
card reads (when there is one), and the table seen past their rounded corners
is painted over with the card's paper colour; then they become one template:
aligned onto the shipped face (or onto the medoid), averaged, and for standard
cards with the corner index's rank and suit shared among the cards that print
them (``calibration.template_combine``).  A standard card without a usable photo
gets a template composed of the learned rank of its rank and the learned suit of
its suit (reported in ``LearnReport.composed``), and every learned standard card a second
template composed the same way from the other learned cards (``CombineParams.compose_learned``:
photos of several decks).  For Oktris, photos labelled 9-K are welcome:
they become decoys (``scanner.templates.in_deck``), so a stray 9-K on the table
is recognised and answered "not identified" instead of taken for an A-8.
"""

from __future__ import annotations

import csv
import logging
import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from calibration.capture import clean_corners
from calibration.template_combine import (
    CombineParams,
    averaged,
    combine_captures,
    compose_learned,
    compose_missing,
)
from scanner.find import find_cards, other_way, refine_in_frame, warp_card
from scanner.find_geometry import as_quad, order_corners
from scanner.find_paper import paper_quads
from scanner.find_work import make_work
from scanner.identify import identify
from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH
from scanner.params import ScannerParams
from scanner.templates import TemplateError, Templates, expected_cards
from scanner.types import Image
from scorer.cards import Card, DeckKind, StdCard, parse_card
from scorer.errors import NotationError

log = logging.getLogger(__name__)


class LabelsError(ValueError):
    """A labels CSV that cannot be used (missing, no ``file``/``label`` column, a bad label)."""


@dataclass(frozen=True)
class LearnParams:
    """The tunable numbers of learning templates.

    Raises:
        ValueError: (from construction) a field is out of range, naming it and its value.
    """

    min_agreement: float = 0.45
    """Least score of a photo against the medoid to be kept (else: an outlier)."""
    templates_per_card: int = 3
    """At most this many photos per card (the medoid first) are averaged into its template."""
    combine: CombineParams = field(default_factory=CombineParams)
    """How a card's kept photos become its one template."""
    corner_radius: float = 0.07
    """Rounded-corner radius (fraction of the card width) painted over with paper colour."""
    min_likeness: float = 0.2
    """Least score of a cut-out against the best of the shipped faces of its deck: below it the
    cut-out looks like no card (a wall, a hand, the table).  0 turns the check off (a deck
    printed light on dark looks like none of the shipped faces)."""
    min_contrast: float = 25.0
    """Least grey-level spread (95th minus 5th percentile) of the matched area, in both
    corners, for a cut-out to count as a card face (not blank paper, table or a hand)."""
    candidates: int = 8
    """How many of the largest cards the finder outlines in a photo are tried: the one that
    shows a card face (``min_contrast``) and looks most like a card face of the deck is taken."""
    lenient_outlines: bool = True
    """Learning photos show one labelled card each, so the finder also takes the outlines it
    refuses in a live frame: a card the frame cuts off whose outline still simplified to a
    quad (``FindParams.recut``), and a card seen at a slant whose outline is nearly square
    (``FindParams.slanted``) even where the scanner's parameters turn those off.  The face
    checks below judge what is cut out."""
    paper_below: float = 0.35
    """A photo none of whose finder cut-outs shows a card face (``min_contrast``) that looks this
    much like a card face of the deck (the likeness of ``min_likeness``) is looked at again for a
    card found by its paper grown from its print (``paper_cut_outs``: a card held up before a
    white wall, whose side makes no outline; the finder outlines the wall, the shirt or the
    window instead), and of all its cut-outs the one most like a card face is taken.  A photo
    whose finder cut-out looks like a card this much is learned from that cut-out alone, so
    the paper look cannot displace a card the finder outlined well.  -1: off."""
    other_decks: bool = True
    """Standard cards: a photo rejected as an outlier among the photos of its card whose corner
    index still matches a learned card of its suit or rank (``min_peer_part``, as a learned
    card must) is a card of another deck, not a misframed one: it becomes a second template of
    its card, and every card of the deck whose rank such a photo prints gets a template composed
    in that deck's style (its rank from the photo, its suit from the learned cards of its suit).
    A wall, a shirt or a window cut out round a held card matches no learned card so."""
    min_peer_part: float = 0.5
    """Standard cards: least score of the suit symbol of a card's corner index against another
    learned card of its suit (or of its rank glyph against another of its rank) for the card to
    be confirmed as a card face.  A card that has such peers and matches none of them this well
    (a hand, a wall, a card seen sideways) is dropped; one without peers is kept.  -1: off."""

    def __post_init__(self) -> None:
        if not -1.0 <= self.min_agreement <= 1.0:
            raise ValueError(f"LearnParams.min_agreement must be in [-1, 1], got {self.min_agreement!r}")
        if isinstance(self.templates_per_card, bool) or not 1 <= self.templates_per_card <= 20:
            raise ValueError(
                f"LearnParams.templates_per_card must be in [1, 20], got {self.templates_per_card!r}"
            )
        if not 0.0 <= self.corner_radius <= 0.3:
            raise ValueError(f"LearnParams.corner_radius must be in [0, 0.3], got {self.corner_radius!r}")
        if not -1.0 <= self.min_likeness <= 1.0:
            raise ValueError(f"LearnParams.min_likeness must be in [-1, 1], got {self.min_likeness!r}")
        if isinstance(self.candidates, bool) or not 1 <= self.candidates <= 50:
            raise ValueError(f"LearnParams.candidates must be in [1, 50], got {self.candidates!r}")
        if not -1.0 <= self.paper_below <= 1.0:
            raise ValueError(f"LearnParams.paper_below must be in [-1, 1], got {self.paper_below!r}")
        if not -1.0 <= self.min_peer_part <= 1.0:
            raise ValueError(f"LearnParams.min_peer_part must be in [-1, 1], got {self.min_peer_part!r}")
        if not 0.0 <= self.min_contrast <= 255.0:
            raise ValueError(f"LearnParams.min_contrast must be in [0, 255], got {self.min_contrast!r}")
        if not isinstance(self.other_decks, bool):
            raise ValueError(f"LearnParams.other_decks must be True or False, got {self.other_decks!r}")
        if not isinstance(self.lenient_outlines, bool):
            raise ValueError(
                f"LearnParams.lenient_outlines must be True or False, got {self.lenient_outlines!r}"
            )


@dataclass(frozen=True)
class Photo:
    """One labelled photo, cut out as a canonical card."""

    path: Path
    card: Card
    image: Image
    quality: float
    """How well the finder saw the card (1.0 for a photo that was already a canonical card)."""


@dataclass(frozen=True)
class CardReport:
    """What became of one card's photos."""

    card: Card
    kept: tuple[Path, ...]
    """The photos made templates, the medoid first."""
    rejected: tuple[Path, ...]
    """The photos rejected as outliers."""
    agreement: float
    """The medoid's median score against the card's other photos (1.0 with one photo)."""
    other_deck: tuple[Path, ...] = ()
    """Rejected photos taken as the card in another deck (``LearnParams.other_decks``): each a
    template of its own."""


@dataclass(frozen=True)
class LearnReport:
    """The outcome of ``learn_templates``."""

    templates: Templates
    folder: Path
    cards: tuple[CardReport, ...]
    skipped: tuple[tuple[Path, str], ...] = field(default=())
    """Photos not used at all, each with the reason (unreadable, no card found)."""
    missing: tuple[Card, ...] = field(default=())
    """Cards of the deck without any template."""
    composed: tuple[Card, ...] = field(default=())
    """Cards without a usable photo whose template was composed from the learned rank and suit
    of other cards (``CombineParams.compose_missing``)."""


def read_labels(labels_csv: str | Path, deck: DeckKind) -> list[tuple[Path, Card]]:
    """The ``(photo path, card)`` rows of a labels CSV, paths resolved against the CSV's folder.

    Raises:
        LabelsError: the file is missing or unreadable, lacks a ``file`` or ``label``
            column, or a label is not a card of ``deck`` (the line is named).
    """
    path = Path(labels_csv)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise LabelsError(f"cannot read the labels file {str(path)!r}: {exc}") from None
    reader = csv.DictReader(text.splitlines())
    columns = [c.strip() for c in reader.fieldnames or []]
    if "file" not in columns or "label" not in columns:
        raise LabelsError(
            f"{str(path)!r}: needs the columns file,label (found {','.join(columns) or 'none'})"
        )
    rows: list[tuple[Path, Card]] = []
    for line, row in enumerate(reader, start=2):
        row = {(k or "").strip(): (v or "").strip() for k, v in row.items()}
        if not row.get("file") and not row.get("label"):
            continue
        try:
            card = parse_card(row.get("label", ""), deck)
        except NotationError as exc:
            raise LabelsError(f"{str(path)!r} line {line}: {exc}") from None
        if not row.get("file"):
            raise LabelsError(f"{str(path)!r} line {line}: the file column is empty")
        rows.append((path.parent / row["file"], card))
    if not rows:
        raise LabelsError(f"{str(path)!r} lists no photo")
    return rows


def cut_outs(
    image: Image, params: ScannerParams, limit: int = 1, lenient: bool = False
) -> list[tuple[Image, float]]:
    """The ``limit`` largest cards of ``image`` (the largest first), each as a canonical card
    with the finder's score for it (a nearly square one both ways, ``scanner.find.other_way``);
    empty when no card is found.  ``lenient`` (``LearnParams.lenient_outlines``) also takes
    slanted outlines and cards cut off by the frame that a live frame's finder may refuse.

    A 200x280 BGR image is taken to be a canonical card already.
    """
    if image.shape == (CARD_HEIGHT, CARD_WIDTH, 3):
        return [(image, 1.0)]
    find = replace(params.find, slanted=True, recut=True) if lenient else params.find
    found = find_cards(image, find)
    if len(found) > 1:
        log.debug("%d cards found; the %d largest are tried", len(found), min(limit, len(found)))
    largest = sorted(found, key=lambda f: -cv2.contourArea(np.asarray(f.corners, dtype=np.float32)))
    out: list[tuple[Image, float]] = []
    for f in largest[:limit]:
        out.append((warp_card(image, f.corners, find), float(f.score)))
        other = other_way(f.corners, find)
        if other is not None:
            # a nearly square outline may be the card lying the other way: both are offered
            out.append((warp_card(image, other, find), float(f.score)))
    return out


def paper_cut_outs(image: Image, params: ScannerParams) -> list[Image]:
    """Every card outline the paper look (``scanner.find_paper``, with the scanner's
    ``FindParams.paper_*`` settings, whether or not ``paper_fallback`` is on) grows from the
    print of ``image``, refined on the frame as the scanner refines it and cut out as a
    canonical card; empty for a grey image (the look needs colour)."""
    if image.ndim != 3:
        return []
    find = params.find
    work = make_work(image, find)
    radius = math.ceil(find.refine_radius / work.scale)
    out: list[Image] = []
    for quad in paper_quads(work, find):
        corners = order_corners(refine_in_frame(quad / work.scale, image, radius, find))
        out.append(warp_card(image, as_quad(corners), find))
    return out


def face_contrast(card: Image, deck: DeckKind, params: ScannerParams) -> float:
    """The grey-level spread (95th minus 5th percentile, after a 5-pixel median filter) of
    the area the identifier reads (the corner index, the Octoplus centre), the lower of the
    card's two ends."""
    i = params.identify
    area = i.index_rank_region.union(i.index_suit_region) if deck is DeckKind.OKTRIS else i.centre_region
    # a median filter first, so specks of noise on blank paper or a wall count for nothing
    grey = np.asarray(cv2.medianBlur(cv2.cvtColor(card, cv2.COLOR_BGR2GRAY), 5), dtype=np.uint8)
    spreads = []
    for view in (grey, grey[::-1, ::-1]):
        values = view[area.y0 : area.y1, area.x0 : area.x1]
        low, high = np.percentile(values, [5, 95])
        spreads.append(float(high - low))
    return min(spreads)


def _likeness(card: Image, deck: DeckKind, params: ScannerParams) -> float:
    """The identifier's best score of ``card`` against the shipped faces of ``deck`` (1.0 without them)."""
    try:
        shipped = Templates.builtin(deck)
    except TemplateError:
        return 1.0
    return identify(card, shipped, params.identify).confidence


def _similarity(a: Image, b: Image, deck: DeckKind, params: ScannerParams) -> tuple[float, bool]:
    """The identifier's score of ``b`` read against ``a`` as sole template, and whether ``b`` read turned."""
    card = parse_card("AS" if deck is DeckKind.OKTRIS else "1", deck)
    answer = identify(b, Templates(deck, {card: (a,)}), params.identify)
    return answer.confidence, answer.turned


def _turn(image: Image) -> Image:
    return np.asarray(cv2.rotate(image, cv2.ROTATE_180), dtype=np.uint8)


def combine(
    photos: list[Photo], deck: DeckKind, params: ScannerParams, learn: LearnParams
) -> tuple[list[Photo], list[Photo], float]:
    """Choose one card's templates: ``(kept, the medoid first; rejected; the medoid's agreement)``.

    Every kept photo is turned the way the medoid reads.
    """
    n = len(photos)
    if n == 1:
        return photos, [], 1.0
    scores = np.eye(n, dtype=np.float64)
    turned = np.zeros((n, n), dtype=bool)
    for i in range(n):
        for j in range(n):
            if i != j:
                scores[i, j], turned[i, j] = _similarity(photos[i].image, photos[j].image, deck, params)
    symmetric = (scores + scores.T) / 2.0
    off = [np.delete(symmetric[i], i) for i in range(n)]
    centrality = np.array([float(np.median(row)) for row in off])
    if n == 2 and symmetric[0, 1] < learn.min_agreement:
        best = max(range(2), key=lambda i: photos[i].quality)
        return [photos[best]], [photos[1 - best]], float(symmetric[0, 1])
    medoid = int(np.argmax(centrality))
    order = [medoid, *sorted((i for i in range(n) if i != medoid), key=lambda i: -symmetric[medoid, i])]
    kept = [i for i in order if i == medoid or symmetric[medoid, i] >= learn.min_agreement]
    rejected = [photos[i] for i in order if i not in kept]
    aligned = [
        photos[i] if i == medoid or not turned[medoid, i] else _with_image(photos[i], _turn(photos[i].image))
        for i in kept[: learn.templates_per_card]
    ]
    return aligned, rejected, float(centrality[medoid])


def _with_image(photo: Photo, image: Image) -> Photo:
    return Photo(photo.path, photo.card, image, photo.quality)


def _upright(images: list[Image], card: Card, deck: DeckKind, params: ScannerParams) -> list[Image]:
    """Turn the set the way the shipped template of ``card`` reads, when there is one."""
    try:
        shipped = Templates.builtin(deck)
    except TemplateError:
        return images
    if card not in shipped.faces:
        return images
    answer = identify(images[0], Templates(deck, {card: shipped.faces[card]}), params.identify)
    return [_turn(image) for image in images] if answer.turned else images


def _peer_part(
    image: Image, card: Card, peers: dict[Card, list[Image]], deck: DeckKind, params: ScannerParams
) -> tuple[float, bool]:
    """The best score of ``image``'s corner index (a photo of the standard ``card``) against the
    cards of ``peers`` of its suit (by the suit symbol) or of its rank (by the rank glyph), and
    whether it has such a peer at all."""
    assert isinstance(card, StdCard)
    best = -1.0
    found = False
    for peer, images in peers.items():
        if (
            not isinstance(peer, StdCard)
            or peer == card
            or (peer.suit != card.suit and peer.rank != card.rank)
        ):
            continue
        found = True
        answer = identify(image, Templates(deck, {peer: (images[0],)}), params.identify)
        if not answer.part_scores:
            continue
        parts = [answer.part_scores[1]] if peer.suit == card.suit else []
        parts += [answer.part_scores[0]] if peer.rank == card.rank else []
        best = max(best, *parts)
    return best, found


def unconfirmed(
    chosen: dict[Card, list[Image]], deck: DeckKind, params: ScannerParams, learn: LearnParams
) -> dict[Card, float]:
    """The standard cards of ``chosen`` whose corner index matches none of its peers (the other
    cards of its suit by the suit symbol, of its rank by the rank glyph) by
    ``LearnParams.min_peer_part``, while some peer of it is confirmed by matching another card
    so: each with its best peer score.  A card without peers, or whose peers are all
    unconfirmed too, is kept (nothing trustworthy to compare it with)."""
    cards = [c for c in chosen if isinstance(c, StdCard)]
    best: dict[Card, float] = {}
    peers: dict[Card, list[Card]] = {}
    for card in cards:
        score, has_peers = _peer_part(chosen[card][0], card, {c: chosen[c] for c in cards}, deck, params)
        if has_peers:
            peers[card] = [c for c in cards if c != card and (c.suit == card.suit or c.rank == card.rank)]
            best[card] = score
    confirmed = {card for card, score in best.items() if score >= learn.min_peer_part}
    return {
        card: best.get(card, -1.0)
        for card, others in peers.items()
        if card not in confirmed and any(peer in confirmed for peer in others)
    }


def other_deck_photos(
    rejected: dict[Card, list[Photo]],
    chosen: dict[Card, list[Image]],
    deck: DeckKind,
    params: ScannerParams,
    learn: LearnParams,
) -> dict[Card, Photo]:
    """Of each standard card's rejected photos, the one whose corner index best matches the
    learned cards ``chosen`` of its suit or rank, when it does so by ``LearnParams.min_peer_part``
    (``LearnParams.other_decks``): the card in another deck.  A photo that the learned cards
    name as another card is a mislabelled photo (a 5H labelled 4H matches the hearts), not
    another deck, and is left out."""
    learned = Templates(deck, {c: (images[0],) for c, images in chosen.items()}) if chosen else None
    out: dict[Card, Photo] = {}
    for card, photos in rejected.items():
        if not isinstance(card, StdCard):
            continue
        labelled = [
            photo
            for photo in photos
            if learned is None or identify(photo.image, learned, params.identify).card in (None, card)
        ]
        scored = [(_peer_part(photo.image, card, chosen, deck, params)[0], photo) for photo in labelled]
        if scored:
            score, photo = max(scored, key=lambda x: x[0])
            if score >= learn.min_peer_part:
                out[card] = photo
    return out


def compose_other_deck(
    other: dict[Card, Image],
    learned: dict[Card, Image],
    deck: DeckKind,
    params: ScannerParams,
    learn: LearnParams,
) -> dict[Card, Image]:
    """A template in the style of the other deck ``other`` (``other_deck_photos``, upright, corners
    cleaned) for every standard card of the deck it has no photo of but whose rank it prints:
    the rank from ``other``'s card of that rank, the suit symbol from the ``learned`` templates
    of the card's suit (the other deck's own cards of that suit first)."""
    out: dict[Card, Image] = {}
    for card in expected_cards(deck):
        if card in other or not isinstance(card, StdCard):
            continue
        suit: dict[Card, Image] = {
            c: f
            for c, f in learned.items()
            if isinstance(c, StdCard) and c.suit == card.suit and c.rank != card.rank
        }
        out.update(compose_missing({**suit, **other}, [card], params.identify, learn.combine))
    return out


def _shipped(card: Card, deck: DeckKind) -> tuple[Image, ...]:
    """The shipped faces of ``card`` (none when the deck ships no templates)."""
    try:
        return tuple(Templates.builtin(deck).faces.get(card, ()))
    except TemplateError:
        return ()


def _face_cut(
    found: list[tuple[Image, float]], deck: DeckKind, params: ScannerParams, learn: LearnParams
) -> tuple[float, tuple[Image, float]] | None:
    """Of the cut-outs ``found`` (each with the finder's score) that show a card face
    (``LearnParams.min_contrast``, the table past the rounded corners painted over first), the
    one most like a card face of ``deck``, with that likeness; ``None`` when none shows a face."""
    cuts = [(clean_corners(c, learn.corner_radius), score) for c, score in found]
    shown = [cut for cut in cuts if face_contrast(cut[0], deck, params) >= learn.min_contrast]
    if not shown:
        return None
    return max(((_likeness(c[0], deck, params), c) for c in shown), key=lambda x: x[0])


def learn_templates(
    labels_csv: str | Path,
    deck: DeckKind,
    out_dir: str | Path,
    params: ScannerParams | None = None,
    learn: LearnParams | None = None,
) -> LearnReport:
    """Learn a template folder from labelled photos and write it to ``out_dir``.

    Photos that cannot be read or show no card are skipped (and reported);
    cards of the deck with no usable photo are reported as missing (a warning
    names them) but do not stop the learning.

    Raises:
        LabelsError: the labels CSV cannot be used.
        TemplateError: no photo at all gave a card, or the folder cannot be written.
    """
    p = params if params is not None else ScannerParams()
    lp = learn if learn is not None else LearnParams()
    rows = read_labels(labels_csv, deck)
    photos: dict[Card, list[Photo]] = {}
    skipped: list[tuple[Path, str]] = []
    for path, card in rows:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            skipped.append((path, "cannot be read as an image"))
            log.warning("%s: cannot be read as an image; skipped", path)
            continue
        picture = np.asarray(image, dtype=np.uint8)
        found = cut_outs(picture, p, lp.candidates, lp.lenient_outlines)
        chosen_cut = _face_cut(found, deck, p, lp)
        if lp.paper_below > -1.0 and (chosen_cut is None or chosen_cut[0] < lp.paper_below):
            # no cut-out the finder made looks like a card: a held card's paper may show it
            paper = [(cut, 0.0) for cut in paper_cut_outs(picture, p)]
            by_paper = _face_cut(paper, deck, p, lp)
            if by_paper is not None and (chosen_cut is None or by_paper[0] > chosen_cut[0]):
                chosen_cut, found = by_paper, found + paper
        if not found:
            skipped.append((path, "no card found"))
            log.warning("%s: no card found; skipped", path)
            continue
        if chosen_cut is None:
            contrast = face_contrast(clean_corners(found[0][0], lp.corner_radius), deck, p)
            skipped.append((path, f"no card face seen (contrast {contrast:.0f})"))
            log.warning("%s: the cut-out shows no card face (contrast %.0f); skipped", path, contrast)
            continue
        likeness, cut = chosen_cut
        if likeness < lp.min_likeness:
            skipped.append((path, f"the cut-out looks like no card face (likeness {likeness:.2f})"))
            log.warning("%s: the cut-out looks like no card face (likeness %.2f); skipped", path, likeness)
            continue
        photos.setdefault(card, []).append(Photo(path, card, cut[0], cut[1]))
    if not photos:
        raise TemplateError(f"no photo listed in {str(labels_csv)!r} shows a card: nothing to learn")
    chosen: dict[Card, list[Image]] = {}
    reports: list[CardReport] = []
    outliers: dict[Card, list[Photo]] = {}
    for card, card_photos in photos.items():
        kept, rejected, agreement = combine(card_photos, deck, p, lp)
        if lp.other_decks and len(kept) > 1:
            # a photo kept by the identifier's measure (the index alike) but too unlike the
            # reference to be averaged in (another deck's print) may be another deck's card too
            taken = averaged([x.image for x in kept], _shipped(card, deck), lp.combine)
            rejected = rejected + [x for x, used in zip(kept, taken, strict=True) if not used]
            kept = [x for x, used in zip(kept, taken, strict=True) if used]
        if rejected:
            outliers[card] = rejected
        for photo in rejected:
            log.warning("%s: rejected as an outlier among the photos of %s", photo.path, card)
        chosen[card] = _upright([photo.image for photo in kept], card, deck, p)
        reports.append(
            CardReport(card, tuple(x.path for x in kept), tuple(x.path for x in rejected), agreement)
        )
    for card, best in unconfirmed(chosen, deck, p, lp).items():
        report = next(r for r in reports if r.card == card)
        reports.remove(report)
        del chosen[card]
        why = f"its corner index matches no other card of its suit or rank (best {best:.2f})"
        for path in report.kept:
            skipped.append((path, why))
            log.warning("%s: %s; skipped", path, why)
    other: dict[Card, Image] = {}
    if lp.other_decks and deck is DeckKind.OKTRIS:
        for card, photo in other_deck_photos(outliers, chosen, deck, p, lp).items():
            (image,) = _upright([photo.image], card, deck, p)
            other[card] = clean_corners(image, lp.corner_radius)
            # the card's report (gone when its own photos were dropped as unconfirmed)
            report = next((r for r in reports if r.card == card), CardReport(card, (), (photo.path,), 0.0))
            if report in reports:
                reports.remove(report)
            reports.append(
                replace(
                    report,
                    rejected=tuple(x for x in report.rejected if x != photo.path),
                    other_deck=(photo.path,),
                )
            )
            log.info("%s: taken as %s of another deck", photo.path, card)
    combined = combine_captures(chosen, deck, p.identify, lp.combine)
    faces: dict[Card, tuple[Image, ...]] = {
        card: (clean_corners(image, lp.corner_radius),) for card, image in combined.items()
    }
    if lp.combine.compose_learned and deck is DeckKind.OKTRIS:
        learned = {card: combined[card] for card in chosen if card in combined}
        for card, image in compose_learned(learned, p.identify, lp.combine).items():
            faces[card] += (clean_corners(image, lp.corner_radius),)
    if other:
        for card, image in [*other.items(), *compose_other_deck(other, combined, deck, p, lp).items()]:
            faces[card] = (*faces.get(card, ()), clean_corners(image, lp.corner_radius))
    templates = Templates(deck, faces, source=str(out_dir))
    folder = templates.save(out_dir)
    missing = templates.missing(expected_cards(deck))
    composed = tuple(card for card in expected_cards(deck) if card in combined and card not in chosen)
    if composed:
        log.info("composed from learned parts: %s", " ".join(str(card) for card in composed))
    if missing:
        log.warning("no template learned for %s", " ".join(str(card) for card in missing))
    return LearnReport(templates, folder, tuple(reports), tuple(skipped), missing, composed)
