"""The ``octotable`` command line: one console script, one module per subcommand."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from types import ModuleType

COMMANDS: tuple[str, ...] = ("serve", "scan", "calibrate", "replay", "simulate", "score", "deck")
"""Subcommand names; each is implemented by ``webui.commands.<name>``."""


def _load(name: str) -> ModuleType:
    return importlib.import_module(f"webui.commands.{name}")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, every subcommand included."""
    parser = argparse.ArgumentParser(
        prog="octotable", description="A camera-driven card table companion for Octoplus and Oktris."
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        module = _load(name)
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(_module=module)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` and run the chosen subcommand; returns the exit code."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        code: int = args._module.run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
