"""Shape functions: normalized as integer polynomials, compiled once, exact at every symbol value."""
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


def test_normalization_simplifies_what_slicing_builds():
    s0, s1 = ("$s", 0), ("$s", 1)
    messy = ("floordiv", ("add", ("sub", ("sub", s0, 1), 1), 0), 1)     # x[1:-1] written out
    assert to_python(messy) == "(-2 + s0)"
    assert ShapeFunction(build(1, [messy]).source, 1)((10,)) == (10, 8)
    # sums and products are collected; constant divisions fold; a // 1 is a
    assert to_python(("sub", ("mul", s0, ("add", s1, 1)), ("mul", s1, s0))) == "(s0)"
    assert to_python(("add", ("floordiv", ("mul", 7, 3), 2), ("mod", s0, 1))) == "10"
    assert to_python(("add", ("floordiv", ("sub", s0, 1), 2), 1)) == "(1 + ((-1 + s0) // 2))"


def test_building_a_shape_function_does_not_import_sympy():
    import subprocess
    import sys
    code = ("import sys, lazynum.compile.shape_functions as f; "
            "f.build(2, [('mul', ('$s', 0), ('add', ('$s', 1), 3))]); print('sympy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_text_that_is_not_a_shape_function_is_refused():
    with pytest.raises(ValueError):
        ShapeFunction("def sizes(s0):\n    return (__import__('os').getpid(),)\n", 1)
