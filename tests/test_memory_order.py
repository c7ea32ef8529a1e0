"""Memory order of new arrays, differential against NumPy through aliasing.

NumPy gives each new array a memory order (C, Fortran, or for 'K' the source's order):
``astype``, ``copy``, ``array``/``asarray``, the ``*_like`` functions, elementwise ufuncs and
creation with ``order='F'``.  The order decides later view-or-copy answers: ``reshape(-1)``
of a Fortran-ordered array copies, of a C-ordered one it is a view.  Each case makes the
same array in NumPy and lazynum, takes ``transpose(p).reshape(-1)`` for every axis
permutation ``p`` (a view exactly for the permutation the memory follows), writes new
values through the array, and compares every one of those results with NumPy's.
"""
import itertools
import random
import warnings

import numpy as np
import pytest

import lazynum as lnp

from . import strategies as S


def _random_layout(rng):
    """(root, view function): a window with transposes, steps (negative too), size-1 and
    broadcast axes onto a root of distinct values."""
    ndim = rng.randint(0, 3)
    shape = [rng.choice([1, 2, 3, 4]) for _ in range(ndim)]
    root = np.arange(float(np.prod([2 * d for d in shape]) or 1)).reshape([2 * d for d in shape])
    steps = tuple(slice(None, None, rng.choice([1, 2, -1, -2])) for _ in shape)
    perm = rng.sample(range(ndim), ndim)
    broadcast = rng.randrange(ndim) if ndim and rng.random() < 0.2 else None

    def view(r):
        v = r[steps][tuple(slice(0, d) for d in shape)].transpose(perm)
        if broadcast is not None:
            module = lnp if isinstance(v, lnp.ndarray) else np
            v = module.broadcast_to(v[(slice(None),) * broadcast + (slice(0, 1),)], v.shape)
        return v
    return root, view


PRODUCERS = {
    "astype other dtype": lambda m, a: a.astype(np.float32),
    "astype same dtype": lambda m, a: a.astype(np.float64),
    "astype order C": lambda m, a: a.astype(np.int32, order="C"),
    "astype order F": lambda m, a: a.astype(np.int32, order="F"),
    "astype order A": lambda m, a: a.astype(np.int32, order="A"),
    "copy function": lambda m, a: m.copy(a),
    "copy function order A": lambda m, a: m.copy(a, order="A"),
    "copy method": lambda m, a: a.copy(),
    "copy method order K": lambda m, a: a.copy(order="K"),
    "copy method order F": lambda m, a: a.copy(order="F"),
    "array": lambda m, a: m.array(a),
    "array dtype": lambda m, a: m.array(a, dtype=np.int64),
    "array order F": lambda m, a: m.array(a, order="F"),
    "asarray dtype": lambda m, a: m.asarray(a, dtype=np.float32),
    "asarray order C": lambda m, a: m.asarray(a, order="C"),
    "asarray order F": lambda m, a: m.asarray(a, order="F"),
    "asarray copy": lambda m, a: m.asarray(a, copy=True),
    "ascontiguousarray": lambda m, a: m.ascontiguousarray(a),
    "zeros_like": lambda m, a: m.zeros_like(a),
    "ones_like dtype": lambda m, a: m.ones_like(a, dtype=np.int16),
    "empty_like order A": lambda m, a: m.empty_like(a, order="A"),
    "full_like": lambda m, a: m.full_like(a, 5),
    "zeros_like new shape": lambda m, a: m.zeros_like(a, shape=a.shape[::-1]),
    "negative": lambda m, a: m.negative(a),
    "add scalar": lambda m, a: a + 1.5,
    "add itself": lambda m, a: a + a,
    "add transposed": lambda m, a: a + a.T if a.ndim == 2 and a.shape[0] == a.shape[1] else a * 2,
    "comparison": lambda m, a: a > 3,
    "where": lambda m, a: m.where(a > 3, a, 0.5),
    "clip": lambda m, a: m.clip(a, 1, 5),
    "zeros order F": lambda m, a: m.zeros(a.shape, order="F"),
    "full order F": lambda m, a: m.full(a.shape, 2.0, order="F"),
}


