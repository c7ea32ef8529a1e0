"""The record/replay compile cache: one program per structure, never a stale replay.

Random programs re-run at random new sizes that keep their structure must match NumPy
and compile once; sizes that change the structure (a dim becomes 1, two equal input dims
become different) compile again and stay correct; new Python scalar values never compile.
"""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import lazynum as lnp
from lazynum.runtime import compile_cache

from .. import strategies as S


@pytest.fixture(autouse=True)
def _empty_cache():
    compile_cache.clear_memory()
    yield
    compile_cache.clear_memory()


def compiles():
    return lnp.metrics()["compiles"]


# Steps written once against a namespace m (numpy or lazynum).  None branches on a size
# except through 0/1, and sizes >= 12 keep every derived size >= 2 for up to two
# [1:-1] trims and one [::2] (drawn below).  Equal values are structure too (duck sizing,
# and two views with equal attrs are one node), so rows are drawn from 40..60 and columns
# from 12..24: no derived row size (rows - 4 .. rows + 1) can equal a derived column size,
# and every size draw has one structure.
STEPS = {
    "neg": lambda m, x, k: -x,
    "sin": lambda m, x, k: m.sin(x),
    "tanh_scale": lambda m, x, k: m.tanh(x) * k + 1.0,
    "clip": lambda m, x, k: m.clip(x * x, -k, k),
    "max_scalar": lambda m, x, k: m.maximum(x, k / 10),
    "where": lambda m, x, k: m.where(x > k / 10, x, -2.0 * x),
    "transpose": lambda m, x, k: x.T,
    "reverse": lambda m, x, k: x[::-1],
    "reshape_swap": lambda m, x, k: x.reshape(x.shape[1], x.shape[0]),
    "flatten_back": lambda m, x, k: x.reshape(-1).reshape(x.shape),
    "row_center": lambda m, x, k: x - x.mean(axis=1, keepdims=True),
    "col_norm": lambda m, x, k: x / (m.abs(x).max(axis=0) + 1.0),
    "cumsum": lambda m, x, k: m.cumsum(x, axis=0) * 0.1,
    "append_row": lambda m, x, k: m.concatenate([x, x[:1] * k], axis=0),
    "gram": lambda m, x, k: (x.T @ x) * 0.01,
    "sort": lambda m, x, k: m.sort(x, axis=-1),
    "inplace": lambda m, x, k: _inplace(x, k),
    "sum_back": lambda m, x, k: x - x.sum(axis=0, keepdims=True) * 0.1,
}
SHRINKING = {"trim": lambda m, x, k: x[1:-1], "halve": lambda m, x, k: x[:, ::2]}


def _inplace(x, k):
    y = x.copy()
    y[1:, :] *= 0.5
    y += k
    return y


def run(m, data, names, scalars):
    x = m.asarray(data)
    for name, k in zip(names, scalars):
        x = {**STEPS, **SHRINKING}[name](m, x, k)
    return x + 0.0          # something to compute even when every step was a view




@settings(max_examples=30)
@given(st.lists(st.sampled_from(sorted(STEPS)), min_size=1, max_size=8),
       st.lists(st.sampled_from(["trim", "halve"]), max_size=2, unique=True),
       st.randoms(use_true_random=False),
       st.lists(st.tuples(st.integers(40, 60), st.integers(12, 24)), min_size=3, max_size=3),
       st.lists(st.floats(0.5, 4.0), min_size=10, max_size=10))
def test_random_programs_at_new_sizes_compile_once_and_match_numpy(names, shrinks, rng, sizes, ks):
    names = list(names)
    for shrink in shrinks:
        names.insert(rng.randrange(len(names) + 1), shrink)
    compile_cache.clear_memory()
    before = compiles()
    for (rows, cols), scale in zip(sizes, (1.0, 2.0, 3.0)):
        data = np.random.default_rng(rows * 31 + cols).standard_normal((rows, cols))
        scalars = [k * scale for k in ks]           # new Python scalars at every run
        got = run(lnp, data, names, scalars)
        S.assert_same(got, run(np, data, names, scalars), rtol=1e-9, atol=1e-9)
    assert compiles() - before == 1, lnp.metrics_report()


