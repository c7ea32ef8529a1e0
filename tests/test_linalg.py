"""Differential tests of lazynum.linalg against NumPy: values, dtypes, shapes, error types."""
import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import lazynum as lnp
from lazynum.frontend import linalg
from .strategies import ALL, arrays, assert_same, dtypes, lazy_views, shapes

SMALL = dict(small=True)


PUBLIC_ERRORS = (np.exceptions.AxisError, IndexError, ValueError, TypeError, OverflowError)


def base_error(exc_type):
    """The public class users catch: NumPy's private subclasses (UFuncTypeError,
    UnicodeEncodeError, ...) map to their builtin base; AxisError stays AxisError."""
    for cls in exc_type.__mro__:
        if cls in PUBLIC_ERRORS:
            return cls
    return exc_type


def same_call(fn_lazy, fn_numpy):
    """Like strategies.same_error, but a lazynum error must come at the call (no sync)."""
    try:
        expected = fn_numpy()
    except Exception as exc:  # noqa: BLE001
        with pytest.raises(base_error(type(exc))):
            fn_lazy()
        return None, None
    return fn_lazy(), expected


def assert_close(result, expected, scale=1.0, terms=1):
    """assert_same with float tolerances scaled by magnitude and the number of summed terms."""
    expected = np.asarray(expected)
    if expected.dtype.kind == "f":
        eps = np.finfo(expected.dtype).eps
        rtol = 1e-4 if expected.dtype == np.float32 else 1e-9
        assert_same(result, expected, rtol=rtol, atol=16 * eps * max(terms, 1) * scale)
    else:
        assert_same(result, expected)


def magnitude(*arrays):
    out = 1.0
    for a in arrays:
        a = np.asarray(a)
        out *= float(np.max(np.abs(a.astype(np.float64)))) if a.size else 1.0
    return max(out, 1.0)


def lazy_pair(draw, shape_a, shape_b, dtype_a=dtypes, dtype_b=dtypes, small=True):
    a, la = draw(lazy_views(arrays(dtype_a, st.just(shape_a), small=small)))
    b, lb = draw(lazy_views(arrays(dtype_b, st.just(shape_b), small=small)))
    return a, la, b, lb


matmul_shapes = hnp.mutually_broadcastable_shapes(signature=np.matmul.signature, max_dims=3,
                                                  min_side=0, max_side=4)


@given(st.data(), matmul_shapes)
def test_matmul(data, bshapes):
    shape_a, shape_b = bshapes.input_shapes
    a, la, b, lb = lazy_pair(data.draw, shape_a, shape_b)
    expected = np.matmul(a, b)
    k = shape_a[-1]
    for result in (lnp.matmul(la, lb), la @ lb, la @ b, a @ lb, lnp.matmul(a, b)):
        assert_close(result, expected, magnitude(a, b), k)


@given(st.data(), shapes(max_dims=3, max_side=3), shapes(max_dims=3, max_side=3))
def test_matmul_errors(data, shape_a, shape_b):
    a = data.draw(arrays(st.just(np.dtype(np.float64)), st.just(shape_a), **SMALL))
    b = data.draw(arrays(st.just(np.dtype(np.float64)), st.just(shape_b), **SMALL))
    result, expected = same_call(lambda: lnp.asarray(a) @ lnp.asarray(b), lambda: a @ b)
    if expected is not None:
        assert_close(result, expected, magnitude(a, b), shape_a[-1])


def test_matmul_dtypes_exhaustive():
    a, b = np.arange(6).reshape(2, 3) % 3, np.arange(12).reshape(3, 4) % 4 - 1
    for da in ALL:
        for db in ALL:
            x, y = a.astype(da), b.astype(db)
            assert_same(lnp.matmul(lnp.asarray(x), lnp.asarray(y)), np.matmul(x, y))
            assert_same(lnp.dot(lnp.asarray(x), lnp.asarray(y)), np.dot(x, y))
            assert_same(lnp.einsum("ij,jk", x, y), np.einsum("ij,jk", x, y))


