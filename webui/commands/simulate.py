"""``octotable simulate``: play a random legal game and print its log and score sheet."""

from __future__ import annotations

import argparse
import random
import sys

from scorer.errors import ScorerError
from scorer.game import GAMES, rules_for
from scorer.notation import format_log
from scorer.simulate import simulate
from webui.commands.score import write_sheet

HELP = "play a random legal game and print its game log and score sheet"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the options of ``simulate``."""
    parser.add_argument("--game", choices=tuple(GAMES), default="octoplus")
    parser.add_argument("--players", type=int, default=4, help="number of seats (default 4)")
    parser.add_argument("--seed", type=int, default=0, help="random seed; the same seed plays the same game")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a house rule, e.g. max_rounds=3 (repeatable; see docs/game-log.md)",
    )
    parser.add_argument("--json", action="store_true", help="print only the score sheet as JSON")


def run(args: argparse.Namespace) -> int:
    """Simulate the game; exit code 2 for bad options or player counts.

    The output is itself a game log: the score sheet follows as comment lines.
    """
    options: dict[str, str] = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep or not name:
            sys.stderr.write(f"octotable simulate: --option {item!r}: expected NAME=VALUE\n")
            return 2
        options[name.strip()] = value.strip()
    try:
        game = simulate(rules_for(args.game, options), args.players, random.Random(args.seed))
    except ScorerError as error:
        sys.stderr.write(f"octotable simulate: {error}\n")
        return 2
    if not args.json:
        sys.stdout.write(format_log(game) + "#\n")
    write_sheet(game.score_sheet(), as_json=args.json, comment=True)
    return 0
