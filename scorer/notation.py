"""The game log text format: a whole game, one event per line.

See ``docs/game-log.md`` for the format.  In short::

    # a comment; blank lines are ignored
    game octoplus
    players Ana Ben Cleo
    option start_special redraw
    1: turnup 5 @manual
    2: play 1 3 2 @scanner
    3: give 1 to 3 @manual note "slow hands"
    4: undo 3 @manual
    5: adjust 2 -5 @manual "miscounted hand"

``parse_log(format_log(game))`` gives a game with equal rules, players and events.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from scorer.cards import OctoCard, StdCard
from scorer.errors import LogError, NotationError, ScorerError
from scorer.events import Adjust, Event, Give, Play, Reveal, Source, TakeChain, Trick, TurnUp, Undone
from scorer.game import Game, rules_for

_TOKEN = re.compile(r'\s*(?:(#.*)|("(?:[^"\\]|\\.)*")|([^\s"#]+))')
_BARE = re.compile(r'[^\s"#]+')
_SEQ = re.compile(r"^([0-9]+):$")
_ANY = 1 << 31
"""No upper limit on the number of arguments (a hand may grow large)."""


@dataclass(frozen=True)
class Token:
    """One word of a log line; ``quoted`` if it was written in double quotes."""

    text: str
    quoted: bool = False


def tokenize(line: str) -> list[Token]:
    """Split a line into words; ``#`` outside quotes starts a comment.

    Quoted words use JSON string syntax (``"a \\"b\\""``).

    Raises:
        NotationError: an unterminated or malformed quoted word.
    """
    tokens: list[Token] = []
    pos = 0
    while pos < len(line):
        if not line[pos:].strip():
            break
        match = _TOKEN.match(line, pos)
        if match is None or match.end() == pos:
            raise NotationError(f"unterminated quote at column {pos + 1}")
        comment, quoted, bare = match.groups()
        if comment is not None:
            break
        if quoted is not None:
            try:
                tokens.append(Token(json.loads(quoted, strict=False), quoted=True))
            except json.JSONDecodeError as error:
                raise NotationError(f"bad quoted text {quoted}: {error.msg}") from None
        else:
            tokens.append(Token(bare))
        pos = match.end()
    return tokens


def quote(text: str) -> str:
    """``text`` as one log word: bare if it can be, else double-quoted."""
    bare = _BARE.fullmatch(text) and text.isprintable() and not text.startswith("@")
    if bare and not _SEQ.match(text):
        return text
    return _quoted(text)


def _escape(char: str) -> str:
    if char.isprintable() or char == " ":
        return char
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _quoted(text: str) -> str:
    """``text`` double-quoted with JSON escapes; every unprintable character escaped."""
    return "".join(_escape(char) for char in json.dumps(text, ensure_ascii=False))


# --- events ---------------------------------------------------------------


def format_event(event: Event) -> str:
    """One event as a log line body (no seq, source or note): ``play 1 3 2``."""
    if isinstance(event, TurnUp):
        return f"turnup {event.card}"
    if isinstance(event, Play):
        return " ".join([f"play {event.seat}", *(str(c) for c in event.cards)])
    if isinstance(event, Give):
        return f"give {event.seat} to {event.to}"
    if isinstance(event, TakeChain):
        return f"takechain {event.seat}"
    if isinstance(event, Reveal):
        return " ".join([f"reveal {event.seat}", *(str(c) for c in event.cards)])
    if isinstance(event, Trick):
        return " ".join(["trick", *(str(c) for c in event.cards)])
    if isinstance(event, Undone):
        return f"undo {event.target}"
    return f"adjust {event.seat} {event.points:+d} {_quoted(event.reason)}"


def format_line(event: Event) -> str:
    """One event as a full log line: ``12: play 2 +2 @scanner note "..."``."""
    line = f"{event.seq}: {format_event(event)} @{event.source.value}"
    if event.note:
        line += f" note {_quoted(event.note)}"
    return line


def _seat(token: Token, players: Sequence[str]) -> int:
    text = token.text
    if text.isdigit():
        seat = int(text)
        if not 1 <= seat <= len(players):
            raise NotationError(f"no seat {seat}: the seats are 1..{len(players)}")
        return seat
    for index, name in enumerate(players):
        if name.casefold() == text.casefold():
            return index + 1
    raise NotationError(f"not a seat or player name: {text!r}")


def _int(token: Token, what: str) -> int:
    if not re.fullmatch(r"[+-]?[0-9]+", token.text):
        raise NotationError(f"{what} must be a whole number, got {token.text!r}")
    return int(token.text)


def _arity(verb: str, args: list[Token], low: int, high: int | None = None) -> None:
    high = low if high is None else high
    if not low <= len(args) <= high:
        want = str(low) if low == high else f"{low} or more" if high == _ANY else f"{low}..{high}"
        raise NotationError(f"{verb} takes {want} argument(s), got {len(args)}")


def parse_event(tokens: Sequence[Token], players: Sequence[str], *, seq: int = 0) -> Event:
    """An event from the words of a line (seq prefix already removed).

    Trailing words may set the source (``@scanner`` / ``@manual``, default manual)
    and a note (``note "text"``).

    Raises:
        NotationError: an unknown verb, a wrong number of arguments, a bad card or seat.
    """
    words = list(tokens)
    source = Source.MANUAL
    note = ""
    rest: list[Token] = []
    i = 0
    while i < len(words):
        word = words[i]
        if not word.quoted and word.text.startswith("@"):
            try:
                source = Source(word.text[1:].lower())
            except ValueError:
                raise NotationError(f"unknown source {word.text!r} (expected @scanner or @manual)") from None
        elif not word.quoted and word.text.lower() == "note" and i > 0:
            if i + 1 >= len(words):
                raise NotationError("note needs a text after it")
            note = words[i + 1].text
            i += 1
        else:
            rest.append(word)
        i += 1
    if not rest:
        raise NotationError("empty event")
    return _event(rest[0].text.lower(), rest[1:], players, _Meta(seq=seq, source=source, note=note))


class _Meta(TypedDict):
    seq: int
    source: Source
    note: str


def _event(verb: str, args: list[Token], players: Sequence[str], m: _Meta) -> Event:
    if verb == "turnup":
        _arity(verb, args, 1)
        return TurnUp(OctoCard.parse(args[0].text), **m)
    if verb == "play":
        _arity(verb, args, 2, _ANY)
        cards = tuple(OctoCard.parse(a.text) for a in args[1:])
        return Play(_seat(args[0], players), cards, **m)
    if verb == "give":
        if len(args) == 3 and args[1].text.lower() == "to":
            args = [args[0], args[2]]
        _arity(verb + " (SEAT to SEAT)", args, 2)
        return Give(_seat(args[0], players), _seat(args[1], players), **m)
    if verb == "takechain":
        _arity(verb, args, 1)
        return TakeChain(_seat(args[0], players), **m)
    if verb == "reveal":
        _arity(verb, args, 1, _ANY)
        cards = tuple(OctoCard.parse(a.text) for a in args[1:])
        return Reveal(_seat(args[0], players), cards, **m)
    if verb == "trick":
        _arity(verb, args, 1, _ANY)
        return Trick(tuple(StdCard.parse(a.text) for a in args), **m)
    if verb == "undo":
        _arity(verb, args, 1)
        return Undone(_int(args[0], "the event to undo"), **m)
    if verb == "adjust":
        _arity(verb + " (SEAT POINTS REASON)", args, 2, 3)
        reason = args[2].text if len(args) == 3 else ""
        return Adjust(_seat(args[0], players), _int(args[1], "points"), reason, **m)
    raise NotationError(
        f"unknown event {verb!r} (expected turnup, play, give, takechain, reveal, trick, undo or adjust)"
    )


# --- whole logs -------------------------------------------------------------


def format_log(game: Game) -> str:
    """The whole game as log text: header, every option, every event with seq and source."""
    lines = [
        "# octotable game log",
        f"game {game.name}",
        "players " + " ".join(quote(name) for name in game.players),
    ]
    lines += [f"option {name} {quote(value)}" for name, value in game.rules.options().items()]
    lines += [format_line(event) for event in game.events]
    return "\n".join(lines) + "\n"


def parse_log(text: str) -> Game:
    """The game a log text describes, every event applied.

    Header lines (``game``, ``players``, ``option``) come before the first event;
    options not given keep their defaults.  An event line may start with its seq
    (``12:``), which must be the event's position in the log.

    Raises:
        LogError: a line that cannot be parsed, or an event the rules do not
            allow; ``line`` is its 1-based line number, ``reason`` says why.
    """
    game_name: str | None = None
    players: tuple[str, ...] | None = None
    options: dict[str, str] = {}
    game: Game | None = None
    header_line = 0
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    for number, line in enumerate(lines, start=1):
        try:
            tokens = tokenize(line)
            if not tokens:
                continue
            head = tokens[0].text.lower() if not tokens[0].quoted else ""
            if head in ("game", "players", "option"):
                if game is not None:
                    raise NotationError(f"{head!r} header after the first event")
                header_line = number
                if head == "game":
                    _arity("game", tokens[1:], 1)
                    if game_name is not None:
                        raise NotationError("a second 'game' line")
                    game_name = tokens[1].text.lower()
                    rules_for(game_name)  # checks the name
                elif head == "players":
                    if players is not None:
                        raise NotationError("a second 'players' line")
                    if len(tokens) < 2:
                        raise NotationError("players needs at least one name")
                    players = tuple(t.text for t in tokens[1:])
                else:
                    _arity("option (NAME VALUE)", tokens[1:], 2)
                    options[tokens[1].text] = tokens[2].text
                continue
            if game is None:
                game = _start(game_name, players, options)
            seq_match = _SEQ.match(tokens[0].text) if not tokens[0].quoted else None
            if seq_match:
                seq = int(seq_match.group(1))
                if seq != game.seq + 1:
                    raise NotationError(f"event numbered {seq} where event {game.seq + 1} is due")
                tokens = tokens[1:]
            game.apply(parse_event(tokens, game.players, seq=game.seq + 1))
        except ScorerError as error:
            raise LogError(number, line, str(error)) from error
    if game is None:
        try:
            game = _start(game_name, players, options)
        except ScorerError as error:
            last = header_line or len(lines)
            raise LogError(last, lines[last - 1] if lines else "", str(error)) from error
    return game


def _start(game_name: str | None, players: tuple[str, ...] | None, options: dict[str, str]) -> Game:
    if game_name is None:
        raise NotationError("the log does not say which game ('game octoplus' or 'game oktris')")
    if players is None:
        raise NotationError("the log does not name the players ('players Ana Ben ...')")
    return Game.new(rules_for(game_name, options), players)
