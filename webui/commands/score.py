"""``octotable score LOGFILE [--json]``: replay a game log and print its score sheet."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from scorer.errors import LogError
from scorer.notation import parse_log
from scorer.sheet import ScoreSheet

HELP = "replay a game log (see docs/game-log.md) and print the score sheet"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the options of ``score``."""
    parser.add_argument("log", metavar="LOGFILE", help="the game log to replay ('-' reads standard input)")
    parser.add_argument("--json", action="store_true", help="print the score sheet as one JSON object")


def _cell(points: int, rule: str | None) -> str:
    return f"{points} [{rule}]" if rule else str(points)


def render_sheet(sheet: ScoreSheet) -> str:
    """The score sheet as a readable table; a cell names the rule that changed it (``0 [void 8]``)."""
    label = "Deal" if sheet.game == "oktris" else "Round"
    header = [label, *sheet.players]
    rows = [[str(n), *(_cell(c.points, c.rule) for c in row)] for n, row in enumerate(sheet.rounds, 1)]
    adjusted = [0] * len(sheet.players)
    for adjustment in sheet.adjustments:
        adjusted[adjustment.seat - 1] += adjustment.points
    if sheet.game == "oktris" and not sheet.finished:
        # Oktris totals are the deals, the adjustments and the deal in play.
        scored = [sum(row[i].points for row in sheet.rounds) + adjusted[i] for i in range(len(adjusted))]
        running = [total - done for total, done in zip(sheet.totals, scored, strict=True)]
        if any(running):
            rows.append([f"{len(sheet.rounds) + 1} (so far)", *(str(p) for p in running)])
    if sheet.adjustments:
        rows.append(["Adjust", *(f"{p:+d}" if p else "" for p in adjusted)])
    rows.append(["Total", *(str(t) for t in sheet.totals)])
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(text.ljust(w) for text, w in zip(r, widths, strict=True)).rstrip() for r in [header, *rows]
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.insert(len(lines) - 1, "  ".join("-" * w for w in widths))
    for a in sheet.adjustments:
        reason = f": {a.reason}" if a.reason else ""
        lines.append(f"adjustment (event {a.seq}) {sheet.players[a.seat - 1]} {a.points:+d}{reason}")
    if sheet.finished:
        names = ", ".join(sheet.players[s - 1] for s in sheet.winners)
        verb = "wins" if len(sheet.winners) == 1 else "share the win"
        lines.append(f"Game over: {names} {verb}.")
    else:
        done = len(sheet.rounds)
        lines.append(f"Game in progress: {done} {label.lower()}{'' if done == 1 else 's'} scored.")
    return "\n".join(lines) + "\n"


def write_sheet(sheet: ScoreSheet, *, as_json: bool, comment: bool = False) -> None:
    """Print the score sheet: one JSON object (``sheet.to_json()``) or the table of :func:`render_sheet`,
    as ``# `` comment lines with ``comment`` (so that the table can follow a game log)."""
    if as_json:
        sys.stdout.write(json.dumps(sheet.to_json(), ensure_ascii=False) + "\n")
        return
    table = render_sheet(sheet)
    if comment:
        table = "".join(f"# {line}".rstrip() + "\n" for line in table.splitlines())
    sys.stdout.write(table)


def run(args: argparse.Namespace) -> int:
    """Replay the log; print the sheet.  Exit code 1 for an unreadable or bad log."""
    try:
        text = sys.stdin.read() if args.log == "-" else Path(args.log).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        sys.stderr.write(f"octotable score: cannot read {args.log}: {error}\n")
        return 1
    try:
        game = parse_log(text)
    except LogError as error:
        sys.stderr.write(f"octotable score: {args.log}: {error}\n")
        return 1
    write_sheet(game.score_sheet(), as_json=args.json)
    return 0
