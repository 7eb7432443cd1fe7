"""The Octoplus engine against the worked examples and rules of RULES.md."""

from __future__ import annotations

from dataclasses import replace

from scorer.cards import OctoCard
from scorer.events import Adjust, Event, Give, Play, Reveal, TurnUp
from scorer.octoplus import OctoplusRules, OctoplusState, Phase, allowed, initial, step
from scorer.sheet import ScoreCell

RULES = OctoplusRules()


def cards(text: str) -> tuple[OctoCard, ...]:
    """``"7 5 +2"`` -> the cards."""
    return tuple(OctoCard.parse(part) for part in text.split())


def play(seat: int, text: str) -> Play:
    return Play(seat, cards(text))


def run(state: OctoplusState, *events: Event, rules: OctoplusRules = RULES) -> OctoplusState:
    for event in events:
        state = step(rules, state, event)
    return state


def started(base: str, players: int = 3, rules: OctoplusRules = RULES) -> OctoplusState:
    """A fresh round whose dealer (seat 1) turned up ``base``."""
    return run(initial(rules, players), TurnUp(OctoCard.parse(base)), rules=rules)


def conserved(state: OctoplusState, rules: OctoplusRules = RULES) -> bool:
    return sum(state.hand_sizes) + state.draw_pile + state.discard == rules.deck_size


def at_reveal(hands: tuple[int, ...], totals: tuple[int, ...], round_no: int = 1) -> OctoplusState:
    """A round just over with the given hand sizes and totals before scoring."""
    base = initial(RULES, len(hands))
    return replace(
        base,
        phase=Phase.REVEAL,
        to_move=None,
        round_no=round_no,
        hand_sizes=hands,
        revealed=tuple(() if n == 0 else None for n in hands),
        totals=totals,
    )


# --- Worked examples 1-10 --------------------------------------------------------


def test_example1_overshoot_draws_the_difference() -> None:
    state = run(started("6"), play(1, "4"))
    assert state.hand_sizes == (7 + 2, 8, 8)
    assert state.last_draw == (1, 2)
    assert state.base == 4
    assert state.to_move == 2
    assert state.last_play == "seat 1: 6 + 4 = 10, draws 2"
    assert conserved(state)


def test_example2_under_eight_nothing_happens_and_last_card_is_the_base() -> None:
    state = run(started("3"), play(1, "2 1"))
    assert state.hand_sizes == (6, 8, 8)
    assert state.last_draw is None
    assert state.base == 1
    assert state.phase is Phase.PLAY
    assert state.last_play == "seat 1: 3 + 2 + 1 = 6"


def test_example3_exactly_eight_gives_one_card_to_a_chosen_seat() -> None:
    state = run(started("5"), play(1, "3"))
    assert state.phase is Phase.GIVE
    assert state.awaiting_give == 1
    assert state.base == 3
    assert allowed(RULES, state).give_to == (2, 3)
    assert state.last_play == "seat 1: 5 + 3 = 8, gives a card"
    given = step(RULES, state, Give(1, 3))
    assert given.hand_sizes == (6, 8, 9)
    assert given.phase is Phase.PLAY
    assert given.to_move == 2
    assert conserved(given)


def test_example4_minus_two_on_top_is_a_base_of_minus_two() -> None:
    state = run(started("2"), play(1, "-2"))
    assert state.base == -2
    assert state.last_play == "seat 1: 2 - 2 = 0"
    state = step(RULES, state, play(2, "7 3"))
    assert state.phase is Phase.GIVE
    assert state.awaiting_give == 2
    assert state.last_play == "seat 2: -2 + 7 + 3 = 8, gives a card"


def test_example5_minus_two_placed_last_counts_and_becomes_the_base() -> None:
    state = run(started("6"), play(1, "5 -2"))
    assert state.hand_sizes == (6 + 1, 8, 8)
    assert state.base == -2
    assert state.last_play == "seat 1: 6 + 5 - 2 = 9, draws 1"


def test_example6_plus_two_chain_stacks_and_the_answer_draws_the_excess() -> None:
    state = run(started("5"), play(1, "+2"))
    assert (state.base, state.chain, state.effective_base) == (5, 1, 7)
    state = step(RULES, state, play(2, "+2"))
    assert state.last_play == "seat 2: +2 (chain 2, base 9)"
    state = step(RULES, state, play(3, "3"))
    assert state.last_play == "seat 3: 9 + 3 = 12, draws 4"
    assert state.hand_sizes == (7, 7, 7 + 4)
    assert (state.base, state.chain) == (3, 0)
    assert conserved(state)


def test_example7_pass_keeps_the_base_for_the_next_player() -> None:
    state = run(started("4"), play(1, "P"))
    assert state.base == 4
    assert state.last_play == "seat 1: Pass"
    state = step(RULES, state, play(2, "4"))
    assert state.phase is Phase.GIVE
    assert state.awaiting_give == 2


def test_example8_emptying_the_hand_ends_the_round_but_overshooting_with_the_last_card_does_not() -> None:
    last_card = replace(started("4"), hand_sizes=(1, 8, 8), draw_pile=65)
    out = step(RULES, last_card, play(1, "3"))
    assert out.phase is Phase.REVEAL
    assert out.went_out == 1
    assert out.reveal_seats == (2, 3)
    assert out.last_play == "seat 1: 4 + 3 = 7; seat 1 is out, round 1 over"
    over = step(RULES, last_card, play(1, "6"))
    assert over.phase is Phase.PLAY
    assert over.hand_sizes == (2, 8, 8)
    assert over.last_play == "seat 1: 4 + 6 = 10, draws 2"


