"""Observations become proposed events: turns, gives, chains, tricks, reveals, flags."""

from __future__ import annotations

from scanner.observations import HandShown, PileCard, TableCleared, TrickSeen, TurnDone
from scorer.cards import Card, OctoCard, StdCard
from scorer.events import Play, Reveal, Source, Trick, TurnUp
from scorer.game import Game, rules_for
from scorer.octoplus import Phase
from webui.proposals import (
    Applied,
    Flagged,
    GameDesk,
    GiveAwaited,
    ProposalParams,
    Proposer,
    describe_outcome,
)

T = 0.0


def pile(
    text: str, confidence: float = 0.95, *, t: float | None = None, candidates: tuple[str, ...] = ()
) -> PileCard:
    global T
    T = T + 1.0 if t is None else t
    card = OctoCard.parse(text) if text != "?" else None
    alts = tuple((OctoCard.parse(c), 0.3) for c in candidates)
    return PileCard(card, confidence, alts, frame_index=int(T * 10), timestamp=T)


def done() -> TurnDone:
    return TurnDone("idle", int(T * 10) + 1, T + 0.1)


def octoplus(players: int = 3) -> tuple[GameDesk, Proposer]:
    global T
    T = 0.0
    return GameDesk(Game.new(rules_for("octoplus"), players)), Proposer()


def feed(proposer: Proposer, desk: GameDesk, *observations: object) -> list[object]:
    out: list[object] = []
    for obs in observations:
        out += proposer.handle(obs, desk)  # type: ignore[arg-type]
    return out


def octo(*texts: str) -> tuple[OctoCard, ...]:
    return tuple(OctoCard.parse(t) for t in texts)


def effective(desk: GameDesk) -> list[object]:
    return list(desk.game.effective_events())


# --- Octoplus ------------------------------------------------------------------------------------------


def test_first_pile_card_of_a_round_is_the_turn_up() -> None:
    desk, proposer = octoplus()
    (outcome,) = feed(proposer, desk, pile("3"))
    assert isinstance(outcome, Applied)
    assert outcome.event == TurnUp(OctoCard.parse("3"), seq=1, source=Source.SCANNER)


def test_cards_of_one_turn_become_one_play_when_the_turn_is_done() -> None:
    desk, proposer = octoplus()
    feed(proposer, desk, pile("3"), pile("2"), pile("1"))
    assert proposer.turn == octo("2", "1")
    assert len(effective(desk)) == 1  # nothing played yet: 3 + 2 + 1 = 6 may go on
    feed(proposer, desk, done())
    assert effective(desk)[-1] == Play(1, octo("2", "1"), seq=2, source=Source.SCANNER)
    assert desk.game.to_move == 2


def test_a_turn_ends_by_itself_when_the_total_reaches_eight_and_a_give_is_awaited() -> None:
    desk, proposer = octoplus()
    outcomes = feed(proposer, desk, pile("3"), pile("4"), pile("1"))
    assert effective(desk)[-1] == Play(1, octo("4", "1"), seq=2, source=Source.SCANNER)
    assert outcomes[-1] == GiveAwaited(1, (2, 3))
    assert desk.game.state.phase is Phase.GIVE  # type: ignore[union-attr]


def test_a_turn_over_eight_ends_at_once_and_the_scorer_computes_the_draw() -> None:
    desk, proposer = octoplus()
    feed(proposer, desk, pile("6"), pile("7"))
    assert effective(desk)[-1] == Play(1, octo("7"), seq=2, source=Source.SCANNER)
    assert desk.game.state.hand_sizes == (8 - 1 + 5, 8, 8)  # type: ignore[union-attr]


def test_a_plus_two_is_a_turn_by_itself_and_chains_stack() -> None:
    desk, proposer = octoplus()
    feed(proposer, desk, pile("1"), pile("+2"), pile("+2"), pile("3"))
    assert effective(desk)[1:] == [
        Play(1, octo("+2"), seq=2, source=Source.SCANNER),
        Play(2, octo("+2"), seq=3, source=Source.SCANNER),
        Play(3, octo("3"), seq=4, source=Source.SCANNER),  # 1 + 4 + 3 = 8: complete at once
    ]


