"""The score chart and the words the page shows."""

from __future__ import annotations

from scorer.cards import OctoCard
from scorer.events import Adjust, Give, Play, Reveal, TakeChain, Trick, TurnUp, Undone
from scorer.sheet import Adjustment, ScoreCell, ScoreSheet
from scorer.view import event_words, standings, with_names
from webui.chart import running_totals, score_chart_svg

PLAYERS = ("Ana", "Ben", "Cleo")


def sheet(rounds: list[list[int]], totals: list[int], adjustments: tuple[Adjustment, ...] = ()) -> ScoreSheet:
    return ScoreSheet(
        game="octoplus",
        players=PLAYERS,
        rounds=tuple(tuple(ScoreCell(p) for p in row) for row in rounds),
        adjustments=adjustments,
        totals=tuple(totals),
        finished=False,
        winners=(),
    )


def test_running_totals_add_up_the_rounds() -> None:
    assert running_totals(sheet([[5, 0, 12], [3, 7, 0]], [8, 7, 12])) == [[0, 5, 8], [0, 0, 7], [0, 12, 12]]


def test_running_totals_end_at_the_total_when_adjustments_changed_it() -> None:
    lines = running_totals(sheet([[5, 0, 12]], [9, 0, 12], (Adjustment(4, 1, 4, "x"),)))
    assert lines[0] == [0, 5, 9]
    assert lines[1] == [0, 0, 0]  # padded to the same length


def test_chart_has_one_line_per_player_and_escapes_names() -> None:
    evil = ScoreSheet("oktris", ("<b>", "Ben"), (), (), (3, 1), False, ())
    svg = score_chart_svg(evil, goal=88)
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count("<polyline") == 2
    assert "<title>&lt;b&gt;</title>" in svg and "<b>" not in svg


def test_chart_draws_the_goal_line_once_a_total_is_half_way() -> None:
    assert 'class="goal"' not in score_chart_svg(sheet([[40, 3, 0]], [40, 3, 0]), goal=88)
    assert 'class="goal"' in score_chart_svg(sheet([[44, 3, 0]], [44, 3, 0]), goal=88)


def test_seat_numbers_become_names_in_the_last_play() -> None:
    assert with_names("seat 1: 5 + 3 = 8, gives a card", PLAYERS) == "Ana: 5 + 3 = 8, gives a card"
    assert with_names("seat 2 gives a card to seat 3", PLAYERS) == "Ben gives a card to Cleo"
    assert with_names("round 2: seat 9 deals", PLAYERS) == "Round 2: seat 9 deals"
    assert (
        with_names("seat 1 wins trick 4 with AH (low) -> next high", PLAYERS)
        == "Ana wins trick 4 with A♥ (low) → next high"
    )


def test_events_in_words_name_the_players() -> None:
    three = OctoCard.number(3)
    assert event_words(TurnUp(three), PLAYERS) == "Turned up 3"
    assert event_words(Play(2, (three, OctoCard.parse("-2"))), PLAYERS) == "Ben plays 3 -2"
    assert event_words(Play(1, (OctoCard.parse("P"),)), PLAYERS) == "Ana plays Pass"
    assert event_words(Give(1, 3), PLAYERS) == "Ana gives a card to Cleo"
    assert event_words(TakeChain(3), PLAYERS) == "Cleo takes the +2 chain"
    assert event_words(Undone(4), PLAYERS) == "Undo of #4"
    assert event_words(Reveal(2, (three,)), PLAYERS) == "Ben reveals 3"
    assert event_words(Adjust(2, -3, "miscount"), PLAYERS) == "Ben -3: miscount"
    from scorer.cards import StdCard

    trick = Trick((StdCard.parse("8C"), StdCard.parse("AH"), StdCard.parse("TD")))
    assert event_words(trick, PLAYERS) == "Trick Ana 8♣  Ben A♥  Cleo 10♦"


def test_standings_order_by_the_game_and_share_places() -> None:
    s = sheet([], [12, 5, 12])
    assert [(r["name"], r["place"]) for r in standings(s, low_wins=True)] == [
        ("Ben", 1),
        ("Ana", 2),
        ("Cleo", 2),
    ]
    assert [(r["name"], r["place"]) for r in standings(s, low_wins=False)] == [
        ("Ana", 1),
        ("Cleo", 1),
        ("Ben", 3),
    ]