def test_example9_round_score_counts_specials_ten_and_voids_scores_ending_in_eight() -> None:
    state = at_reveal((3, 2, 3, 0), (0, 0, 0, 0))
    state = run(state, Reveal(1, cards("7 5 +2")), Reveal(2, cards("3 5")), Reveal(3, cards("7 1 P")))
    assert state.rounds == ((ScoreCell(22), ScoreCell(0, "void 8"), ScoreCell(0, "void 8"), ScoreCell(0)),)
    assert state.totals == (22, 0, 0, 0)


def test_example10_void_then_88_reset_then_89_ends_the_game() -> None:
    state = at_reveal((2, 1, 1, 0), (80, 81, 85, 50))
    state = run(state, Reveal(1, cards("5 3")), Reveal(2, cards("7")), Reveal(3, cards("5")))
    assert state.rounds[-1] == (ScoreCell(0, "void 8"), ScoreCell(7, "88 reset"), ScoreCell(5), ScoreCell(0))
    assert state.totals == (80, 0, 90, 50)
    assert state.finished and state.phase is Phase.FINISHED
    assert state.winners == (2,)


def test_example10_after_the_last_round_the_lowest_total_wins() -> None:
    state = at_reveal((0, 2, 1), (40, 35, 55), round_no=8)
    state = run(state, Reveal(2, cards("5 3")), Reveal(3, cards("6")))
    assert state.totals == (40, 35, 61)
    assert state.finished
    assert state.winners == (2,)


# --- Turn order, rounds and reveals ----------------------------------------------


def test_play_goes_clockwise_and_wraps_to_seat_one() -> None:
    state = run(started("1"), play(1, "1"), play(2, "1"), play(3, "1"))
    assert state.to_move == 1


def test_giving_the_last_card_ends_the_round() -> None:
    state = replace(started("5"), hand_sizes=(2, 8, 8), draw_pile=63)
    state = run(state, play(1, "3"), Give(1, 2))
    assert state.phase is Phase.REVEAL
    assert state.hand_sizes == (0, 9, 8)
    assert state.went_out == 1


def test_exact_eight_with_the_last_card_ends_the_round_without_a_give() -> None:
    state = replace(started("5"), hand_sizes=(1, 8, 8), draw_pile=64)
    state = step(RULES, state, play(1, "3"))
    assert state.phase is Phase.REVEAL
    assert state.awaiting_give is None


def test_a_pass_as_the_last_card_empties_the_hand_and_ends_the_round() -> None:
    state = replace(started("5"), hand_sizes=(1, 8, 8), draw_pile=64)
    assert step(RULES, state, play(1, "P")).phase is Phase.REVEAL


def test_scored_round_deals_the_next_round_with_the_next_dealer() -> None:
    state = replace(started("4"), hand_sizes=(1, 8, 8), draw_pile=64)
    state = run(state, play(1, "3"), Reveal(3, cards("1 1 1 1 1 1 1 1")), Reveal(2, cards("2 2 2 2 2 2 2 2")))
    assert state.rounds == ((ScoreCell(0), ScoreCell(16), ScoreCell(0, "void 8")),)
    assert state.phase is Phase.TURN_UP
    assert (state.round_no, state.dealer, state.to_move) == (2, 2, 2)
    assert state.hand_sizes == (8, 8, 8)
    assert (state.draw_pile, state.discard, state.top, state.base) == (74 - 24, 0, None, None)
    state = step(RULES, state, TurnUp(OctoCard.number(6)))
    assert state.to_move == 2


def test_adjustment_is_added_as_is_and_recorded() -> None:
    state = replace(started("4"), totals=(81, 0, 0))
    state = step(RULES, state, Adjust(1, 7, "misread", seq=12))
    assert state.totals == (88, 0, 0)
    assert state.adjustments[0].seq == 12
    assert (state.adjustments[0].seat, state.adjustments[0].points) == (1, 7)
    assert not state.finished
    assert state.phase is Phase.PLAY


def test_adjustment_reaching_the_end_total_ends_the_game() -> None:
    state = step(RULES, started("4"), Adjust(2, 89, "penalty"))
    assert state.finished
    assert state.winners == (1, 3)
    assert allowed(RULES, state).adjust is False


def test_allowed_facing_a_chain_offers_numbers_plus_two_or_taking_the_chain() -> None:
    state = run(started("5"), play(1, "+2"))
    options = allowed(RULES, state)
    assert options.seat == 2
    assert options.numbers == (1, 2, 3, 4, 5, 6, 7)
    assert options.plus2 and options.take_chain
    assert not options.pass_ and not options.minus2
    assert options.max_cards == 8


def test_allowed_on_a_plain_base_offers_every_card_but_no_chain() -> None:
    options = allowed(RULES, started("5"))
    assert (options.seat, options.phase) == (1, Phase.PLAY)
    assert options.minus2 and options.plus2 and options.pass_
    assert not options.take_chain and not options.turn_up
    assert options.give_to == ()


def test_allowed_in_the_reveal_phase_lists_the_seats_still_holding_cards() -> None:
    options = allowed(RULES, at_reveal((2, 0, 3), (0, 0, 0)))
    assert options.seat is None
    assert options.reveal_seats == (1, 3)
