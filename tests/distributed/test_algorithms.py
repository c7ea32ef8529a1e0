"""Sort, top-k and unique through Dask's own means, Zarr inputs, and the ops still refused."""
import dask
import dask.array as da
import numpy
import pytest

import lazynum

RNG = numpy.random.default_rng(17)
V = RNG.standard_normal(23)
V[[3, 17]] = numpy.nan                                  # NaNs sort last, as NumPy's
A = RNG.standard_normal((11, 8))
I = RNG.integers(0, 6, size=(11, 8))

PROGRAMS = {
    "sort 1-d": lambda np, v, a, i: np.sort(v),
    "sort rows": lambda np, v, a, i: np.sort(a, axis=1),
    "sort columns, stable": lambda np, v, a, i: np.sort(a * 2, axis=0, kind="stable"),
    "sort whole": lambda np, v, a, i: np.sort(a, axis=None)[::5],
    "largest 4": lambda np, v, a, i: np.sort(v)[-4:],
    "smallest 5": lambda np, v, a, i: np.sort(v * 3)[:5],
    "largest 3 descending": lambda np, v, a, i: np.sort(v)[::-1][:3],
    "unique": lambda np, v, a, i: np.unique(i),
    "unique of 1-d": lambda np, v, a, i: np.unique(np.floor(v * 2)),
    "sorted then reduced": lambda np, v, a, i: np.sort(a, axis=0)[-1].sum(),
}


def _lazy():
    return (lazynum.from_dask(da.from_array(V, chunks=6)),
            lazynum.from_dask(da.from_array(A, chunks=(4, 3))),
            lazynum.from_dask(da.from_array(I, chunks=(4, 3))))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_programs_match_numpy(name):
    with dask.config.set(scheduler="threads"):
        got = numpy.asarray(PROGRAMS[name](lazynum, *_lazy()))
    want = PROGRAMS[name](numpy, V, A, I)
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_array_equal(got, want)


def test_one_end_of_a_sort_is_dask_topk_never_the_full_sort():
    v, _, _ = _lazy()
    out = lazynum.sort(v)[-4:].to_dask()
    names = [name.split("-")[0] for name in out.__dask_graph__().layers]
    assert "topk" in names and "rechunk" not in names
    numpy.testing.assert_array_equal(out.compute(scheduler="synchronous"), numpy.sort(V)[-4:])


def test_a_selection_split_across_blocks_is_refused_naming_compact():
    v, _, _ = _lazy()
    with pytest.raises(NotImplementedError, match="'compact'.*data-dependent"):
        numpy.asarray(v[v > 0])


def test_from_zarr_reads_the_stores_blocks(tmp_path, scheduler):
    import zarr                                          # in the dask and test extras
    path = str(tmp_path / "a.zarr")
    store = zarr.open_array(path, mode="w", shape=A.shape, chunks=(4, 3), dtype=A.dtype)
    store[...] = A
    x = lazynum.from_zarr(path)
    assert x.shape == A.shape and x.to_dask().chunks == ((4, 4, 3), (3, 3, 2))
    numpy.testing.assert_allclose(numpy.asarray((x - x.mean(axis=0)) ** 2),
                                  (A - A.mean(axis=0)) ** 2, rtol=1e-12)
    out = str(tmp_path / "out.zarr")
    (x * 2).to_dask().to_zarr(out)                       # stays distributed on the way out
    numpy.testing.assert_array_equal(zarr.open_array(out, mode="r")[...], A * 2)
