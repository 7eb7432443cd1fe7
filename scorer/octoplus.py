"""The Octoplus rules engine: pure functions over a frozen state (``RULES.md``).

``initial(rules, players)`` deals round 1, ``step(rules, state, event)`` returns
the state after one event and ``allowed(rules, state)`` says what may happen
next.  The camera cannot see hands, so the state tracks hand *sizes*, the draw
pile and the discard pile as counts; ``sum(hand_sizes) + draw_pile + discard``
is always the deck size.  Seats are 1-based, play goes clockwise (seat N is
followed by seat N + 1, the last seat by seat 1), seat 1 deals round 1.

Undo is not handled here: the game facade replays its log without the undone
events.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scorer.cards import OctoCard, OctoKind
from scorer.errors import IllegalPlayError, OutOfTurnError
from scorer.events import Adjust, Event, Give, Play, Reveal, TakeChain, TurnUp
from scorer.octoplus_round import end_check, reveal
from scorer.octoplus_rules import ChainWithoutNumber, OctoplusRules, StartSpecial
from scorer.octoplus_state import MAX_PLAYERS, MIN_PLAYERS, OctoplusState, Phase, illegal, next_seat
from scorer.sheet import Adjustment

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "ChainWithoutNumber",
    "OctoplusAllowed",
    "OctoplusRules",
    "OctoplusState",
    "Phase",
    "StartSpecial",
    "allowed",
    "initial",
    "step",
]


@dataclass(frozen=True)
class OctoplusAllowed:
    """What may happen next, for the page's keypad and the watcher.

    ``seat`` is the seat to act (``None`` in the reveal phase, where any seat of
    ``reveal_seats`` may reveal, and when finished).  ``turn_up``: a ``TurnUp``
    is expected.  ``numbers``/``minus2``/``plus2``/``pass_``: which cards a
    ``Play`` may contain (``numbers`` lists the number faces of the deck);
    ``take_chain``: ``TakeChain`` is allowed; ``give_to``: the recipients of a
    ``Give``; ``max_cards``: the most cards a ``Play`` may have (the hand size);
    ``adjust``: ``Adjust`` is allowed (any time before the game ends).
    """

    phase: Phase
    seat: int | None
    turn_up: bool
    numbers: tuple[int, ...]
    minus2: bool
    plus2: bool
    pass_: bool
    take_chain: bool
    give_to: tuple[int, ...]
    reveal_seats: tuple[int, ...]
    max_cards: int
    adjust: bool


def _deal(rules: OctoplusRules, players: int) -> tuple[tuple[int, ...], int]:
    return (rules.hand_size,) * players, rules.deck_size - rules.hand_size * players


def initial(rules: OctoplusRules, players: int) -> OctoplusState:
    """Round 1 dealt, seat 1 to turn up the first base.

    Raises:
        IllegalPlayError: ``players`` is not 2..8, or the deck cannot deal that
            many hands and still turn up a base.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalPlayError(f"Octoplus is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}")
    if rules.hand_size * players >= rules.deck_size:
        raise IllegalPlayError(
            f"a deck of {rules.deck_size} cards cannot deal {players} hands of {rules.hand_size} "
            "and turn up a base"
        )
    hands, pile = _deal(rules, players)
    return OctoplusState(
        players=players,
        phase=Phase.TURN_UP,
        round_no=1,
        dealer=1,
        to_move=1,
        base=None,
        chain=0,
        hand_sizes=hands,
        draw_pile=pile,
        discard=0,
        top=None,
        awaiting_give=None,
        last_draw=None,
        went_out=None,
        revealed=(None,) * players,
        totals=(0,) * players,
        rounds=(),
        adjustments=(),
        finished=False,
        winners=(),
        last_play="round 1: seat 1 deals",
    )


def step(rules: OctoplusRules, state: OctoplusState, event: Event) -> OctoplusState:
    """The state after ``event``; ``state`` is never changed.

    Raises:
        OutOfTurnError: a seat acts whose turn it is not.
        IllegalPlayError: anything else the rules forbid: an event of the other
            game or an ``Undone``, an event after the game finished, a card the
            deck does not have, more cards than the hand holds, a Pass or ``-2``
            on a ``+2`` chain, a give without an exact 8, a reveal whose count
            differs from the tracked hand size, ...  Messages name the event and
            the state.
    """
    if state.finished:
        raise illegal(event, state, "the game is over")
    if isinstance(event, Adjust):
        return _adjust(rules, state, event)
    if isinstance(event, TurnUp):
        return _turn_up(rules, state, event)
    if isinstance(event, Reveal):
        return reveal(rules, state, event)
    if not isinstance(event, Play | Give | TakeChain):
        raise illegal(event, state, f"{type(event).__name__} is not an Octoplus event")
    _check_seat(state, event, event.seat)
    if state.phase is Phase.GIVE:
        if not isinstance(event, Give):
            raise illegal(event, state, f"seat {event.seat} must first give a card for making 8")
        return _give(state, event)
    if state.phase is not Phase.PLAY:
        raise illegal(event, state, f"no {type(event).__name__} now")
    if isinstance(event, Give):
        raise illegal(event, state, f"seat {event.seat} cannot give a card without making exactly 8")
    if isinstance(event, TakeChain):
        return _take_chain(rules, state, event)
    return _play(rules, state, event)


