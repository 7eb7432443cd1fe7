"""``octotable deck --out FILE.pdf``: print the project's own card faces as a deck to cut out."""

from __future__ import annotations

import argparse
import logging

from scanner.deck_pdf import deck_counts, octoplus_counts, write_deck_pdf
from scorer.cards import DeckKind

HELP = "write a printable deck (A4 PDF, cards at 63 x 88 mm with cut marks) of the scanner's own faces"

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the options of ``deck``."""
    parser.add_argument("--out", required=True, metavar="FILE.pdf", help="the PDF file to write")
    parser.add_argument(
        "--deck", choices=[d.value for d in DeckKind], default=DeckKind.OCTOPLUS.value, help="which deck"
    )
    parser.add_argument("--max-number", type=int, default=7, help="Octoplus: highest number card (default 7)")
    parser.add_argument(
        "--copies", type=int, default=8, help="Octoplus: copies of each number card (default 8)"
    )
    parser.add_argument(
        "--special-copies", type=int, default=6, help="Octoplus: copies of +2, -2 and Pass each (default 6)"
    )
    parser.add_argument("--dpi", type=int, default=300, help="resolution of the pages (72..600, default 300)")


def run(args: argparse.Namespace) -> int:
    """Write the PDF; exit code 2 for bad options, 1 when the file cannot be written."""
    try:
        if DeckKind(args.deck) is DeckKind.OKTRIS:
            counts = deck_counts(DeckKind.OKTRIS)
        else:
            counts = octoplus_counts(args.max_number, args.copies, args.special_copies)
        pages = write_deck_pdf(args.out, counts, args.dpi)
    except ValueError as error:
        log.error("deck: %s", error)
        return 2
    except OSError as error:
        log.error("deck: cannot write %s: %s", args.out, error)
        return 1
    print(f"{args.out}: {sum(counts.values())} cards on {pages} pages")
    return 0
