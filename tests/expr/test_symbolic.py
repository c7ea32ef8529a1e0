"""SymInt: exact size expressions that behave as ints, 0/1 specialization, duck sizing."""
import pickle

from hypothesis import given, strategies as st

import numpy as np

from lazynum.expr import symbolic
from lazynum.expr.shapes import range_length, slice_extent
from lazynum.expr.symbolic import Symbol, SymInt, evaluate

from .. import strategies as S

ARITH = [("add", lambda a, b: a + b), ("sub", lambda a, b: a - b), ("mul", lambda a, b: a * b),
         ("floordiv", lambda a, b: a // b), ("mod", lambda a, b: a % b),
         ("radd", lambda a, b: b + a), ("rsub", lambda a, b: b - a), ("rmul", lambda a, b: b * a)]


@given(st.integers(2, 50), st.integers(2, 50),
       st.lists(st.tuples(st.sampled_from([name for name, _ in ARITH]), st.integers(-6, 9),
                          st.booleans()), min_size=1, max_size=8))
def test_arithmetic_value_is_int_arithmetic_and_expression_is_exact(n, m, steps):
    """Every result's value equals plain int arithmetic, and its expression evaluated at
    the symbol values gives that value again (the invariant replay relies on)."""
    sn, sm = SymInt(n, Symbol()), SymInt(m, Symbol())
    values = {sn.expr: n, sm.expr: m}
    sym, plain = sn, n
    for name, constant, use_other in steps:
        fn = dict(ARITH)[name]
        other_sym, other_plain = (sm, m) if use_other else (constant, constant)
        if name in ("floordiv", "mod") and other_plain <= 0:
            continue
        sym, plain = fn(sym, other_sym), fn(plain, other_plain)
        assert int(sym) == plain
        if type(sym) is SymInt:
            assert evaluate(sym.expr, values) == plain
        else:
            assert type(sym) is int      # left the symbolic world only through 0/1
            assert plain in (0, 1) or not isinstance(sym, SymInt)


def test_zero_and_one_results_are_plain_ints():
    n = SymInt(5, Symbol())
    assert type(n - 4) is int and n - 4 == 1
    assert type(n - 5) is int and n - 5 == 0
    assert type(n * 0) is int
    assert type(n - 3) is SymInt


def test_symint_looks_and_pickles_like_an_int():
    n = SymInt(7, Symbol())
    assert repr(n) == "7" and str(n) == "7" and f"{n:03d}" == "007"
    assert (n, 2) == (7, 2) and hash(n) == hash(7)
    restored = pickle.loads(pickle.dumps((n, 3)))
    assert restored == (7, 3) and type(restored[0]) is int
    assert np.zeros((n, 2)).shape == (7, 2)
    assert n / 2 == 3.5 and type(n + 0.5) is float


@given(st.integers(0, 12), st.one_of(st.none(), st.integers(-15, 15)),
       st.one_of(st.none(), st.integers(-15, 15)),
       st.one_of(st.none(), st.integers(-4, 4).filter(bool)))
def test_slice_extent_matches_python_slices_for_plain_and_symbolic_sizes(n, start, stop, step):
    item = slice(start, stop, step)
    expected = range(*item.indices(n))
    size = SymInt(n, Symbol()) if n >= 2 else n
    first, got_step, length = slice_extent(item, size)
    assert length == len(expected) and got_step == expected.step
    if length:
        assert first == expected.start
    if type(length) is SymInt:
        assert evaluate(length.expr, {size.expr: n}) == len(expected)
    assert range_length(expected.start, expected.stop, expected.step) == len(expected)


def test_duck_sizing_shares_symbols_within_a_trace_only():
    symbolic.new_trace()
    a, b, c = symbolic.symbolize((5, 5, 1))
    assert a.expr is b.expr and type(c) is int
    symbolic.new_trace()
    (d,) = symbolic.symbolize((5,))
    assert d.expr is not a.expr


@given(S.size_exprs(n_symbols=1, depth=2), st.integers(2, 40))
def test_evaluate_follows_python_integer_semantics(expr, n):
    sym = Symbol()

    def substitute(e):
        if type(e) is tuple and e[0] == "$s":
            return sym
        if type(e) is tuple:
            return (e[0], substitute(e[1]), substitute(e[2]))
        return e
    names = {"add": int.__add__, "sub": int.__sub__, "mul": int.__mul__,
             "floordiv": int.__floordiv__, "mod": int.__mod__}

    def direct(e):
        if type(e) is tuple and e[0] == "$s":
            return n
        if type(e) is tuple:
            return names[e[0]](direct(e[1]), direct(e[2]))
        return e
    assert evaluate(substitute(expr), {sym: n}) == direct(expr)
