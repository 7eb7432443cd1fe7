"""The scanner runs NumPy's matrix products on its own thread (scanner.threads)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_PROBE = """
import json
from threadpoolctl import threadpool_info
import numpy as np
before = [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]
from scanner.scan import Scanner
from scorer.cards import DeckKind
Scanner(DeckKind.OKTRIS)
after = [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]
print(json.dumps({"before": before, "after": after}))
"""


def test_a_scanner_leaves_numpy_one_blas_thread() -> None:
    # a fresh process that asks for two BLAS threads: once a scanner exists, every BLAS pool
    # loaded (NumPy's, and OpenCV's where its wheel brings one) has one
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    env["OPENBLAS_NUM_THREADS"] = "2"
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-c", _PROBE],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    pools = json.loads(done.stdout.strip().splitlines()[-1])
    assert pools["before"], "NumPy loaded no BLAS library that threadpoolctl knows"
    assert max(pools["before"]) == 2
    assert pools["after"] and set(pools["after"]) == {1}
