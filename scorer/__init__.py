"""octotable scorer: card values, game events, the rules engines and the game log.

Standard library only; no I/O, no clock, no hidden randomness.  The public API
(documented in ``docs/scorer-api.md``) is importable from here.
"""

from __future__ import annotations

from scorer.cards import (
    MINUS2,
    PASS,
    PLUS2,
    Card,
    DeckKind,
    OctoCard,
    OctoKind,
    StdCard,
    Suit,
    oktris_deck,
    parse_card,
)
from scorer.errors import IllegalPlayError, LogError, NotationError, OutOfTurnError, ScorerError
from scorer.events import Adjust, Event, Give, Play, Reveal, Source, TakeChain, Trick, TurnUp, Undone
from scorer.game import GAMES, Allowed, Game, Rules, State, rules_for
from scorer.notation import format_event, format_log, parse_event, parse_log
from scorer.octoplus import OctoplusAllowed, OctoplusRules, OctoplusState
from scorer.oktris import OktrisAllowed, OktrisRules, OktrisState
from scorer.sheet import Adjustment, ScoreCell, ScoreSheet
from scorer.simulate import simulate
from scorer.view import snapshot

__all__ = [
    "GAMES",
    "MINUS2",
    "PASS",
    "PLUS2",
    "Adjust",
    "Adjustment",
    "Allowed",
    "Card",
    "DeckKind",
    "Event",
    "Game",
    "Give",
    "IllegalPlayError",
    "LogError",
    "NotationError",
    "OctoCard",
    "OctoKind",
    "OctoplusAllowed",
    "OctoplusRules",
    "OctoplusState",
    "OktrisAllowed",
    "OktrisRules",
    "OktrisState",
    "OutOfTurnError",
    "Play",
    "Reveal",
    "Rules",
    "ScoreCell",
    "ScoreSheet",
    "ScorerError",
    "Source",
    "State",
    "StdCard",
    "Suit",
    "TakeChain",
    "Trick",
    "TurnUp",
    "Undone",
    "format_event",
    "format_log",
    "oktris_deck",
    "parse_card",
    "parse_event",
    "parse_log",
    "rules_for",
    "simulate",
    "snapshot",
]
