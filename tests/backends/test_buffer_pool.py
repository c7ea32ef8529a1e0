"""The buffer pool (backends/buffer_pool.py): repeated sizes reuse freed buffers, a size seen
once is left to malloc, and a buffer anything still references is never handed out."""
import numpy as np

from lazynum.backends import buffer_pool


def _fresh_size(k):
    return (buffer_pool.MIN_POOLED_BYTES // 8 + 1000 + 37 * k,)


def test_a_repeated_size_is_pooled_and_reused_once_free():
    buffer_pool.clear()
    shape = _fresh_size(1)
    first = buffer_pool.empty(shape, np.float64)          # seen once: plain NumPy memory
    assert first.base is None
    second = buffer_pool.empty(shape, np.float64)         # asked again: a pooled buffer
    assert second.base is not None and second.shape == shape and second.dtype == np.float64
    raw = id(second.base)                   # (holding the buffer itself would keep it busy)
    reused_before = buffer_pool.stats["reused"]
    del second
    reused = buffer_pool.empty(shape, np.float64)
    assert id(reused.base) == raw and buffer_pool.stats["reused"] == reused_before + 1


def test_a_buffer_still_referenced_is_never_handed_out():
    buffer_pool.clear()
    shape = _fresh_size(2)
    buffer_pool.empty(shape, np.float64)
    held = buffer_pool.empty(shape, np.float64)
    view = held[10:]                        # a view keeps the raw buffer alive too
    del held
    other = buffer_pool.empty(shape, np.float64)
    assert other.base is not view.base
    other[:] = 1.0
    view[:] = 2.0
    assert (other == 1.0).all()


def test_small_arrays_come_from_numpy():
    small = buffer_pool.empty((3, 4), np.int32)
    assert small.base is None and small.shape == (3, 4) and small.dtype == np.int32
    assert not buffer_pool.pooled((3, 4), np.int32) and buffer_pool.pooled(_fresh_size(3), np.float64)
