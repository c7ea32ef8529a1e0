"""Index expressions: view composition stays affine where ranges prove it."""
from lazynum.compile import index_expr as ix


def ranges(**extents):
    return ix.Ranges({int(k[1:]): ix.as_index(v) for k, v in extents.items()})


def test_reshape_unravel_of_a_flat_index_simplifies_back_to_the_loop_variables():
    i, j = ix.var(0), ix.var(1)
    flat = i * 4 + j
    r = ranges(v0=3, v1=4)
    assert ix.floordiv(flat, ix.as_index(4), r) == i
    assert ix.mod(flat, ix.as_index(4), r) == j


def test_symbolic_extent_equal_to_the_divisor_simplifies():
    n = ix.slot(0)
    i, j = ix.var(0), ix.var(1)
    r = ix.Ranges({0: ix.slot(1), 1: n})
    assert ix.floordiv(i * n + j, n, r) == i
    assert ix.mod(i * n + j, n, r) == j


def test_unprovable_division_is_kept_and_printed():
    i = ix.var(0)
    q = ix.floordiv(i, ix.as_index(3), ranges(v0=10))
    assert "//" in ix.format_index(q)
    assert ix.mod(ix.as_index(7), ix.as_index(3), ranges()) == ix.as_index(1)


def test_coefficient_extraction_and_substitution():
    i, j = ix.var(0), ix.var(1)
    e = i * ix.slot(2) + j * 3 + 5
    coef, rest = ix.coefficient(e, 0)
    assert coef == ix.slot(2) and rest == j * 3 + 5
    assert ix.substitute(e, {0: ix.as_index(1), 1: ix.as_index(2)}) == ix.slot(2) + 11
