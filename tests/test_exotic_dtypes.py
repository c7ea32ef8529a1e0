"""Dtypes with no lazy form (issue 15 item 2): datetime64, timedelta64, structured and record,
str_, bytes_, StringDType, object and longdouble arrays are NumPy-backed lazynum arrays.

Differential against NumPy (values, dtype, shape, exception type, printing); every operation
on one is a counted fallback; conversions to a lazy dtype come back as ordinary lazy arrays.
"""
from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given, settings

import lazynum as lnp
from lazynum.eager import NumpyBackedArray
from . import strategies as S


def fallbacks() -> int:
    return lnp.metrics()["fallbacks"]


def assert_lazy(x) -> None:
    """``x`` is an ordinary lazy array (not NumPy-backed)."""
    assert isinstance(x, lnp.ndarray) and not isinstance(x, NumpyBackedArray)


def assert_backed_like(x, expected) -> None:
    """``x`` is a NumPy-backed lazynum array equal to NumPy's ``expected``."""
    assert isinstance(x, NumpyBackedArray)
    S.assert_same(x, expected)
    assert repr(x) == repr(expected)


# -- nothing NumPy accepts raises TypeError -----------------------------------------------------
@pytest.mark.parametrize("make", [
    lambda m: m.asarray(np.array(["a", "b"])),
    lambda m: m.arange("2020-01", "2020-03", dtype="datetime64[D]"),
    lambda m: m.array([1, "x"], dtype=object),
    lambda m: m.zeros(3, dtype=[("a", "i4"), ("b", "f8")]),
    lambda m: m.ones(2, dtype=np.longdouble),
    lambda m: m.full(3, "abc"),
    lambda m: m.array([b"ab", b"c"]),
    lambda m: m.array(["x", "yy"], dtype=np.dtypes.StringDType()),
    lambda m: m.asarray(np.array([1, 2], dtype=np.clongdouble)),
    lambda m: m.array([1, 2]).astype("timedelta64[s]"),
])
def test_creation_of_every_dtype(make):
    got, expected = make(lnp), make(np)
    assert_backed_like(got, expected)
    assert str(got) == str(expected)


def test_the_ndarray_constructor_takes_every_dtype():
    x = lnp.ndarray((2,), dtype="datetime64[s]")      # zeros, as lazynum's constructor gives
    assert_backed_like(x, np.zeros(2, dtype="datetime64[s]"))
    assert_lazy(lnp.ndarray((2,), dtype=float))


def test_numpy_input_is_snapshotted_as_for_lazy_arrays():
    data = np.array(["a", "b"])
    x = lnp.asarray(data)
    data[0] = "z"
    assert x[0] == "a"
    with pytest.raises(ValueError):
        np.asarray(x, copy=False)       # exposed to NumPy by a copy, as every lazynum array


@given(a=S.exotic_arrays())
@settings(max_examples=60, deadline=None)
def test_the_ndarray_interface_matches_numpy(a):
    x = lnp.asarray(a)
    assert_backed_like(x, a)
    assert (x.shape, x.dtype, x.ndim, x.size, x.strides) == (a.shape, a.dtype, a.ndim, a.size, a.strides)
    for op in (lambda m, v: v.T, lambda m, v: v.reshape(-1)[::-1], lambda m, v: v.copy(),
               lambda m, v: m.concatenate([v.reshape(-1), v.reshape(-1)]),
               lambda m, v: m.expand_dims(v, 0), lambda m, v: v.reshape(-1)[:2],
               lambda m, v: m.where(m.ones(v.shape, bool), v, v)):
        S.assert_same(op(lnp, x), op(np, a))
    for op in (lambda m, v: v == v, lambda m, v: m.sort(v, axis=None), lambda m, v: v[0],
               lambda m, v: v.argsort(axis=None), lambda m, v: v.max(), lambda m, v: v + v):
        got, expected = S.same_error(lambda: op(lnp, x), lambda: op(np, a))
        if expected is not None:
            S.assert_same(got, expected)
    assert x.tolist() == a.tolist()


