"""The game log notation: round trips, comments, headers, and errors that name the line."""

from __future__ import annotations

import pytest

from scorer.cards import OctoCard, StdCard
from scorer.errors import LogError, NotationError
from scorer.events import Adjust, Give, Play, Reveal, Source, TakeChain, Trick, TurnUp, Undone
from scorer.game import Game
from scorer.notation import Token, format_event, format_log, parse_event, parse_log, quote, tokenize
from scorer.octoplus import OctoplusRules, StartSpecial
from scorer.oktris import OktrisRules

OCTOPLUS_LOG = """\
# a hand-written Octoplus game
game octoplus
players Ana Ben Cleo
option start_special apply   # house rule
turnup 5
play 1 3            # 5 + 3 = 8
give 1 to 3
play 2 +2 @scanner
play 3 +2
play 1 2 note "answered the chain"
adjust Ben -5 "miscounted hand"
undo 7
"""


def octo(text: str) -> tuple[OctoCard, ...]:
    return tuple(OctoCard.parse(part) for part in text.split())


def test_a_hand_written_log_replays_with_defaults_names_and_comments() -> None:
    game = parse_log(OCTOPLUS_LOG)
    assert game.players == ("Ana", "Ben", "Cleo")
    assert game.rules == OctoplusRules(start_special=StartSpecial.APPLY)
    assert game.events == (
        TurnUp(OctoCard.number(5), seq=1),
        Play(1, octo("3"), seq=2),
        Give(1, 3, seq=3),
        Play(2, octo("+2"), seq=4, source=Source.SCANNER),
        Play(3, octo("+2"), seq=5),
        Play(1, octo("2"), seq=6, note="answered the chain"),
        Adjust(2, -5, "miscounted hand", seq=7),
        Undone(7, seq=8),
    )
    assert game.state.totals == (0, 0, 0)


def test_format_then_parse_gives_equal_rules_players_and_events() -> None:
    game = parse_log(OCTOPLUS_LOG)
    again = parse_log(format_log(game))
    assert (again.rules, again.players, again.events) == (game.rules, game.players, game.events)
    assert again.state == game.state


def test_the_formatter_writes_every_option_seq_and_source() -> None:
    text = format_log(Game.new(OktrisRules(target=50), ("Ana", "Ben Z")))
    assert 'players Ana "Ben Z"' in text
    for name, value in OktrisRules(target=50).options().items():
        assert f"option {name} {value}" in text
    game = Game.new(OktrisRules(), 2)
    game.apply(Trick((StdCard.parse("7S"), StdCard.parse("2C")), source=Source.SCANNER))
    assert "1: trick 7S 2C @scanner" in format_log(game)


@pytest.mark.parametrize(
    "event",
    [
        TurnUp(OctoCard.parse("P")),
        Play(2, octo("3 -2 7")),
        Give(1, 3),
        TakeChain(2),
        Reveal(2, octo("7 5 +2")),
        Reveal(1, ()),
        Reveal(3, octo("3 +2 " * 60)),
        Trick((StdCard.parse("7S"), StdCard.parse("2C"), StdCard.parse("8H"), StdCard.parse("AD"))),
        Undone(12),
        Adjust(2, -5, 'says "hi" # not a comment'),
        Adjust(1, 3, ""),
    ],
)
def test_every_event_kind_round_trips(event: object) -> None:
    text = format_event(event)  # type: ignore[arg-type]
    assert parse_event(tokenize(text), ("Ana", "Ben", "Cleo", "Dan")) == event


def test_quoted_words_use_json_escapes_and_bare_words_stay_bare() -> None:
    assert quote("Ana") == "Ana"
    assert quote("Ben Z") == '"Ben Z"'
    assert quote("@x") == '"@x"'
    assert tokenize('a "b \\"c\\"" # d') == [Token("a"), Token('b "c"', quoted=True)]


BAD_LINES = [
    ("play 1 9x", "not an Octoplus card"),
    ("give 1 3 4", "give"),
    ("fold 2", "unknown event 'fold'"),
    ("play 7 3", "no seat 7"),
    ("play Zed 3", "not a seat or player name"),
    ('adjust 1 -5 "open', "unterminated quote"),
    ("adjust 1 five x", "points must be a whole number"),
    ("play 2 3", "seat 1's turn"),
    ("9: play 1 3", "event numbered 9 where event 2 is due"),
    ("play 1 3 @camera", "unknown source"),
    ("option max_rounds 3", "header after the first event"),
]


@pytest.mark.parametrize(("line", "reason"), BAD_LINES)
def test_a_bad_line_raises_log_error_naming_its_line_and_reason(line: str, reason: str) -> None:
    text = "game octoplus\nplayers Ana Ben Cleo\n\nturnup 5\n" + line + "\n"
    with pytest.raises(LogError) as info:
        parse_log(text)
    assert info.value.line == 5
    assert info.value.text == line
    assert reason in info.value.reason
    assert str(info.value).startswith("line 5: ")


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("players Ana Ben\nturnup 5\n", 2, "which game"),
        ("game octoplus\nturnup 5\n", 2, "name the players"),
        ("game poker\n", 1, "unknown game"),
        ("game oktris\nplayers A B\noption target lots\n", 3, "target"),
        ("game oktris\nplayers A B\noption trumps hearts\n", 3, "unknown Oktris option"),
        ("game oktris\nplayers A B C D E\n", 2, "2-4 players"),
        ("game oktris\ngame oktris\n", 2, "second 'game'"),
    ],
)
def test_bad_headers_name_the_line(text: str, line: int, reason: str) -> None:
    with pytest.raises(LogError) as info:
        parse_log(text)
    assert info.value.line == line
    assert reason in info.value.reason


def test_a_log_without_events_is_a_new_game() -> None:
    game = parse_log("game oktris\nplayers Ana Ben\n")
    assert game.seq == 0 and game.rules == OktrisRules()


def test_tokenizer_rejects_a_bad_escape() -> None:
    with pytest.raises(NotationError, match="bad quoted text"):
        tokenize('"a \\q"')
