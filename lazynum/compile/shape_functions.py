"""Shape functions: derived sizes, normalized once, evaluated cheaply at replay.

A compiled program needs, besides its symbol values (input sizes), the derived sizes its
code uses (``n - 2`` for ``x[1:-1]``, ``n * m`` for a flatten, ``(n - 1) // 2 + 1`` for a
step-2 slice).  At compile time each canonical expression is normalized as an integer
polynomial over the symbols (sums and products collected: ``((n - 1) - 1)`` becomes
``n - 2``; a floor division or remainder is an atom of its normalized operands, folded when
both are numbers or the divisor is 1), printed as integer Python, and all of them are
compiled into one function ``sizes(symbols) -> (s0, s1, ..., derived...)``.  Replays call
that function.  The source text is what the disk cache stores.  (No sympy: importing it
cost a new process a third of a second at its first compile.)
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
    """Integer Python text for a canonical expression, as a normalized polynomial."""
    return _print(_poly(expr))


def _plain(expr) -> str:
    """The expression as written (always correct, never simplified)."""
    if type(expr) is int:
        return str(expr)
    if expr[0] == SYM:
        return f"s{expr[1]}"
    return f"({_plain(expr[1])} {_PY_OPS[expr[0]]} {_plain(expr[2])})"


# --- integer polynomials: {monomial (sorted tuple of atoms): coefficient} -----------------
# An atom is ("s", k) for symbol k, or (op, a, b) for a floor division or remainder of two
# frozen polynomials.

def _poly(expr) -> dict:
    if type(expr) is int:
        return {(): expr} if expr else {}
    if expr[0] == SYM:
        return {(("s", expr[1]),): 1}
    a, b = _poly(expr[1]), _poly(expr[2])
    name = expr[0]
    if name == "add":
        return _sum(a, b, 1)
    if name == "sub":
        return _sum(a, b, -1)
    if name == "mul":
        return _product(a, b)
    return _division(name, a, b)


def _sum(a, b, sign) -> dict:
    out = dict(a)
    for monomial, coef in b.items():
        total = out.get(monomial, 0) + sign * coef
        if total:
            out[monomial] = total
        else:
            out.pop(monomial, None)
    return out


def _product(a, b) -> dict:
    out: dict = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            monomial = tuple(sorted(ma + mb, key=repr))
            out = _sum(out, {monomial: ca * cb}, 1)
    return out


def _division(name, a, b) -> dict:
    constant_a, constant_b = _constant(a), _constant(b)
    if constant_b == 1:
        return a if name == "floordiv" else {}
    if constant_a is not None and constant_b is not None and constant_b != 0:
        value = constant_a // constant_b if name == "floordiv" else constant_a % constant_b
        return {(): value} if value else {}
    return {((name, _frozen(a), _frozen(b)),): 1}


def _constant(poly):
    if not poly:
        return 0
    return poly[()] if len(poly) == 1 and () in poly else None


def _frozen(poly) -> tuple:
    return tuple(sorted(poly.items(), key=repr))


def _print(poly) -> str:
    if not poly:
        return "0"
    terms = []
    for monomial, coef in sorted(poly.items(), key=lambda item: (len(item[0]), repr(item[0]))):
        factors = [_print_atom(atom) for atom in monomial]
        if coef != 1 or not factors:
            factors.insert(0, str(coef))
        terms.append(" * ".join(factors))
    if poly.keys() == {()}:
        return terms[0]                 # a number
    return "(" + " + ".join(terms) + ")"


def _print_atom(atom) -> str:
    if atom[0] == "s":
        return f"s{atom[1]}"
    op = "//" if atom[0] == "floordiv" else "%"
    return f"({_print(dict(atom[1]))} {op} {_print(dict(atom[2]))})"
