"""Every relative link of the Markdown docs leads to a file of the tree and, with an anchor, to a
heading of that file (GitHub's anchor rule: lower case, punctuation dropped, spaces as hyphens)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} (.+?)\s*$", flags=re.MULTILINE)


def docs() -> list[Path]:
    return [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]


def study_contents() -> ModuleType:
    """``tools/study_contents.py``, a script outside the packages, loaded from its file."""
    spec = importlib.util.spec_from_file_location("study_contents", ROOT / "tools" / "study_contents.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


anchor = study_contents().anchor


def anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    return {anchor(title) for title in HEADING.findall(text)}


def broken_links(path: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # a web address or mailto: not checked offline
        file_part, _, fragment = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif fragment and linked.suffix == ".md" and fragment not in anchors(linked):
            broken.append(f"{target}: no such heading")
    return broken


@pytest.mark.parametrize("path", docs(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(path: Path) -> None:
    assert broken_links(path) == []


def test_a_broken_file_link_and_a_broken_anchor_are_both_reported(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    (tmp_path / "other.md").write_text("# Other\n\n## A section: with punctuation (2026)\n")
    page.write_text(
        "[ok](other.md#a-section-with-punctuation-2026) [gone](missing.md) "
        "[bad](other.md#no-such-part) [web](https://example.org/x)\n"
    )
    assert broken_links(page) == ["missing.md: no such file", "other.md#no-such-part: no such heading"]


def test_the_study_files_are_linked_from_the_benchmarks_page() -> None:
    page = (ROOT / "docs" / "BENCHMARKS.md").read_text(encoding="utf-8")
    studies = sorted(p.name for p in (ROOT / "docs" / "studies").glob("*.md"))
    assert studies, "docs/studies holds the scanner's studies"
    assert [name for name in studies if f"(studies/{name})" not in page] == []


def test_a_contents_list_is_written_from_the_headings_and_rewritten_when_they_change() -> None:
    tool = study_contents()
    text = "# Topic\n\nWhat it is about.\n\n## First: a study (2026)\n\ntext\n\n### Part two\n"
    listed = tool.with_contents(text)
    assert (
        "Contents:\n\n- [First: a study (2026)](#first-a-study-2026)\n  - [Part two](#part-two)\n" in listed
    )
    assert tool.with_contents(listed) == listed
    renamed = listed.replace("### Part two", "### Part three")
    assert "(#part-three)" in tool.with_contents(renamed)
    assert "(#part-two)" not in tool.with_contents(renamed)


def test_the_committed_contents_lists_are_current() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "study_contents.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout
