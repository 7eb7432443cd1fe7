"""Card templates of a deck: one or more canonical face images per card.

A template is a whole card face as the identifier sees it: a BGR uint8 image of
``CARD_WIDTH`` x ``CARD_HEIGHT`` (200 x 280) pixels, portrait, upright.  A
template folder holds the images (PNG) and a manifest ``templates.toml``::

    version = 1
    deck = "oktris"
    card_width = 200
    card_height = 280

    [cards]
    "7H" = ["7H.png"]
    "AS" = ["AS.png", "AS-2.png"]

``Templates.builtin(deck)`` loads the folders shipped in
``scanner/data/templates/<deck>/`` (built from the project's own rendered faces
by ``tools/make_templates.py``; the Oktris set includes 9-K as decoys, see
``in_deck``); ``calibration.templates.learn_templates`` writes
folders learned from photos of a real deck.
"""

from __future__ import annotations

import functools
import logging
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import tomli_w

from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH
from scanner.types import Image
from scorer.cards import PASS, Card, DeckKind, OctoCard, StdCard, Suit, oktris_deck, parse_card
from scorer.errors import NotationError

log = logging.getLogger(__name__)

TEMPLATE_VERSION = 1
"""The manifest version this code writes and reads."""
MANIFEST = "templates.toml"
"""Name of the manifest inside a template folder."""

BUILTIN_DIR = Path(__file__).parent / "data" / "templates"
"""Where the shipped template folders live, one per deck."""
PNG_OPTIONS = (cv2.IMWRITE_PNG_COMPRESSION, 9, cv2.IMWRITE_PNG_FILTER, cv2.IMWRITE_PNG_FILTER_NONE)
"""How template images are written: the same pixels whatever the options; unfiltered rows compress
the rendered faces (flat paper and print) to about a fifth fewer bytes than the default filters."""


class TemplateError(Exception):
    """A template folder or template image that cannot be used (missing, corrupt, wrong deck)."""


def expected_cards(deck: DeckKind) -> tuple[Card, ...]:
    """The cards a complete template set of ``deck`` covers by default.

    Oktris: A-8 of four suits; Octoplus: number faces 1-7, ``+2``, ``-2``, Pass.
    """
    if deck is DeckKind.OKTRIS:
        return oktris_deck()
    numbers = tuple(OctoCard.number(value) for value in range(1, 8))
    return (*numbers, OctoCard.parse("+2"), OctoCard.parse("-2"), PASS)


def in_deck(card: Card, deck: DeckKind) -> bool:
    """Whether ``card`` can be named for ``deck``.

    Oktris plays A-8 only: templates of 9-K are *decoys*, there so that a stray
    9-K is recognised as such and answered "not identified" instead of being
    taken for the nearest A-8.  Every Octoplus face can be named.
    """
    return not (deck is DeckKind.OKTRIS and isinstance(card, StdCard) and card.rank > 8)


def decoy_cards(deck: DeckKind) -> tuple[Card, ...]:
    """The decoy cards the shipped templates of ``deck`` include (9-K for Oktris)."""
    if deck is DeckKind.OKTRIS:
        return tuple(StdCard(rank, suit) for rank in range(9, 14) for suit in Suit)
    return ()


def file_stem(card: Card) -> str:
    """A file-name-safe stem for ``card`` (``7H``, ``5``, ``plus2``, ``minus2``, ``P``)."""
    return str(card).replace("+", "plus").replace("-", "minus")


def _check_image(image: object, what: str) -> Image:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        raise TemplateError(f"{what}: a template must be a uint8 image, got {type(image).__name__}")
    if image.shape != (CARD_HEIGHT, CARD_WIDTH, 3):
        raise TemplateError(
            f"{what}: a template must be {CARD_WIDTH}x{CARD_HEIGHT} BGR (shape "
            f"{(CARD_HEIGHT, CARD_WIDTH, 3)}), got shape {image.shape}"
        )
    return image


