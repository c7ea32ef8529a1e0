"""The garbage collector while a large graph is pending (runtime/collector.py): full
collections wait for the sync, young ones run in large batches, and the user's thresholds
come back exactly."""
import gc

import numpy as np

import lazynum as lnp
from lazynum.runtime import collector


def _sync_something():
    """A sync puts deferred thresholds back (another test may have left a large graph)."""
    np.asarray(lnp.asarray(np.zeros(1)) + 1)


def _trace(n_ops):
    x = lnp.asarray(np.zeros(4))
    for _ in range(n_ops):
        x = x + 1.0
    return x


def test_full_collections_wait_for_the_sync_of_a_large_graph_then_thresholds_come_back():
    _sync_something()
    before = gc.get_threshold()
    gc.set_threshold(900, 11, 12)
    try:
        x = _trace(collector.LARGE_GRAPH_NODES + 10)
        assert collector.deferred()
        young, middle, full = gc.get_threshold()
        assert (young, middle) == (collector.YOUNG_BATCH, 11) and full > 10**6
        np.testing.assert_array_equal(np.asarray(x), np.full(4, collector.LARGE_GRAPH_NODES + 10.0))
        assert not collector.deferred() and gc.get_threshold() == (900, 11, 12)
    finally:
        gc.set_threshold(*before)


def test_a_small_graph_or_a_disabled_collector_is_left_alone():
    _sync_something()
    before = gc.get_threshold()
    x = _trace(100)
    assert not collector.deferred() and gc.get_threshold() == before
    np.asarray(x)
    gc.disable()
    try:
        x = _trace(collector.LARGE_GRAPH_NODES + 10)
        assert not collector.deferred() and gc.get_threshold() == before
        np.asarray(x)
    finally:
        gc.enable()
    assert gc.get_threshold() == before