def _aliasing_results(m, produced):
    """Reset ``produced``, take every transposed ravel, then write new values through it."""
    produced[...] = 0
    raveled = [produced.transpose(p).reshape(-1)
               for p in itertools.permutations(range(produced.ndim))]
    produced[...] = (np.arange(produced.size).reshape(produced.shape) + 1).astype(produced.dtype)
    return raveled


@pytest.mark.parametrize("producer", list(PRODUCERS))
def test_new_array_memory_order_matches_numpy(producer):
    rng = random.Random(producer)
    make = PRODUCERS[producer]
    for _ in range(12):
        root, view = _random_layout(rng)
        np_source, lz_source = view(root.copy()), view(lnp.asarray(root))
        expected, result = make(np, np_source), make(lnp, lz_source)
        if not expected.flags.writeable:
            continue
        if not producer.startswith("empty"):        # NumPy's empty memory is arbitrary
            S.assert_same(result, expected)
        assert result.flags.c_contiguous == expected.flags.c_contiguous, np_source.strides
        assert result.flags["F_CONTIGUOUS"] == expected.flags["F_CONTIGUOUS"], np_source.strides
        for got, want in zip(_aliasing_results(lnp, result), _aliasing_results(np, expected)):
            S.assert_same(got, want)


def test_reported_astype_of_transpose_then_reshape_copies():
    b = lnp.asarray(np.arange(6, dtype="int8").reshape(2, 3)).T.astype("int16")
    w = b.reshape(-1)
    b.fill(0)
    S.assert_same(w, np.array([0, 3, 1, 4, 2, 5], dtype="int16"))


@pytest.mark.parametrize("make", [lambda x: x.T, lambda x: x[:, ::2].T, lambda x: np.asfortranarray(x)])
def test_asarray_of_numpy_array_keeps_its_memory_order(make):
    """``numpy.asarray(x)`` is ``x`` itself: a lazy array made from a Fortran-ordered or
    transposed NumPy array must reshape-copy where NumPy's reshape of ``x`` does."""
    x = make(np.arange(24.).reshape(4, 6))
    expected, result = x.copy(order="K"), lnp.asarray(x)
    for got, want in zip(_aliasing_results(lnp, result), _aliasing_results(np, expected)):
        S.assert_same(got, want)


def test_order_arguments_are_checked_as_numpy():
    a = lnp.zeros((2, 3))
    for call in (lambda m: m.zeros((2, 3), order="K"), lambda m: m.ones(2, order="A"),
                 lambda m: m.copy(m.zeros(2), order="X"), lambda m: m.zeros(2).astype(int, order="Q")):
        S.same_error(lambda: call(lnp), lambda: call(np))
    assert a.copy(order=None).flags.c_contiguous


def _random_window(rng, shape, root):
    """A window of ``shape`` onto ``root`` (a NumPy or lazynum array of side 8 in every
    axis): steps, an axis permutation, and sometimes a broadcast axis."""
    ndim = len(shape)
    steps = tuple(slice(None, None, rng.choice([1, 2, -1])) for _ in shape)
    perm = rng.sample(range(ndim), ndim)
    root_shape = [0] * ndim
    for axis, source in enumerate(perm):
        root_shape[source] = shape[axis]
    broadcast = rng.randrange(ndim) if ndim and rng.random() < 0.3 else None
    window = root[(0,) * (root.ndim - ndim)][steps][tuple(slice(0, d) for d in root_shape)]
    window = window.transpose(perm)
    if broadcast is not None:
        module = lnp if isinstance(window, lnp.ndarray) else np
        window = module.broadcast_to(window[(slice(None),) * broadcast + (slice(0, 1),)], shape)
    return window


