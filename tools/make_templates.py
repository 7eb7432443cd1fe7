"""Build the shipped template folders from the project's own rendered faces.

Run from the repository root: ``.venv/bin/python -m tools.make_templates``.
It rewrites ``scanner/data/templates/oktris/`` and ``.../octoplus/``: one
canonical 200x280 face per card of each deck (``expected_cards``, plus the
decoys 9-K for Oktris), drawn by ``scanner.faces.render_face``.
"""

from __future__ import annotations

import argparse
import logging
import shutil
from pathlib import Path

from scanner.faces import render_face
from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH
from scanner.templates import BUILTIN_DIR, Templates, decoy_cards, expected_cards
from scorer.cards import DeckKind

log = logging.getLogger(__name__)


def build(out_root: Path = BUILTIN_DIR) -> list[Path]:
    """Render and save the templates of both decks under ``out_root``; returns the folders."""
    folders = []
    for deck in DeckKind:
        cards = expected_cards(deck) + decoy_cards(deck)
        faces = {card: (render_face(card, CARD_WIDTH, CARD_HEIGHT),) for card in cards}
        folder = out_root / deck.value
        if folder.exists():
            shutil.rmtree(folder)
        folders.append(Templates(deck, faces, source=f"rendered:{deck.value}").save(folder))
        log.info("wrote %d templates to %s", len(faces), folder)
    return folders


def main() -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=BUILTIN_DIR, help="root folder (default: %(default)s)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    build(args.out)


if __name__ == "__main__":
    main()
