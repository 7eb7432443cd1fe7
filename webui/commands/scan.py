"""``octotable scan``: find and identify the cards in still images.

With ``--json`` each image gives one line
``{"image": PATH, "ms": FLOAT, "cards": [{"card": "7H" | null, "confidence": 0.97,
"corners": [[x, y] x4], "top": true}]}``; without it, a heading line per image
and a readable line per card.  ``ms`` is the time spent finding and identifying
(decoding the file excluded).  An image that cannot be read gives an error line
on stderr; the other images are still scanned and the exit code is 1.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scanner.scan import ScanInputError, Scanner, ScanResult
from scanner.templates import TemplateError, Templates
from scorer.cards import DeckKind

HELP = "find and identify the cards in image files"

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the scan command's arguments to ``parser``."""
    parser.add_argument("--deck", choices=("oktris", "octoplus"), required=True, help="which deck is played")
    parser.add_argument(
        "--templates", metavar="DIR", help="a template folder (default: the built-in templates)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON line per image")
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="image files to scan")


def result_json(image: str, result: ScanResult) -> dict[str, Any]:
    """The JSON object of one scanned image."""
    return {
        "image": image,
        "ms": round(result.ms, 3),
        "cards": [
            {
                "card": None if d.card is None else str(d.card),
                "confidence": round(d.confidence, 4),
                "corners": [[round(x, 2), round(y, 2)] for x, y in d.corners],
                "top": d.top,
            }
            for d in result.detections
        ],
    }


def _text(image: str, result: ScanResult) -> list[str]:
    lines = [f"{image}: {len(result.detections)} card(s) in {result.ms:.1f} ms"]
    for d in result.detections:
        name = "?" if d.card is None else d.card.pretty
        cx, cy = d.centre
        where = "top" if d.top else "under"
        lines.append(f"  {name:>4}  confidence {d.confidence:.2f}  at ({cx:.0f}, {cy:.0f})  {where}")
    return lines


def _read(path: str) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """Decode an image file as BGR.

    Raises:
        ScanInputError: the file is missing or is not a readable image.
    """
    file = Path(path)
    if not file.is_file():
        raise ScanInputError(f"{path}: no such file")
    data = np.fromfile(file, dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise ScanInputError(f"{path}: not a readable image")
    return np.asarray(image, dtype=np.uint8)


def run(args: argparse.Namespace) -> int:
    """Scan every image; 0 when all were read, 1 when any could not be, 2 on bad templates."""
    deck = DeckKind(args.deck)
    templates: Templates | None = None
    if args.templates:
        try:
            templates = Templates.load(args.templates, deck)
        except TemplateError as exc:
            print(f"octotable scan: {exc}", file=sys.stderr)
            return 2
    scanner = Scanner(deck, templates)
    scanner.warm_up()
    failed = 0
    for path in args.images:
        try:
            result = scanner.scan(_read(path))
        except ScanInputError as exc:
            failed += 1
            message = str(exc) if str(exc).startswith(path) else f"{path}: {exc}"
            print(f"octotable scan: error: {message}", file=sys.stderr)
            continue
        if args.json:
            print(json.dumps(result_json(path, result)), flush=True)
        else:
            print("\n".join(_text(path, result)), flush=True)
    return 1 if failed else 0
