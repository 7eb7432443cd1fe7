"""``octotable serve``: run the table companion (the web page and the camera)."""

from __future__ import annotations

import argparse
import logging

HELP = "run the table companion: the live page on every phone, manual entry and the camera"

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the options of ``serve``."""
    parser.add_argument("--source", default="auto", help="auto|picamera|opencv:N|replay:DIR (default auto)")
    parser.add_argument("--game", choices=("octoplus", "oktris"), default="octoplus")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--port", type=int, default=8088)
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--data", default=None)
    parser.add_argument("--templates", default=None)
    parser.add_argument("--calibration", default=None)


def run(args: argparse.Namespace) -> int:
    """Not yet available; returns 2."""
    log.error("serve is not yet available")
    return 2