# -- datetime64 / timedelta64 -------------------------------------------------------------------
def test_datetime_chain_and_return_to_the_lazy_path():
    chain = lambda m: (lambda d1: (d1, d1 + m.timedelta64(36, "h")))(
        m.arange("2024-02-27", "2024-03-03", dtype="datetime64[D]").astype("datetime64[h]"))
    (d1, d2), (e1, e2) = chain(lnp), chain(np)
    assert_backed_like(d2, e2)
    assert_backed_like(d2 - d1, e2 - e1)
    S.assert_same(d2 > d1[2], e2 > e1[2])
    delta = d2 - d1
    before = fallbacks()
    days = delta / lnp.timedelta64(1, "D")
    assert fallbacks() == before + 1
    assert_lazy(days)
    syncs = lnp.metrics()["syncs"]
    scaled = (days * 24 + 1).sum()          # lazy from here on: no sync, no fallback
    assert lnp.metrics()["syncs"] == syncs and fallbacks() == before + 1
    S.assert_same(scaled, ((e2 - e1) / np.timedelta64(1, "D") * 24 + 1).sum())
    ints = (d2 - d1).astype("int64")
    assert_lazy(ints)
    S.assert_same(ints, (e2 - e1).astype("int64"))


def test_datetime_errors_are_numpys():
    d = lnp.array(["2020-01-01"], dtype="datetime64[D]")
    with pytest.raises(TypeError):
        d + d                                               # datetime + datetime: no loop
    with pytest.raises(ValueError):
        lnp.array(["not a date"], dtype="datetime64[D]")
    with pytest.raises(IndexError):
        d[3]


def test_calendar_functions_on_backed_arrays():
    make = lambda m: (m.array(["2024-01-01", "2024-03-15"], dtype="datetime64[D]"),
                      m.array(["2024-01-20", "2024-04-01"], dtype="datetime64[D]"))
    (a, b), (na, nb) = make(lnp), make(np)
    count = lnp.busday_count(a, b)
    assert_lazy(count)
    S.assert_same(count, np.busday_count(na, nb))
    S.assert_same(lnp.is_busday(a), np.is_busday(na))
    assert_backed_like(lnp.busday_offset(a, 3, roll="forward"), np.busday_offset(na, 3, roll="forward"))
    assert_backed_like(lnp.datetime_as_string(a, unit="M"), np.datetime_as_string(na, unit="M"))
    assert lnp.datetime_data(a.dtype) == np.datetime_data(na.dtype)
    assert lnp.isnat(a).tolist() == [False, False]


# -- structured and record arrays ---------------------------------------------------------------
def test_structured_fields_are_views_in_both_directions():
    x = lnp.zeros(4, dtype=[("a", "i4"), ("b", "f8")])
    n = np.zeros(4, dtype=[("a", "i4"), ("b", "f8")])
    for arr in (x, n):
        field = arr["b"]
        arr["a"] = [1, 2, 3, 4]             # a write into the parent, seen by the field view
        field[1:3] = 7.5                    # a write through the view, seen by the parent
        arr[::2]["b"] += 1                  # through a view of the parent
    assert_backed_like(x, n)
    b = x["b"]
    assert_lazy(b)
    S.assert_same(b * 2, n["b"] * 2)
    x[0] = (9, 9.5)
    assert b[0] == 9.5                      # the lazy field view sees the later write
    assert x[["a"]].dtype == n[["a"]].dtype
    rec = x[1]
    rec["a"] = -1                           # NumPy's record scalar views the array
    assert x["a"][1] == -1


def test_field_view_arithmetic_stays_lazy():
    x = lnp.zeros(3, dtype=[("a", "i4"), ("b", "f8")])
    x["b"] = [1.0, 2.0, 3.0]
    b = x["b"]
    before, syncs = fallbacks(), lnp.metrics()["syncs"]
    y = lnp.sqrt(b) + b.mean()
    assert fallbacks() == before and lnp.metrics()["syncs"] == syncs
    S.assert_same(y, np.sqrt([1.0, 2.0, 3.0]) + 2.0)


def test_record_arrays():
    make = lambda m: m.rec.fromarrays([m.arange(3), m.array([1.5, 2.5, 3.5]),
                                       m.array(["x", "y", "z"])], names="n,v,s")
    r, e = make(lnp), make(np)
    assert_backed_like(r, e)
    S.assert_same(r.v * 2, e.v * 2)
    assert_backed_like(r.s, e.s)
    r.v = [0.0, 1.0, 2.0]
    e.v = [0.0, 1.0, 2.0]
    assert_backed_like(r, e)


