"""The reduction combines: what each reduction means, declared once.

Every reader takes a combine's meaning from here: the reduction primitives
(``expr.reduce``: each lowering names its combine), the front end (``reductions``: NumPy's
identity for an empty reduction and for ``where=``), bounded arrays (the fill that padding
takes so it never wins a max/min), the kernel IR and the scheduler's capability check
(``compile.kernel_ir.ARG_COMBINES``, ``backends.llvm.capabilities``) and the llvm codegen
(the accumulator's start value, the scalar op that folds a value in).  An unknown name is
a ``KeyError``: a combine missing here must fail loudly, not start from a default.

A ``Combine`` holds:

- ``identity(dtype)``: the accumulator's start value, a Python scalar that ``combine(identity,
  x) == x`` for every ``x`` of ``dtype`` (0, 1, the lowest/highest value, NaN for fmax/fmin
  on floats: ``maxnum(NaN, x) == x`` and an all-NaN slice stays NaN, as NumPy's);
  arg-reductions: a value every element beats or ties.
- ``scalar_op``: the kernel-IR scalar op (``compile.kernel_ir.SCALAR_OPS``) that combines:
  ``acc = scalar_op(acc, value)``; for arg-reductions the strict comparison that makes a
  value the new best.
- ``arg``: an arg-reduction (the first position of the best value along one axis).
- ``nan``: ``PROPAGATE`` (a NaN in the slice is the result, as NumPy's max and sum),
  ``IGNORE`` (NaN only if all are NaN, as fmax) or ``NOT_APPLICABLE`` (bool-only combines).
- ``numpy_identity``: NumPy's ufunc has an identity, so an empty reduction gives
  ``identity(dtype)`` (add, multiply, logical_or/and); without one it raises ValueError
  (maximum, minimum, fmax, fmin, argmax, argmin).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

PROPAGATE, IGNORE, NOT_APPLICABLE = "propagate", "ignore", "n/a"


@dataclass(frozen=True)
class Combine:
    name: str                       # the NumPy ufunc whose reduce this is (argmax/argmin)
    identity: Callable              # dtype -> Python scalar (see the module docstring)
    scalar_op: str                  # kernel-IR scalar op folding a value into the accumulator
    arg: bool                       # an arg-reduction (carries the best value's position)
    nan: str                        # PROPAGATE, IGNORE or NOT_APPLICABLE
    numpy_identity: bool            # an empty reduction gives identity (else NumPy raises)


def _kind(dtype) -> str:
    kind = np.dtype(dtype).kind
    if kind not in "biufc":
        raise TypeError(f"reduction combines are defined on bool, int, float and complex, "
                        f"not {dtype}")
    return kind


def lowest(dtype):
    """The value every element of ``dtype`` is at least (max's identity; complex values
    order lexicographically, as NumPy's)."""
    kind = _kind(dtype)
    if kind == "f":
        return -math.inf
    if kind == "c":
        return complex(-math.inf, -math.inf)
    return False if kind == "b" else int(np.iinfo(dtype).min)


def highest(dtype):
    """The value every element of ``dtype`` is at most (min's identity)."""
    kind = _kind(dtype)
    if kind == "f":
        return math.inf
    if kind == "c":
        return complex(math.inf, math.inf)
    return True if kind == "b" else int(np.iinfo(dtype).max)


def _constant(value):
    return lambda dtype: value


def _bits(dtype) -> str:
    kind = _kind(dtype)
    if kind not in "biu":
        raise TypeError(f"bitwise combines are defined on bool and integers, not {dtype}")
    return kind


def _all_bits(dtype):
    # bitwise_and's identity: every bit set (True for bool, -1 signed, the maximum unsigned)
    kind = _bits(dtype)
    return True if kind == "b" else -1 if kind == "i" else int(np.iinfo(dtype).max)


def _no_bits(dtype):
    return False if _bits(dtype) == "b" else 0


def _nan_or(extreme):
    # maxnum/minnum(NaN, x) == x: a NaN start ignores itself, and an all-NaN slice stays NaN
    def identity(dtype):
        kind = _kind(dtype)
        if kind == "c":
            return complex(math.nan, math.nan)
        return math.nan if kind == "f" else extreme(dtype)
    return identity


COMBINES = {c.name: c for c in (
    Combine("add", _constant(0), "add", False, PROPAGATE, True),
    Combine("multiply", _constant(1), "multiply", False, PROPAGATE, True),
    Combine("maximum", lowest, "maximum", False, PROPAGATE, False),
    Combine("minimum", highest, "minimum", False, PROPAGATE, False),
    Combine("fmax", _nan_or(lowest), "fmax", False, IGNORE, False),
    Combine("fmin", _nan_or(highest), "fmin", False, IGNORE, False),
    Combine("logical_or", _constant(False), "bitwise_or", False, NOT_APPLICABLE, True),
    Combine("logical_and", _constant(True), "bitwise_and", False, NOT_APPLICABLE, True),
    # (scatters only so far: ``expr.indexing.SCATTER_REDUCE``, for bitwise_*.at)
    Combine("bitwise_and", _all_bits, "bitwise_and", False, NOT_APPLICABLE, True),
    Combine("bitwise_or", _no_bits, "bitwise_or", False, NOT_APPLICABLE, True),
    Combine("bitwise_xor", _no_bits, "bitwise_xor", False, NOT_APPLICABLE, True),
    # NaN wins (the first one), as in NumPy: the backend adds that to the strict comparison
    Combine("argmax", lowest, "greater", True, PROPAGATE, False),
    Combine("argmin", highest, "less", True, PROPAGATE, False),
)}

ARG_COMBINES = tuple(name for name, c in COMBINES.items() if c.arg)


def lookup(name: str) -> Combine:
    """The combine called ``name``; ``KeyError`` when none is declared here."""
    try:
        return COMBINES[name]
    except KeyError:
        raise KeyError(f"no reduction combine {name!r}: declare it in lazynum/expr/combines.py "
                       f"(known: {', '.join(COMBINES)})") from None


def identity(name: str, dtype):
    """The start value of combine ``name``'s accumulator for ``dtype``."""
    return lookup(name).identity(np.dtype(dtype))


def numpy_identity(name: str, dtype):
    """What NumPy's empty ``<name>.reduce`` gives for ``dtype``; None where it raises."""
    combine = lookup(name)
    return combine.identity(np.dtype(dtype)) if combine.numpy_identity else None
