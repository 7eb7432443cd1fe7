"""Suite-wide collection order: the long tests first.

``make test`` runs the suite on two workers, a test file at a time (pytest-xdist,
``--dist loadfile --no-loadscope-reorder``: a file's module-scoped fixtures are made once,
on one worker).  A long file handed out last keeps one worker busy after the other has
finished, so the files are handed out in this order: the files marked
``slow(longest=True)`` first, then the files holding tests marked ``slow``, then the rest,
each part in its usual order.  (``--dist loadgroup`` would keep a group of tests on one
worker, but pytest-xdist 3.8 no longer groups them under pytest 9.2: pytest-xdist issue
1386.)
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> tuple[bool, bool]:
        slow = item.get_closest_marker("slow")
        return slow is None or not slow.kwargs.get("longest", False), slow is None

    items.sort(key=rank)  # a stable sort
