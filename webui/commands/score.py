"""The ``octotable score`` command (being built)."""

from __future__ import annotations

import argparse
import sys

HELP = "not yet available"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No arguments yet."""
    parser.add_argument("rest", nargs="*", help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    """Say the command is not available yet; exit code 2."""
    sys.stderr.write("octotable score: not yet available\n")
    return 2