def test_a_dim_becoming_one_recompiles_and_stays_correct():
    def program(m, x):
        return (x - x.mean(axis=0)) * 2.0

    shapes = [(5, 7), (1, 7), (6, 8), (1, 9), (9, 1)]
    counts = []
    for shape in shapes:
        data = np.arange(np.prod(shape), dtype=float).reshape(shape) ** 1.5
        S.assert_same(program(lnp, lnp.asarray(data)), program(np, data))
        counts.append(compiles())
    assert counts == [1, 2, 2, 2, 3]      # (6, 8) replays (5, 7)'s program; (1, 9) (1, 7)'s


def test_equal_input_dims_that_become_different_recompile():
    def program(m, x, y):
        return x * 2.0 + y.sum()

    def check(x_shape, y_shape):
        x, y = np.ones(x_shape), np.arange(y_shape[0], dtype=float)
        S.assert_same(program(lnp, lnp.asarray(x), lnp.asarray(y)), program(np, x, y))

    check((5, 5), (7,))
    check((6, 6), (8,))
    assert compiles() == 1
    check((5, 6), (7,))
    assert compiles() == 2
    check((6, 6), (6,))
    assert compiles() == 3             # all three input dims equal: a third structure


def test_a_square_only_program_replays_for_squares_and_raises_numpys_error_otherwise():
    for n in (4, 6, 9):
        data = np.arange(n * n, dtype=float).reshape(n, n)
        S.assert_same(lnp.asarray(data) + lnp.asarray(data).T, data + data.T)
    assert compiles() == 1
    with pytest.raises(ValueError):
        lnp.asarray(np.ones((4, 6))) + lnp.asarray(np.ones((4, 6))).T


@given(st.lists(st.one_of(st.integers(-50, 50), st.floats(-1e3, 1e3)), min_size=4, max_size=4))
def test_python_scalar_values_never_recompile(scalars):
    a, b, c, d = scalars

    def program(m, x):
        return m.where(x > a, x * b + c, x - d) / (abs(d) + 1)

    data = np.linspace(-60, 60, 11)
    S.assert_same(program(lnp, lnp.asarray(data)), program(np, data), rtol=1e-12)
    assert compiles() <= 1           # one program for every example of this test


def test_replay_reads_new_data_and_new_sizes_never_stale_values():
    results = []
    for n in (8, 8, 13):
        data = np.random.default_rng(n).random(n) + len(results)
        got = (lnp.asarray(data)[2:] * 3.0).sum()
        results.append((float(got), float((data[2:] * 3.0).sum())))
    assert all(a == pytest.approx(b) for a, b in results)
    assert compiles() == 1


def test_dynamic_shapes_off_compiles_per_size():
    with lnp.config(dynamic_shapes=False):
        for n in (5, 6, 7):
            (lnp.asarray(np.ones(n)) * 2.0).sum().item()
    assert compiles() == 3


# --- mark_static / mark_dynamic -----------------------------------------------------------

def test_mark_static_specializes_and_mark_dynamic_declares_a_range():
    for n in (5, 6):
        x = lnp.asarray(np.ones((n, 3)))
        lnp.mark_static(x, 0)
        assert (x * 2).sum().item() == 6.0 * n
    assert compiles() == 2
    compile_cache.clear_memory()
    for n in (5, 6, 8):
        x = lnp.asarray(np.ones((n, 3)))
        lnp.mark_dynamic(x, -2, min=2, max=8)
        assert (x * 2).sum().item() == 6.0 * n
    assert compiles() - 2 == 1


