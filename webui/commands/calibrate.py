"""``octotable calibrate``: calibration tasks, one sub-subcommand each.

``octotable calibrate templates --deck oktris|octoplus --labels FILE.csv --out DIR``
learns a template folder from labelled photos of the user's own deck.
"""

from __future__ import annotations

import argparse
import sys

HELP = "calibrate the scanner for a table and a deck (templates, ...)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the calibrate command's sub-subcommands to ``parser``."""
    sub = parser.add_subparsers(dest="calibrate_command", metavar="TASK", required=True)
    templates = sub.add_parser(
        "templates",
        help="learn card templates from labelled photos",
        description="learn card templates from labelled photos (CSV columns file,label)",
    )
    templates.add_argument("--deck", choices=("oktris", "octoplus"), required=True, help="which deck")
    templates.add_argument("--labels", required=True, metavar="FILE.csv", help="CSV with columns file,label")
    templates.add_argument("--out", required=True, metavar="DIR", help="the template folder to write")


def run(args: argparse.Namespace) -> int:
    """Not yet available: prints a notice and returns 2."""
    print(f"octotable calibrate {args.calibrate_command}: not yet available", file=sys.stderr)
    return 2
