"""Card value types for both decks and their text notation.

Standard (Oktris) cards are written rank + suit: ranks ``A 2 3 4 5 6 7 8 9 T J Q
K`` (``10`` is accepted for ``T`` when parsing), suits ``S H D C``; e.g. ``7H``,
``AS``.  Octoplus cards are number faces ``1``..``N``, ``+2``, ``-2`` and ``P``
(Pass).  For every card ``parse(str(card)) == card``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from scorer.errors import NotationError

RANK_SYMBOLS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
"""Rank symbols by rank value: ``RANK_SYMBOLS[rank - 1]``."""


class DeckKind(enum.Enum):
    """Which deck a table plays with."""

    OKTRIS = "oktris"
    OCTOPLUS = "octoplus"


class Suit(enum.Enum):
    """The four suits, valued by their notation letter."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def is_red(self) -> bool:
        """True for hearts and diamonds."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def symbol(self) -> str:
        """The printed suit symbol (``♠ ♥ ♦ ♣``)."""
        return _SUIT_SYMBOLS[self]


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


@dataclass(frozen=True)
class StdCard:
    """A standard playing card: ``rank`` 1 (ace) .. 13 (king) and a suit."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13:
            raise NotationError(f"rank must be 1..13, got {self.rank!r}")

    @classmethod
    def parse(cls, text: str) -> StdCard:
        """Parse ``'7H'``, ``'AS'``, ``'TC'`` or ``'10C'`` (case-insensitive).

        Raises:
            NotationError: the text is not a standard card.
        """
        t = text.strip().upper()
        if len(t) < 2:
            raise NotationError(f"not a standard card: {text!r} (expected rank + suit, e.g. '7H')")
        rank_text, suit_text = t[:-1], t[-1]
        if rank_text == "10":
            rank_text = "T"
        if rank_text not in RANK_SYMBOLS:
            raise NotationError(f"not a standard card: {text!r} (unknown rank {rank_text!r})")
        try:
            suit = Suit(suit_text)
        except ValueError:
            raise NotationError(f"not a standard card: {text!r} (unknown suit {suit_text!r})") from None
        return cls(RANK_SYMBOLS.index(rank_text) + 1, suit)

    @property
    def rank_symbol(self) -> str:
        """The rank as written: ``A``, ``2``..``9``, ``T``, ``J``, ``Q``, ``K``."""
        return RANK_SYMBOLS[self.rank - 1]

    @property
    def pretty(self) -> str:
        """The card with its suit symbol, e.g. ``7♥`` (``10♥`` for a ten)."""
        rank = "10" if self.rank == 10 else self.rank_symbol
        return f"{rank}{self.suit.symbol}"

    def __str__(self) -> str:
        return f"{self.rank_symbol}{self.suit.value}"

    def __repr__(self) -> str:
        return f"StdCard.parse({str(self)!r})"


class OctoKind(enum.Enum):
    """The kinds of Octoplus card."""

    NUMBER = "number"
    PLUS2 = "+2"
    MINUS2 = "-2"
    PASS = "P"


@dataclass(frozen=True)
class OctoCard:
    """An Octoplus card: a number face (``value`` 1..99) or one of the specials."""

    kind: OctoKind
    value: int = 0

    def __post_init__(self) -> None:
        if self.kind is OctoKind.NUMBER:
            if not 1 <= self.value <= 99:
                raise NotationError(f"an Octoplus number card is 1..99, got {self.value!r}")
        elif self.value != {OctoKind.PLUS2: 2, OctoKind.MINUS2: -2, OctoKind.PASS: 0}[self.kind]:
            raise NotationError(f"{self.kind.value} card cannot have value {self.value!r}")

    @classmethod
    def number(cls, value: int) -> OctoCard:
        """A number card of the given face value."""
        return cls(OctoKind.NUMBER, value)

    @classmethod
    def parse(cls, text: str) -> OctoCard:
        """Parse ``'5'``, ``'+2'``, ``'-2'`` or ``'P'`` (``'pass'`` also accepted).

        Raises:
            NotationError: the text is not an Octoplus card.
        """
        t = text.strip().upper()
        if t == "+2":
            return PLUS2
        if t == "-2":
            return MINUS2
        if t in ("P", "PASS"):
            return PASS
        if t.isdigit() and not t.startswith("0"):
            return cls.number(int(t))
        raise NotationError(f"not an Octoplus card: {text!r} (expected 1..99, +2, -2 or P)")

    @property
    def is_special(self) -> bool:
        """True for ``+2``, ``-2`` and Pass."""
        return self.kind is not OctoKind.NUMBER

    @property
    def pretty(self) -> str:
        """The card as shown to people (``Pass`` spelled out)."""
        return "Pass" if self.kind is OctoKind.PASS else str(self)

    def __str__(self) -> str:
        if self.kind is OctoKind.NUMBER:
            return str(self.value)
        return str(self.kind.value)

    def __repr__(self) -> str:
        return f"OctoCard.parse({str(self)!r})"


PLUS2 = OctoCard(OctoKind.PLUS2, 2)
MINUS2 = OctoCard(OctoKind.MINUS2, -2)
PASS = OctoCard(OctoKind.PASS, 0)

Card = StdCard | OctoCard
"""Any card the table knows."""


def parse_card(text: str, deck: DeckKind) -> Card:
    """Parse a card of the given deck.

    Raises:
        NotationError: the text is not a card of that deck.
    """
    if deck is DeckKind.OKTRIS:
        return StdCard.parse(text)
    return OctoCard.parse(text)


def oktris_deck() -> tuple[StdCard, ...]:
    """The 32 Oktris cards (A-8 of four suits), in rank then suit order."""
    return tuple(StdCard(rank, suit) for rank in range(1, 9) for suit in Suit)
