"""Reductions that read the same blocks share one partial task per block (one pass over the
data, ``lazynum.distributed.reductions``): values against NumPy, and the tasks they take."""
import dask
import dask.array as da
import numpy
import pytest

import lazynum
from lazynum.distributed.partition import Translation
from lazynum.expr import graph

RNG = numpy.random.default_rng(13)
A = RNG.standard_normal((11, 8))
C = (RNG.standard_normal((11, 8)) * 10).astype(numpy.float32)
I = RNG.integers(-9, 9, size=(11, 8))


def _masked(np, a, c, i):
    y = a[a > 0.3]
    return y.sum(), y.mean(), y.var(), (a > 0.3).sum()


# name -> program(np, a, c, i) returning a tuple of results synced together
GROUPS = {
    "sum max min": lambda np, a, c, i: (a.sum(), a.max(), a.min()),
    "masked statistics": _masked,
    "per column": lambda np, a, c, i: (a.sum(axis=0), (a * a).max(axis=0), a.argmax(axis=0)),
    "mixed dtypes": lambda np, a, c, i: (c.sum(), i.sum(), (i > 0).any(), c.min(axis=0),
                                         (a * 2).prod(), i.max()),
}


def _lazy(chunks=(4, 3)):
    return [lazynum.from_dask(da.from_array(x, chunks=chunks)) for x in (A, C, I)]


def _check_group(name):
    got = GROUPS[name](lazynum, *_lazy())
    lazynum.sync(*got)
    for g, w in zip(got, GROUPS[name](numpy, A, C, I)):
        g, w = numpy.asarray(g), numpy.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        rtol = 1e-5 if w.dtype == numpy.float32 else 1e-12
        numpy.testing.assert_allclose(g, w, rtol=rtol)


@pytest.mark.parametrize("name", ["masked statistics", "mixed dtypes"])
def test_reductions_synced_together_match_numpy_on_every_scheduler(name, scheduler):
    _check_group(name)


@pytest.mark.parametrize("name", sorted(GROUPS))
def test_reductions_synced_together_match_numpy(name):
    with dask.config.set(scheduler="threads"):
        _check_group(name)


def _partial_layers(results) -> list:
    """Sizes of the graph's lazynum blockwise layers of one task per input block (9): the
    passes over the data (the trees' combines and the arithmetic on their small results
    are not counted)."""
    translation = Translation(graph.toposort([r._n() for r in results]), "here:1", "llvm")
    arrays = [translation.to_dask(translation.value(r._n())) for r in results]
    layers = {}
    for array in arrays:
        layers.update(array.__dask_graph__().layers)
    return sorted(len(layer) for name, layer in layers.items()
                  if name.startswith("lazynum-here_1-") and len(layer) == 9)


def test_sum_max_and_min_read_each_block_once():
    a, _, _ = _lazy()                                          # 3 x 3 blocks
    assert _partial_layers([a.sum(), a.max(), a.min()]) == [9]          # was 3 layers of 9
    assert _partial_layers([a.sum(axis=0), a.min(axis=0), a.sum()]) == [9, 9]   # two keys


def test_masked_statistics_read_the_data_once_whatever_the_order():
    """Sum, mean, var and both counts in one pass: var's squared deviations from the mean
    fold as each block's moments (``spread``), the mean applied after the fold."""
    a, _, _ = _lazy()
    y = a[a > 0.3]
    assert _partial_layers([y.var(), (a > 0.3).sum(), y.mean(), y.sum()]) == [9]
    assert _partial_layers([a.std(), a.mean(), a.max()]) == [9]


def test_deviations_other_than_squares_take_a_second_pass():
    a, _, _ = _lazy()
    assert _partial_layers([((a - a.mean()) ** 3).sum(), a.sum()]) == [9, 9]
    assert _partial_layers([a.var(axis=0)]) == [9, 9]                # per column


SPREADS = {
    "far from zero": lambda np, a, c, i: ((a + 1e4)[a > 0].var(), (a * 0.1 + 1e4).std()),
    "ddof and integers": lambda np, a, c, i: (np.var(a, ddof=1), i.var(), i[i > 2].std()),
    "float32": lambda np, a, c, i: (c.var(), c[c < 3].var()),
    "empty selection": lambda np, a, c, i: (a[a > 1e3].var(),),
    "nan and inf": lambda np, a, c, i: (np.where(a > 2, np.nan, a).var(),
                                        np.where(a > 2, np.inf, a)[a > 0].var()),
    "given mean": lambda np, a, c, i: (np.var(a, mean=a.mean(keepdims=True) * 0 + 0.25),),
}


@pytest.mark.parametrize("name", sorted(SPREADS))
def test_one_pass_variances_match_numpy(name):
    with dask.config.set(scheduler="synchronous"), numpy.errstate(invalid="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            got = SPREADS[name](lazynum, *_lazy())
            lazynum.sync(*got)
            want = SPREADS[name](numpy, A, C, I)
    for g, w in zip(got, want):
        g, w = numpy.asarray(g), numpy.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        numpy.testing.assert_allclose(g, w, rtol=2e-6 if w.dtype == numpy.float32 else 1e-9)
