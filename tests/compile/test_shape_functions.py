"""Shape functions: sympy-simplified, compiled once, exact at every symbol value."""
from hypothesis import given, strategies as st
import pytest

from lazynum.compile.shape_functions import ShapeFunction, build, to_python

from .. import strategies as S

_OPS = {"add": int.__add__, "sub": int.__sub__, "mul": int.__mul__,
        "floordiv": int.__floordiv__, "mod": int.__mod__}


def direct(expr, values):
    if type(expr) is int:
        return expr
    if expr[0] == "$s":
        return values[expr[1]]
    return _OPS[expr[0]](direct(expr[1], values), direct(expr[2], values))


@given(st.lists(S.size_exprs(n_symbols=3), min_size=1, max_size=4),
       st.lists(st.integers(2, 60), min_size=3, max_size=3))
def test_compiled_shape_function_equals_direct_integer_evaluation(exprs, values):
    function = build(3, exprs)
    assert function(values) == tuple(values) + tuple(direct(e, values) for e in exprs)


def test_sympy_simplifies_what_slicing_builds():
    s0 = ("$s", 0)
    messy = ("floordiv", ("add", ("sub", ("sub", s0, 1), 1), 0), 1)     # x[1:-1] written out
    assert to_python(messy) in ("(-2 + s0)", "(s0 - 2)")
    assert ShapeFunction(build(1, [messy]).source, 1)((10,)) == (10, 8)


def test_text_that_is_not_a_shape_function_is_refused():
    with pytest.raises(ValueError):
        ShapeFunction("def sizes(s0):\n    return (__import__('os').getpid(),)\n", 1)
