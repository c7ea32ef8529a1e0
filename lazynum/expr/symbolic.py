"""Symbolic sizes: ``SymInt``, an int that remembers how it was computed from input sizes.

Every run re-traces: the user's Python runs again and builds a fresh graph with concrete
sizes.  What the compile cache needs from a trace is therefore not a guard system but an
exact description of every size as an expression over a few input-size *symbols*, so that
two traces of the same program at different sizes produce the same key, and the program
compiled for one can evaluate the other's sizes from the bound symbols
(``docs/shapes-and-cache.md``).

- ``SymInt`` is an ``int`` subclass: its value is the size this trace saw (the hint), and
  ``.expr`` is an expression over ``Symbol``s.  Front-end code keeps using plain int
  arithmetic; ``+ - * // %``, ``-x`` and ``abs`` return SymInts with exact expressions.
  Anything that leaves the SymInt world (``int()``, ``len()``, NumPy calls) yields a
  plain int, which the key records as a static number: correct, merely not dynamic.
- 0/1 specialization: an input dim or an arithmetic result equal to 0 or 1 is a plain int
  (those sizes change broadcasting and emptiness, so they belong in the key).
- Duck sizing (equal input sizes share a canonical symbol) is done per cut by the
  signature (``signature.py``).  ``symbolize`` also reuses one SymInt per value within a
  trace, but only to save allocations; ``new_trace()`` (after every sync) resets that.
- Comparisons use the hint (``if x.shape[0] > 2:`` specializes on it).  No guard is
  needed for that: the branch the new trace takes is in the new trace's graph and key.

Expressions are a Symbol, an int, or a tuple ``(op, a, b)`` with op in ``add sub mul
floordiv mod``; they are hashed structurally and normalized only at compile time
(``lazynum.compile.shape_functions``).
"""
from __future__ import annotations

import itertools
import operator
import threading

from ..control import settings

_symbol_ids = itertools.count()      # next() is one C call: atomic under the GIL


class Symbol:
    """An input size: a name plus the inclusive range its values may take."""
    __slots__ = ("id", "lo", "hi")

    def __init__(self, lo: int = 2, hi: int | None = None):
        self.id = next(_symbol_ids)
        self.lo = lo
        self.hi = hi

    @property
    def ranged(self) -> bool:
        """True when the user declared a range (``mark_dynamic``): part of the key."""
        return self.lo != 2 or self.hi is not None

    def __repr__(self):
        return f"s{self.id}"


class SymInt(int):
    """An ``int`` (the value this trace saw) carrying ``expr``, its exact expression."""

    def __new__(cls, value: int, expr):
        self = int.__new__(cls, value)
        self.expr = expr
        return self

    def __reduce__(self):          # pickles/copies carry the number, not the symbol
        return (int, (int(self),))

    __repr__ = int.__repr__
    __str__ = int.__repr__

    def __neg__(self):
        return _make(-int(self), ("mul", -1, self.expr))

    def __pos__(self):
        return self

    def __abs__(self):
        return self if int(self) >= 0 else -self


def expr_of(value):
    """The expression of an int: its symbolic expression, or the number itself."""
    return value.expr if type(value) is SymInt else int(value)


def as_index(value):
    """``operator.index`` that keeps a SymInt (``operator.index`` returns an exact int)."""
    return value if type(value) is SymInt else operator.index(value)


def is_symbolic(value) -> bool:
    return type(value) is SymInt


def _make(value: int, expr):
    """A SymInt, or a plain int when the value is 0/1 (0/1 specialization)."""
    if value == 0 or value == 1:
        return value
    return SymInt(value, expr)


