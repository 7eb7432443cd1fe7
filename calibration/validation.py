"""Validation of learned templates: how each card's captures read against them, and cards too alike.

``validate`` reads every capture of every card against the templates; per card
it reports the lowest confidence, how many captures read right and the other
card that came closest, and it lists pairs of cards whose captures lead each
other by less than ``alike_margin`` (or read as each other): by default the
identifier's own ``min_margin``, the lead below which it names neither card.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scanner.identify import identify
from scanner.identify_params import IdentifyParams
from scanner.templates import Templates
from scanner.types import Image
from scorer.cards import Card


@dataclass(frozen=True)
class CardCheck:
    """How one card's captures read against the learned templates.

    ``confidence`` is the lowest score of its captures as the card itself (0
    when one read as another card); ``runner_up`` is the other card that came
    closest and ``margin`` the smallest lead over it.
    """

    card: Card
    confidence: float
    correct: int
    captures: int
    runner_up: Card | None
    margin: float


@dataclass(frozen=True)
class ValidationReport:
    """Per card its check, the pairs of cards too alike to tell apart safely, and cards without templates."""

    cards: tuple[CardCheck, ...]
    alike: tuple[tuple[Card, Card, float], ...]
    missing: tuple[Card, ...]

    @property
    def accuracy(self) -> float:
        """Share of all captures read as their own card."""
        total = sum(c.captures for c in self.cards)
        return sum(c.correct for c in self.cards) / total if total else 0.0

    @property
    def ok(self) -> bool:
        """True when every capture reads right, no pair is too alike and no card is missing."""
        return self.accuracy == 1.0 and not self.alike and not self.missing


def validate(
    templates: Templates,
    captures: dict[Card, list[Image]],
    params: IdentifyParams | None = None,
    alike_margin: float | None = None,
) -> ValidationReport:
    """Read every capture against ``templates``: each card's confidence, and pairs too alike.

    Two cards are too alike when a capture of one leads the other by less than
    ``alike_margin`` (default: the identifier's ``min_margin``), or reads as the other.
    """
    p = params or IdentifyParams()
    limit = p.min_margin if alike_margin is None else alike_margin
    checks: list[CardCheck] = []
    alike: dict[tuple[str, str], tuple[Card, Card, float]] = {}
    for card, images in captures.items():
        lowest, correct, margin, rival = 1.0, 0, math.inf, None
        for image in images:
            answer = identify(image, templates, p)
            if answer.candidate == card:
                lead = answer.confidence - answer.runner_up_confidence
                lowest = min(lowest, answer.confidence)
                correct += int(answer.card == card)
                other = answer.runner_up
            else:
                lead = -(answer.confidence - _score_of(image, card, templates, p))
                lowest = 0.0
                other = answer.candidate
            if lead < margin:
                margin, rival = lead, other
            if other is not None and lead < limit:
                key = tuple(sorted((str(card), str(other))))
                if key not in alike or lead < alike[key][2]:
                    alike[key] = (card, other, lead)  # type: ignore[index]
        checks.append(CardCheck(card, lowest, correct, len(images), rival, margin if images else 0.0))
    missing = templates.missing()
    return ValidationReport(tuple(checks), tuple(alike.values()), missing)


def _score_of(image: Image, card: Card, templates: Templates, p: IdentifyParams) -> float:
    """The score ``image`` reaches against ``card``'s own templates alone."""
    if card not in templates.faces:
        return 0.0
    own = Templates(templates.deck, {card: templates.faces[card]}, source=templates.source)
    return identify(image, own, p).confidence
