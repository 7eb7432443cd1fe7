"""``octotable replay``: run a recorded frame folder through the scanner, watcher and scorer."""

from __future__ import annotations

import argparse
import sys

HELP = "replay a recorded frame folder through the real pipeline and print events and scores"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the replay command's arguments to ``parser``."""
    parser.add_argument("folder", metavar="DIR", help="a folder of frames (images in name order)")
    parser.add_argument("--game", choices=("octoplus", "oktris"), required=True, help="which game is played")
    parser.add_argument("--players", type=int, required=True, metavar="N", help="number of players")
    parser.add_argument("--templates", metavar="DIR", help="a template folder (default: built-in)")
    parser.add_argument("--calibration", metavar="FILE", help="a calibration file")
    parser.add_argument("--json", action="store_true", help="print the score sheet and events as JSON")


def run(args: argparse.Namespace) -> int:
    """Not yet available: prints a notice and returns 2."""
    print("octotable replay: not yet available", file=sys.stderr)
    return 2