@pytest.mark.parametrize("seed", range(6))
def test_elementwise_result_order_over_operands_that_disagree(seed):
    """NumPy's iterator orders a result's axes by an insertion sort that an operand
    broadcast along an axis does not vote on and that keeps C order where operands
    disagree; the result's reshape aliasing must be NumPy's."""
    rng = random.Random(seed)
    for _ in range(10):
        ndim = rng.randint(2, 3)
        shape = [rng.choice([1, 2, 3, 4]) for _ in range(ndim)]
        other_shape = [d if rng.random() < 0.8 else 1 for d in shape[rng.randint(0, ndim - 1):]]
        root = np.arange(8.0 ** 3).reshape(8, 8, 8)
        state = rng.getstate()
        results = []
        for module, source in ((np, root.copy()), (lnp, lnp.asarray(root))):
            rng.setstate(state)
            a = _random_window(rng, shape, source)
            b = _random_window(rng, other_shape, source)
            c = _random_window(rng, shape, source)
            results.append(module.multiply(module.add(a, b), c))
        expected, result = results
        S.assert_same(result, expected)
        for got, want in zip(_aliasing_results(lnp, result), _aliasing_results(np, expected)):
            S.assert_same(got, want)


@pytest.mark.parametrize("order", ["C", "F", "A", "K", "c"])
def test_ufunc_order_argument(order):
    x = np.arange(12.).reshape(3, 4)
    for make in (lambda m: m.add(m.asarray(x).T, 1, order=order),
                 lambda m: m.negative(m.asarray(x)[:, ::2], order=order),
                 lambda m: m.add(m.asarray(x).T, m.zeros((4, 3)), order=order),
                 lambda m: m.multiply(m.asarray(x), x, order=order)):
        expected, result = make(np), make(lnp)
        S.assert_same(result, expected)
        for got, want in zip(_aliasing_results(lnp, result), _aliasing_results(np, expected)):
            S.assert_same(got, want)


# -- results of indexing, sorting, scans, reductions and joins ---------------------------------
def _index(n):
    """An index list for an axis of length ``n`` (repeats and a negative index)."""
    return [0, -1, 0] if n else []


def _axis(a, k):
    return k % a.ndim


def _fancy(a, kind):
    """Keys with two index arrays, or one and an integer, on a 3-d ``a`` (1-d and 2-d ones
    get one index array)."""
    if a.ndim < 3 or not a.shape[2]:
        return a[_index(a.shape[0])]
    first, middle, last = (_index(d) for d in a.shape)
    keys = {"adjacent": (slice(None), middle, last), "separated": (first, slice(None), last),
            "integer": (slice(None), middle, -1)}
    return a[keys[kind]]


