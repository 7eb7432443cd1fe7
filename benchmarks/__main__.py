"""Run every benchmark module in turn: ``python -m benchmarks [NAME ...]``."""

from __future__ import annotations

import pkgutil
import runpy
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    """Run the named benchmark modules (all of them when none is named)."""
    here = Path(__file__).parent
    names = argv or sorted(m.name for m in pkgutil.iter_modules([str(here)]) if not m.name.startswith("_"))
    for name in names:
        sys.stdout.write(f"\n== benchmarks.{name} ==\n")
        sys.stdout.flush()
        runpy.run_module(f"benchmarks.{name}", run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
