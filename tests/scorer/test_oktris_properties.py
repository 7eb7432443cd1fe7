"""Properties of the Oktris engine over random trick outcomes and random legal games."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.cards import StdCard, oktris_deck
from scorer.events import Adjust, Trick
from scorer.oktris import (
    TRICKS_PER_DEAL,
    ColourRule,
    EndCheck,
    Mode,
    OktrisRules,
    SuitOrder,
    Tie,
    initial,
    run_points,
    step,
    strength,
)

MAX_TRICKS = 2_000
"""Far more tricks than any game to 88 needs; reaching it means the game never ends."""

rules_strategy = st.builds(
    OktrisRules,
    suit_order=st.sampled_from(SuitOrder),
    colour_rule=st.sampled_from(ColourRule),
    end_check=st.sampled_from(EndCheck),
    target=st.sampled_from([88, 30, 1]),
    tie=st.sampled_from(Tie),
)


def squares_of_runs(winners: Sequence[int | None], seat: int) -> int:
    """The run rule computed independently: sum of n² over the seat's maximal runs."""
    return sum(len(list(group)) ** 2 for winner, group in itertools.groupby(winners) if winner == seat)


@given(st.lists(st.sampled_from([1, 2, 3, 4, None]), max_size=TRICKS_PER_DEAL), st.integers(1, 4))
def test_run_points_is_the_sum_of_squares_of_maximal_runs(winners: list[int | None], seat: int) -> None:
    assert run_points(winners, seat) == squares_of_runs(winners, seat)


@given(
    st.integers(2, 4), st.permutations(oktris_deck()), st.sampled_from(SuitOrder), st.sampled_from(ColourRule)
)
def test_a_deal_scores_each_seats_runs_squared_through_real_tricks(
    players: int, deck: list[StdCard], suit_order: SuitOrder, colour_rule: ColourRule
) -> None:
    rules = OktrisRules(suit_order=suit_order, colour_rule=colour_rule, target=10_000)
    state = initial(rules, players)
    for number in range(TRICKS_PER_DEAL):
        cards = tuple(deck[number * players : (number + 1) * players])
        mode = state.mode
        state = step(rules, state, Trick(cards))
        if number == TRICKS_PER_DEAL - 1:
            break
        strengths = [strength(card, suit_order) for card in cards]
        best = max(strengths) if mode is Mode.HIGH else min(strengths)
        assert strengths[state.winners_this_deal[-1] - 1] == best
        assert state.deal_points == tuple(
            squares_of_runs(state.winners_this_deal, seat) for seat in range(1, players + 1)
        )
        assert state.totals == state.deal_points
    assert state.deal_no == 2
    row = [cell.points for cell in state.rounds[0]]
    assert sum(row) >= TRICKS_PER_DEAL
    assert list(state.totals) == row


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), rules_strategy, st.randoms(use_true_random=False), st.booleans())
def test_random_legal_games_always_end(
    players: int, rules: OktrisRules, rng: random.Random, adjust: bool
) -> None:
    state = initial(rules, players)
    deck = list(oktris_deck())
    for _ in range(MAX_TRICKS):
        if state.trick_no == 1:
            rng.shuffle(deck)
            if adjust:
                state = step(rules, state, Adjust(rng.randint(1, players), rng.randint(-5, 5), "random"))
                if state.finished:
                    break
        start = (state.trick_no - 1) * players
        state = step(rules, state, Trick(tuple(deck[start : start + players])))
        if state.finished:
            break
    assert state.finished
    assert state.winners
    top = max(state.totals)
    assert top >= rules.target
    assert all(state.totals[seat - 1] == top for seat in state.winners)
    adjusted = [sum(a.points for a in state.adjustments if a.seat == seat) for seat in range(1, players + 1)]
    dealt = [sum(row[seat - 1].points for row in state.rounds) for seat in range(1, players + 1)]
    assert list(state.totals) == [a + d for a, d in zip(adjusted, dealt, strict=True)]