RESULT_PRODUCERS = {
    "tile by ones (a 'K' copy)": lambda m, a: m.tile(a, (1,) * (a.ndim + 1)),
    "round to 2 decimals (a ufunc result)": lambda m, a: m.round(a * 1.0, 2),
    "fancy index first axis": lambda m, a: a[_index(a.shape[0])],
    "fancy index last axis": lambda m, a: a[..., _index(a.shape[-1])],
    "fancy index x[:, idx]": lambda m, a: a[..., _index(a.shape[-1])] if a.ndim == 1
    else a[:, _index(a.shape[1])],
    "fancy 2-d index x[:, idx2]": lambda m, a: a * 1 if a.ndim == 1 or not a.shape[1]
    else a[:, [[0, 0], [-1, 0]]],
    "fancy adjacent pair": lambda m, a: _fancy(a, "adjacent"),
    "fancy separated pair": lambda m, a: _fancy(a, "separated"),
    "fancy with an integer": lambda m, a: _fancy(a, "integer"),
    "fancy with a new axis": lambda m, a: a[None, _index(a.shape[0])] if a.ndim == 1
    else a[:, None, _index(a.shape[1])],
    "fancy with a static mask": lambda m, a: a[np.arange(a.shape[0]) < 2] if a.ndim == 1
    else a[:, np.arange(a.shape[1]) % 2 == 0],
    "sort first axis": lambda m, a: m.sort(a, axis=0),
    "sort last axis": lambda m, a: m.sort(a, axis=-1),
    "sort flipped": lambda m, a: m.sort(a[::-1], axis=-1),
    "argsort": lambda m, a: m.argsort(a, axis=0),
    "cumsum first axis": lambda m, a: m.cumsum(a, axis=0),
    "cumsum method last axis": lambda m, a: a.cumsum(axis=-1),
    "cumprod": lambda m, a: m.cumprod(a, axis=_axis(a, 1)),
    "nancumsum": lambda m, a: m.nancumsum(a, axis=0),
    "cumulative_sum include_initial": lambda m, a: m.cumulative_sum(a, axis=0,
                                                                    include_initial=True),
    "sum first axis": lambda m, a: a.sum(axis=0),
    "sum middle axis": lambda m, a: m.sum(a, axis=_axis(a, 1)),
    "sum keepdims": lambda m, a: a.sum(axis=-1, keepdims=True),
    "sum two axes": lambda m, a: a.sum(axis=(0, -1)) if a.ndim > 1 else a.sum(axis=0),
    "sum where": lambda m, a: a.sum(axis=0, where=m.asarray(np.ones(a.shape[::-1], bool)).T),
    "max initial": lambda m, a: a.max(axis=_axis(a, 1), initial=-1.0),
    "any": lambda m, a: m.any(a > 2, axis=0),
    "mean": lambda m, a: a.mean(axis=_axis(a, 1)),
    "var": lambda m, a: a.var(axis=0),
    "std ddof": lambda m, a: m.std(a, axis=-1, ddof=1) if a.shape[-1] > 1 else a.std(axis=-1),
    "nansum": lambda m, a: m.nansum(a, axis=0),
    "nanmean": lambda m, a: m.nanmean(a, axis=-1) if a.shape[-1] else a.sum(axis=-1),
    "nanvar": lambda m, a: m.nanvar(a, axis=0) if a.shape[0] else a.sum(axis=0),
    "nanmax": lambda m, a: m.nanmax(a, axis=0) if a.shape[0] else a.sum(axis=0),
    "count_nonzero": lambda m, a: m.count_nonzero(a, axis=_axis(a, 1)),
    "average": lambda m, a: m.average(a, axis=0) if a.shape[0] else a.sum(axis=0),
    "median": lambda m, a: m.median(a, axis=_axis(a, 1)) if a.shape[_axis(a, 1)]
    else a.sum(axis=0),
    "ptp": lambda m, a: m.ptp(a, axis=0) if a.shape[0] else a.sum(axis=0),
    "argmax": lambda m, a: m.argmax(a, axis=0) if a.shape[0] else a.sum(axis=0),
    "diff": lambda m, a: m.diff(a, axis=_axis(a, 1)),
    "diff prepend scalar": lambda m, a: m.diff(a, axis=0, prepend=0.5),
    "take": lambda m, a: m.take(a, [0, -1], axis=_axis(a, 1), mode="wrap")
    if a.shape[_axis(a, 1)] else a * 1,
    "compress": lambda m, a: m.compress([True, False, True], a, axis=0) if a.shape[0] > 2
    else a * 1,
    "concatenate": lambda m, a: m.concatenate([a, a], axis=_axis(a, 1)),
    "concatenate with a C copy": lambda m, a: m.concatenate([a, m.ascontiguousarray(a)], axis=0),
    "concatenate with a list": lambda m, a: m.concatenate([a, a.tolist()], axis=-1),
    "concatenate axis None": lambda m, a: m.concatenate([a, a], axis=None),
    "stack first": lambda m, a: m.stack([a, a]),
    "stack last": lambda m, a: m.stack([a, a], axis=-1),
    "stack middle": lambda m, a: m.stack([a, a * 2], axis=1),
    "hstack": lambda m, a: m.hstack([a, a]),
    "vstack": lambda m, a: m.vstack([a, a]),
    "dstack": lambda m, a: m.dstack([a, a]),
    "column_stack": lambda m, a: m.column_stack([a, a]) if a.ndim < 3 else a * 1,
    "append": lambda m, a: m.append(a, a, axis=0),
    "unique axis": lambda m, a: m.unique(a, axis=_axis(a, 1)),
}