def test_a_pass_answering_a_plus_two_chain_is_flagged_and_never_applied() -> None:
    desk, proposer = octoplus()
    outcomes = feed(proposer, desk, pile("1"), pile("+2"), pile("P"))
    flagged = outcomes[-1]
    assert isinstance(flagged, Flagged)
    assert "cannot play Pass on a +2 chain" in flagged.reason
    assert flagged.event == Play(2, octo("P"), source=Source.SCANNER)
    assert len(effective(desk)) == 2
    assert desk.flagged and "Pass" in desk.flagged[-1][0]


def test_a_pause_longer_than_the_turn_gap_starts_a_new_turn() -> None:
    desk, proposer = octoplus()
    feed(proposer, desk, pile("1", t=1.0), pile("2", t=2.0), pile("1", t=10.0))
    assert effective(desk)[-1] == Play(1, octo("2"), seq=2, source=Source.SCANNER)
    assert proposer.turn == octo("1")


def test_a_low_confidence_card_flags_the_whole_turn_with_alternatives() -> None:
    desk, proposer = octoplus()
    outcomes = feed(proposer, desk, pile("2"), pile("3", 0.4, candidates=("5",)), done())
    flagged = outcomes[-1]
    assert isinstance(flagged, Flagged)
    assert "card 1 (3 at 0.40)" in flagged.reason
    assert flagged.candidates == (
        Play(1, octo("3"), source=Source.SCANNER),
        Play(1, octo("5"), source=Source.SCANNER),
    )
    assert len(effective(desk)) == 1


def test_an_unidentified_turn_up_is_flagged_with_the_scanners_guesses() -> None:
    desk, proposer = octoplus()
    (flagged,) = feed(proposer, desk, pile("?", 0.0, candidates=("4", "7")))
    assert isinstance(flagged, Flagged)
    assert flagged.candidates == (
        TurnUp(OctoCard.parse("4"), source=Source.SCANNER),
        TurnUp(OctoCard.parse("7"), source=Source.SCANNER),
    )
    assert effective(desk) == []


def test_without_auto_accept_every_reading_waits_for_confirmation() -> None:
    desk = GameDesk(Game.new(rules_for("octoplus"), 3))
    proposer = Proposer(ProposalParams(auto_accept=False))
    (flagged,) = proposer.handle(pile("3"), desk)
    assert isinstance(flagged, Flagged)
    assert flagged.candidates == (TurnUp(OctoCard.parse("3"), source=Source.SCANNER),)
    assert effective(desk) == []


def test_table_cleared_ends_the_turn_in_progress() -> None:
    desk, proposer = octoplus()
    feed(proposer, desk, pile("3"), pile("1"), TableCleared(99, 99.0))
    assert effective(desk)[-1] == Play(1, octo("1"), seq=2, source=Source.SCANNER)


def test_the_last_card_of_a_hand_ends_the_turn_and_shown_hands_are_reveals() -> None:
    game = Game.new(rules_for("octoplus", {"hand_size": "2"}), 2)
    desk, proposer = GameDesk(game), Proposer()
    feed(proposer, desk, pile("1"), pile("1"), pile("2"))  # seat 1: 1 + 1 + 2 = 4 with both cards: out
    assert game.state.phase is Phase.REVEAL  # type: ignore[union-attr]
    outcomes = feed(proposer, desk, HandShown(2, octo("5", "+2"), (0.9, 0.9), 80, 80.0))
    assert isinstance(outcomes[0], Applied)
    assert outcomes[0].event == Reveal(2, octo("5", "+2"), seq=3, source=Source.SCANNER)