@dataclass(frozen=True, eq=False)
class Templates:
    """The templates of one deck: per card one or more canonical face images.

    ``source`` says where they came from (a folder, ``builtin:<deck>`` or
    ``<memory>``) for messages.  ``cache`` holds matrices the identifier derives
    from the images (per set of parameters); it is not part of the value.

    Raises:
        TemplateError: (from construction) no card at all, a card of another
            deck, or an image that is not a 200x280 BGR uint8 array.
    """

    deck: DeckKind
    faces: Mapping[Card, tuple[Image, ...]]
    source: str = "<memory>"
    cache: dict[object, object] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.faces:
            raise TemplateError(f"{self.source}: no card templates at all for the {self.deck.value} deck")
        for card, images in self.faces.items():
            try:
                same = parse_card(str(card), self.deck) == card
            except NotationError:
                same = False
            if not same:
                raise TemplateError(f"{self.source}: card {card} is not a card of the {self.deck.value} deck")
            if not images:
                raise TemplateError(f"{self.source}: card {card} has an empty list of templates")
            for number, image in enumerate(images, 1):
                _check_image(image, f"{self.source}: template {number} of {card}")

    @property
    def shipped(self) -> bool:
        """Whether these are the deck's built-in templates (``Templates.builtin``), the faces the
        learned steps were fitted on."""
        return self.source == f"builtin:{self.deck.value}"

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards that have at least one template, in insertion order."""
        return tuple(self.faces)

    def missing(self, expected: Iterable[Card] | None = None) -> tuple[Card, ...]:
        """The cards of ``expected`` (default: ``expected_cards(deck)``) without a template."""
        wanted = expected_cards(self.deck) if expected is None else tuple(expected)
        return tuple(card for card in wanted if card not in self.faces)

    def __len__(self) -> int:
        return sum(len(images) for images in self.faces.values())

    @classmethod
    def builtin(cls, deck: DeckKind) -> Templates:
        """The shipped templates of ``deck`` (loaded once, then shared).

        Raises:
            TemplateError: the installed package lacks its template folder.
        """
        return _builtin(deck)

    @classmethod
    def load(cls, directory: str | Path, deck: DeckKind | None = None) -> Templates:
        """Read a template folder.

        Logs a warning naming every expected card of the deck that has no
        template (identification then never answers those cards).

        Raises:
            TemplateError: the folder or its manifest is missing or corrupt, the
                manifest's version, sizes or deck are wrong (or not ``deck`` when
                given), a label is not a card, or an image is missing or unreadable.
        """
        folder = Path(directory)
        if not folder.is_dir():
            raise TemplateError(f"template folder {str(folder)!r} does not exist or is not a folder")
        manifest_path = folder / MANIFEST
        try:
            manifest = tomllib.loads(manifest_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise TemplateError(f"template folder {str(folder)!r} has no {MANIFEST}") from None
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise TemplateError(f"cannot read {str(manifest_path)!r}: {exc}") from None
        found_deck = _manifest_deck(manifest, manifest_path)
        if deck is not None and found_deck is not deck:
            raise TemplateError(
                f"{str(manifest_path)!r} holds templates of the {found_deck.value} deck, "
                f"not of the {deck.value} deck"
            )
        cards_table = manifest.get("cards")
        if not isinstance(cards_table, dict) or not cards_table:
            raise TemplateError(f"{str(manifest_path)!r} has no [cards] table listing template files")
        faces: dict[Card, tuple[Image, ...]] = {}
        for label, files in cards_table.items():
            try:
                card = parse_card(label, found_deck)
            except NotationError as exc:
                raise TemplateError(f"{str(manifest_path)!r}: {exc}") from None
            if isinstance(files, str):
                files = [files]
            if not isinstance(files, list) or not files or not all(isinstance(f, str) for f in files):
                raise TemplateError(f"{str(manifest_path)!r}: card {label!r} must list image file names")
            faces[card] = tuple(_read_image(folder / name) for name in files)
        templates = cls(found_deck, faces, source=str(folder))
        missing = templates.missing()
        if missing:
            log.warning(
                "template folder %s has no template for %d card(s): %s; those cards are never identified",
                folder,
                len(missing),
                " ".join(str(card) for card in missing),
            )
        return templates

    def save(self, directory: str | Path) -> Path:
        """Write the templates as a folder (PNG images and the manifest); returns the folder.

        Raises:
            TemplateError: an image cannot be written.
        """
        folder = Path(directory)
        folder.mkdir(parents=True, exist_ok=True)
        cards: dict[str, list[str]] = {}
        for card, images in self.faces.items():
            names = []
            for number, image in enumerate(images, 1):
                name = f"{file_stem(card)}.png" if number == 1 else f"{file_stem(card)}-{number}.png"
                if not cv2.imwrite(str(folder / name), image, PNG_OPTIONS):
                    raise TemplateError(f"cannot write template image {str(folder / name)!r}")
                names.append(name)
            cards[str(card)] = names
        manifest = {
            "version": TEMPLATE_VERSION,
            "deck": self.deck.value,
            "card_width": CARD_WIDTH,
            "card_height": CARD_HEIGHT,
            "cards": cards,
        }
        (folder / MANIFEST).write_text(tomli_w.dumps(manifest), encoding="utf-8")
        return folder


def _manifest_deck(manifest: dict[str, object], path: Path) -> DeckKind:
    version = manifest.get("version")
    if version != TEMPLATE_VERSION:
        raise TemplateError(f"{str(path)!r}: unsupported version {version!r} (expected {TEMPLATE_VERSION})")
    size = (manifest.get("card_width"), manifest.get("card_height"))
    if size != (CARD_WIDTH, CARD_HEIGHT):
        raise TemplateError(
            f"{str(path)!r}: card size {size[0]!r}x{size[1]!r} differs from the canonical "
            f"{CARD_WIDTH}x{CARD_HEIGHT}"
        )
    deck_text = manifest.get("deck")
    try:
        return DeckKind(deck_text)
    except ValueError:
        raise TemplateError(f"{str(path)!r}: unknown deck {deck_text!r} (oktris or octoplus)") from None


def _read_image(path: Path) -> Image:
    if not path.is_file():
        raise TemplateError(f"template image {str(path)!r} does not exist")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise TemplateError(f"template image {str(path)!r} cannot be decoded")
    return _check_image(image, f"template image {str(path)!r}")


@functools.cache
def _builtin(deck: DeckKind) -> Templates:
    folder = BUILTIN_DIR / deck.value
    if not (folder / MANIFEST).is_file():
        raise TemplateError(f"the built-in templates of the {deck.value} deck are missing ({folder})")
    templates = Templates.load(folder, deck)
    return Templates(deck, templates.faces, source=f"builtin:{deck.value}")
