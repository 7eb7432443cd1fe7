"""``octotable scan``: find and identify the cards in still images."""

from __future__ import annotations

import argparse
import sys

HELP = "find and identify the cards in image files"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the scan command's arguments to ``parser``."""
    parser.add_argument("--deck", choices=("oktris", "octoplus"), required=True, help="which deck is played")
    parser.add_argument("--templates", metavar="DIR", help="a template folder (default: built-in)")
    parser.add_argument("--json", action="store_true", help="print one JSON line per image")
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="image files to scan")


def run(args: argparse.Namespace) -> int:
    """Not yet available: prints a notice and returns 2."""
    print("octotable scan: not yet available", file=sys.stderr)
    return 2
