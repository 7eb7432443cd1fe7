"""``tools/opencv_probe.py``: one line per OpenCV call, the same on every run of one build."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run() -> list[str]:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "opencv_probe.py")],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return done.stdout.splitlines()


def test_the_probe_prints_a_digest_per_call_and_the_same_digests_twice() -> None:
    first = _run()
    assert first[0].startswith("opencv ")
    names = [line.split("  ")[0] for line in first[1:]]
    for name in ("imread jpeg", "warpPerspective linear (card cut)", "putText duplex"):
        assert name in names
    # each call's line ends in a 12-digit hex digest (and, for images, the mean)
    for line in first[1:]:
        digest = line[36:].split()[0]
        assert len(digest.split("+")[0]) == 12 and int(digest.split("+")[0], 16) >= 0, line
    assert _run() == first
