"""The house rules of Octoplus (``RULES.md``, Octoplus section) as one value.

Every house rule is a field of :class:`OctoplusRules` with the default of
``RULES.md``.  ``options()`` writes every field as text and ``from_options()``
reads it back, so a table's choice can be stored in a game log header.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import TypeVar

from scorer.cards import MINUS2, PASS, PLUS2, OctoCard, OctoKind
from scorer.errors import NotationError

_E = TypeVar("_E", bound=enum.Enum)


class StartSpecial(enum.Enum):
    """What happens when the dealer turns up a special card as the first base."""

    REDRAW = "redraw"
    """The card goes back into the draw pile and the dealer turns another."""
    APPLY = "apply"
    """The card stays: ``-2`` is a base of -2, Pass a base of 0, ``+2`` a chain on base 0."""


class ChainWithoutNumber(enum.Enum):
    """What a player facing a ``+2`` chain (k cards on base B) does without a number card."""

    DRAW_EXCESS = "draw_excess"
    """Draws ``B + 2k - 8`` cards if that is above 0; the chain is cleared with base B."""
    DRAW_CHAIN = "draw_chain"
    """Draws ``2k`` cards; the chain is cleared with base B."""


def default_deck() -> tuple[tuple[OctoCard, int], ...]:
    """The default deck: number cards 1-7 eight times each, six of each special (74 cards)."""
    numbers = tuple((OctoCard.number(value), 8) for value in range(1, 8))
    return (*numbers, (PLUS2, 6), (MINUS2, 6), (PASS, 6))


_SPECIAL_ORDER = {OctoKind.PLUS2: 1, OctoKind.MINUS2: 2, OctoKind.PASS: 3}


def _face_order(card: OctoCard) -> tuple[int, int]:
    return (_SPECIAL_ORDER.get(card.kind, 0), card.value)


def format_deck(deck: tuple[tuple[OctoCard, int], ...]) -> str:
    """The deck as option text: ``"1:8,2:8,...,+2:6,-2:6,P:6"``."""
    return ",".join(f"{card}:{count}" for card, count in deck)


def parse_deck(text: str) -> tuple[tuple[OctoCard, int], ...]:
    """Parse option text ``"face:count,..."`` into a deck in canonical face order.

    Raises:
        NotationError: a part is not ``face:count``, a face is not an Octoplus
            card, a count is not a whole number >= 0, or a face is listed twice.
    """
    counts: dict[OctoCard, int] = {}
    for part in text.split(","):
        face, sep, count_text = part.strip().rpartition(":")
        if not sep or not face:
            raise NotationError(f"deck option {text!r}: {part.strip()!r} is not face:count")
        card = OctoCard.parse(face)
        count_text = count_text.strip()
        if not count_text.isdigit():
            raise NotationError(f"deck option {text!r}: count {count_text!r} of {face} is not a number >= 0")
        if card in counts:
            raise NotationError(f"deck option {text!r}: face {card} is listed twice")
        counts[card] = int(count_text)
    return tuple(sorted(counts.items(), key=lambda item: _face_order(item[0])))


def _parse_bool(name: str, text: str) -> bool:
    value = text.strip().lower()
    if value in ("true", "1", "yes"):
        return True
    if value in ("false", "0", "no"):
        return False
    raise NotationError(f"option {name}={text!r}: expected true or false")


def _parse_int(name: str, text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise NotationError(f"option {name}={text!r}: expected a whole number") from None


@dataclass(frozen=True)
class OctoplusRules:
    """The house rules of one Octoplus table; defaults as ``RULES.md``.

    ``deck`` lists each face with its number of copies (faces in canonical order:
    numbers ascending, then ``+2``, ``-2``, Pass).

    Raises (on construction):
        NotationError: a field is out of range (named with its value).
    """

    deck: tuple[tuple[OctoCard, int], ...] = field(default_factory=default_deck)
    hand_size: int = 8
    start_special: StartSpecial = StartSpecial.REDRAW
    chain_without_number: ChainWithoutNumber = ChainWithoutNumber.DRAW_EXCESS
    reshuffle: bool = True
    shared_win: bool = True
    max_rounds: int = 8
    void_eight: bool = True
    reset_88: bool = True
    special_points: int = 10
    end_total: int = 89

    def __post_init__(self) -> None:
        faces = [card for card, _ in self.deck]
        if len(set(faces)) != len(faces):
            raise NotationError(f"deck {format_deck(self.deck)!r} lists a face twice")
        if any(count < 0 for _, count in self.deck):
            raise NotationError(f"deck {format_deck(self.deck)!r} has a negative count")
        if not any(card.kind is OctoKind.NUMBER and count > 0 for card, count in self.deck):
            raise NotationError(f"deck {format_deck(self.deck)!r} has no number card")
        if self.hand_size < 1:
            raise NotationError(f"hand_size must be at least 1, got {self.hand_size}")
        if self.max_rounds < 1:
            raise NotationError(f"max_rounds must be at least 1, got {self.max_rounds}")
        if self.end_total < 1:
            raise NotationError(f"end_total must be at least 1, got {self.end_total}")
        if self.special_points < 0:
            raise NotationError(f"special_points must be 0 or more, got {self.special_points}")

    @property
    def deck_size(self) -> int:
        """How many cards the deck has."""
        return sum(count for _, count in self.deck)

    def count(self, card: OctoCard) -> int:
        """How many copies of ``card`` the deck has (0 for a face it lacks)."""
        return next((count for face, count in self.deck if face == card), 0)

    @property
    def number_faces(self) -> tuple[int, ...]:
        """The values of the number faces the deck has, ascending."""
        return tuple(c.value for c, n in self.deck if c.kind is OctoKind.NUMBER and n > 0)

    def card_points(self, card: OctoCard) -> int:
        """What ``card`` left in a hand scores: face value, or ``special_points``."""
        return self.special_points if card.is_special else card.value

    def options(self) -> dict[str, str]:
        """Every option by name, its value as text (``from_options`` reads it back)."""
        out: dict[str, str] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "deck":
                out[f.name] = format_deck(value)
            elif isinstance(value, enum.Enum):
                out[f.name] = str(value.value)
            elif isinstance(value, bool):
                out[f.name] = "true" if value else "false"
            else:
                out[f.name] = str(value)
        return out

    @classmethod
    def from_options(cls, options: Mapping[str, str]) -> OctoplusRules:
        """The rules with the given options; options not given keep their defaults.

        Raises:
            NotationError: an unknown option name or a bad value (naming both).
        """
        kwargs: dict[str, object] = {}
        known = {f.name for f in fields(cls)}
        for name, text in options.items():
            if name not in known:
                raise NotationError(f"unknown Octoplus option {name!r} (value {text!r})")
            if name == "deck":
                kwargs[name] = parse_deck(text)
            elif name == "start_special":
                kwargs[name] = _parse_enum(StartSpecial, name, text)
            elif name == "chain_without_number":
                kwargs[name] = _parse_enum(ChainWithoutNumber, name, text)
            elif name in ("reshuffle", "shared_win", "void_eight", "reset_88"):
                kwargs[name] = _parse_bool(name, text)
            else:
                kwargs[name] = _parse_int(name, text)
        try:
            return cls(**kwargs)  # type: ignore[arg-type]
        except NotationError as exc:
            raise NotationError(f"Octoplus options {dict(options)!r}: {exc}") from None


def _parse_enum(kind: type[_E], name: str, text: str) -> _E:
    try:
        return kind(text.strip().lower())
    except ValueError:
        choices = " | ".join(str(member.value) for member in kind)
        raise NotationError(f"option {name}={text!r}: expected {choices}") from None
