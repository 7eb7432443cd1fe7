"""Random legal games, for tests, demos and benchmarks.

:func:`simulate` deals real shuffled cards with the given ``random.Random`` (so
every hand is known), asks the engine what may happen next and plays a random
legal event until the game is over.  The same seed gives the same game.

Octoplus: plays mix several number and ``-2`` cards, ``+2`` chains, Pass, chain
takes, gives after an exact 8 and reveals of the real hands at round end; the
simulator mirrors the draw pile and discard pile card by card, reshuffling the
discard pile (all but its top card) when the engine does.  Oktris: each deal
gives every seat eight cards of the shuffled 32 and each trick lays one random
card per seat.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from scorer.cards import OctoCard, OctoKind, StdCard, oktris_deck
from scorer.events import Event, Give, Play, Reveal, TakeChain, Trick, TurnUp
from scorer.game import Game, Rules
from scorer.octoplus import OctoplusRules, OctoplusState, Phase, StartSpecial
from scorer.oktris import OktrisState

MAX_EVENTS = 200_000
"""A simulated game longer than this is a bug in the simulator or an engine."""


class SimulationError(RuntimeError):
    """The simulator lost track of the engine (a bug, never a rules decision)."""


@dataclass
class OctoplusTable:
    """The real cards of an Octoplus table: hands by seat, draw pile (top last), discard (top last)."""

    hands: list[list[OctoCard]]
    pile: list[OctoCard]
    discard: list[OctoCard] = field(default_factory=list)

    @property
    def card_count(self) -> int:
        """Every card on the table: hands, draw pile and discard pile."""
        return sum(len(hand) for hand in self.hands) + len(self.pile) + len(self.discard)


def octoplus_deck(rules: OctoplusRules) -> list[OctoCard]:
    """Every card of the rules' deck, one entry per copy."""
    return [card for card, count in rules.deck for _ in range(count)]


def deal_octoplus(rules: OctoplusRules, players: int, rng: random.Random) -> OctoplusTable:
    """A shuffled deck dealt: ``rules.hand_size`` cards to each seat, the rest the draw pile."""
    deck = octoplus_deck(rules)
    rng.shuffle(deck)
    hands = [[deck.pop() for _ in range(rules.hand_size)] for _ in range(players)]
    return OctoplusTable(hands, deck)


def _draw(table: OctoplusTable, seat: int, count: int, reshuffle: bool, rng: random.Random) -> None:
    for _ in range(count):
        if not table.pile and reshuffle and len(table.discard) > 1:
            top = table.discard.pop()
            table.pile = table.discard
            rng.shuffle(table.pile)
            table.discard = [top]
        if not table.pile:
            raise SimulationError(f"seat {seat} must draw from an empty pile")
        table.hands[seat - 1].append(table.pile.pop())


def _choose_play(hand: list[OctoCard], base: int, chain: int, rng: random.Random) -> list[OctoCard] | None:
    """Cards for a ``Play`` (``None``: take the chain), chosen at random with a bias to ending the round."""
    numbers = [c for c in hand if c.kind is OctoKind.NUMBER]
    plus2 = [c for c in hand if c.kind is OctoKind.PLUS2]
    if chain:
        if plus2 and (not numbers or rng.random() < 0.4):
            return [plus2[0]]
        if not numbers:
            return None
        pool = numbers
    else:
        passes = [c for c in hand if c.kind is OctoKind.PASS]
        if plus2 and rng.random() < 0.15:
            return [plus2[0]]
        if passes and rng.random() < 0.1:
            return [passes[0]]
        pool = [c for c in hand if c.kind in (OctoKind.NUMBER, OctoKind.MINUS2)]
        if not pool:
            return [(plus2 or passes)[0]]
    start = base + 2 * chain
    candidates: list[list[OctoCard]] = []
    for _ in range(12):
        size = rng.randint(1, min(4, len(pool)))
        candidates.append(rng.sample(pool, size))
    if rng.random() < 0.9:
        fitting = [c for c in candidates if start + sum(card.value for card in c) <= 8]
        if fitting:
            return max(fitting, key=len)
    return candidates[0]


def _remove(hand: list[OctoCard], cards: list[OctoCard] | tuple[OctoCard, ...]) -> None:
    for card in cards:
        hand.remove(card)


def _octoplus_state(game: Game) -> OctoplusState:
    state = game.state
    if not isinstance(state, OctoplusState):
        raise SimulationError(f"not an Octoplus game: {game!r}")
    return state


