"""Events the Octoplus rules forbid: the right typed error, a message naming event and state."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from scorer.cards import OctoCard, StdCard, Suit
from scorer.errors import IllegalPlayError, OutOfTurnError
from scorer.events import Adjust, Event, Give, Play, Reveal, TakeChain, Trick, TurnUp, Undone
from scorer.octoplus import OctoplusRules, OctoplusState, Phase, initial, step

RULES = OctoplusRules()


def cards(text: str) -> tuple[OctoCard, ...]:
    return tuple(OctoCard.parse(part) for part in text.split())


def started(base: str = "5") -> OctoplusState:
    return step(RULES, initial(RULES, 3), TurnUp(OctoCard.parse(base)))


def on_chain() -> OctoplusState:
    """Seat 3 faces two +2s on base 5 (base 9)."""
    state = step(RULES, started("5"), Play(1, cards("+2")))
    return step(RULES, state, Play(2, cards("+2")))


def awaiting_give() -> OctoplusState:
    return step(RULES, started("5"), Play(1, cards("3")))


def reveal_phase() -> OctoplusState:
    return step(RULES, replace(started("4"), hand_sizes=(1, 8, 8), draw_pile=64), Play(1, cards("2")))


def rejects(state: OctoplusState, event: Event, error: type[Exception], *words: str) -> str:
    """Asserts ``event`` raises exactly ``error`` with ``words`` in its message, state untouched."""
    before = copy.deepcopy(state)
    with pytest.raises(error) as caught:
        step(RULES, state, event)
    assert type(caught.value) is error
    message = str(caught.value)
    for word in words:
        assert word in message, message
    assert state == before
    return message


def test_pass_cannot_answer_a_plus_two_chain() -> None:
    message = rejects(on_chain(), Play(3, cards("P")), IllegalPlayError, "seat 3 plays P", "base 9")
    assert message.startswith("seat 3 cannot play Pass on a +2 chain (base 9)")


def test_minus_two_cannot_answer_a_plus_two_chain() -> None:
    rejects(on_chain(), Play(3, cards("4 -2")), IllegalPlayError, "cannot play -2 on a +2 chain", "4 -2")


def test_a_seat_out_of_turn_raises_out_of_turn() -> None:
    message = rejects(started(), Play(2, cards("1")), OutOfTurnError, "seat 1's turn", "seat 2 plays 1")
    assert "round 1, seat 1 to play on base 5" in message


def test_a_seat_not_at_the_table_is_illegal() -> None:
    rejects(started(), Play(4, cards("1")), IllegalPlayError, "no seat 4", "table of 3")


def test_playing_more_cards_than_the_hand_holds_is_illegal() -> None:
    state = replace(started("1"), hand_sizes=(2, 8, 8), draw_pile=63)
    rejects(state, Play(1, cards("1 1 1")), IllegalPlayError, "plays 3 cards but holds 2", "hands 2/8/8")


def test_a_card_the_deck_lacks_is_illegal() -> None:
    rejects(started(), Play(1, cards("9")), IllegalPlayError, "the deck has no 9 card")


def test_plus_two_and_pass_must_be_played_alone() -> None:
    rejects(started(), Play(1, cards("1 +2")), IllegalPlayError, "cannot play +2 with other cards")
    rejects(started(), Play(1, cards("P 1")), IllegalPlayError, "cannot play Pass with other cards")


def test_an_empty_play_is_illegal() -> None:
    rejects(started(), Play(1, ()), IllegalPlayError, "plays no card")


def test_give_without_an_exact_eight_is_illegal() -> None:
    rejects(started(), Give(1, 2), IllegalPlayError, "without making exactly 8")


def test_give_to_oneself_or_no_seat_is_illegal() -> None:
    rejects(awaiting_give(), Give(1, 1), IllegalPlayError, "another seat", "to give a card")
    rejects(awaiting_give(), Give(1, 7), IllegalPlayError, "another seat")


def test_the_seat_that_made_eight_must_give_before_playing_on() -> None:
    rejects(awaiting_give(), Play(1, cards("1")), IllegalPlayError, "must first give")
    rejects(awaiting_give(), Play(2, cards("1")), OutOfTurnError, "seat 1's turn")


def test_taking_a_chain_needs_a_chain() -> None:
    rejects(started(), TakeChain(1), IllegalPlayError, "faces no +2 chain")


def test_turning_up_twice_or_playing_before_the_turn_up_is_illegal() -> None:
    rejects(started(), TurnUp(OctoCard.number(3)), IllegalPlayError, "already turned up")
    rejects(initial(RULES, 3), Play(1, cards("3")), IllegalPlayError, "to turn up the base")
    rejects(initial(RULES, 3), TurnUp(OctoCard.number(9)), IllegalPlayError, "no 9 card")


def test_reveal_count_must_equal_the_tracked_hand_size() -> None:
    rejects(reveal_phase(), Reveal(2, cards("1 2 3")), IllegalPlayError, "reveals 3 cards but holds 8")


def test_a_revealed_card_must_be_one_the_deck_has() -> None:
    rejects(reveal_phase(), Reveal(2, cards("9 1 1 1 1 1 1 1")), IllegalPlayError, "the deck has no 9 card")
    rejects(reveal_phase(), Reveal(2, cards("P P P P P P P 1")), IllegalPlayError, "only 6 Pass cards")


def test_reveal_only_after_the_round_and_only_once_per_holding_seat() -> None:
    rejects(started(), Reveal(1, cards("1")), IllegalPlayError, "only when the round is over")
    rejects(reveal_phase(), Reveal(1, ()), IllegalPlayError, "seat 1 has nothing left to reveal")
    state = step(RULES, reveal_phase(), Reveal(2, cards("1 1 1 1 1 1 1 1")))
    rejects(state, Reveal(2, cards("1 1 1 1 1 1 1 1")), IllegalPlayError, "nothing left to reveal")


def test_plays_and_turn_ups_during_the_reveal_phase_are_illegal() -> None:
    rejects(reveal_phase(), Play(2, cards("1")), IllegalPlayError, "round over, seats 2, 3 to reveal")
    rejects(reveal_phase(), TurnUp(OctoCard.number(3)), IllegalPlayError, "before the next deal")


def test_events_of_the_other_game_and_undone_are_illegal() -> None:
    trick = Trick((StdCard(8, Suit.CLUBS), StdCard(1, Suit.HEARTS)))
    rejects(started(), trick, IllegalPlayError, "Trick is not an Octoplus event")
    rejects(started(), Undone(3), IllegalPlayError, "Undone is not an Octoplus event")


def test_no_event_after_the_game_finished() -> None:
    over = step(RULES, started(), Adjust(1, 100, "penalty"))
    assert over.finished
    rejects(over, Play(2, cards("1")), IllegalPlayError, "the game is over", "game over")
    rejects(over, Adjust(1, -100, "correction"), IllegalPlayError, "the game is over")


@pytest.mark.parametrize("players", [0, 1, 9])
def test_octoplus_is_for_two_to_eight_players(players: int) -> None:
    with pytest.raises(IllegalPlayError, match=f"got {players}"):
        initial(RULES, players)


def test_a_deck_too_small_for_the_deal_is_rejected() -> None:
    with pytest.raises(IllegalPlayError, match="deck of 74 cards cannot deal 8 hands of 10"):
        initial(OctoplusRules(hand_size=10), 8)
    assert initial(OctoplusRules(hand_size=9), 8).draw_pile == 2


def test_a_state_is_frozen() -> None:
    state = started()
    with pytest.raises(AttributeError):
        state.base = 3  # type: ignore[misc]
    assert state.phase is Phase.PLAY


def test_an_illegal_event_is_described_in_the_words_the_page_uses() -> None:
    rejects(started(), TakeChain(2), OutOfTurnError, "[event: seat 2 takes the +2 chain;")
    rejects(awaiting_give(), Play(2, cards("1 -2")), OutOfTurnError, "[event: seat 2 plays 1 -2;")
