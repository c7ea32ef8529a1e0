"""A view node's layout read back as slicing, transposes, inserted and broadcast axes, or a
reshape: checked against the NumPy expression that recorded it."""
import dask.array as da
import numpy
import pytest

import lazynum
from lazynum.distributed import views

BASE = numpy.arange(7 * 6 * 5.0).reshape(7, 6, 5)

VIEWS = {
    "slice": lambda a: a[1:-1],
    "steps": lambda a: a[::2, 1::3, ::-2],
    "negative steps": lambda a: a[::-1, ::-3],
    "integer index": lambda a: a[3, :, 1:4],
    "transpose": lambda a: a.transpose(2, 0, 1),
    "sliced transpose": lambda a: a[1:5].T[::2],
    "new axes": lambda a: a[:, None, 2:, None],
    "broadcast": lambda a: numpy.broadcast_to(a[0, :, :1], (4, 6, 5)) if isinstance(a, numpy.ndarray)
    else lazynum.broadcast_to(a[0, :, :1], (4, 6, 5)),
    "single element": lambda a: a[6:7, 5:6, 4:5],
}


def _layout(program):
    base = lazynum.from_dask(da.from_array(BASE))   # never computed here: views stay nodes
    node = program(base)._n()
    assert node.op.name == "view"
    return views.classify(BASE.shape, node.attrs)


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_strided_views_reproduce_numpys(name):
    kind, strided = _layout(VIEWS[name])
    want = VIEWS[name](BASE)
    got = views.apply_strided(BASE, strided) if kind == "strided" else BASE.reshape(want.shape)
    numpy.testing.assert_array_equal(got, want)


def test_reshapes_are_told_apart():
    assert _layout(lambda a: a[:, :, :, None])[0] == "expand"
    assert _layout(lambda a: a.reshape(-1))[0] == "ravel"
    assert _layout(lambda a: a.reshape(42, 5)) == ("reshape", (42, 5))


def test_a_diagonal_has_no_dask_form():
    assert views.classify((6, 6), ((6,), (7,), 0)) is None
    assert views.classify((6, 6), ((3, 2), (1, 1), 0)) is None       # overlapping windows