@given(st.data(), st.sampled_from([None, "float32", "float64", "int32", "bool", "int8"]),
       st.sampled_from(["same_kind", "unsafe", "safe"]))
def test_matmul_dtype_argument(data, dtype, casting):
    a = data.draw(arrays(dtypes, st.just((2, 3)), **SMALL))
    b = data.draw(arrays(dtypes, st.just((3, 2)), **SMALL))
    result, expected = same_call(lambda: lnp.matmul(a, b, dtype=dtype, casting=casting),
                                 lambda: np.matmul(a, b, dtype=dtype, casting=casting))
    if expected is not None:
        assert_close(result, expected, magnitude(a, b), 3)


def test_matmul_out_and_imatmul():
    a, b = np.arange(6.).reshape(2, 3), np.arange(9.).reshape(3, 3)
    out = lnp.zeros((2, 3))
    view = out[1]
    assert lnp.matmul(a, b, out=out) is out
    assert_same(out, a @ b)
    assert_same(view, (a @ b)[1])
    with pytest.raises(ValueError):
        lnp.matmul(a, b, out=lnp.zeros((3, 2)))
    with pytest.raises(TypeError):
        lnp.matmul(a, b, out=lnp.zeros((2, 3), dtype=np.int64))
    x = lnp.asarray(a)
    x @= b
    assert_same(x, a @ b)


def test_matmul_scalar_operands():
    for args in [(3, np.ones(3)), (np.ones(3), 2.0), (np.float64(1), np.ones((2, 2)))]:
        with pytest.raises(ValueError):
            lnp.matmul(*args)
        with pytest.raises(ValueError):
            np.matmul(*args)


def test_numpy_left_matmul_stays_lazy():
    a, b = np.ones((2, 3)), lnp.ones((3, 4)) * 2
    result = a @ b
    assert lnp.metrics()["fallbacks"] == 0 and lnp.metrics()["syncs"] == 0
    assert_same(result, np.ones((2, 3)) @ (np.ones((3, 4)) * 2))


@st.composite
def contraction_shapes(draw, max_dims=3):
    """Shapes for dot: usually aligned (a's last == b's second-to-last or only dim)."""
    shape_a = draw(shapes(max_dims=max_dims, max_side=3))
    shape_b = list(draw(shapes(max_dims=max_dims, max_side=3)))
    if shape_a and shape_b and draw(st.integers(0, 4)):
        shape_b[-2 if len(shape_b) >= 2 else -1] = shape_a[-1]
    return shape_a, tuple(shape_b)


@given(st.data(), contraction_shapes())
def test_dot(data, bshapes):
    a, la, b, lb = lazy_pair(data.draw, *bshapes)
    result, expected = same_call(lambda: lnp.dot(la, lb), lambda: np.dot(a, b))
    if expected is not None:
        k = a.shape[-1] if a.ndim and b.ndim else 1
        assert_close(result, expected, magnitude(a, b), k)
        assert_close(la.dot(lb), expected, magnitude(a, b), k)


@given(st.data(), dtypes, st.sampled_from([3, 2.5, True, -1]))
def test_dot_inner_python_scalars(data, dtype, scalar):
    a, la = data.draw(lazy_views(arrays(st.just(dtype), shapes(max_dims=2, max_side=3), **SMALL)))
    for lfn, nfn in [(lnp.dot, np.dot), (lnp.inner, np.inner), (lnp.outer, np.outer),
                     (lnp.kron, np.kron), (lnp.tensordot, lambda x, y: np.tensordot(x, y, 0))]:
        fn = lfn if lfn is not lnp.tensordot else (lambda x, y: lnp.tensordot(x, y, 0))
        result, expected = same_call(lambda: fn(la, scalar), lambda: nfn(a, scalar))
        if expected is not None:
            assert_close(result, expected, magnitude(a, scalar))


