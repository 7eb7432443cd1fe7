"""The end of an Octoplus round: reveals, round scoring, the game-end check, the next deal."""

from __future__ import annotations

from dataclasses import replace

from scorer.events import Reveal
from scorer.octoplus_rules import OctoplusRules
from scorer.octoplus_state import OctoplusState, Phase, illegal, next_seat
from scorer.sheet import ScoreCell

VOID_RULE = "void 8"
RESET_RULE = "88 reset"
RESET_TOTAL = 88


def reveal(rules: OctoplusRules, state: OctoplusState, event: Reveal) -> OctoplusState:
    """Records ``event.seat``'s revealed hand; scores the round once every holding seat revealed.

    Raises:
        IllegalPlayError: not the reveal phase, a seat with nothing to reveal or
            that already revealed, a card count other than the tracked hand size,
            or a card the deck does not have.
    """
    seat = event.seat
    if state.phase is not Phase.REVEAL:
        raise illegal(event, state, "hands are revealed only when the round is over")
    if not 1 <= seat <= state.players:
        raise illegal(event, state, f"there is no seat {seat} at a table of {state.players}")
    if seat not in state.reveal_seats:
        raise illegal(event, state, f"seat {seat} has nothing left to reveal")
    held = state.hand_sizes[seat - 1]
    if len(event.cards) != held:
        raise illegal(event, state, f"seat {seat} reveals {len(event.cards)} cards but holds {held}")
    for card in set(event.cards):
        have = rules.count(card)
        if have == 0:
            raise illegal(event, state, f"the deck has no {card.pretty} card")
        if event.cards.count(card) > have:
            raise illegal(event, state, f"the deck has only {have} {card.pretty} cards")
    revealed = list(state.revealed)
    revealed[seat - 1] = event.cards
    points = sum(rules.card_points(card) for card in event.cards)
    cards = ", ".join(card.pretty for card in event.cards)
    after = replace(state, revealed=tuple(revealed), last_play=f"seat {seat} reveals {cards} ({points})")
    if after.reveal_seats:
        return after
    return _score_round(rules, after)


def _score_round(rules: OctoplusRules, state: OctoplusState) -> OctoplusState:
    """Void check, add, 88 reset for every seat, then the end check."""
    row: list[ScoreCell] = []
    totals = list(state.totals)
    for index, cards in enumerate(state.revealed):
        points = sum(rules.card_points(card) for card in cards or ())
        rule: str | None = None
        if rules.void_eight and points % 10 == 8:
            points, rule = 0, VOID_RULE
        totals[index] += points
        if rules.reset_88 and totals[index] == RESET_TOTAL:
            totals[index] = 0
            rule = RESET_RULE if rule is None else f"{rule}, {RESET_RULE}"
        row.append(ScoreCell(points, rule))
    scored = replace(
        state,
        totals=tuple(totals),
        rounds=(*state.rounds, tuple(row)),
        last_play=f"{state.last_play}; round {state.round_no} scored",
    )
    return end_check(rules, scored, round_over=True)


def end_check(rules: OctoplusRules, state: OctoplusState, *, round_over: bool) -> OctoplusState:
    """Ends the game if a total reached ``end_total`` (or, after a round, ``max_rounds`` were played).

    After a round that does not end the game the next round is dealt.
    """
    over = any(total >= rules.end_total for total in state.totals)
    if round_over and state.round_no >= rules.max_rounds:
        over = True
    if over:
        winners = _winners(rules, state)
        names = ", ".join(f"seat {seat}" for seat in winners)
        verb = "wins" if len(winners) == 1 else "share the win"
        return replace(
            state,
            phase=Phase.FINISHED,
            to_move=None,
            awaiting_give=None,
            finished=True,
            winners=winners,
            last_play=f"{state.last_play}; game over, {names} {verb}",
        )
    if round_over:
        return _next_round(rules, state)
    return state


def _winners(rules: OctoplusRules, state: OctoplusState) -> tuple[int, ...]:
    lowest = min(state.totals)
    tied = [seat for seat in range(1, state.players + 1) if state.totals[seat - 1] == lowest]
    if rules.shared_win or len(tied) == 1 or not state.rounds:
        return tuple(tied)
    last = state.rounds[-1]
    best = min(last[seat - 1].points for seat in tied)
    return tuple(seat for seat in tied if last[seat - 1].points == best)


def _next_round(rules: OctoplusRules, state: OctoplusState) -> OctoplusState:
    dealer = next_seat(state, state.dealer)
    round_no = state.round_no + 1
    return replace(
        state,
        phase=Phase.TURN_UP,
        round_no=round_no,
        dealer=dealer,
        to_move=dealer,
        base=None,
        chain=0,
        hand_sizes=(rules.hand_size,) * state.players,
        draw_pile=rules.deck_size - rules.hand_size * state.players,
        discard=0,
        top=None,
        awaiting_give=None,
        last_draw=None,
        went_out=None,
        revealed=(None,) * state.players,
        last_play=f"{state.last_play}; round {round_no}: seat {dealer} deals",
    )
