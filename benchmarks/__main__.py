"""Run every benchmark module in turn: ``python -m benchmarks [NAME ...]``.

Each module runs as its own command with no arguments (its defaults), as
``python -m benchmarks.NAME`` would; one that fails does not stop the others,
and the run's exit code says whether any failed.
"""

from __future__ import annotations

import pkgutil
import runpy
import sys
import traceback
from pathlib import Path


def main(argv: list[str]) -> int:
    """Run the named benchmark modules (all of them when none is named); 1 when any failed."""
    here = Path(__file__).parent
    names = argv or sorted(m.name for m in pkgutil.iter_modules([str(here)]) if not m.name.startswith("_"))
    failed: list[str] = []
    saved = sys.argv
    for name in names:
        sys.stdout.write(f"\n== benchmarks.{name} ==\n")
        sys.stdout.flush()
        sys.argv = [f"benchmarks.{name}"]
        try:
            runpy.run_module(f"benchmarks.{name}", run_name="__main__")
        except SystemExit as exc:
            if exc.code not in (None, 0):
                failed.append(f"{name} (exit {exc.code})")
        except Exception as exc:  # one broken benchmark must not hide the others' figures
            traceback.print_exc()
            failed.append(f"{name} ({type(exc).__name__})")
        finally:
            sys.argv = saved
    if failed:
        sys.stderr.write(f"benchmarks that failed: {', '.join(failed)}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
