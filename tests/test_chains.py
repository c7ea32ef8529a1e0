"""Random op chains: the same NumPy code, run by NumPy and by lazynum, must agree.

Each step is written once against a namespace ``m`` (``numpy`` or ``lazynum``), which is
the promise of the project: ordinary NumPy code, unchanged.
"""
import numpy as np
from hypothesis import given, settings, strategies as st

import lazynum as lnp

from . import strategies as S

STEPS = {
    "neg": lambda m, x: -x,
    "abs_sqrt": lambda m, x: m.sqrt(m.abs(x)),
    "sin": lambda m, x: m.sin(x),
    "tanh_scale": lambda m, x: m.tanh(x) * 3.5 + 1.0,
    "square_clip": lambda m, x: m.clip(x * x, -10.0, 10.0),
    "floor": lambda m, x: m.floor(x),
    "max_scalar": lambda m, x: m.maximum(x, 0.25),
    "where": lambda m, x: m.where(x > 0, x, -2.0 * x),
    "transpose": lambda m, x: x.T,
    "reverse": lambda m, x: x[::-1],
    "stride": lambda m, x: x[:, ::2] if x.shape[1] > 1 else x,
    "reshape": lambda m, x: x.reshape(x.shape[1], x.shape[0]),
    "row_center": lambda m, x: x - x.mean(axis=1, keepdims=True) if x.size else x,
    "col_norm": lambda m, x: x / (m.abs(x).max(axis=0) + 1.0) if x.shape[0] else x,
    "cumsum": lambda m, x: m.cumsum(x, axis=0) * 0.1,
    "stack": lambda m, x: m.concatenate([x, x[:1] * 2.0], axis=0),
    "matmul": lambda m, x: (x @ x.T)[:, : x.shape[1]] * 0.01 if x.shape[1] <= x.shape[0] else x,
    "inplace_add": lambda m, x: _inplace_add(x),
    "slice_write": lambda m, x: _slice_write(x),
    "sort": lambda m, x: m.sort(x, axis=-1),
}


def _inplace_add(x):
    y = x.copy()
    y += 1.5
    return y


def _slice_write(x):
    y = x.copy()
    view = y[1:, :]
    view *= 0.5
    return y


def run(m, data, names):
    x = m.asarray(data)
    for name in names:
        x = STEPS[name](m, x)
    return x


@settings(max_examples=60)
@given(S.arrays(S.st.just(np.dtype(np.float64)), S.shapes(min_dims=2, max_dims=2, min_side=1, max_side=6),
                small=True),
       st.lists(st.sampled_from(sorted(STEPS)), min_size=1, max_size=12))
def test_random_chains_match_numpy_with_one_sync(data, names):
    lnp.reset_metrics()
    result = run(lnp, data, names)
    assert lnp.metrics()["syncs"] == 0, "building a chain never syncs"
    pending = result._pending_node() is not None     # views of input data need no compute
    got = np.asarray(result)
    assert lnp.metrics()["syncs"] == int(pending), "the whole chain runs in one sync"
    S.assert_same(got, run(np, data, names), rtol=1e-9, atol=1e-9)


@settings(max_examples=30)
@given(S.arrays(S.st.just(np.dtype(np.float64)), S.shapes(min_dims=2, max_dims=2, min_side=1, max_side=6),
                small=True),
       st.lists(st.sampled_from(sorted(STEPS)), min_size=1, max_size=12))
def test_random_chains_agree_on_both_backends(data, names):
    """The compiled backend (the default) and the reference backend, its oracle, agree."""
    compiled = np.asarray(run(lnp, data, names))
    with lnp.config(backend="numpy"):
        reference = np.asarray(run(lnp, data, names))
    S.assert_same(compiled, reference, rtol=1e-9, atol=1e-9)