def test_dot_out():
    a, b = np.arange(6.).reshape(2, 3), np.arange(3.)
    out = lnp.zeros(2)
    assert lnp.dot(a, b, out=out) is out
    assert_same(out, a @ b)
    with pytest.raises(ValueError):
        lnp.dot(a, b, out=lnp.zeros(2, dtype=np.float32))


@given(st.data(), shapes(max_dims=3, max_side=3), st.booleans())
def test_vdot(data, shape, same_size):
    a, la = data.draw(lazy_views(arrays(shape=st.just(shape), **SMALL)))
    other = shape[::-1] if same_size else data.draw(shapes(max_dims=2, max_side=3))
    b, lb = data.draw(lazy_views(arrays(shape=st.just(other), **SMALL)))
    result, expected = same_call(lambda: lnp.vdot(la, lb), lambda: np.vdot(a, b))
    if expected is not None:
        assert_close(result, expected, magnitude(a, b), a.size)


@st.composite
def inner_shapes(draw):
    shape_a = draw(shapes(max_dims=3, max_side=3))
    shape_b = list(draw(shapes(max_dims=3, max_side=3)))
    if shape_a and shape_b and draw(st.integers(0, 4)):
        shape_b[-1] = shape_a[-1]
    return shape_a, tuple(shape_b)


@given(st.data(), inner_shapes())
def test_inner(data, bshapes):
    a, la, b, lb = lazy_pair(data.draw, *bshapes)
    result, expected = same_call(lambda: lnp.inner(la, lb), lambda: np.inner(a, b))
    if expected is not None:
        assert_close(result, expected, magnitude(a, b), a.shape[-1] if a.ndim and b.ndim else 1)


@given(st.data(), shapes(max_dims=3, max_side=3), shapes(max_dims=3, max_side=3))
def test_outer_and_kron(data, shape_a, shape_b):
    a, la, b, lb = lazy_pair(data.draw, shape_a, shape_b)
    assert_close(lnp.outer(la, lb), np.outer(a, b), magnitude(a, b))
    assert_close(lnp.kron(la, lb), np.kron(a, b), magnitude(a, b))


@st.composite
def tensordot_case(draw):
    """Two shapes and an ``axes`` argument: usually valid, sometimes not."""
    n_sum = draw(st.integers(0, 2))
    summed = draw(st.lists(st.integers(0, 3), min_size=n_sum, max_size=n_sum))
    free_a = draw(st.lists(st.integers(0, 3), max_size=2))
    free_b = draw(st.lists(st.integers(0, 3), max_size=2))
    order_a = draw(st.permutations(range(len(free_a) + n_sum)))
    order_b = draw(st.permutations(range(len(free_b) + n_sum)))
    dims_a = free_a + summed
    dims_b = summed + free_b
    shape_a = tuple(dims_a[i] for i in order_a)
    shape_b = tuple(dims_b[i] for i in order_b)
    axes_a = [order_a.index(len(free_a) + j) for j in range(n_sum)]
    axes_b = [order_b.index(j) for j in range(n_sum)]
    if draw(st.booleans()):
        axes_a = [x - len(shape_a) for x in axes_a]
    how = draw(st.sampled_from(["pair", "int", "scalar_pair", "bad"]))
    if how == "int":
        axes = draw(st.integers(-1, 3))
    elif how == "scalar_pair" and n_sum == 1:
        axes = (axes_a[0], axes_b[0])
    elif how == "bad":
        axes = (draw(st.lists(st.integers(-4, 4), max_size=3)), axes_b)
    else:
        axes = (axes_a, axes_b)
    return shape_a, shape_b, axes


@given(st.data(), tensordot_case())
def test_tensordot(data, case):
    shape_a, shape_b, axes = case
    a, la, b, lb = lazy_pair(data.draw, shape_a, shape_b)
    result, expected = same_call(lambda: lnp.tensordot(la, lb, axes),
                                 lambda: np.tensordot(a, b, axes))
    if expected is not None:
        assert_close(result, expected, magnitude(a, b), max(a.size, 1))


