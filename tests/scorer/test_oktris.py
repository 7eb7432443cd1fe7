"""The Oktris rules engine: the worked examples of RULES.md, house rules, illegal events."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest

from scorer.cards import OctoCard, StdCard, oktris_deck
from scorer.errors import IllegalPlayError, NotationError
from scorer.events import Adjust, Event, Play, Trick, Undone
from scorer.oktris import (
    ColourRule,
    EndCheck,
    Mode,
    OktrisRules,
    OktrisState,
    Run,
    SuitOrder,
    Tie,
    allowed,
    initial,
    run_points,
    runs,
    step,
    strength,
    trick_winner,
)
from scorer.sheet import Adjustment, ScoreCell

DEFAULT = OktrisRules()


def cards(text: str) -> tuple[StdCard, ...]:
    """``"5H 7S"`` as cards."""
    return tuple(StdCard.parse(word) for word in text.split())


def trick(text: str) -> Trick:
    """A trick event from its cards, seat 1 first."""
    return Trick(cards(text))


def play(rules: OktrisRules, state: OktrisState, events: Iterable[Event]) -> OktrisState:
    """The state after each of ``events`` in turn."""
    for event in events:
        state = step(rules, state, event)
    return state


def two_player_deal(winners: Sequence[int]) -> list[Trick]:
    """High tricks for two seats (always mixed colours) won by ``winners[i]``.

    Seat 1 plays red cards, seat 2 black ones; the winner takes a card of rank 5-8,
    the loser one of rank A-4, so the winner is stronger in every suit order.
    """
    red_high = list(cards("8H 8D 7H 7D 6H 6D 5H 5D"))
    red_low = list(cards("AH AD 2H 2D 3H 3D 4H 4D"))
    black_high = list(cards("8C 8S 7C 7S 6C 6S 5C 5S"))
    black_low = list(cards("AC AS 2C 2S 3C 3S 4C 4S"))
    tricks = []
    for winner in winners:
        if winner == 1:
            tricks.append(Trick((red_high.pop(0), black_low.pop(0))))
        else:
            tricks.append(Trick((red_low.pop(0), black_high.pop(0))))
    return tricks


def four_player_deal(winners: Sequence[int]) -> list[Trick]:
    """High tricks for four seats (always mixed colours) won by ``winners[i]``.

    The winner takes a 7 or an 8, the others cards of rank A-6 taken in
    spades-hearts-diamonds-clubs order, so every trick holds both colours.
    """
    high = list(cards("8C 8S 8H 8D 7C 7S 7H 7D"))
    low = [card for card in oktris_deck() if card.rank <= 6]
    tricks = []
    for winner in winners:
        seat_cards = [low.pop(0) for _ in range(3)]
        seat_cards.insert(winner - 1, high.pop(0))
        tricks.append(Trick(tuple(seat_cards)))
    return tricks


def seat1_wins(tricks_won: Sequence[int]) -> list[int]:
    """Winners of a two-seat deal where seat 1 wins the tricks numbered ``tricks_won``."""
    return [1 if number in tricks_won else 2 for number in range(1, 9)]


# --- Worked examples of RULES.md ------------------------------------------------


def test_example_1_strength_runs_from_ace_of_diamonds_to_eight_of_clubs() -> None:
    order = "8C 8S 8H 8D 7C 7S 7H 7D 6C 6S 6H 6D 5C 5S 5H 5D 4C 4S 4H 4D 3C 3S 3H 3D 2C 2S 2H 2D AC AS AH AD"
    assert [strength(card) for card in cards(order)] == list(range(32, 0, -1))
    assert strength(StdCard.parse("8C")) == 32
    assert strength(StdCard.parse("AD")) == 1


def test_example_2_high_trick_won_by_strongest_and_mixed_colours_keep_high() -> None:
    state = step(DEFAULT, initial(DEFAULT, 4), trick("5H 7S 7D 2C"))
    assert state.winners_this_deal == (2,)
    assert state.last_trick is not None
    assert state.last_trick.winning_card == StdCard.parse("7S")
    assert state.last_trick.mode is Mode.HIGH
    assert state.mode is Mode.HIGH
    assert state.last_play == "seat 2 wins trick 1 with 7S (high); colours mixed -> next trick high"


def test_example_3_all_red_trick_makes_next_trick_low() -> None:
    state = step(DEFAULT, initial(DEFAULT, 4), trick("3H 6D 8H AD"))
    assert state.winners_this_deal == (3,)
    assert state.mode is Mode.LOW
    assert state.last_play == "seat 3 wins trick 1 with 8H (high); all red -> next trick low"


def test_example_4_low_trick_won_by_weakest_card() -> None:
    state = play(DEFAULT, initial(DEFAULT, 4), [trick("4H 6D 8H 5D"), trick("AD AH 2C 3D")])
    assert state.winners_this_deal == (3, 1)
    assert state.last_trick is not None
    assert state.last_trick.mode is Mode.LOW
    assert state.last_trick.winning_card == StdCard.parse("AD")
    assert trick_winner(DEFAULT, cards("AD AH 2C 3D"), Mode.LOW) == 1


def test_example_5_two_players_both_red_high_then_low() -> None:
    state = step(DEFAULT, initial(DEFAULT, 2), trick("4H 6D"))
    assert state.winners_this_deal == (2,)
    assert state.mode is Mode.LOW


@pytest.mark.parametrize(
    ("tricks_won", "points", "rule"),
    [
        ((3, 4, 5), 9, "run 3×3"),
        ((1, 3, 6), 3, None),
        ((2, 3, 6), 5, "run 2×2"),
        ((1, 2, 4, 5, 6, 8), 14, "runs 2×2 + 3×3"),
        ((1, 2, 3, 4, 5, 6, 7, 8), 64, "run 8×8"),
    ],
)
def test_example_6_a_run_of_n_tricks_scores_n_squared(
    tricks_won: tuple[int, ...], points: int, rule: str | None
) -> None:
    winners = seat1_wins(tricks_won)
    assert run_points(winners, 1) == points
    state = play(DEFAULT, initial(DEFAULT, 2), two_player_deal(winners))
    assert state.rounds[0][0] == ScoreCell(points, rule)
    assert state.totals[0] == points


def test_example_6_run_points_ignores_unknown_and_other_seats() -> None:
    assert run_points([None, None, 1, 1, 1, None, 2, None], 1) == 9
    assert runs([1, 1, None, 1, 2, 1, 1, 1], 1) == (2, 1, 3)
    assert run_points([], 1) == 0


def test_example_7_a_deal_scores_every_seats_runs() -> None:
    winners = [1, 1, 2, 2, 2, 3, 4, 4]
    state = play(DEFAULT, initial(DEFAULT, 4), four_player_deal(winners))
    assert [cell.points for cell in state.rounds[0]] == [4, 9, 1, 4]
    assert [cell.rule for cell in state.rounds[0]] == ["run 2×2", "run 3×3", None, "run 2×2"]
    assert state.totals == (4, 9, 1, 4)
    assert state.deal_no == 2
    assert state.deal_points == (0, 0, 0, 0)


def test_example_7_running_deal_points_count_the_current_run_squared() -> None:
    tricks = four_player_deal([1, 1, 2, 2, 2, 3, 4, 4])
    state = play(DEFAULT, initial(DEFAULT, 4), tricks[:4])
    assert state.deal_points == (4, 4, 0, 0)
    assert state.current_run == Run(2, 2)
    state = step(DEFAULT, state, tricks[4])
    assert state.deal_points == (4, 9, 0, 0)
    assert state.current_run == Run(2, 3)
    assert state.totals == (4, 9, 0, 0)


def example_8(rules: OktrisRules) -> list[OktrisState]:
    """Seat 1 stands at 84 after trick 4 (75 adjusted + a finished run of 3), then wins 5 and 6."""
    state = step(rules, initial(rules, 2), Adjust(1, 75, "carried over", seq=1))
    states = []
    for event in two_player_deal([1, 1, 1, 2, 1, 1, 2, 2]):
        state = step(rules, state, event)
        states.append(state)
        if state.finished:
            break
    return states


def test_example_8_reaching_88_mid_deal_ends_the_game_at_once() -> None:
    states = example_8(DEFAULT)
    assert states[3].totals[0] == 84
    assert not states[4].finished
    assert states[4].totals[0] == 85
    final = states[5]
    assert final.finished
    assert final.winners == (1,)
    assert final.totals == (88, 1)
    assert final.rounds == ((ScoreCell(13, "runs 3×3 + 2×2"), ScoreCell(1, None)),)
    assert final.last_play.endswith("game over: seat 1 wins with 88")
    assert len(states) == 6
    with pytest.raises(IllegalPlayError, match="trick AD 8S after the end of the game"):
        step(DEFAULT, final, two_player_deal([1, 1, 1, 2, 1, 1, 2])[6])


def test_example_9_a_new_deal_always_starts_with_a_high_trick() -> None:
    deal = "8C 2H, 8S 2D, 7C 3H, 7S 3D, 6C 5H, 6S 5D, 5C AH, 4H 6D"
    state = play(DEFAULT, initial(DEFAULT, 2), [trick(t) for t in deal.split(", ")])
    assert state.rounds[0] == (ScoreCell(49, "run 7×7"), ScoreCell(1, None))
    assert state.deal_no == 2
    assert state.trick_no == 1
    assert state.mode is Mode.HIGH
    assert state.last_play.endswith("deal 1 over -> next deal starts high")
    state = step(DEFAULT, state, trick("2C 3S"))
    assert state.last_trick is not None
    assert state.last_trick.mode is Mode.HIGH
    assert state.winners_this_deal == (2,)


def test_example_10_a_card_seen_twice_in_one_deal_is_illegal() -> None:
    state = play(DEFAULT, initial(DEFAULT, 4), [trick("5H 7S 7D 2C"), trick("3H 6D 8H AD")])
    with pytest.raises(IllegalPlayError) as error:
        step(DEFAULT, state, trick("8H 2S 3C 4D"))
    assert "8H was already played in trick 2 of this deal" in str(error.value)
    assert "deal 1, trick 3" in str(error.value)
    with pytest.raises(IllegalPlayError, match="2S is shown by both seat 1 and seat 3"):
        step(DEFAULT, state, trick("2S 4C 2S 4D"))


def test_cards_may_return_in_the_next_deal() -> None:
    state = play(DEFAULT, initial(DEFAULT, 2), two_player_deal(seat1_wins((1,))))
    state = step(DEFAULT, state, trick("8H AC"))
    assert state.deal_no == 2
    assert state.seen == frozenset(cards("8H AC"))


# --- House rules ----------------------------------------------------------------


def test_suit_order_serbian_ranks_hearts_over_diamonds() -> None:
    assert trick_winner(DEFAULT, cards("8D 8H"), Mode.HIGH) == 2
    assert trick_winner(DEFAULT, cards("8S 8C"), Mode.HIGH) == 2


def test_suit_order_octrix_ranks_diamonds_over_hearts() -> None:
    rules = OktrisRules(suit_order=SuitOrder.OCTRIX)
    assert [strength(card, SuitOrder.OCTRIX) for card in cards("AH AD AS AC 8C")] == [1, 2, 3, 4, 32]
    state = step(rules, initial(rules, 2), trick("8D 8H"))
    assert state.winners_this_deal == (1,)


def test_suit_order_bridge_ranks_spades_highest_and_clubs_lowest() -> None:
    rules = OktrisRules(suit_order=SuitOrder.BRIDGE)
    assert [strength(card, SuitOrder.BRIDGE) for card in cards("AC AD AH AS 8S")] == [1, 2, 3, 4, 32]
    state = step(rules, initial(rules, 2), trick("8S 8C"))
    assert state.winners_this_deal == (1,)


def test_colour_rule_all_same_mixed_trick_keeps_high_and_one_colour_goes_low() -> None:
    assert step(DEFAULT, initial(DEFAULT, 3), trick("8C 2H 5S")).mode is Mode.HIGH
    assert step(DEFAULT, initial(DEFAULT, 2), trick("8H 2D")).mode is Mode.LOW


def test_colour_rule_high_low_compares_strongest_and_weakest_card() -> None:
    rules = OktrisRules(colour_rule=ColourRule.HIGH_LOW)
    differ = step(rules, initial(rules, 3), trick("8C 2H 5S"))
    assert differ.mode is Mode.LOW
    assert differ.last_play.endswith("highest 8C and lowest 2H differ in colour -> next trick low")
    assert step(rules, initial(rules, 2), trick("8H 2D")).mode is Mode.HIGH
    assert step(rules, initial(rules, 3), trick("8C 2S 5H")).mode is Mode.HIGH


def test_end_check_end_of_deal_plays_the_deal_out_before_the_game_ends() -> None:
    rules = OktrisRules(end_check=EndCheck.END_OF_DEAL)
    states = example_8(rules)
    assert not states[5].finished
    assert states[5].totals == (88, 1)
    assert not states[6].finished
    final = states[7]
    assert final.finished
    assert final.winners == (1,)
    assert final.totals == (88, 5)
    assert final.rounds == ((ScoreCell(13, "runs 3×3 + 2×2"), ScoreCell(5, "run 2×2")),)


def test_target_sets_the_points_that_end_the_game() -> None:
    rules = OktrisRules(target=4)
    tricks = two_player_deal([1, 1])
    state = step(rules, initial(rules, 2), tricks[0])
    assert not state.finished
    state = step(rules, state, tricks[1])
    assert state.finished
    assert state.winners == (1,)
    assert not step(DEFAULT, step(DEFAULT, initial(DEFAULT, 2), tricks[0]), tricks[1]).finished


def tied_deal() -> list[Trick]:
    """Seat 1 wins tricks 1-4, seat 2 tricks 5-8: 16 points each."""
    return two_player_deal([1, 1, 1, 1, 2, 2, 2, 2])


def test_tie_extra_deal_plays_one_more_deal() -> None:
    rules = OktrisRules(end_check=EndCheck.END_OF_DEAL, target=16)
    state = play(rules, initial(rules, 2), tied_deal())
    assert not state.finished
    assert state.tiebreak
    assert state.deal_no == 2
    assert state.totals == (16, 16)
    assert "seat 1 and seat 2 tied at 16 -> one more deal" in state.last_play
    state = play(rules, state, two_player_deal([2, 1, 1, 1, 1, 1, 1, 1]))
    assert state.finished
    assert state.winners == (1,)
    assert state.totals == (65, 17)
    assert len(state.rounds) == 2


def test_tie_extra_deal_repeats_while_the_top_is_still_shared() -> None:
    rules = OktrisRules(end_check=EndCheck.END_OF_DEAL, target=16)
    state = play(rules, initial(rules, 2), tied_deal() + tied_deal())
    assert not state.finished
    assert state.tiebreak
    assert state.deal_no == 3
    assert "still tied at 32" in state.last_play
    state = play(rules, state, two_player_deal([2] * 8))
    assert state.finished
    assert state.winners == (2,)


def test_tie_shared_makes_the_tied_seats_win_together() -> None:
    rules = OktrisRules(end_check=EndCheck.END_OF_DEAL, target=16, tie=Tie.SHARED)
    state = play(rules, initial(rules, 2), tied_deal())
    assert state.finished
    assert state.winners == (1, 2)
    assert state.last_play.endswith("game over: seat 1 and seat 2 share the win with 16")


def test_several_over_the_target_the_higher_total_wins() -> None:
    rules = OktrisRules(end_check=EndCheck.END_OF_DEAL, target=9)
    state = play(rules, initial(rules, 2), two_player_deal([1, 1, 1, 1, 1, 2, 2, 2]))
    assert state.finished
    assert state.totals == (25, 9)
    assert state.winners == (1,)


# --- Options --------------------------------------------------------------------


def test_options_name_every_house_rule_with_defaults_as_rules_md() -> None:
    assert DEFAULT.options() == {
        "suit_order": "serbian",
        "colour_rule": "all_same",
        "end_check": "immediate",
        "target": "88",
        "tie": "extra_deal",
    }
    assert OktrisRules.from_options({}) == DEFAULT


def test_options_round_trip_for_non_default_rules() -> None:
    rules = OktrisRules(SuitOrder.BRIDGE, ColourRule.HIGH_LOW, EndCheck.END_OF_DEAL, 120, Tie.SHARED)
    assert rules.options()["target"] == "120"
    assert OktrisRules.from_options(rules.options()) == rules


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"suit_order": "french"}, "suit_order='french'"),
        ({"colour_rule": "none"}, "colour_rule='none'"),
        ({"end_check": "never"}, "end_check='never'"),
        ({"tie": "coin"}, "tie='coin'"),
        ({"target": "lots"}, "target='lots'"),
        ({"target": "0"}, "target=0"),
        ({"trumps": "clubs"}, "'trumps' (value 'clubs')"),
    ],
)
def test_options_with_a_bad_name_or_value_raise_notation_error(options: dict[str, str], named: str) -> None:
    with pytest.raises(NotationError) as error:
        OktrisRules.from_options(options)
    assert named in str(error.value)


# --- Adjustments ------------------------------------------------------------------


def test_adjust_adds_to_the_total_and_is_recorded() -> None:
    state = play(DEFAULT, initial(DEFAULT, 3), [trick("5H 7S 7D"), Adjust(3, -2, "misdeal", seq=7)])
    assert state.totals == (0, 1, -2)
    assert state.deal_points == (0, 1, 0)
    assert state.adjustments == (Adjustment(7, 3, -2, "misdeal"),)
    assert state.last_play == "seat 3: -2 points adjusted (misdeal)"


def test_adjust_reaching_the_target_ends_the_game_at_once_when_immediate() -> None:
    state = step(DEFAULT, initial(DEFAULT, 2), Adjust(2, 88, "house", seq=1))
    assert state.finished
    assert state.winners == (2,)


def test_adjust_mid_deal_waits_for_the_deal_end_when_end_of_deal() -> None:
    rules = OktrisRules(end_check=EndCheck.END_OF_DEAL)
    tricks = two_player_deal([2] * 8)
    state = play(rules, initial(rules, 2), [tricks[0], Adjust(1, 90, "house", seq=2)])
    assert not state.finished
    state = play(rules, state, tricks[1:])
    assert state.finished
    assert state.winners == (1,)
    between = step(rules, initial(rules, 2), Adjust(1, 90, "house", seq=1))
    assert between.finished


def test_adjust_for_a_seat_that_does_not_play_is_illegal() -> None:
    with pytest.raises(IllegalPlayError, match="seat 5: no such seat"):
        step(DEFAULT, initial(DEFAULT, 4), Adjust(5, 3, "typo"))


# --- Illegal events ------------------------------------------------------------------


@pytest.mark.parametrize("players", [0, 1, 5])
def test_initial_rejects_a_bad_player_count(players: int) -> None:
    with pytest.raises(IllegalPlayError, match=f"2-4 players, not {players}"):
        initial(DEFAULT, players)


def test_trick_needs_exactly_one_card_per_seat() -> None:
    with pytest.raises(IllegalPlayError) as error:
        step(DEFAULT, initial(DEFAULT, 3), trick("5H 7S"))
    assert str(error.value) == "trick 5H 7S has 2 cards but 3 seats play (deal 1, trick 1 (high))"


def test_trick_rejects_cards_above_eight() -> None:
    with pytest.raises(IllegalPlayError, match="seat 2's 9S is not an Oktris card"):
        step(DEFAULT, initial(DEFAULT, 2), trick("5H 9S"))
    with pytest.raises(IllegalPlayError, match="KC is not an Oktris card"):
        strength(StdCard.parse("KC"))


def test_trick_rejects_octoplus_cards() -> None:
    event = Trick((StdCard.parse("5H"), OctoCard.number(5)))  # type: ignore[arg-type]
    with pytest.raises(IllegalPlayError, match="seat 2's 5 is not an Oktris card"):
        step(DEFAULT, initial(DEFAULT, 2), event)


@pytest.mark.parametrize(
    ("event", "name"),
    [(Play(1, (OctoCard.number(3),)), "Play by seat 1"), (Undone(1), "Undone")],
    ids=["octoplus-play", "undone"],
)
def test_events_of_the_other_game_and_undo_are_illegal(event: Event, name: str) -> None:
    state = step(DEFAULT, initial(DEFAULT, 2), trick("4H 6D"))
    with pytest.raises(IllegalPlayError) as error:
        step(DEFAULT, state, event)
    assert str(error.value) == f"{name} is not an Oktris event (deal 1, trick 2 (low))"


def test_a_rejected_event_leaves_the_state_as_it_was() -> None:
    before = step(DEFAULT, initial(DEFAULT, 2), trick("4H 6D"))
    snapshot = repr(before)
    with pytest.raises(IllegalPlayError):
        step(DEFAULT, before, trick("4H 2C"))
    assert repr(before) == snapshot


# --- allowed ------------------------------------------------------------------------


def test_allowed_names_the_next_trick_and_the_cards_already_seen() -> None:
    state = play(DEFAULT, initial(DEFAULT, 4), [trick("3H 6D 8H AD")])
    now = allowed(DEFAULT, state)
    assert (now.trick_no, now.mode, now.cards_needed) == (2, Mode.LOW, 4)
    assert now.excluded == frozenset(cards("3H 6D 8H AD"))
    assert allowed(DEFAULT, initial(DEFAULT, 3)).excluded == frozenset()


def test_allowed_asks_for_no_cards_once_the_game_is_over() -> None:
    final = example_8(DEFAULT)[5]
    assert allowed(DEFAULT, final).cards_needed == 0
    assert final.to_move is None


def test_adjust_after_the_end_of_the_game_is_illegal() -> None:
    final = step(DEFAULT, initial(DEFAULT, 2), Adjust(2, 88, "house", seq=1))
    with pytest.raises(IllegalPlayError) as error:
        step(DEFAULT, final, Adjust(1, 3, "late"))
    assert str(error.value) == (
        "adjustment of +3 for seat 1 after the end of the game (game over after deal 1 (won by seat 2))"
    )