def test_mark_dynamic_out_of_range_is_a_clear_error():
    x = lnp.asarray(np.ones((9, 3)))
    with pytest.raises(ValueError, match="outside the declared range"):
        lnp.mark_dynamic(x, 0, max=8)
    with pytest.raises(ValueError, match="larger than max"):
        lnp.mark_dynamic(x, 0, min=5, max=3)
    with pytest.raises(ValueError, match="input arrays"):
        lnp.mark_static(x * 2, 0)
    with pytest.raises(np.exceptions.AxisError):
        lnp.mark_static(x, 2)
    with pytest.raises(TypeError):
        lnp.mark_static(np.ones(3), 0)


# --- explanations, warnings, metrics --------------------------------------------------------

def test_a_miss_is_explained_against_the_nearest_cached_program(capsys):
    with lnp.config(logs="recompiles"):
        for dtype in (np.float64, np.float32):
            (lnp.asarray(np.ones(4, dtype)) * 2).sum().item()
    err = capsys.readouterr().err
    assert "first compile" in err
    assert "input at position 0: dtype float32 (cached: float64)" in err


def test_a_miss_on_a_dtype_attr_names_the_dtype():
    # dtypes enter signatures by name, tagged: an explanation prints the name alone, and an
    # attr that is a tuple of the word "dtype" and a name is not mistaken for one
    from lazynum.expr.signature import DTYPE
    from lazynum.runtime.compile_cache import explain
    cached = [("leaf", "float64", (4,), "C"), ("op", ((DTYPE, "float32"), ("dtype", "x")), "float32", (4,), (-1,))]
    new = [("leaf", "float64", (4,), "C"), ("op", ((DTYPE, "int16"), ("dtype", "x")), "int16", (4,), (-1,))]
    line = explain(new, [cached])
    assert line == ("nearest cached program: op 'op' at position 1: attrs (int16, (dtype, x)) "
                    "(cached: (float32, (dtype, x)))")


def test_a_line_that_keeps_compiling_warns_once_naming_what_changes():
    with lnp.config(recompile_limit=3):
        with pytest.warns(RuntimeWarning, match=r"compiled 4 different programs.*dtype") as record:
            for dtype in (np.int8, np.int16, np.int32, np.int64, np.float32, np.float64):
                (lnp.asarray(np.ones(4, dtype)) + 1).sum().item()
    assert sum("different programs" in str(w.message) for w in record) == 1


def test_a_miss_on_a_sync_of_many_outputs_is_explained_in_one_short_line():
    # A loop syncing thousands of arrays printed every output index in its warning; the
    # explanation shows a few of them and a count.
    from lazynum.runtime.compile_cache import explain
    cached = [("leaf",), ("outputs", tuple(range(3000)))]
    new = [("leaf",), ("outputs", tuple(range(2999)) + (3000,))]
    line = explain(new, [cached])
    assert line.startswith("nearest cached program: op 'outputs' at position 1: outputs (0, 1,")
    assert "2992 more" in line and line.endswith("2998, 2999))") and len(line) < 300


def test_metrics_count_hits_misses_and_time_each_phase():
    lnp.reset_metrics()
    for n in (4, 5, 6):
        (lnp.asarray(np.ones(n)) * 3).sum().item()
    m = lnp.metrics()
    assert (m["compiles"], m["cache_misses"], m["cache_hits"], m["cache_hits_memory"]) == (1, 1, 2, 2)
    assert m["time_hash_s"] > 0 and m["time_compile_s"] > 0 and m["time_run_s"] > 0
    assert "first compile" in lnp.metrics_report()


def test_graph_hash_is_size_and_scalar_independent_but_sees_structure():
    def hashed(n, k, dtype=np.float64):
        return lnp.graph_hash(lnp.asarray(np.ones(n, dtype))[1:] * k)
    assert hashed(5, 2.0) == hashed(9, 3.5)
    assert hashed(5, 2.0) != hashed(5, 2.0, np.float32)
    assert hashed(5, 2.0) != hashed(1, 2.0)
