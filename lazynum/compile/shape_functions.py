"""Shape functions: derived sizes, simplified once by sympy, evaluated cheaply at replay.

A compiled program needs, besides its symbol values (input sizes), the derived sizes its
code uses (``n - 2`` for ``x[1:-1]``, ``n * m`` for a flatten, ``(n - 1) // 2 + 1`` for a
step-2 slice).  At compile time each canonical expression is converted to sympy (which
canonicalizes sums and products on construction: ``((n - 1) - 1)`` becomes ``n - 2``),
printed back as integer Python, and all of them are compiled into one function
``sizes(symbols) -> (s0, s1, ..., derived...)``.  Replays call that function: no sympy on
the hot path.  The source text is what the disk cache stores.
"""
from __future__ import annotations

import re

from ..expr.signature import SYM

# What ``build`` can produce: a disk entry's text must match it before it is executed
# (defense in depth behind the cache's ownership and integrity checks).
_SOURCE = re.compile(r"def sizes\((?:s\d+(?:, s\d+)*)?\):\n    return \([-s\d +*/%(),]*\)\n\Z")

_PY_OPS = {"add": "+", "sub": "-", "mul": "*", "floordiv": "//", "mod": "%"}


class ShapeFunction:
    """``function(symbols) -> sizes``; ``source`` is its Python text (persistable)."""
    __slots__ = ("source", "_fn", "n_symbols")

    def __init__(self, source: str, n_symbols: int):
        if not _SOURCE.match(source):
            raise ValueError(f"not a shape function: {source[:80]!r}")
        self.source = source
        self.n_symbols = n_symbols
        namespace: dict = {}
        exec(compile(source, "<lazynum shape function>", "exec"), namespace)  # noqa: S102 - our own generated text
        self._fn = namespace["sizes"]

    def __call__(self, symbols):
        return self._fn(*symbols)


def build(n_symbols: int, exprs: list) -> ShapeFunction:
    """The shape function returning the symbols, then each of ``exprs`` (canonical forms)."""
    names = [f"s{k}" for k in range(n_symbols)]
    values = names + [to_python(e) for e in exprs]
    params = ", ".join(names)
    body = ", ".join(values) + ("," if len(values) == 1 else "")
    return ShapeFunction(f"def sizes({params}):\n    return ({body})\n", n_symbols)


def to_python(expr) -> str:
    """Integer Python text for a canonical expression, simplified by sympy where it can."""
    try:
        return _print(_to_sympy(expr))
    except _Unprintable:
        return _plain(expr)


def _plain(expr) -> str:
    """The expression as written (always correct, never simplified)."""
    if type(expr) is int:
        return str(expr)
    if expr[0] == SYM:
        return f"s{expr[1]}"
    return f"({_plain(expr[1])} {_PY_OPS[expr[0]]} {_plain(expr[2])})"


# --- sympy round trip ---------------------------------------------------------------------

class _Unprintable(Exception):
    pass


def _to_sympy(expr):
    import sympy
    if type(expr) is int:
        return sympy.Integer(expr)
    if expr[0] == SYM:
        return sympy.Symbol(f"s{expr[1]}", integer=True, positive=True)
    a, b = _to_sympy(expr[1]), _to_sympy(expr[2])
    name = expr[0]
    if name == "add":
        return a + b
    if name == "sub":
        return a - b
    if name == "mul":
        return a * b
    if name == "floordiv":
        return sympy.floor(a / b)
    return sympy.Mod(a, b)


def _print(e) -> str:
    import sympy
    if e.is_Integer:
        return str(int(e))
    if e.is_Symbol:
        return e.name
    if e.is_Add:
        return "(" + " + ".join(_print(t) for t in e.args) + ")"
    if e.is_Mul:
        return _print_mul(e)
    if e.is_Pow and e.exp.is_Integer and e.exp > 0:
        return "(" + " * ".join([_print(e.base)] * int(e.exp)) + ")"
    if isinstance(e, (sympy.floor, sympy.ceiling)):
        numerator, denominator = sympy.fraction(sympy.together(e.args[0]))
        n, d = _print(numerator), _print(denominator)
        return f"({n} // {d})" if isinstance(e, sympy.floor) else f"(-((-{n}) // {d}))"
    if isinstance(e, sympy.Mod):
        return f"({_print(e.args[0])} % {_print(e.args[1])})"
    raise _Unprintable(e)


def _print_mul(e) -> str:
    if any(not (f.is_Integer or f.is_Symbol or f.is_Pow or f.is_Function or f.is_Add
                or f.func.__name__ == "Mod") for f in e.args):
        raise _Unprintable(e)           # a rational coefficient: not integer arithmetic
    return "(" + " * ".join(_print(f) for f in e.args) + ")"