def _arith(name, compute, reflected=False):
    # The hot path of slice-heavy tracing: one type test, no helper calls for a plain-int
    # operand (``n - 1``), the 0/1 specialization inline, and the peephole rules that keep
    # common keys short (``n + 0``, ``0 + n``, ``n * 1``, ``1 * n``, ``n // 1`` are ``n``).
    identity = 0 if name in ("add", "sub") else 1 if name in ("mul", "floordiv") else None
    new = int.__new__

    # The plain-int operand for which the result is ``self`` itself (None: no such int).
    neutral = identity if not reflected or name in ("add", "mul") else None

    def method(self, other):
        kind = type(other)
        if kind is int:             # the common case, first: ``n - 1``, ``c * stride``
            value = compute(other, self) if reflected else compute(self, other)
            if value == 0 or value == 1:
                return value
            result = new(SymInt, value)
            result.expr = self.expr if other == neutral else (
                (name, other, self.expr) if reflected else (name, self.expr, other))
            return result
        if kind is SymInt:
            other_value, other_expr = int.__int__(other), other.expr
        elif kind is int or kind is bool or isinstance(other, int):
            other_value = other_expr = int(other)
        else:
            return NotImplemented
        self_value = int.__int__(self)
        if reflected:
            value = compute(other_value, self_value)
            if other_expr == identity and kind is not SymInt and name in ("add", "mul"):
                expr = self.expr
            else:
                expr = (name, other_expr, self.expr)
        else:
            value = compute(self_value, other_value)
            expr = self.expr if (other_expr == identity and kind is not SymInt) else (
                name, self.expr, other_expr)
        if value == 0 or value == 1:
            return value
        result = new(SymInt, value)
        result.expr = expr
        return result
    method.__name__ = f"__{'r' if reflected else ''}{name}__"
    return method


_OPS = {"add": int.__add__, "sub": int.__sub__, "mul": int.__mul__,
        "floordiv": int.__floordiv__, "mod": int.__mod__}
for _name, _compute in _OPS.items():
    setattr(SymInt, f"__{_name}__", _arith(_name, _compute))
    setattr(SymInt, f"__r{_name}__", _arith(_name, _compute, reflected=True))


def symbols_in(expr, found=None) -> list:
    """The Symbols of ``expr`` in first-appearance order (iterative walk)."""
    found = [] if found is None else found
    stack = [expr]
    while stack:
        e = stack.pop()
        if type(e) is tuple:
            stack.extend(reversed(e[1:]))
        elif type(e) is Symbol and e not in found:
            found.append(e)
    return found


def evaluate(expr, values: dict) -> int:
    """``expr`` at the symbol values ``values`` (Symbol -> int); used by consistency checks."""
    if type(expr) is Symbol:
        return values[expr]
    if type(expr) is not tuple:
        return expr
    name, a, b = expr
    return _OPS[name](evaluate(a, values), evaluate(b, values))


# --- the per-trace symbol table (duck sizing) ---------------------------------------------

class _Trace(threading.local):
    """The calling thread's trace: its value->symbol table, and whether input sizes are
    symbolic (``dynamic_shapes`` of its own ``lazynum.config``; False: every dim static)."""

    def __init__(self):
        self.by_value = {}
        self.dynamic = settings.get().dynamic_shapes


_trace = _Trace()


def set_dynamic(dynamic: bool) -> None:
    """Whether the calling thread's input sizes become symbols (from its settings)."""
    _trace.dynamic = dynamic


def symbolize(shape: tuple) -> tuple:
    """``shape`` with every dim >= 2 replaced by its trace's symbol (equal sizes share one)."""
    trace = _trace
    if not trace.dynamic:
        return tuple(int(d) for d in shape)
    by_value = trace.by_value
    out = []
    for d in shape:
        if type(d) is SymInt or d < 2:
            out.append(d)
            continue
        sym = by_value.get(d)
        if sym is None:
            sym = by_value[d] = SymInt(d, Symbol())
        out.append(sym)
    return tuple(out)


def fresh(value: int, lo: int = 2, hi: int | None = None) -> SymInt:
    """A size with its own symbol (not duck-sized) and a declared range."""
    return SymInt(value, Symbol(lo, hi))


def new_trace() -> None:
    """Start a new value→symbol table for the calling thread (after its sync: the next
    trace's inputs are new)."""
    _trace.by_value.clear()