def test_cards_laid_on_the_pile_when_nobody_is_to_play_are_flagged() -> None:
    game = Game.new(rules_for("octoplus", {"hand_size": "1"}), 2)
    desk, proposer = GameDesk(game), Proposer()
    feed(proposer, desk, pile("1"), pile("2"))  # seat 1 is out: the round is over
    (flagged,) = feed(proposer, desk, pile("5"), done())
    assert isinstance(flagged, Flagged)
    assert "no seat is to play" in flagged.reason
    assert game.seq == 2


def test_an_unsure_shown_hand_is_flagged() -> None:
    game = Game.new(rules_for("octoplus", {"hand_size": "1"}), 2)
    desk, proposer = GameDesk(game), Proposer()
    feed(proposer, desk, pile("1"), pile("2"))
    (flagged,) = feed(proposer, desk, HandShown(2, (OctoCard.parse("5"),), (0.3,), 80, 80.0))
    assert isinstance(flagged, Flagged)
    assert game.state.phase is Phase.REVEAL  # type: ignore[union-attr]


# --- Oktris --------------------------------------------------------------------------------------------


def trick(
    *texts: str, confidences: tuple[float, ...] | None = None, alternatives: dict[int, str] | None = None
) -> TrickSeen:
    cards: tuple[Card | None, ...] = tuple(None if t == "?" else StdCard.parse(t) for t in texts)
    confs = confidences or tuple(0.0 if c is None else 0.9 for c in cards)
    cands = tuple(
        ((StdCard.parse(alternatives[i]), 0.4),) if alternatives and i in alternatives else ()
        for i in range(len(texts))
    )
    return TrickSeen(cards, confs, cands, 5, 0.5)


def test_a_trick_seen_is_a_trick() -> None:
    desk, proposer = GameDesk(Game.new(rules_for("oktris"), 4)), Proposer()
    (outcome,) = proposer.handle(trick("5H", "7S", "7D", "2C"), desk)
    assert isinstance(outcome, Applied)
    assert outcome.event == Trick(
        tuple(StdCard.parse(t) for t in ("5H", "7S", "7D", "2C")), seq=1, source=Source.SCANNER
    )


def test_a_card_seen_twice_in_one_deal_is_flagged() -> None:
    desk, proposer = GameDesk(Game.new(rules_for("oktris"), 4)), Proposer()
    proposer.handle(trick("5H", "7S", "7D", "2C"), desk)
    (flagged,) = proposer.handle(trick("5H", "8S", "8D", "3C"), desk)
    assert isinstance(flagged, Flagged)
    assert "5" in flagged.reason
    assert desk.game.seq == 1


def test_an_unreadable_trick_card_is_flagged_with_its_alternatives() -> None:
    desk, proposer = GameDesk(Game.new(rules_for("oktris"), 3)), Proposer()
    (flagged,) = proposer.handle(trick("5H", "?", "2C", alternatives={1: "6S"}), desk)
    assert isinstance(flagged, Flagged)
    assert flagged.event is None
    assert flagged.candidates == (
        Trick(tuple(StdCard.parse(t) for t in ("5H", "6S", "2C")), source=Source.SCANNER),
    )
    assert desk.game.seq == 0


def test_outcomes_read_as_a_few_words_in_the_log() -> None:
    desk, proposer = octoplus()
    (applied,) = feed(proposer, desk, pile("3"))
    outcomes = feed(proposer, desk, pile("4"), pile("1"))
    words = [describe_outcome(o) for o in [applied, *outcomes]]  # type: ignore[list-item]
    assert words[0] == "applied 1: turnup 3 @scanner"
    assert words[-1] == "seat 1 made 8 and gives a card: waiting to hear to whom"
    desk, proposer = octoplus()
    (flagged,) = feed(proposer, desk, pile("?", 0.2, candidates=("5",)))
    assert isinstance(flagged, Flagged)
    assert describe_outcome(flagged).startswith(f"flagged for a person ({flagged.reason}): pile card ?")
