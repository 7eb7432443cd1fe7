"""Suite-wide collection order: the long tests first.

``make test`` runs the suite on two workers (pytest-xdist, ``--dist loadgroup``); a long
test handed out last keeps one worker busy after the other has finished.  So the tests that
share one long module-scoped fixture (they carry one ``xdist_group``, so that fixture is made
once, on one worker) come first, then the tests marked ``slow``, then the rest, each part in
its usual order.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> tuple[bool, bool]:
        return item.get_closest_marker("xdist_group") is None, item.get_closest_marker("slow") is None

    items.sort(key=rank)  # a stable sort
