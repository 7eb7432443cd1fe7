"""The printable deck: real card size on A4, every card once per copy, the scanner's own faces."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from scanner.deck_pdf import CARD_MM, deck_counts, deck_pages, octoplus_counts, write_deck_pdf
from scanner.faces import render_face
from scorer.cards import MINUS2, PASS, PLUS2, DeckKind, OctoCard
from webui.cli import main


def _pdf_pages(path: Path) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", path.read_bytes()))


def test_default_octoplus_deck_has_74_cards() -> None:
    counts = octoplus_counts()
    assert sum(counts.values()) == 74
    assert counts[OctoCard.number(7)] == 8 and counts[PLUS2] == counts[MINUS2] == counts[PASS] == 6
    assert OctoCard.number(8) not in counts


def test_pdf_of_the_default_deck_has_nine_a4_pages(tmp_path: Path) -> None:
    out = tmp_path / "deck.pdf"
    assert write_deck_pdf(out, dpi=72) == 9
    assert out.read_bytes().startswith(b"%PDF")
    assert _pdf_pages(out) == 9
    # A4 in points is 595.3 x 841.9; at 72 dpi the pages round to whole points
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)", out.read_bytes())
    assert len(boxes) == 9
    assert all(abs(float(w) - 595.3) < 1.0 and abs(float(h) - 841.9) < 1.0 for w, h in boxes)


def test_oktris_deck_fills_four_pages_minus_four_slots() -> None:
    pages = deck_pages(deck_counts(DeckKind.OKTRIS), dpi=72)
    assert len(pages) == 4  # 32 cards, nine a page


def test_cards_are_printed_at_real_size_with_the_scanners_faces() -> None:
    dpi = 100
    page = deck_pages({OctoCard.number(3): 1}, dpi=dpi)[0]
    cw, ch = round(CARD_MM[0] / 25.4 * dpi), round(CARD_MM[1] / 25.4 * dpi)
    assert page.shape == (round(297 / 25.4 * dpi), round(210 / 25.4 * dpi), 3)
    ys, xs = np.nonzero(page.min(axis=2) < 200)
    # the first card sits at the top-left cell of the centred 3 x 3 grid
    x0 = (page.shape[1] - 3 * cw) // 2
    y0 = (page.shape[0] - 3 * ch) // 2
    cell = page[y0 : y0 + ch, x0 : x0 + cw].astype(np.int16)
    face = render_face(OctoCard.number(3), cw, ch).astype(np.int16)
    inner = (slice(3, ch - 3), slice(3, cw - 3))
    ink_page = cell[inner].min(axis=2) < 128
    ink_face = face[inner].min(axis=2) < 128
    assert (ink_page == ink_face).mean() > 0.99
    assert xs.size > 0 and ys.size > 0


def test_bad_counts_and_dpi_are_refused_naming_them() -> None:
    with pytest.raises(ValueError, match="dpi"):
        deck_pages({PASS: 1}, dpi=10)
    with pytest.raises(ValueError, match="negative"):
        deck_pages({PASS: -1})
    with pytest.raises(ValueError, match="empty"):
        deck_pages({PASS: 0})


def test_deck_command_writes_the_pdf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "small.pdf"
    code = main(
        [
            "deck",
            "--out",
            str(out),
            "--max-number",
            "3",
            "--copies",
            "2",
            "--special-copies",
            "1",
            "--dpi",
            "72",
        ]
    )
    assert code == 0
    assert _pdf_pages(out) == 1
    assert "9 cards on 1 pages" in capsys.readouterr().out


def test_deck_command_refuses_bad_options_with_exit_code_2(tmp_path: Path) -> None:
    assert main(["deck", "--out", str(tmp_path / "x.pdf"), "--max-number", "0"]) == 2
    assert not (tmp_path / "x.pdf").exists()
