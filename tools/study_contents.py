"""Write the contents list of each study file in ``docs/studies/`` from its headings.

Run from the repository root: ``.venv/bin/python tools/study_contents.py [--check]``. A study
file opens with its title, a few lines on its topic, then a ``Contents:`` list linking every
``##`` and ``###`` heading (GitHub's anchors), then the sections. ``--check`` writes nothing and
exits with status 1 when a list is out of date.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STUDIES = ROOT / "docs" / "studies"
CONTENTS = "Contents:"


def anchor(title: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")


def with_contents(text: str) -> str:
    """The study text with its contents list written from its headings (added if missing)."""
    lines = text.rstrip("\n").split("\n")
    first = next((i for i, line in enumerate(lines) if line.startswith("## ")), None)
    if first is None:
        return text
    head = lines[:first]
    if CONTENTS in head:
        head = head[: head.index(CONTENTS)]
    while head and not head[-1].strip():
        head.pop()
    entries = []
    for line in lines[first:]:
        match = re.match(r"^(##|###) (.*)$", line)
        if match:
            indent = "" if match.group(1) == "##" else "  "
            entries.append(f"{indent}- [{match.group(2)}](#{anchor(match.group(2))})")
    return "\n".join([*head, "", CONTENTS, "", *entries, "", *lines[first:]]) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only report stale lists")
    args = parser.parse_args(argv)
    stale = []
    for path in sorted(STUDIES.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        new = with_contents(text)
        if new != text:
            stale.append(path.relative_to(ROOT))
            if not args.check:
                path.write_text(new, encoding="utf-8")
    verb = "out of date" if args.check else "rewritten"
    for path in stale:
        print(f"{path}: contents {verb}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