def _check_seat(state: OctoplusState, event: Event, seat: int) -> None:
    if not 1 <= seat <= state.players:
        raise illegal(event, state, f"there is no seat {seat} at a table of {state.players}")
    if state.phase in (Phase.PLAY, Phase.GIVE) and seat != state.to_move:
        raise illegal(event, state, f"it is seat {state.to_move}'s turn, not seat {seat}'s", OutOfTurnError)


def _check_cards(
    rules: OctoplusRules, state: OctoplusState, event: Event, cards: tuple[OctoCard, ...]
) -> None:
    for card in set(cards):
        have = rules.count(card)
        if have == 0:
            raise illegal(event, state, f"the deck has no {card.pretty} card")
        if cards.count(card) > have:
            raise illegal(event, state, f"the deck has only {have} {card.pretty} cards")


def _draw(rules: OctoplusRules, state: OctoplusState, seat: int, wanted: int) -> tuple[OctoplusState, str]:
    """Seat ``seat`` draws ``wanted`` cards, reshuffling the discard pile if allowed."""
    pile, discard, got = state.draw_pile, state.discard, min(wanted, state.draw_pile)
    pile -= got
    reshuffled = False
    if got < wanted and rules.reshuffle and discard > 1:
        pile, discard, reshuffled = discard - 1, 1, True
        more = min(wanted - got, pile)
        pile -= more
        got += more
    hands = list(state.hand_sizes)
    hands[seat - 1] += got
    words = f"draws {got}"
    if reshuffled:
        words += " (discard pile reshuffled)"
    if got < wanted:
        words += f" (owed {wanted}, pile empty)"
    new = replace(state, hand_sizes=tuple(hands), draw_pile=pile, discard=discard, last_draw=(seat, got))
    return new, words


def _turn_up(rules: OctoplusRules, state: OctoplusState, event: TurnUp) -> OctoplusState:
    if state.phase in (Phase.PLAY, Phase.GIVE):
        raise illegal(event, state, "the base is already turned up")
    if state.phase is not Phase.TURN_UP:
        raise illegal(event, state, "no base is turned up before the next deal")
    _check_cards(rules, state, event, (event.card,))
    if state.draw_pile < 1:
        raise illegal(event, state, "the draw pile is empty")
    dealer, card = state.dealer, event.card
    if card.is_special and rules.start_special is StartSpecial.REDRAW:
        return replace(state, last_play=f"seat {dealer} turns up {card.pretty}, puts it back and turns again")
    turned = replace(
        state, phase=Phase.PLAY, draw_pile=state.draw_pile - 1, discard=1, top=card, last_draw=None
    )
    if card.kind is OctoKind.PLUS2:
        return replace(turned, base=0, chain=1, last_play=f"seat {dealer} turns up +2 (chain 1, base 2)")
    base = 0 if card.kind is OctoKind.PASS else card.value
    return replace(turned, base=base, chain=0, last_play=f"seat {dealer} turns up {card.pretty}")


def _take_chain(rules: OctoplusRules, state: OctoplusState, event: TakeChain) -> OctoplusState:
    if not state.chain:
        raise illegal(event, state, f"seat {event.seat} faces no +2 chain to take")
    assert state.base is not None
    if rules.chain_without_number is ChainWithoutNumber.DRAW_CHAIN:
        owed = 2 * state.chain
    else:
        owed = max(0, state.base + 2 * state.chain - 8)
    drawn, words = _draw(rules, state, event.seat, owed)
    return replace(
        drawn,
        chain=0,
        to_move=next_seat(state, event.seat),
        last_draw=drawn.last_draw if owed else None,
        last_play=f"seat {event.seat} takes the chain, {words}",
    )


def _play(rules: OctoplusRules, state: OctoplusState, event: Play) -> OctoplusState:
    seat, cards = event.seat, event.cards
    if not cards:
        raise illegal(event, state, f"seat {seat} plays no card")
    _check_cards(rules, state, event, cards)
    held = state.hand_sizes[seat - 1]
    if len(cards) > held:
        raise illegal(event, state, f"seat {seat} plays {len(cards)} cards but holds {held}")
    kinds = {card.kind for card in cards}
    for special, name in ((OctoKind.PLUS2, "+2"), (OctoKind.PASS, "Pass")):
        if special in kinds and len(cards) > 1:
            raise illegal(event, state, f"seat {seat} cannot play {name} with other cards")
    if state.chain and kinds & {OctoKind.PASS, OctoKind.MINUS2}:
        bad = "Pass" if OctoKind.PASS in kinds else "-2"
        raise illegal(
            event, state, f"seat {seat} cannot play {bad} on a +2 chain (base {state.effective_base})"
        )
    assert state.base is not None
    hands = list(state.hand_sizes)
    hands[seat - 1] -= len(cards)
    played = replace(
        state,
        hand_sizes=tuple(hands),
        discard=state.discard + len(cards),
        top=cards[-1],
        last_draw=None,
        to_move=next_seat(state, seat),
    )
    if OctoKind.PASS in kinds:
        return _after_turn(replace(played, last_play=f"seat {seat}: Pass"), seat)
    if OctoKind.PLUS2 in kinds:
        chained = replace(played, chain=state.chain + 1)
        words = f"seat {seat}: +2 (chain {chained.chain}, base {chained.effective_base})"
        return _after_turn(replace(chained, last_play=words), seat)
    start = state.base + 2 * state.chain
    total = start + sum(card.value for card in cards)
    sums = str(start) + "".join(f" - {-c.value}" if c.value < 0 else f" + {c.value}" for c in cards)
    words = f"seat {seat}: {sums} = {total}"
    played = replace(played, base=cards[-1].value, chain=0)
    if total > 8:
        played, drew = _draw(rules, played, seat, total - 8)
        words += f", {drew}"
    elif total == 8 and hands[seat - 1] > 0:
        words += ", gives a card"
        played = replace(played, phase=Phase.GIVE, awaiting_give=seat, to_move=seat)
    return _after_turn(replace(played, last_play=words), seat)


def _give(state: OctoplusState, event: Give) -> OctoplusState:
    if not 1 <= event.to <= state.players or event.to == event.seat:
        raise illegal(
            event, state, f"seat {event.seat} must give to another seat of the table, not {event.to}"
        )
    hands = list(state.hand_sizes)
    hands[event.seat - 1] -= 1
    hands[event.to - 1] += 1
    given = replace(
        state,
        phase=Phase.PLAY,
        hand_sizes=tuple(hands),
        awaiting_give=None,
        to_move=next_seat(state, event.seat),
        last_play=f"seat {event.seat} gives a card to seat {event.to}",
    )
    return _after_turn(given, event.seat)


def _after_turn(state: OctoplusState, seat: int) -> OctoplusState:
    """Ends the round if ``seat``'s hand is empty once its turn is resolved."""
    if state.phase is Phase.GIVE or state.hand_sizes[seat - 1] > 0:
        return state
    revealed = tuple(() if n == 0 else None for n in state.hand_sizes)
    return replace(
        state,
        phase=Phase.REVEAL,
        to_move=None,
        went_out=seat,
        revealed=revealed,
        last_play=f"{state.last_play}; seat {seat} is out, round {state.round_no} over",
    )


def _adjust(rules: OctoplusRules, state: OctoplusState, event: Adjust) -> OctoplusState:
    if not 1 <= event.seat <= state.players:
        raise illegal(event, state, f"there is no seat {event.seat} at a table of {state.players}")
    totals = list(state.totals)
    totals[event.seat - 1] += event.points
    adjusted = replace(
        state,
        totals=tuple(totals),
        adjustments=(*state.adjustments, Adjustment(event.seq, event.seat, event.points, event.reason)),
        last_play=f"seat {event.seat}: {event.points:+d} ({event.reason})",
    )
    return end_check(rules, adjusted, round_over=False)


def allowed(rules: OctoplusRules, state: OctoplusState) -> OctoplusAllowed:
    """What may happen next in ``state`` (see :class:`OctoplusAllowed`)."""
    phase = state.phase
    playing = phase is Phase.PLAY
    seat = state.to_move if phase in (Phase.TURN_UP, Phase.PLAY, Phase.GIVE) else None
    faces = {card.kind for card, count in rules.deck if count > 0}
    give_to: tuple[int, ...] = ()
    if phase is Phase.GIVE:
        give_to = tuple(s for s in range(1, state.players + 1) if s != seat)
    return OctoplusAllowed(
        phase=phase,
        seat=seat,
        turn_up=phase is Phase.TURN_UP,
        numbers=rules.number_faces if playing else (),
        minus2=playing and not state.chain and OctoKind.MINUS2 in faces,
        plus2=playing and OctoKind.PLUS2 in faces,
        pass_=playing and not state.chain and OctoKind.PASS in faces,
        take_chain=playing and state.chain > 0,
        give_to=give_to,
        reveal_seats=state.reveal_seats,
        max_cards=state.hand_sizes[seat - 1] if playing and seat is not None else 0,
        adjust=not state.finished,
    )