# -- strings ------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["U", "S", np.dtypes.StringDType()])
def test_string_chain(dtype):
    def chain(m):
        words = m.array(["apple", "Banana", "cherry", "apple"]).astype(dtype)
        if words.dtype.kind == "S":
            return words, words == b"apple", m.strings.upper(words), m.strings.str_len(words)
        return words, words == "apple", m.strings.upper(words) + "!", m.strings.str_len(words)
    got, expected = chain(lnp), chain(np)
    assert_backed_like(got[0], expected[0])
    assert_lazy(got[1])
    S.assert_same(got[1], expected[1])
    assert_backed_like(got[2], expected[2])
    assert_lazy(got[3])
    S.assert_same(got[3].sum(), expected[3].sum())
    assert_backed_like(lnp.sort(got[0]), np.sort(expected[0]))
    assert_backed_like(got[0][got[1]], expected[0][expected[1]])
    assert_backed_like(lnp.char.add(got[0], got[0]), np.char.add(expected[0], expected[0]))


def test_string_comparison_with_a_lazy_mask_and_numpy_dispatch():
    words = lnp.array(["b", "a", "c"])
    mask = lnp.arange(3) > 0                # a lazy operand: synced, counted
    before = fallbacks()
    picked = words[mask]
    assert fallbacks() == before + 1
    assert_backed_like(picked, np.array(["a", "c"]))
    assert_backed_like(np.sort(words), np.array(["a", "b", "c"]))   # NumPy's namespace too
    S.assert_same(np.equal(words, "a"), np.array([False, True, False]))


# -- object and longdouble ---------------------------------------------------------------------
def test_object_arrays_of_python_values():
    make = lambda m: m.array([[1, 2], [3], 10**30], dtype=object)
    o, e = make(lnp), make(np)
    assert_backed_like(o, e)
    assert_backed_like(o + o, e + e)
    assert o[2] == 10**30 and o[0] == [1, 2]
    big = lnp.array([10**30, 5], dtype=object)
    assert big.sum() == 10**30 + 5
    assert_lazy(lnp.array([1, 2], dtype=object).astype(np.int64))


def test_longdouble_arithmetic_and_return():
    x = lnp.linspace(0, 1, 5)
    ld = lnp.asarray(np.arange(5, dtype=np.longdouble))
    expected = np.arange(5, dtype=np.longdouble) * 3 + np.linspace(0, 1, 5)
    assert_backed_like(ld * 3 + x, expected)
    back = (ld * 3 + x).astype(np.float64)
    assert_lazy(back)
    S.assert_same(back, expected.astype(np.float64))
    assert_backed_like(lnp.sqrt(ld), np.sqrt(np.arange(5, dtype=np.longdouble)))


# -- views, writes, lazy operands -------------------------------------------------------------
def test_views_alias_as_in_numpy():
    make = lambda m: m.array(["2020-01-01", "2020-06-01", "2021-01-01"], dtype="datetime64[D]")
    d, e = make(lnp), make(np)
    for arr in (d, e):
        v = arr[::-1]
        v[0] = np.datetime64("1999-09-09")
        arr.reshape(3, 1)[1, 0] = np.datetime64("2000-01-01")
    assert_backed_like(d, e)
    ints = d.view("int64")                  # a lazy window of the same data
    assert_lazy(ints)
    ints[0] = 0
    assert d[0] == np.datetime64("1970-01-01")


def test_lazy_arrays_take_values_from_backed_ones():
    y = lnp.zeros(3)
    y[:] = lnp.array(["1.5", "2", "-3"])
    assert_lazy(y)
    S.assert_same(y, np.array([1.5, 2.0, -3.0]))
    with pytest.raises(ValueError):
        y[0] = lnp.array(["x"])[0]
    assert_backed_like(y.astype(str), np.array([1.5, 2.0, -3.0]).astype(str))


def test_mixed_program_counts_its_fallbacks():
    lnp.reset_metrics()
    stamps = lnp.array(["2024-01-01T00:00", "2024-01-01T06:30", "2024-01-02T00:00"],
                       dtype="datetime64[m]")
    hours = lnp.diff(stamps) / lnp.timedelta64(1, "h")     # array, diff, divide: 3 fallbacks
    assert fallbacks() == 3
    assert_lazy(hours)
    rate = (hours * 2.0).mean()
    assert fallbacks() == 3
    assert float(rate) == pytest.approx(24.0)
    sites = lnp.metrics_report()
    assert "datetime64" in sites


def test_copy_pickle_and_iteration():
    x = lnp.array([["a", "b"], ["c", "d"]])
    assert_backed_like(copy.deepcopy(x), np.array([["a", "b"], ["c", "d"]]))
    assert_backed_like(pickle.loads(pickle.dumps(x)), np.array([["a", "b"], ["c", "d"]]))
    rows = list(x)
    assert_backed_like(rows[1], np.array(["c", "d"]))
    assert len(x) == 2 and "b" in x and x.sync() is x