LABELS = "abcdA"


@st.composite
def einsum_case(draw):
    """Subscripts and operand shapes: traces, diagonals, broadcasting of size-1 labels and of
    ``...``, implicit and explicit outputs; now and then an invalid one."""
    sizes = {c: draw(st.integers(0, 3)) for c in LABELS}
    ellipsis = draw(shapes(max_dims=2, max_side=3))
    terms, operand_shapes, used = [], [], []
    for _ in range(draw(st.integers(1, 3))):
        labels = draw(st.lists(st.sampled_from(LABELS), max_size=3))
        dims = {c: sizes[c] if draw(st.integers(0, 3)) else 1 for c in set(labels)}
        shape = [dims[c] for c in labels]
        term = "".join(labels)
        if draw(st.integers(0, 2)) == 0:
            at = draw(st.integers(0, len(labels)))
            ell = ellipsis[draw(st.integers(0, len(ellipsis))):]
            ell = tuple(d if draw(st.integers(0, 3)) else 1 for d in ell)
            term = term[:at] + "..." + term[at:]
            shape[at:at] = ell
        terms.append(term)
        operand_shapes.append(tuple(shape))
        used += labels
    subscripts = ",".join(terms)
    mode = draw(st.sampled_from(["implicit", "explicit", "explicit", "bad"]))
    if mode == "explicit":
        out = draw(st.permutations(sorted(set(used))))
        out = "".join(out[:draw(st.integers(0, len(out)))])
        if "..." in subscripts or draw(st.integers(0, 5)) == 0:
            at = draw(st.integers(0, len(out)))
            out = out[:at] + "..." + out[at:]
        subscripts += "->" + out
    elif mode == "bad":
        broken = draw(st.sampled_from(["->aa", "->z", "->.", ",a", "-", "a.b", "é", "->...a"]))
        subscripts += broken
    if draw(st.integers(0, 6)) == 0:
        subscripts = subscripts.replace(",", " , ")
    return subscripts, operand_shapes


@given(st.data(), einsum_case())
def test_einsum(data, case):
    subscripts, operand_shapes = case
    pairs = [data.draw(lazy_views(arrays(shape=st.just(s), **SMALL))) for s in operand_shapes]
    arrays_np = [p[0] for p in pairs]
    arrays_lazy = [p[1] for p in pairs]
    result, expected = same_call(lambda: lnp.einsum(subscripts, *arrays_lazy),
                                 lambda: np.einsum(subscripts, *arrays_np))
    if expected is not None:
        terms = max(1, int(np.prod([max(s) for s in operand_shapes if s] or [1])) ** 2)
        assert_close(result, expected, magnitude(*arrays_np), terms)


@pytest.mark.parametrize("subscripts, shapes_", [
    ("ii", [(1, 3)]),                     # repeated label in one operand: no broadcasting
    ("i...->i", [(2, 3)]),                # ellipsis dims but none in the output
    ("i...->i", [(2, 1)]),
    ("ié", [(2, 3)]),                      # labels are ASCII letters only
    ("ij,jk", [(2, 3), (4, 4)]),
    ("ij->ij->", [(2, 3)]),
    ("i,i", [(3,)]),
    ("i", [(2, 3)]),
    ("i.j", [(2, 3)]),
])
def test_einsum_errors_at_call(subscripts, shapes_):
    ops = [np.ones(s) for s in shapes_]
    same_call(lambda: lnp.einsum(subscripts, *[lnp.asarray(o) for o in ops]),
              lambda: np.einsum(subscripts, *ops))
    assert lnp.metrics()["syncs"] == 0


