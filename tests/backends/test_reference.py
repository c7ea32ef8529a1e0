"""The reference backend: op-by-op NumPy, with in-place scatters only when provably safe."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import lazynum as lnp
from lazynum.backends import reference


@pytest.fixture(autouse=True)
def _on_the_reference_backend():
    """The default backend is llvm: these tests are about the reference backend."""
    with lnp.config(backend="numpy"):
        yield


def test_values_computed_before_a_write_keep_the_old_value():
    a = lnp.asarray(np.arange(6.0)) * 1.0
    before = a[::2] * 10.0            # reads the pre-write value; computed in the same run
    a[1:] = 0.0
    after = a * 1.0
    lnp.sync(before, after)
    np.testing.assert_array_equal(np.asarray(before), [0.0, 20.0, 40.0])
    np.testing.assert_array_equal(np.asarray(after), [0.0] * 6)


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(1, 6), st.floats(-5, 5)), min_size=1, max_size=8))
def test_random_slice_writes_with_interleaved_reads_match_numpy(writes):
    base = np.arange(6.0)
    lazy, ref = lnp.asarray(base) * 1.0, base * 1.0
    lazy_reads, ref_reads = [], []
    for start, stop, value in writes:
        lazy_reads.append(lazy[start:stop].sum() + lazy * 0.5)
        ref_reads.append(ref[start:stop].sum() + ref * 0.5)
        lazy[start:stop] = value
        ref[start:stop] = value
    lnp.sync(lazy, *lazy_reads)
    np.testing.assert_array_equal(np.asarray(lazy), ref)
    for got, want in zip(lazy_reads, ref_reads):
        np.testing.assert_array_equal(np.asarray(got), want)


def test_results_that_break_their_rules_are_internal_errors():
    from lazynum.array.arraytype import wrap
    from lazynum.expr import node as nodes
    from lazynum.expr.registry import Op
    liar = Op("liar", "elementwise", lambda args, attrs: (3,), lambda args, attrs: np.dtype(np.float64),
              lambda arrays, attrs: np.zeros(2), doc="returns the wrong shape")
    with pytest.raises(reference.InternalError):
        wrap(nodes.apply(liar, (lnp.asarray(np.zeros(3))._n(),))).sync()
