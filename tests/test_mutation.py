"""Mutation and aliasing against NumPy: writes through views, reads through views, copies
that must not alias, read-only views, and random op sequences mutating several views of
one base (compared with NumPy doing the same after every step).  Writes stay lazy: a
sequence of them performs no sync until something is read."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import lazynum as lnp
from tests.strategies import arrays, assert_same, shapes


def syncs():
    return lnp.metrics()["syncs"]


def grid(*shape, dtype=float):
    x = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
    return x, lnp.asarray(x)


# -- the classic patterns ------------------------------------------------------------------------
def test_stencil_update_of_the_interior():
    x, a = grid(6, 7)
    for _ in range(3):
        x[1:-1, 1:-1] = (x[:-2, 1:-1] + x[2:, 1:-1] + x[1:-1, :-2] + x[1:-1, 2:]) * 0.25
        a[1:-1, 1:-1] = (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:]) * 0.25
    assert_same(a, x)


def test_inplace_operators_and_broadcast_operands():
    x, a = grid(3, 4)
    y, b = grid(4)
    x += y
    a += b
    x *= 2
    a *= 2
    x[1] -= x[0]
    a[1] -= a[0]
    x[:, 1:3] /= 4.0
    a[:, 1:3] /= 4.0
    assert_same(a, x)


def test_fancy_and_mask_writes():
    x, a = grid(4, 5)
    idx = np.array([3, 0, 3])
    x[idx] = -1.0
    a[idx] = -1.0
    x[:, [1, -1]] = np.array([10.0, 20.0])
    a[:, [1, -1]] = np.array([10.0, 20.0])
    x[x > 12] = 0.0
    a[a > 12] = 0.0
    x[[0, 2], [1, 2]] += 100
    a[[0, 2], [1, 2]] += 100
    assert_same(a, x)


def test_write_through_a_view_reaches_the_base_and_back():
    x, a = grid(6, 4)
    xv, av = x[::2], a[::2]
    xv[...] = -xv
    av[...] = -av
    assert_same(a, x)
    x[2, 1] = 99.0          # the base after creating the view: the view sees it
    a[2, 1] = 99.0
    assert_same(av, xv)
    x[:, 0] = 7.0
    a[:, 0] = 7.0
    assert_same(av, xv)
    assert_same(a, x)


def test_transpose_view_augmented_assignment():
    x, a = grid(3, 4)
    xt, at = x.T, a.T
    xt[0] += 1
    at[0] += 1
    xt[1:, ::2] *= -1
    at[1:, ::2] *= -1
    assert_same(a, x)
    assert_same(at, xt)


def test_chained_views():
    x, a = grid(4, 6, 5)
    xs = x[1:, ::-1][:, 1:4].transpose(2, 0, 1)[::2, :, 1:]
    ls = a[1:, ::-1][:, 1:4].transpose(2, 0, 1)[::2, :, 1:]
    xs[1] = 0.5
    ls[1] = 0.5
    xs[:, 0, [0, 1]] = -3.0
    ls[:, 0, [0, 1]] = -3.0
    assert_same(a, x)
    x[3] += 1000
    a[3] += 1000
    assert_same(ls, xs)


def test_reshape_views_and_copies():
    x, a = grid(4, 6)
    xr, ar = x.reshape(2, 12), a.reshape(2, 12)          # contiguous: a view
    xr[1, ::3] = -1.0
    ar[1, ::3] = -1.0
    assert_same(a, x)
    xc, ac = x.T.reshape(24), a.T.reshape(24)            # non-contiguous: a copy
    xc[:] = 0.0
    ac[:] = 0.0
    assert_same(a, x)
    assert_same(ac, xc)
    xs, as_ = x[:, ::2].reshape(4, 3, 1), a[:, ::2].reshape(4, 3, 1)   # a view again
    xs[..., 0] = 5.0
    as_[..., 0] = 5.0
    assert_same(a, x)
    a.shape = (24,)
    x.shape = (24,)
    a[3] = 1234.0
    x[3] = 1234.0
    assert_same(ar, xr)


def test_read_only_views_refuse_writes():
    base = lnp.asarray(np.arange(4.0))
    view = lnp.broadcast_to(base, (3, 4))[1:]
    writes = [lambda: view.__setitem__(0, 1.0), lambda: view.__setitem__((0, [1]), 1.0),
              lambda: view.__setitem__(view > 1, 0.0), lambda: view.__setitem__(Ellipsis, view),
              lambda: view.__iadd__(1.0), lambda: lnp.put(view, [0], 1.0),
              lambda: lnp.add.at(view, [0], 1.0),
              lambda: lnp.put_along_axis(view, np.zeros((2, 1), int), 0.0, 1)]
    for write in writes:
        with pytest.raises(ValueError, match="read-only"):
            write()
    diag = lnp.diagonal(lnp.asarray(np.zeros((3, 3))))
    with pytest.raises(ValueError, match="read-only"):
        diag[0] = 1.0
    assert_same(base, np.arange(4.0))


def test_read_only_is_refused_before_the_key_is_looked_at():
    # NumPy refuses a read-only destination first: even when nothing would be written,
    # and before an out-of-bounds IndexError (or, here, a mask sync).
    def writes(v, xp, mask):
        return [lambda: v.__setitem__(([],), 1.0), lambda: v.__setitem__(([9],), 1.0),
                lambda: v.__setitem__((0, [9]), 1.0), lambda: v.__setitem__(v > 100, 1.0),
                lambda: v.__setitem__((mask, [0]), 1.0), lambda: xp.put(v, [], 1.0),
                lambda: xp.put(v, [99], 1.0),
                lambda: xp.put_along_axis(v, np.full((3, 1), 9), 0.0, 1),
                lambda: v.__setitem__(9, 1.0), lambda: v.__setitem__((0, 2), 10**400),
                lambda: v.fill(10**400)]

    base = lnp.asarray(np.arange(4.0))
    host = np.broadcast_to(np.arange(4.0), (3, 4))
    mask = np.array([True, False, True])
    lnp.reset_metrics()
    lazy_writes = writes(lnp.broadcast_to(base, (3, 4)), lnp, lnp.asarray(mask) | False)
    for numpy_write, lazy_write in zip(writes(host, np, mask), lazy_writes):
        with pytest.raises(ValueError, match="read-only"):
            numpy_write()
        with pytest.raises(ValueError, match="read-only"):
            lazy_write()
    assert syncs() == 0
    assert_same(base, np.arange(4.0))


def test_copies_do_not_alias():
    x, a = grid(3, 3)
    copies = [a.copy(), lnp.array(a), lnp.copy(a), a[[0, 1, 2]], a[a >= 0], a[1, 1]]
    host = np.array(a)
    snapshots = [np.asarray(c) for c in copies]
    a[...] = -1.0
    for copy, snapshot in zip(copies, snapshots):
        assert_same(copy, snapshot)
    assert_same(host, x)
    copies[0][0, 0] = 42.0
    assert float(a[0, 0]) == -1.0


def test_numpy_input_is_snapshotted():
    x = np.zeros(3)
    a = lnp.asarray(x)
    a[0] = 1.0
    x[1] = 5.0
    assert_same(a, np.array([1.0, 0.0, 0.0]))
    assert_same(x, np.array([0.0, 5.0, 0.0]))


def test_inplace_int_with_float_operand_raises_type_error():
    x, a = grid(2, 3, dtype=np.int64)
    for op in (lambda t: t.__iadd__(1.5), lambda t: t.__imul__(np.float64(2.0)),
               lambda t: t[0].__iadd__(np.ones(3))):
        with pytest.raises(TypeError):
            op(x.copy())
        with pytest.raises(TypeError):
            op(a)
    assert_same(a, x)
    a[0] = 2.9                      # assignment casts unsafely, as NumPy's does
    x[0] = 2.9
    a[[1], 1:] = np.array([7.5, -7.5])
    x[[1], 1:] = np.array([7.5, -7.5])
    assert_same(a, x)


def test_writes_are_lazy_until_a_read():
    x, a = grid(5, 6)
    y = x.copy()
    view = a[1:, ::2]
    lnp.reset_metrics()
    with lnp.config(sync="raise"):       # any implicit sync would raise SyncError
        a[0] = 3.0
        view += 1.0
        view[:, 1] = a[1:, 0] * 2
        a[[1, 1, 4], [0, 5, 2]] = -1.0
        a[a > 20] = 0.0
        a[lnp.asarray([0, 2]) + 1] *= 2
        lnp.put(a, [0, -1], [8.0, 9.0])
        lnp.add.at(a, ([0, 0], [1, 1]), 1.0)
        view.T[0] -= 0.5
        a[1:, lnp.asarray([5]) - 6] = view[:, :1]
    assert syncs() == 0
    yv = y[1:, ::2]
    y[0] = 3.0
    yv += 1.0
    yv[:, 1] = y[1:, 0] * 2
    y[[1, 1, 4], [0, 5, 2]] = -1.0
    y[y > 20] = 0.0
    y[np.array([0, 2]) + 1] *= 2
    np.put(y, [0, -1], [8.0, 9.0])
    np.add.at(y, ([0, 0], [1, 1]), 1.0)
    yv.T[0] -= 0.5
    y[1:, np.array([5]) - 6] = yv[:, :1]
    assert_same(a, y)
    assert syncs() == 1
    assert_same(view, yv)


def test_self_overlapping_assignment():
    x, a = grid(8)
    x[1:] = x[:-1]
    a[1:] = a[:-1]
    x[::-1] += x
    a[::-1] += a
    x[[0, 1, 2]] = x[[2, 1, 0]]
    a[[0, 1, 2]] = a[[2, 1, 0]]
    assert_same(a, x)


# -- random op sequences -------------------------------------------------------------------------
def _basic_key(draw, shape):
    key = []
    for size in shape:
        kind = draw(st.sampled_from(["slice", "slice", "int", "full"]))
        if kind == "int" and size:
            key.append(draw(st.integers(-size, size - 1)))
        elif kind == "full":
            key.append(slice(None))
        else:
            key.append(slice(draw(st.none() | st.integers(-size - 1, size + 1)),
                             draw(st.none() | st.integers(-size - 1, size + 1)),
                             draw(st.none() | st.integers(-3, 3).filter(bool))))
    key = key[:draw(st.integers(0, len(key)))]
    if draw(st.booleans()):
        key.insert(draw(st.integers(0, len(key))), None)
    return tuple(key)


def _new_view(draw, x, a):
    """The same view of a pair (NumPy, lazynum): slicing, transposes, reshapes, flips."""
    how = draw(st.sampled_from(["key", "key", "T", "swap", "reshape", "flip", "copy", "squeeze"]))
    if how == "key":
        key = _basic_key(draw, x.shape)
        if isinstance(x[key], np.ndarray):      # not a NumPy scalar (a copy)
            return x[key], a[key]
    if how == "T":
        return x.T, a.T
    if how == "swap" and x.ndim >= 2:
        i, j = draw(st.integers(0, x.ndim - 1)), draw(st.integers(0, x.ndim - 1))
        return x.swapaxes(i, j), a.swapaxes(i, j)
    if how == "reshape":
        options = [(-1,), (1, -1), (-1, 1)] + ([x.shape[::-1]] if x.ndim else [])
        shape = draw(st.sampled_from(options))
        return x.reshape(shape), a.reshape(shape)
    if how == "flip" and x.ndim:
        axis = draw(st.integers(0, x.ndim - 1))
        return np.flip(x, axis), lnp.flip(a, axis)
    if how == "copy":
        return x.copy(), a.copy()
    if how == "squeeze":
        return x.squeeze(), a.squeeze()
    return x[...], a[...]


def _write(draw, x, a):
    """The same in-place write on a pair."""
    how = draw(st.sampled_from(["basic", "basic", "iop", "fancy", "mask", "put", "add_at",
                                "from_view"]))
    if how == "basic":
        key = _basic_key(draw, x.shape)
        shape = x[key].shape
        value = draw(st.integers(-9, 9)) if draw(st.booleans()) else \
            draw(arrays(x.dtype, st.just(shape[draw(st.integers(0, len(shape))):]), small=True))
        x[key] = value
        a[key] = value
    elif how == "iop":
        value = draw(st.integers(-3, 3))
        op = draw(st.sampled_from(["__iadd__", "__isub__", "__imul__"]))
        getattr(x, op)(value)
        getattr(a, op)(value)
    elif how == "fancy" and x.ndim and x.shape[0]:
        n = draw(st.integers(0, 4))
        idx = np.array(draw(st.lists(st.integers(-x.shape[0], x.shape[0] - 1), min_size=n,
                                     max_size=n)), np.int64)
        value = draw(st.integers(-9, 9))
        x[idx] = value
        a[lnp.asarray(idx) if draw(st.booleans()) else idx] = value
    elif how == "mask":
        threshold = draw(st.integers(-5, 20))
        value = draw(st.integers(-9, 9))
        x[x > threshold] = value
        a[a > threshold] = value
    elif how == "put" and x.size:
        idx = draw(st.lists(st.integers(-x.size, x.size - 1), max_size=4))
        value = draw(st.lists(st.integers(-9, 9), min_size=1, max_size=3))
        np.put(x, idx, value)
        lnp.put(a, idx, value)
    elif how == "add_at" and x.ndim and x.shape[0]:
        idx = draw(st.lists(st.integers(-x.shape[0], x.shape[0] - 1), max_size=4))
        np.add.at(x, idx, 1.0)
        lnp.add.at(a, idx, 1.0)
    elif how == "from_view":
        x[...] = x[::-1] * 0.5 + 1 if x.ndim else x * 0.5 + 1
        a[...] = a[::-1] * 0.5 + 1 if a.ndim else a * 0.5 + 1


@settings(max_examples=max(150, settings.default.max_examples))
@given(st.data(), st.booleans())
def test_random_op_sequences_on_views_of_one_base(data, check_every_step):
    base = data.draw(arrays(np.dtype(np.float64), shapes(min_dims=1, max_dims=3, min_side=1),
                            small=True))
    pairs = [(base.copy(), lnp.asarray(base))]
    lnp.reset_metrics()
    for _ in range(data.draw(st.integers(1, 12))):
        x, a = pairs[data.draw(st.integers(0, len(pairs) - 1))]
        with lnp.config(sync="allow" if check_every_step else "raise"):
            if len(pairs) < 6 and data.draw(st.booleans()):
                pairs.append(_new_view(data.draw, x, a))
            else:
                _write(data.draw, x, a)
        if check_every_step:
            for x, a in pairs:
                assert_same(a, x)
    if not check_every_step:
        assert syncs() == 0
    for x, a in pairs:
        assert_same(a, x)


@settings(max_examples=max(100, settings.default.max_examples))
@given(arrays(np.dtype(np.int64), shapes(min_dims=2, max_dims=2, min_side=2), small=True),
       st.data())
def test_views_see_each_others_writes(x, data):
    a = lnp.asarray(x)
    x = x.copy()
    views = [(x[::2], a[::2]), (x.T, a.T), (x[1:, :1], a[1:, :1]), (x.reshape(-1), a.reshape(-1))]
    for _ in range(4):
        xv, av = views[data.draw(st.integers(0, len(views) - 1))]
        key = _basic_key(data.draw, xv.shape)
        value = data.draw(st.integers(-50, 50))
        xv[key] = value
        av[key] = value
        for xv2, av2 in views:
            assert_same(av2, xv2)
    assert_same(a, x)


# -- a.flat -----------------------------------------------------------------------------------
def test_flat_iterator_writes_into_non_contiguous_arrays():
    from lazynum.frontend.indexing.advanced import FlatIter
    x, a = grid(2, 3)
    xt, at = x.T, a.T
    for key, value in [([0, 1, 2], [1, 2]), (slice(1, 5), [7, 8, 9, 10, 11, 12]), (4, 3.5),
                       (np.array([True, False] * 3), -1), (lnp.asarray([5, -1]), [4, 5])]:
        xt.flat[_host(key)] = value
        FlatIter(at)[key] = value
        assert_same(a, x)
    assert_same(FlatIter(at)[[1, 2]], xt.flat[[1, 2]])
    assert len(FlatIter(at)) == 6
    with pytest.raises(IndexError):
        FlatIter(at)[[9]] = 1.0


def _host(key):
    return np.asarray(key) if isinstance(key, lnp.ndarray) else key


def test_flat_property_writes_through():
    x, a = grid(2, 3)
    at = a.T
    at.flat[[0, 1]] = 9.0
    x.T.flat[[0, 1]] = 9.0
    assert_same(a, x)
    a.T.flat = 3.0
    x.T.flat = 3.0
    assert_same(a, x)


def test_numpy_ufunc_at_on_lazy_arrays_is_not_silently_lost():
    x, a = grid(3)
    np.multiply.at(x, [0, 0, 2], 2.0)
    np.multiply.at(a, [0, 0, 2], 2.0)
    assert_same(a, x)


@given(st.sampled_from([(1, 0), (0, 1)]), st.sampled_from([(1, 2, 0), (2, 0, 1), (0, 1, 2)]),
       st.sampled_from(["unary", "scalar", "same", "mixed", "broadcast"]))
def test_elementwise_results_follow_numpys_memory_order(perm2, perm3, how):
    """NumPy lays results of ops on transposed inputs out in the inputs' order ('K'), which
    decides whether ravel/reshape of the result are views: writes must alias exactly alike."""
    for perm in (perm2, perm3):
        shape = (2, 3, 4)[:len(perm)]
        base = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
        results = []
        for m in (np, lnp):
            x = m.asarray(base).transpose(perm)
            c = m.ascontiguousarray(x)
            r = {"unary": lambda: m.sin(x), "scalar": lambda: x * 2.0, "same": lambda: x + x,
                 "mixed": lambda: x + c, "broadcast": lambda: x + m.ones(x.shape[-1])}[how]()
            flat = r.ravel()
            flat[0] = -1.0
            r.reshape(-1)[1] = -2.0
            results.append((r, r.flags.c_contiguous))
        (want, want_c), (got, got_c) = results
        assert got_c == want_c
        assert_same(got, want)


def test_in_place_ops_on_scalar_reads_behave_like_numpy_scalars():
    results = []
    for m in (np, lnp):
        a = m.arange(3)
        a[1] += 0.5            # NumPy: a[1] + 0.5 stored back with setitem's casting
        a[2] *= 1.9
        b = m.zeros(2, bool)
        b[0] += b[1] + True
        f = m.arange(3.0)
        x = f[1]
        x += 1                 # a scalar read is a copy: f is unchanged
        results.append((m.asarray(a), m.asarray(b), m.asarray(f), float(x)))
    (a0, b0, f0, x0), (a1, b1, f1, x1) = results
    assert_same(a1, a0)
    assert_same(b1, b0)
    assert_same(f1, f0)
    assert x1 == x0


def test_a_sequence_into_one_element_is_a_value_error_like_numpy():
    for m in (np, lnp):
        a = m.arange(3.0)
        for value in (m.asarray([5.0]), a[:1]):
            with pytest.raises(ValueError):
                a[0] = value


def test_zero_d_results_are_scalars_so_augmented_assignment_rebinds():
    """NumPy returns 0-d ufunc and full-reduction results as scalars: ``best = total;
    total += x`` leaves ``best`` as it was (a 0-d array would be written in place)."""
    def program(m, a):
        total = a.sum()
        best = total
        total += 1
        y = a[0] * 2
        alias = y
        y *= 3
        z = m.sin(a[1])
        kept = z
        z -= 1
        argmax = a.argmax()
        view = m.asarray(a)[1:argmax]
        return [best, total, alias, y, kept, z, view]
    x = np.arange(4.0)
    expected = program(np, x.copy())
    got = program(lnp, lnp.asarray(x))
    for g, e in zip(got, expected):
        assert_same(g, np.asarray(e))


def test_a_read_only_output_is_refused_before_casting_or_type_errors():
    """NumPy checks that ``out`` is writeable before it resolves the loop."""
    flags = lnp.broadcast_to(lnp.asarray(np.array([True, False])), (2,))
    ints = lnp.broadcast_to(lnp.asarray(np.array([1, 2], dtype=np.uint8)), (2,))
    for statement in (lambda: flags.__ior__(2.0), lambda: ints.__itruediv__(ints),
                      lambda: lnp.add(ints, 0.5, out=ints)):
        with pytest.raises(ValueError, match="read-only"):
            statement()
    a = lnp.asarray(np.array([3.0, -1.0]))
    with pytest.raises(ValueError, match="read-only"):
        lnp.minimum(ints, a[a > 0], out=ints)


def test_views_of_a_scalar_result_are_new_arrays():
    """NumPy's scalars have no memory to share: ``s.reshape(1)``, ``s[...]`` and ``np.flip``
    of one are new arrays, and writes through them never reach ``s``."""
    def program(m, b):
        s = (b[0] < 0) + False
        t = b.sum()
        r = s.reshape((1,))
        r[0] = True
        e = t[...]
        e += 5
        return [s, t, r, e]
    x = np.array([1.0, 2.0])
    for g, e in zip(program(lnp, lnp.asarray(x)), program(np, x.copy())):
        assert_same(g, np.asarray(e))