def test_einsum_forms_and_dtype():
    a, b = np.arange(6.).reshape(2, 3), np.arange(12).reshape(3, 4)
    assert_same(lnp.einsum(a, [0, 1], b, [1, 2], [0, 2]), np.einsum(a, [0, 1], b, [1, 2], [0, 2]))
    assert_same(lnp.einsum(a, [Ellipsis, 1], [Ellipsis]), np.einsum(a, [Ellipsis, 1], [Ellipsis]))
    assert_same(lnp.einsum("i,j,->ij", a[0], a[1], 5), np.einsum("i,j,->ij", a[0], a[1], 5))
    kw = dict(dtype=np.float32, casting="same_kind")
    assert_same(lnp.einsum("ij,jk", a, b, **kw), np.einsum("ij,jk", a, b, **kw))
    assert_same(lnp.einsum("ij,jk", a, b, optimize=True), np.einsum("ij,jk", a, b, optimize=True))
    with pytest.raises(TypeError):
        lnp.einsum("ij,jk", a, b, dtype=np.int32)
    out = lnp.zeros((2, 4))
    assert lnp.einsum("ij,jk->ik", a, b, out=out) is out
    assert_same(out, a @ b)
    assert_same(lnp.einsum("...", 3.0), np.einsum("...", 3.0))
    assert_same(lnp.einsum("i,i", np.ones(3, bool), np.ones(3, np.int8)),
                np.einsum("i,i", np.ones(3, bool), np.ones(3, np.int8)))


gufunc = st.sampled_from([(linalg.vecdot, np.vecdot), (linalg.matvec, np.matvec),
                          (linalg.vecmat, np.vecmat)])


@given(st.data(), gufunc)
def test_vecdot_matvec_vecmat(data, fns):
    lfn, nfn = fns
    bshapes = data.draw(hnp.mutually_broadcastable_shapes(signature=nfn.signature, max_dims=3,
                                                          min_side=0, max_side=3))
    a, la, b, lb = lazy_pair(data.draw, *bshapes.input_shapes)
    expected = nfn(a, b)
    assert_close(lfn(la, lb), expected, magnitude(a, b), max(a.shape[-1], 1))


@given(st.data(), shapes(max_dims=3, max_side=3), shapes(max_dims=3, max_side=3),
       st.integers(-3, 2), gufunc)
def test_gufunc_errors_and_axis(data, shape_a, shape_b, axis, fns):
    lfn, nfn = fns
    a, la, b, lb = lazy_pair(data.draw, shape_a, shape_b)
    kwargs = {"axis": axis} if nfn is np.vecdot else {}
    result, expected = same_call(lambda: lfn(la, lb, **kwargs), lambda: nfn(a, b, **kwargs))
    if expected is not None:
        assert_close(result, expected, magnitude(a, b), max(a.size, 1))


def test_integer_wraparound_exact():
    rng = np.random.default_rng(0)
    for dt in (np.int8, np.uint8, np.int64, np.uint64):
        info = np.iinfo(dt)
        a = rng.integers(info.min, info.max, (3, 4, 5), dtype=dt, endpoint=True)
        b = rng.integers(info.min, info.max, (5, 2), dtype=dt, endpoint=True)
        assert_same(lnp.matmul(a, b), np.matmul(a, b))
        assert_same(lnp.dot(a, b), np.dot(a, b))
        assert_same(lnp.einsum("ijk,kl->il", a, b), np.einsum("ijk,kl->il", a, b))
        assert_same(lnp.tensordot(a, a, ([0, 2], [0, 2])), np.tensordot(a, a, ([0, 2], [0, 2])))


def test_products_do_not_sync():
    a = lnp.ones((3, 4)) * 2
    b = lnp.ones((4, 5))
    lnp.matmul(a, b), lnp.dot(a, b), lnp.vdot(a, a), lnp.inner(a, a), lnp.outer(a, b)
    lnp.tensordot(a, b, 1), lnp.einsum("ij,jk->ki", a, b), lnp.kron(a, b)
    linalg.vecdot(a, a), linalg.matvec(a, a[0]), linalg.vecmat(a[:, 0], a)
    metrics = lnp.metrics()
    assert metrics["syncs"] == 0 and metrics["fallbacks"] == 0