def _result_layout(rng):
    """(root, view function) as ``_random_layout``, at least 1-d, some lengths 0 (on a new
    root, whose strides NumPy makes all 0)."""
    ndim = rng.randint(1, 3)
    shape = [rng.choice([0, 1, 2, 3, 4] if rng.random() < 0.15 else [1, 2, 3, 4])
             for _ in range(ndim)]
    big = [2 * d for d in shape]
    root = np.arange(float(np.prod(big))).reshape(big) if 0 not in shape else np.zeros(big)
    steps = tuple(slice(None, None, rng.choice([1, 2, -1, -2])) for _ in shape)
    perm = rng.sample(range(ndim), ndim)
    return root, lambda r: r[steps][tuple(slice(0, d) for d in shape)].transpose(perm)


@pytest.mark.parametrize("producer", list(RESULT_PRODUCERS))
def test_result_memory_order_matches_numpy(producer):
    """Gathers follow NumPy's mapiter (index dims slowest, the rest in the source's
    order), sorts and scans a copy in order 'K', reductions the iterator's order over the
    kept axes, joins NumPy's multi-array stride sort; the flags and every transposed
    reshape's view-or-copy answer are NumPy's."""
    rng = random.Random(producer)
    make = RESULT_PRODUCERS[producer]
    for _ in range(14):
        root, view = _result_layout(rng)
        np_source, lz_source = view(root.copy()), view(lnp.asarray(root))
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected, result = make(np, np_source), make(lnp, lz_source)
        expected = np.asarray(expected)
        S.assert_same(result, expected)
        where = (np_source.shape, np_source.strides)
        assert result.flags.c_contiguous == expected.flags.c_contiguous, where
        assert result.flags["F_CONTIGUOUS"] == expected.flags["F_CONTIGUOUS"], where
        if expected.ndim and expected.flags.writeable:
            for got, want in zip(_aliasing_results(lnp, result), _aliasing_results(np, expected)):
                S.assert_same(got, want)


@pytest.mark.parametrize("key, reshape", [
    ((slice(None), [1, 0, -1, 0]), lambda g: g.reshape(g.size)),     # fuzz seed 3029045
    ((slice(None), [2, -1]), lambda g: g.reshape(1, g.size)),         # fuzz seed 3037577
    ((slice(None), [-1, 1]), lambda g: g.ravel()),                    # fuzz seeds 3089532, 3011691
])
@pytest.mark.parametrize("shape", [(4, 2, 3), (2, 3), (2, 1)])
def test_reported_fancy_index_result_reshape_aliasing(key, reshape, shape):
    """``x[:, idx]`` is built index dims first and then transposed: a reshape of it copies
    where NumPy's does, so a write through that reshape must not reach the result."""
    x = np.arange(float(np.prod(shape))).reshape(shape)
    if max(key[1]) >= shape[1] or -min(key[1]) > shape[1]:
        return
    results = []
    for module, source in ((np, x), (lnp, lnp.asarray(x))):
        gathered = module.sin(source[key])
        reshaped = reshape(gathered)
        reshaped[...] = -4.0
        results.append((gathered, reshaped))
    (want_g, want_r), (got_g, got_r) = results
    S.assert_same(got_g, want_g)
    S.assert_same(got_r, want_r)
