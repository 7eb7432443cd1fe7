"""Each Octoplus house rule in both settings, and the rules' option text."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorer.cards import MINUS2, PASS, PLUS2, OctoCard
from scorer.errors import IllegalPlayError, NotationError
from scorer.events import Play, Reveal, TakeChain, TurnUp
from scorer.octoplus import (
    ChainWithoutNumber,
    OctoplusRules,
    OctoplusState,
    Phase,
    StartSpecial,
    allowed,
    initial,
    step,
)
from scorer.sheet import ScoreCell

DEFAULT = OctoplusRules()


def cards(text: str) -> tuple[OctoCard, ...]:
    return tuple(OctoCard.parse(part) for part in text.split())


def started(base: str, rules: OctoplusRules = DEFAULT, players: int = 3) -> OctoplusState:
    return step(rules, initial(rules, players), TurnUp(OctoCard.parse(base)))


def at_reveal(
    hands: tuple[int, ...], totals: tuple[int, ...], rules: OctoplusRules = DEFAULT
) -> OctoplusState:
    return replace(
        initial(rules, len(hands)),
        phase=Phase.REVEAL,
        to_move=None,
        hand_sizes=hands,
        revealed=tuple(() if n == 0 else None for n in hands),
        totals=totals,
    )


# --- deck -------------------------------------------------------------------------


def test_default_deck_has_74_cards_and_no_nine() -> None:
    assert DEFAULT.deck_size == 74
    assert DEFAULT.count(OctoCard.number(7)) == 8 and DEFAULT.count(PASS) == 6
    with pytest.raises(IllegalPlayError, match="no 9 card"):
        step(DEFAULT, started("1"), Play(1, cards("9")))


def test_configured_deck_with_nines_allows_a_nine() -> None:
    rules = OctoplusRules.from_options({"deck": "1:8,2:8,3:8,4:8,5:8,6:8,7:8,9:4,+2:6,-2:6,P:6"})
    assert rules.deck_size == 78
    state = step(rules, started("1", rules), Play(1, cards("9")))
    assert state.last_play == "seat 1: 1 + 9 = 10, draws 2"
    assert sum(state.hand_sizes) + state.draw_pile + state.discard == 78


def test_deck_without_plus_two_forbids_it_and_allowed_says_so() -> None:
    rules = OctoplusRules.from_options({"deck": "1:10,2:10,3:10,4:10,-2:4,P:4"})
    state = started("3", rules)
    assert not allowed(rules, state).plus2
    with pytest.raises(IllegalPlayError, match="no \\+2 card"):
        step(rules, state, Play(1, (PLUS2,)))


def test_a_play_with_more_copies_than_the_deck_has_is_illegal() -> None:
    rules = OctoplusRules.from_options({"deck": "1:2,2:30,P:5"})
    with pytest.raises(IllegalPlayError, match="only 2 1 cards"):
        step(rules, started("2", rules), Play(1, cards("1 1 1")))


# --- hand_size --------------------------------------------------------------------


def test_hand_size_default_deals_eight() -> None:
    state = initial(DEFAULT, 4)
    assert state.hand_sizes == (8, 8, 8, 8)
    assert state.draw_pile == 74 - 32


def test_hand_size_option_deals_that_many_and_resets_to_it_next_round() -> None:
    rules = OctoplusRules(hand_size=5)
    state = initial(rules, 4)
    assert state.hand_sizes == (5, 5, 5, 5)
    assert state.draw_pile == 74 - 20
    state = replace(step(rules, state, TurnUp(OctoCard.number(4))), hand_sizes=(1, 5, 5, 5), draw_pile=57)
    state = step(rules, state, Play(1, cards("1")))
    for seat in (2, 3, 4):
        state = step(rules, state, Reveal(seat, cards("1 1 1 1 1")))
    assert state.round_no == 2
    assert state.hand_sizes == (5, 5, 5, 5)


# --- start_special ----------------------------------------------------------------


@pytest.mark.parametrize("special", [PLUS2, MINUS2, PASS])
def test_start_special_redraw_puts_a_special_back_and_turns_again(special: OctoCard) -> None:
    before = initial(DEFAULT, 3)
    state = step(DEFAULT, before, TurnUp(special))
    assert state.phase is Phase.TURN_UP
    assert (state.draw_pile, state.discard, state.base) == (before.draw_pile, 0, None)
    assert state.last_play == f"seat 1 turns up {special.pretty}, puts it back and turns again"
    state = step(DEFAULT, state, TurnUp(OctoCard.number(6)))
    assert (state.phase, state.base, state.draw_pile, state.discard) == (
        Phase.PLAY,
        6,
        before.draw_pile - 1,
        1,
    )


def test_start_special_apply_minus_two_is_a_base_of_minus_two() -> None:
    rules = OctoplusRules(start_special=StartSpecial.APPLY)
    state = started("-2", rules)
    assert (state.phase, state.base, state.chain, state.to_move) == (Phase.PLAY, -2, 0, 1)
    assert step(rules, state, Play(1, cards("7 3"))).phase is Phase.GIVE


def test_start_special_apply_pass_is_a_base_of_zero() -> None:
    rules = OctoplusRules(start_special=StartSpecial.APPLY)
    state = started("P", rules)
    assert (state.base, state.chain) == (0, 0)
    assert step(rules, state, Play(1, cards("5 3"))).phase is Phase.GIVE


def test_start_special_apply_plus_two_is_a_chain_on_base_zero_the_dealer_must_answer() -> None:
    rules = OctoplusRules(start_special=StartSpecial.APPLY)
    state = started("+2", rules)
    assert (state.base, state.chain, state.effective_base, state.to_move) == (0, 1, 2, 1)
    with pytest.raises(IllegalPlayError, match="cannot play Pass on a \\+2 chain"):
        step(rules, state, Play(1, (PASS,)))
    assert step(rules, state, Play(1, cards("6"))).phase is Phase.GIVE


# --- chain_without_number ---------------------------------------------------------


def test_chain_without_number_draw_excess_draws_above_eight_and_clears_to_the_base() -> None:
    state = step(DEFAULT, step(DEFAULT, started("5"), Play(1, (PLUS2,))), Play(2, (PLUS2,)))
    state = step(DEFAULT, state, TakeChain(3))
    assert state.hand_sizes == (7, 7, 8 + 1)
    assert (state.base, state.chain, state.to_move) == (5, 0, 1)
    assert state.last_play == "seat 3 takes the chain, draws 1"


def test_chain_without_number_draw_excess_draws_nothing_when_not_above_eight() -> None:
    state = step(DEFAULT, started("1"), Play(1, (PLUS2,)))
    state = step(DEFAULT, state, TakeChain(2))
    assert state.hand_sizes == (7, 8, 8)
    assert state.last_draw is None
    assert state.last_play == "seat 2 takes the chain, draws 0"


def test_chain_without_number_draw_chain_draws_two_per_plus_two() -> None:
    rules = OctoplusRules(chain_without_number=ChainWithoutNumber.DRAW_CHAIN)
    state = step(rules, step(rules, started("1", rules), Play(1, (PLUS2,))), Play(2, (PLUS2,)))
    state = step(rules, state, TakeChain(3))
    assert state.hand_sizes == (7, 7, 8 + 4)
    assert (state.base, state.chain) == (1, 0)


# --- reshuffle --------------------------------------------------------------------


def low_pile(rules: OctoplusRules) -> OctoplusState:
    """Seat 1 to play on base 6 with one card left in the draw pile."""
    state = started("6", rules, players=2)
    return replace(state, draw_pile=1, discard=state.discard + state.draw_pile - 1)


def test_reshuffle_turns_the_discard_pile_but_its_top_card_into_the_draw_pile() -> None:
    state = low_pile(DEFAULT)
    after = step(DEFAULT, state, Play(1, cards("7")))
    assert after.hand_sizes[0] == 7 + 5
    assert after.discard == 1
    assert after.draw_pile == state.discard + 1 - 1 - 4
    assert "reshuffled" in after.last_play
    assert sum(after.hand_sizes) + after.draw_pile + after.discard == 74


def test_no_reshuffle_draws_only_what_is_left() -> None:
    rules = OctoplusRules(reshuffle=False)
    state = low_pile(rules)
    after = step(rules, state, Play(1, cards("7")))
    assert after.hand_sizes[0] == 7 + 1
    assert after.last_draw == (1, 1)
    assert after.draw_pile == 0
    assert after.last_play == "seat 1: 6 + 7 = 13, draws 1 (owed 5, pile empty)"


# --- shared_win -------------------------------------------------------------------


def test_shared_win_equal_lowest_totals_share_the_win() -> None:
    state = at_reveal((0, 1, 2), (20, 25, 21))
    state = replace(state, round_no=8)
    state = step(DEFAULT, step(DEFAULT, state, Reveal(2, cards("3"))), Reveal(3, cards("1 6")))
    assert state.totals == (20, 28, 28)
    assert state.winners == (1,)
    tied = replace(at_reveal((0, 2, 1), (25, 20, 24)), round_no=8)
    tied = step(DEFAULT, step(DEFAULT, tied, Reveal(2, cards("3 2"))), Reveal(3, cards("1")))
    assert tied.totals == (25, 25, 25)
    assert tied.winners == (1, 2, 3)


def test_no_shared_win_the_lower_last_round_score_breaks_the_tie() -> None:
    rules = OctoplusRules(shared_win=False)
    state = replace(at_reveal((0, 2, 1), (25, 20, 24), rules), round_no=8)
    state = step(rules, step(rules, state, Reveal(2, cards("3 2"))), Reveal(3, cards("1")))
    assert state.totals == (25, 25, 25)
    assert state.winners == (1,)


def test_no_shared_win_still_tied_on_the_last_round_shares() -> None:
    rules = OctoplusRules(shared_win=False)
    state = replace(at_reveal((1, 0, 1), (24, 30, 24), rules), round_no=8)
    state = step(rules, step(rules, state, Reveal(1, cards("2"))), Reveal(3, cards("2")))
    assert state.winners == (1, 3)


# --- max_rounds, void_eight, reset_88, special_points, end_total -------------------


def test_max_rounds_default_eight_rounds_then_the_game_ends() -> None:
    state = replace(at_reveal((0, 1), (0, 0)), round_no=7)
    state = step(DEFAULT, state, Reveal(2, cards("1")))
    assert not state.finished and state.round_no == 8
    state = replace(state, phase=Phase.REVEAL, to_move=None, hand_sizes=(0, 1), revealed=((), None))
    assert step(DEFAULT, state, Reveal(2, cards("1"))).finished


def test_max_rounds_option_ends_the_game_after_that_many_rounds() -> None:
    rules = OctoplusRules(max_rounds=2)
    state = replace(at_reveal((0, 1), (0, 0), rules), round_no=2)
    state = step(rules, state, Reveal(2, cards("1")))
    assert state.finished
    assert state.winners == (1,)


def test_void_eight_off_counts_a_score_ending_in_eight() -> None:
    rules = OctoplusRules(void_eight=False)
    state = step(rules, at_reveal((0, 2), (0, 0), rules), Reveal(2, cards("5 3")))
    assert state.rounds == ((ScoreCell(0), ScoreCell(8)),)
    voided = step(DEFAULT, at_reveal((0, 2), (0, 0)), Reveal(2, cards("5 3")))
    assert voided.rounds == ((ScoreCell(0), ScoreCell(0, "void 8")),)


def test_reset_88_off_keeps_a_total_of_88() -> None:
    rules = OctoplusRules(reset_88=False)
    state = step(rules, at_reveal((0, 1), (0, 81), rules), Reveal(2, cards("7")))
    assert state.totals == (0, 88)
    assert state.rounds[-1][1] == ScoreCell(7)
    reset = step(DEFAULT, at_reveal((0, 1), (0, 81)), Reveal(2, cards("7")))
    assert reset.totals == (0, 0)
    assert reset.rounds[-1][1] == ScoreCell(7, "88 reset")


def test_special_points_sets_what_each_special_scores() -> None:
    rules = OctoplusRules(special_points=5)
    state = step(rules, at_reveal((0, 3), (0, 0), rules), Reveal(2, cards("+2 -2 1")))
    assert state.totals == (0, 11)
    state = step(DEFAULT, at_reveal((0, 3), (0, 0)), Reveal(2, cards("+2 -2 1")))
    assert state.totals == (0, 21)


def test_end_total_sets_the_total_that_ends_the_game() -> None:
    rules = OctoplusRules(end_total=50)
    state = step(rules, at_reveal((0, 1), (0, 45), rules), Reveal(2, cards("5")))
    assert state.finished and state.winners == (1,)
    state = step(DEFAULT, at_reveal((0, 1), (0, 45)), Reveal(2, cards("5")))
    assert not state.finished and state.round_no == 2


# --- options text -----------------------------------------------------------------


def test_options_name_every_rule_and_read_back_to_equal_rules() -> None:
    assert DEFAULT.options() == {
        "deck": "1:8,2:8,3:8,4:8,5:8,6:8,7:8,+2:6,-2:6,P:6",
        "hand_size": "8",
        "start_special": "redraw",
        "chain_without_number": "draw_excess",
        "reshuffle": "true",
        "shared_win": "true",
        "max_rounds": "8",
        "void_eight": "true",
        "reset_88": "true",
        "special_points": "10",
        "end_total": "89",
    }
    custom = OctoplusRules(
        hand_size=6,
        start_special=StartSpecial.APPLY,
        chain_without_number=ChainWithoutNumber.DRAW_CHAIN,
        reshuffle=False,
        shared_win=False,
        max_rounds=3,
        void_eight=False,
        reset_88=False,
        special_points=7,
        end_total=60,
    )
    assert OctoplusRules.from_options(custom.options()) == custom
    assert OctoplusRules.from_options({}) == DEFAULT


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"colour_rule": "high"}, "colour_rule"),
        ({"reshuffle": "maybe"}, "maybe"),
        ({"start_special": "keep"}, "keep"),
        ({"hand_size": "eight"}, "eight"),
        ({"hand_size": "0"}, "hand_size"),
        ({"deck": "1:8,X:3"}, "X"),
        ({"deck": "1:8,1:3"}, "twice"),
        ({"deck": "+2:6,P:6"}, "no number card"),
    ],
)
def test_from_options_rejects_unknown_names_and_bad_values(options: dict[str, str], named: str) -> None:
    with pytest.raises(NotationError, match=named):
        OctoplusRules.from_options(options)