def _octoplus_event(
    rules: OctoplusRules, state: OctoplusState, table: OctoplusTable, rng: random.Random
) -> Event:
    if state.phase is Phase.REVEAL:
        first = state.reveal_seats[0]
        return Reveal(first, tuple(table.hands[first - 1]))
    seat = state.to_move
    if seat is None or state.phase is Phase.FINISHED:
        raise SimulationError(f"nobody to act in {state.describe()}")
    if state.phase is Phase.TURN_UP:
        if rules.start_special is StartSpecial.REDRAW and all(card.is_special for card in table.pile):
            raise SimulationError(f"only special cards are left to turn up ({state.describe()})")
        return TurnUp(table.pile[-1])
    if state.phase is Phase.GIVE:
        return Give(seat, rng.choice([s for s in range(1, state.players + 1) if s != seat]))
    assert state.base is not None
    cards = _choose_play(table.hands[seat - 1], state.base, state.chain, rng)
    if cards is None:
        return TakeChain(seat)
    return Play(seat, tuple(cards))


def _mirror_octoplus(
    rules: OctoplusRules,
    state: OctoplusState,
    table: OctoplusTable,
    event: Event,
    before: OctoplusState,
    rng: random.Random,
) -> None:
    """Moves the real cards as ``event`` did, then checks the counts against the engine's ``state``."""
    if isinstance(event, TurnUp):
        card = table.pile.pop()
        if state.draw_pile == before.draw_pile:  # put back and turned again
            table.pile.insert(rng.randrange(len(table.pile) + 1), card)
        else:
            table.discard.append(card)
    elif isinstance(event, Play):
        _remove(table.hands[event.seat - 1], event.cards)
        table.discard.extend(event.cards)
    elif isinstance(event, Give):
        hand = table.hands[event.seat - 1]
        table.hands[event.to - 1].append(hand.pop(rng.randrange(len(hand))))
    if isinstance(event, Play | TakeChain):
        seat = event.seat
        drawn = state.hand_sizes[seat - 1] - len(table.hands[seat - 1])
        if state.round_no == before.round_no and drawn > 0:
            _draw(table, seat, drawn, rules.reshuffle, rng)
    if state.round_no != before.round_no:
        fresh = deal_octoplus(rules, state.players, rng)
        table.hands, table.pile, table.discard = fresh.hands, fresh.pile, fresh.discard
    if state.finished:
        return
    sizes = tuple(len(hand) for hand in table.hands)
    if (sizes, len(table.pile), len(table.discard)) != (state.hand_sizes, state.draw_pile, state.discard):
        raise SimulationError(
            f"after event {event.seq} the table holds hands {sizes}, pile {len(table.pile)}, "
            f"discard {len(table.discard)} but the engine counts {state.hand_sizes}, "
            f"{state.draw_pile}, {state.discard}"
        )


def _simulate_octoplus(rules: OctoplusRules, game: Game, rng: random.Random, stop: int | None) -> Game:
    table = deal_octoplus(rules, len(game.players), rng)
    while not game.finished and game.seq != stop:
        if game.seq >= MAX_EVENTS:
            raise SimulationError(f"no end after {MAX_EVENTS} events")
        before = _octoplus_state(game)
        event = game.apply(_octoplus_event(rules, before, table, rng))
        _mirror_octoplus(rules, _octoplus_state(game), table, event, before, rng)
    return game


def deal_oktris(players: int, rng: random.Random) -> list[list[StdCard]]:
    """Eight cards of the shuffled 32 to each seat (the rest set aside)."""
    deck = list(oktris_deck())
    rng.shuffle(deck)
    return [deck[8 * i : 8 * i + 8] for i in range(players)]


def _simulate_oktris(game: Game, rng: random.Random, stop: int | None) -> Game:
    players = len(game.players)
    hands: list[list[StdCard]] = []
    while not game.finished and game.seq != stop:
        if game.seq >= MAX_EVENTS:
            raise SimulationError(f"no end after {MAX_EVENTS} events")
        state = game.state
        if not isinstance(state, OktrisState):
            raise SimulationError(f"not an Oktris game: {game!r}")
        if state.trick_no == 1:
            hands = deal_oktris(players, rng)
        cards = tuple(hand.pop(rng.randrange(len(hand))) for hand in hands)
        game.apply(Trick(cards))
    return game


def simulate(rules: Rules, players: int, rng: random.Random, *, max_events: int | None = None) -> Game:
    """A random legal game by ``rules`` for ``players`` seats, played to its end.

    With ``max_events`` the game stops (unfinished) once its log has that many events.

    Raises:
        IllegalPlayError: the engine does not take that many players.
        NotationError: ``rules`` is not a rules object of a known game.
        SimulationError: the simulator lost track of the engine (a bug), or a
            deck left only special cards to turn up with ``start_special=redraw``.
    """
    game = Game.new(rules, players)
    if isinstance(rules, OctoplusRules):
        return _simulate_octoplus(rules, game, rng, max_events)
    return _simulate_oktris(game, rng, max_events)
