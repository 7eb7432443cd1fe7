"""The examples of docs/game-log.md replay, print the score shown there, and list every option."""

from __future__ import annotations

import re
from pathlib import Path

from scorer.game import GAMES
from scorer.notation import parse_log
from webui.commands.score import render_sheet

DOC = Path(__file__).resolve().parents[2] / "docs" / "game-log.md"


def blocks() -> list[str]:
    return re.findall(r"```\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.DOTALL)


def test_every_example_log_of_the_docs_replays() -> None:
    logs = [block for block in blocks() if "\ngame " in block or block.startswith("game ")]
    games = {parse_log(block).name for block in logs}
    assert games == set(GAMES)


def test_the_documented_score_table_is_what_the_example_prints() -> None:
    texts = blocks()
    example = next(block for block in texts if "game octoplus" in block)
    printed = render_sheet(parse_log(example).score_sheet())
    assert printed in texts


def test_every_option_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    for _, rules_class in GAMES.values():
        for name in rules_class().options():
            assert f"| `{name}` |" in text, name
