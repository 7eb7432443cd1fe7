"""One thread for the linear algebra library under NumPy's matrix products.

The reader's matrix products are small: one face vector (10 500 numbers) or a few index
patches against one row per template image, a fraction of a millisecond on one core.  An
OpenBLAS pool of threads splits each of them and then waits for its threads to wake; when the
other cores are busy (the camera's capture thread, the web server, a second scanner process,
the test suite's workers) a face read takes several milliseconds instead, and the waiting
threads burn the time of the cores they wait on.  Measured on real photos with templates
learned from them (2 cores, one other busy process): a quarter less CPU time per frame with one
thread.  So the scanner runs its products on the thread that calls it, as OpenCV runs there.
"""

from __future__ import annotations

import functools

from threadpoolctl import threadpool_limits


@functools.cache
def one_blas_thread() -> None:
    """Limit the BLAS library's pool to one thread for the rest of the process (once)."""
    threadpool_limits(limits=1, user_api="blas")


__all__ = ["one_blas_thread"]
